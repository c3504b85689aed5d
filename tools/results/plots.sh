#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The PNGs of Documentation/results.md: the simulator's energy against p99
# wake-up latency for every story on x86-2pkg, and a per-CPU timeline of
# the mixed story under sp-power, drawn by tools/sim/plots.sh.
#
#   Usage: plots.sh OUT_DIR     (make results runs it)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
BUILD=${BUILD:-$top/build}
SIM=${SIM:-$BUILD/tools/sim/sp_sim}
data=$BUILD/results/plot
mkdir -p "$data" "$out"
command -v gnuplot >/dev/null || { echo "plots.sh: gnuplot not found" >&2; exit 1; }
"$SIM" -m "$top/models/x86-2pkg.model" --plotdata "$data" \
	--timeline "$data/timeline.dat" --timeline-story mixed --timeline-policy sp-power \
	--timeline-ms 400 "$top"/tools/sim/stories/*.json >/dev/null
rm -f "$out"/*.png
"$top/tools/sim/plots.sh" "$data" "$out" "$top/models/x86-2pkg.model"
