#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The guest runs its scripts with busybox sh: parse every one of them with
# it on the host first (`busybox sh -n`), so a quoting slip costs a second
# here instead of a VM boot.  TAP lines, then "guest-sh: N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
bb=$(command -v busybox || echo /bin/busybox)
p=0 f=0
for s in "$top"/selftests/guest-run.sh "$top"/selftests/lib.sh \
	 "$top"/selftests/report_lib.sh "$top"/selftests/testfreq_lib.sh "$top"/selftests/test_*.sh \
	 "$top"/tools/power-bench/pb-run.sh "$top"/tools/power-bench/pb-meter.sh \
	 "$top"/tools/overhead/ovh-run.sh "$top"/tools/overhead/pipe-decisions.sh \
	 "$top"/tools/overhead/pipe-capture.sh \
	 "$top"/tools/sim/validate/*-guest.sh; do
	case $s in *'*'*) continue ;; esac	# a pattern that matched no file
	if [ ! -f "$s" ]; then
		f=$((f + 1)); echo "not ok guest_sh ${s#$top/}: no such file"
		continue
	fi
	if err=$("$bb" sh -n "$s" 2>&1); then
		p=$((p + 1)); echo "ok guest_sh ${s#$top/}"
	else
		f=$((f + 1)); echo "not ok guest_sh ${s#$top/}: $err"
	fi
done

# lib.sh's DMESG_BAD, the guest's splat pattern: every sample splat line
# matches it, no line of a clean boot or module load does.
bad=$(sed -n "s/^DMESG_BAD='\(.*\)'$/\1/p" "$top/selftests/lib.sh")
miss=$(grep -E -v -- "$bad" "$top/tests/data/dmesg-splat.txt")
hit=$(grep -E -- "$bad" "$top/tests/data/dmesg-clean.txt")
if [ -n "$bad" ] && [ -z "$miss" ]; then
	p=$((p + 1)); echo "ok dmesg_bad matches all $(wc -l <"$top/tests/data/dmesg-splat.txt") sample splat lines"
else
	f=$((f + 1)); echo "not ok dmesg_bad matches every splat line: missed '$miss'"
fi
if [ -n "$bad" ] && [ -z "$hit" ]; then
	p=$((p + 1)); echo "ok dmesg_bad matches none of $(wc -l <"$top/tests/data/dmesg-clean.txt") clean lines (loops_per_jiffy)"
else
	f=$((f + 1)); echo "not ok dmesg_bad matches no clean line: hit '$hit'"
fi
echo "guest-sh: $p passed, $f failed"
[ "$f" -eq 0 ]
