# SPDX-License-Identifier: GPL-2.0
# Recording helpers for sp-report in the guest (test_report.sh and
# tools/sp-report/record-vm.sh).  Sourced after lib.sh.
#
# rep_record MODE makes /tmp/rep_MODE.dat so that the trace and the
# module's counters cover the same decisions: tracing starts in MODE with
# wake_types none (the hook registered and the energy accounted, but no
# decision made; mode=off would unregister both), then the stats are reset
# and every wake type handled; the load runs; wake_types goes back to none,
# the stats are read, and only then does tracing stop.  The trace clock is "perf", which is local_clock(), the
# module's clock ("local" is raw sched_clock(), which under TCG drifts from
# it by tens of ms).  sp_mark writes a trace marker and reads energy within
# microseconds, at the start and at the end of the load.  The window opens
# 1 s after tracing starts: the replay's utilisation starts at 0 at the
# first event and needs a few 32 ms half-lives to reach the module's.

REPORT=/usr/bin/sp-report
# Without a cpuidle driver default_idle_call() reports a meaningless state
# index; the module counts every such entry as the deepest state, and so must
# the replay.
REP_IDLE=
[ "$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)" = none ] &&
	REP_IDLE=--idle-deepest
REP_EVENTS="-e sched_power -e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup_new -e power:cpu_idle -e power:cpu_frequency"

# rep_stat NAME: a stats counter, 0.2 (stats/NAME) or 0.1 (one stats file).
rep_stat() {
	if [ -d $SP/stats ]; then cat $SP/stats/$1; else stat_get $1; fi
}

rep_stats_reset() {
	if [ -d $SP/stats ]; then echo 1 > $SP/stats/reset; else echo 0 > $SP/stats; fi
}

# rep_energy_file: the modelled-energy table, 0.2 (debugfs) or 0.1 (sysfs).
rep_energy_file() {
	if [ -f $SP/energy ]; then echo $SP/energy; else echo /sys/kernel/debug/sched_power/energy; fi
}

# rep_csv FILE COL: column COL of sp-report --csv's summary row.
rep_csv() {
	awk -F, -v c="$2" '$1 == "summary" { print $c }' "$1"
}

# rep_record MODE [NAME]: /tmp/rep_NAME.dat (+ .model, .stats, .e0, .e1;
# NAME defaults to MODE) of one light load in MODE.
rep_record() {
	n=${2:-$1}
	sp_write mode "$1"
	sp_write wake_types none
	trace-cmd reset >/dev/null 2>&1
	trace-cmd start -C perf -b 4096 $REP_EVENTS >/dev/null 2>&1 || return 1
	sleep 1		# the replay's utilisation (0 at the first event) settles
	rep_stats_reset
	/sp/sp_mark sp_window_start $(rep_energy_file) > /tmp/rep_$n.e0
	sp_write wake_types "wakeup fork exec"
	/sp/sp_load chain 2 20000 50 1000 0 >/dev/null
	sp_write wake_types none
	/sp/sp_mark sp_window_end $(rep_energy_file) > /tmp/rep_$n.e1
	echo "decisions $(rep_stat decisions) overrides $(rep_stat overrides)" > /tmp/rep_$n.stats
	trace-cmd stop >/dev/null 2>&1
	cat $SP/model > /tmp/rep_$n.model
	trace-cmd extract -o /tmp/rep_$n.dat >/dev/null 2>&1 || return 1
	trace-cmd reset >/dev/null 2>&1
	sp_write wake_types "wakeup fork exec"
}

