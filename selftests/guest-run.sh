#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of vm-run.sh: runs one job inside the booted test kernel.
#   tests  insmod, every test_*.sh (sourced, TAP), rmmod, dmesg/taint checks
#   demo   insmod, a short wake-up load traced with trace-cmd, rmmod
#   stress test_stress.sh alone with the full counts (100 cycles, 50 hotplugs)
#   bench  the VM benchmark script, if present
#   overhead  tools/overhead/ovh-run.sh: perf bench sched pipe/messaging per configuration
#   powerbench  tools/power-bench/pb-run.sh $PB_RUN_ARGS (power-bench --vm), with the
#               test cpufreq driver (-t) when vm-run.sh put one in
# SP_TESTIDLE=1 (job.env): the test cpuidle driver loaded first, for any job.
#   script /sp/script.sh (vm-run.sh --script FILE), for debugging
# SP_ONLY (from sp_only= on the command line): comma list of tests to run.
cd /sp
. ./lib.sh
. ./testfreq_lib.sh
# Variables the host passed in (vm-run.sh SP_VM_ENV).
[ -f ./job.env ] && . ./job.env
KO=/sp/sched_power.ko
# SP_TESTIDLE=1: the x86 guest's test cpuidle driver for the whole boot,
# before any job (Documentation/testfreq.rst)
ti_boot

# Kernel messages since insmod (boot messages of the TCG guest are not ours),
# moved out of the ring buffer (dmesg -c) into /tmp/dmesg.run after insmod
# and after every test file, so that a splat early in a long run is still
# there at the end when a chatty kernel (the debug kernel) wraps the buffer.
dmesg_collect() {
	dmesg -c >>/tmp/dmesg.run 2>/dev/null
}

dmesg_new() {
	dmesg_collect
	cat /tmp/dmesg.run 2>/dev/null
}

dmesg_clean() {
	! dmesg_new | grep -E -q "$DMESG_BAD"
}

# check_taint NAME: no taint bit beyond O/E and those the kernel had
# before insmod (base_taint; "kernel untainted before insmod" reports
# those, which are the boot's, not the module's)
check_taint() {
	t=$(cat /proc/sys/kernel/tainted)
	if [ "$(taint_beyond "$t" "${base_taint:-0}")" -eq 0 ]; then
		tap_ok "$1 (tainted=$t)"
	else
		tap_fail "$1" "tainted=$t has bits beyond O/E and the ${base_taint:-0} of before insmod"
	fi
}

run_tests() {
	echo "TAP version 13"
	echo "# kernel $(uname -r), $(nproc) CPUs, cpuidle driver $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)"
	base_taint=$(cat /proc/sys/kernel/tainted)
	dmesg -c >/tmp/dmesg.boot 2>/dev/null
	: >/tmp/dmesg.run
	n=$(grep -E -c "$DMESG_BAD" /tmp/dmesg.boot)
	echo "# boot: $n dmesg lines match the bad patterns before insmod (not counted)"
	[ "$n" -gt 0 ] && grep -E -A 40 "$DMESG_BAD" /tmp/dmesg.boot | head -n 60 | sed 's/^/#   /'
	# sp_testidle, loaded at boot, is out of tree too: O/E allowed then
	if [ "$base_taint" -eq 0 ]; then tap_ok "kernel untainted before insmod"
	elif [ -n "$TI_STATE" ] && [ "$(taint_beyond "$base_taint" 0)" -eq 0 ]; then
		tap_ok "kernel has only sp_testidle's O/E taint before insmod (tainted=$base_taint)"
	else tap_fail "kernel untainted before insmod" "tainted=$base_taint"; fi
	# SP_TESTFREQ=1 (make arm64-tests): the whole run under the test
	# cpufreq driver, loaded first (Documentation/testfreq.rst)
	if [ "${SP_TESTFREQ:-0}" = 1 ]; then
		tf_load && tap_ok "insmod sp_testfreq.ko (before sched_power: $(tf_policies | wc -l) policies)" ||
			tap_fail "insmod sp_testfreq.ko" "$(cat /tmp/tf_insmod.err)"
	fi
	case "$TI_STATE" in
	ok:*)
		tap_ok "insmod sp_testidle.ko at boot (${TI_STATE#ok: })"
		# its messages and the rest since, in dmesg.boot (the boot's own: dmesg.preti)
		n=$(grep -E -c "$DMESG_BAD" /tmp/dmesg.boot)
		[ "$n" -eq 0 ] && tap_ok "dmesg clean from sp_testidle's insmod to sched_power's" ||
			tap_fail "dmesg clean from sp_testidle's insmod to sched_power's" "$(grep -E -A 12 "$DMESG_BAD" /tmp/dmesg.boot | head -n 30)"
		;;
	failed:*) tap_fail "insmod sp_testidle.ko at boot" "${TI_STATE#failed: }" ;;
	esac
	if insmod $KO 2>/tmp/insmod.err; then
		tap_ok "insmod sched_power.ko"
	else
		tap_fail "insmod sched_power.ko" "$(cat /tmp/insmod.err)" "$(dmesg | tail -n 20)"
		echo "1..$TAP_N"
		echo "vm: $TAP_PASS passed, $TAP_FAIL failed"
		return 1
	fi
	check_taint "only O/E taint after insmod"
	if dmesg_clean; then
		tap_ok "dmesg clean after insmod (no lockdep, KASAN, WARN or BUG report)"
	else
		tap_fail "dmesg clean after insmod" "$(dmesg_new | grep -E -A 12 "$DMESG_BAD" | head -n 30)"
	fi
	for t in ./test_*.sh; do
		[ -f "$t" ] || continue
		n=${t#./test_}; n=${n%.sh}
		if [ -n "$SP_ONLY" ] && ! echo ",$SP_ONLY," | grep -q ",$n,"; then continue; fi
		# the stress job runs test_stress.sh alone (vm-run.sh --stress)
		[ -z "$SP_ONLY" ] && [ "$n" = stress ] && continue
		echo "# ---- $t"
		sp_run_name=$t sp_run_t0=$(cut -d. -f1 /proc/uptime)
		. "$t"
		dmesg_collect
		echo "# ---- $sp_run_name took $(( $(cut -d. -f1 /proc/uptime) - sp_run_t0 )) s"
	done
	sp_write mode off
	if rmmod sched_power 2>/tmp/rmmod.err; then
		tap_ok "rmmod sched_power"
	else
		tap_fail "rmmod sched_power" "$(cat /tmp/rmmod.err)"
	fi
	if [ ! -d $SP ] && [ ! -d $TRACEFS/events/sched_power ]; then
		tap_ok "sysfs tree and trace events gone after rmmod"
	else
		tap_fail "sysfs tree and trace events gone after rmmod"
	fi
	if dmesg_clean; then
		tap_ok "dmesg has no oops, WARN, BUG since insmod"
	else
		tap_fail "dmesg has no oops, WARN, BUG since insmod" "$(dmesg_new | grep -E -A 12 "$DMESG_BAD" | head -n 40)"
	fi
	check_taint "only O/E taint at the end"
	echo "1..$TAP_N"
	echo "vm: $TAP_PASS passed, $TAP_FAIL failed, $TAP_SKIP skipped"
	[ "$TAP_FAIL" -eq 0 ]
}

run_demo() {
	dmesg -c >/tmp/dmesg.boot 2>/dev/null
	: >/tmp/dmesg.run
	insmod $KO mode=observe || return 1
	echo "# sched_power $(cat $SP/version) loaded; mode: $(cat $SP/mode)"
	echo "# model source: $(cat $SP/model_source 2>/dev/null)"
	cd /tmp
	trace-cmd record -q -e sched_power:sched_power_select -o /tmp/demo.dat \
		sh -c '. /sp/lib.sh; wake_load 30' >/dev/null 2>&1
	trace-cmd report -i /tmp/demo.dat 2>/dev/null | grep sched_power_select | head -n 15
	echo "# stats:"
	stats_dump | sed 's/^/#   /'
	rmmod sched_power || return 1
	dmesg_clean && return 0
	echo "# kernel messages since insmod that look like a splat:"
	dmesg_new | grep -E -A 8 "$DMESG_BAD" | head -n 30 | sed 's/^/#   /'
	return 1
}

case "$1" in
tests) run_tests ;;
stress) SP_ONLY=stress STRESS_CYCLES=${STRESS_CYCLES:-100} STRESS_HOTPLUG=${STRESS_HOTPLUG:-50} STRESS_SWITCHES=${STRESS_SWITCHES:-50} run_tests ;;
demo) run_demo ;;
script) . ./script.sh ;;
powerbench) [ ! -f $TF_KO ] || tf="-t $TF_KO"; PB_BIN=/sp sh ./pb/pb-run.sh -m $KO ${tf:-} $PB_RUN_ARGS ;;
overhead) sh ./ovh-run.sh $KO ;;
bench) if [ -f ./vm-bench.sh ]; then sh ./vm-bench.sh $KO; else echo "no vm-bench.sh"; false; fi ;;
*) echo "unknown job '$1'"; false ;;
esac
