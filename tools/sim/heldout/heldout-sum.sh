#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# heldout-sum.sh: make heldout for several seeds, then per model the
# sp-power runs meeting each of issue 19's targets (p99, makespan, E,
# light E) summed over the seeds, and the runs meeting p99, makespan and
# E together (each seed's report, build/heldout/report.txt, kept as
# build/heldout-sum/report-SEED.txt).  A comparison between two trees is
# this command run in each.
#
#   tools/sim/heldout/heldout-sum.sh SEED...    (make heldout-sum HELDOUT_SEEDS="...")
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 SEED..." >&2; exit 2; }
top=$(cd "$(dirname "$0")/../../.." && pwd)
out=$top/build/heldout-sum
mkdir -p "$out"
for s in "$@"; do
	make -s -C "$top" heldout HELDOUT_SEED="$s" >/dev/null
	cp "$top/build/heldout/report.txt" "$out/report-$s.txt"
done
for s in "$@"; do
	# a policy line: "sp-power  P/N ... M/N ... E/N ... L/N ...", the four counts in order
	awk '/^== /{m = $2}
	     /^sp-power /{n = 0; line = $0
		while (match(line, /[0-9]+\/[0-9]+/)) { v[++n] = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH) }
		split(v[1], p, "/"); split(v[2], k, "/"); split(v[3], e, "/"); split(v[4], l, "/")
		print m, p[1], k[1], e[1], l[1] }' "$out/report-$s.txt"
done | awk '{p[$1] += $2; k[$1] += $3; e[$1] += $4; l[$1] += $5}
	END {for (m in p) printf "heldout-sum model=%s p99=%d makespan=%d E=%d lightE=%d\n", m, p[m], k[m], e[m], l[m]}' | sort
all=0
for s in "$@"; do
	n=$(sed -n 's/.*meeting p99, makespan and E: sp-power \([0-9]*\)\/.*/\1/p' "$out/report-$s.txt")
	all=$((all + n))
done
echo "heldout-sum seeds=$* sp-power meeting p99, makespan and E: $all of $(( $# * 500 ))"
