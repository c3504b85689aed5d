#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: host unit tests, then the VM selftests; ends with the total
# "N passed, N failed" line that CI reads.  Arguments: host test binaries.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
start=$(date +%s)
hp=0 hf=0 vp=0 vf=0

. "$top/tests/phase.sh"

# The second core.  The host part below runs one thing at a time and
# nothing timed; beside it, and then beside the x86 VM jobs, this runs one
# job at a time:
#  1. the three fuzzers (single-threaded, CPU-bound, their own objects
#     under build/fuzz), each one test, collected after the x86 VM jobs;
#  2. the arm64 sysroot fetch and the arm64 builds (build/arm64), so the
#     arm64 part at the end only boots its VM;
#  3. with SP_CHECK_6_12_OUT=FILE (.ci/run): scripts/check-newer.sh, the
#     x86 suite on the 6.12 kernel (make check-6.12), its output to FILE
#     and its exit status to FILE.rc; it starts once the host part is done
#     (its newer_headers test builds build/newer, which check-newer.sh
#     then finds built) and so shares the machine with one VM at a time.
# The arm64 VM, whose balance test is the most timing-sensitive one, runs
# after all of this, alone.
side=$(mktemp -d)
(
	lap() {
		echo "# phase $1 (second core) took $(($(date +%s) - lap_t0)) s" >>"$side/times"
		lap_t0=$(date +%s)
	}
	lap_t0=$(date +%s)
	if [ "${SP_CHECK_FUZZ:-1}" = 1 ]; then
		make -s -C "$top" fuzz >"$side/model.out" 2>&1
		echo $? >"$side/model.rc"
		lap fuzz_model
		# sp-report's trace.dat reader and its analysis, short runs
		# (FUZZ_REPORT_RUNS, FUZZ_EVENTS_RUNS)
		make -s -C "$top" fuzz-report >"$side/report.out" 2>&1
		echo $? >"$side/report.rc"
		lap fuzz_report
		make -s -C "$top" fuzz-events >"$side/events.out" 2>&1
		echo $? >"$side/events.rc"
		lap fuzz_events
	fi
	# a failed fetch or build here is redone, and reported, by the arm64 part
	if [ "${SP_CHECK_ARM64:-1}" = 1 ]; then
		make -s -C "$top" arm64-fetch >/dev/null 2>&1 &&
			make -s -C "$top" arm64 arm64-guest-tools arm64-testfreq >/dev/null 2>&1
		lap "arm64 fetch and build"
	fi
	if [ -n "${SP_CHECK_6_12_OUT:-}" ]; then
		while [ ! -e "$side/host-done" ] && kill -0 $$ 2>/dev/null; do sleep 1; done
		lap_t0=$(date +%s)
		"$top/scripts/check-newer.sh" >"$SP_CHECK_6_12_OUT" 2>&1
		echo $? >"$SP_CHECK_6_12_OUT.rc"
		lap "make check-6.12"
	fi
) &
side_pid=$!

phase host-tests
host_out=$("$top/tests/run-host.sh" "$@" 2>&1)
printf '%s\n' "$host_out"
line=$(printf '%s\n' "$host_out" | grep '^host: ' | tail -n 1)
hp=$(echo "$line" | sed -n 's/^host: \([0-9]*\) passed.*/\1/p')
hf=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
[ -n "$hp" ] || { hp=0; hf=1; }

# check_step NAME TAIL CMD...: one test from CMD's exit status: 0 passed, 4
# skipped (CMD's last line the reason), else failed (its last line said);
# CMD's last TAIL lines are printed first.
check_step() {
	local name=$1 tail=$2 out rc
	shift 2
	out=$("$@" 2>&1); rc=$?
	printf '%s\n' "$out" | tail -n "$tail"
	case $rc in
	0) hp=$((hp + 1)); echo "ok $name" ;;
	4) echo "ok $name # SKIP $(printf '%s\n' "$out" | tail -n 1)" ;;
	*) hf=$((hf + 1)); echo "not ok $name # $(printf '%s\n' "$out" | grep -v '^newer-headers:   ' | tail -n 1)" ;;
	esac
}


# No two source files of the module, the core, the simulator or sp-report
# call each other, directly or in a loop (one test; make circles).
phase circles
ci_out=$(make -s -C "$top" circles 2>&1); ci_rc=$?
printf '%s\n' "$ci_out" | grep -v '^make\|^  \|^Skipping BTF' | tail -n 20
if [ $ci_rc -eq 0 ]; then hp=$((hp + 1)); echo "ok circles"
else hf=$((hf + 1)); echo "not ok circles"; fi

# checkpatch --strict on the module's files (one test; skipped without
# linux-source-6.1, which scripts/install-deps.sh installs).
phase checkpatch
check_step checkpatch 20 "$top/scripts/checkpatch.sh"

# The core divides 64-bit values only through sp_div_u64()/sp_div_s64(), so a
# 32-bit kernel could link it (one test; skipped without gcc -m32).
phase div32
check_step div32 3 "$top/scripts/check-div32.sh"

# The fast decision chooses the CPU the exhaustive one does: on 1 M seeded
# random snapshots over every model (place_equiv.c), and on every decision of
# every simulator story (sim_equiv.c); one test each (make place-equiv and
# make sim-equiv run the long and the full forms).
phase place-equiv
pe_out=$(make -s -C "$top" place-equiv EQUIV_N=1000000 2>&1); pe_rc=$?
printf '%s\n' "$pe_out" | grep '^place-equiv' | tail -n 1
if [ $pe_rc -eq 0 ]; then hp=$((hp + 1)); echo "ok place_equiv"
else hf=$((hf + 1)); echo "not ok place_equiv"; printf '%s\n' "$pe_out" | tail -n 10; fi
phase sim-equiv
se_out=$(make -s -C "$top" sim-equiv 2>&1); se_rc=$?
printf '%s\n' "$se_out" | grep '^sim-equiv' | tr '\n' ';'; echo
if [ $se_rc -eq 0 ]; then hp=$((hp + 1)); echo "ok sim_equiv"
else hf=$((hf + 1)); echo "not ok sim_equiv"; printf '%s\n' "$se_out" | tail -n 10; fi

# Documentation/ renders with Sphinx and the kernel-doc comments, warning
# free (one test; skipped without python3-sphinx or linux-source-6.1).
phase htmldocs
check_step htmldocs 10 "$top/scripts/htmldocs.sh" "$top/build/htmldocs"

# One prefix per file (scripts/check-prefixes.py's table; the exceptions
# are listed there and in Documentation/sched_power.rst) and kernel-doc on
# every callable function (scripts/check-kdoc.py; files pending conversion
# are listed there): one test each.
phase prefixes+kdoc
for chk in prefixes kdoc; do
	check_step $chk 20 python3 "$top/scripts/check-$chk.py"
done

# The module against the newest headers Debian 12 offers beyond 6.1 (one
# test; skipped when apt has none).
phase newer-headers
check_step newer_headers 5 "$top/scripts/newer-headers.sh" "$top/build/newer"

# Every script the guest runs parses under busybox sh (one test per script).
phase guest-sh
gs_out=$("$top/tests/check-guest-sh.sh" 2>&1)
printf '%s\n' "$gs_out" | grep -v '^ok '
gs=$(printf '%s\n' "$gs_out" | grep '^guest-sh: ' | tail -n 1)
gp=$(echo "$gs" | sed -n 's/^guest-sh: \([0-9]*\) passed.*/\1/p')
gf=$(echo "$gs" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
if [ -n "$gp" ] && [ -n "$gf" ]; then
	hp=$((hp + gp)); hf=$((hf + gf))
else
	# no summary line: the checker stopped early, one failure
	hf=$((hf + 1)); echo "not ok guest_sh # no summary line"; printf '%s\n' "$gs_out" | tail -n 5
fi

phase dkms
# DKMS add/build/install/remove for the installed Debian kernel (root only).
if [ "${SP_CHECK_DKMS:-1}" = 1 ] && [ "$(id -u)" -eq 0 ]; then
	if "$top/scripts/dkms-test.sh"; then hp=$((hp + 1)); else hf=$((hf + 1)); fi
fi

# vm_job ARGS...: one VM run; adds its "vm: N passed, N failed" to vp/vf.
vm_job() {
	local out rc line p f
	out=$("$top/selftests/vm-run.sh" "$@" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	line=$(printf '%s\n' "$out" | grep '^vm: ' | tail -n 1)
	p=$(echo "$line" | sed -n 's/^vm: \([0-9]*\) passed.*/\1/p')
	f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
	if [ -z "$p" ]; then p=0; f=1; echo "# VM run $* produced no summary (rc=$rc)"; fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "# VM run $* failed (rc=$rc)"; fi
	vp=$((vp + p)); vf=$((vf + f))
}
phase "vm x86 tests"
# the host part is done: the second core may start make check-6.12
touch "$side/host-done"
vm_job --tests
phase "vm x86 cpufreq.off"
# cpufreq.off=1: sched_power loads without cpufreq and has no OPP floor
# (test_freq.sh's cpufreq.off branch; one short boot)
SP_VM_CMDLINE="cpufreq.off=1 quiet loglevel=3" SP_TESTS=freq vm_job --tests
# The x86 guest under its test cpuidle driver, loaded at boot (it cannot be
# unloaded): the menu governor decides the tick, sched_power reads the
# driver's states (Documentation/testfreq.rst; one short boot)
phase "vm x86 sp_testidle"
SP_TESTIDLE=1 SP_TESTS="idle testidle" SP_VM_ENV="SP_TESTIDLE ${SP_VM_ENV:-}" vm_job --tests
# CPU 3 hot-removed under a resume-latency request (issue 22 item 7): its
# own run, under multi-threaded TCG (qemu removes a vCPU only there)
phase "vm x86 hot-removal"
SP_VM_TCG=multi SP_LAT_HOTREMOVE=1 SP_TESTS=latency_hotremove \
	SP_VM_ENV="SP_LAT_HOTREMOVE ${SP_VM_ENV:-}" vm_job --tests
# the short stress: load/unload and hotplug cycles under load (make stress: 100, 50)
phase "vm x86 stress"
STRESS_CYCLES=${STRESS_CYCLES:-20} STRESS_HOTPLUG=${STRESS_HOTPLUG:-10} STRESS_SWITCHES=${STRESS_SWITCHES:-10} \
	SP_VM_ENV="STRESS_CYCLES STRESS_HOTPLUG STRESS_SWITCHES ${SP_VM_ENV:-}" vm_job --stress

phase "second core (waiting for it)"
wait "$side_pid"
cat "$side/times" 2>/dev/null
# Each fuzzer under ASan/UBSan counts as one test (FUZZ_RUNS, FUZZ_REPORT_RUNS,
# FUZZ_EVENTS_RUNS).
if [ "${SP_CHECK_FUZZ:-1}" = 1 ]; then
	for f in model report events; do
		cat "$side/$f.out" 2>/dev/null
		if [ "$(cat "$side/$f.rc" 2>/dev/null)" = 0 ]; then
			hp=$((hp + 1)); echo "ok fuzz_$f"
		else
			hf=$((hf + 1)); echo "not ok fuzz_$f"
		fi
	done
fi
rm -rf "$side"

# arm64: cross-built module on the big.LITTLE virt board, a subset
# (SP_ARM64_TESTS); SKIP (counted as neither) when the packages are missing.
phase "arm64 fetch"
ap=0 af=0 astart=$(date +%s)
if [ "${SP_CHECK_ARM64:-1}" = 1 ]; then
	if ! make -s -C "$top" arm64-fetch >/tmp/sp-arm64-fetch.$$ 2>&1; then
		if grep -q 'SKIP' /tmp/sp-arm64-fetch.$$; then
			echo "ok arm64 # SKIP $(grep -m1 SKIP /tmp/sp-arm64-fetch.$$)"
		else
			af=1; echo "not ok arm64 fetch"; tail -n 5 /tmp/sp-arm64-fetch.$$
		fi
	else
		phase "arm64 build and VM"
		a_out=$(make -s -C "$top" arm64-tests 2>&1)
		printf '%s\n' "$a_out" | grep -v '^make\|^cp \|BTF'
		line=$(printf '%s\n' "$a_out" | grep '^vm: ' | tail -n 1)
		ap=$(echo "$line" | sed -n 's/^vm: \([0-9]*\) passed.*/\1/p')
		af=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
		[ -n "$ap" ] || { ap=0; af=1; echo "# arm64 VM run produced no summary"; }
	fi
	rm -f /tmp/sp-arm64-fetch.$$
	echo "# arm64 part: $ap passed, $af failed, wall $(( $(date +%s) - astart )) s"
fi
vp=$((vp + ap)); vf=$((vf + af))
phase

echo "# make check: host $hp/$((hp + hf)), vm $vp/$((vp + vf)), wall $(( $(date +%s) - start )) s"
echo "$((hp + vp)) passed, $((hf + vf)) failed"
[ $((hf + vf)) -eq 0 ]
