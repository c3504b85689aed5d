# SPDX-License-Identifier: GPL-2.0
# Guest side of make idle-accuracy (vm-run.sh --script, lib.sh sourced):
# sched_power's idle verdicts and the kernel's own cpuidle counters over
# one run of a light periodic load, on the same idle periods.
#
# sched_power is loaded in observe mode; the kernel's per-state
# usage/above/below/time are read and sched_power's statistics reset back
# to back, and both read again (in the reverse order) after IA_SECONDS
# (default 10) of two periodic loads: two tasks waking every 1 ms for
# 100 us and one every 7 ms for 300 us (idle periods on both sides of the
# states' target residencies).  Output, one line each:
#   K cpu index name usage above below time_us    the kernel, deltas
#   S cpu name target_us entries residency_us early hit late   debugfs idle_stats
secs=${IA_SECONDS:-10}
insmod /sp/sched_power.ko mode=observe || exit 1
idle=/sys/devices/system/cpu/cpuidle
echo "# ia: kernel $(uname -r), $(nproc) CPUs, cpuidle $(cat $idle/current_driver)/$(cat $idle/current_governor_ro 2>/dev/null), model_source $(cat $SP/model_source)"
echo "# ia: load: sp_load periodic 2 1000 100 and periodic 1 7000 300 for $secs s, mode observe"

# One process reads every counter, so the window is the same for all.
ia_kernel() {
	grep -H . /sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[0-9]*/name \
		/sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[0-9]*/usage \
		/sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[0-9]*/above \
		/sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[0-9]*/below \
		/sys/devices/system/cpu/cpu[0-9]*/cpuidle/state[0-9]*/time |
		awk -F: '{ n = split($1, p, "/"); c = substr(p[6], 4); k = substr(p[8], 6)
			v[c " " k, p[9]] = $2; key[c " " k] = 1 }
			END { for (x in key) print x, v[x, "name"], v[x, "usage"], v[x, "above"],
				v[x, "below"], v[x, "time"] }' | sort -k1,1n -k2,2n
}

ia_kernel >/tmp/ia-k0
echo 1 >$SP/idle/reset
/sp/sp_load periodic 2 1000 100 $((secs * 1000)) >/dev/null &
/sp/sp_load periodic 1 7000 300 $((secs * 1000)) >/dev/null &
wait
cp $DBG/idle_stats /tmp/ia-s
ia_kernel >/tmp/ia-k1
awk 'NR == FNR { u[$1, $2] = $4; a[$1, $2] = $5; b[$1, $2] = $6; t[$1, $2] = $7; next }
	{ printf "K %s %s %s %d %d %d %d\n", $1, $2, $3, $4 - u[$1, $2], $5 - a[$1, $2], $6 - b[$1, $2], $7 - t[$1, $2] }' \
	/tmp/ia-k0 /tmp/ia-k1
grep '^#' /tmp/ia-s
grep '^[0-9]' /tmp/ia-s | sed 's/^/S /'
rmmod sched_power
