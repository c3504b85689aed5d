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
	 "$top"/tools/power-bench/pb-run.sh "$top"/tools/power-bench/pb-meter.sh "$top"/tools/power-bench/pb-cal.sh \
	 "$top"/tools/overhead/ovh-run.sh "$top"/tools/overhead/pipe-decisions.sh \
	 "$top"/tools/overhead/pipe-capture.sh \
	 "$top"/tools/gate/nohz-kicks.sh "$top"/tools/gate/cost-guest.sh \
	 "$top"/tools/sim/validate/*-guest.sh; do
	case $s in *'*'*) continue ;; esac	# a pattern that matched no file
	if [ ! -f "$s" ]; then
		f=$((f + 1)); echo "not ok guest_sh ${s#"$top"/}: no such file"
		continue
	fi
	if err=$("$bb" sh -n "$s" 2>&1); then
		p=$((p + 1)); echo "ok guest_sh ${s#"$top"/}"
	else
		f=$((f + 1)); echo "not ok guest_sh ${s#"$top"/}: $err"
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
nohz_out() {	# nohz_out TRACE_LINES: nohz_count's lines for them
	printf '%s\n' "$1" >/tmp/sp-nohz-trace.$$
	(NOHZ_LIB=1 . "$top/tools/gate/nohz-kicks.sh" &&
		nohz_count test "0:0 1:0 2:1 3:1" /tmp/sp-nohz-trace.$$)
	rm -f /tmp/sp-nohz-trace.$$
}
nohz_share() {	# nohz_share TRACE_LINES: the both_pkgs_awake_share printed
	nohz_out "$1" | sed -n 's/.*both_pkgs_awake_share=\([0-9.]*\).*/\1/p'
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
# the "nohz slept" line of package 0: its wake-ups by the sleep they end.
# Package 0 sleeps at 2 s and wakes 100 us later, sleeps again at 3 s and
# wakes 1 ms later, each time without waking a task: one in each bucket.
slept=$(nohz_out "$(ev 0 1.000000 1; ev 1 2.000000 1; ev 1 2.000100 4294967295
	ev 1 3.000000 1; ev 1 3.001000 4294967295; ev 2 4.000000 1)" |
	sed -n 's/^nohz slept mode=test pkg=0 woke=none //p')
if [ "$slept" = "lt50us=0 lt345us=1 ge345us=1" ]; then
	p=$((p + 1)); echo "ok nohz_count: package wake-ups by the sleep they end"
else
	f=$((f + 1)); echo "not ok nohz_count: package wake-ups by the sleep they end: '$slept', want lt50us=0 lt345us=1 ge345us=1"
fi

# lib.sh's helpers in busybox sh, as the guest runs them.
gsh() {	# gsh SNIPPET: SNIPPET's output, lib.sh sourced first
	"$bb" sh -c ". '$top/selftests/lib.sh'; $1" 2>&1
}
check() {	# check NAME GOT WANT
	if [ "$2" = "$3" ]; then
		p=$((p + 1)); echo "ok $1"
	else
		f=$((f + 1)); echo "not ok $1: got '$2', want '$3'"
	fi
}
# nohz_count's causes in detail ("nohz why" lines) on a hand-made trace of
# package 0: CPU 0 sleeps after sp_load ran, a tick wakes it with nothing
# to expire (the tick kept: no tick_stop since the task ran), then
# sp_load's timer wakes it; CPU 1 stopped its tick; CPU 0 again after
# tick_nohz_next_event() said 0 (a timer within a tick, the kretprobe);
# two idle exits without an interrupt event count as "other".
nohz_why() {	# nohz_why TRACE_LINES: the causes of package 0, sorted
	printf '%s\n' "$1" >/tmp/sp-nohz-trace.$$
	(NOHZ_LIB=1 . "$top/tools/gate/nohz-kicks.sh" &&
		nohz_count test "0:0 1:0 2:1 3:1" /tmp/sp-nohz-trace.$$) |
		sed -n 's/^nohz why mode=test pkg=0 n=\([0-9]*\) cause=\(.*\)/\2=\1/p' | sort | tr '\n' ' '
	rm -f /tmp/sp-nohz-trace.$$
}
sws() {	# sws CPU T PREV PREV_PID NEXT NEXT_PID: a raw sched_switch
	echo "          <idle>-0     [00$1] $2: sched_switch:         prev_comm=$3 prev_pid=$4 prev_prio=120 prev_state=S ==> next_comm=$5 next_pid=$6 next_prio=120"
}
hrt() { echo "          <idle>-0     [00$1] $2: hrtimer_expire_entry: hrtimer=0xffff0000 function=$3 now=1"; }
wku() { echo "          <idle>-0     [00$1] $2: sched_wakeup:         comm=$3 pid=77 prio=120 target_cpu=00$1"; }
out=$(nohz_why "$(ev 0 1.000000 1; ev 1 1.000000 1; ev 2 1.000000 1; ev 3 1.000000 1
	ev 0 1.010000 4294967295; sws 0 1.010001 swapper/0 0 sp_load 77
	sws 0 1.012000 sp_load 77 swapper/0 0; ev 0 1.012001 1
	hrt 0 1.016000 tick_sched_timer; ev 0 1.016001 4294967295; ev 0 1.016002 1
	hrt 0 1.020000 hrtimer_wakeup; wku 0 1.020001 sp_load; ev 0 1.020002 4294967295
	sws 0 1.020003 swapper/0 0 sp_load 77; sws 0 1.022000 sp_load 77 swapper/0 0
	echo "          <idle>-0     [000] 1.022001: sp_next_event: (tick_nohz_idle_stop_tick+0x1/0x2 <- tick_nohz_next_event) ret=0x0"
	ev 0 1.022002 1
	echo "          <idle>-0     [001] 1.030000: tick_stop:            success=1 dependency=NONE"
	ev 1 1.030001 4294967295; ev 1 1.030002 1
	hrt 1 1.040000 tick_sched_timer; ev 1 1.040001 4294967295; ev 1 1.040002 1
	hrt 0 1.050000 tick_sched_timer; ev 0 1.050001 4294967295; ev 0 1.050002 1
	ev 0 2.000000 1)")
check "nohz_count: causes in detail (kept, stopped and near ticks, a task's timer)" "$out" \
	"other>-=2 timer:hrtimer_wakeup>sp_load=1 timer:tick_sched_timer(kept)>-=1 timer:tick_sched_timer(near)>-=1 timer:tick_sched_timer(stopped)>-=1 "

# sp_poll: at once when the state is there, after the looks it takes, and
# status 1 (after SP_POLL_TRIES more looks) when it never comes.
cnt=/tmp/sp-poll-count.$$
# shellcheck disable=SC2016 # the snippet expands in the guest's shell
check "sp_poll: a state already there, one look" \
	"$(gsh 'n=0; c() { n=$((n + 1)); true; }; sp_poll c; echo $? $n')" "0 1"
check "sp_poll: a state that comes at the third look" \
	"$(gsh "echo 0 >$cnt; c() { n=\$((\$(cat $cnt) + 1)); echo \$n >$cnt; [ \$n -ge 3 ]; }; sp_poll c; echo \$? \$(cat $cnt)")" "0 3"
check "sp_poll: a state that never comes fails after SP_POLL_TRIES more looks" \
	"$(gsh "echo 0 >$cnt; c() { echo \$((\$(cat $cnt) + 1)) >$cnt; false; }; SP_POLL_TRIES=2 sp_poll c; echo \$? \$(cat $cnt)")" "1 3"
rm -f "$cnt"
# sp_uptime_ms: /proc/uptime in ms, between awk's readings before and after
out=$(gsh "a=\$(awk '{ printf \"%d\", \$1 * 1000 }' /proc/uptime); sp_uptime_ms
	b=\$(awk '{ printf \"%d\", \$1 * 1000 }' /proc/uptime)
	[ \$UPTIME_MS -ge \$a ] && [ \$UPTIME_MS -le \$b ] && echo ok || echo \"\$a \$UPTIME_MS \$b\"")
check "sp_uptime_ms: /proc/uptime in ms, read by the shell" "$out" ok
# idle_times_check on the table of the failed CI run (tests/data/energy-torn.txt:
# CPU 1 835 ms short of since_reset_us, a torn read), on the same table with
# CPU 1 whole, and on wall times that do not bracket since_reset_us.
torn=$top/tests/data/energy-torn.txt
whole=/tmp/sp-energy-whole.$$
sed 's/^1 322 1179400 /1 322 2014800 /' "$torn" >"$whole"
itc() {	# itc FILE WALL_US: "STATUS OUTPUT" of idle_times_check
	gsh "r=\$(idle_times_check $1 $2); echo \$? \$r"
}
check "idle_times_check: the CI run's torn table fails on CPU 1" \
	"$(itc "$torn" 2040000)" "1 since=2015129 wall=2040000 off: cpu1:1179722"
check "idle_times_check: the table with CPU 1 whole passes" \
	"$(itc "$whole" 2040000)" "0 since_reset 2015129 us inside uptime's 2040000 us"
check "idle_times_check: since_reset_us 20 ms and more past the wall time fails" \
	"$(itc "$whole" 1990000 | cut -c1)" 1
check "idle_times_check: since_reset_us 19 ms past the wall time passes (uptime's steps)" \
	"$(itc "$whole" 1996200 | cut -c1)" 0
check "idle_times_check: since_reset_us more than 5 % + 500 ms short of the wall time fails" \
	"$(itc "$whole" 2700000 | cut -c1)" 1
check "idle_times_check: a table without since_reset_us fails" \
	"$(sed 1d "$whole" >"$whole.2"; itc "$whole.2" 2040000 | cut -c1)" 1
rm -f "$whole" "$whole.2"

# taint_beyond: O and E (4096, 8192) are the module's own, a bit the kernel
# had before insmod (32, B: bad page, from a KASAN report at boot) is not
# the module's, any other bit is
check "taint_beyond: O and E only" "$(gsh 'taint_beyond 12288 0')" 0
check "taint_beyond: the boot's bit 32 kept" "$(gsh 'taint_beyond 4128 32')" 0
check "taint_beyond: bit 32 new since insmod" "$(gsh 'taint_beyond 4128 0')" 32
check "taint_beyond: W (512) after insmod beside the boot's 32" "$(gsh 'taint_beyond 4640 32')" 512

# bal_step_read on hand-made reports (big CPUs 0 1, the task on LITTLE CPU
# 3, the step at 101 s, its CPU ticking every 4 ms while the guest runs):
# the move at 80 ms; the move at 360 ms after a 300 ms stall of the host
# (70 ms of guest time); a gate that holds the task 300 ms of ticks; no move.
sw() {	# sw CPU T: sp_load switched in on CPU at T
	printf '          <idle>-0     [%03d] %s: sched_switch:         swapper/%d:0 [120] R ==> sp_load:1234 [120]\n' "$1" "$2" "$1"
}
ticks() {	# ticks FROM_MS TO_MS: CPU 3's ticks after the step, every 4 ms
	awk -v a="$1" -v b="$2" 'BEGIN { for (m = a; m <= b; m += 4)
		printf "         sp_load-1234  [003] %.6f: hrtimer_expire_entry: hrtimer=0xffff0000 function=tick_sched_timer now=%d\n", 101 + m / 1000, m }'
}
step_report() {	# step_report MOVE_MS|none TICKS...: the report, in time order
	{ sw 3 100.5; sw 3 100.6; sw 3 100.7
	  echo "         sp_load-1234  [003] 101.000000: print:                tracing_mark_write: sp_load step"
	  mv=$1; shift
	  while [ $# -gt 1 ]; do ticks "$1" "$2"; shift 2; done
	  case $mv in none) ;; *) sw 0 "$(awk -v m="$mv" 'BEGIN { printf "%.6f", 101 + m / 1000 }')" ;; esac
	} >/tmp/sp-step.$$
	gsh "bal_step_read '0 1' /tmp/sp-step.$$"
}
check "bal_step_read: moved at 80 ms, no stall" "$(step_report 80 4 76)" "1 100 80 80 0"
check "bal_step_read: moved at 360 ms after a 300 ms host stall: 70 ms of guest time" \
	"$(step_report 360 4 48 348 356)" "1 100 360 70 290"
check "bal_step_read: held 300 ms by the gate, ticking all along: 300 ms of guest time" \
	"$(step_report 300 4 296)" "1 100 300 300 0"
check "bal_step_read: never moved" "$(step_report none 4 596 | cut -d' ' -f3,4)" "-1 -1"
rm -f /tmp/sp-step.$$

# pb-run.sh's window from rt-app's logs, in the guest's awk: times past
# 2^31 us (35 min 47 s of uptime, reached in a long power-bench run) come
# out whole, not as a C int's limit.
mkdir -p /tmp/sp-pbwin.$$/log
printf '%s\n' '# idx perf run period start end rel_st slack c_duration' \
	'0 1 1000 20000 2200000000 2200001000 0 0 1000' \
	'0 1 1100 20000 2200020000 2200021100 0 0 1000' >/tmp/sp-pbwin.$$/log/rt-app-pa-0.log
check "pb-run.sh log_window: a window past 2^31 us" \
	"$("$bb" sh -c "PB_LIB=1 PB_DIR='$top/tools/power-bench' . '$top/tools/power-bench/pb-run.sh'; dir=/tmp/sp-pbwin.$$; log_window" 2>&1)" \
	"2200000000 2200021100 2 1.0500"
rm -rf /tmp/sp-pbwin.$$

echo "guest-sh: $p passed, $f failed"
[ "$f" -eq 0 ]
