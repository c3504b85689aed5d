#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Turn sp_sim's plot data (DATA_DIR/STORY.dat, DATA_DIR/timeline.dat) into
# PNGs in OUT_DIR with gnuplot, in the shared style of tools/plot/sp.gp:
# energy vs p99 wake-up latency per story, and the per-CPU timeline of one
# story.  MODEL (default models/x86-2pkg.model) names the OPPs and idle
# states in the timeline's key.
#
#   Usage: plots.sh DATA_DIR OUT_DIR [MODEL]
#
# Policies whose (energy, p99) coincide are drawn as one point whose key
# entry names them all ("spread = sp-observe = sp-performance"), so no two
# labels sit on top of each other.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
data=$1
out=$2
model=${3:-$top/models/x86-2pkg.model}
gp=$top/tools/plot/sp.gp

# Group STORY.dat's rows by identical (energy, p99): "energy p99 label".
group_points() {
	awk '!/^#/ && NF >= 3 {
		k = $2 " " $3
		if (!(k in lab)) { order[n++] = k; lab[k] = $1 } else lab[k] = lab[k] " = " $1
	} END { for (i = 0; i < n; i++) print order[i], lab[order[i]] }' "$1"
}

# "lo hi" of column COL of FILE, widened by 10% (or 10% of the value when
# every point has the same value) so that the points sit inside the frame.
axis_range() {
	awk -v c="$2" 'NR == 1 || $c < lo { lo = $c } NR == 1 || $c > hi { hi = $c }
	END { d = (hi - lo) * 0.1; if (d <= 0) d = (hi > 0 ? hi : 1) * 0.1
	      printf "%g %g", lo - d, hi + d }' "$1"
}

energy_p99() {
	local f=$1 story=$2 grp=$out/.energy_p99_$2.grp clauses="" i=0 e p l xr yr
	group_points "$f" >"$grp"
	xr=$(axis_range "$grp" 2)
	yr=$(axis_range "$grp" 1)
	spread=$(awk 'NR == 1 || $1 < lo { lo = $1 } NR == 1 || $1 > hi { hi = $1 }
		END { printf "%.2f", (lo > 0 ? 100 * (hi - lo) / lo : 0) }' "$grp")
	while read -r e p l; do
		clauses+="${clauses:+, }\"$grp\" every ::$i::$i using 2:1 with points lt $((i + 1)) title \"$l\""
		i=$((i + 1))
	done <"$grp"
	[ -n "$clauses" ] || return 0
	gnuplot <<GP
load "$gp"
eval sp_term(900, 640)
set output "$out/energy_p99_$story.png"
set title "$story: modelled energy vs p99 wake-up latency (sp_sim; lower left is better)"
set xlabel "p99 wake-up latency (us)" offset 0,0.4
set ylabel "energy (mJ)"
set xrange [${xr% *}:${xr#* }]
set yrange [${yr% *}:${yr#* }]
set key below vertical maxcols 1 nobox
set label 1 "one point per distinct result (\"a = b\" in the key: policies that coincide); energies differ by at most $spread%" at graph 0, graph 1.02 left font ",9" tc rgb "#505050"
plot $clauses
GP
	rm -f "$grp"
}

# "k label" lines for the key: pd 0's OPPs and idle states of MODEL.
key_entries() {
	[ -r "$model" ] || return 0
	awk '$1 == "opp" || $1 == "idle" {
		pd = ""; khz = ""; name = ""
		for (i = 2; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "pd") pd = kv[2]
			if (kv[1] == "khz") khz = kv[2]
			if (kv[1] == "name") name = kv[2]
		}
		if (pd != "0") next
		if ($1 == "opp") printf "opp %d busy OPP%d %d MHz\n", no, no, khz / 1000; else printf "idle %d idle %s\n", ni, name
		if ($1 == "opp") no++; else ni++
	}' "$model"
}

timeline() {
	local f=$1 keys="" kind k label ncpu end_ms
	ncpu=$(awk 'BEGIN { m = 0 } !/^#/ { if ($1 > m) m = $1 } END { print m + 1 }' "$f")
	end_ms=$(awk 'BEGIN { m = 0 } !/^#/ { if ($3 > m) m = $3 } END { printf "%.3f", m / 1000 }' "$f")
	while read -r kind k label; do
		if [ "$kind" = opp ]; then
			keys+=", keyentry with boxes fc rgb sp_opp_rgb($k) title \"$label\""
		else
			keys+=", keyentry with boxes fc rgb sp_idle_rgb($k) title \"$label\""
		fi
	done < <(key_entries)
	gnuplot <<GP
load "$gp"
eval sp_term(1200, 150 + 60 * $ncpu)
set output "$out/timeline.png"
set title "sp_sim per-CPU timeline (busy: colour = OPP; idle: grey = idle state)"
set xlabel "time (ms)"
set ylabel "CPU"
set xrange [0:$end_ms]
set yrange [-0.6:$ncpu - 0.4]
set ytics 1
set grid noxtics noytics
plot "$f" using ((\$2 + \$3) / 2000.0):1:((\$3 - \$2) / 2000.0):(0.38):(sp_seg_rgb(int(\$4), int(\$5))) \
	with boxxyerror lc rgb variable notitle$keys
GP
}

for f in "$data"/*.dat; do
	story=$(basename "$f" .dat)
	[ "$story" = timeline ] && continue
	energy_p99 "$f" "$story"
done
if [ -s "$data/timeline.dat" ]; then
	timeline "$data/timeline.dat"
fi
