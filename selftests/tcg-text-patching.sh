# SPDX-License-Identifier: GPL-2.0
# A control experiment for Documentation/hook.rst, without sched_power: toggle
# the sched and power tracepoints (static-key text patching) 200 times while
# a wake-up load runs.  Under multi-threaded TCG the guest stops responding
# within a few dozen toggles; under single-threaded TCG it finishes.
#   SP_VM_TCG=multi ./selftests/vm-run.sh --script selftests/tcg-text-patching.sh
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
cd /sp
/sp/sp_load pingpong 2 1000000 >/dev/null 2>&1 &
p1=$!
/sp/sp_load periodic 2 5000 500 1000000 >/dev/null 2>&1 &
p2=$!
lsmod | grep -c sched_power
i=0
while [ $i -lt 200 ]; do
	echo 1 > $T/events/sched/enable
	echo 1 > $T/events/power/cpu_idle/enable
	sleep 0.05
	echo 0 > $T/events/sched/enable
	echo 0 > $T/events/power/cpu_idle/enable
	i=$((i + 1))
	[ $((i % 25)) -eq 0 ] && echo "toggle $i"
done
kill $p1 $p2
echo "done $i toggles"
