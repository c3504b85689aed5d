// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c - two recordings side by side, B as a ratio of A.
 *
 * Recordings differ in length, so energies are compared both as totals and
 * as average power over each recording's span (avg_mW), which is the fair
 * comparison of two runs of the same load.
 */
#include <string.h>

#include "report.h"

struct rep_terms {
	uint64_t busy, pstate, idle, wake, shared;
};

static void rep_terms_of(const struct rep_result *r, struct rep_terms *t)
{
	uint32_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < r->nr_pkgs; i++) {
		t->busy += r->pkg[i].busy_nj;
		t->pstate += r->pkg[i].pstate_nj;
		t->idle += r->pkg[i].idle_nj;
		t->wake += r->pkg[i].wake_nj + r->pkg[i].grp.wake_nj;
		t->shared += r->pkg[i].grp.busy_nj + r->pkg[i].grp.idle_nj;
	}
}

static void rep_diff_row(FILE *f, const char *name, double a, double b, const char *fmt)
{
	char sa[32], sb[32];

	snprintf(sa, sizeof(sa), fmt, a);
	snprintf(sb, sizeof(sb), fmt, b);
	fprintf(f, "%-32s %12s %12s ", name, sa, sb);
	if (a == 0)
		fprintf(f, "%8s\n", b == 0 ? "1.000" : "inf");
	else
		fprintf(f, "%8.3f\n", b / a);
}

static double rep_span_ms(const struct rep_result *r)
{
	return (double)(r->end_ns - r->start_ns) / 1e6;
}

static double rep_mw(const struct rep_result *r, uint64_t nj)
{
	double ms = rep_span_ms(r);

	return ms > 0 ? (double)nj / 1e3 / ms : 0;
}

static double rep_share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static uint64_t rep_migrations(const struct rep_result *r)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < r->nr_tasks; i++)
		n += r->tasks[i].migrations;
	return n;
}

static uint64_t rep_verdicts(const struct rep_result *r)
{
	return r->verdict_total[SP_V_EARLY] + r->verdict_total[SP_V_HIT] +
	       r->verdict_total[SP_V_LATE];
}

static void rep_diff_decisions(FILE *f, struct rep_result *a, struct rep_result *b)
{
	const struct rep_trace *ta = a->t, *tb = b->t;
	uint32_t i, j;
	char name[48];

	rep_diff_row(f, "decisions", (double)a->total.decisions, (double)b->total.decisions, "%.0f");
	rep_diff_row(f, "overrides", (double)a->total.overrides, (double)b->total.overrides, "%.0f");
	rep_diff_row(f, "override share %", rep_share(a->total.overrides, a->total.decisions),
		     rep_share(b->total.overrides, b->total.decisions), "%.1f");
	rep_diff_row(f, "saved_uJ (model estimate)", (double)a->total.saved_nj / 1e3,
		     (double)b->total.saved_nj / 1e3, "%.1f");
	/* every reason of either recording, by name */
	for (i = 0; i < ta->reasons.nr; i++) {
		uint64_t nb = 0;

		for (j = 0; j < tb->reasons.nr; j++)
			if (!strcmp(ta->reasons.name[i], tb->reasons.name[j]))
				nb = b->by_reason[j].decisions;
		snprintf(name, sizeof(name), "  reason %s", ta->reasons.name[i]);
		rep_diff_row(f, name, (double)a->by_reason[i].decisions, (double)nb, "%.0f");
	}
	for (j = 0; j < tb->reasons.nr; j++) {
		for (i = 0; i < ta->reasons.nr; i++)
			if (!strcmp(ta->reasons.name[i], tb->reasons.name[j]))
				break;
		if (i < ta->reasons.nr)
			continue;
		snprintf(name, sizeof(name), "  reason %s", tb->reasons.name[j]);
		rep_diff_row(f, name, 0, (double)b->by_reason[j].decisions, "%.0f");
	}
}

static void rep_diff_tasks(FILE *f, struct rep_result *a, struct rep_result *b)
{
	rep_diff_row(f, "wake-ups measured", (double)a->all_lat_ns.nr, (double)b->all_lat_ns.nr,
		     "%.0f");
	rep_diff_row(f, "wake-up latency p50_us", (double)rep_pct_ns(&a->all_lat_ns, 50) / 1e3,
		     (double)rep_pct_ns(&b->all_lat_ns, 50) / 1e3, "%.1f");
	rep_diff_row(f, "wake-up latency p99_us", (double)rep_pct_ns(&a->all_lat_ns, 99) / 1e3,
		     (double)rep_pct_ns(&b->all_lat_ns, 99) / 1e3, "%.1f");
	rep_diff_row(f, "wake-up latency max_us", (double)rep_pct_ns(&a->all_lat_ns, 100) / 1e3,
		     (double)rep_pct_ns(&b->all_lat_ns, 100) / 1e3, "%.1f");
	rep_diff_row(f, "migrations", (double)rep_migrations(a), (double)rep_migrations(b), "%.0f");
}

static void rep_diff_energy(FILE *f, const struct rep_result *a, const struct rep_result *b)
{
	struct rep_terms x, y;
	uint32_t i;
	char name[48];

	if (!a->energy || !b->energy) {
		fprintf(f, "%-32s %12s %12s\n", "energy", a->energy ? "modelled" : "-",
			b->energy ? "modelled" : "-");
		return;
	}
	rep_terms_of(a, &x);
	rep_terms_of(b, &y);
	rep_diff_row(f, "avg power mW", rep_mw(a, a->total_nj), rep_mw(b, b->total_nj), "%.1f");
	rep_diff_row(f, "  busy mW", rep_mw(a, x.busy), rep_mw(b, y.busy), "%.1f");
	rep_diff_row(f, "  of it pstate mW", rep_mw(a, x.pstate), rep_mw(b, y.pstate), "%.1f");
	rep_diff_row(f, "  idle mW", rep_mw(a, x.idle), rep_mw(b, y.idle), "%.1f");
	rep_diff_row(f, "  wake mW", rep_mw(a, x.wake), rep_mw(b, y.wake), "%.1f");
	rep_diff_row(f, "  shared mW", rep_mw(a, x.shared), rep_mw(b, y.shared), "%.1f");
	rep_diff_row(f, "total energy uJ", (double)a->total_nj / 1e3, (double)b->total_nj / 1e3,
		     "%.0f");
	for (i = 0; i < a->nr_pkgs && i < b->nr_pkgs; i++) {
		snprintf(name, sizeof(name), "pkg %u awake %%", a->pkg[i].id);
		rep_diff_row(f, name, rep_share(a->pkg[i].grp.busy_us, (uint64_t)(rep_span_ms(a) * 1e3)),
			     rep_share(b->pkg[i].grp.busy_us, (uint64_t)(rep_span_ms(b) * 1e3)), "%.1f");
		snprintf(name, sizeof(name), "pkg %u wake-ups per s", a->pkg[i].id);
		rep_diff_row(f, name, rep_span_ms(a) > 0 ? (double)a->pkg[i].grp.wakeups * 1e3 / rep_span_ms(a) : 0,
			     rep_span_ms(b) > 0 ? (double)b->pkg[i].grp.wakeups * 1e3 / rep_span_ms(b) : 0,
			     "%.1f");
	}
}

void rep_print_diff(FILE *f, struct rep_result *a, struct rep_result *b)
{
	fprintf(f, "sp-report --diff\n  A %s (%s format)\n  B %s (%s format)\n\n", a->path,
		rep_format_name(a->t), b->path, rep_format_name(b->t));
	fprintf(f, "%-32s %12s %12s %8s\n", "metric", "A", "B", "B/A");
	rep_diff_row(f, "span_ms", rep_span_ms(a), rep_span_ms(b), "%.1f");
	rep_diff_decisions(f, a, b);
	rep_diff_tasks(f, a, b);
	rep_diff_energy(f, a, b);
	rep_diff_row(f, "bounded decisions", (double)a->bounded, (double)b->bounded, "%.0f");
	rep_diff_row(f, "modelled bound violations", (double)a->bound_model_violations,
		     (double)b->bound_model_violations, "%.0f");
	rep_diff_row(f, "measured bound violations", (double)a->bound_measured_violations,
		     (double)b->bound_measured_violations, "%.0f");
	rep_diff_row(f, "idle early %", rep_share(a->verdict_total[SP_V_EARLY], rep_verdicts(a)),
		     rep_share(b->verdict_total[SP_V_EARLY], rep_verdicts(b)), "%.1f");
	rep_diff_row(f, "idle late %", rep_share(a->verdict_total[SP_V_LATE], rep_verdicts(a)),
		     rep_share(b->verdict_total[SP_V_LATE], rep_verdicts(b)), "%.1f");
}
