// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - results as text tables, CSV, ratios, metrics, plot data.
 *
 * Energies print in mJ with uJ resolution, times in ms or us; every value
 * comes from integers through one fixed conversion, so equal runs print
 * equal bytes.  Results arrive grouped by story, policies in a fixed order.
 *
 * DOC: the validation metrics
 *
 * The four numbers the kernel comparison uses (tools/power-bench computes
 * the same from a trace of the real kernel; Documentation/simulator.rst
 * gives both sides):
 *
 *	prev_pkg	of the task wake-ups that have a previous CPU (forks
 *			excluded), the share placed on a CPU of the package of
 *			the CPU the task last ran on
 *	migr_per_s	changes of a task's CPU (placement and load balancing,
 *			the kernel's sched_migrate_task; forks excluded) per
 *			second of makespan
 *	all_awake	the share of the makespan during which every package has
 *			at least one CPU out of idle (from its wake-up to its
 *			next idle entry)
 *	acct_mJ		the energy the module's own accounting (core/sp_acct.c)
 *			reports for the run's idle entries and exits
 *
 * and, in the CSV, the wake-up choices behind prev_pkg: of the wake-ups
 * with a previous CPU, those placed on it (wake_on_prev), on the waker's
 * CPU (wake_on_waker), on a CPU that already runs or queues a task
 * (wake_queued), and of those the ones queued while a CPU of the same
 * package (wake_queued_idle_pkg), or only of another package
 * (wake_queued_idle_far), was idle.
 *
 * The table (not the CSV) also gives wake_queued ("queued") and, of those,
 * the wake-ups queued while another CPU was idle in an awake package
 * ("q_awake", wake_queued_idle_awake_pkg): the defects of the latency rule
 * "a wake-up that waits behind a running task while an idle CPU in an awake
 * package exists", as sp-report counts them in a recording.  Awake is the
 * hardware's state (a CPU of the package out of its pd's deepest idle
 * state, or powering up); the package is the metrics' level (topo.c).
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

static double ms(u64 ns)
{
	return (double)(ns / 1000) / 1000.0;
}

static bool is_lb(const struct sim_result *r)
{
	return r->policy == SIM_POL_LOWER_BOUND;
}

/*
 * An oracle row without a schedule: the oracle does not apply to the story
 * ("n/a"), or no schedule meets oracle-lat's bounds ("none").
 */
static bool is_na(const struct sim_result *r)
{
	return r->policy >= SIM_POL_ORACLE && r->policy <= SIM_POL_ORACLE_LAT_SU &&
	       !r->makespan_ns;
}

static const char *na_text(const struct sim_result *r)
{
	return r->plan[0] ? r->plan : "n/a";
}

double sim_metric_prev_pkg(const struct sim_result *r)
{
	return r->wake_placed ? (double)r->wake_prev_pkg / (double)r->wake_placed : 0;
}

double sim_metric_migr_per_s(const struct sim_result *r)
{
	return r->makespan_ns ? (double)r->migrations * 1e9 / (double)r->makespan_ns : 0;
}

double sim_metric_all_awake(const struct sim_result *r)
{
	return r->makespan_ns ? (double)r->all_pkgs_awake_ns / (double)r->makespan_ns : 0;
}

void sim_report_text(FILE *f, const struct sim_result *r, u32 n)
{
	u32 i;

	fprintf(f, "%-12s %-14s %10s %11s %11s %11s %10s %9s %9s %9s %6s %7s %7s %7s %7s %9s\n",
		"story", "policy", "makespan_ms", "energy_mJ", "busy_mJ", "idle_mJ",
		"wake_mJ", "p50_us", "p99_us", "max_us", "pkgwk", "migr",
		"early", "hit", "late", "events");
	for (i = 0; i < n; i++, r++) {
		if (is_na(r)) {
			fprintf(f, "%-12s %-14s %10s\n", r->story, sim_policy_names[r->policy],
				na_text(r));
			continue;
		}
		fprintf(f, "%-12s %-14s %10.3f %11.3f %11.3f %11.3f %10.3f",
			r->story, sim_policy_names[r->policy], ms(r->makespan_ns),
			mj(sim_total(r)), mj(r->e_busy), mj(r->e_idle), mj(r->e_wake));
		if (is_lb(r)) {
			fprintf(f, " %9s %9s %9s %6s %7s %7s %7s %7s %9s\n",
				"-", "-", "-", "-", "-", "-", "-", "-", "-");
			continue;
		}
		fprintf(f, " %9.1f %9.1f %9.1f %6llu %7llu %7llu %7llu %7llu %9llu\n",
			us(r->lat_p50_ns), us(r->lat_p99_ns), us(r->lat_max_ns),
			(unsigned long long)r->pkg_wakeups,
			(unsigned long long)r->migrations,
			(unsigned long long)r->verdict[0], (unsigned long long)r->verdict[1],
			(unsigned long long)r->verdict[2], (unsigned long long)r->events);
	}
}

void sim_report_csv(FILE *f, const struct sim_result *r, u32 n)
{
	u32 i;

	fprintf(f, "story,policy,makespan_us,energy_uj,busy_uj,idle_uj,wake_uj,"
		"p50_us,p99_us,max_us,wakeups,pkg_wakeups,migrations,early,hit,late,"
		"events,decisions,prev_pkg_share,migr_per_s,all_pkgs_awake_share,"
		"acct_energy_uj,lb_pulled,lb_active,ilb_kicks,irq_wakes,searched,plan,"
		"lb_gated,lb_gate_passed,wake_placed,wake_on_prev,wake_on_waker,wake_queued,"
		"wake_queued_idle_pkg,wake_queued_idle_far,work_us\n");
	for (i = 0; i < n; i++, r++) {
		if (is_na(r)) {
			fprintf(f, "%s,%s,,,,,,,,,,,,,,,,,,,,,,,,,%u,%s,,,,,,,,,\n", r->story,
				sim_policy_names[r->policy], r->searched, na_text(r));
			continue;
		}
		fprintf(f, "%s,%s,%.3f,%.0f,%.0f,%.0f,%.0f,%.1f,%.1f,%.1f,%llu,%llu,%llu,"
			"%llu,%llu,%llu,%llu,%llu,%.4f,%.2f,%.4f,%.0f,%llu,%llu,%llu,%llu,%u,%s,"
			"%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n",
			r->story, sim_policy_names[r->policy],
			(double)r->makespan_ns / 1000.0, sim_uj(sim_total(r)),
			sim_uj(r->e_busy), sim_uj(r->e_idle), sim_uj(r->e_wake),
			us(r->lat_p50_ns), us(r->lat_p99_ns), us(r->lat_max_ns),
			(unsigned long long)r->wakeups, (unsigned long long)r->pkg_wakeups,
			(unsigned long long)r->migrations,
			(unsigned long long)r->verdict[0], (unsigned long long)r->verdict[1],
			(unsigned long long)r->verdict[2], (unsigned long long)r->events,
			(unsigned long long)r->decisions, sim_metric_prev_pkg(r),
			sim_metric_migr_per_s(r), sim_metric_all_awake(r), sim_uj(r->e_acct),
			(unsigned long long)r->lb_pulled, (unsigned long long)r->lb_active,
			(unsigned long long)r->ilb_kicks, (unsigned long long)r->irq_wakes,
			r->searched, r->plan[0] ? r->plan : "-",
			(unsigned long long)r->lb_gated, (unsigned long long)r->lb_gate_passed,
			(unsigned long long)r->wake_placed, (unsigned long long)r->wake_on_prev,
			(unsigned long long)r->wake_on_waker, (unsigned long long)r->wake_queued,
			(unsigned long long)r->wake_queued_idle_pkg,
			(unsigned long long)r->wake_queued_idle_far,
			(unsigned long long)(r->work_ns / 1000));
	}
}

static const struct sim_result *find(const struct sim_result *r, u32 n,
				     const char *story, u32 policy)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (r[i].policy == policy && !strcmp(r[i].story, story))
			return is_na(&r[i]) ? NULL : &r[i];
	return NULL;
}

enum { R_ENERGY, R_P99, R_MAKESPAN };

static double value(const struct sim_result *r, u32 what)
{
	if (what == R_ENERGY)
		return sim_uj(sim_total(r));
	if (what == R_P99)
		return us(r->lat_p99_ns);
	return (double)r->makespan_ns;
}

static void ratio(FILE *f, const struct sim_result *p, const struct sim_result *d,
		  u32 what)
{
	double num, den;

	if (!d || (what == R_P99 && is_lb(d))) {
		fprintf(f, " %7s", "-");
		return;
	}
	num = value(p, what);
	den = value(d, what);
	if (den <= 0)
		fprintf(f, " %7s", num <= 0 ? "1.000" : "inf");
	else
		fprintf(f, " %7.3f", num / den);
}

static const u32 ratio_base[] = { SIM_POL_CFS, SIM_POL_SPREAD, SIM_POL_PACK,
				  SIM_POL_EAS, SIM_POL_ORACLE, SIM_POL_ORACLE_LAT,
				  SIM_POL_LOWER_BOUND };

static void ratios_of(FILE *f, const struct sim_result *r, u32 n, u32 pol)
{
	static const char *const hdr[] = { "cfs", "spread", "pack", "eas", "oracle", "olat",
					   "lb" };
	static const char *const what[] = { "E", "p99", "mk" };
	u32 i, b, w;

	fprintf(f, "%s as a ratio to each baseline (lower is better): energy | "
		"p99 wake-up latency | makespan\n", sim_policy_names[pol]);
	fprintf(f, "%-12s", "story");
	for (w = 0; w < 3; w++) {
		for (b = 0; b < SP_ARRAY_SIZE(ratio_base); b++) {
			char h[16];

			if (w && ratio_base[b] == SIM_POL_LOWER_BOUND)
				continue;
			snprintf(h, sizeof(h), "%s/%s", what[w], hdr[b]);
			fprintf(f, " %7.7s", h);
		}
		fprintf(f, w < 2 ? " |" : "\n");
	}
	for (i = 0; i < n; i++) {
		const struct sim_result *p = &r[i];

		if (p->policy != pol)
			continue;
		fprintf(f, "%-12s", p->story);
		for (w = 0; w < 3; w++) {
			for (b = 0; b < SP_ARRAY_SIZE(ratio_base); b++) {
				if (w && ratio_base[b] == SIM_POL_LOWER_BOUND)
					continue;
				ratio(f, p, find(r, n, p->story, ratio_base[b]), w);
			}
			fprintf(f, w < 2 ? " |" : "\n");
		}
	}
}

void sim_report_ratios(FILE *f, const struct sim_result *r, u32 n)
{
	u32 pol, i;
	bool first = true;

	for (pol = SIM_POL_SP_OBSERVE; pol <= SIM_POL_SP_PERFORMANCE; pol++) {
		for (i = 0; i < n && r[i].policy != pol; i++)
			;
		if (i == n)
			continue;
		if (!first)
			fprintf(f, "\n");
		ratios_of(f, r, n, pol);
		first = false;
	}
}

void sim_report_metrics(FILE *f, const struct sim_result *r, u32 n)
{
	u32 i;

	fprintf(f, "validation metrics (Documentation/simulator.rst)\n");
	fprintf(f, "%-12s %-14s %9s %10s %10s %10s %8s %7s %6s %8s %7s %8s %8s\n", "story",
		"policy", "prev_pkg", "migr_per_s", "all_awake", "acct_mJ", "lb_pull", "ilb",
		"irqwk", "gated", "gt_pass", "queued", "q_awake");
	for (i = 0; i < n; i++, r++) {
		if (is_lb(r) || is_na(r))
			continue;
		fprintf(f, "%-12s %-14s %9.3f %10.2f %10.3f %10.3f %8llu %7llu %6llu %8llu %7llu"
			" %8llu %8llu\n",
			r->story, sim_policy_names[r->policy], sim_metric_prev_pkg(r),
			sim_metric_migr_per_s(r), sim_metric_all_awake(r), mj(r->e_acct),
			(unsigned long long)r->lb_pulled, (unsigned long long)r->ilb_kicks,
			(unsigned long long)r->irq_wakes, (unsigned long long)r->lb_gated,
			(unsigned long long)r->lb_gate_passed, (unsigned long long)r->wake_queued,
			(unsigned long long)r->wake_queued_idle_awake_pkg);
	}
}

int sim_report_plotdata(const char *dir, const struct sim_result *r, u32 n)
{
	char path[512];
	FILE *f = NULL;
	u32 i;

	for (i = 0; i < n; i++, r++) {
		if (is_lb(r) || is_na(r))
			continue;
		if (!f || strcmp(r->story, r[-1].story)) {
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
