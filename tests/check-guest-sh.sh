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
	 "$top"/tools/gate/nohz-kicks.sh "$top"/tools/gate/cost-guest.sh \
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
# tools/gate/nohz-kicks.sh's count on hand-made traces of two packages of
# two CPUs (t0 = 1 s, t1 = 11 s): both are awake from the first event until
# package 0 sleeps at 2 s (share 0.1000), or for the whole run when neither
# ever has every CPU idle (1.0000).
nohz_share() {	# nohz_share TRACE_LINES: the both_pkgs_awake_share printed
	printf '%s\n' "$1" >/tmp/sp-nohz-trace.$$
	(NOHZ_LIB=1 . "$top/tools/gate/nohz-kicks.sh" &&
		nohz_count test "0:0 1:0 2:1 3:1" /tmp/sp-nohz-trace.$$) |
		sed -n 's/.*both_pkgs_awake_share=\([0-9.]*\).*/\1/p'
	rm -f /tmp/sp-nohz-trace.$$
}
ev() { echo "          <idle>-0     [00$1] $2: cpu_idle: state=$3 cpu_id=$1"; }
out=$(nohz_share "$(ev 0 1.000000 1; ev 1 2.000000 1; ev 2 2.000000 1
	ev 3 2.000000 1; ev 3 11.000000 4294967295)")
if [ "$out" = 0.1000 ]; then
	p=$((p + 1)); echo "ok nohz_count: both packages awake from the first event to the first package sleep"
else
	f=$((f + 1)); echo "not ok nohz_count: both packages awake from the first event: share '$out', want 0.1000"
fi
out=$(nohz_share "$(ev 0 1.000000 1; ev 2 6.000000 1; ev 0 11.000000 4294967295)")
if [ "$out" = 1.0000 ]; then
	p=$((p + 1)); echo "ok nohz_count: no package ever sleeps: both awake all the run"
else
	f=$((f + 1)); echo "not ok nohz_count: no package ever sleeps: share '$out', want 1.0000"
fi

echo "guest-sh: $p passed, $f failed"
[ "$f" -eq 0 ]
