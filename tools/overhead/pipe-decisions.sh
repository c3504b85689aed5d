#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pipe-decisions.sh - guest side: what the hook decides on vm-overhead's
# pipe, so that its per-call count can be read (Documentation/overhead.rst).
#
#   SP_VM_BINS=$(command -v perf) selftests/vm-run.sh --script tools/overhead/pipe-decisions.sh
#
# In power mode, three runs of perf bench sched pipe -l 2000, each followed
# by the decisions it made per reason (stats/reason_*); then in observe mode
# with the sched_power_select event on, one run of -l 300 and the pipe
# tasks' wake-ups: how many, and their utilisation (the event's util field)
# as minimum, median and maximum.
SP=/sys/kernel/sched_power
T=/sys/kernel/tracing

counts() {
	for f in $SP/stats/decisions $SP/stats/reason_*; do
		echo "${f##*/} $(cat "$f")"
	done
}

insmod /sp/sched_power.ko mode=power || exit 1
for r in 1 2 3; do
	counts >/tmp/pd-before
	perf bench sched pipe -l 2000 >/dev/null 2>&1
	counts >/tmp/pd-after
	paste /tmp/pd-before /tmp/pd-after |
		awk -v r=$r '$4 != $2 { printf "pipe-decisions round=%s %s=%d\n", r, $1, $4 - $2 }'
done
echo observe >$SP/mode
mount -t tracefs nodev $T 2>/dev/null
echo 1 >$T/events/sched_power/sched_power_select/enable
perf bench sched pipe -l 300 >/dev/null 2>&1
echo 0 >$T/events/sched_power/sched_power_select/enable
grep 'comm=sched-pipe' $T/trace | sed 's/.* util=\([0-9]*\) .*/\1/' | sort -n |
	awk '{ u[NR] = $1 } END {
		if (NR) printf "pipe-util wakeups=%d min=%d median=%d max=%d\n", NR, u[1], u[int((NR + 1) / 2)], u[NR]
		else print "pipe-util wakeups=0"
	}'
rmmod sched_power
