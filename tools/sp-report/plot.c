// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c - sp-report --plot DIR: the data files and gnuplot scripts of
 * DIR/timeline.png (per-CPU busy/idle stretches, colour = OPP or idle
 * state, triangles = overrides) and DIR/energy.png (modelled energy terms,
 * stacked, accumulated over the recording).  Both load the shared style
 * tools/plot/sp.gp, as the simulator's plots do.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "report.h"

static FILE *rep_open_in(const char *dir, const char *name, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "sp-report: %s: %s\n", path, strerror(errno));
	return f;
}

static double rep_rel_ms(const struct rep_result *r, uint64_t ts)
{
	return ts > r->start_ns ? (double)(ts - r->start_ns) / 1e6 : 0.0;
}

/* Overrides inside the report's span (all of it, or --window). */
static bool rep_plot_override(const struct rep_result *r, const struct rep_event *e)
{
	return e->kind == REP_EV_SELECT && e->ts_ns >= r->start_ns && e->ts_ns <= r->end_ns &&
	       rep_is_override(r->t, &e->sel);
}

static size_t rep_nr_overrides(const struct rep_result *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->t->nr; i++)
		n += rep_plot_override(r, &r->t->ev[i]);
	return n;
}

static int rep_write_timeline(const char *dir, const struct rep_result *r)
{
	const struct rep_trace *t = r->t;
	char path[1024];
	FILE *f = rep_open_in(dir, "timeline.dat", path, sizeof(path));
	size_t i;

	if (!f)
		return -1;
	fprintf(f, "# cpu start_ms end_ms busy level(OPP if busy, idle state if not)\n");
	for (i = 0; i < r->nr_segs; i++) {
		const struct rep_seg *s = &r->segs[i];

		fprintf(f, "%u %.4f %.4f %d %d\n", s->cpu, rep_rel_ms(r, s->start_ns),
			rep_rel_ms(r, s->end_ns), s->idle < 0, s->idle < 0 ? s->opp : s->idle);
	}
	fclose(f);
	f = rep_open_in(dir, "overrides.dat", path, sizeof(path));
	if (!f)
		return -1;
	fprintf(f, "# ms ret_cpu cfs_cpu (overrides only)\n");
	for (i = 0; i < t->nr; i++)
		if (rep_plot_override(r, &t->ev[i]))
			fprintf(f, "%.4f %d %d\n", rep_rel_ms(r, t->ev[i].ts_ns),
				t->ev[i].sel.ret_cpu, t->ev[i].sel.cfs_cpu);
	fclose(f);
	return 0;
}

static int rep_write_energy(const char *dir, const struct rep_result *r)
{
	char path[1024];
	FILE *f = rep_open_in(dir, "energy.dat", path, sizeof(path));
	size_t i;

	if (!f)
		return -1;
	fprintf(f, "# ms shared_mJ idle_mJ busy_low_mJ pstate_mJ wake_mJ (cumulative)\n");
	for (i = 0; i < r->nr_samples; i++) {
		const struct rep_sample *s = &r->samples[i];

		fprintf(f, "%.4f %.6f %.6f %.6f %.6f %.6f\n", rep_rel_ms(r, s->ts_ns),
			(double)s->shared_nj / 1e6, (double)s->idle_nj / 1e6,
			(double)(s->busy_nj - s->pstate_nj) / 1e6, (double)s->pstate_nj / 1e6,
			(double)(s->wake_nj + s->shared_wake_nj) / 1e6);
	}
	fclose(f);
	return 0;
}

/* The colour key: one entry per OPP and idle state of the first pd. */
static void rep_key_entries(FILE *g, const struct sp_model *m)
{
	const struct sp_pd *pd = &m->pd[0];
	uint32_t k;

	for (k = 0; k < pd->nr_opps; k++)
		fprintf(g, "keyentry with boxes fc rgb sp_opp_rgb(%u) title \"busy OPP%u %u MHz\", \\\n",
			k, k, pd->opp[k].freq_khz / 1000);
	for (k = 0; k < pd->nr_idle; k++)
		fprintf(g, "keyentry with boxes fc rgb sp_idle_rgb(%u) title \"idle %s\", \\\n", k,
			pd->idle[k].name);
}

static int rep_gp_timeline(const char *dir, const struct rep_result *r,
			   const struct sp_model *m, const char *preamble)
{
	uint32_t ncpu = r->model_cpus ? r->model_cpus : 1;
	uint32_t row = ncpu <= 8 ? 60 : ncpu <= 32 ? 20 : 4;
	char path[1024];
	FILE *g = rep_open_in(dir, "timeline.gp", path, sizeof(path));

	if (!g)
		return -1;
	fprintf(g, "load \"%s\"\neval sp_term(1200, %u)\n", preamble, 150 + row * ncpu);
	fprintf(g, "set output \"%s/timeline.png\"\n", dir);
	fprintf(g, "set title \"%s: per-CPU timeline (modelled OPP when busy, idle state when idle)\"\n",
		r->path);
	fprintf(g, "set xlabel \"time since the %s (ms)\"\nset ylabel \"CPU\"\n",
		r->win_from ? "--window start marker" : "first event");
	fprintf(g, "set xrange [0:%.4f]\nset yrange [-0.6:%u.6]\nset ytics 1\n",
		rep_rel_ms(r, r->end_ns), ncpu - 1);
	fprintf(g, "set grid noxtics noytics\n");
	fprintf(g, "plot \"%s/timeline.dat\" using (($2+$3)/2):1:(($3-$2)/2):(0.38):"
		"(sp_seg_rgb(int($4), int($5))) with boxxyerror lc rgb variable notitle, \\\n", dir);
	if (rep_nr_overrides(r))
		fprintf(g, "     \"%s/overrides.dat\" using 1:($2+0.5) with points pt 11 ps 0.9 "
			"lc rgb \"#000000\" title \"override: task moved to this CPU\", \\\n", dir);
	rep_key_entries(g, m);
	fprintf(g, "     NaN notitle\n");
	fclose(g);
	return 0;
}

static int rep_gp_energy(const char *dir, const struct rep_result *r, const char *preamble)
{
	char path[1024];
	FILE *g = rep_open_in(dir, "energy.gp", path, sizeof(path));
	const char *d = dir;

	if (!g)
		return -1;
	fprintf(g, "load \"%s\"\neval sp_term(1000, 500)\n", preamble);
	fprintf(g, "set output \"%s/energy.png\"\n", dir);
	fprintf(g, "set title \"%s: modelled energy terms, accumulated (stacked)\"\n", r->path);
	fprintf(g, "set xlabel \"time since the %s (ms)\"\nset ylabel \"energy (mJ)\"\n",
		r->win_from ? "--window start marker" : "first event");
	fprintf(g, "set xrange [0:%.4f]\nset yrange [0:*]\n", rep_rel_ms(r, r->end_ns));
	fprintf(g, "plot \"%s/energy.dat\" using 1:(0):2 with filledcurves lt 8 title \"shared (package uncore)\", \\\n", d);
	fprintf(g, "     \"\" using 1:2:($2+$3) with filledcurves lt 6 title \"CPU idle states\", \\\n");
	fprintf(g, "     \"\" using 1:($2+$3):($2+$3+$4) with filledcurves lt 1 title \"CPU busy at lowest OPP\", \\\n");
	fprintf(g, "     \"\" using 1:($2+$3+$4):($2+$3+$4+$5) with filledcurves lt 2 title \"P-state (busy above lowest OPP)\", \\\n");
	fprintf(g, "     \"\" using 1:($2+$3+$4+$5):($2+$3+$4+$5+$6) with filledcurves lt 5 title \"wake-ups (CPU and package)\"\n");
	fclose(g);
	return 0;
}

static int rep_gnuplot(const char *dir, const char *name)
{
	char cmd[1200];
	int st;

	snprintf(cmd, sizeof(cmd), "gnuplot '%s/%s'", dir, name);
	st = system(cmd);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "sp-report: --plot: gnuplot failed on %s/%s%s\n", dir, name,
			WIFEXITED(st) && WEXITSTATUS(st) == 127 ? " (gnuplot not installed?)" : "");
		return -1;
	}
	return 0;
}

int rep_plot(const char *dir, struct rep_result *r, const struct sp_model *m,
	     const char *preamble)
{
	if (strchr(dir, '\'') || strchr(dir, '"')) {
		fprintf(stderr, "sp-report: --plot: quotes in the directory name\n");
		return -1;
	}
	if (!r->energy) {
		fprintf(stderr, "sp-report: --plot: nothing to draw (no power:cpu_idle events or no model)\n");
		return -1;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "sp-report: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if (rep_write_timeline(dir, r) || rep_write_energy(dir, r) ||
	    rep_gp_timeline(dir, r, m, preamble) || rep_gp_energy(dir, r, preamble))
		return -1;
	if (rep_gnuplot(dir, "timeline.gp") || rep_gnuplot(dir, "energy.gp"))
		return -1;
	return 0;
}
