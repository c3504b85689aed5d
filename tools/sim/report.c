// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - results as a text table, CSV, the headline ratios, plot data.
 *
 * Energies print in mJ with uJ resolution, times in ms or us; every value
 * comes from integers through one fixed conversion, so equal runs print
 * equal bytes.  Results arrive grouped by story, policies in a fixed order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

double sim_uj(sim_fj e)
{
	return (double)(u64)(e / 1000000000u);
}

static double mj(sim_fj e)
{
	return sim_uj(e) / 1000.0;
}

static double us(u64 ns)
{
	return (double)(ns / 100) / 10.0;
}

static bool is_lb(const struct sim_result *r)
{
	return r->policy == SIM_POL_LOWER_BOUND;
}

void sim_report_text(FILE *f, const struct sim_result *r, u32 n)
{
	u32 i;

	fprintf(f, "%-12s %-14s %10s %11s %11s %11s %10s %9s %9s %9s %6s %7s %7s %7s %7s %9s\n",
		"story", "policy", "makespan_ms", "energy_mJ", "busy_mJ", "idle_mJ",
		"wake_mJ", "p50_us", "p99_us", "max_us", "pkgwk", "migr",
		"early", "hit", "late", "events");
	for (i = 0; i < n; i++, r++) {
		fprintf(f, "%-12s %-14s %10.3f %11.3f %11.3f %11.3f %10.3f",
			r->story, sim_policy_names[r->policy],
			(double)(r->makespan_ns / 1000) / 1000.0, mj(sim_total(r)),
			mj(r->e_busy), mj(r->e_idle), mj(r->e_wake));
		if (is_lb(r)) {
			fprintf(f, " %9s %9s %9s %6s %7s %7s %7s %7s %9s\n",
				"-", "-", "-", "-", "-", "-", "-", "-", "-");
			continue;
		}
		fprintf(f, " %9.1f %9.1f %9.1f %6llu %7llu %7llu %7llu %7llu %9llu\n",
			us(r->lat_p50_ns), us(r->lat_p99_ns), us(r->lat_max_ns),
			(unsigned long long)r->pkg_wakeups,
			(unsigned long long)r->migrations,
			(unsigned long long)r->verdict[SIM_V_EARLY],
			(unsigned long long)r->verdict[SIM_V_HIT],
			(unsigned long long)r->verdict[SIM_V_LATE],
			(unsigned long long)r->events);
	}
}

void sim_report_csv(FILE *f, const struct sim_result *r, u32 n)
{
	u32 i;

	fprintf(f, "story,policy,makespan_us,energy_uj,busy_uj,idle_uj,wake_uj,"
		"p50_us,p99_us,max_us,wakeups,pkg_wakeups,migrations,early,hit,late,"
		"events,decisions\n");
	for (i = 0; i < n; i++, r++)
		fprintf(f, "%s,%s,%.3f,%.0f,%.0f,%.0f,%.0f,%.1f,%.1f,%.1f,%llu,%llu,%llu,"
			"%llu,%llu,%llu,%llu,%llu\n",
			r->story, sim_policy_names[r->policy],
			(double)r->makespan_ns / 1000.0, sim_uj(sim_total(r)),
			sim_uj(r->e_busy), sim_uj(r->e_idle), sim_uj(r->e_wake),
			us(r->lat_p50_ns), us(r->lat_p99_ns), us(r->lat_max_ns),
			(unsigned long long)r->wakeups,
			(unsigned long long)r->pkg_wakeups,
			(unsigned long long)r->migrations,
			(unsigned long long)r->verdict[SIM_V_EARLY],
			(unsigned long long)r->verdict[SIM_V_HIT],
			(unsigned long long)r->verdict[SIM_V_LATE],
			(unsigned long long)r->events,
			(unsigned long long)r->decisions);
}

static const struct sim_result *find(const struct sim_result *r, u32 n,
				     const char *story, u32 policy)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (r[i].policy == policy && !strcmp(r[i].story, story))
			return &r[i];
	return NULL;
}

static void ratio(FILE *f, double num, const struct sim_result *d, bool energy)
{
	double den;

	if (!d) {
		fprintf(f, " %8s", "-");
		return;
	}
	den = energy ? sim_uj(sim_total(d)) : us(d->lat_p99_ns);
	if (den <= 0)
		fprintf(f, " %8s", num <= 0 ? "1.000" : "inf");
	else
		fprintf(f, " %8.3f", num / den);
}

void sim_report_ratios(FILE *f, const struct sim_result *r, u32 n)
{
	static const u32 base[] = { SIM_POL_SPREAD, SIM_POL_PACK, SIM_POL_EAS,
				    SIM_POL_LOWER_BOUND };
	u32 i, b;

	fprintf(f, "sp-power as a ratio to each baseline (energy: lower is better; "
		"p99 wake-up latency: lower is better)\n");
	fprintf(f, "%-12s %8s %8s %8s %8s | %8s %8s %8s\n", "story",
		"E/spread", "E/pack", "E/eas", "E/lb", "p99/sprd", "p99/pack", "p99/eas");
	for (i = 0; i < n; i++) {
		const struct sim_result *p = &r[i];

		if (p->policy != SIM_POL_SP_POWER)
			continue;
		fprintf(f, "%-12s", p->story);
		for (b = 0; b < SP_ARRAY_SIZE(base); b++)
			ratio(f, sim_uj(sim_total(p)), find(r, n, p->story, base[b]), true);
		fprintf(f, " |");
		for (b = 0; b + 1 < SP_ARRAY_SIZE(base); b++)
			ratio(f, us(p->lat_p99_ns), find(r, n, p->story, base[b]), false);
		fprintf(f, "\n");
	}
}

int sim_report_plotdata(const char *dir, const struct sim_result *r, u32 n)
{
	char path[512];
	FILE *f = NULL;
	u32 i;

	for (i = 0; i < n; i++, r++) {
		if (is_lb(r))
			continue;
		if (!i || strcmp(r->story, r[-1].story)) {
			if (f)
				fclose(f);
			snprintf(path, sizeof(path), "%s/%s.dat", dir, r->story);
			f = fopen(path, "w");
			if (!f) {
				fprintf(stderr, "%s: %s\n", path, strerror(errno));
				return -1;
			}
			fprintf(f, "# policy energy_mJ p99_us\n");
		}
		fprintf(f, "%s %.3f %.1f\n", sim_policy_names[r->policy],
			mj(sim_total(r)), us(r->lat_p99_ns));
	}
	if (f)
		fclose(f);
	return 0;
}

int sim_model_load(const char *path, struct sp_model *m, char *err, size_t len)
{
	static char text[SP_MODEL_TEXT_MAX + 1];
	struct sp_parse_error pe;
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	n = fread(text, 1, sizeof(text), f);
	fclose(f);
	if (n > SP_MODEL_TEXT_MAX) {
		snprintf(err, len, "%s: larger than %d bytes", path, SP_MODEL_TEXT_MAX);
		return -1;
	}
	if (sp_model_parse(text, n, m, &pe)) {
		snprintf(err, len, "%s:%d: %s: %s", path, pe.line, pe.field,
			 pe.msg ? pe.msg : "invalid");
		return -1;
	}
	return 0;
}
