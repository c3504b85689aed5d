#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Turn sp_sim's plot data (DATA_DIR/STORY.dat, DATA_DIR/timeline.dat) into
# PNGs in OUT_DIR with gnuplot: energy vs p99 wake-up latency per story,
# and the per-CPU timeline of one story.  Usage: plots.sh DATA_DIR OUT_DIR
set -euo pipefail
data=$1
out=$2
for f in "$data"/*.dat; do
	story=$(basename "$f" .dat)
	[ "$story" = timeline ] && continue
	gnuplot <<GP
set terminal png size 800,560
set autoscale fix
set termoption noenhanced
set output "$out/energy_p99_$story.png"
set title "$story: energy vs p99 wake-up latency (sp_sim, lower-left is better)"
set xlabel "p99 wake-up latency (us)"
set ylabel "energy (mJ)"
set grid
set offsets graph 0.1, graph 0.1, graph 0.1, graph 0.1
plot "$f" using 3:2 with points pt 7 ps 1.5 notitle, \
     "$f" using 3:2:1 with labels offset 0,1 font ",9" notitle
GP
done
if [ -s "$data/timeline.dat" ]; then
	gnuplot <<GP
set terminal png size 1000,400
set termoption noenhanced
set output "$out/timeline.png"
set title "per-CPU timeline (busy: colour = OPP index, idle: grey = idle state)"
set xlabel "time (ms)"
set ylabel "CPU"
set ytics 1
set yrange [-0.5:*]
set palette defined (0 "#dddddd", 1 "#888888", 2 "#2040ff", 3 "#20c040", 4 "#ff9020", 5 "#ff2020")
set cbrange [0:5]
unset colorbox
plot "$data/timeline.dat" using (\$2/1000.0):1:((\$3-\$2)/1000.0):(0):(\$4 > 0 ? 2 + \$5 : \$5) \
     with vectors nohead lw 12 lc palette notitle
GP
fi
