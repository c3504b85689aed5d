// SPDX-License-Identifier: GPL-2.0
/*
 * print.c - sp-report's text table, CSV and JSON.
 *
 * Every column is described in Documentation/sp-report.rst and
 * `sp-report --help`.  Energies are uJ (the module's energy file uses the
 * same unit), times ms unless the name says us, power mW.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

static double rep_pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static double rep_uj(uint64_t nj)
{
	return (double)nj / 1000.0;
}

static double rep_ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static double rep_span_s(const struct rep_result *r)
{
	return (double)(r->end_ns - r->start_ns) / 1e9;
}

static uint64_t rep_count_events(const struct rep_trace *t, enum rep_kind k)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < t->nr; i++)
		n += t->ev[i].kind == k;
	return n;
}

const char *rep_format_name(const struct rep_trace *t)
{
	if (t->fmt.v01)
		return "0.1";
	if (t->fmt.has_model_cpu)
		return "0.4";
	return t->fmt.has_static ? "0.3" : "0.2";
}

/* Tasks ordered by wake-ups, then decisions, then pid. */
static int rep_task_cmp(const void *a, const void *b)
{
	const struct rep_task *x = *(const struct rep_task * const *)a;
	const struct rep_task *y = *(const struct rep_task * const *)b;

	if (x->lat_ns.nr != y->lat_ns.nr)
		return x->lat_ns.nr < y->lat_ns.nr ? 1 : -1;
	if (x->decisions != y->decisions)
		return x->decisions < y->decisions ? 1 : -1;
	return x->pid - y->pid;
}

/* A task that was only ever switched out says nothing: left out. */
static bool rep_task_seen(const struct rep_task *tk)
{
	return tk->lat_ns.nr || tk->decisions || tk->last_cpu != REP_NONE;
}

/* The tasks worth a row, most wake-ups first; their number in @n. */
static struct rep_task **rep_sorted_tasks(struct rep_result *r, size_t *n)
{
	struct rep_task **v = calloc(r->nr_tasks ? r->nr_tasks : 1, sizeof(*v));
	size_t i;

	*n = 0;
	if (!v)
		return NULL;
	for (i = 0; i < r->nr_tasks; i++)
		if (rep_task_seen(&r->tasks[i]))
			v[(*n)++] = &r->tasks[i];
	qsort(v, *n, sizeof(*v), rep_task_cmp);
	return v;
}

/* ---- text ---------------------------------------------------------------- */

static void rep_text_header(FILE *f, const struct rep_result *r)
{
	const struct rep_trace *t = r->t;

	fprintf(f, "sp-report: %s\n", r->path);
	fprintf(f, "  recording  %.3f s%s, %u CPUs, trace.dat v%s, %llu records, %llu lost%s\n",
		rep_span_s(r), r->win_from ? " between the --window markers" : "", r->nr_cpus,
		t->version, (unsigned long long)t->nr_records,
		(unsigned long long)t->lost, t->lost_pages ? " (and some pages of unknown size)" : "");
	fprintf(f, "  events     select %llu, sp_idle %llu, cpu_idle %llu, cpu_frequency %llu, "
		"sched_switch %llu, sched_waking %llu\n",
		(unsigned long long)rep_count_events(t, REP_EV_SELECT),
		(unsigned long long)rep_count_events(t, REP_EV_SP_IDLE),
		(unsigned long long)rep_count_events(t, REP_EV_CPU_IDLE),
		(unsigned long long)rep_count_events(t, REP_EV_CPU_FREQ),
		(unsigned long long)rep_count_events(t, REP_EV_SWITCH),
		(unsigned long long)(rep_count_events(t, REP_EV_WAKING) +
				     rep_count_events(t, REP_EV_WAKEUP_NEW)));
	fprintf(f, "  format     sched_power_select %s%s\n", rep_format_name(t),
		t->fmt.v01 ? " (older: no mode, applied, queue_us, lat_bound_us)" : "");
	fprintf(f, "  model      %s\n", r->model_path[0] ? r->model_path : "(none)");
}

static void rep_text_counts(FILE *f, const char *title, const struct rep_names *n,
			    const struct rep_count *c, const struct rep_count *total)
{
	uint32_t i;

	fprintf(f, "\n%-22s %10s %10s %6s %12s\n", title, "decisions", "overrides", "ovr%",
		"saved_uJ");
	for (i = 0; i < n->nr; i++) {
		if (!c[i].decisions)
			continue;
		fprintf(f, "%-22s %10llu %10llu %6.1f %12.1f\n", n->name[i],
			(unsigned long long)c[i].decisions, (unsigned long long)c[i].overrides,
			rep_pct(c[i].overrides, c[i].decisions), (double)c[i].saved_nj / 1000.0);
	}
	fprintf(f, "%-22s %10llu %10llu %6.1f %12.1f\n", "total",
		(unsigned long long)total->decisions, (unsigned long long)total->overrides,
		rep_pct(total->overrides, total->decisions), (double)total->saved_nj / 1000.0);
}

/* The mean util field of a task's decisions, -1 without any. */
static double rep_util_mean(const struct rep_task *tk)
{
	return tk->decisions ? (double)tk->util_sum / (double)tk->decisions : -1.0;
}

static void rep_text_task_row(FILE *f, int32_t pid, const char *comm, struct rep_vec *lat,
			      const char *cpus, uint64_t migr, uint64_t dec, uint64_t ovr,
			      double util)
{
	char p[16], u[16];

	if (pid >= 0)
		snprintf(p, sizeof(p), "%d", pid);
	else
		snprintf(p, sizeof(p), "-");
	if (util >= 0)
		snprintf(u, sizeof(u), "%.0f", util);
	else
		snprintf(u, sizeof(u), "-");
	fprintf(f, "%7s %-16s %8zu %-8s %6llu %8.1f %8.1f %8.1f %6llu %6llu %5s\n", p, comm,
		lat->nr, cpus, (unsigned long long)migr, (double)rep_pct_ns(lat, 50) / 1e3,
		(double)rep_pct_ns(lat, 99) / 1e3, (double)rep_pct_ns(lat, 100) / 1e3,
		(unsigned long long)dec, (unsigned long long)ovr, u);
}

static void rep_text_tasks(FILE *f, struct rep_result *r, uint32_t max)
{
	size_t i, n, nr_seen;
	struct rep_task **v = rep_sorted_tasks(r, &nr_seen);
	uint64_t migr = 0;
	char cpus[64];

	if (!v)
		return;
	n = max && nr_seen > max ? max : nr_seen;
	fprintf(f, "\nTasks (%zu of %zu, most wake-ups first%s)\n", n, nr_seen,
		n < nr_seen ? "; --tasks 0 lists all" : "");
	fprintf(f, "%7s %-16s %8s %-8s %6s %8s %8s %8s %6s %6s %5s\n", "pid", "comm", "wakeups",
		"cpus", "migr", "p50_us", "p99_us", "max_us", "dec", "ovr", "util");
	for (i = 0; i < n; i++) {
		rep_cpus_str(v[i]->cpus, r->nr_cpus ? r->nr_cpus : SP_MAX_CPUS, cpus, sizeof(cpus));
		rep_text_task_row(f, v[i]->pid, v[i]->comm[0] ? v[i]->comm : "-", &v[i]->lat_ns,
				  cpus[0] ? cpus : "-", v[i]->migrations, v[i]->decisions,
				  v[i]->overrides, rep_util_mean(v[i]));
	}
	for (i = 0; i < r->nr_tasks; i++)
		migr += r->tasks[i].migrations;
	rep_text_task_row(f, -1, "(all tasks)", &r->all_lat_ns, "-", migr,
			  r->total.decisions, r->total.overrides, -1.0);
	free(v);
}

static void rep_text_energy(FILE *f, const struct rep_result *r)
{
	double span_ms = rep_ms(r->end_ns - r->start_ns);
	uint32_t i;

	fprintf(f, "\nPackages (level %s; modelled from power:cpu_idle)\n", r->pkg_level);
	fprintf(f, "%-4s %-6s %9s %6s %7s %8s %10s %10s %10s %9s %10s %10s %8s\n", "pkg", "cpus",
		"awake_ms", "awake%", "wakeups", "cpu_wkup", "busy_uJ", "pstate_uJ", "idle_uJ",
		"wake_uJ", "shared_uJ", "total_uJ", "avg_mW");
	for (i = 0; i < r->nr_pkgs; i++) {
		const struct rep_pkg *p = &r->pkg[i];
		uint64_t shared = p->grp.busy_nj + p->grp.idle_nj;
		uint64_t wake = p->wake_nj + p->grp.wake_nj;
		uint64_t tot = p->busy_nj + p->idle_nj + wake + shared;

		fprintf(f, "%-4u %-6s %9.1f %6.1f %7llu %8llu %10.0f %10.0f %10.0f %9.0f %10.0f %10.0f %8.1f\n",
			p->id, p->cpus, (double)p->grp.busy_us / 1e3,
			span_ms > 0 ? 100.0 * (double)p->grp.busy_us / 1e3 / span_ms : 0.0,
			(unsigned long long)p->grp.wakeups, (unsigned long long)p->cpu_wakeups,
			rep_uj(p->busy_nj), rep_uj(p->pstate_nj), rep_uj(p->idle_nj), rep_uj(wake),
			rep_uj(shared), rep_uj(tot),
			span_ms > 0 ? (double)tot / 1e3 / span_ms : 0.0);
	}
	fprintf(f, "\n%-4s %9s %9s %6s %7s %10s %10s %10s %9s\n", "cpu", "busy_ms", "idle_ms",
		"busy%", "wakeups", "busy_uJ", "pstate_uJ", "idle_uJ", "wake_uJ");
	for (i = 0; i < r->model_cpus; i++) {
		const struct sp_energy_sum *s = &r->cpu_sum[i];
		uint64_t all = s->busy_us + s->idle_us;

		fprintf(f, "%-4u %9.1f %9.1f %6.1f %7llu %10.0f %10.0f %10.0f %9.0f\n", i,
			(double)s->busy_us / 1e3, (double)s->idle_us / 1e3, rep_pct(s->busy_us, all),
			(unsigned long long)s->wakeups, rep_uj(s->busy_nj), rep_uj(r->cpu_pstate_nj[i]),
			rep_uj(s->idle_nj), rep_uj(s->wake_nj));
	}
	fprintf(f, "total modelled energy %.0f uJ over %.1f ms = %.1f mW average\n",
		rep_uj(r->total_nj), span_ms, span_ms > 0 ? rep_uj(r->total_nj) / span_ms : 0.0);
	if (r->idle_exits_unseen)
		fprintf(f, "(%llu idle exits without their entry were skipped)\n",
			(unsigned long long)r->idle_exits_unseen);
}

static void rep_text_bound(FILE *f, const struct rep_result *r)
{
	const struct rep_trace *t = r->t;

	fprintf(f, "\nLatency bound\n");
	fprintf(f, "  reason latency_bound       %llu decisions (CFS's CPU could not wake in time)\n",
		(unsigned long long)r->reason_latency_bound);
	if (!t->fmt.has_lat_bound) {
		fprintf(f, "  bounded decisions          - (older event format: no lat_bound_us)\n");
		return;
	}
	fprintf(f, "  bounded decisions          %llu (lat_bound_us > 0)\n",
		(unsigned long long)r->bounded);
	if (r->energy)
		fprintf(f, "  modelled violations        %llu (returned CPU's wake-up + queue > bound)\n",
			(unsigned long long)r->bound_model_violations);
	else
		fprintf(f, "  modelled violations        - (no power:cpu_idle events)\n");
	fprintf(f, "  measured violations        %llu of %llu measured (waking to switch-in > bound)\n",
		(unsigned long long)r->bound_measured_violations,
		(unsigned long long)r->bound_measured);
}

static void rep_text_verdicts(FILE *f, const struct rep_result *r)
{
	uint32_t i;

	fprintf(f, "\nIdle verdicts (sched_power_idle)\n");
	fprintf(f, "%-8s %9s %8s %12s %8s %8s %8s %6s %6s %6s\n", "state", "target_us", "stays",
		"residency_ms", "early", "hit", "late", "early%", "hit%", "late%");
	for (i = 0; i < r->nr_vstates; i++) {
		const struct rep_state_verdict *v = &r->vstate[i];

		fprintf(f, "%-8s %9llu %8llu %12.1f %8llu %8llu %8llu %6.1f %6.1f %6.1f\n", v->name,
			(unsigned long long)v->target_us, (unsigned long long)v->entries,
			(double)v->residency_us / 1e3, (unsigned long long)v->verdict[SP_V_EARLY],
			(unsigned long long)v->verdict[SP_V_HIT],
			(unsigned long long)v->verdict[SP_V_LATE],
			rep_pct(v->verdict[SP_V_EARLY], v->entries),
			rep_pct(v->verdict[SP_V_HIT], v->entries),
			rep_pct(v->verdict[SP_V_LATE], v->entries));
	}
	if (!r->nr_vstates)
		fprintf(f, "(no sched_power_idle events)\n");
}

void rep_print_text(FILE *f, struct rep_result *r, const struct rep_opts *o)
{
	const struct rep_trace *t = r->t;

	rep_text_header(f, r);
	rep_text_counts(f, "Decisions by reason", &t->reasons, r->by_reason, &r->total);
	if (t->fmt.has_mode)
		rep_text_counts(f, "By mode", &t->modes, r->by_mode, &r->total);
	else
		fprintf(f, "\nBy mode: - (older event format: no mode field)\n");
	rep_text_counts(f, "By wake type", &t->wakes, r->by_wake, &r->total);
	if (t->fmt.has_switch)
		rep_text_tasks(f, r, o->max_tasks);
	else
		fprintf(f, "\nTasks: - (no sched:sched_switch events recorded)\n");
	if (r->energy)
		rep_text_energy(f, r);
	else
		fprintf(f, "\nPackages: - (%s)\n", !r->model_path[0] ? "no model" :
			"no power:cpu_idle events recorded");
	rep_text_bound(f, r);
	rep_text_verdicts(f, r);
}

/* ---- CSV ----------------------------------------------------------------- */

static void rep_csv_counts(FILE *f, const char *table, const char *key,
			   const struct rep_names *n, const struct rep_count *c)
{
	uint32_t i;

	fprintf(f, "\ntable,%s,decisions,overrides,override_pct,saved_uj\n", key);
	for (i = 0; i < n->nr; i++)
		if (c[i].decisions)
			fprintf(f, "%s,%s,%llu,%llu,%.2f,%.1f\n", table, n->name[i],
				(unsigned long long)c[i].decisions,
				(unsigned long long)c[i].overrides,
				rep_pct(c[i].overrides, c[i].decisions), (double)c[i].saved_nj / 1e3);
}

static void rep_csv_tasks(FILE *f, struct rep_result *r)
{
	size_t i, n;
	struct rep_task **v = rep_sorted_tasks(r, &n);
	char cpus[64];

	if (!v)
		return;
	fprintf(f, "\ntable,pid,comm,wakeups,cpus,migrations,p50_us,p99_us,max_us,decisions,overrides,util_mean\n");
	for (i = 0; i < n; i++) {
		struct rep_task *tk = v[i];

		rep_cpus_str(tk->cpus, r->nr_cpus ? r->nr_cpus : SP_MAX_CPUS, cpus, sizeof(cpus));
		fprintf(f, "task,%d,\"%s\",%zu,\"%s\",%llu,%.1f,%.1f,%.1f,%llu,%llu,%.1f\n", tk->pid,
			tk->comm, tk->lat_ns.nr, cpus, (unsigned long long)tk->migrations,
			(double)rep_pct_ns(&tk->lat_ns, 50) / 1e3,
			(double)rep_pct_ns(&tk->lat_ns, 99) / 1e3,
			(double)rep_pct_ns(&tk->lat_ns, 100) / 1e3,
			(unsigned long long)tk->decisions, (unsigned long long)tk->overrides,
			rep_util_mean(tk));
	}
	free(v);
}

static void rep_csv_energy(FILE *f, const struct rep_result *r)
{
	uint32_t i;

	fprintf(f, "\ntable,pkg,cpus,awake_ms,wakeups,cpu_wakeups,busy_uj,pstate_uj,idle_uj,"
		"wake_uj,shared_uj,total_uj\n");
	for (i = 0; i < r->nr_pkgs; i++) {
		const struct rep_pkg *p = &r->pkg[i];
		uint64_t shared = p->grp.busy_nj + p->grp.idle_nj;
		uint64_t wake = p->wake_nj + p->grp.wake_nj;

		fprintf(f, "package,%u,\"%s\",%.3f,%llu,%llu,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f\n", p->id,
			p->cpus, (double)p->grp.busy_us / 1e3, (unsigned long long)p->grp.wakeups,
			(unsigned long long)p->cpu_wakeups, rep_uj(p->busy_nj), rep_uj(p->pstate_nj),
			rep_uj(p->idle_nj), rep_uj(wake), rep_uj(shared),
			rep_uj(p->busy_nj + p->idle_nj + wake + shared));
	}
	fprintf(f, "\ntable,cpu,busy_ms,idle_ms,wakeups,busy_uj,pstate_uj,idle_uj,wake_uj\n");
	for (i = 0; i < r->model_cpus; i++) {
		const struct sp_energy_sum *s = &r->cpu_sum[i];

		fprintf(f, "cpu,%u,%.3f,%.3f,%llu,%.1f,%.1f,%.1f,%.1f\n", i, (double)s->busy_us / 1e3,
			(double)s->idle_us / 1e3, (unsigned long long)s->wakeups, rep_uj(s->busy_nj),
			rep_uj(r->cpu_pstate_nj[i]), rep_uj(s->idle_nj), rep_uj(s->wake_nj));
	}
}

static void rep_csv_verdicts(FILE *f, const struct rep_result *r)
{
	uint32_t i;

	fprintf(f, "\ntable,state,target_us,stays,residency_ms,early,hit,late\n");
	for (i = 0; i < r->nr_vstates; i++) {
		const struct rep_state_verdict *v = &r->vstate[i];

		fprintf(f, "idle,%s,%llu,%llu,%.3f,%llu,%llu,%llu\n", v->name,
			(unsigned long long)v->target_us, (unsigned long long)v->entries,
			(double)v->residency_us / 1e3, (unsigned long long)v->verdict[SP_V_EARLY],
			(unsigned long long)v->verdict[SP_V_HIT],
			(unsigned long long)v->verdict[SP_V_LATE]);
	}
}

void rep_print_csv(FILE *f, struct rep_result *r)
{
	const struct rep_trace *t = r->t;

	fprintf(f, "table,file,format,cpus,span_ms,records,lost,decisions,overrides,"
		"total_uj,bounded,bound_model_violations,bound_measured_violations\n");
	fprintf(f, "summary,\"%s\",%s,%u,%.3f,%llu,%llu,%llu,%llu,%.1f,%llu,%llu,%llu\n", r->path,
		rep_format_name(t), r->nr_cpus, rep_ms(r->end_ns - r->start_ns),
		(unsigned long long)t->nr_records, (unsigned long long)t->lost,
		(unsigned long long)r->total.decisions, (unsigned long long)r->total.overrides,
		rep_uj(r->total_nj), (unsigned long long)r->bounded,
		(unsigned long long)r->bound_model_violations,
		(unsigned long long)r->bound_measured_violations);
	rep_csv_counts(f, "reason", "reason", &t->reasons, r->by_reason);
	rep_csv_counts(f, "mode", "mode", &t->modes, r->by_mode);
	rep_csv_counts(f, "wake", "wake", &t->wakes, r->by_wake);
	rep_csv_tasks(f, r);
	if (r->energy)
		rep_csv_energy(f, r);
	rep_csv_verdicts(f, r);
}

/* ---- JSON ---------------------------------------------------------------- */

static void rep_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20 || ch >= 0x7f)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void rep_json_counts(FILE *f, const char *key, const struct rep_names *n,
			    const struct rep_count *c)
{
	const char *sep = "";
	uint32_t i;

	fprintf(f, "  \"%s\": {", key);
	for (i = 0; i < n->nr; i++) {
		if (!c[i].decisions)
			continue;
		fprintf(f, "%s\n    ", sep);
		rep_json_str(f, n->name[i]);
		fprintf(f, ": {\"decisions\": %llu, \"overrides\": %llu, \"saved_uj\": %.1f}",
			(unsigned long long)c[i].decisions, (unsigned long long)c[i].overrides,
			(double)c[i].saved_nj / 1e3);
		sep = ",";
	}
	fprintf(f, "\n  },\n");
}

static void rep_json_tasks(FILE *f, struct rep_result *r)
{
	size_t i, n;
	struct rep_task **v = rep_sorted_tasks(r, &n);
	char cpus[64];

	fprintf(f, "  \"tasks\": [");
	for (i = 0; v && i < n; i++) {
		struct rep_task *tk = v[i];

		rep_cpus_str(tk->cpus, r->nr_cpus ? r->nr_cpus : SP_MAX_CPUS, cpus, sizeof(cpus));
		fprintf(f, "%s\n    {\"pid\": %d, \"comm\": ", i ? "," : "", tk->pid);
		rep_json_str(f, tk->comm);
		fprintf(f, ", \"wakeups\": %zu, \"cpus\": \"%s\", \"migrations\": %llu, "
			"\"p50_us\": %.1f, \"p99_us\": %.1f, \"max_us\": %.1f, "
			"\"decisions\": %llu, \"overrides\": %llu, \"util_mean\": %.1f}",
			tk->lat_ns.nr, cpus, (unsigned long long)tk->migrations,
			(double)rep_pct_ns(&tk->lat_ns, 50) / 1e3,
			(double)rep_pct_ns(&tk->lat_ns, 99) / 1e3,
			(double)rep_pct_ns(&tk->lat_ns, 100) / 1e3,
			(unsigned long long)tk->decisions, (unsigned long long)tk->overrides,
			rep_util_mean(tk));
	}
	fprintf(f, "\n  ],\n");
	free(v);
}

static void rep_json_energy(FILE *f, const struct rep_result *r)
{
	uint32_t i;

	fprintf(f, "  \"packages\": [");
	for (i = 0; r->energy && i < r->nr_pkgs; i++) {
		const struct rep_pkg *p = &r->pkg[i];

		fprintf(f, "%s\n    {\"pkg\": %u, \"cpus\": \"%s\", \"awake_ms\": %.3f, "
			"\"wakeups\": %llu, \"cpu_wakeups\": %llu, \"busy_uj\": %.1f, "
			"\"pstate_uj\": %.1f, \"idle_uj\": %.1f, \"wake_uj\": %.1f, "
			"\"shared_uj\": %.1f}", i ? "," : "", p->id, p->cpus,
			(double)p->grp.busy_us / 1e3, (unsigned long long)p->grp.wakeups,
			(unsigned long long)p->cpu_wakeups, rep_uj(p->busy_nj), rep_uj(p->pstate_nj),
			rep_uj(p->idle_nj), rep_uj(p->wake_nj + p->grp.wake_nj),
			rep_uj(p->grp.busy_nj + p->grp.idle_nj));
	}
	fprintf(f, "\n  ],\n  \"cpus\": [");
	for (i = 0; r->energy && i < r->model_cpus; i++) {
		const struct sp_energy_sum *s = &r->cpu_sum[i];

		fprintf(f, "%s\n    {\"cpu\": %u, \"busy_ms\": %.3f, \"idle_ms\": %.3f, "
			"\"wakeups\": %llu, \"busy_uj\": %.1f, \"pstate_uj\": %.1f, "
			"\"idle_uj\": %.1f, \"wake_uj\": %.1f}", i ? "," : "", i,
			(double)s->busy_us / 1e3, (double)s->idle_us / 1e3,
			(unsigned long long)s->wakeups, rep_uj(s->busy_nj),
			rep_uj(r->cpu_pstate_nj[i]), rep_uj(s->idle_nj), rep_uj(s->wake_nj));
	}
	fprintf(f, "\n  ],\n");
}

static void rep_json_verdicts(FILE *f, const struct rep_result *r)
{
	uint32_t i;

	fprintf(f, "  \"idle_verdicts\": [");
	for (i = 0; i < r->nr_vstates; i++) {
		const struct rep_state_verdict *v = &r->vstate[i];

		fprintf(f, "%s\n    {\"state\": ", i ? "," : "");
		rep_json_str(f, v->name);
		fprintf(f, ", \"target_us\": %llu, \"stays\": %llu, \"residency_ms\": %.3f, "
			"\"early\": %llu, \"hit\": %llu, \"late\": %llu}",
			(unsigned long long)v->target_us, (unsigned long long)v->entries,
			(double)v->residency_us / 1e3, (unsigned long long)v->verdict[SP_V_EARLY],
			(unsigned long long)v->verdict[SP_V_HIT],
			(unsigned long long)v->verdict[SP_V_LATE]);
	}
	fprintf(f, "\n  ]\n");
}

void rep_print_json(FILE *f, struct rep_result *r)
{
	const struct rep_trace *t = r->t;

	fprintf(f, "{\n  \"file\": ");
	rep_json_str(f, r->path);
	fprintf(f, ",\n  \"format\": \"%s\",\n  \"cpus\": %u,\n  \"span_ms\": %.3f,\n"
		"  \"records\": %llu,\n  \"lost\": %llu,\n  \"model\": ", rep_format_name(t),
		r->nr_cpus, rep_ms(r->end_ns - r->start_ns), (unsigned long long)t->nr_records,
		(unsigned long long)t->lost);
	rep_json_str(f, r->model_path);
	fprintf(f, ",\n  \"decisions\": %llu,\n  \"overrides\": %llu,\n  \"saved_uj\": %.1f,\n",
		(unsigned long long)r->total.decisions, (unsigned long long)r->total.overrides,
		(double)r->total.saved_nj / 1e3);
	rep_json_counts(f, "by_reason", &t->reasons, r->by_reason);
	rep_json_counts(f, "by_mode", &t->modes, r->by_mode);
	rep_json_counts(f, "by_wake", &t->wakes, r->by_wake);
	rep_json_tasks(f, r);
	fprintf(f, "  \"energy_modelled\": %s,\n  \"total_uj\": %.1f,\n",
		r->energy ? "true" : "false", rep_uj(r->total_nj));
	rep_json_energy(f, r);
	fprintf(f, "  \"latency_bound\": {\"reason_latency_bound\": %llu, \"bounded\": %llu, "
		"\"model_violations\": %llu, \"measured\": %llu, \"measured_violations\": %llu},\n",
		(unsigned long long)r->reason_latency_bound, (unsigned long long)r->bounded,
		(unsigned long long)r->bound_model_violations, (unsigned long long)r->bound_measured,
		(unsigned long long)r->bound_measured_violations);
	rep_json_verdicts(f, r);
	fprintf(f, "}\n");
}
