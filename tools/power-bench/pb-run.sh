#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# pb-run.sh - power-bench's measuring side: plays stories with rt-app on the
# running kernel in each configuration and prints one "pb-result" line per
# run.  Runs in the busybox guest (vm-run.sh --job powerbench) and on a board
# (tools/power-bench/power-bench starts it); POSIX sh, busybox applets.
#
#   pb-run.sh [-r REPS] [-c CONFIGS] [-m MODULE.ko] [-M MODEL] [-d DIR] STORY.json...
#
# CONFIGS: comma list of not_loaded observe power balanced (default: all).
# Environment: PB_TRACER=tracefs|trace-cmd (how the trace is read out),
# PB_UNLOAD=each|never (rmmod between configurations, or load once and take
# every not_loaded run first), PB_TRACE_ENERGY=CMD (energy from the trace
# where the module has none, see Documentation/power-bench.rst), PB_BIN (where
# pb-story is, if not beside this script or in PATH), PB_WATCHDOG_X (watchdog
# = X * nominal + 30 s; 10: busy stories under TCG on a loaded host take 7x), PB_DURATION_MARGIN_S (also give rt-app
# global.duration = nominal + 1 + margin s: it then always runs that long).
#
# Output: "# pb: ..." progress, "pb-result key=value ..." per run, and one
# "pb-error WHAT: DETAIL" line per failure (module missing, rt-app missing,
# bad story, interrupted).  Exit 0 if every run completed.
SP=/sys/kernel/sched_power
SP_DBG=/sys/kernel/debug/sched_power
TRACEFS=/sys/kernel/tracing
RAPL=/sys/class/powercap
PB_DIR=$(cd "$(dirname "$0")" && pwd)
PB_TRACER=${PB_TRACER:-tracefs}
PB_UNLOAD=${PB_UNLOAD:-each}
PB_WATCHDOG_X=${PB_WATCHDOG_X:-10}
PB_TRACE_KB=${PB_TRACE_KB:-4096}
EVENTS="sched/sched_waking sched/sched_wakeup sched/sched_switch sched/sched_migrate_task power/cpu_idle"

reps=1
configs=not_loaded,observe,power,balanced
ko=
model=
dir=/tmp/pb
interrupted=0
rt_pid=
runs_done=0
runs_failed=0
runs_written=0

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
}

mod_unload() {
	echo off >$SP/mode 2>/dev/null
	rmmod sched_power 2>/tmp/pb-rmmod.err ||
		{ err "rmmod failed: $(head -n 1 /tmp/pb-rmmod.err)"; return 1; }
}

# set_config CONFIG: load, unload or switch the module's mode.
set_config() {
	if [ "$1" = not_loaded ]; then
		mod_loaded || return 0
		[ "$PB_UNLOAD" != never ] || { err "not_loaded after the module was loaded (PB_UNLOAD=never)"; return 1; }
		mod_unload
		return
	fi
	if mod_loaded; then
		echo "$1" >$SP/mode
	else
		mod_load "$1"
	fi
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

# The module's numbers after a run, as key=value.
mod_report() {
	if ! mod_loaded; then
		echo "model_uj=- energy_window_us=- mod_pkg_wakeups=- verdict_early=- verdict_hit=- verdict_late=- decisions=- overrides=- hook=-"
		return
	fi
	energy=$(read_first $SP_DBG/energy $SP/energy)
	uj=$(read_first $SP/energy_uj || echo "$energy" | sed -n 's/^total_uj \([0-9]*\)$/\1/p')
	win=$(echo "$energy" | sed -n 's/.*since_reset_us=\([0-9]*\).*/\1/p')
	# Top-level groups: the level of the last group line.
	pw=$(echo "$energy" | awk '$1 == "group" && $2 != "level" { lv = $2; w[$2] += $9 } END { print lv == "" ? "-" : w[lv] }')
	v=$(read_first $SP_DBG/idle_stats $SP/idle/stats | awk '$1 ~ /^[0-9]+$/ { e += $6; h += $7; l += $8 } END { printf "verdict_early=%d verdict_hit=%d verdict_late=%d", e, h, l }')
	hook=$(read_first $SP/hook || { grep -q '^kretprobe_registered 1' $SP/stats 2>/dev/null && echo kretprobe; } || echo -)
	echo "model_uj=${uj:--} energy_window_us=${win:--} mod_pkg_wakeups=$pw $v decisions=$(mod_stat decisions) overrides=$(mod_stat overrides) hook=$hook"
}

# ---- RAPL ---------------------------------------------------------------

# Package domains (intel-rapl:N, not their subzones), "energy max" per line.
rapl_read() {
	for z in $RAPL/intel-rapl:*; do
		case ${z##*/} in *:*:*) continue ;; esac
		[ -r "$z/energy_uj" ] || continue
		echo "$(cat "$z/energy_uj") $(cat "$z/max_energy_range_uj" 2>/dev/null || echo 0)"
	done
}

# rapl_delta BEFORE AFTER: uJ summed over packages, wrap-corrected; - if none.
rapl_delta() {
	[ -n "$1" ] || { echo -; return; }
	printf '%s\n%s\n' "$1" "$2" | awk '
		{ v[NR] = $1; m[NR] = $2 }
		END { n = NR / 2; for (i = 1; i <= n; i++) { d = v[i + n] - v[i]; if (d < 0) d += m[i]; s += d }
		      printf "%d\n", s }'
}

# ---- trace --------------------------------------------------------------

trace_start() {
	echo 0 >$TRACEFS/tracing_on
	echo >$TRACEFS/set_event
	echo mono >$TRACEFS/trace_clock
	[ "$(cat $TRACEFS/buffer_size_kb)" = "$PB_TRACE_KB" ] || echo "$PB_TRACE_KB" >$TRACEFS/buffer_size_kb
	for e in $EVENTS; do echo 1 >$TRACEFS/events/$e/enable; done
	[ -d $TRACEFS/events/sched_power/sched_power_select ] &&
		echo 1 >$TRACEFS/events/sched_power/sched_power_select/enable
	echo >$TRACEFS/trace
	echo 1 >$TRACEFS/tracing_on
}

# trace_stop FILE: stop, write the trace text to FILE, print events lost.
trace_stop() {
	echo 0 >$TRACEFS/tracing_on
	lost=$(cat $TRACEFS/per_cpu/cpu*/stats | awk '/^overrun:|^dropped events:/ { s += $NF } END { print s + 0 }')
	if [ "$PB_TRACER" = trace-cmd ]; then
		trace-cmd extract -o "$1.dat" >/dev/null 2>&1 &&
			trace-cmd report -N -t -i "$1.dat" >"$1" 2>/dev/null
		rm -f "$1.dat"
	else
		cat $TRACEFS/trace >"$1"
	fi
	echo >$TRACEFS/set_event
	echo >$TRACEFS/trace
	echo "$lost"
}

cpu_packages() {
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		echo "${c##*cpu} $(cat "$c/topology/physical_package_id" 2>/dev/null || echo 0)"
	done | sort -n | awk '{ printf "%s%s", (NR > 1 ? "," : ""), $2 }'
}

# ---- rt-app -------------------------------------------------------------

# rt-app's ns per loop, once: five 20 ms runs at a guessed 100 ns per loop;
# the fastest gives the real value (as rt-app's own calibration takes the
# fastest of its tries, but in a fraction of its 15 s under TCG).
calibrate() {
	mkdir -p $dir/cal
	rm -f $dir/cal/*
	cat >$dir/cal/cal.json <<-EOF
	{ "global": { "calibration": 100, "lock_pages": false, "logdir": "$dir/cal",
	  "log_basename": "cal" },
	  "tasks": { "cal": { "loop": 1, "phases": { "p": { "loop": 5, "run0": 20000 } } } } }
	EOF
	rt-app $dir/cal/cal.json >$dir/cal/out 2>&1 || return 1
	awk '$1 !~ /^#/ && $9 > 0 { r = $3 / $9; if (min == "" || r < min) min = r }
	     END { if (min != "") printf "%d\n", 100 * min + 0.5 }' $dir/cal/cal-cal-*.log
}

# Window from the rt-app logs: "t0 t1 rows", us; empty if no rows.
log_window() {
	cat $dir/log/rt-app-*.log 2>/dev/null | awk '
		$1 !~ /^#/ && NF >= 6 { n++; if (t0 == "" || $5 < t0) t0 = $5; if ($6 > t1) t1 = $6 }
		END { if (n) printf "%d %d %d\n", t0, t1, n }'
}

# run_rtapp JSON WATCHDOG_S: rt-app in the background (so that Ctrl-C reaches
# the trap, which stops it) with a sleeping watchdog (no polling: it must not
# wake CPUs during the run).  Sets rt_rc.  rt-app exits 0 on SIGTERM too; a
# run it did not finish shows as missing log rows.
run_rtapp() {
	rt-app "$1" >$dir/rtapp.out 2>&1 &
	rt_pid=$!
	(sleep "$2"; kill "$rt_pid") >/dev/null 2>&1 &
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

# measure: trace, reset, rt-app, read; sets r0 r1 mod lost t_start t_end.
measure() {
	sleep 1		# let the last configuration's unload or trace read-out settle
	trace_start
	mod_reset
	r0=$(rapl_read)
	if [ $interrupted = 1 ]; then
		trace_stop /dev/null >/dev/null
		return 1
	fi
	t_start=$(now_s)
	run_rtapp $dir/story.json $(( len_us * PB_WATCHDOG_X / 1000000 + 30 ))
	t_end=$(now_s)
	r1=$(rapl_read)
	mark pb_read
	mod=$(mod_report)
	lost=$(trace_stop $dir/trace.txt)
}

# result CONFIG REP: the pb-result line of the run just measured.
result() {
	set -- "$1" "$2" $(log_window)
	t0=$3 t1=$4 rows=${5:-0}
	status=ok
	[ "$rt_rc" = 0 ] || status=rtapp_rc_$rt_rc
	[ "$rows" = "$rows_exp" ] || status=incomplete
	[ "$lost" = 0 ] || status=trace_lost
	tr=$(awk -v t0_us="$t0" -v t1_us="$t1" -v tasks="$tasks" -v pkgs="$pkgs" \
		-f "$PB_DIR/pb-trace.awk" $dir/trace.txt)
	rapl=$(rapl_delta "$r0" "$r1")
	energy_from "$rapl" "$(echo "$mod" | sed -n 's/.*model_uj=\([^ ]*\).*/\1/p')"
	echo "pb-result story=$name config=$1 rep=$2 status=$status" \
		"makespan_us=$(( ${t1:-0} - ${t0:-0} )) rows=$rows rows_expected=$rows_exp" \
		"energy_uj=$energy energy_src=$energy_src rapl_uj=$rapl $mod" \
		"$tr trace_lost=$lost tracer=$PB_TRACER calib_ns=$calib" \
		"run_s=$(awk -v a="$t_start" -v b="$t_end" 'BEGIN { printf "%.2f", b - a }')"
	[ "$status" = ok ]
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
	measure || return 1
	runs_written=$((runs_written + 1))
	result "$2" "$3"
}

# energy_from RAPL_UJ MODEL_UJ: sets energy, energy_src (RAPL first).
energy_from() {
	energy=- energy_src=-
	if [ "$1" != - ]; then
		energy=$1 energy_src=rapl
	elif [ -n "$2" ] && [ "$2" != - ]; then
		energy=$2 energy_src=model
	elif [ -n "${PB_TRACE_ENERGY:-}" ]; then
		set -- $($PB_TRACE_ENERGY "$dir/trace.txt" "$t0" "$t1" 2>/dev/null)
		[ -z "$1" ] || { energy=$1 energy_src=${2:-trace}; }
	fi
}

# ---- the plan -----------------------------------------------------------

# The order of configurations in repetition REP: rotated, so that none is
# always first after a story change.
rotated() {
	echo "$configs" | tr ',' '\n' | awk -v r="$1" '{ c[NR - 1] = $0 } END { for (i = 0; i < NR; i++) print c[(i + r - 1) % NR] }'
}

# Every run as "STORY CONFIG REP" lines, in order.
plan() {
	r=1
	while [ $r -le "$reps" ]; do
		for s in $stories; do
			for c in $(rotated $r); do
				[ "$PB_UNLOAD" = never ] && [ "$c" = not_loaded ] && continue
				echo "$s $c $r"
			done
		done
		r=$((r + 1))
	done
}

# PB_UNLOAD=never: every not_loaded run before the first insmod.
plan_never() {
	[ "$PB_UNLOAD" = never ] || return 0
	echo "$configs" | tr ',' '\n' | grep -qx not_loaded || return 0
	r=1
	while [ $r -le "$reps" ]; do
		for s in $stories; do echo "$s not_loaded $r"; done
		r=$((r + 1))
	done
}

on_interrupt() {
	interrupted=1
	[ -n "$rt_pid" ] && kill "$rt_pid" 2>/dev/null
}

check_setup() {
	command -v rt-app >/dev/null || { err "rt-app missing: install rt-app (Debian: apt-get install rt-app)"; return 1; }
	# A board may have neither mounted; the 0.2 module's tables are in debugfs.
	[ -d $TRACEFS/events ] || mount -t tracefs nodev $TRACEFS 2>/dev/null
	[ -d $TRACEFS/events ] || { err "tracefs missing: mount -t tracefs nodev $TRACEFS"; return 1; }
	[ -n "$(ls /sys/kernel/debug 2>/dev/null)" ] || mount -t debugfs nodev /sys/kernel/debug 2>/dev/null
	if ! mod_loaded && [ -z "$ko" ] && [ "$configs" != not_loaded ]; then
		err "module missing: no $SP and no module file (-m KO)"
		return 1
	fi
	[ -z "$ko" ] || [ -f "$ko" ] || { err "module missing: no file $ko"; return 1; }
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
	say "kernel $(uname -r), $(nproc) CPUs, packages $pkgs, rt-app ns_per_loop=$calib," \
		"$n runs, stories $(( total_len_us / 1000000 )) s per round, tracer $PB_TRACER, unload $PB_UNLOAD"
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
	while getopts r:c:m:M:d: o; do
		case $o in
		r) reps=$OPTARG ;;
		c) configs=$OPTARG ;;
		m) ko=$OPTARG ;;
		M) model=$OPTARG ;;
		d) dir=$OPTARG ;;
		*) echo "usage: pb-run.sh [-r REPS] [-c CONFIGS] [-m KO] [-M MODEL] [-d DIR] STORY..."; return 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	stories=$*
	[ -n "$stories" ] || { echo "pb-run.sh: no story"; return 2; }
	total_len_us=0
	check_setup || return 1
	mkdir -p $dir
	pkgs=$(cpu_packages)
	trap on_interrupt INT TERM
	calib=$(calibrate) || { err "rt-app failed to run: $(tail -n 1 $dir/cal/out)"; return 1; }
	[ -n "$calib" ] || { err "rt-app calibration gave no rows"; return 1; }
	{ plan_never; plan; } >$dir/plan
	run_plan
	if [ $interrupted = 1 ]; then
		err "interrupted: $runs_written of $n runs written (the last one as far as it got)"
		trace_stop /dev/null >/dev/null
		return 130
	fi
	say "done: $runs_done runs ok, $runs_failed not, $(elapsed_s) s"
	[ $runs_failed = 0 ]
}

main "$@"
