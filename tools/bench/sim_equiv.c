// SPDX-License-Identifier: GPL-2.0
/*
 * sim_equiv.c - the fast decision against the exhaustive one on every
 * decision the simulator makes.
 *
 * Linked into the simulator (tools/sim, unchanged) with -Wl,--wrap=sp_place:
 * every sp_place() call of the sp-* policies comes here, runs the real
 * sp_place() (its result goes back to the simulator, which therefore runs
 * exactly as `make sim` does) and then sp_place_exhaustive() on the same
 * snapshot, and counts the decisions whose CPU or override differ (must be
 * 0) and those whose reason differs.  At exit it prints
 *
 *	sim-equiv: N decisions, M cpu mismatches, R reason differences,
 *	E cfs_nj differences, U upper bound violations
 *
 * on stderr (E: CFS's estimate differs; U: sp_place_ub_violations, the
 * fast path's upper bound of CFS's estimate below it; see place_equiv.c),
 * followed by the count per reason pair, and exits 1 on a CPU mismatch, an
 * energy difference or a violation.  `make sim-equiv` runs every story on every model this way.
 */
#include <stdio.h>
#include <stdlib.h>

#include "sp_place.h"

static unsigned long nr_decisions, nr_cpu_bad, nr_reason_bad, nr_nj_bad;
static unsigned long reason_diff[SP_R_NR][SP_R_NR];

void __real_sp_place(const struct sp_model *m, const struct sp_state *st,
		     const struct sp_knobs *pol, const struct sp_task_info *t,
		     sp_allowed_fn allowed, const void *ctx, struct sp_decision *d);
void __wrap_sp_place(const struct sp_model *m, const struct sp_state *st,
		     const struct sp_knobs *pol, const struct sp_task_info *t,
		     sp_allowed_fn allowed, const void *ctx, struct sp_decision *d);

static void sim_equiv_report(void)
{
	unsigned int i;

	fprintf(stderr, "sim-equiv: %lu decisions, %lu cpu mismatches, %lu reason differences, %lu cfs_nj differences, %lu upper bound violations\n",
		nr_decisions, nr_cpu_bad, nr_reason_bad, nr_nj_bad, sp_place_ub_violations);
	fprintf(stderr, "#   kept CFS's CPU on the upper bound of its estimate: %lu\n",
		sp_place_ub_taken);
	for (i = 0; i < SP_R_NR * SP_R_NR; i++)
		if (reason_diff[i / SP_R_NR][i % SP_R_NR])
			fprintf(stderr, "#   fast %s where exhaustive %s: %lu\n",
				sp_reason_names[i / SP_R_NR], sp_reason_names[i % SP_R_NR],
				reason_diff[i / SP_R_NR][i % SP_R_NR]);
	if (nr_cpu_bad || nr_nj_bad || sp_place_ub_violations)
		_Exit(1);
}

void __wrap_sp_place(const struct sp_model *m, const struct sp_state *st,
		     const struct sp_knobs *pol, const struct sp_task_info *t,
		     sp_allowed_fn allowed, const void *ctx, struct sp_decision *d)
{
	struct sp_decision full;

	if (!nr_decisions)
		atexit(sim_equiv_report);
	__real_sp_place(m, st, pol, t, allowed, ctx, d);
	sp_place_exhaustive(m, st, pol, t, allowed, ctx, &full);
	nr_decisions++;
	if (d->cpu != full.cpu || d->override != full.override) {
		if (nr_cpu_bad++ < 5)
			fprintf(stderr, "sim-equiv: t=%llu cfs=%u prev=%u: cpu %u (%s) vs exhaustive %u (%s)\n",
				(unsigned long long)t->now_ns, t->cfs_cpu, t->prev_cpu,
				d->cpu, sp_reason_names[d->reason], full.cpu,
				sp_reason_names[full.reason]);
	} else if (d->reason != full.reason) {
		nr_reason_bad++;
		reason_diff[d->reason][full.reason]++;
	}
	nr_nj_bad += d->cfs_nj != full.cfs_nj;
}
