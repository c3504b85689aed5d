# SPDX-License-Identifier: GPL-2.0
# Guest-side TAP helpers for sched_power selftests (busybox ash).
# Test scripts (selftests/test_*.sh) are sourced by guest-run.sh in one
# shell after the module is loaded; they use these functions and must leave
# /sys/kernel/sched_power/mode as "observe" when they finish.

SP=/sys/kernel/sched_power
DBG=/sys/kernel/debug/sched_power
TRACEFS=/sys/kernel/tracing

# A kernel splat in dmesg: oops (x86 "Oops: 0002 [#1]", arm64 "Internal
# error: Oops:"), WARN and lockdep ("WARNING:"), BUG, KASAN and
# sleeping-in-atomic ("BUG:"), BUG_ON, a fault, the backtrace header (x86
# "Call Trace:", arm64 "Call trace:").  Case matters: "loops_per_jiffy" is
# not an oops.  tests/check-guest-sh.sh checks it against sample lines.
DMESG_BAD='Oops:|WARNING:|BUG:|kernel BUG at|[Uu]nable to handle|general protection|Call [Tt]race'
TAP_N=${TAP_N:-0}
TAP_PASS=${TAP_PASS:-0}
TAP_FAIL=${TAP_FAIL:-0}
TAP_SKIP=${TAP_SKIP:-0}

tap_ok() {
	TAP_N=$((TAP_N + 1)); TAP_PASS=$((TAP_PASS + 1))
	echo "ok $TAP_N $1"
}

# tap_fail NAME [DIAGNOSTIC...]
tap_fail() {
	TAP_N=$((TAP_N + 1)); TAP_FAIL=$((TAP_FAIL + 1))
	echo "not ok $TAP_N $1"
	shift
	for l in "$@"; do echo "# $l"; done
}

# tap_skip NAME REASON
tap_skip() {
	TAP_N=$((TAP_N + 1)); TAP_SKIP=$((TAP_SKIP + 1))
	echo "ok $TAP_N $1 # SKIP $2"
}

# tap_check NAME CMD...: ok if CMD exits 0.
tap_check() {
	name=$1; shift
	if "$@" >/tmp/tap_out 2>&1; then
		tap_ok "$name"
	else
		tap_fail "$name" "command failed: $*" "$(head -c 400 /tmp/tap_out)"
	fi
}

# sp_write KNOB VALUE: write VALUE to $SP/KNOB, return the write's status.
sp_write() {
	( echo "$2" > "$SP/$1" ) 2>/tmp/sp_write_err
}

# stat_get NAME: the counter $SP/stats/NAME (0 if absent).
stat_get() {
	v=$(cat "$SP/stats/$1" 2>/dev/null)
	echo "${v:-0}"
}

# stats_reset: clear the decision counters.
stats_reset() {
	echo 1 > "$SP/stats/reset"
}

# stats_dump: every counter, "NAME VALUE" per line.
stats_dump() {
	for f in "$SP"/stats/*; do
		[ "${f##*/}" = reset ] || echo "${f##*/} $(cat "$f")"
	done
}

# sp_redirected: select_task_rq_fair is redirected (enabled_functions lists
# the site with an IPMODIFY, "I", ops).
sp_redirected() {
	grep -q '^select_task_rq_fair .*I' $TRACEFS/enabled_functions 2>/dev/null
}

# sp_wait_redirect 1|0: wait up to 10 s until the redirect is in (1) or out
# (0); in observe mode a work item follows sched_power_select's enable, so
# the change lags the write.  Prints the tenths of a second waited.
sp_wait_redirect() {
	w=0
	while [ $w -lt 100 ]; do
		if sp_redirected; then r=1; else r=0; fi
		[ $r = "$1" ] && { echo $w; return 0; }
		sleep 0.1
		w=$((w + 1))
	done
	echo $w
	return 1
}

# sp_select_event 1|0: sched_power_select on or off in tracefs.
sp_select_event() {
	echo "$1" > $TRACEFS/events/sched_power/sched_power_select/enable
}

# wake_load N: N rounds of short-lived processes talking over pipes.
wake_load() {
	i=0
	while [ $i -lt "$1" ]; do
		echo x | cat | cat >/dev/null
		i=$((i + 1))
	done
}

# light_load SECONDS: an audio-like producer pinned to CPU 0 waking two
# unpinned workers every 20 ms for 50 us bursts (selftests/sp_load.c): no
# fork/exec in the loop, which under TCG would cost more than the load.
light_load() {
	/sp/sp_load chain 2 20000 50 $(( $1 * 1000 )) 0
}
