# SPDX-License-Identifier: GPL-2.0
# Asymmetric capacity (big.LITTLE, SP_ARCH=arm64 vm-run.sh): in power mode
# the module never moves a task onto a CPU it does not fit (util * 1.25 >
# cpu_capacity), and light tasks go to the LITTLE CPUs.  Skips on a board
# whose CPUs all have the same capacity.

capmax=0 little=""
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	cap=$(cat $c/cpu_capacity 2>/dev/null || echo 1024)
	[ "$cap" -gt $capmax ] && capmax=$cap
done
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	cap=$(cat $c/cpu_capacity 2>/dev/null || echo 1024)
	[ "$cap" -lt $capmax ] && little="$little ${c##*cpu}:$cap"
done
if [ -z "$little" ]; then
	tap_skip "asym: heavy tasks stay off LITTLE CPUs" "all CPUs have capacity $capmax"
	tap_skip "asym: light tasks go to LITTLE in power mode" "all CPUs have capacity $capmax"
else
	echo "# asym: LITTLE cpu:capacity$little, big $capmax; model_source $(cat $SP/model_source)"
	grep -q 'cluster' $SP/model_source && grep -q 'asym' $SP/model_source &&
		tap_ok "asym: default model has the cluster level and unequal capacities" ||
		tap_fail "asym: default model has the cluster level and unequal capacities" "$(cat $SP/model_source)"
	sp_write mode power
	stats_reset
	cd /tmp
	# heavy: one task at 95% duty (util near 1024); light: two at 2.5%
	trace-cmd record -q -e sched_power:sched_power_select -o /tmp/asym.dat \
		sh -c '/sp/sp_load periodic 1 20000 19000 3000 & /sp/sp_load periodic 2 20000 500 3000; wait' \
		>/tmp/asym-record.log 2>&1
	trace-cmd report -i /tmp/asym.dat >/tmp/asym.txt 2>/dev/null
	cd /sp
	echo "# asym: power mode $(stat_get decisions) decisions, $(stat_get overrides) overrides"
	# per event: util, ret_cpu, applied; LITTLE capacities from $little
	res=$(awk -v little="$little" '
		BEGIN { n = split(little, a, " "); for (i = 1; i <= n; i++) { split(a[i], b, ":"); cap[b[1]] = b[2] } }
		/sched_power_select:/ && /comm=sp_load/ {
			u = ""; r = ""; ap = ""; c = ""
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^util=/) u = substr($i, 6) + 0	# a number, not a string
				if ($i ~ /^ret_cpu=/) r = substr($i, 9)
				if ($i ~ /^applied=/) ap = substr($i, 9) + 0
				if ($i ~ /^cfs_cpu=/) c = substr($i, 9)
			}
			# only moves made by the module count: CFS may pick a LITTLE CPU itself
			if (u * 1280 > 1024 * 410 && u >= 300) { heavy++; if (ap == 1 && r != c && (r in cap) && u * 1280 > cap[r] * 1024) bad++ }
			if (u < 100) { light++; if (r in cap) onl++; if (ap == 1) lap++ }
		}
		END { printf "%d %d %d %d %d\n", heavy, bad, light, onl, lap }' /tmp/asym.txt)
	set -- $res
	if [ "$1" -gt 0 ] && [ "$2" -eq 0 ]; then
		tap_ok "asym: heavy tasks stay off LITTLE CPUs ($1 heavy wake-ups, 0 moved to a LITTLE CPU)"
	else
		tap_fail "asym: heavy tasks stay off LITTLE CPUs" "heavy=$1 moved_to_little=$2" "$(grep -m3 'util=[3-9][0-9][0-9]' /tmp/asym.txt)"
	fi
	# Light tasks alone (with the heavy one the system is overutilised and
	# CFS decides, as mainline EAS would): two threads at 2 % (100 us every
	# 5 ms) for 4 s.  By the second half of the run at least 80 % of their
	# wake-ups are on LITTLE CPUs (4 of the 6 CPUs are LITTLE: chance alone
	# gives 2/3; moves off a big CPU spend the latency budget, one per 200
	# decisions of that CPU, so they come in the first half), and power
	# mode's moves for them go to LITTLE more often than to big (joining an
	# awake big cluster can beat waking a sleeping LITTLE one, so not all).
	stats_reset
	cd /tmp
	trace-cmd record -q -e sched_power:sched_power_select -o /tmp/asym2.dat \
		/sp/sp_load periodic 2 5000 100 4000 >/tmp/asym-record2.log 2>&1
	trace-cmd report -i /tmp/asym2.dat >/tmp/asym2.txt 2>/dev/null
	cd /sp
	res=$(awk -v little="$little" '
		BEGIN { n = split(little, a, " "); for (i = 1; i <= n; i++) { split(a[i], b, ":"); cap[b[1]] = b[2] } }
		/sched_power_select:/ && /comm=sp_load/ {
			r = ""; ap = 0; c = ""
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^ret_cpu=/) r = substr($i, 9)
				if ($i ~ /^applied=/) ap = substr($i, 9) + 0
				if ($i ~ /^cfs_cpu=/) c = substr($i, 9)
			}
			t[++nt] = r
			if (ap == 1 && r != c) { mv++; if (!(r in cap)) badmv++ }
		}
		END {
			for (i = int(nt / 2) + 1; i <= nt; i++) { late++; if (t[i] in cap) onl++ }
			printf "%d %d %d %d %d\n", nt, mv, badmv, late, onl
		}' /tmp/asym2.txt)
	set -- $res
	echo "# asym light: $1 decisions, $2 moves ($3 onto a big CPU), second half $5 of $4 on LITTLE; slower_than_cfs $(stat_get slower_than_cfs)"
	if [ "$1" -gt 0 ] && [ $(( $3 * 2 )) -le "$2" ] && [ $(( $5 * 10 )) -ge $(( $4 * 8 )) ]; then
		tap_ok "asym: light tasks go to LITTLE in power mode ($5 of the last $4 wake-ups, $2 moves, $3 onto big)"
	else
		tap_fail "asym: light tasks go to LITTLE in power mode" "decisions=$1 moves=$2 onto_big=$3 late=$4 on_little=$5" \
			"$(grep 'comm=sp_load' /tmp/asym2.txt | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(util|prev_cpu|cfs_cpu|ret_cpu|reason|wake)=/) printf "%s ", $i; print "" }' | sort | uniq -c | sort -rn | head -n 12)"
	fi
	sp_write mode observe
fi
