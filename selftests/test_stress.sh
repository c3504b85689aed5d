# SPDX-License-Identifier: GPL-2.0
# Stress (issue 11): load/unload cycles under a wake-up-heavy load with and
# without tracing, CPU hotplug in power mode under load, concurrent writers
# to every knob and to the model, unload while tracing and while writers
# run, mode switches to and from off under load.  Power mode has the
# load-balancer gate and the kick gate on (issue 19): their redirects (of
# load_balance() and trigger_load_balance()) and probe go in at every
# insmod and out at every rmmod, and each mode, balance_gate or kick_gate
# flip registers or removes them, while the ping-pong load keeps the balancer
# busy (a newidle balance at every sleep).  A second, periodic load was
# tried: under single-threaded TCG it made insmod and rmmod about three
# times slower, with or without the gate.  STRESS_CYCLES, STRESS_HOTPLUG
# and STRESS_SWITCHES set the counts (make stress: 100, 50 and 50; the
# default suite runs a short form).  Observe mode with the
# sched_power_select event switched on and off under load, which registers
# and removes the redirect from a work item, alone and against mode writes.
# Enters and leaves with the module loaded in observe mode.
KO=/sp/sched_power.ko
CYCLES=${STRESS_CYCLES:-8}
HOTPLUG=${STRESS_HOTPLUG:-8}
SWITCHES=${STRESS_SWITCHES:-20}
STRESS_BAD="$DMESG_BAD|rcu.*stall"

mem_kb() {	# Slab + the rest of kernel-side memory, kB
	awk '/^(Slab|KernelStack|PageTables|VmallocUsed):/ { s += $2 } END { print s }' /proc/meminfo
}

# timed_pairs N FN: runs the function FN, one pair of switches that adds
# its failures to bad, N times with bad from 0; ms is then the mean time
# of one switch in ms, from /proc/uptime.
timed_pairs() {
	i=0; bad=0
	t0=$(cut -d' ' -f1 /proc/uptime)
	while [ $i -lt "$1" ]; do
		"$2"
		i=$((i + 1))
	done
	t1=$(cut -d' ' -f1 /proc/uptime)
	ms=$(awk -v a="$t0" -v b="$t1" -v n="$1" 'BEGIN { printf "%.0f", (b - a) * 1000 / (2 * n) }')
}

stress_load_start() {
	/sp/sp_load pingpong 2 1000000000 >/dev/null 2>&1 &
	STRESS_LOAD=$!
}

# kill_tree PID: PID and its children (sp_load forks its workers)
kill_tree() {
	kids=$(grep -l "^PPid:[[:space:]]*$1\$" /proc/[0-9]*/status 2>/dev/null | cut -d/ -f3)
	kill "$1" $kids 2>/dev/null
	wait "$1" 2>/dev/null
}

stress_load_stop() {
	kill_tree "$STRESS_LOAD"
}

# Writers of valid and invalid values to every knob and to the model.
stress_writers() {
	while :; do
		for m in power balanced observe performance off bogus; do
			echo $m > $SP/mode
		done
		echo 7 > $SP/margin_pct; echo 500 > $SP/margin_pct
		echo 90 > $SP/overutil_pct; echo 4000 > $SP/window_us
		echo "wakeup fork" > $SP/wake_types; echo "wakeup fork exec" > $SP/wake_types
		echo power > $SP/mode; echo 0 > $SP/balance_gate; echo 1 > $SP/balance_gate
		echo 0 > $SP/kick_gate; echo 1 > $SP/kick_gate
		cat /tmp/stress.model > $SP/model
		echo "garbage" > $SP/model
		cat $SP/stats/decisions $DBG/energy $DBG/snapshot >/dev/null
	done 2>/dev/null
}

start_kb=$(mem_kb)
echo "# stress: $CYCLES load/unload cycles, $HOTPLUG hotplug cycles; kernel memory $start_kb kB at start"
cat $SP/model > /tmp/stress.model
rmmod sched_power
stress_load_start

STRESS_T0=$(date +%s)
# 1. load/unload under load; every 4th cycle with trace-cmd recording across rmmod
i=0; bad=0; traced=0
while [ $i -lt "$CYCLES" ]; do
	insmod $KO mode=power || bad=$((bad + 1))
	if [ $((i % 4)) -eq 1 ]; then
		trace-cmd record -q -e sched_power -o /tmp/stress.dat sleep 1 >/dev/null 2>&1 &
		tp=$!
		sleep 0.3
		rmmod sched_power || bad=$((bad + 1))
		wait $tp
		traced=$((traced + 1))
	else
		sleep 0.2
		rmmod sched_power || bad=$((bad + 1))
	fi
	i=$((i + 1))
done
echo "# stress: cycles took $(( $(date +%s) - STRESS_T0 )) s"
[ $bad -eq 0 ] && tap_ok "stress: $CYCLES insmod/rmmod cycles in power mode under a ping-pong load ($traced unloaded while tracing)" \
	|| tap_fail "stress: $CYCLES insmod/rmmod cycles under load" "$bad failures"

# 2. hotplug of CPUs 1-3 in power mode under load
insmod $KO mode=power
if [ -w /sys/devices/system/cpu/cpu1/online ]; then
	i=0; bad=0
	while [ $i -lt "$HOTPLUG" ]; do
		c=$((1 + i % 3))
		echo 0 > /sys/devices/system/cpu/cpu$c/online || bad=$((bad + 1))
		sleep 0.1
		echo 1 > /sys/devices/system/cpu/cpu$c/online || bad=$((bad + 1))
		i=$((i + 1))
	done
	off=$(cat /sys/devices/system/cpu/offline)
	[ $bad -eq 0 ] && [ -z "$off" ] && tap_ok "stress: $HOTPLUG offline/online cycles of CPUs 1-3 in power mode under load" \
		|| tap_fail "stress: hotplug cycles" "$bad failures, offline='$off'"
else
	tap_skip "stress: hotplug cycles" "cpu1/online not writable"
fi

# 2b. switches to and from off under the load: each unregisters and
# registers the wake-up redirect and the idle probes (RCU grace periods);
# the redirect must be gone from enabled_functions in off and back after.
off_power_pair() {
	sp_write mode off || bad=$((bad + 1))
	grep -q '^select_task_rq_fair ' $TRACEFS/enabled_functions && bad=$((bad + 1))
	sp_write mode power || bad=$((bad + 1))
	grep -q '^select_task_rq_fair ' $TRACEFS/enabled_functions || bad=$((bad + 1))
}
timed_pairs "$SWITCHES" off_power_pair
[ $bad -eq 0 ] && tap_ok "stress: $SWITCHES off/power switch pairs under load, the redirect gone in off ($ms ms per switch, TCG)" \
	|| tap_fail "stress: off/power switches under load" "$bad failures"

# 2c. the gate switched on and off while the balancer runs: mode,
# balance_gate and kick_gate flips, each registering or removing the
# redirects and probe
i=0; bad=0; t0=$(date +%s)
FLIPS=$(( (HOTPLUG + 1) / 2 ))
while [ $i -lt $FLIPS ]; do
	echo observe > $SP/mode || bad=$((bad + 1))
	echo power > $SP/mode || bad=$((bad + 1))
	echo 0 > $SP/balance_gate || bad=$((bad + 1))
	echo 1 > $SP/balance_gate || bad=$((bad + 1))
	echo 0 > $SP/kick_gate || bad=$((bad + 1))
	echo 1 > $SP/kick_gate || bad=$((bad + 1))
	i=$((i + 1))
done
t=$(( $(date +%s) - t0 ))
gated=$(cat $SP/stats/balance_gated)
seen=$(( gated + $(cat $SP/stats/balance_passed) ))
grep -Eq '^(load_balance|sched_balance_rq) ' $TRACEFS/enabled_functions &&
	grep -Eq '^(trigger_load_balance|sched_balance_trigger) ' $TRACEFS/enabled_functions && on=1 || on=0
[ $bad -eq 0 ] && [ $on -eq 1 ] && [ "$seen" -gt 0 ] &&
	tap_ok "stress: $((FLIPS * 2)) gate registrations and as many removals under load in ${t} s, gate on at the end ($seen balances seen, $gated gated)" ||
	tap_fail "stress: gate flips under load" "$bad failed writes, redirected=$on, balances seen=$seen"

# 2d. observe mode with sched_power_select switched on and off in tracefs
# under the load: each switch queues the work that registers or removes
# the redirect (the tracepoint's reg and unreg callbacks), which must
# follow the event.  Then switches without waiting, racing the work, while
# a writer switches the mode through off and back; at the end the redirect
# must match the mode and the event again.  Each event switch and each
# mode write patches text and waits for grace periods (about 0.5 s under
# TCG), so the counts are a half and a tenth of STRESS_SWITCHES.
sp_write mode observe
PAIRS=$(( (SWITCHES + 1) / 2 ))
event_pair() {
	sp_select_event 1 || bad=$((bad + 1))
	sp_wait_redirect 1 >/dev/null || bad=$((bad + 1))
	sp_select_event 0 || bad=$((bad + 1))
	sp_wait_redirect 0 >/dev/null || bad=$((bad + 1))
}
timed_pairs $PAIRS event_pair
[ $bad -eq 0 ] && tap_ok "stress: $PAIRS sched_power_select on/off pairs in observe under load, the redirect following the event ($ms ms per switch, TCG)" \
	|| tap_fail "stress: observe event switches under load" "$bad failures"
WRITES=$(( (SWITCHES + 9) / 10 ))
( j=0; while [ $j -lt $WRITES ]; do
	for m in power observe off observe; do echo $m > $SP/mode; done
	j=$((j + 1))
  done ) 2>/dev/null &
mw=$!
i=0; bad=0
while kill -0 $mw 2>/dev/null; do
	sp_select_event 1 || bad=$((bad + 1))
	sp_select_event 0 || bad=$((bad + 1))
	i=$((i + 1))
done
wait $mw
sp_write mode observe
sp_wait_redirect 0 >/dev/null || bad=$((bad + 1))
sp_select_event 1
sp_wait_redirect 1 >/dev/null || bad=$((bad + 1))
sp_select_event 0
sp_wait_redirect 0 >/dev/null || bad=$((bad + 1))
[ $bad -eq 0 ] && tap_ok "stress: $i quick event on/off pairs against $((WRITES * 4)) mode writes through off, the redirect right at the end" \
	|| tap_fail "stress: quick event switches against mode writes" "$bad failures" "$(grep '^select_task_rq_fair' $TRACEFS/enabled_functions)"
# unload with the event on in observe mode: the unreg callback then runs
# after the module's exit (tracing removes its events), and must queue nothing
sp_select_event 1
sp_wait_redirect 1 >/dev/null
if rmmod sched_power 2>/tmp/rmmod_busy.err; then
	insmod $KO mode=power && tap_ok "stress: rmmod in observe with sched_power_select on, insmod again" ||
		tap_fail "stress: insmod after rmmod with the event on"
else
	sp_select_event 0
	tap_ok "stress: rmmod in observe with sched_power_select on refused ($(cat /tmp/rmmod_busy.err)); event off"
	sp_write mode power
fi

# 3. concurrent writers, then unload while they and a trace run
stress_writers & w1=$!
stress_writers & w2=$!
sleep 3
trace-cmd record -q -e sched_power -o /tmp/stress2.dat sleep 2 >/dev/null 2>&1 &
tp=$!
sleep 0.5
# While sched_power's events are enabled the tracing core holds a module
# reference (trace_event_try_get_ref()): rmmod is refused, cleanly, or it
# goes through if trace-cmd has not enabled them yet.  Then, the trace
# over, it must unload with the writers still running.  A writer's open
# debugfs file also holds a reference (the proxy takes the fops' owner), so
# busybox's rmmod (O_NONBLOCK) can meet EAGAIN: it retries, 0.1 s apart.
rmmod_retry() {
	RETRIES=0
	while ! rmmod sched_power 2>>/tmp/rmmod_busy.err; do
		RETRIES=$((RETRIES + 1))
		[ $RETRIES -ge 50 ] && return 1
		sleep 0.1
	done
}
: >/tmp/rmmod_busy.err
if rmmod sched_power 2>/tmp/rmmod_busy.err; then
	unloaded="while trace-cmd was starting"
else
	unloaded="after trace-cmd ended (refused before: $(cat /tmp/rmmod_busy.err))"
	wait $tp 2>/dev/null
	rmmod_retry && unloaded="$unloaded, $RETRIES refusals after it (a reader's open file)" || unloaded=""
fi
if [ -n "$unloaded" ]; then
	tap_ok "stress: rmmod with two writers of every knob and the model running, $unloaded"
else
	tap_fail "stress: rmmod with writers running" "$(cat /tmp/rmmod_busy.err)" "$(grep sched_power /proc/modules)"
fi
kill $w1 $w2 2>/dev/null
wait $w1 $w2 $tp 2>/dev/null
stress_load_stop

n=$(dmesg_new | grep -E -c "$STRESS_BAD")
[ "$n" -eq 0 ] && tap_ok "stress: no Oops, BUG, WARNING, sleeping-in-atomic or RCU stall in dmesg" \
	|| tap_fail "stress: dmesg clean" "$(dmesg_new | grep -E -A 8 "$STRESS_BAD" | head -n 30)"
check_taint "stress: no taint beyond O/E"

sleep 1
end_kb=$(mem_kb)
grow=$((end_kb - start_kb))
echo "# stress: kernel memory $end_kb kB after (growth $grow kB)"
# a leak of one model (170 KiB) or staging per cycle would exceed this;
# a KASAN kernel holds freed memory in its quarantine (several MiB), so
# there kmemleak's scan (make check-debug) is the leak check instead
if grep -q 'KernelAddressSanitizer initialized' /tmp/dmesg.boot 2>/dev/null; then
	tap_skip "stress: kernel memory back within 2 MiB of its start" "KASAN quarantine (grew $grow kB; kmemleak checks leaks)"
elif [ $grow -lt 2048 ]; then
	tap_ok "stress: kernel memory back within 2 MiB of its start ($grow kB)"
else
	tap_fail "stress: kernel memory back to its start" "grew $grow kB"
fi

insmod $KO mode=observe
echo "# stress: $(grep -c '' $TRACEFS/enabled_functions) functions enabled in ftrace after the cycles"
