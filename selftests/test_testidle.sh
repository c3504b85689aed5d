# SPDX-License-Identifier: GPL-2.0
# Under the x86 guest's test cpuidle driver (sp_testidle.ko, loaded at boot
# with SP_TESTIDLE=1; Documentation/testfreq.rst): the menu governor picks
# the deep state for long sleeps and stops the tick, and sched_power counts
# the driver's states.  Skipped under any other driver, or none.

TI_STATES=/sys/devices/system/cpu/cpu*/cpuidle

# ti_usage IDX: entries into state IDX summed over the CPUs
ti_usage() {
	cat $TI_STATES/state$1/usage | awk '{ s += $1 } END { print s + 0 }'
}

# ti_usage_all: entries into any state summed over the CPUs
ti_usage_all() {
	cat $TI_STATES/state*/usage | awk '{ s += $1 } END { print s + 0 }'
}

# ti_tick_only <TRACE: "TIMERS TICK_ONLY": the task timers
# (hrtimer_wakeup expiries), and the idle exits after which, until the
# CPU's next idle entry, the only timer to expire was tick_sched_timer.
ti_tick_only() {
	awk '
	function cpu_of(   i) {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^\[[0-9]+\]$/) return $i
		return ""
	}
	function close_window(c) {
		if (open[c] && tick[c] && !other[c]) only++
		open[c] = 0
	}
	/ cpu_idle: / {
		c = cpu_of()
		if ($0 ~ /state=4294967295/) { open[c] = 1; tick[c] = 0; other[c] = 0 }
		else close_window(c)
		next
	}
	/ hrtimer_expire_entry: / {
		c = cpu_of()
		if ($0 ~ /function=hrtimer_wakeup/) timers++
		if ($0 ~ /function=tick_sched_timer/) tick[c] = 1
		else other[c] = 1
	}
	END { print timers + 0, only + 0 }'
}

if [ "$(ti_driver)" != sp_testidle ]; then
	tap_skip "sp_testidle: menu picks the deep state, tick stopped, sched_power counts its states" \
		"cpuidle driver is $(ti_driver) (SP_TESTIDLE=1 loads sp_testidle at boot)"
else
	deep=$(($(ls -d /sys/devices/system/cpu/cpu0/cpuidle/state* | wc -l) - 1))
	deep_name=$(cat /sys/devices/system/cpu/cpu0/cpuidle/state$deep/name)

	# One task, 1 ms of work every 10 ms, for 1 s, traced: the idle CPUs
	# sleep about 9 ms or far longer, above every target residency (C6:
	# 345 us).  A kept tick wakes an idle CPU for nothing: a wake-up whose
	# only timer is tick_sched_timer (ti_tick_only).  Without a driver the
	# 6.1 guest keeps the tick at the idle entry after a task period
	# (Documentation/placement.rst, "What wakes the packages"): 20 and 26
	# such wake-ups for 100 task timers in two runs; with sp_testidle 2 and
	# 2.  A stopped tick is reprogrammed to the next timer and expires with
	# it, in the same wake-up: not counted.
	T=$TRACEFS
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 1 >$T/events/timer/hrtimer_expire_entry/enable
	echo 1 >$T/events/power/cpu_idle/enable
	u0=$(ti_usage $deep); a0=$(ti_usage_all)
	echo 1 >$T/tracing_on
	/sp/sp_load periodic 1 10000 1000 1000 >/dev/null
	echo 0 >$T/tracing_on
	u1=$(ti_usage $deep); a1=$(ti_usage_all)
	echo 0 >$T/events/timer/hrtimer_expire_entry/enable
	echo 0 >$T/events/power/cpu_idle/enable
	set -- $(ti_tick_only <$T/trace)
	wakes=$1 tick_only=$2
	echo >$T/trace
	n=$((a1 - a0)) d=$((u1 - u0))
	echo "# sp_testidle: $n idle entries, $d into $deep_name; $wakes task timers, $tick_only wake-ups by the tick alone"

	if [ "$n" -gt 0 ] && [ $((d * 100)) -ge $((n * 50)) ]; then
		tap_ok "sp_testidle: menu picks $deep_name for 10 ms sleeps ($d of $n entries)"
	else
		tap_fail "sp_testidle: menu picks $deep_name for 10 ms sleeps" "$d of $n entries"
	fi
	if [ "$wakes" -ge 50 ] && [ $((tick_only * 10)) -lt "$wakes" ]; then
		tap_ok "sp_testidle: the tick is stopped in idle ($tick_only wake-ups by the tick alone for $wakes task timers)"
	else
		tap_fail "sp_testidle: the tick is stopped in idle" \
			"$tick_only wake-ups by the tick alone for $wakes task timers (want fewer than a tenth)"
	fi

	# sched_power reads the driver's states: source=driver, and the deep
	# state's entries counted with verdicts.
	echo 1 >$SP/idle/reset
	/sp/sp_load periodic 1 10000 1000 500 >/dev/null
	r=$(awk -v s="$deep_name" '$2 == s { e += $4; h += $7 } END { print e + 0, h + 0 }' $DBG/idle_stats)
	set -- $r
	if head -n 1 $DBG/idle_stats | grep -q '^# source=driver driver=sp_testidle ' &&
		[ "$1" -gt 0 ] && [ "$2" -gt 0 ]; then
		tap_ok "sp_testidle: sched_power counts $deep_name ($1 entries, $2 hits)"
	else
		tap_fail "sp_testidle: sched_power counts $deep_name" "$(head -n 1 $DBG/idle_stats)" "entries, hits: $r"
	fi
fi
