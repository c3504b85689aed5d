# SPDX-License-Identifier: GPL-2.0
# A knob write whose ftrace redirect cannot be registered fails with the
# errno and changes nothing (knobs.c, Documentation/hook.rst).  debugfs
# sched_power/fail_redirect makes every registration of the function it
# names fail with -EBUSY, where ftrace refuses a second IPMODIFY user (a
# livepatch of the function).  Checked: the write fails with EBUSY; the
# mode, the balance_gate knob, the redirects (tracefs enabled_functions)
# and the counters read as before; a later write without the fault works;
# in observe mode, the event's enable leaves the redirect out and counts
# the failure, and the next enable without the fault registers it.

ME_FAIL=$DBG/fail_redirect
ME_BAL=$(grep -Eo '^(load_balance|sched_balance_rq)( |$)' $TRACEFS/available_filter_functions | head -n 1)
ME_BAL=${ME_BAL% }

# me_redirected NAME: 1 if NAME has an IPMODIFY ("I") ftrace ops now, else 0
me_redirected() {
	if grep -q "^$1 .*I" $TRACEFS/enabled_functions 2>/dev/null; then echo 1; else echo 0; fi
}

# me_state: the mode, balance_gate and both redirects, on one line
me_state() {
	echo "mode=$(cat $SP/mode) gate=$(cat $SP/balance_gate) select=$(me_redirected select_task_rq_fair) balance=$(me_redirected "$ME_BAL")"
}

# me_failures NAME: debugfs redirects' failure count of NAME (0 if unlisted)
me_failures() {
	v=$(grep "^$1 " $DBG/redirects 2>/dev/null | sed 's/.* failures \([0-9]*\) .*/\1/')
	echo "${v:-0}"
}

# me_refused NAME KNOB VALUE: with NAME's registration failing, writing
# VALUE to KNOB fails with EBUSY and leaves the state (me_state) and the
# counters in COUNTERS (a grep -E pattern of stats names) as before
me_refused() {
	echo "$1" > $ME_FAIL
	s0=$(me_state); f0=$(me_failures "$1")
	stats_dump | grep -E "$ME_COUNTERS" > /tmp/me_c0
	if sp_write "$2" "$3"; then rc=0; else rc=1; fi
	s1=$(me_state)
	wake_load 20
	stats_dump | grep -E "$ME_COUNTERS" > /tmp/me_c1
	s2=$(me_state); f1=$(me_failures "$1")
	echo none > $ME_FAIL
	why=""
	[ $rc = 1 ] || why="$why accepted;"
	grep -qi busy /tmp/sp_write_err || why="$why error '$(cat /tmp/sp_write_err)';"
	[ "$s1" = "$s0" ] && [ "$s2" = "$s0" ] || why="$why state before '$s0' after '$s1' later '$s2';"
	cmp -s /tmp/me_c0 /tmp/me_c1 || why="$why counters $(diff /tmp/me_c0 /tmp/me_c1 | grep '^[-+][a-z]' | tr '\n' ' ');"
	[ "$f1" -gt "$f0" ] || why="$why failures $f0 -> $f1;"
	if [ -z "$why" ]; then
		tap_ok "modeerr: $2=$3 refused while $1 cannot register: EBUSY, $s0 and $(wc -l < /tmp/me_c0) counters as before"
	else
		tap_fail "modeerr: $2=$3 refused while $1 cannot register" "$why"
	fi
}

if [ ! -w $ME_FAIL ] || [ -z "$ME_BAL" ]; then
	tap_skip "modeerr: refused knob writes" "no debugfs fail_redirect or no load_balance ftrace site"
else
	sp_select_event 0
	sp_write mode observe
	sp_write balance_gate 1
	sp_wait_redirect 0 >/dev/null

	# observe, event off: nothing is redirected, so every counter holds still
	ME_COUNTERS='.'
	me_refused select_task_rq_fair mode power
	me_refused select_task_rq_fair mode performance
	# the wake-up hook registers, then the gate refuses: the hook is
	# removed again (its counters moved meanwhile), the gate's did not
	ME_COUNTERS='^balance_'
	me_refused "$ME_BAL" mode power
	me_refused "$ME_BAL" mode balanced
	# from performance (hook in): the hook stays, the gate stays out
	ME_COUNTERS='^balance_'
	sp_write mode performance
	me_refused "$ME_BAL" mode power
	# the balance_gate knob itself: 0 -> 1 in power mode is refused
	sp_write balance_gate 0
	sp_write mode power
	me_refused "$ME_BAL" balance_gate 1
	# from off: the idle probes come back, then the hook refuses; all undone
	sp_write mode off
	ME_COUNTERS='.'
	me_refused select_task_rq_fair mode power

	# without the fault the same write works
	sp_write balance_gate 1
	d0=$(stat_get decisions)
	if sp_write mode power; then rc=0; else rc=1; fi
	wake_load 20
	d1=$(stat_get decisions)
	s=$(me_state)
	if [ $rc = 0 ] && [ "$s" = "mode=off observe [power] balanced performance gate=1 select=1 balance=1" ] &&
	   [ "$d1" -gt "$d0" ]; then
		tap_ok "modeerr: without the fault mode=power works ($s, decisions $d0 -> $d1)"
	else
		tap_fail "modeerr: without the fault mode=power works" "rc=$rc $s decisions $d0 -> $d1" "$(cat /tmp/sp_write_err)"
	fi

	# observe mode: the event's work cannot return an error; it leaves the
	# redirect out, prints and counts the failure
	sp_write mode observe
	sp_wait_redirect 0 >/dev/null
	echo select_task_rq_fair > $ME_FAIL
	f0=$(me_failures select_task_rq_fair)
	sp_select_event 1
	w=0
	while [ $w -lt 100 ] && [ "$(me_failures select_task_rq_fair)" -le "$f0" ]; do
		sleep 0.1; w=$((w + 1))
	done
	f1=$(me_failures select_task_rq_fair)
	sleep 0.5
	s=$(me_state)
	echo none > $ME_FAIL
	if [ "$f1" -gt "$f0" ] && [ "$s" = "mode=off [observe] power balanced performance gate=1 select=0 balance=0" ] &&
	   dmesg | grep -q 'cannot redirect select_task_rq_fair (-16): no sched_power_select events'; then
		tap_ok "modeerr: observe, event enabled while the redirect cannot register: failure counted ($f0 -> $f1) and printed, $s"
	else
		tap_fail "modeerr: observe, event enabled while the redirect cannot register" "failures $f0 -> $f1, $s" \
			"$(dmesg | grep 'cannot redirect' | tail -n 2)"
	fi
	sp_select_event 0
	sp_wait_redirect 0 >/dev/null
	sp_select_event 1
	if t=$(sp_wait_redirect 1); then
		tap_ok "modeerr: observe, the next enable without the fault redirects (after ${t}/10 s)"
	else
		tap_fail "modeerr: observe, the next enable without the fault redirects" "$(me_state)"
	fi
	sp_select_event 0
	sp_wait_redirect 0 >/dev/null
	echo none > $ME_FAIL
	sp_write mode observe
fi
