#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# pb-yardstick.sh - which guest gives power-bench's intervals their width:
# the same story and configurations under several guest settings (TCG mode,
# vCPUs), the settings interleaved round by round so that the shared host's
# load changes hit them all alike.  Documentation/power-bench.rst ("Choosing
# the guest") shows what it found; make pb-yardstick runs it.
#
#   tools/power-bench/pb-yardstick.sh [-k ROUNDS] [-n REPS] [-c CONFIGS]
#                                     [-s "SETTING ..."] [--out DIR] [--recount] STORY.json
#
# SETTING is TCG/SMP, e.g. multi/4,sockets=2,cores=2 (the default guest
# before) or single/2,sockets=2,cores=1.  Each round boots every setting once
# (in an order rotated per round) for REPS repetitions of every
# configuration; a setting's repetitions are numbered on across rounds
# (PB_REP_FROM) and its runs gathered in DIR/<setting>.runs, which
# tools/power-bench/pb-widths.sh reads.  --recount runs nothing: it counts
# the recordings of the last run again (power-bench --recount), after a
# change of sp-report.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
rounds=4 reps=2 configs=not_loaded,observe,power out=$top/build/pb-yardstick recount=
settings="multi/4,sockets=2,cores=2 single/4,sockets=2,cores=2 single/2,sockets=2,cores=1"
while [ $# -gt 0 ]; do
	case $1 in
	-k) rounds=$2; shift ;;
	-n) reps=$2; shift ;;
	-c) configs=$2; shift ;;
	-s) settings=$2; shift ;;
	--out) out=$2; shift ;;
	--recount) recount=1 ;;
	-*) echo "usage: pb-yardstick.sh [-k ROUNDS] [-n REPS] [-c CONFIGS] [-s SETTINGS] [--out DIR] STORY" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
[ $# -eq 1 ] || { echo "pb-yardstick.sh: one story" >&2; exit 2; }
story=$1
mkdir -p "$out"
set -- $settings
n=$#
# PB_SLOWDOWN=0 (busy time as the guest spent it, not the work timeline of
# Documentation/power-bench.rst) gathers into <setting>.guest-time.runs.
suffix=
[ "${PB_SLOWDOWN:-1}" = 1 ] || suffix=.guest-time
name() { echo "$1" | sed 's|/|_|; s|,|-|g; s|=||g'; }
for s in "$@"; do rm -f "$out/$(name "$s")$suffix.runs"; done
start=$SECONDS
for ((k = 0; k < rounds; k++)); do
	for ((i = 0; i < n; i++)); do
		idx=$(( (i + k) % n + 1 ))
		s=${!idx}
		dir=$out/$(name "$s")/round$k
		mkdir -p "$dir"
		echo "pb-yardstick: round $((k + 1))/$rounds, $s, elapsed $((SECONDS - start)) s" >&2
		if [ -n "$recount" ]; then
			"$top/tools/power-bench/power-bench" --recount --out "$dir" >"$dir.recount.log" 2>&1 ||
				echo "pb-yardstick: $s round $k: recount failed (see $dir.recount.log)" >&2
		else
			SP_VM_TCG=${s%%/*} SP_VM_SMP=${s#*/} PB_REP_FROM=$((k * reps + 1)) \
				"$top/tools/power-bench/power-bench" --vm -r "$reps" -c "$configs" --out "$dir" \
				"$story" >"$dir.log" 2>&1 || echo "pb-yardstick: $s round $k: power-bench failed (see $dir.log)" >&2
		fi
		runs=$out/$(name "$s")$suffix.runs
		[ -s "$runs" ] || grep '^# pb-meta' "$dir/runs.txt" >"$runs" 2>/dev/null || true
		grep '^pb-result' "$dir/runs.txt" >>"$runs" 2>/dev/null || true
	done
done
echo "pb-yardstick: wall $((SECONDS - start)) s; runs in $out/*.runs" >&2
files=()
for s in "$@"; do files+=("$out/$(name "$s")$suffix.runs"); done
"$top/tools/power-bench/pb-widths.sh" --reps "3 0" "${files[@]}"
