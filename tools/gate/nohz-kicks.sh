# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# nohz-kicks.sh: what wakes each package of the x86 guest while two light
# periodic tasks run, per mode (issue 19 item 4).  A guest script for
# selftests/vm-run.sh --script (busybox sh, lib.sh sourced); run by
# tools/gate/gate-nohz.  Prints "nohz ..." lines.
#
# For each configuration in $NOHZ_MODES (default "observe power
# power-nogate": a mode, "-nogate" for balance_gate=0, "-nokick" for
# kick_gate=0): insmod, two
# sp_load periodic tasks (2 ms every 10 ms and every 15 ms, any CPU) for
# $NOHZ_S seconds (default 10), or rt-app playing $NOHZ_STORY, under
# trace-cmd (power:cpu_idle, the x86
# irq_vectors entries, irq handlers, hrtimer and timer-wheel expiries,
# tick_stop, sched_switch, sched_wakeup, sched_power_balance, the function
# tracer on nohz_csd_func: the idle-load-balance kick's IPI handler, and
# kretprobes on rcu_needs_cpu, irq_work_needs_cpu and
# tick_nohz_next_event where kprobes work), rmmod.  A package wakes when its first CPU leaves idle
# while every CPU of it was idle; the cause is the first interrupt-side
# event on that CPU since it went idle: "ilb_kick" (nohz_csd_func ran:
# nohz_balancer_kick() chose this CPU for the idle balance), "ipi_call"
# (another function-call IPI: a remote wake-up queued to this CPU), "resched"
# (reschedule IPI: a wake-up), "timer" (an hrtimer expired: the periodic
# tasks' own timers, or the tick), "other"; and in detail, "nohz why"
# lines (nohz_count below).  Also per package: the
# sched_power_balance records run on its CPUs (the gate's verdicts there),
# and the run time of the two tasks there; per configuration, the share of
# the time both packages were awake at once.  A configuration ending in
# "-pkgN" (observe-pkg0) runs both tasks with the affinity of package N's
# CPUs: where the tasks sit decides which package the kicks wake, since
# find_new_ilb() takes the first tickless idle CPU in CPU order.
NOHZ_S=${NOHZ_S:-10}
NOHZ_MODES=${NOHZ_MODES:-observe power power-nogate}

# nohz_mask N: the hex affinity mask of package N's CPUs
nohz_mask() {
	mask=0
	for d in /sys/devices/system/cpu/cpu[0-9]*; do
		[ "$(cat "$d"/topology/physical_package_id)" = "$1" ] &&
			mask=$((mask | (1 << ${d##*cpu})))
	done
	printf '%x' $mask
}

# nohz_count CONFIG MAP TRACE: the "nohz mode=..." lines of one run from
# trace-cmd report's text TRACE (without plugins: prev_comm=, comm=); MAP
# is "CPU:PACKAGE ...".  NOHZ_TASK: the tasks' comm, a regular expression
# (default sp_load).  "nohz why" lines: per package, the wake-ups of each
# cause in detail, CAUSE[:HRTIMER FUNCTION][+TIMER-WHEEL FUNCTION]>TASK:
# the hrtimer and the first timer-wheel function that expired in the
# interrupt that woke the package, and the first task that interrupt woke
# ("-" for none: the kernel alone, e.g. a tick kept for RCU); digits in a
# task's name read N.  "nohz slept" lines: per package, its wake-ups by
# how long it had slept: under 50 us, under 345 us (sp_testidle's deepest
# target residency), longer; for those that woke a task and those that
# woke none.  Every CPU
# counts as awake until its first idle entry, so both packages are awake
# from the first event until one of them has every CPU idle.
nohz_count() {
	awk -v mode="$1" -v map="$2" -v task="${NOHZ_TASK:-sp_load}" '
	BEGIN {
		n = split(map, a, " ")
		for (i = 1; i <= n; i++) { split(a[i], b, ":"); pkg[b[1]] = b[2]; npk[b[2]]++; if (!(b[2] in pk)) npkgs++; pk[b[2]] = 1 }
	}
	{
		c = -1
		if (match($0, /\[[0-9]+\]/)) c = substr($0, RSTART + 1, RLENGTH - 2) + 0
		if (c < 0) next
		t = ""
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = substr($i, 1, length($i) - 1) + 0; break }
		if (t == "") next
		if (t0 == "") { t0 = t; awake = npkgs; bt = t }	# all awake from the first event
		t1 = t
		p = pkg[c]
	}
	/ cpu_idle: / {
		st = $0; sub(/.*state=/, "", st); sub(/ .*/, "", st)
		if (st == "4294967295") {
			if (idle[c]) {
				idle[c] = 0
				if (nidle[p] == npk[p]) {
					cause = why[c] == "" ? "other" : why[c]
					wk[p, cause]++; wkp[p]++
					if (what[c] == "tick_sched_timer") what[c] = what[c] "(" tk[c] ")"
					d = cause (what[c] == "" ? "" : ":" what[c]) (tw[c] == "" ? "" : "+" tw[c]) ">" (woke[c] == "" ? "-" : woke[c])
					det[p, d]++
					sl = (t - slept[p]) * 1e6
					slb[p, sl < 50 ? 1 : sl < 345 ? 2 : 3, woke[c] == "" ? "none" : "task"]++
					both(t, 1)
				}
				nidle[p]--
			}
		} else if (!idle[c]) {
			idle[c] = 1; why[c] = ""; what[c] = ""; tw[c] = ""; woke[c] = ""; nidle[p]++
			tk[c] = rneed[c] ? "rcu" : iwneed[c] ? "irq_work" : tstop[c] ? "stopped" : \
				nxt[c] == "" ? "kept" : nxt[c] == 0 ? "near" : "kept"
			nxt[c] = ""
			if (nidle[p] == npk[p]) { both(t, -1); slept[p] = t }
		}
		next
	}
	# the tick at idle entry: "rcu" (rcu_needs_cpu() said 1 at the last
	# look: the kretprobe sp_rcu_needs), "irq_work" (irq_work_needs_cpu()
	# said 1), "stopped" (tick_stop success=1 since the CPU last ran a
	# task), "near" (tick_nohz_next_event() returned 0: the next timer is
	# within a tick), else "kept" (not asked: without a cpuidle driver,
	# do_idle() of 6.1.192 retains the tick at the first idle entry after
	# a task ran, got_tick; or can_stop_idle_tick() said no)
	/ tick_stop:/ { if ($0 ~ /success=1/) tstop[c] = 1; next }
	/ sp_rcu_needs:/ { l = $0; sub(/.*ret=/, "", l); rneed[c] = l !~ /^(0x)?0+( |$)/; next }
	/ sp_iw_needs:/ { l = $0; sub(/.*ret=/, "", l); iwneed[c] = l !~ /^(0x)?0+( |$)/; next }
	/ sp_next_event:/ { l = $0; sub(/.*ret=/, "", l); nxt[c] = l ~ /^(0x)?0+( |$)/ ? 0 : 1; next }
	/ nohz_csd_func/ { if (idle[c]) why[c] = "ilb_kick"; kick[p]++; next }
	/ call_function_single_entry:/ { if (idle[c] && why[c] == "") why[c] = "ipi_call"; next }
	/ reschedule_entry:/ { if (idle[c] && why[c] == "") why[c] = "resched"; next }
	/ (hrtimer_expire_entry|local_timer_entry):/ {
		if (!idle[c]) next
		if (why[c] == "") why[c] = "timer"
		if (what[c] == "" && $0 ~ / function=/) what[c] = fn($0)
		next
	}
	/ (call_function_entry|irq_work_entry):/ { if (idle[c] && why[c] == "") { why[c] = "other"; what[c] = $0 ~ /irq_work/ ? "irq_work" : "ipi_many" }; next }
	/ irq_handler_entry:/ {
		if (idle[c] && why[c] == "") { why[c] = "other"; l = $0; sub(/.* name=/, "", l); sub(/ .*/, "", l); what[c] = "irq_" l }
		next
	}
	/ timer_expire_entry:/ { if (idle[c] && tw[c] == "") tw[c] = fn($0); next }
	/ sched_wakeup:/ { if (idle[c] && woke[c] == "") woke[c] = comm($0); next }
	/ sched_power_balance:/ {
		r = $0; sub(/.*reason=/, "", r); sub(/ .*/, "", r)
		bal[p, r]++
		next
	}
	/ sched_switch:/ {
		if ($0 ~ ("prev_comm=(" task ")") && on[c] != "") { run[p] += t - on[c]; on[c] = "" }
		if ($0 ~ ("next_comm=(" task ")")) on[c] = t
		l = $0; sub(/.*next_pid=/, "", l)
		if (l + 0 != 0) tstop[c] = 0	# a task runs: the tick restarts
		next
	}
	# the function= of a timer event, without its offset
	function fn(l) {
		sub(/.* function=/, "", l); sub(/[ +].*/, "", l)
		return l
	}
	# the task a sched_wakeup names (comm=... or the "comm:pid" of trace-cmd plugins),
	# without the numbers that tell kworkers, CPUs or threads apart
	function comm(l) {
		if (l ~ / comm=/) { sub(/.* comm=/, "", l); sub(/ pid=.*/, "", l) }
		else { sub(/.*sched_wakeup: +/, "", l); sub(/:[0-9]+ .*/, "", l) }
		gsub(/[0-9]+/, "N", l); gsub(/[ =]/, "_", l)
		return l
	}
	# packages awake: all count awake until their CPUs report idle
	function both(t, delta) {
		if (awake == npkgs && bt != "") both_s += t - bt
		awake += delta
		bt = awake == npkgs ? t : ""
	}
	END {
		if (awake == npkgs && bt != "") both_s += t1 - bt
		d = t1 - t0
		printf "nohz mode=%s both_pkgs_awake_share=%.4f\n", mode, (d > 0 ? both_s / d : 0)
		for (q in pk) {
			line = sprintf("nohz mode=%s pkg=%s secs=%.2f task_run_s=%.3f wakeups_per_s=%.1f", mode, q, d, run[q], d > 0 ? wkp[q] / d : 0)
			split("ilb_kick ipi_call resched timer other", cs, " ")
			for (i = 1; i <= 5; i++) line = line sprintf(" %s=%d", cs[i], wk[q, cs[i]])
			line = line sprintf(" kicks_received=%d", kick[q])
			split("gated local overutilised starving waiting off", rs, " ")
			for (i = 1; i <= 6; i++) line = line sprintf(" bal_%s=%d", rs[i], bal[q, rs[i]])
			print line
		}
		for (q in pk)
			for (i = 1; i <= 2; i++) {
				w = i == 1 ? "task" : "none"
				printf "nohz slept mode=%s pkg=%s woke=%s lt50us=%d lt345us=%d ge345us=%d\n", mode, q, w,
					slb[q, 1, w], slb[q, 2, w], slb[q, 3, w]
			}
		# per package, each cause with the timer functions and the task woken
		for (k in det) {
			split(k, kk, SUBSEP)
			printf "nohz why mode=%s pkg=%s n=%d cause=%s\n", mode, kk[1], det[k], kk[2]
		}
	}' "$3"
}

# nohz_load PIN: the command the recording runs, under the taskset PIN:
# the two sp_load tasks, or rt-app playing $NOHZ_STORY (a file gate-nohz
# --story put in /sp/files/), as power-bench plays it: pb-story gives it
# the calibration nohz_story_cal measured (rt-app's own would run inside
# the recording, for many seconds under TCG); rt-app's threads carry the
# story's task names
nohz_load() {
	if [ -n "${NOHZ_STORY:-}" ]; then
		echo "$1 rt-app /tmp/nohz-story/story.json"
	else
		echo "$1 /sp/sp_load periodic 1 10000 2000 $((NOHZ_S * 1000)) & $1 /sp/sp_load periodic 1 15000 2000 $((NOHZ_S * 1000)); wait"
	fi
}

# nohz_story_cal: calibrate rt-app once and write /tmp/nohz-story/story.json
nohz_story_cal() {
	. /sp/pb/pb-cal.sh
	cal=$(pb_calibrate /tmp/nohz-story/cal) || { echo "nohz error: rt-app calibration failed"; return 1; }
	mkdir -p /tmp/nohz-story/log
	/sp/pb-story -c "$cal" -l /tmp/nohz-story/log -o /tmp/nohz-story/story.json \
		"/sp/files/$NOHZ_STORY" >/dev/null || { echo "nohz error: pb-story failed on $NOHZ_STORY"; return 1; }
	echo "nohz story=$NOHZ_STORY calibration_ns=$cal"
}

# nohz_rtapp_lat CONFIG: from rt-app's logs of the run, per thread, how
# late its timer woke it (wu_lat, the log's last column: the wake-up after
# the timer's expiry, us), as its median, 90th percentile and largest;
# "nohz rtapp" lines
nohz_rtapp_lat() {
	for l in /tmp/nohz-story/log/*.log; do
		[ -f "$l" ] || continue
		awk '$1 !~ /^#/ && NF >= 10 { print $NF }' "$l" | sort -n | awk -v m="$1" -v t="${l##*/}" '
			{ v[++n] = $1 }
			END { if (n) printf "nohz rtapp mode=%s thread=%s loops=%d wu_lat_p50=%d wu_lat_p90=%d wu_lat_max=%d\n",
				m, t, n, v[int((n + 1) / 2)], v[int(n * 0.9) > 0 ? int(n * 0.9) : 1], v[n] }'
	done
}

nohz_run() {	# nohz_run CONFIG
	cfg=${1%-pkg[0-9]} pin=""
	[ "$cfg" = "$1" ] || pin="taskset $(nohz_mask "${1##*-pkg}")"
	mode=${cfg%-nogate}
	mode=${mode%-nokick}
	insmod /sp/sched_power.ko mode="$mode" || return 1
	[ "$cfg" = "${cfg%-nogate}" ] || echo 0 >"$SP"/balance_gate
	[ "$cfg" = "${cfg%-nokick}" ] || echo 0 >"$SP"/kick_gate
	cd /tmp || return 1
	# rcu_needs_cpu()'s answer at each idle entry, where kprobes work
	kp=""
	for k in sp_rcu_needs:rcu_needs_cpu sp_iw_needs:irq_work_needs_cpu sp_next_event:tick_nohz_next_event; do
		echo "r:${k%%:*} ${k#*:} ret=\$retval" >>"$TRACEFS"/kprobe_events 2>/dev/null &&
			kp="$kp -e kprobes:${k%%:*}"
	done
	rm -f /tmp/nohz-story/log/*
	# shellcheck disable=SC2086 # $kp: the kprobe events, one word each
	trace-cmd record -q -s 1000000 -b 8192 -p function -l nohz_csd_func \
		-e power:cpu_idle -e irq_vectors:call_function_single_entry \
		-e irq_vectors:reschedule_entry -e irq_vectors:local_timer_entry \
		-e irq_vectors:call_function_entry -e irq_vectors:irq_work_entry \
		-e irq:irq_handler_entry \
		-e timer:hrtimer_expire_entry -e timer:timer_expire_entry \
		-e sched:sched_switch -e sched:sched_wakeup -e timer:tick_stop $kp \
		-e sched_power:sched_power_balance -o /tmp/nohz.dat \
		sh -c "$(nohz_load "$pin")" >/dev/null 2>&1
	trace-cmd report -i /tmp/nohz.dat 2>/dev/null >/tmp/nohz.txt
	[ -z "${NOHZ_STORY:-}" ] || nohz_rtapp_lat "$1"
	for k in $kp; do
		[ "$k" = -e ] || echo "-:${k#kprobes:}" >>"$TRACEFS"/kprobe_events
	done
	cd /sp || return 1
	echo "nohz stats mode=$1 kick_gated=$(cat "$SP"/stats/kick_gated 2>/dev/null || echo -)" \
		"kick_passed=$(cat "$SP"/stats/kick_passed 2>/dev/null || echo -)" \
		"balance_gated=$(cat "$SP"/stats/balance_gated)" \
		"balance_passed=$(cat "$SP"/stats/balance_passed)"
	echo off >"$SP"/mode
	rmmod sched_power
	map=""
	for d in /sys/devices/system/cpu/cpu[0-9]*; do
		map="$map ${d##*cpu}:$(cat "$d"/topology/physical_package_id)"
	done
	nohz_count "$1" "$map" /tmp/nohz.txt
}

# sourced with NOHZ_LIB=1 (tests/check-guest-sh.sh): the functions only
[ -z "${NOHZ_LIB:-}" ] || return 0

echo "nohz kernel=$(uname -r) cpus=$(nproc) secs=$NOHZ_S reps=${NOHZ_REPS:-1} load=${NOHZ_STORY:-sp_load}" \
	"cpuidle=$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)"
[ -z "${NOHZ_STORY:-}" ] || nohz_story_cal || exit 1
r=1
while [ $r -le "${NOHZ_REPS:-1}" ]; do
	# the configurations in an order rotated by one per repetition
	# shellcheck disable=SC2086 # the configurations, one word each
	set -- $NOHZ_MODES
	i=1
	while [ $i -lt $r ] && [ $# -gt 1 ]; do
		first=$1; shift; set -- "$@" "$first"; i=$((i + 1))
	done
	for m in "$@"; do
		echo "nohz rep=$r"
		nohz_run "$m"
	done
	r=$((r + 1))
done
