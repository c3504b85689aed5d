// SPDX-License-Identifier: GPL-2.0
/*
 * pb_stats.c - power-bench's report: the runs in, a table, CSV or JSON out.
 *
 *   pb-stats [--fmt table|csv|json] [--ref CONFIG[,CONFIG...]] [--max-rep N]
 *            [--kernel K] [--machine M] [--date D] RUNS
 *
 * RUNS holds one "pb-result key=value ..." line per run: what pb-run.sh
 * measured in the guest or on the board, with sp-report --counts' keys
 * appended on the host.  Other lines are ignored.
 *
 * Per story and configuration: the median of every metric over the
 * repetitions whose status is ok and whose recording covers the run's
 * window without lost events (pb_status()).  Against each reference configuration
 * (--ref, a comma list; default those of not_loaded, eas, cfs and
 * observe_freq that ran, else the first configuration): for the metrics of
 * pb_interval_metrics[], the ratio of sums over the repetitions in which
 * both ran ok (paired: repetition r of a configuration against repetition
 * r of the reference, played back to back), with its bootstrap 95 %
 * interval (tools/lib/boot_ci.c) and a verdict, "lower" or "higher", only
 * where the interval excludes 1; otherwise "cannot tell".  CSV and JSON
 * give every story and configuration once per reference.  --max-rep N
 * takes repetitions 1..N only (what fewer repetitions would have given).
 * Documentation/power-bench.rst explains every column.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot_ci.h"

#define PB_MAX_KV	128
#define PB_MAX_GROUPS	256
#define PB_MAX_REPS	256
#define PB_NAME		64
#define PB_MIN_PAIRS	3	/* fewer pairs: a ratio, no interval, no verdict */
#define PB_MAX_REFS	8

struct pb_run {
	char story[PB_NAME], config[PB_NAME];
	int rep;
	int ok;
	const char *status;		/* status, or what the counts say is wrong */
	char *line;			/* the line, for its key=value pairs */
	const char *key[PB_MAX_KV], *val[PB_MAX_KV];
	int nkv;
};

struct pb_group {
	const char *story, *config;
	struct pb_run *run[PB_MAX_REPS];	/* ok runs */
	int nok, nrun;
	char failed[256];		/* " REP:STATUS" of the others */
};

/* Medians of these, in this order (CSV and JSON). */
static const char *const pb_metrics[] = {
	"makespan_us", "energy_uj", "est_uj", "est_busy_uj", "est_stretch_uj", "est_max_uj",
	"acct_uj", "model_uj",
	"meter_uj", "rapl_uj", "hwmon_uj", "lat_p50_us", "lat_p99_us", "lat_max_us",
	"wakeups", "pkg_wakeups", "pkg_wakeups_per_s", "pkg_awake_share",
	"pkg0_awake_share", "pkg1_awake_share", "pkg2_awake_share", "pkg3_awake_share",
	"all_pkgs_awake_share", "mod_pkg_wakeups", "migrations", "migrations_per_s",
	"xpkg_migrations", "xpkg_migrations_per_s", "prev_pkg_share", "prev_pkg_share_ttwu",
	"select_wakeups", "wake_judged", "wake_queued", "wake_queued_per_s",
	"wake_queued_idle_pkg_per_s", "wake_queued_idle_far_per_s", "wake_queued_idle_awake_pkg",
	"wake_queued_idle_awake_pkg_per_s", "story_run_ms", "pkg0_run_share", "pkg1_run_share", "verdict_early", "verdict_hit", "verdict_late", "decisions",
	"overrides", "energy_window_us", "run_s",
};

/* Text values: the first seen in the group's ok runs. */
static const char *const pb_texts[] = {
	"energy_src", "migr_src", "prev_pkg_src", "pkg_level", "hook", "idle_driver",
	"cpufreq", "eas",
};

/* Ratios to the reference with intervals, and their short names. */
static const struct {
	const char *key, *name;
} pb_interval_metrics[] = {
	{ "est_uj", "energy_est" },
	{ "est_busy_uj", "energy_est_busy" },
	{ "est_max_uj", "energy_est_max" },
	{ "energy_uj", "energy" },
	{ "pkg_wakeups_per_s", "pkg_wakeups_per_s" },
	{ "pkg_awake_share", "pkg_awake_share" },
	{ "pkg0_awake_share", "pkg0_awake_share" },
	{ "pkg1_awake_share", "pkg1_awake_share" },
	{ "all_pkgs_awake_share", "all_pkgs_awake_share" },
	{ "xpkg_migrations_per_s", "xpkg_migrations_per_s" },
	{ "lat_p50_us", "lat_p50" },
	{ "lat_p99_us", "lat_p99" },
	{ "makespan_us", "makespan" },
	{ "wake_queued_per_s", "queued_per_s" },
	{ "wake_queued_idle_awake_pkg_per_s", "queued_awake_per_s" },
	{ "wake_queued_idle_far_per_s", "queued_far_per_s" },
};

#define NR(a)	(sizeof(a) / sizeof((a)[0]))
#define NR_IV	NR(pb_interval_metrics)

struct pb_iv {
	int n;				/* pairs */
	int ok;				/* a ratio exists */
	int wide;			/* too few pairs for an interval */
	struct boot_ci ci;
};

static struct pb_run *runs;
static size_t nruns, capruns;
static struct pb_group groups[PB_MAX_GROUPS];
static int ngroups;
static const char *stories[PB_MAX_GROUPS], *configs[PB_MAX_GROUPS];
static int nstories, nconfigs;
static const char *refs[PB_MAX_REFS];
static int nrefs;
static int max_rep;		/* 0: every repetition */
static const char *meta_kernel = "-", *meta_machine = "-", *meta_date = "-";

/* ---- reading ------------------------------------------------------------ */

static const char *pb_get(const struct pb_run *r, const char *key)
{
	int i;

	for (i = 0; i < r->nkv; i++)
		if (!strcmp(r->key[i], key))
			return r->val[i];
	return NULL;
}

/* @v as a number; 0 if it is not one ("-", empty, text). */
static int pb_num(const char *v, double *out)
{
	char *end;

	if (!v || !*v || !strcmp(v, "-"))
		return 0;
	*out = strtod(v, &end);
	return !*end && isfinite(*out);
}

/* Split @line (modified) into key=value pairs; the last of a key wins. */
static void pb_split(struct pb_run *r, char *line)
{
	char *tok, *save = NULL, *eq;
	int i;

	r->nkv = 0;
	for (tok = strtok_r(line, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
		eq = strchr(tok, '=');
		if (!eq || eq == tok)
			continue;
		*eq = 0;
		for (i = 0; i < r->nkv && strcmp(r->key[i], tok); i++)
			;
		if (i == r->nkv) {
			if (r->nkv == PB_MAX_KV)
				continue;
			r->nkv++;
		}
		r->key[i] = tok;
		r->val[i] = eq + 1;
	}
}

/*
 * The run's status: the guest's (or the host's no_counts), and for a run
 * the guest found ok, what sp-report's counts say: trace_short when the
 * recording does not cover W (its counts miss part of W while the rates
 * divide by all of it), trace_lost when the recording lost events (the
 * last trace_lost is sp-report's, appended after the guest's).
 */
static const char *pb_status(const struct pb_run *r)
{
	const char *st = pb_get(r, "status"), *ts = pb_get(r, "trace_status");
	const char *lost = pb_get(r, "trace_lost");

	if (!st || strcmp(st, "ok"))
		return st ? st : "?";
	if (ts && strcmp(ts, "ok"))
		return !strcmp(ts, "short") ? "trace_short" : "no_counts";
	if (lost && strcmp(lost, "0") && strcmp(lost, "-"))
		return "trace_lost";
	return st;
}

static int pb_add_run(const char *text)
{
	struct pb_run *r;
	const char *s, *c, *rep;

	if (nruns == capruns) {
		size_t cap = capruns ? capruns * 2 : 64;
		struct pb_run *p = realloc(runs, cap * sizeof(*p));

		if (!p)
			return -1;
		runs = p;
		capruns = cap;
	}
	r = &runs[nruns];
	memset(r, 0, sizeof(*r));
	r->line = strdup(text);
	if (!r->line)
		return -1;
	pb_split(r, r->line);
	s = pb_get(r, "story");
	c = pb_get(r, "config");
	rep = pb_get(r, "rep");
	if (!s || !c || !rep) {
		free(r->line);
		return 0;	/* not a run line */
	}
	snprintf(r->story, sizeof(r->story), "%s", s);
	snprintf(r->config, sizeof(r->config), "%s", c);
	r->rep = atoi(rep);
	r->status = pb_status(r);
	r->ok = !strcmp(r->status, "ok");
	if (max_rep && r->rep > max_rep) {
		free(r->line);
		return 0;
	}
	nruns++;
	return 0;
}

static int pb_read(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t len = 0;
	int ret = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	while (!ret && getline(&line, &len, f) > 0)
		if (!strncmp(line, "pb-result ", 10))
			ret = pb_add_run(line + 10);
	free(line);
	fclose(f);
	return ret;
}

/* ---- grouping ------------------------------------------------------------ */

static const char *const pb_config_order[] = {
	"not_loaded", "observe", "power", "balanced", "performance",
	"eas", "eas_observe", "cfs", "observe_freq", "power_freq", "power_nogate_freq",
	"balanced_freq",
};

/*
 * The default references, those of them that ran: no module, mainline EAS,
 * CFS under cpufreq, and sched_power observing under cpufreq (against which
 * power_freq and balanced_freq show what their overrides change, the hook's
 * own cost being the same).
 */
static const char *const pb_default_refs[] = { "not_loaded", "eas", "cfs", "observe_freq" };

static int pb_index(const char **list, int *n, const char *name)
{
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(list[i], name))
			return i;
	if (*n == PB_MAX_GROUPS)
		return -1;
	list[*n] = name;
	return (*n)++;
}

/* Configurations in their natural order, then the others as they came. */
static void pb_order_configs(void)
{
	const char *seen[PB_MAX_GROUPS];
	int nseen = 0, i, j;
	size_t k;

	for (k = 0; k < nruns; k++)
		pb_index(seen, &nseen, runs[k].config);
	for (i = 0; i < (int)NR(pb_config_order); i++)
		for (j = 0; j < nseen; j++)
			if (!strcmp(seen[j], pb_config_order[i]))
				pb_index(configs, &nconfigs, seen[j]);
	for (j = 0; j < nseen; j++)
		pb_index(configs, &nconfigs, seen[j]);
}

static struct pb_group *pb_group(const char *story, const char *config)
{
	int i;

	for (i = 0; i < ngroups; i++)
		if (!strcmp(groups[i].story, story) && !strcmp(groups[i].config, config))
			return &groups[i];
	return NULL;
}

/*
 * An earlier run with the story, configuration and repetition of runs[@k],
 * or NULL.  Pairs are matched by repetition number, so a second run of the
 * same number (two runs files of one numbering joined) would pair both with
 * the reference's first.
 */
static const struct pb_run *pb_twin(size_t k)
{
	const struct pb_run *r = &runs[k];
	size_t j;

	for (j = 0; j < k; j++)
		if (runs[j].rep == r->rep && !strcmp(runs[j].story, r->story) &&
		    !strcmp(runs[j].config, r->config))
			return &runs[j];
	return NULL;
}

static int pb_build_groups(void)
{
	struct pb_group *g;
	size_t k;
	int n;

	pb_order_configs();
	for (k = 0; k < nruns; k++) {
		struct pb_run *r = &runs[k];

		if (pb_twin(k)) {
			fprintf(stderr, "pb-stats: story %s config %s rep %d appears twice "
				"(PB_REP_FROM numbers the runs of another invocation)\n",
				r->story, r->config, r->rep);
			return -1;
		}
		pb_index(stories, &nstories, r->story);
		g = pb_group(r->story, r->config);
		if (!g) {
			if (ngroups == PB_MAX_GROUPS)
				return -1;
			g = &groups[ngroups++];
			g->story = r->story;
			g->config = r->config;
		}
		g->nrun++;
		if (r->ok && g->nok < PB_MAX_REPS) {
			g->run[g->nok++] = r;
		} else if (!r->ok) {
			n = (int)strlen(g->failed);
			snprintf(g->failed + n, sizeof(g->failed) - (size_t)n, " %d:%s", r->rep,
				 r->status);
		}
	}
	return 0;
}

/* ---- statistics ------------------------------------------------------------ */

/* Median of @key over the group's ok runs; 0 if none has a number. */
static int pb_median(const struct pb_group *g, const char *key, double *out)
{
	double v[PB_MAX_REPS];
	int i, n = 0;

	for (i = 0; g && i < g->nok; i++)
		if (pb_num(pb_get(g->run[i], key), &v[n]))
			n++;
	if (!n)
		return 0;
	*out = boot_median(v, (size_t)n);
	return 1;
}

static const char *pb_text(const struct pb_group *g, const char *key)
{
	const char *v;
	int i;

	for (i = 0; g && i < g->nok; i++) {
		v = pb_get(g->run[i], key);
		if (v && *v && strcmp(v, "-"))
			return v;
	}
	return "-";
}

static const struct pb_run *pb_rep(const struct pb_group *g, int rep)
{
	int i;

	for (i = 0; i < g->nok; i++)
		if (g->run[i]->rep == rep)
			return g->run[i];
	return NULL;
}

/* Ratio of @key in @g to @ref over the repetitions both ran ok. */
static void pb_interval(const struct pb_group *g, const struct pb_group *ref, const char *key,
			struct pb_iv *iv)
{
	double num[PB_MAX_REPS], den[PB_MAX_REPS];
	const struct pb_run *b;
	int i;

	memset(iv, 0, sizeof(*iv));
	if (!g || !ref)
		return;
	/* the measured energy only against the same source, and not twice */
	if (!strcmp(key, "energy_uj") &&
	    (strcmp(pb_text(g, "energy_src"), pb_text(ref, "energy_src")) ||
	     !strcmp(pb_text(g, "energy_src"), "est")))
		return;
	for (i = 0; i < g->nok; i++) {
		b = pb_rep(ref, g->run[i]->rep);
		if (b && pb_num(pb_get(g->run[i], key), &num[iv->n]) &&
		    pb_num(pb_get(b, key), &den[iv->n]))
			iv->n++;
	}
	iv->ok = iv->n && !boot_ci_ratio(num, den, (size_t)iv->n, BOOT_RESAMPLES,
					 0x5eed + (uint64_t)iv->n, &iv->ci);
	if (iv->ok && iv->n < PB_MIN_PAIRS) {
		iv->wide = 1;
		iv->ci.lo = 0;
		iv->ci.hi = INFINITY;
	}
}

static const char *pb_verdict(const struct pb_iv *iv)
{
	if (!iv->ok)
		return "-";
	if (iv->wide)
		return "cannot tell";
	switch (boot_excludes(&iv->ci, 1.0)) {
	case -1: return "lower";
	case 1: return "higher";
	default: return "cannot tell";
	}
}

/* The interval's larger half-width, percent of the ratio. */
static double pb_halfwidth_pct(const struct pb_iv *iv)
{
	double lo = iv->ci.est - iv->ci.lo, hi = iv->ci.hi - iv->ci.est;

	return iv->ci.est > 0 ? 100.0 * (lo > hi ? lo : hi) / iv->ci.est : INFINITY;
}

/* --ref's list split into refs[]; 0 if it has too many or an empty name. */
static int pb_parse_refs(char *list)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (nrefs == PB_MAX_REFS)
			return 0;
		refs[nrefs++] = tok;
	}
	return nrefs > 0;
}

/* Without --ref: each default reference that ran, else the first config. */
static void pb_pick_refs(void)
{
	size_t i;
	int c;

	if (nrefs)
		return;
	for (i = 0; i < NR(pb_default_refs); i++)
		for (c = 0; c < nconfigs; c++)
			if (!strcmp(configs[c], pb_default_refs[i]))
				refs[nrefs++] = configs[c];
	if (!nrefs)
		refs[nrefs++] = nconfigs ? configs[0] : "-";
}

/* ---- output ------------------------------------------------------------- */

static void pb_fmt_num(FILE *f, const struct pb_group *g, const char *key, double scale,
		       int digits, int width)
{
	double v;

	if (pb_median(g, key, &v))
		fprintf(f, " %*.*f", width, digits, v * scale);
	else
		fprintf(f, " %*s", width, "-");
}

static void pb_table_medians(FILE *f)
{
	int s, c;

	fprintf(f, "%-14s %-11s %5s %9s %10s %-5s %10s %8s %8s %7s %6s %6s %7s %6s %6s %6s\n",
		"story", "config", "reps", "time_ms", "energy_mJ", "src", "est_mJ", "p50_us",
		"p99_us", "pkgwk/s", "awake", "all", "xpkg/s", "prvpkg", "wq/s", "wqa/s");
	for (s = 0; s < nstories; s++) {
		for (c = 0; c < nconfigs; c++) {
			const struct pb_group *g = pb_group(stories[s], configs[c]);
			char reps[16];

			if (!g)
				continue;
			snprintf(reps, sizeof(reps), "%d/%d", g->nok, g->nrun);
			fprintf(f, "%-14s %-11s %5s", g->story, g->config, reps);
			pb_fmt_num(f, g, "makespan_us", 1e-3, 1, 9);
			pb_fmt_num(f, g, "energy_uj", 1e-3, 1, 10);
			fprintf(f, " %-5s", pb_text(g, "energy_src"));
			pb_fmt_num(f, g, "est_uj", 1e-3, 1, 10);
			pb_fmt_num(f, g, "lat_p50_us", 1, 1, 8);
			pb_fmt_num(f, g, "lat_p99_us", 1, 1, 8);
			pb_fmt_num(f, g, "pkg_wakeups_per_s", 1, 1, 7);
			pb_fmt_num(f, g, "pkg_awake_share", 1, 3, 6);
			pb_fmt_num(f, g, "all_pkgs_awake_share", 1, 3, 6);
			pb_fmt_num(f, g, "xpkg_migrations_per_s", 1, 2, 7);
			pb_fmt_num(f, g, "prev_pkg_share", 1, 3, 6);
			pb_fmt_num(f, g, "wake_queued_per_s", 1, 2, 6);
			pb_fmt_num(f, g, "wake_queued_idle_awake_pkg_per_s", 1, 2, 6);
			fprintf(f, "%s%s\n", g->failed[0] ? "  failed:" : "", g->failed);
		}
	}
}

static void pb_table_intervals(FILE *f, const char *ref)
{
	struct pb_iv iv;
	size_t m;
	int s, c;

	fprintf(f, "\nRatios to %s: sum over the paired repetitions / the reference's sum,\n"
		"bootstrap 95 %% interval, verdict only where the interval excludes 1.\n", ref);
	fprintf(f, "%-14s %-11s %-21s %5s %7s %17s %7s  %s\n", "story", "config", "metric",
		"pairs", "ratio", "95% interval", "+-%", "verdict");
	for (s = 0; s < nstories; s++) {
		const struct pb_group *rg = pb_group(stories[s], ref);

		for (c = 0; c < nconfigs; c++) {
			const struct pb_group *g = pb_group(stories[s], configs[c]);

			if (!g || g == rg)
				continue;
			for (m = 0; m < NR_IV; m++) {
				pb_interval(g, rg, pb_interval_metrics[m].key, &iv);
				if (!iv.ok)
					continue;
				fprintf(f, "%-14s %-11s %-21s %5d %7.3f   [%5.3f, %5.3f] ", g->story,
					g->config, pb_interval_metrics[m].name, iv.n, iv.ci.est, iv.ci.lo,
					iv.ci.hi);
				if (isfinite(pb_halfwidth_pct(&iv)))
					fprintf(f, "%6.1f%%", pb_halfwidth_pct(&iv));
				else
					fprintf(f, "%7s", "-");
				fprintf(f, "  %s\n", pb_verdict(&iv));
			}
		}
	}
}

static void pb_table(FILE *f)
{
	int r;

	pb_table_medians(f);
	fprintf(f, "# medians over the ok repetitions (reps: ok/run).  time_ms: first task start to\n"
		"#   last task end (rt-app logs).  energy_mJ, src: the measured energy and its source\n"
		"#   (meter: --meter, rapl, hwmon; est: none measured, the estimator's); est_mJ: the\n"
		"#   estimator (busy time charged per unit of work, Documentation/power-bench.rst).\n"
		"# pkgwk/s: package wake-ups per s; awake: mean share of the time a package is awake;\n"
		"#   all: every package awake at once; xpkg/s: story-thread moves between packages\n"
		"#   per s; prvpkg: wake-ups placed in prev_cpu's package.\n"
		"# wq/s: wake-ups placed on a CPU with a task running or on its way, per s; wqa/s:\n"
		"#   those while another CPU idled in an awake package ('-': runs counted before).\n");
	for (r = 0; r < nrefs; r++)
		pb_table_intervals(f, refs[r]);
}

static void pb_csv_header(FILE *f)
{
	size_t i;

	fprintf(f, "story,config,reps_ok,reps_run,reference");
	for (i = 0; i < NR(pb_metrics); i++)
		fprintf(f, ",%s", pb_metrics[i]);
	for (i = 0; i < NR(pb_texts); i++)
		fprintf(f, ",%s", pb_texts[i]);
	for (i = 0; i < NR_IV; i++) {
		const char *n = pb_interval_metrics[i].name;

		fprintf(f, ",%s_pairs,%s_ratio,%s_lo,%s_hi,%s_verdict", n, n, n, n, n);
	}
	fprintf(f, ",failed,kernel,machine,date\n");
}

static void pb_csv_row(FILE *f, const struct pb_group *g, const struct pb_group *rg,
		       const char *ref)
{
	struct pb_iv iv;
	double v;
	size_t i;

	fprintf(f, "%s,%s,%d,%d,%s", g->story, g->config, g->nok, g->nrun, ref);
	for (i = 0; i < NR(pb_metrics); i++) {
		if (pb_median(g, pb_metrics[i], &v))
			fprintf(f, ",%.10g", v);
		else
			fprintf(f, ",-");
	}
	for (i = 0; i < NR(pb_texts); i++)
		fprintf(f, ",%s", pb_text(g, pb_texts[i]));
	for (i = 0; i < NR_IV; i++) {
		pb_interval(g, g == rg ? NULL : rg, pb_interval_metrics[i].key, &iv);
		if (iv.ok)
			fprintf(f, ",%d,%.4f,%.4f,%.4f,%s", iv.n, iv.ci.est, iv.ci.lo, iv.ci.hi,
				pb_verdict(&iv));
		else
			fprintf(f, ",-,-,-,-,-");
	}
	fprintf(f, ",%s,%s,%s,%s\n", g->failed[0] ? g->failed + 1 : "-", meta_kernel,
		meta_machine, meta_date);
}

static void pb_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
	fputc('"', f);
}

static void pb_json_row(FILE *f, const struct pb_group *g, const struct pb_group *rg,
			const char *ref, int last)
{
	struct pb_iv iv;
	double v;
	size_t i;

	fprintf(f, "    {\"story\": ");
	pb_json_str(f, g->story);
	fprintf(f, ", \"config\": ");
	pb_json_str(f, g->config);
	fprintf(f, ", \"reps_ok\": %d, \"reps_run\": %d, \"reference\": ", g->nok, g->nrun);
	pb_json_str(f, ref);
	for (i = 0; i < NR(pb_metrics); i++) {
		fprintf(f, ", \"%s\": ", pb_metrics[i]);
		if (pb_median(g, pb_metrics[i], &v))
			fprintf(f, "%.10g", v);
		else
			fprintf(f, "null");
	}
	for (i = 0; i < NR(pb_texts); i++) {
		fprintf(f, ", \"%s\": ", pb_texts[i]);
		pb_json_str(f, pb_text(g, pb_texts[i]));
	}
	fprintf(f, ", \"ratios\": {");
	for (i = 0; i < NR_IV; i++) {
		pb_interval(g, g == rg ? NULL : rg, pb_interval_metrics[i].key, &iv);
		fprintf(f, "%s\"%s\": ", i ? ", " : "", pb_interval_metrics[i].name);
		if (iv.ok)
			fprintf(f, "{\"pairs\": %d, \"ratio\": %.4f, \"lo\": %.4f, \"hi\": %.4f, "
				"\"verdict\": \"%s\"}", iv.n, iv.ci.est, iv.ci.lo,
				isinf(iv.ci.hi) ? 1e308 : iv.ci.hi, pb_verdict(&iv));
		else
			fprintf(f, "null");
	}
	fprintf(f, "}}%s\n", last ? "" : ",");
}

/* Every story and configuration, once per reference. */
static void pb_each(FILE *f, const char *fmt)
{
	int s, c, r, n = 0, k = 0;

	for (s = 0; s < nstories; s++)
		for (c = 0; c < nconfigs; c++)
			n += pb_group(stories[s], configs[c]) != NULL;
	n *= nrefs;
	for (r = 0; r < nrefs; r++) {
		for (s = 0; s < nstories; s++) {
			const struct pb_group *rg = pb_group(stories[s], refs[r]);

			for (c = 0; c < nconfigs; c++) {
				const struct pb_group *g = pb_group(stories[s], configs[c]);

				if (!g)
					continue;
				if (!strcmp(fmt, "csv"))
					pb_csv_row(f, g, rg, refs[r]);
				else
					pb_json_row(f, g, rg, refs[r], ++k == n);
			}
		}
	}
}

static int pb_usage(void)
{
	fprintf(stderr, "usage: pb-stats [--fmt table|csv|json] [--ref CONFIG[,CONFIG...]] "
		"[--max-rep N] [--kernel K] [--machine M] [--date D] RUNS\n");
	return 2;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "fmt", required_argument, NULL, 'f' },
		{ "ref", required_argument, NULL, 'r' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "machine", required_argument, NULL, 'm' },
		{ "date", required_argument, NULL, 'd' },
		{ "max-rep", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	const char *fmt = "table";
	int c, r;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f': fmt = optarg; break;
		case 'r':
			if (!pb_parse_refs(optarg))
				return pb_usage();
			break;
		case 'k': meta_kernel = optarg; break;
		case 'm': meta_machine = optarg; break;
		case 'd': meta_date = optarg; break;
		case 'n': max_rep = atoi(optarg); break;
		default: return pb_usage();
		}
	}
	if (optind != argc - 1 || (strcmp(fmt, "table") && strcmp(fmt, "csv") && strcmp(fmt, "json")))
		return pb_usage();
	if (pb_read(argv[optind]) || pb_build_groups()) {
		fprintf(stderr, "pb-stats: cannot read %s\n", argv[optind]);
		return 1;
	}
	pb_pick_refs();
	if (!strcmp(fmt, "table")) {
		pb_table(stdout);
	} else if (!strcmp(fmt, "csv")) {
		pb_csv_header(stdout);
		pb_each(stdout, fmt);
	} else {
		printf("{\n  \"kernel\": ");
		pb_json_str(stdout, meta_kernel);
		printf(", \"machine\": ");
		pb_json_str(stdout, meta_machine);
		printf(", \"date\": ");
		pb_json_str(stdout, meta_date);
		printf(", \"reference\": ");
		pb_json_str(stdout, refs[0]);
		printf(", \"references\": [");
		for (r = 0; r < nrefs; r++) {
			printf("%s", r ? ", " : "");
			pb_json_str(stdout, refs[r]);
		}
		printf("],\n  \"results\": [\n");
		pb_each(stdout, fmt);
		printf("  ]\n}\n");
	}
	return 0;
}
