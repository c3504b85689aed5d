# SPDX-License-Identifier: GPL-2.0
# cost-guest.sh: the guest half of tools/gate/gate-cost (vm-run.sh --script,
# busybox sh).  Each `sync` ends a phase of the qemu instruction plugin
# (tools/overhead/sp_insn_plugin.c, mark=ksys_sync): 0 boot and insmod,
# 1 observe under a ping-pong load, 2 the switch to power mode (the gate's
# registration), 3 power under the same load, 4 the switch back.
insmod /sp/sched_power.ko mode=observe || exit 1
sync
/sp/sp_load pingpong 1 ${COST_ROUNDS:-20000}
sync
echo power >$SP/mode
sync
/sp/sp_load pingpong 1 ${COST_ROUNDS:-20000}
sync
echo observe >$SP/mode
sync
grep "\[sched_power\]" /proc/kallsyms | sed "s/^/cost ksym /"
echo "cost balance: gated=$(stat_get balance_gated) passed=$(stat_get balance_passed) nr_mismatch=$(stat_get balance_nr_mismatch)"
rmmod sched_power
