#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm-bench.sh KO - the VM benchmarks, run inside the TCG guest by
# selftests/vm-run.sh --bench (make vm-bench).  Prints ratios, not verdicts.
#
# 1. Wake-up overhead: a wake-up-heavy workload (sp_load pingpong: 2 pairs
#    x 20000 round trips over pipes, 80000 wake-ups) timed with the module
#    not loaded, loaded in observe mode and in power mode, interleaved
#    (ROUNDS times each, in turn, so drift of the host hits all alike); the
#    median of each and the ratios to "not loaded".  Goal: power <= 1.02.
# 2. Modelled energy of a light load (sp_load chain, as test_place.sh) in
#    observe (CFS's placement) and power mode, from /sys/kernel/sched_power/
#    energy, and the ratio; plus RAPL's package energy where powercap exists.
# 3. The idle probe's cost from idle/stats (ns per event, in the TCG guest).
KO=${1:-/sp/sched_power.ko}
SP=/sys/kernel/sched_power
ROUNDS=${ROUNDS:-5}
LOAD="/sp/sp_load pingpong 2 20000"

run_once() {
	$LOAD | sed -n 's/.*elapsed_us=\([0-9]*\).*/\1/p'
}

median() {
	sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

echo "# vm-bench: kernel $(uname -r), $(nproc) CPUs, $ROUNDS rounds, load: $LOAD"
rm -f /tmp/t_none /tmp/t_obs /tmp/t_pow
$LOAD >/dev/null	# warm-up
i=0
while [ $i -lt "$ROUNDS" ]; do
	run_once >>/tmp/t_none
	insmod "$KO" mode=observe
	run_once >>/tmp/t_obs
	echo power >$SP/mode
	run_once >>/tmp/t_pow
	rmmod sched_power
	i=$((i + 1))
done
n=$(median </tmp/t_none); o=$(median </tmp/t_obs); p=$(median </tmp/t_pow)
echo "wakeup_bench not_loaded_us=$n observe_us=$o power_us=$p"
awk -v n=$n -v o=$o -v p=$p 'BEGIN { printf "wakeup_bench ratio observe/not_loaded=%.3f power/not_loaded=%.3f (goal <= 1.02)\n", o / n, p / n }'
echo "# samples (us): not_loaded $(tr '\n' ' ' </tmp/t_none)| observe $(tr '\n' ' ' </tmp/t_obs)| power $(tr '\n' ' ' </tmp/t_pow)"

rapl_uj() {
	cat /sys/class/powercap/intel-rapl:0/energy_uj 2>/dev/null || echo -
}

insmod "$KO" mode=observe
for m in observe power; do
	echo $m >$SP/mode
	echo 1 >$SP/idle/reset
	r0=$(rapl_uj)
	/sp/sp_load chain 2 20000 50 3000 0 >/dev/null
	r1=$(rapl_uj)
	e=$(sed -n 's/^total_uj \([0-9]*\)/\1/p' /sys/kernel/debug/sched_power/energy)
	pk=$(awk '$1 == "group" && $2 != "level" { printf "%s%s=%d/%dus ", $2, $3, $4, $4 + $5 }' /sys/kernel/debug/sched_power/energy)
	rapl=-; [ "$r0" != - ] && rapl=$((r1 - r0))
	echo "light_energy mode=$m modelled_uj=$e rapl_uj=$rapl awake_time: $pk"
	eval "e_$m=$e"
done
awk -v o=$e_observe -v p=$e_power 'BEGIN { printf "light_energy ratio power/observe=%.3f (modelled, lower is better)\n", p / o }'
cost=$(head -n 1 /sys/kernel/debug/sched_power/idle_stats)
echo "idle_probe $(echo "$cost" | sed -n 's/.*\(probe_ns_avg=[0-9]*\) \(probe_samples=[0-9]*\).*/\1 \2/p') (TCG guest)"
rmmod sched_power
