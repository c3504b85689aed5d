#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# pb-widths.sh - how wide power-bench's 95 % intervals come out, per setting
# and number of repetitions: the yardstick comparison of
# Documentation/power-bench.rst ("Choosing the guest").  Reads saved runs
# files (power-bench's runs.txt; make results-data keeps them in
# Documentation/data/power-bench-yardstick/), and prints one markdown row
# per setting, repetitions used, configuration and metric: the ratio to the
# reference, its interval and its larger half-width in percent.
#
#   tools/power-bench/pb-widths.sh [--reps "3 8"] RUNS...
#
# The setting is the run's machine line (TCG mode, vCPUs) and the file name.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
stats=$top/build/tools/power-bench/pb-stats
reps="3 0"
if [ "${1:-}" = --reps ]; then reps=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: pb-widths.sh [--reps \"3 8\"] RUNS..." >&2; exit 2; }
[ -x "$stats" ] || make -s -C "$top" build/tools/power-bench/pb-stats >&2
metrics="energy_est pkg_wakeups_per_s pkg_awake_share all_pkgs_awake_share xpkg_migrations_per_s lat_p50 lat_p99"
echo "| runs file | guest | reps | config | metric | ratio | 95 % interval | +-% | verdict |"
echo "|---|---|---:|---|---|---:|---|---:|---|"
for f in "$@"; do
	guest=$(sed -n 's/^# pb-meta machine=\([^ ]*\).*/\1/p' "$f" | head -n 1 | tr _ ' ' |
		sed 's/ on a .*//; s/^qemu-tcg //')
	for n in $reps; do
		"$stats" --fmt csv --max-rep "$n" "$f" | awk -F, -v file="${f##*/}" -v guest="$guest" \
			-v metrics="$metrics" '
		NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; nm = split(metrics, m, " "); next }
		$h["config"] != $h["reference"] {
			for (k = 1; k <= nm; k++) {
				r = $h[m[k] "_ratio"]
				if (r == "-" || r == "") continue
				lo = $h[m[k] "_lo"]; hi = $h[m[k] "_hi"]
				w = r > 0 && hi != "inf" ? 100 * ((r - lo > hi - r) ? r - lo : hi - r) / r : -1
				printf "| %s | %s | %s | %s | %s | %.3f | [%.3f, %s] | %s | %s |\n", file, guest,
					$h[m[k] "_pairs"], $h["config"], m[k], r, lo, hi == "inf" ? "inf" : sprintf("%.3f", hi),
					w < 0 ? "-" : sprintf("%.1f", w), $h[m[k] "_verdict"]
			}
		}'
	done
done
