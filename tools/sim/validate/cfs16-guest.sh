#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cfs16-guest.sh - the guest side of the cfs validation at 16 CPUs, run by
# tools/sim/validate/cfs16.sh through selftests/vm-run.sh --script (busybox
# sh, in /sp; the story and the model in /sp/files).  Loads sched_power in
# observe mode with the x86-16 model, records the scheduler's events while
# rt-app plays the story, and prints the trace gzipped and base64-encoded
# between "V-TRACE-BEGIN" and "V-TRACE-END" on the console.
T=/sys/kernel/tracing
story=/sp/files/${V_STORY:-server16.json}
dur=${V_DURATION_S:-6}

echo "# cfs16: $(nproc) CPUs, packages $(cat /sys/devices/system/cpu/cpu*/topology/physical_package_id | sort | uniq -c | tr -s ' \n' ' ')"
insmod /sp/sched_power.ko mode=observe || { echo "V-ERROR insmod"; exit 1; }
cat /sp/files/x86-16.model >/sys/kernel/sched_power/model || { echo "V-ERROR model"; exit 1; }
mkdir -p /tmp/v/cal
# rt-app's ns per loop (its runtime events work in chunks sized by it):
# five 20 ms runs at a guessed 100 ns per loop, the fastest gives the real
# value, as tools/power-bench/pb-run.sh calibrates
cat >/tmp/v/cal/cal.json <<-CAL
{ "global": { "calibration": 100, "lock_pages": false, "logdir": "/tmp/v/cal",
  "log_basename": "cal" },
  "tasks": { "cal": { "loop": 1, "phases": { "p": { "loop": 5, "run0": 20000 } } } } }
CAL
rt-app /tmp/v/cal/cal.json >/tmp/v/cal/out 2>&1
calib=$(awk '$1 !~ /^#/ && $9 > 0 { r = $3 / $9; if (min == "" || r < min) min = r }
	END { if (min != "") printf "%d\n", 100 * min + 0.5 }' /tmp/v/cal/cal-cal-*.log)
echo "V-CALIB ${calib:-none}"
/sp/pb-story -c "${calib:-100}" -d "$dur" -l /tmp/v -o /tmp/v/story.json "$story" ||
	{ echo "V-ERROR story"; exit 1; }

echo 0 >$T/tracing_on
echo mono >$T/trace_clock
echo 8192 >$T/buffer_size_kb
for e in sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new sched/sched_switch \
	 sched/sched_migrate_task sched_power/sched_power_select; do
	echo 1 >$T/events/$e/enable || echo "V-ERROR event $e"
done
echo >$T/trace
echo 1 >$T/tracing_on
rt-app /tmp/v/story.json >/tmp/v/rtapp.out 2>&1
rc=$?
echo 0 >$T/tracing_on
echo "V-RTAPP rc=$rc rows=$(cat /tmp/v/rt-app-*.log 2>/dev/null | grep -vc '^#')"
echo "V-LOST $(cat $T/per_cpu/cpu*/stats | awk '/^overrun:|^dropped events:/ { s += $NF } END { print s + 0 }')"
echo "V-STATS $(grep . /sys/kernel/sched_power/stats/decisions /sys/kernel/sched_power/stats/overrides 2>/dev/null | tr '\n' ' ')"
echo "V-TRACE-BEGIN"
gzip -c $T/trace | base64
echo "V-TRACE-END"
echo >$T/set_event
echo off >/sys/kernel/sched_power/mode
rmmod sched_power
