#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# check-debug.sh: the VM selftests and a short stress on the debug kernel of
# scripts/debug-kernel.sh (lockdep, PROVE_RCU, DEBUG_ATOMIC_SLEEP, KASAN,
# kmemleak), then a kmemleak scan after load/unload cycles.  The module is
# built for that kernel in build/debug-mod, apart from the Debian one.
# Every splat fails a test: lib.sh's dmesg check matches BUG (KASAN),
# WARNING (lockdep) and "sleeping function"; kmemleak is read explicitly.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kdir=$("$top/scripts/debug-kernel.sh" | sed -n 's/^KDIR=//p')
[ -n "$kdir" ] || { echo "not ok debug kernel build"; echo "0 passed, 1 failed"; exit 1; }
mod=$top/build/debug-mod
"$top/scripts/mod-sources.sh" "$mod"
make -s -C "$kdir" M="$mod" modules >"$mod/build.log" 2>&1 ||
	{ tail -n 20 "$mod/build.log"; echo "not ok module for the debug kernel"; echo "0 passed, 1 failed"; exit 1; }
export SP_KERNEL=$kdir/arch/x86/boot/bzImage SP_MODULE=$mod/sched_power.ko
# test_freq.sh's cpufreq driver, for the same kernel (else test_freq skips),
# and the x86 guest's cpuidle driver (loaded only with SP_TESTIDLE=1)
tf=$top/build/debug-testfreq
rm -rf "$tf" && mkdir -p "$tf"
cp "$top"/selftests/testfreq/Kbuild "$top"/selftests/testfreq/*.c "$tf/"
p=0 f=0
if make -s -C "$kdir" M="$tf" modules >"$tf/build.log" 2>&1; then
	export SP_TESTFREQ_KO=$tf/sp_testfreq.ko SP_TESTIDLE_KO=$tf/sp_testidle.ko
else
	tail -n 20 "$tf/build.log"
	echo "not ok sp_testfreq for the debug kernel (without it test_freq skips)"
	f=$((f + 1))
fi
export SP_VM_TIMEOUT=${SP_VM_TIMEOUT:-2400}
count() {	# count LOG: add the "vm: N passed, N failed" of a run
	local line
	line=$(grep '^vm: ' "$1" | tail -n 1)
	if [ -z "$line" ]; then f=$((f + 1)); echo "not ok $2 (no summary)"; return; fi
	p=$((p + $(echo "$line" | sed -n 's/^vm: \([0-9]*\) passed.*/\1/p')))
	f=$((f + $(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')))
}
"$top/selftests/vm-run.sh" --tests | tee "$mod/tests.txt"
count "$mod/tests.txt" tests
cat >"$mod/leak.sh" <<'LEAK'
# load/unload under load, then two kmemleak scans (it reports on the second)
mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
/sp/sp_load pingpong 2 1000000000 >/dev/null 2>&1 &
lp=$!
for i in 1 2 3 4 5 6 7 8 9 10; do
	insmod /sp/sched_power.ko mode=power && sleep 0.3 && rmmod sched_power
done
kill $lp
echo clear > /sys/kernel/debug/kmemleak
for i in 1 2 3; do insmod /sp/sched_power.ko mode=power; sleep 0.3; rmmod sched_power; done
echo scan > /sys/kernel/debug/kmemleak; sleep 6; echo scan > /sys/kernel/debug/kmemleak
n=$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak)
if [ "$n" -eq 0 ]; then tap_ok "kmemleak: no unreferenced object after 13 load/unload cycles"
else tap_fail "kmemleak: unreferenced objects" "$(head -n 30 /sys/kernel/debug/kmemleak)"; fi
if dmesg | grep -E 'BUG:|WARNING:|sleeping function|possible recursive|circular locking|suspicious RCU'; then
	tap_fail "debug kernel: splat in dmesg"
else tap_ok "debug kernel: no lockdep, KASAN, RCU or atomic-sleep splat in dmesg"; fi
echo "vm: $TAP_PASS passed, $TAP_FAIL failed, 0 skipped"
LEAK
# load/unload under load: single-threaded TCG, as make stress (hook.rst)
SP_VM_TCG=single "$top/selftests/vm-run.sh" --script "$mod/leak.sh" | tee "$mod/leak.txt"
count "$mod/leak.txt" kmemleak
# the stress job (load/unload and hotplug under load, writers), shorter: the
# debug kernel runs several times slower than Debian's
STRESS_CYCLES=${DEBUG_STRESS_CYCLES:-30} STRESS_HOTPLUG=${DEBUG_STRESS_HOTPLUG:-10} \
	SP_VM_ENV="STRESS_CYCLES STRESS_HOTPLUG" \
	"$top/selftests/vm-run.sh" --stress | tee "$mod/stress.txt"
count "$mod/stress.txt" stress
echo "# check-debug: kernel $SP_KERNEL"
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
