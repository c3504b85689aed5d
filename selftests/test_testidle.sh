# SPDX-License-Identifier: GPL-2.0
# Under the x86 guest's test cpuidle driver (sp_testidle.ko, loaded at boot
# with SP_TESTIDLE=1; Documentation/testfreq.rst): the menu governor picks
# the deep state for long sleeps, and sched_power counts the driver's
# states as cpuidle does.  Skipped under any other driver, or none.

TI_STATES=/sys/devices/system/cpu/cpu*/cpuidle

# ti_snap FILE: every CPU's and state's usage, read at once, as grep's
# "path:count" lines
ti_snap() {
	grep . $TI_STATES/state*/usage >"$1" 2>/dev/null
}

# ti_usage_in FILE [IDX]: entries into state IDX (any state without IDX)
# summed over the CPUs, from a ti_snap FILE
ti_usage_in() {
	awk -F: -v st="/state$2/usage" 'index($1, st) || st == "/state/usage" { s += $2 } END { print s + 0 }' "$1"
}

# ti_tick_only <TRACE: "TIMERS TICK_ONLY": the task timers
# (hrtimer_wakeup expiries), and the idle exits that the tick alone caused:
# the first timer to expire after the exit is tick_sched_timer, within
# 500 us of it (the wake-up's own interrupt, not a tick that came later
# while the CPU ran for another reason, an idle-balance kick), and no
# other timer expires before the CPU's next idle entry.
ti_tick_only() {
	awk '
	function field(re,   i) {
		for (i = 1; i <= NF; i++)
			if ($i ~ re) return $i
		return ""
	}
	function close_window(c) {
		if (open[c] && first[c] == "tick" && !other[c]) only++
		open[c] = 0
	}
	/ cpu_idle: / {
		c = field("^\\[[0-9]+\\]$")
		if ($0 ~ /state=4294967295/) {
			open[c] = 1; other[c] = 0; first[c] = ""
			t_exit[c] = field("^[0-9]+[.][0-9]+:$") + 0
		} else {
			close_window(c)
		}
		next
	}
	/ hrtimer_expire_entry: / {
		c = field("^\\[[0-9]+\\]$")
		t = field("^[0-9]+[.][0-9]+:$") + 0
		if ($0 ~ /function=hrtimer_wakeup/) timers++
		tick = $0 ~ /function=tick_sched_timer/
		if (open[c] && first[c] == "")
			first[c] = tick && t - t_exit[c] <= 0.0005 ? "tick" : "other"
		if (!tick) other[c] = 1
	}
	END { print timers + 0, only + 0 }'
}

# One task, 1 ms of work every 10 ms, for 1 s, traced: the idle CPUs
# sleep about 9 ms or far longer, above every target residency (C6:
# 345 us), so the menu governor should mostly take the deepest state.
# Printed under any driver, not judged: how often the tick alone woke a
# CPU (a wake-up whose only timer was tick_sched_timer, ti_tick_only).
# Without a driver the 6.1 guest keeps the tick at the first idle entry
# after a task ran; with one the menu governor decides, from predictions
# that TCG's timing makes erratic (Documentation/testfreq.rst).
deep=$(($(ls -d /sys/devices/system/cpu/cpu0/cpuidle/state* 2>/dev/null | wc -l) - 1))
T=$TRACEFS
echo 0 >$T/tracing_on
echo >$T/trace
echo 1 >$T/events/timer/hrtimer_expire_entry/enable
echo 1 >$T/events/power/cpu_idle/enable
ti_snap /tmp/ti_u0.txt
echo 1 >$T/tracing_on
/sp/sp_load periodic 1 10000 1000 1000 >/dev/null
echo 0 >$T/tracing_on
ti_snap /tmp/ti_u1.txt
echo 0 >$T/events/timer/hrtimer_expire_entry/enable
echo 0 >$T/events/power/cpu_idle/enable
set -- $(ti_tick_only <$T/trace)
echo >$T/trace
n=$(( $(ti_usage_in /tmp/ti_u1.txt) - $(ti_usage_in /tmp/ti_u0.txt) ))
d=$(( $(ti_usage_in /tmp/ti_u1.txt $deep) - $(ti_usage_in /tmp/ti_u0.txt $deep) ))
echo "# tick: cpuidle driver $(ti_driver): $1 task timers, $2 wake-ups by the tick alone"

if [ "$(ti_driver)" != sp_testidle ]; then
	tap_skip "sp_testidle: menu picks the deep state, sched_power counts the driver's states" \
		"cpuidle driver is $(ti_driver) (SP_TESTIDLE=1 loads sp_testidle at boot)"
else
	deep_name=$(cat /sys/devices/system/cpu/cpu0/cpuidle/state$deep/name)
	echo "# sp_testidle: $n idle entries, $d into $deep_name"
	if [ "$n" -gt 0 ] && [ $((d * 100)) -ge $((n * 50)) ]; then
		tap_ok "sp_testidle: menu picks $deep_name for 10 ms sleeps ($d of $n entries)"
	else
		tap_fail "sp_testidle: menu picks $deep_name for 10 ms sleeps" "$d of $n entries"
	fi

	# sched_power takes the driver's index as its state (source=driver):
	# its entries per state, summed over the CPUs, are cpuidle's usage
	# counts over the same stretch, up to the idle entries of the moments
	# between the two sides' reads (a process's exit and the next one's
	# exec under TCG: 3 to 24 of 100 to 160 in runs here) and of the
	# reset's pause: within 8 per CPU, and 10 %.  A state index taken
	# wrongly (off by one, clamped) moves a whole row.
	echo 1 >$SP/idle/reset
	ti_snap /tmp/ti_k0.txt
	/sp/sp_load periodic 1 10000 1000 500 >/dev/null
	cat $DBG/idle_stats >/tmp/ti_stats.txt
	ti_snap /tmp/ti_k1.txt
	bad="" got=""
	for i in $(seq 0 $deep); do
		name=$(cat /sys/devices/system/cpu/cpu0/cpuidle/state$i/name)
		k=$(( $(ti_usage_in /tmp/ti_k1.txt $i) - $(ti_usage_in /tmp/ti_k0.txt $i) ))
		sp=$(awk -v s="$name" '$2 == s { e += $4 } END { print e + 0 }' /tmp/ti_stats.txt)
		dif=$((sp > k ? sp - k : k - sp))
		got="$got $name:$sp/$k"
		[ "$dif" -le $((8 * $(nproc) + k / 10)) ] || bad="$bad $name"
	done
	if head -n 1 /tmp/ti_stats.txt | grep -q '^# source=driver driver=sp_testidle ' && [ -z "$bad" ]; then
		tap_ok "sp_testidle: sched_power's entries per state match cpuidle's usage (sched_power/kernel:$got)"
	else
		tap_fail "sp_testidle: sched_power's entries per state match cpuidle's usage" \
			"$(head -n 1 /tmp/ti_stats.txt)" "sched_power/kernel:$got; off:$bad"
	fi

	# and judges the deepest state's stays against its target residency
	set -- $(awk -v s="$deep_name" '$2 == s { e += $4; h += $7 } END { print e + 0, h + 0 }' /tmp/ti_stats.txt)
	if [ "$1" -gt 0 ] && [ "$2" -gt 0 ]; then
		tap_ok "sp_testidle: sched_power judges $deep_name ($1 entries, $2 hits)"
	else
		tap_fail "sp_testidle: sched_power judges $deep_name" "entries, hits: $1 $2"
	fi

	# The driver has no polling state (its DOC says why): sched_power's
	# model, which marks the driver's CPUIDLE_FLAG_POLLING states poll=1
	# (em_defaults.c), marks none, so every state lets the groups sleep.
	npoll=$(grep -c '^idle .* poll=1' $SP/model)
	if [ "$npoll" -eq 0 ] && grep -q '^idle ' $SP/model; then
		tap_ok "sp_testidle: sched_power's model marks no state polling"
	else
		tap_fail "sp_testidle: sched_power's model marks no state polling" \
			"$npoll idle lines with poll=1"
	fi
fi
