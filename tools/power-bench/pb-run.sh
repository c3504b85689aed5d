#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# pb-run.sh - power-bench's measuring side: plays stories with rt-app on the
# running kernel in each configuration, records each run's trace.dat and
# prints one "pb-result" line per run.  Runs in the busybox guest (vm-run.sh
# --job powerbench) and on a board (tools/power-bench/power-bench starts
# it); POSIX sh, busybox applets.  The trace is not read here: sp-report
# --counts reads it on the host (Documentation/power-bench.rst, "Where the
# numbers come from").
#
#   pb-run.sh [-r REPS] [-c CONFIGS] [-m MODULE.ko] [-t TESTFREQ.ko] [-M MODEL]
#             [-d DIR] STORY.json...
#
# CONFIGS: comma list (default not_loaded,observe,power,balanced) of
#   not_loaded, observe, power, balanced   no cpufreq driver loaded by -t
#   cfs             a cpufreq driver, kernel.sched_energy_aware=0, no module
#   eas             a cpufreq driver with its Energy Model, EAS on, no module
#   eas_observe     the same with sched_power in observe mode
#   observe_freq, power_freq, balanced_freq   a cpufreq driver, EAS off,
#                   sched_power in that mode
#   power_nogate_freq   power_freq with balance_gate 0 (the load-balancer
#                   gate off; every other configuration sets it to 1)
# kernel.sched_energy_aware is 1 in eas and eas_observe, 0 in every other
# configuration (where the file exists).  -t KO: the test cpufreq driver
# (selftests/testfreq), loaded for the configurations that need a cpufreq
# driver and unloaded for the others, sched_power unloaded first; without
# -t they need the board's own driver.  The scheduler's verbose debug is on
# for the run, so that dmesg says when EAS starts and stops.
# Environment: PB_UNLOAD=each|never (rmmod between configurations, or load
# once and take every run without the module first), PB_TESTFREQ_ARGS (the
# test driver's parameters, e.g. em=0), PB_METER=CMD (an external
# meter: prints uJ since its last call), PB_SYSFS (sysfs root, default
# /sys), PB_EMIT=1 (print each trace.dat base64-encoded between "SP-FILE
# NAME" and "SP-FILE-END" lines and delete it: the VM's way out),
# PB_NO_KALLSYMS=1 (hide /proc/kallsyms from trace-cmd extract, which would
# save 4 MB of symbols per run; the guest only), PB_BIN (where pb-story is,
# if not beside this script or in PATH), PB_WATCHDOG_X (watchdog = X *
# nominal + 30 s; 10: busy stories under TCG on a loaded host take 7x),
# PB_DURATION_MARGIN_S (also give rt-app global.duration = nominal + 1 +
# margin s: it then always runs that long), PB_REP_FROM (number the
# repetitions from there: runs of several invocations, interleaved with
# other work, then make one set).
#
# Output: "# pb: ..." progress, "pb-result key=value ..." per run, and one
# "pb-error WHAT: DETAIL" line per failure (module missing, rt-app missing,
# trace-cmd missing, cpufreq missing, bad story, interrupted).  Exit 0 if
# every run completed.
SP=/sys/kernel/sched_power
SP_DBG=/sys/kernel/debug/sched_power
TRACEFS=/sys/kernel/tracing
CPUFREQ=/sys/devices/system/cpu/cpufreq
EAS_SWITCH=/proc/sys/kernel/sched_energy_aware
SCHED_VERBOSE=/sys/kernel/debug/sched/verbose
PB_DIR=${PB_DIR:-$(cd "$(dirname "$0")" && pwd)}	# set by a caller that sources this file
PB_UNLOAD=${PB_UNLOAD:-each}
PB_WATCHDOG_X=${PB_WATCHDOG_X:-10}
PB_TRACE_KB=${PB_TRACE_KB:-4096}
EVENTS="sched/sched_waking sched/sched_wakeup sched/sched_switch sched/sched_migrate_task
	power/cpu_idle power/cpu_frequency"
. "$PB_DIR/pb-meter.sh"
. "$PB_DIR/pb-cal.sh"

reps=1
rep_from=${PB_REP_FROM:-1}
configs=not_loaded,observe,power,balanced
ko=
tfko=
verbose_was=
eas_was=
tf_was=1
model=
dir=/tmp/pb
interrupted=0
rt_pid=
runs_done=0
runs_failed=0
runs_written=0
model_kept=

err() { echo "pb-error $*"; }
say() { echo "# pb: $*"; }

pb_story() {
	for d in "${PB_BIN:-}" "$PB_DIR"; do
		[ -n "$d" ] && [ -x "$d/pb-story" ] && { "$d/pb-story" "$@"; return; }
	done
	pb-story "$@"
}

now_s() { cut -d' ' -f1 /proc/uptime; }

# ---- module -------------------------------------------------------------

mod_loaded() { [ -d $SP ]; }

# read_first FILE...: the first readable one's content.
read_first() {
	for f in "$@"; do
		[ -r "$f" ] && { cat "$f"; return 0; }
	done
	return 1
}

mod_load() {
	[ -n "$ko" ] || { err "module missing: not loaded and no module file (-m KO)"; return 1; }
	insmod "$ko" mode="$1" 2>/tmp/pb-insmod.err ||
		{ err "module missing: insmod $ko failed: $(head -n 1 /tmp/pb-insmod.err)"; return 1; }
	[ -z "$model" ] || cat "$model" >$SP/model 2>/tmp/pb-model.err ||
		{ err "model: $model rejected: $(head -n 1 /tmp/pb-model.err)"; return 1; }
	# The model the module runs with, for the host's estimator (power-bench
	# --model overrides it); kept beside the recordings.
	if [ -z "$model_kept" ] && cat $SP/model >$dir/traces/run.model 2>/dev/null; then
		model_kept=1
		[ "${PB_EMIT:-0}" != 1 ] || emit $dir/traces/run.model
	fi
}

mod_unload() {
	echo off >$SP/mode 2>/dev/null
	rmmod sched_power 2>/tmp/pb-rmmod.err ||
		{ err "rmmod failed: $(head -n 1 /tmp/pb-rmmod.err)"; return 1; }
}

# ---- configurations -----------------------------------------------------

# cfg_mode CONFIG: sched_power's mode in CONFIG, "-" when it is not loaded.
cfg_mode() {
	case $1 in
	not_loaded | cfs | eas) echo - ;;
	eas_observe) echo observe ;;
	*_nogate_freq) echo "${1%_nogate_freq}" ;;
	*_freq) echo "${1%_freq}" ;;
	*) echo "$1" ;;
	esac
}

# cfg_gate CONFIG: the balance_gate knob in CONFIG.
cfg_gate() {
	case $1 in *_nogate_freq) echo 0 ;; *) echo 1 ;; esac
}

# cfg_freq CONFIG: does CONFIG run under a cpufreq driver?
cfg_freq() {
	case $1 in cfs | eas | eas_observe | *_freq) return 0 ;; esac
	return 1
}

# cfg_eas CONFIG: kernel.sched_energy_aware in CONFIG.
cfg_eas() {
	case $1 in eas | eas_observe) echo 1 ;; *) echo 0 ;; esac
}

cfg_valid() {
	case $1 in
	not_loaded | observe | power | balanced | cfs | eas | eas_observe | \
	observe_freq | power_freq | balanced_freq | power_nogate_freq) return 0 ;;
	esac
	return 1
}

# ---- cpufreq and EAS -------------------------------------------------------

freq_present() { ls -d $CPUFREQ/policy[0-9]* >/dev/null 2>&1; }
freq_test_loaded() { grep -q '^sp_testfreq ' /proc/modules; }

# freq_load: the test driver (-t), with PB_TESTFREQ_ARGS.
freq_load() {
	insmod "$tfko" ${PB_TESTFREQ_ARGS:-} 2>/tmp/pb-tf.err ||
		{ err "cpufreq missing: insmod $tfko failed: $(head -n 1 /tmp/pb-tf.err)"; return 1; }
}

# freq_unload: rmmod the test driver (busybox rmmod can meet EAGAIN: retried).
freq_unload() {
	i=0
	while ! rmmod sp_testfreq 2>/tmp/pb-tf.err; do
		i=$((i + 1))
		[ $i -lt 20 ] || { err "rmmod sp_testfreq failed: $(head -n 1 /tmp/pb-tf.err)"; return 1; }
		sleep 0.1
	done
}

# freq_set 0|1: the test driver unloaded or loaded; sched_power goes first,
# since its model and its OPP floor are built from cpufreq at insmod.
freq_set() {
	[ -n "$tfko" ] || return 0
	if freq_test_loaded; then have=1; else have=0; fi
	[ "$have" != "$1" ] || return 0
	if mod_loaded; then
		[ "$PB_UNLOAD" != never ] ||
			{ err "the cpufreq driver changes with the module loaded (PB_UNLOAD=never)"; return 1; }
		mod_unload || return 1
	fi
	if [ "$1" = 1 ]; then freq_load; else freq_unload; fi
}

# eas_set 0|1: kernel.sched_energy_aware (a write rebuilds the sched domains).
eas_set() {
	[ -w $EAS_SWITCH ] || return 0
	[ "$(cat $EAS_SWITCH)" = "$1" ] || echo "$1" >$EAS_SWITCH
}

asym() {
	[ "$(cat /sys/devices/system/cpu/cpu*/cpu_capacity 2>/dev/null | sort -u | wc -l)" -gt 1 ]
}

# eas_state: "on" if mainline EAS runs, from the last "sched_energy_set:
# starting/stopping EAS" in dmesg (printed with the scheduler's verbose
# debug, on for the whole run); "off" without one where the capacities are
# equal (EAS cannot start); "-" when unknown.
eas_state() {
	last=$(dmesg 2>/dev/null | grep -o 'sched_energy_set: [a-z]* EAS' | tail -n 1)
	case $last in
	*starting*) echo on ;;
	*stopping*) echo off ;;
	*) if asym; then echo -; else echo off; fi ;;
	esac
}

# eas_said CONFIG: a progress line with the kernel's words whenever the EAS
# state seen before a run changes (the evidence that EAS started).
eas_said() {
	[ "$eas" != "${eas_last:-}" ] || return 0
	eas_last=$eas
	words=$(dmesg 2>/dev/null | grep -E 'sched_energy_set:' | tail -n 1 | sed 's/^\[[ 0-9.]*\] //')
	[ "$eas" != on ] ||
		words="$(dmesg | grep -E 'root_domain .*pd[0-9]' | tail -n 1 | sed 's/^\[[ 0-9.]*\] //'); $words"
	say "EAS $eas from $1 on (dmesg: ${words:-none})"
}

# setup_begin / setup_end: the scheduler's verbose debug on for the run (a
# sched-domain rebuild then prints whether EAS starts or stops); at the end
# the EAS switch as found and the test driver unloaded if it was not there
# (sched_power first, as at every change of driver).
setup_begin() {
	eas_was=$(cat $EAS_SWITCH 2>/dev/null)
	tf_was=0
	freq_test_loaded && tf_was=1
	[ -w $SCHED_VERBOSE ] || return 0
	verbose_was=$(cat $SCHED_VERBOSE)
	echo Y >$SCHED_VERBOSE
}

setup_end() {
	[ "$tf_was" = 1 ] || { PB_UNLOAD=each; freq_set 0; }
	[ -z "$eas_was" ] || eas_set "$eas_was"
	[ -z "$verbose_was" ] || echo "$verbose_was" >$SCHED_VERBOSE
}

# floor_gap: the module's gap limits in force (debugfs opp_floor), "/"-joined
# pdN:OPP, or "-" when none is (or the module is not loaded).
floor_gap() {
	g=$(sed -n 's/^pd\([0-9]*\) gap_limit_opp \([0-9]*\)$/pd\1:\2/p' $SP_DBG/opp_floor 2>/dev/null | tr '\n' '/')
	g=${g%/}
	echo "${g:--}"
}

# freq_report: the cpufreq driver, governor and each policy's scaling_min_freq
# (kHz, "/"-joined: the OPP floor shows there) after a run, and the floor's
# gap limits read just before and just after them (the look may move the
# floor meanwhile), as key=value.
freq_report() {
	drv=none gov=- min=
	gap0=$(floor_gap)
	for p in $CPUFREQ/policy[0-9]*; do
		[ -d "$p" ] || continue
		[ "$drv" != none ] || { drv=$(cat "$p/scaling_driver"); gov=$(cat "$p/scaling_governor"); }
		min=$min${min:+/}$(cat "$p/scaling_min_freq")
	done
	echo "cpufreq=$drv governor=$gov min_khz=${min:--} floor_gap=$gap0,$(floor_gap)"
}

# set_config CONFIG: the cpufreq driver, the EAS switch, then load, unload
# or switch the module's mode.
set_config() {
	m=$(cfg_mode "$1")
	if cfg_freq "$1"; then freq_set 1; else freq_set 0; fi || return 1
	if cfg_freq "$1" && ! freq_present; then
		err "cpufreq missing: $1 needs a cpufreq driver (-t KO: the test driver)"
		return 1
	fi
	eas_set "$(cfg_eas "$1")"
	if [ "$m" = - ]; then
		mod_loaded || return 0
		[ "$PB_UNLOAD" != never ] || { err "$1 after the module was loaded (PB_UNLOAD=never)"; return 1; }
		mod_unload
		return
	fi
	# The gate's knob before a mode that would register the gate: a
	# configuration without it loads in observe mode (the hook alone) and
	# never patches the load balancer in.
	if ! mod_loaded; then
		if [ "$(cfg_gate "$1")" = 0 ]; then mod_load observe; else mod_load "$m"; fi ||
			return 1
	fi
	[ ! -e $SP/balance_gate ] || cfg_gate "$1" >$SP/balance_gate
	echo "$m" >$SP/mode
}

# mark WORD: a trace_marker line, so the trace dates module reset and read.
mark() {
	echo "$1" >$TRACEFS/trace_marker 2>/dev/null
}

mod_reset() {
	mark pb_reset
	mod_loaded || return 0
	if [ -e $SP/stats/reset ]; then echo 1 >$SP/stats/reset; else echo 0 >$SP/stats; fi
	echo 1 >$SP/idle/reset
}

mod_stat() {
	if [ -r $SP/stats/$1 ]; then cat $SP/stats/$1; return; fi
	sed -n "s/^$1 \([0-9]*\)$/\1/p" $SP/stats 2>/dev/null | head -n 1
}

# The wake-up hook in place: "ftrace" while enabled_functions lists the
# redirect of select_task_rq_fair (an IPMODIFY "I" ops, as test_basic.sh
# checks), else "none" (mode=off unregisters it).
mod_hook() {
	if grep -q '^select_task_rq_fair .*I' $TRACEFS/enabled_functions 2>/dev/null; then
		echo ftrace
	else
		echo none
	fi
}

# The module's numbers after a run, as key=value.
mod_report() {
	if ! mod_loaded; then
		echo "model_uj=- energy_window_us=- mod_pkg_wakeups=- verdict_early=- verdict_hit=- verdict_late=- decisions=- overrides=- hook=- bal_gated=- bal_passed=- bal_starving=- bal_waiting=- kick_gated=- kick_passed=-"
		return
	fi
	energy=$(read_first $SP_DBG/energy $SP/energy)
	uj=$(read_first $SP/energy_uj || echo "$energy" | sed -n 's/^total_uj \([0-9]*\)$/\1/p')
	win=$(echo "$energy" | sed -n 's/.*since_reset_us=\([0-9]*\).*/\1/p')
	# Top-level groups: the level of the last group line.
	pw=$(echo "$energy" | awk '$1 == "group" && $2 != "level" { lv = $2; w[$2] += $9 } END { print lv == "" ? "-" : w[lv] }')
	v=$(read_first $SP_DBG/idle_stats $SP/idle/stats | awk '$1 ~ /^[0-9]+$/ { e += $6; h += $7; l += $8 } END { printf "verdict_early=%d verdict_hit=%d verdict_late=%d", e, h, l }')
	echo "model_uj=${uj:--} energy_window_us=${win:--} mod_pkg_wakeups=$pw $v decisions=$(mod_stat decisions) overrides=$(mod_stat overrides) hook=$(mod_hook)" \
		"$(for c in gated passed starving waiting; do n=$(mod_stat balance_$c); printf 'bal_%s=%s ' $c "${n:--}"; done)" \
		"$(for c in gated passed; do n=$(mod_stat kick_$c); printf 'kick_%s=%s ' $c "${n:--}"; done)"
}

# ---- trace --------------------------------------------------------------

trace_start() {
	echo 0 >$TRACEFS/tracing_on
	echo >$TRACEFS/set_event
	echo mono >$TRACEFS/trace_clock
	[ "$(cat $TRACEFS/buffer_size_kb)" = "$PB_TRACE_KB" ] || echo "$PB_TRACE_KB" >$TRACEFS/buffer_size_kb
	for e in $EVENTS; do echo 1 >$TRACEFS/events/$e/enable; done
	for e in sched_power_select sched_power_balance; do
		[ ! -d $TRACEFS/events/sched_power/$e ] || echo 1 >$TRACEFS/events/sched_power/$e/enable
	done
	# In observe mode sched_power_select's enable registers the wake-up
	# redirect from a work item: wait for it (5 s at most), so that the run
	# misses no decision and its ftrace site is not patched under the load.
	if [ -d $TRACEFS/events/sched_power/sched_power_select ] && ! grep -q '\[off\]' $SP/mode 2>/dev/null; then
		w=0
		while [ $w -lt 50 ] && [ "$(mod_hook)" != ftrace ]; do
			sleep 0.1
			w=$((w + 1))
		done
	fi
	echo >$TRACEFS/trace
	echo 1 >$TRACEFS/tracing_on
	# each policy's frequency now: a pd whose frequency does not change in
	# the run has no cpu_frequency event, and sp-report would charge it
	# the OPP of its utilisation (replay.c, DOC: replaying the idle events)
	for p in $CPUFREQ/policy[0-9]*; do
		[ -r "$p/scaling_cur_freq" ] && [ -r "$p/related_cpus" ] || continue
		mark "sp_freq cpu=$(awk '{ print $1; exit }' "$p/related_cpus") khz=$(cat "$p/scaling_cur_freq")"
	done
}

# trace_stop FILE: stop, write the recording to FILE (trace-cmd extract),
# print the events the ring buffer lost.
trace_stop() {
	echo 0 >$TRACEFS/tracing_on
	lost=$(cat $TRACEFS/per_cpu/cpu*/stats | awk '/^overrun:|^dropped events:/ { s += $NF } END { print s + 0 }')
	if [ "$1" != /dev/null ]; then
		[ "${PB_NO_KALLSYMS:-0}" = 1 ] && : >/tmp/pb-nosyms && mount -o bind /tmp/pb-nosyms /proc/kallsyms 2>/dev/null
		trace-cmd extract -o "$1" >/tmp/pb-extract.err 2>&1 ||
			err "trace-cmd extract failed: $(tail -n 1 /tmp/pb-extract.err)" >&2
		[ "${PB_NO_KALLSYMS:-0}" = 1 ] && umount /proc/kallsyms 2>/dev/null
	fi
	echo >$TRACEFS/set_event
	echo >$TRACEFS/trace
	echo "$lost"
}

# ---- rt-app -------------------------------------------------------------

# Window from the rt-app logs: "t0 t1 rows slowdown", us; empty if no rows.
# The times are us since boot, past 2^31 after 35 min 47 s of uptime:
# busybox awk's %d is a C int, so they are printed with %.0f.
# slowdown: the rows' measured run time over their configured run time
# (run / c_duration, summed): how much slower than at calibration this
# run's loops went (under TCG, the host's load), for the estimator.
log_window() {
	cat $dir/log/rt-app-*.log 2>/dev/null | awk '
		$1 !~ /^#/ && NF >= 9 { n++; if (t0 == "" || $5 < t0) t0 = $5; if ($6 > t1) t1 = $6
			run += $3; cfg += $9 }
		END { if (n) printf "%.0f %.0f %d %.4f\n", t0, t1, n, (cfg > 0 ? run / cfg : 1) }'
}

# run_rtapp JSON WATCHDOG_S: rt-app in the background (so that Ctrl-C reaches
# the trap, which stops it) with a sleeping watchdog (no polling: it must not
# wake CPUs during the run).  Sets rt_rc.  rt-app exits 0 on SIGTERM too; a
# run it did not finish shows as missing log rows.  The watchdog takes its
# sleep with it when it is stopped: an orphaned sleep would expire in a
# later run and wake a package there (and init, to reap it).
run_rtapp() {
	rt-app "$1" >$dir/rtapp.out 2>&1 &
	rt_pid=$!
	(trap 'kill "$s" 2>/dev/null; exit 0' TERM
	 sleep "$2" & s=$!
	 wait "$s" && kill "$rt_pid") >/dev/null 2>&1 &
	wd_pid=$!
	wait "$rt_pid"
	rt_rc=$?
	while kill -0 "$rt_pid" 2>/dev/null; do
		wait "$rt_pid"
		rt_rc=$?
	done
	rt_pid=
	kill "$wd_pid" 2>/dev/null
	wait "$wd_pid" 2>/dev/null
}

# ---- one run ------------------------------------------------------------

# story_meta STORY: name, tasks, rows_exp, len_us from pb-story's line.
story_meta() {
	eval "meta=\$meta_$(echo "${1##*/}" | tr -c 'a-zA-Z0-9\n' _)"
	name=$(echo "$meta" | sed -n 's/.*story=\([^ ]*\).*/\1/p')
	tasks=$(echo "$meta" | sed -n 's/.*tasks=\([^ ]*\).*/\1/p')
	rows_exp=$(echo "$meta" | sed -n 's/.*rows=\([0-9]*\).*/\1/p')
	len_us=$(echo "$meta" | sed -n 's/.*length_us=\([0-9]*\).*/\1/p')
}

# meters_before / meters_after: every meter this machine has, around rt-app.
meters_before() {
	for src in $meters; do eval "m0_$src=\$(meter_read $src)"; done
	[ -z "${PB_METER:-}" ] || meter_cmd >/dev/null
}

meters_after() {
	[ -z "${PB_METER:-}" ] || meter_uj=$(meter_cmd)
	for src in $meters; do eval "m1_$src=\$(meter_read $src)"; done
}

# measure TRACE: trace, reset, rt-app, read; sets mod lost t_start t_end and
# the meter readings; the recording goes to TRACE.
measure() {
	sleep 1		# let the last configuration's unload or trace read-out settle
	trace_start
	mod_reset
	meters_before
	if [ $interrupted = 1 ]; then
		trace_stop /dev/null >/dev/null
		return 1
	fi
	eas=$(eas_state)
	t_start=$(now_s)
	run_rtapp $dir/story.json $(( len_us * PB_WATCHDOG_X / 1000000 + 30 ))
	t_end=$(now_s)
	meters_after
	mark pb_read
	mod=$(mod_report)
	freq=$(freq_report)
	lost=$(trace_stop "$1")
}

# energy_from: sets energy, energy_src and the per-meter values from the
# readings: an external meter first (the user named it), then RAPL, then
# hwmon; "-" when none (the host then names the estimator, est).
energy_from() {
	energy=- energy_src=- rapl_uj=- hwmon_uj=-
	for src in $meters; do
		eval "d=\$(meter_delta \"\$m0_$src\" \"\$m1_$src\")"
		eval "${src}_uj=\$d"
	done
	for src in meter rapl hwmon; do
		eval "v=\${${src}_uj:--}"
		[ "$v" != - ] || continue
		energy=$v energy_src=$src
		return
	done
}

# result CONFIG REP TRACE: the pb-result line of the run just measured.
result() {
	set -- "$1" "$2" "$3" $(log_window)
	t0=$4 t1=$5 rows=${6:-0} slowdown=${7:--}
	status=ok
	[ "$rt_rc" = 0 ] || status=rtapp_rc_$rt_rc
	[ "$rows" = "$rows_exp" ] || status=incomplete
	[ "$lost" = 0 ] || status=trace_lost
	[ -s "$3" ] || status=no_trace
	# the configuration as asked: EAS on exactly in eas and eas_observe
	if [ "$(cfg_eas "$1")" = 1 ]; then
		case $eas in on) ;; off) status=eas_off ;; *) status=eas_unknown ;; esac
	elif [ "$eas" = on ]; then
		status=eas_on
	fi
	energy_from
	echo "pb-result story=$name config=$1 rep=$2 status=$status" \
		"makespan_us=$(( ${t1:-0} - ${t0:-0} )) t0_us=${t0:-0} t1_us=${t1:-0} rows=$rows" \
		"rows_expected=$rows_exp slowdown=$slowdown tasks=$tasks energy_uj=$energy energy_src=$energy_src" \
		"meter_uj=${meter_uj:--} rapl_uj=$rapl_uj hwmon_uj=$hwmon_uj $mod" \
		"trace=${3##*/} trace_lost=$lost idle_driver=$idle_driver calib_ns=$calib eas=$eas $freq" \
		"run_s=$(awk -v a="$t_start" -v b="$t_end" 'BEGIN { printf "%.2f", b - a }')"
	[ "$status" = ok ]
}

# emit FILE: FILE base64-encoded on stdout between SP-FILE lines, then gone.
emit() {
	[ -s "$1" ] || return 0
	echo "SP-FILE ${1##*/}"
	base64 "$1"
	echo "SP-FILE-END"
	rm -f "$1"
}

# run_one STORY CONFIG REP: one run, everything measured, one pb-result line.
run_one() {
	story_meta "$1"
	set_config "$2" || return 1
	rm -rf $dir/log
	mkdir -p $dir/log
	dur=
	[ -z "${PB_DURATION_MARGIN_S:-}" ] || dur="-d $(( len_us / 1000000 + 1 + PB_DURATION_MARGIN_S ))"
	pb_story -c "$calib" $dur -l $dir/log -o $dir/story.json "$1" >/dev/null || return 1
	tr=$dir/traces/$name-$2-r$3.dat
	rm -f "$tr"
	meter_uj=
	measure "$tr" || return 1
	eas_said "$2"
	runs_written=$((runs_written + 1))
	result "$2" "$3" "$tr"
	rc=$?
	[ "${PB_EMIT:-0}" != 1 ] || emit "$tr"
	return $rc
}

# ---- the plan -----------------------------------------------------------

# The order of configurations in repetition REP: rotated, so that none is
# always first after a story change.
rotated() {
	echo "$configs" | tr ',' '\n' | awk -v r="$1" '{ c[NR - 1] = $0 } END { for (i = 0; i < NR; i++) print c[(i + r - 1) % NR] }'
}

# Every run as "STORY CONFIG REP" lines, in order.
plan() {
	r=$rep_from
	while [ $r -lt $((rep_from + reps)) ]; do
		for s in $stories; do
			for c in $(rotated $r); do
				[ "$PB_UNLOAD" = never ] && [ "$(cfg_mode "$c")" = - ] && continue
				echo "$s $c $r"
			done
		done
		r=$((r + 1))
	done
}

# PB_UNLOAD=never: every run without the module before the first insmod.
plan_never() {
	[ "$PB_UNLOAD" = never ] || return 0
	r=$rep_from
	while [ $r -lt $((rep_from + reps)) ]; do
		for s in $stories; do
			for c in $(rotated $r); do
				[ "$(cfg_mode "$c")" != - ] || echo "$s $c $r"
			done
		done
		r=$((r + 1))
	done
}

on_interrupt() {
	interrupted=1
	[ -n "$rt_pid" ] && kill "$rt_pid" 2>/dev/null
}

check_setup() {
	command -v rt-app >/dev/null || { err "rt-app missing: install rt-app (Debian: apt-get install rt-app)"; return 1; }
	command -v trace-cmd >/dev/null || { err "trace-cmd missing: install trace-cmd (Debian: apt-get install trace-cmd)"; return 1; }
	# A board may have neither mounted; the 0.2 module's tables are in debugfs.
	[ -d $TRACEFS/events ] || mount -t tracefs nodev $TRACEFS 2>/dev/null
	[ -d $TRACEFS/events ] || { err "tracefs missing: mount -t tracefs nodev $TRACEFS"; return 1; }
	[ -n "$(ls /sys/kernel/debug 2>/dev/null)" ] || mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
	need_mod=0
	for c in $(echo "$configs" | tr ',' ' '); do
		cfg_valid "$c" || { err "bad configuration: $c"; return 1; }
		[ "$(cfg_mode "$c")" = - ] || need_mod=1
	done
	if ! mod_loaded && [ -z "$ko" ] && [ $need_mod = 1 ]; then
		err "module missing: no $SP and no module file (-m KO)"
		return 1
	fi
	[ -z "$ko" ] || [ -f "$ko" ] || { err "module missing: no file $ko"; return 1; }
	[ -z "$tfko" ] || [ -f "$tfko" ] || { err "cpufreq missing: no file $tfko"; return 1; }
	[ -z "$model" ] || [ -r "$model" ] || { err "model: cannot read $model"; return 1; }
	bad=0
	for s in $stories; do
		m=$(pb_story "$s" 2>/tmp/pb-story.err) || { err "$(cat /tmp/pb-story.err)"; bad=1; continue; }
		eval "meta_$(echo "${s##*/}" | tr -c 'a-zA-Z0-9\n' _)=\$m"
		total_len_us=$(( total_len_us + $(echo "$m" | sed -n 's/.*length_us=\([0-9]*\).*/\1/p') ))
	done
	[ $bad = 0 ]
}

elapsed_s() {
	awk -v a="$t_begin" -v b="$(now_s)" 'BEGIN { printf "%d", b - a }'
}

# run_plan: every run of $dir/plan in order, until done or interrupted.
run_plan() {
	n=$(wc -l <$dir/plan)
	say "kernel $(uname -r), $(nproc) CPUs, cpuidle driver $idle_driver, rt-app ns_per_loop=$calib," \
		"$n runs, stories $(( total_len_us / 1000000 )) s per round, meters ${meters:-none}${PB_METER:+ meter}," \
		"unload $PB_UNLOAD"
	t_begin=$(now_s)
	k=0
	while read -r s c r; do
		[ $interrupted = 0 ] || break
		k=$((k + 1))
		say "[$k/$n] ${s##*/} $c rep $r, elapsed $(elapsed_s) s"
		if run_one "$s" "$c" "$r"; then runs_done=$((runs_done + 1)); else runs_failed=$((runs_failed + 1)); fi
	done <$dir/plan
}

main() {
	while getopts r:c:m:t:M:d: o; do
		case $o in
		r) reps=$OPTARG ;;
		c) configs=$OPTARG ;;
		m) ko=$OPTARG ;;
		t) tfko=$OPTARG ;;
		M) model=$OPTARG ;;
		d) dir=$OPTARG ;;
		*) echo "usage: pb-run.sh [-r REPS] [-c CONFIGS] [-m KO] [-t KO] [-M MODEL] [-d DIR] STORY..."; return 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	stories=$*
	[ -n "$stories" ] || { echo "pb-run.sh: no story"; return 2; }
	total_len_us=0
	check_setup || return 1
	mkdir -p $dir/traces
	meters=$(meters_present)
	idle_driver=$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)
	trap on_interrupt INT TERM
	calib=$(pb_calibrate $dir/cal) || { err "rt-app failed to run: $(tail -n 1 $dir/cal/out)"; return 1; }
	[ -n "$calib" ] || { err "rt-app calibration gave no rows"; return 1; }
	{ plan_never; plan; } >$dir/plan
	setup_begin
	run_plan
	setup_end
	if [ $interrupted = 1 ]; then
		err "interrupted: $runs_written of $n runs written (the last one as far as it got)"
		trace_stop /dev/null >/dev/null
		return 130
	fi
	say "done: $runs_done runs ok, $runs_failed not, $(elapsed_s) s"
	[ $runs_failed = 0 ]
}

# sourced with PB_LIB=1 (tests/check-guest-sh.sh): the functions only
[ -z "${PB_LIB:-}" ] || return 0
main "$@"
