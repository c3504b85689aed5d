#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dice.sh MODEL STORY N [POLICY,...] [SP_SIM_ARGS...] - a story's figures
# over seeds 1..N of the newly-idle balance's dice (sp_sim --seed, 6.1's
# NI_RANDOM, tools/sim/balance.c), one line per policy:
#
#   policy  mk_mean_ms mk_sd_ms mk_min_ms mk_max_ms  e_mean_mj  mk/cfs  over
#
# mk/cfs is the policy's mean makespan over cfs's, and "over" how many of
# the N seeds give the policy a makespan above 1.02x cfs's on the same
# seed (issue 19's bound, judged on one seed as make sim does).  A row
# whose makespan the dice decide (Documentation/placement.rst, phone
# build) reads its policy's effect from the means, not from one seed:
#
#   tools/sim/dice.sh models/phone-biglittle.model \
#       tools/sim/stories/build.json 500 cfs,eas,sp-power,sp-power-nofloor
#
# POLICY defaults to cfs,sp-power,sp-power-nofloor; cfs is added if absent.
set -eu
sim=${SP_SIM:-build/tools/sim/sp_sim}
model=$1
story=$2
n=$3
shift 3
pols=cfs,sp-power,sp-power-nofloor
case "${1:-}" in
-*|'') ;;
*) pols=$1; shift ;;
esac
case ",$pols," in
*,cfs,*) ;;
*) pols=cfs,$pols ;;
esac
s=1
while [ "$s" -le "$n" ]; do
	"$sim" -m "$model" -p "$pols" --seed "$s" --csv /dev/stdout "$@" "$story" 2>/dev/null |
		awk -F, -v s="$s" 'NR > 1 && $3 != "" { print s, $2, $3, $4 }'
	s=$((s + 1))
done | awk -v order="$pols" '
	{
		mk = $3 / 1000; e = $4 / 1000
		sum[$2] += mk; sq[$2] += mk * mk; es[$2] += e; cnt[$2]++
		if (!($2 in lo) || mk < lo[$2]) lo[$2] = mk
		if (mk > hi[$2]) hi[$2] = mk
		v[$1 " " $2] = mk
		seeds[$1] = 1
	}
	END {
		k = split(order, p, ",")
		for (i = 1; i <= k; i++) {
			q = p[i]
			if (!cnt[q])
				continue
			m = sum[q] / cnt[q]
			var = sq[q] / cnt[q] - m * m
			over = 0
			for (s in seeds)
				if ((s " " q) in v && v[s " " q] > 1.02 * v[s " cfs"])
					over++
			printf "%-18s %9.1f %7.1f %9.1f %9.1f %10.3f %6.4f %4d/%d\n", q, m,
			       sqrt(var > 0 ? var : 0), lo[q], hi[q], es[q] / cnt[q],
			       m / (sum["cfs"] / cnt["cfs"]), over, cnt[q]
		}
	}'
