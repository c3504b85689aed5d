# SPDX-License-Identifier: GPL-2.0
# Placement on the 2-package VM: power mode packs a light load (for 5 s:
# the moves it counts by reason are few, 0 in one 3 s run), heavy load
# falls back to CFS, mode switches and CPU hotplug under load stay clean.

# pkg_map: "CPU:PACKAGE ..." for every CPU
pkg_map() {
	for d in /sys/devices/system/cpu/cpu[0-9]*; do
		printf ' %s:%s' "${d##*cpu}" "$(cat $d/topology/physical_package_id 2>/dev/null || echo 0)"
	done
}
place_map=$(pkg_map)

# per-package count of chosen_cpu for the workload (sp_load) in a trace-cmd
# report: "pkg0 pkg1"
pkg_shares() {
	awk -v map="$place_map" 'BEGIN { n = split(map, a, " "); for (i = 1; i <= n; i++) { split(a[i], b, ":"); pk[b[1]] = b[2] } }
		/sched_power_select:/ && / comm=sp_load / { for (i = 1; i <= NF; i++) if ($i ~ /^ret_cpu=/) c[pk[substr($i, 9)] + 0]++ }
		END { print c[0] + 0, c[1] + 0 }' "$1"
}

# pkg1_why FILE: the decisions that returned a CPU of package 1, counted
# by reason, applied, prev_cpu and cfs_cpu (what a failure of the share
# below needs to be explained)
pkg1_why() {
	awk -v map="$place_map" 'BEGIN { n = split(map, a, " "); for (i = 1; i <= n; i++) { split(a[i], b, ":"); pk[b[1]] = b[2] } }
		/sched_power_select:/ && / comm=sp_load / {
			k = ""; r = -1
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^ret_cpu=/) r = substr($i, 9) + 0
				if ($i ~ /^(reason|applied|prev_cpu|cfs_cpu)=/) k = k " " $i
			}
			if (r >= 0 && pk[r] + 0 == 1) c[k]++
		}
		END { for (k in c) printf "%d x%s\n", c[k], k }' "$1" | sort -rn | head -n 8 |
		tr '\n' ';'
}

cd /tmp
sp_write margin_pct 5
sp_write mode power
stats_reset
trace-cmd record -s 250000 -q -e sched_power:sched_power_select -o /tmp/power.dat \
	sh -c '. /sp/lib.sh; light_load 5' >/dev/null 2>&1
trace-cmd report -i /tmp/power.dat >/tmp/power.txt 2>/dev/null
set -- $(pkg_shares /tmp/power.txt)
p0=$1; p1=$2; tot=$((p0 + p1))
ov=$(stat_get overrides)
avoid=$(grep -c 'reason=avoid_package_wakeup' /tmp/power.txt)
pack=$(grep -c 'reason=pack_awake_group' /tmp/power.txt)
echo "# power/light: decisions=$tot pkg0=$p0 pkg1=$p1 overrides=$ov avoid_package_wakeup=$avoid pack_awake_group=$pack"
[ "$ov" -gt 0 ] && tap_ok "power/light: stats show $ov overrides" || tap_fail "power/light: stats show overrides" "$(stats_dump)"
[ $((avoid + pack)) -gt 0 ] && tap_ok "power/light: trace shows avoid_package_wakeup/pack_awake_group decisions" || tap_fail "power/light: trace shows avoid_package_wakeup/pack_awake_group decisions"
# the producer is pinned to CPU 0: package 0 is the awake one
if [ $tot -gt 0 ] && [ $((p0 * 100)) -ge $((tot * 90)) ]; then
	tap_ok "power/light: >=90% of placements in package 0 ($p0 of $tot), package 1 kept idle"
else
	tap_fail "power/light: >=90% of placements in package 0" "pkg0=$p0 pkg1=$p1" \
		"$(pkg1_why /tmp/power.txt)"
fi

# Observe on the same load, for the record (CFS's own spread).
sp_write mode observe
trace-cmd record -s 250000 -q -e sched_power:sched_power_select -o /tmp/obs.dat \
	sh -c '. /sp/lib.sh; light_load 2' >/dev/null 2>&1
trace-cmd report -i /tmp/obs.dat >/tmp/obs.txt 2>/dev/null
echo "# observe/light (CFS): pkg0 pkg1 = $(pkg_shares /tmp/obs.txt)"

# Heavy load: every CPU busy -> overutilised, CFS decides.
sp_write mode power
stats_reset
for j in 1 2 3 4 5 6; do ( end=$(( $(date +%s) + 4 )); while [ $(date +%s) -lt $end ]; do :; done ) & done
sleep 2
wake_load 20
wait
fb=$(stat_get reason_overutilised_fallback)
echo "# power/heavy: fallbacks=$fb decisions=$(stat_get decisions) overrides=$(stat_get overrides)"
[ "$fb" -gt 0 ] && tap_ok "power/heavy: overutilised fallback engaged ($fb)" || tap_fail "power/heavy: overutilised fallback engaged" "$(stats_dump)"

# Mode switches under load: every write succeeds and reads back as the
# selected mode, the load runs to its end, decisions are counted after.
( wake_load 200 ) &
lp=$!
i=0 bad=""
while [ $i -lt 30 ]; do
	for m in power balanced observe performance off power; do
		sp_write mode $m && grep -q "\[$m\]" $SP/mode || bad="$bad [$i:$m $(cat $SP/mode)]"
	done
	i=$((i + 1))
done
wait $lp || bad="$bad [load exit $?]"
stats_reset
wake_load 10
d=$(stat_get decisions)
[ -z "$bad" ] && [ "$d" -gt 0 ] &&
	tap_ok "180 mode switches under a wake-up load, each one read back; $d decisions after" ||
	tap_fail "180 mode switches under a wake-up load" "failed switches:$bad" "decisions after: $d"

# CPU offline/online in power mode.
if [ -w /sys/devices/system/cpu/cpu3/online ]; then
	stats_reset
	echo 0 > /sys/devices/system/cpu/cpu3/online
	trace-cmd record -s 250000 -q -e sched_power:sched_power_select -o /tmp/hp.dat \
		sh -c '. /sp/lib.sh; wake_load 30' >/dev/null 2>&1
	trace-cmd report -i /tmp/hp.dat >/tmp/hp.txt 2>/dev/null
	# The module's own moves onto CPU 3 (applied, and not CFS's choice).
	# CFS itself may return it: a task that slept on CPU 3 keeps task_cpu 3
	# after the offline, select_idle_sibling() can hand back that prev CPU
	# (an offline CPU's run queue looks idle), and select_task_rq() then
	# falls back through is_cpu_allowed(); the hook passes CFS's choice on.
	set -- $(awk '/sched_power_select:/ {
			r = ""; c = ""; a = 0
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^ret_cpu=/) r = substr($i, 9)
				if ($i ~ /^cfs_cpu=/) c = substr($i, 9)
				if ($i ~ /^applied=/) a = substr($i, 9) + 0
			}
			n++
			if (r == "3" && c != "3" && a == 1) own++
			if (r == "3" && c == "3") cfs++
		} END { print own + 0, cfs + 0, n + 0 }' /tmp/hp.txt)
	own3=$1 cfs3=$2 nhp=$3
	echo 1 > /sys/devices/system/cpu/cpu3/online
	wake_load 20
	echo "# power/hotplug: CPU 3 offline; $nhp decisions traced; CFS returned it $cfs3 times (the core falls back), the module moved to it $own3 times"
	# no decision traced would make "never chosen" hold vacuously
	[ "$nhp" -gt 0 ] && [ "$own3" -eq 0 ] && [ "$(cat /sys/devices/system/cpu/cpu3/online)" = 1 ] \
		&& tap_ok "power: CPU 3 offline never chosen in $nhp decisions, back online cleanly" \
		|| tap_fail "power: CPU 3 offline never chosen" "module moves onto CPU 3: $own3 of $nhp decisions traced"
else
	tap_skip "power: CPU hotplug" "cpu3/online not writable"
fi
sp_write mode observe
cd /sp
