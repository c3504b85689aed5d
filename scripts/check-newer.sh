#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check-6.12: the x86 VM suite on the newest kernel Debian 12 ships
# beyond 6.1 (6.12 today), with the module built against that kernel's
# headers (scripts/newer-headers.sh) and its image fetched without
# installing it (scripts/newer-kernel.sh).  The console log goes to
# build/vm-newer/tests.log, apart from the 6.1 run's.  Ends with
# "N passed, N failed" as make check does; a SKIP line (exit 0) when apt
# offers no newer kernel.  .ci/run has make check run it beside its x86
# VM jobs (SP_CHECK_6_12_OUT, tests/check.sh; README.md, "Quick start":
# why it is not inside make check).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
start=$(date +%s)
. "$top/tests/phase.sh"
skip() { echo "ok check_6_12 # SKIP $*"; echo "0 passed, 0 failed"; exit 0; }
phase "6.12 module build"
nh=$("$top/scripts/newer-headers.sh" "$top/build/newer" 2>&1)
case $? in
0) echo "$nh" | tail -n 1 ;;
4) skip "$(echo "$nh" | tail -n 1)" ;;
*) echo "$nh" | tail -n 20; echo "not ok check_6_12 # module build failed"; echo "0 passed, 1 failed"; exit 1 ;;
esac
phase "6.12 kernel fetch"
kernel=$("$top/scripts/newer-kernel.sh" "$top/build/newer-kernel" 2>&1)
case $? in
0) ;;
4) skip "$kernel" ;;
*) echo "$kernel"; echo "not ok check_6_12 # kernel fetch failed"; echo "0 passed, 1 failed"; exit 1 ;;
esac
# Every test of the 6.1 suite but test_power_bench.sh: power-bench's own
# harness (its story files, JSON and CSV, Ctrl-C) does not depend on the
# kernel, and what it asks of the kernel (rt-app wake-ups, the module's
# sysfs and trace events, trace-cmd recordings that sp-report reads) the
# other tests cover on 6.12 too; leaving it out keeps .ci/run near 15 min.
tests=$(cd "$top/selftests" && ls test_*.sh | sed 's/^test_//; s/\.sh$//' |
	grep -vx 'stress\|power_bench' | tr '\n' ' ')
phase "vm 6.12 tests"
out=$(SP_TESTS=$tests SP_KERNEL=$kernel SP_MODULE=$top/build/newer/mod/sched_power.ko \
	SP_VM_OUT=$top/build/vm-newer "$top/selftests/vm-run.sh" --tests 2>&1)
rc=$?
phase
printf '%s\n' "$out"
line=$(printf '%s\n' "$out" | grep '^vm: ' | tail -n 1)
p=$(echo "$line" | sed -n 's/^vm: \([0-9]*\) passed.*/\1/p')
f=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
[ -n "$p" ] || { p=0; f=1; echo "# the 6.12 VM run produced no summary (rc=$rc)"; }
[ "$rc" -eq 0 ] || [ "$f" -ne 0 ] || { f=1; echo "# the 6.12 VM run failed (rc=$rc)"; }
echo "# make check-6.12: $(basename "$kernel"), wall $(( $(date +%s) - start )) s"
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
