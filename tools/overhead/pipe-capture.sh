#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pipe-capture.sh - guest side: why power mode's decisions on vm-overhead's
# pipe miss the fast path, and what they saw (Documentation/overhead.rst).
# Needs a module built with tools/overhead/pipe-capture.patch applied (a
# debug copy of the snapshot in the hook; never for a release):
#
#   git apply tools/overhead/pipe-capture.patch && make module
#   SP_VM_BINS=$(command -v perf) selftests/vm-run.sh --script tools/overhead/pipe-capture.sh
#   git apply -R tools/overhead/pipe-capture.patch
#
# (tools/bench/pipe-guest.state came from a run under vm-overhead's
# instruction plugin: SP_VM_PLUGIN and SP_VM_CMDLINE as vm-overhead sets
# them.)  Runs the pipe as vm-overhead's instruction run does (a warm-up,
# then -l 2000 in power mode), prints the decisions per reason, then on
# unload the module prints "fastcode C N": N decisions by C, 0 the fast
# path, 20 a task that fits no CPU, 1 overutilised before it, 2 CFS's CPU
# queues, 3 it sits under an idle group, 4 the task does not fit it, 5
# it breaks the latency bound, 10-13 the walk gave up (visits, a CPU
# without levels, a sleeping group, a CPU); and every 37th miss, its
# wake-up ("D"), each CPU ("C") and each group ("G") in the text that
# bench_place --state reads (the CPU the task went to shows the work in
# flight noted after the decision).
SP=/sys/kernel/sched_power

perf bench sched pipe -l 2000 >/dev/null 2>&1
perf bench sched messaging -g 1 -l 20 >/dev/null 2>&1
insmod /sp/sched_power.ko mode=power || exit 1
sync
perf bench sched pipe -l 2000 2>&1 | grep usecs
sync
for f in $SP/stats/decisions $SP/stats/reason_*; do
	echo "${f##*/} $(cat "$f")"
done | grep -v ' 0$'
rmmod sched_power
dmesg | grep 'DBG ' | sed 's/^.*DBG //'
