# SPDX-License-Identifier: GPL-2.0
# The kick gate (balance_hook.c, core/sp_gate.c sp_gate_kick()): a busy
# CPU's tick (trigger_load_balance(), sched_balance_trigger() from 6.10)
# kicks no idle balance into a sleeping package that the load-balancer gate
# would refuse.  The redirect is registered exactly while the mode acts
# with balance_gate=1 and kick_gate=1; two light tasks on the two CPUs of
# package 0 in power mode have ticks gated (kick_gated > 0), observe mode
# counts none.

# kick_redirected: 1 if trigger_load_balance (or sched_balance_trigger) is redirected now
kick_redirected() {
	if grep -Eq '^(trigger_load_balance|sched_balance_trigger) ' $TRACEFS/enabled_functions; then
		echo 1
	else
		echo 0
	fi
}

# kick_pkg CPU: its physical package
kick_pkg() {
	cat /sys/devices/system/cpu/cpu$1/topology/physical_package_id 2>/dev/null || echo 0
}

ftrace_site kick trigger_load_balance sched_balance_trigger

# 1. The knob and the registration follow the mode, balance_gate and kick_gate.
knob_bool_check kick kick_gate
regs=""
for step in "mode observe" "mode power" "kick_gate 0" "kick_gate 1" "balance_gate 0" \
	"balance_gate 1" "mode balanced" "mode off" "mode power"; do
	sp_write $step
	regs="$regs $(kick_redirected)"
done
[ "$regs" = " 0 1 0 1 0 1 1 0 1" ] &&
	tap_ok "kick: the redirect is registered exactly while the mode acts, balance_gate=1 and kick_gate=1" ||
	tap_fail "kick: the redirect follows the mode, balance_gate and kick_gate" \
		"observe power kick0 kick1 gate0 gate1 balanced off power:$regs"

# 2. Two light periodic tasks on the two CPUs of package 0 (CPUs 0 and 1):
# a tick of one while the other runs would kick CPU 2, in sleeping package 1.
kick_load() {
	taskset 1 /sp/sp_load periodic 1 10000 3000 3000 >/dev/null &
	taskset 2 /sp/sp_load periodic 1 10000 3000 3000 >/dev/null
	wait
}
# kick_counts MODE: "gated passed" after kick_load in MODE
kick_counts() {
	sp_write mode "$1"
	stats_reset
	kick_load
	echo "$(stat_get kick_gated) $(stat_get kick_passed)"
}
if [ "$(nproc)" -lt 4 ] || [ "$(kick_pkg 0)" != "$(kick_pkg 1)" ] ||
	[ "$(kick_pkg 0)" = "$(kick_pkg 2)" ]; then
	tap_skip "kick: power mode gates kicks into the sleeping package" "needs CPUs 0, 1 on one package and 2 on another"
else
	set -- $(kick_counts power)
	echo "# kick power: gated=$1 passed=$2"
	[ "$1" -gt 0 ] &&
		tap_ok "kick: power mode gates ticks that would kick the sleeping package ($1 of $(($1 + $2)))" ||
		tap_fail "kick: power mode gates ticks that would kick the sleeping package" "$(stats_dump | grep -E 'kick|balance')"
	set -- $(kick_counts observe)
	[ "$1" -eq 0 ] && [ "$2" -eq 0 ] &&
		tap_ok "kick: observe mode leaves the ticks alone (no counts)" ||
		tap_fail "kick: observe mode leaves the ticks alone" "gated=$1 passed=$2"
	sp_write mode power
	sp_write kick_gate 0
	set -- $(kick_counts power)
	sp_write kick_gate 1
	[ "$1" -eq 0 ] && [ "$2" -eq 0 ] &&
		tap_ok "kick: kick_gate=0 leaves the ticks alone in power mode" ||
		tap_fail "kick: kick_gate=0 leaves the ticks alone in power mode" "gated=$1 passed=$2"
fi
[ -d $TRACEFS/events/sched_power/sched_power_kick ] &&
	tap_ok "kick: the sched_power_kick event exists" ||
	tap_fail "kick: the sched_power_kick event exists" "$(ls $TRACEFS/events/sched_power/)"
sp_write mode observe
