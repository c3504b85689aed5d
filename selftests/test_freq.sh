# SPDX-License-Identifier: GPL-2.0
# A real cpufreq stack under the guest (Documentation/testfreq.rst), and the
# OPP floor's lifetime (opp_floor.c, issue 22 item 1).
#
# With sp_testfreq.ko: one policy per package or cluster, schedutil on each,
# cpu_frequency events, mainline EAS on a big.LITTLE board (or a SKIP naming
# the condition build_perf_domains() finds missing), PSCI cpuidle states
# where the DT has them.  Then sched_power's floor: power mode with
# opp_floor=1 shows in scaling_min_freq; mode=observe removes it with the
# policy's first CPU offline, and with all its CPUs offline; rmmod with the
# floor on leaves no request (scaling_min_freq writes after it touch no
# freed memory); a driver reload with the first CPU offline at rmmod gives
# every new policy the floor.  Under cpufreq.off=1 (a separate boot): the
# module loads and says it has no floor.
#
# The driver is loaded here and unloaded at the end, and sched_power is
# reloaded then, so the other tests run as before, without cpufreq
# (Documentation/testfreq.rst says why); with SP_TESTFREQ=1 guest-run.sh
# has loaded it before sched_power and it stays.  Leaves sched_power
# loaded in observe mode.
. ./testfreq_lib.sh

# freq_want POLICY_DIR: the scaling_min_freq the floor should give it now
# (the first related CPU keys the policy's floor; no pipeline, so that a
# poll reads the minimum and the floor close together).
freq_want() {
	r=$(cat "$1/related_cpus")
	f=$(tf_floor_khz "${r%%[ ,-]*}")
	[ "$f" -gt 0 ] 2>/dev/null && echo "$f" || cat "$1/cpuinfo_min_freq"
}

# freq_wait_fn POLICY_DIR FN: wait up to 3 s for a poll at which
# scaling_min_freq is what "FN POLICY_DIR" prints both just before and just
# after it is read: the floor's gap limit may move the floor between looks
# (opp_floor.c), and the minimum follows it through a work item.
freq_wait_fn() {
	i=0
	while [ $i -le 30 ]; do
		w1=$($2 "$1"); m=$(cat "$1/scaling_min_freq"); w2=$($2 "$1")
		[ "$m" = "$w1" ] && [ "$m" = "$w2" ] && return 0
		FREQ_POLLS="$FREQ_POLLS $m/$w1/$w2"
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# freq_mins_at FN: every policy's scaling_min_freq at what "FN POLICY"
# prints; else each policy that is not, with its values at the last polls
# (min/want before/want after).
freq_mins_at() {
	bad=""
	for p in $(tf_policies); do
		FREQ_POLLS=""
		freq_wait_fn "$p" "$1" ||
			bad="$bad ${p##*/}:$(echo $FREQ_POLLS | tr ' ' '\n' | tail -n 4 | tr '\n' ' ')"
	done
	echo "$bad"
}
freq_cpuinfo_min() { cat "$1/cpuinfo_min_freq"; }

# freq_all_floored: every policy at its floor; else its name and values.
freq_all_floored() { freq_mins_at freq_want; }

# freq_none_floored: every policy back at cpuinfo_min_freq.
freq_none_floored() { freq_mins_at freq_cpuinfo_min; }

# freq_splat_since N: the splat lines among kernel messages after line N.
freq_splat_since() {
	dmesg_new | tail -n +$(($1 + 1)) | grep -E -A 8 "$DMESG_BAD" | head -n 20
}

freq_nocpufreq() {
	floor0=$(cat $SP/opp_floor)
	head -n 1 $DBG/opp_floor | grep -q 'cpufreq none' &&
		tap_ok "nocpufreq: sched_power loaded under cpufreq.off=1, opp_floor says: $(head -n 1 $DBG/opp_floor)" ||
		tap_fail "nocpufreq: debugfs opp_floor says there is no floor" "$(head -n 1 $DBG/opp_floor)"
	sp_write opp_floor 1 && sp_write mode power &&
		grep -q 'requests 0' $DBG/opp_floor &&
		tap_ok "nocpufreq: power mode with opp_floor=1 accepted, no request" ||
		tap_fail "nocpufreq: power mode with opp_floor=1" "$(cat /tmp/sp_write_err)" "$(head -n 1 $DBG/opp_floor)"
	sp_write mode observe; sp_write opp_floor "$floor0"
	if [ -f $TF_KO ] && ! tf_load; then
		tap_ok "nocpufreq: sp_testfreq refuses to load ($(tail -c 80 /tmp/tf_insmod.err))"
	elif [ -f $TF_KO ]; then
		tap_fail "nocpufreq: sp_testfreq refuses to load" "it loaded under cpufreq.off=1"
		tf_unload
	fi
}

# freq_load: the driver, with an Energy Model only where EAS can use one
# (unequal capacities).  6.1 keeps a CPU's EM until reboot, and sched_power
# takes its default model's pds from an EM: the rest of an x86 suite
# would then run on another model (pd ids 0 and 2, not 0 and 1).
freq_load() {
	if tf_asym; then tf_load; else tf_load em=0; fi
}

freq_driver() {
	TF_OWN=0
	if ! tf_loaded; then
		if freq_load; then
			TF_OWN=1
			tap_ok "freq: insmod sp_testfreq.ko"
		else
			tap_fail "freq: insmod sp_testfreq.ko" "$(cat /tmp/tf_insmod.err)" "$(dmesg | tail -n 5)"
			return 1
		fi
	fi
	# one policy per package (x86) or per cluster (arm64)
	want=$(for c in /sys/devices/system/cpu/cpu[0-9]*/topology; do
		if [ "$(uname -m)" = aarch64 ]; then
			echo "$(cat $c/physical_package_id) $(cat $c/cluster_id)"
		else
			cat $c/physical_package_id
		fi
	done | sort -u | wc -l)
	pols=""
	for p in $(tf_policies); do
		pols="$pols ${p##*/}:$(cat "$p/related_cpus" | tr ' ' ',')"
	done
	drv=$(cat $TF_CPUFREQ/policy0/scaling_driver 2>/dev/null)
	[ "$drv" = sp_testfreq ] && [ "$(tf_policies | wc -l)" -eq "$want" ] &&
		tap_ok "freq: sp_testfreq drives $want policies ($pols)" ||
		tap_fail "freq: sp_testfreq drives one policy per package/cluster" "driver '$drv', want $want, have:$pols"
	gov=$(cat $TF_CPUFREQ/policy*/scaling_governor | sort -u | tr '\n' ' ')
	[ "$gov" = "schedutil " ] && tap_ok "freq: schedutil on every policy" ||
		tap_fail "freq: schedutil on every policy" "governors: $gov"
}

# cpu_frequency fires as schedutil follows a busy then idle CPU.
freq_events() {
	ev=$TRACEFS/events/power/cpu_frequency/enable
	echo 0 >$TRACEFS/tracing_on; echo >$TRACEFS/trace
	echo 1 >$ev; echo 1 >$TRACEFS/tracing_on
	/sp/sp_load periodic 1 20000 19000 600 >/dev/null
	sleep 0.5
	echo 0 >$TRACEFS/tracing_on; echo 0 >$ev
	grep 'cpu_frequency:' $TRACEFS/trace >/tmp/freq_ev.txt
	n=$(wc -l </tmp/freq_ev.txt)
	states=$(sed -n 's/.*state=\([0-9]*\).*/\1/p' /tmp/freq_ev.txt | sort -un | tr '\n' ' ')
	echo >$TRACEFS/trace; echo 1 >$TRACEFS/tracing_on
	[ "$n" -gt 0 ] && tap_ok "freq: $n cpu_frequency events under a busy-then-idle load (kHz: $states)" ||
		tap_fail "freq: cpu_frequency events fire" "none in 1.1 s"
}

freq_eas() {
	if dmesg_new | grep -q 'sched_energy_set: starting EAS'; then
		pd=$(dmesg_new | grep 'root_domain' | tail -n 1 | sed 's/^\[[^]]*\] //')
		tap_ok "freq: mainline EAS started ($pd; EM in debugfs: $(ls /sys/kernel/debug/energy_model | tr '\n' ' '))"
		return
	fi
	why=$(tf_eas_missing)
	if [ -n "$why" ]; then
		tap_skip "freq: mainline EAS on" "$why"
	else
		tap_fail "freq: mainline EAS on" "build_perf_domains()'s conditions hold but dmesg has no 'starting EAS'" \
			"$(dmesg_new | grep -E -m 5 'EAS|root_domain|EM:')"
	fi
}

# PSCI idle states from the DT (scripts/arm64-biglittle-dtb.sh): the
# kernel's driver, its governor, the states, and CPU_SUSPEND accepted.
freq_cpuidle() {
	cpuidle=/sys/devices/system/cpu/cpuidle
	drv=$(cat $cpuidle/current_driver 2>/dev/null)
	if [ ! -d /proc/device-tree/cpus/idle-states ]; then
		tap_skip "freq: cpuidle runs the DT's idle states" "no idle-states in the DT (cpuidle driver: ${drv:-none})"
		return
	fi
	gov=$(cat $cpuidle/current_governor_ro 2>/dev/null || cat $cpuidle/current_governor)
	names=$(cat /sys/devices/system/cpu/cpu0/cpuidle/state*/name | tr '\n' ' ')
	nst=$(ls -d /sys/devices/system/cpu/cpu0/cpuidle/state* | wc -l)
	sleep 1
	used=$(cat /sys/devices/system/cpu/cpu*/cpuidle/state[12]/usage | awk '{ s += $1 } END { print s + 0 }')
	rej=$(cat /sys/devices/system/cpu/cpu*/cpuidle/state*/rejected | awk '{ s += $1 } END { print s + 0 }')
	if [ "$drv" = psci_idle ] && [ "$gov" = menu ] && [ "$nst" -eq 3 ] && [ "$used" -gt 0 ] && [ "$rej" -eq 0 ]; then
		tap_ok "freq: cpuidle $drv/$gov with two DT states beside WFI ($names), $used entries, 0 rejected"
	else
		tap_fail "freq: cpuidle runs two DT idle states" "driver=$drv governor=$gov states=$nst ($names) entries=$used rejected=$rej"
	fi
}

# The policy to hotplug: two CPUs or more, not CPU 0 (all of it can go
# offline), the floor above its lowest frequency.  Sets FP, FK, FR.
freq_pick() {
	FP=""
	for p in $(tf_policies); do
		FR=$(tf_cpus "$(cat "$p/related_cpus")")
		FK=${FR%% *}
		set -- $FR
		[ $# -ge 2 ] && [ "$FK" != 0 ] || continue
		[ "$(tf_floor_khz "$FK")" -gt "$(cat "$p/cpuinfo_min_freq")" ] || continue
		FP=$p
		return 0
	done
	return 1
}

# freq_gap_note WHERE: the floor's gap limit changes so far (debugfs
# opp_floor, counted since sched_power's insmod) and the uptime.
freq_gap_note() {
	echo "# floor $1: $(grep gap_limit_changes $DBG/opp_floor) at $(cut -d' ' -f1 /proc/uptime) s"
}

freq_gap_changes() { sed -n 's/^gap_limit_changes //p' $DBG/opp_floor; }

# freq_gap_hold: with the floor on, the gap limit holds still over 10 s of
# the guest's own background and 10 s of four periodic tasks (1.4 ms of
# spinning every 4 ms: gaps near cluster-sleep's target residency).
# sp_testfreq changes no speed, so the work measured after a move is not
# what the move predicted, and a limit without its settle rule moves at
# every look or two (core/sp_floor.h).
freq_gap_hold() {
	c0=$(freq_gap_changes)
	sleep 10
	c1=$(freq_gap_changes)
	/sp/sp_load periodic 4 4000 1400 10000 >/tmp/freq_gap_load.log 2>&1
	c2=$(freq_gap_changes)
	lim=$(grep 'gap_limit_opp\|shared_opp' $DBG/opp_floor | tr '\n' ' ')
	[ $((c2 - c0)) -le $FREQ_GAP_MAX ] &&
		tap_ok "floor: the gap limit holds in 20 s ($((c1 - c0)) changes idle, $((c2 - c1)) under four periodic tasks; $lim)" ||
		tap_fail "floor: the gap limit holds in 20 s" "$((c1 - c0)) changes idle, $((c2 - c1)) under four periodic tasks, at most $FREQ_GAP_MAX" "$(cat $DBG/opp_floor)"
	# each pd's limit is at most the floor priced for its groups
	bad=$(awk '/^pd[0-9]+ gap_limit_opp /{g[$1] = $3} /^pd[0-9]+ shared_opp /{s[$1] = $3}
		END {n = 0; for (p in g) { n++; if (!(p in s) || g[p] + 0 > s[p] + 0) printf " %s", p }
		     if (!n) printf " none"}' $DBG/opp_floor)
	[ -z "$bad" ] &&
		tap_ok "floor: every pd's gap limit is at most its shared-groups price ($lim)" ||
		tap_fail "floor: every pd's gap limit is at most its shared-groups price" "pds:$bad" "$(cat $DBG/opp_floor)"
}
FREQ_GAP_MAX=10

freq_floor_on() {
	sp_write opp_floor 1 && sp_write mode power
	freq_gap_note "on"
	bad=$(freq_all_floored)
	freq_gap_note "checked"
	[ -z "$bad" ] || echo "# floor not in force:$bad"
	[ -z "$bad" ]
}

freq_floor() {
	sp_write mode observe
	FLOOR0=$(cat $SP/opp_floor)
	sp_write opp_floor 1
	if ! freq_pick; then
		tap_skip "floor: sched_power's floor on a policy" "no policy of 2+ CPUs without CPU 0 whose floor is above its lowest OPP"
		sp_write opp_floor "$FLOOR0"
		return
	fi
	sp_write mode power
	bad=$(freq_all_floored)
	sum=""
	for p in $(tf_policies); do sum="$sum ${p##*/}:$(cat "$p/scaling_min_freq")"; done
	[ -z "$bad" ] && tap_ok "floor: power mode + opp_floor=1, scaling_min_freq is the floor ($sum; $(head -n 1 $DBG/opp_floor))" ||
		tap_fail "floor: scaling_min_freq reflects the floor" "$bad" "$(cat $DBG/opp_floor)"
	n0=$(dmesg_new | wc -l)
	freq_gap_hold

	# 1. the policy's first CPU offline: cpufreq moves policy->cpu
	tf_online "$FK" 0
	sp_write mode observe
	bad=$(freq_none_floored)
	[ -z "$bad" ] && tap_ok "floor: cpu$FK (${FP##*/}'s first CPU) offline, mode=observe removes the floor" ||
		tap_fail "floor: cpu$FK offline, mode=observe removes the floor" "$bad" "$(cat $DBG/opp_floor)"
	tf_online "$FK" 1

	# 2. every CPU of the policy offline: cpufreq_cpu_get() finds no policy
	pre=""; freq_floor_on || pre=" [the floor was not in force before]"
	for c in $FR; do tf_online "$c" 0; done
	sp_write mode observe
	for c in $FR; do tf_online "$c" 1; done
	bad=$(freq_none_floored)$pre
	[ -z "$bad" ] && tap_ok "floor: all of ${FP##*/} (cpus $FR) offline, mode=observe removes the floor" ||
		tap_fail "floor: all of ${FP##*/} offline, mode=observe removes the floor" "$bad" "$(cat $DBG/opp_floor)"

	# 3. rmmod with the floor on and the first CPU offline
	pre=""; freq_floor_on || pre=" [the floor was not in force before]"
	tf_online "$FK" 0
	if rmmod sched_power 2>/tmp/freq_rmmod.err; then
		bad=$(freq_none_floored)$pre
		[ -z "$bad" ] && tap_ok "floor: rmmod with the floor on (cpu$FK offline) leaves no request" ||
			tap_fail "floor: rmmod with the floor on leaves no request" "$bad"
		max=$(cat "$FP/cpuinfo_max_freq"); min=$(cat "$FP/cpuinfo_min_freq")
		echo "$max" >"$FP/scaling_min_freq"
		got=$(cat "$FP/scaling_min_freq")
		echo "$min" >"$FP/scaling_min_freq"
		splat=$(freq_splat_since "$n0")
		[ "$got" = "$max" ] && [ -z "$splat" ] &&
			tap_ok "floor: scaling_min_freq writes after rmmod act, no splat" ||
			tap_fail "floor: scaling_min_freq writes after rmmod" "read $got after writing $max" "$splat"
	else
		tap_fail "floor: rmmod with the floor on" "$(cat /tmp/freq_rmmod.err)"
	fi
	tf_online "$FK" 1
	[ -d $SP ] || insmod $KO mode=observe || tap_fail "floor: insmod sched_power again" "$(dmesg | tail -n 3)"
	FLOOR0=$(cat $SP/opp_floor)

	# 4. the driver reloaded while the floor is on, first CPU offline at rmmod
	pre=""; freq_floor_on || pre=" [the floor was not in force before]"
	tf_online "$FK" 0
	tf_unload || tap_fail "floor: rmmod sp_testfreq" "$(cat /tmp/tf_rmmod.err)"
	tf_online "$FK" 1
	if freq_load; then
		bad=$(freq_all_floored)$pre
		freq_gap_note "reloaded"
		[ -z "$bad" ] && tap_ok "floor: driver reloaded with the floor on (cpu$FK offline at rmmod), every new policy floored" ||
			tap_fail "floor: driver reload with the floor on, every new policy floored" "$bad" "$(cat $DBG/opp_floor)"
		sp_write mode observe
		bad=$(freq_none_floored)
		splat=$(freq_splat_since "$n0")
		[ -z "$bad" ] && [ -z "$splat" ] && tap_ok "floor: mode=observe after the reload removes every floor, no splat" ||
			tap_fail "floor: mode=observe after the reload removes every floor" "$bad" "$splat"
	else
		tap_fail "floor: sp_testfreq reloaded" "$(cat /tmp/tf_insmod.err)"
	fi
	sp_write mode observe
	sp_write opp_floor "$FLOOR0"
}

if grep -q 'cpufreq.off=1' /proc/cmdline; then
	freq_nocpufreq
elif [ ! -f $TF_KO ]; then
	tap_skip "freq: the test cpufreq driver" "no sp_testfreq.ko for $(uname -r) (make testfreq, make arm64-testfreq)"
elif freq_driver; then
	freq_events
	freq_eas
	freq_cpuidle
	freq_floor
	if [ "$TF_OWN" = 1 ]; then
		# the rest of the suite runs without cpufreq, on a module
		# that has not seen its cpu_frequency events
		tf_unload || tap_fail "freq: rmmod sp_testfreq" "$(cat /tmp/tf_rmmod.err)"
		rmmod sched_power && insmod $KO mode=observe ||
			tap_fail "freq: sched_power reloaded without cpufreq" "$(dmesg | tail -n 3)"
	fi
fi
sp_write mode observe
