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

# ftrace_site TEST NAME...: FTRACE_SYM is the first NAME (the same
# function under each kernel version's name) that available_filter_functions
# lists as an ftrace site of its own (not an .isra/.constprop clone), or
# empty; one TAP line for TEST either way
ftrace_site() {
	fs_t=$1
	shift
	fs_re=$(echo "$*" | tr ' ' '|')
	FTRACE_SYM=$(grep -Eo "^($fs_re)( |\$)" $TRACEFS/available_filter_functions | head -n 1)
	if [ -n "$FTRACE_SYM" ]; then
		tap_ok "$fs_t: $FTRACE_SYM is an ftrace site (not an .isra/.constprop clone)"
	else
		tap_fail "$fs_t: one of $* is an ftrace site" \
			"$(grep -E "$fs_re" $TRACEFS/available_filter_functions | head -n 3)"
	fi
}

# knob_bool_check TEST KNOB: the 0/1 knob KNOB rejects other values and
# reads 1 (its default)
knob_bool_check() {
	kb_bad=""
	for v in 2 -1 x "1 1" ""; do
		sp_write "$2" "$v" && kb_bad="$kb_bad '$v'"
	done
	if [ -z "$kb_bad" ] && [ "$(cat $SP/$2)" = 1 ]; then
		tap_ok "$1: $2 rejects bad values and defaults to 1"
	else
		tap_fail "$1: $2 rejects bad values and defaults to 1" "accepted:$kb_bad now $(cat $SP/$2)"
	fi
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

# sp_poll CMD...: run CMD every 0.1 s, up to SP_POLL_TRIES more times
# (default 100: ~10 s), until it succeeds; its status at the last run.  A
# fixed sleep before a look is no bound under TCG: the emulator's one host
# thread can be descheduled for hundreds of ms on a busy host, and a
# command started in the background (fork, exec, a write) lags the
# sleeping shell by that much.  A test waits for a state, then looks: a
# state that never comes still fails it.
sp_poll() {
	local w=0
	until "$@"; do
		[ $w -lt "${SP_POLL_TRIES:-100}" ] || return 1
		sleep 0.1
		w=$((w + 1))
	done
}

# sp_uptime_ms: UPTIME_MS set to /proc/uptime in ms (10 ms steps), read by
# the shell itself: no fork between the look and what comes next.
sp_uptime_ms() {
	local up f
	read -r up f </proc/uptime
	f=${up#*.}
	f=${f#0}
	UPTIME_MS=$(( ${up%.*} * 1000 + ${f:-0} * 10 ))
}

# idle_times_check ENERGY_FILE WALL_US: in one reading of debugfs energy,
# busy_us + idle_us of every CPU within 5 % of since_reset_us, and
# since_reset_us inside WALL_US (a wall time that brackets the reset and
# the reading; 20 ms of slack for /proc/uptime's 10 ms steps) and at most
# 5 % + 500 ms short of it.  Prints what it found; status 0 if it holds.
idle_times_check() {
	local since bad c t d
	since=$(sed -n 's/.*since_reset_us=\([0-9]*\).*/\1/p' "$1")
	bad=""
	for c in $(awk '$1 ~ /^[0-9]+$/ && NF == 7 { print $1 }' "$1"); do
		t=$(awk -v c="$c" '$1 == c && NF == 7 { print $2 + $3 }' "$1")
		d=$((t - since)); [ $d -lt 0 ] && d=$((-d))
		[ $((d * 100)) -le $((since * 5)) ] || bad="$bad cpu$c:$t"
	done
	d=$(($2 - ${since:-0}))
	if [ -n "$since" ] && [ -z "$bad" ] && [ $d -ge -20000 ] && [ $((d * 100)) -le $(($2 * 5 + 50000000)) ]; then
		echo "since_reset $since us inside uptime's $2 us"
		return 0
	fi
	echo "since=$since wall=$2 off:$bad"
	return 1
}

# bal_step_read "BIG CPUS" REPORT: from a trace-cmd report of a sp_load
# step run (sched_switch, the "sp_load step" marker, and events that tick:
# hrtimer_expire_entry), "A P RAW GUEST HOST": A 1 if the task's last
# switch-in before the step was on a CPU not in BIG, P the % of its
# switch-ins of the second half before the step that were not on BIG, RAW
# the ms from the step to its first switch-in on BIG (-1: none), GUEST the
# same less the host's stalls, HOST those stalls in ms.  The task spins
# from the step, so its CPU ticks (every 4 ms at the Debian kernels' HZ
# 250) and no two consecutive events are more than a tick apart while the
# guest runs; a longer gap is time the emulator did not run the guest (its
# host thread descheduled) while the guest's clock ran on, and counts for
# BAL_STEP_GAP_MS (10: two and a half ticks).
bal_step_read() {
	awk -v big="$1" -v cap="${BAL_STEP_GAP_MS:-10}" '
		BEGIN { n = split(big, a, " "); for (i = 1; i <= n; i++) isbig[a[i]] = 1; tbig = -1; cap /= 1000 }
		{
			c = -1
			if (match($0, /\[[0-9]+\]/)) c = substr($0, RSTART + 1, RLENGTH - 2) + 0
			t = ""
			for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = substr($i, 1, length($i) - 1) + 0; break }
			if (t != "" && tstep != "" && tbig < 0) {
				if (t - tprev > cap) host += t - tprev - cap
				tprev = t
			}
		}
		/sp_load step/ && tstep == "" { tstep = t; tprev = t; atstep = last; next }
		# key=value, or the sched plugin'"'"'s "prev:pid [prio] S ==> next:pid [prio]"
		/ sched_switch:/ && (/next_comm=sp_load / || /==> sp_load:/) {
			if (tstep == "") { on[++sw] = c; last = c }
			else if ((c in isbig) && tbig < 0) tbig = t
		}
		END {
			for (i = int(sw / 2) + 1; i <= sw; i++) { late++; if (!(on[i] in isbig)) lit++ }
			raw = (tstep != "" && tbig >= 0) ? int((tbig - tstep) * 1000 + 0.5) : -1
			host = int(host * 1000 + 0.5)
			printf "%d %d %d %d %d\n", (atstep != "" && !(atstep in isbig)), late ? lit * 100 / late : 0,
				raw, raw < 0 ? -1 : raw - host, host
		}' "$2"
}

# Taint bits allowed after loading an unsigned out-of-tree module: O and E.
TAINT_OK=$(( (1 << 12) | (1 << 13) ))

# taint_beyond TAINTED BASE: the bits of TAINTED beyond O, E and BASE
taint_beyond() {
	echo $(( $1 & ~(TAINT_OK | $2) ))
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
