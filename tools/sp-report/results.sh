#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make report-results: record an observe and a power run of the light load
# in the VM (tools/sp-report/record-vm.sh), copy the recordings out through
# the console (base64 between SP-FILE markers), and regenerate
# Documentation/sp-report/: the text report of the power run, the
# observe/power diff and the PNGs of both runs (the 1 s of load between the
# sp_window markers).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/report
doc=$top/Documentation/sp-report
report=$top/build/tools/sp-report/sp-report
mkdir -p "$out" "$doc" "$top/fuzz/report-seeds"
# SP_REPORT_REUSE=1: redo the reports from the last run's build/report/vm.txt
if [ "${SP_REPORT_REUSE:-0}" != 1 ] || [ ! -s "$out/vm.txt" ]; then
	"$top/selftests/vm-run.sh" --script "$top/tools/sp-report/record-vm.sh" >"$out/vm.txt"
fi
awk -v dir="$out" '
	/^SP-FILE-END/ { close(f); f = ""; next }
	/^SP-FILE / { f = dir "/" $2 ".b64"; printf "" > f; next }
	f { print > f }' "$out/vm.txt"
for b in "$out"/*.b64; do
	base64 -d "$b" >"${b%.b64}"
	rm -f "$b"
done
cd "$out"	# paths in the reports stay short
idle=$(cat rep_idle.opt 2>/dev/null)	# the guest's --idle-deepest, if any
for m in observe power; do
	[ -s rep_$m.dat ] || { echo "results.sh: no rep_$m.dat in $out/vm.txt" >&2; exit 1; }
	"$report" -q $idle --window sp_window_start,sp_window_end --plot "$out/plot-$m" \
		rep_$m.dat >"$out/report-$m.txt"
	cp "$out/plot-$m/timeline.png" "$doc/timeline-$m.png"
	cp "$out/plot-$m/energy.png" "$doc/energy-$m.png"
done
# the 1 s of load: tracing ran before and after it with the mode off
win="--window sp_window_start,sp_window_end"
{ echo "\$ sp-report $idle $win rep_power.dat"; "$report" $idle $win rep_power.dat 2>&1; } \
	>"$doc/report-power.txt"
{ echo "\$ sp-report $idle $win --diff rep_observe.dat rep_power.dat"
  "$report" -q $idle $win --diff rep_observe.dat rep_power.dat; } >"$doc/diff.txt"
# the module's own counters for the same runs, and its energy over the
# window between the two markers against the replay's
total_uj() { sed -n 's/^total_uj \([0-9]*\).*/\1/p' "$1"; }
for m in observe power; do
	mod=$(( $(total_uj rep_$m.e1) - $(total_uj rep_$m.e0) ))
	rep=$("$report" -q $idle --csv --window sp_window_start,sp_window_end rep_$m.dat |
		awk -F, '$1 == "summary" { printf "%.0f", $10 }')
	echo "$m: module stats: $(cat rep_$m.stats); energy over the window: module $mod uJ," \
		"sp-report $rep uJ (ratio $(awk -v a="$rep" -v b="$mod" 'BEGIN { printf "%.4f", a / b }'))"
done >"$doc/stats.txt"
# the fuzzer's seed, uncompressed (file version 6) so that mutations reach
# the event data; named after the event format it holds
if [ -s rep_seed.dat ]; then
	fmt=$("$report" -q --csv rep_seed.dat | awk -F, '$1 == "summary" { print $3 }')
	trace-cmd convert -i rep_seed.dat -o "$top/fuzz/report-seeds/v$fmt.dat" \
		--file-version 6 --compression none >/dev/null
fi
ls -l "$doc" "$top/fuzz/report-seeds"
