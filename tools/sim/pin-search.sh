#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# pin-search.sh MODEL STORY CPUS [SP_SIM_ARGS...] - every static pinning of
# STORY's task instances onto the CPUs listed in CPUS (comma-separated),
# each run once with sp_sim --pin and any further arguments (--opp K), one
# line per pinning: "pin energy_uj p99_us makespan_us", sorted by energy.
# Every pinning, not the oracle's pinnings up to symmetry (oracle.c), and
# for stories beyond the oracle's search; e.g. the best static schedule of
# idle on x86-2pkg's CPUs 0-3 at OPP 2, within cfs's latency bounds
# (Documentation/placement.rst):
#
#   tools/sim/pin-search.sh models/x86-2pkg.model \
#       tools/sim/stories/idle.json 0,1,2,3 --opp 2 | awk '$3 <= 206.8' | head -1
#
# len(CPUS) ^ instances runs: 16384 for 7 instances on 4 CPUs (a few minutes).
set -eu
sim=${SP_SIM:-build/tools/sim/sp_sim}
model=$1
story=$2
cpus=$3
shift 3
# the instance count: one pinning of the right length is accepted
n=1
while :; do
	try=$(printf '0%*s' $((n - 1)) '' | sed 's/ /,0/g')
	if "$sim" -m "$model" -p lower-bound --pin "$try" --csv /dev/null "$@" "$story" \
		>/dev/null 2>&1; then
		break
	fi
	n=$((n + 1))
	if [ "$n" -gt 16 ]; then
		echo "pin-search.sh: no pinning of up to 16 instances runs" >&2
		exit 1
	fi
done
echo "$cpus" | tr ',' '\n' > "${TMPDIR:-/tmp}/pin-search.$$"
trap 'rm -f "${TMPDIR:-/tmp}/pin-search.$$"' EXIT
# every word of n CPUs from the list, in order
pins=$(awk -v n="$n" '
	{ c[NR - 1] = $1; k = NR }
	END {
		total = 1
		for (i = 0; i < n; i++)
			total *= k
		for (x = 0; x < total; x++) {
			y = x; s = ""
			for (i = 0; i < n; i++) {
				s = s (i ? "," : "") c[y % k]
				y = int(y / k)
			}
			print s
		}
	}' "${TMPDIR:-/tmp}/pin-search.$$")
for p in $pins; do
	"$sim" -m "$model" -p lower-bound --pin "$p" --csv /dev/stdout "$@" "$story" 2>/dev/null |
		awk -F, -v p="$p" '$2 == "pinned" { print p, $4, $9, $3 }'
done | sort -k2,2n
