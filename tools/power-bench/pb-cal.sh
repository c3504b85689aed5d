# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# pb-cal.sh - rt-app's calibration for a guest run, sourced by pb-run.sh
# and tools/gate/nohz-kicks.sh (POSIX sh, busybox in the guest).
#
# pb_calibrate DIR: print rt-app's ns per loop, measured once in DIR
# (emptied first; DIR/out holds rt-app's output): five 20 ms runs at a
# guessed 100 ns per loop; the fastest gives the real value (as rt-app's
# own calibration takes the fastest of its tries, but in a fraction of
# its 15 s under TCG).  Fails if rt-app fails.
pb_calibrate() {
	mkdir -p "$1"
	rm -f "$1"/*
	cat >"$1"/cal.json <<-EOF
	{ "global": { "calibration": 100, "lock_pages": false, "logdir": "$1",
	  "log_basename": "cal" },
	  "tasks": { "cal": { "loop": 1, "phases": { "p": { "loop": 5, "run0": 20000 } } } } }
	EOF
	rt-app "$1"/cal.json >"$1"/out 2>&1 || return 1
	awk '$1 !~ /^#/ && $9 > 0 { r = $3 / $9; if (min == "" || r < min) min = r }
	     END { if (min != "") printf "%d\n", 100 * min + 0.5 }' "$1"/cal-cal-*.log
}
