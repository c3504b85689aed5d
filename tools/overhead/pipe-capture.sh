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
# unload the module prints "fastcode K N walk_ou O": N decisions of class K,
# O of them kept at an overutilised CPU before the walk (bit 64 of the
# debug word; main's decision has no such step, so O is 0 there).  K below 16: the
# fast path was not tried: 1 overutilised CFS's, the previous or the
# deciding CPU (sp_place_saturated()), sp_place_cfs_free() said no: 2
# CFS's CPU is the deciding one and runs the waker, 3 it runs a task, 4 a
# group above it sleeps, 5 work in flight there, 6 the task does not fit
# it, 7 its wake-up breaks the latency bound; 8 the mode or the task's
# bound rules the fast path out.  K = 16 + 8 B + E: the look against the
# upper bound of CFS's estimate ended B (0 passed, 1 a CPU's bound short,
# 2 a sleeping group's bound short, 3 out of visits, 4 no bound, 6 not
# tried: the SP_PLACE_UB_BACKOFF looks after a failure), the look against
# the estimate E (0 passed, 1-4 as B, 6 not tried: the bound found short
# was below the estimate, 7 not needed); K + 128: the task fits no CPU
# (CFS kept before the walk).  23 is the fast path on the bound.  And
# every 6th decision that was not (not 1 or 23), up to 64: its class and
# where the looks failed ("D": ub_at / est_at the group or CPU, ub_nj /
# est_nj its bound, ub_lim the upper bound), each CPU ("C") and each group
# ("G") in the text that bench_place --state reads (the CPU the task went
# to shows the work in flight noted after the decision; ub_* are stale
# when B is 6).
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
