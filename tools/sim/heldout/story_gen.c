// SPDX-License-Identifier: GPL-2.0
/*
 * story_gen.c - sp_storygen: seeded random stories for make heldout.
 *
 * Usage: sp_storygen -n N -s SEED -o DIR [-f FIRST] -m MODEL...
 *
 * Writes DIR/hSEED-III.json for III = FIRST .. FIRST+N-1 and DIR/index.tsv,
 * one line per story: name, class, u (its utilisation, below), budget,
 * duration_ms and its components with their parameters.  Story III of a
 * seed depends on (SEED, III) only, so a story reported as failing is
 * written again, byte for byte, by any run that includes its index.
 *
 * DOC: the held-out stories
 *
 * Shapes a board user runs, one to three components per story, each
 * drawn with its own parameters and looped for the story's duration
 * (2 to 4 s):
 *
 *	P	periodic timer tasks: 1 or 2 instances, run R every period T
 *		(T from 1 ms to 100 ms, R 2 % to 30 % of T, at least 50 us),
 *		an absolute cadence as rt-app's timer (audio, sensors, vsync)
 *	S	sleep-loop workers: 1 to 3 instances, run R (0.2 to 5 ms) then
 *		sleep k x R (k 3 to 40)
 *	F	phases: a main thread alternating a quiet phase (run 0.2 to 1
 *		ms every 20 to 100 ms, for 200 to 800 ms) and an active one
 *		(run and sleep 1 to 4 ms each, for 50 to 300 ms), and with
 *		probability 1/2 a helper busy only in the active phase
 *	H	a herd: 2 to 8 instances of one timer task whose timer comes
 *		first, so all arm it at t = 0 and are woken together every T
 *		(20 to 200 ms) for R (0.5 to 8 ms) of work each
 *	B	a light batch job beside interactive threads: one job of
 *		chunks C (20 to 100 ms, 1 ms gaps) for a quarter to half the
 *		story, then done, with 1 or 2 UI threads (run 1 to 3 ms,
 *		sleep 16 to 50 ms) for the whole story
 *
 * The utilisation u of a story is the sum over its task instances of the
 * share of time each needs at capacity 1024: R / T for a periodic task,
 * R / (R + sleep) for a sleep loop, the time-weighted mean of its phases,
 * the job's work over the story's duration for the batch job.  The
 * capacity of a model is the sum over its CPUs of their highest OPP's
 * capacity / 1024 (-m: the smallest over the models given).  Four stories
 * in five are drawn light: u below half that capacity; every fifth
 * (III = 4 mod 5) moderate: u from half to 0.8 of it.  A story whose
 * components miss its class's budget is drawn again (its RNG goes on;
 * a moderate story has at least two components), up to 100000 times.
 * make heldout classifies each run on its own model as results.sh's
 * target table does (light: the work below half of CPUs x cfs's
 * makespan), which a moderate story may still pass.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_file.h"
#include "xorshift.h"

#define GEN_MAX_COMP	3
#define GEN_TEXT	4096
#define GEN_TRIES	100000

/* The generator's start from (seed, index): splitmix64's finaliser, never 0. */
static u64 splitmix64(u64 x)
{
	x += 0x9E3779B97F4A7C15ull;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
	x ^= x >> 31;
	return x ? x : 1;
}

struct gen {
	u64 rng;
	u32 dur_us;
	char json[GEN_TEXT];	/* the tasks' members */
	size_t jn;
	char desc[GEN_TEXT];	/* the components, for index.tsv and the description */
	size_t dn;
	double u;
	u32 ntask;
};

static void gen_add(char *buf, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void gen_add(char *buf, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (*n >= GEN_TEXT)
		return;
	va_start(ap, fmt);
	k = vsnprintf(buf + *n, GEN_TEXT - *n, fmt, ap);
	va_end(ap);
	*n += k > 0 ? (size_t)k : 0;
}

static u32 in(struct gen *g, u32 lo, u32 hi)
{
	return xorshift_in(&g->rng, lo, hi);
}

/* A task member "NAME": { ... } with the next task number in its name. */
static void task_open(struct gen *g, const char *kind, u32 instance, u32 loop)
{
	gen_add(g->json, &g->jn, "%s\t\t\"%s%u\": { \"instance\": %u, \"loop\": %u, ",
		g->ntask ? ",\n" : "", kind, g->ntask, instance, loop ? loop : 1);
	g->ntask++;
}

/*
 * @n tasks @kind that each run @r us in every @t us period of timer @ref
 * for the story: the run first, or with @wait_first the timer's wait first
 * (they all wake together).  Return: their utilisation.
 */
static double timer_task(struct gen *g, const char *kind, const char *ref, u32 n,
			 u32 t, u32 r, bool wait_first)
{
	task_open(g, kind, n, g->dur_us / t);
	if (wait_first)
		gen_add(g->json, &g->jn,
			"\"timer\": { \"ref\": \"%s\", \"period\": %u }, \"run\": %u }",
			ref, t, r);
	else
		gen_add(g->json, &g->jn,
			"\"run\": %u, \"timer\": { \"ref\": \"%s\", \"period\": %u } }",
			r, ref, t);
	return (double)n * r / t;
}

/*
 * @n tasks @kind that each run @r us and sleep @s us for the story.
 * Return: their utilisation.
 */
static double sleep_task(struct gen *g, const char *kind, u32 n, u32 r, u32 s)
{
	task_open(g, kind, n, g->dur_us / (r + s));
	gen_add(g->json, &g->jn, "\"run\": %u, \"sleep\": %u }", r, s);
	return (double)n * r / (r + s);
}

static void comp_periodic(struct gen *g)
{
	static const u32 periods_ms[] = { 1, 2, 4, 5, 8, 10, 16, 20, 33, 50, 100 };
	u32 n = in(g, 1, 2), t = periods_ms[in(g, 0, 10)] * 1000;
	u32 r = t * in(g, 2, 30) / 100;

	if (r < 50)
		r = 50;
	g->u += timer_task(g, "per", "t", n, t, r, false);
	gen_add(g->desc, &g->dn, " P(n=%u,period_us=%u,run_us=%u)", n, t, r);
}

static void comp_sleeploop(struct gen *g)
{
	u32 n = in(g, 1, 3), r = in(g, 200, 5000), k = in(g, 3, 40);
	u32 s = r * k;

	g->u += sleep_task(g, "wk", n, r, s);
	gen_add(g->desc, &g->dn, " S(n=%u,run_us=%u,sleep_us=%u)", n, r, s);
}

static void comp_phases(struct gen *g)
{
	u32 qr = in(g, 200, 1000), qp = in(g, 20, 100) * 1000, qlen = in(g, 200, 800) * 1000;
	u32 ar = in(g, 1000, 4000), as = in(g, 1000, 4000), alen = in(g, 50, 300) * 1000;
	u32 ql = qlen / qp ? qlen / qp : 1, al = alen / (ar + as) ? alen / (ar + as) : 1;
	u32 cyc_us = ql * qp + al * (ar + as), cycles = g->dur_us / cyc_us;
	bool helper = in(g, 0, 1);
	double qu = (double)qr / qp, au = (double)ar / (ar + as);

	cycles = cycles ? cycles : 1;
	task_open(g, "app", 1, cycles);
	gen_add(g->json, &g->jn, "\"phases\": {\n"
		"\t\t\t\"quiet\": { \"loop\": %u, \"run\": %u, \"sleep\": %u },\n"
		"\t\t\t\"active\": { \"loop\": %u, \"run\": %u, \"sleep\": %u } } }",
		ql, qr, qp - qr, al, ar, as);
	if (helper) {
		task_open(g, "help", 1, cycles);
		gen_add(g->json, &g->jn, "\"phases\": {\n"
			"\t\t\t\"quiet\": { \"loop\": 1, \"sleep\": %u },\n"
			"\t\t\t\"active\": { \"loop\": %u, \"run\": %u, \"sleep\": %u } } }",
			ql * qp, al, ar, as);
	}
	gen_add(g->desc, &g->dn,
		" F(quiet_run_us=%u,quiet_period_us=%u,quiet_loops=%u,active_run_us=%u,"
		"active_sleep_us=%u,active_loops=%u,helper=%d,cycles=%u)",
		qr, qp, ql, ar, as, al, helper, cycles);
	g->u += ((qu * ql * qp + au * al * (ar + as)) +
		 (helper ? au * al * (ar + as) : 0)) / cyc_us;
}

static void comp_herd(struct gen *g)
{
	u32 k = in(g, 2, 8), t = in(g, 20, 200) * 1000, r = in(g, 500, 8000);

	if (r > t / 4)
		r = t / 4;
	g->u += timer_task(g, "herd", "h", k, t, r, true);
	gen_add(g->desc, &g->dn, " H(k=%u,period_us=%u,run_us=%u)", k, t, r);
}

static void comp_batch(struct gen *g)
{
	u32 c = in(g, 20, 100) * 1000, share = in(g, 25, 50), n = in(g, 1, 2);
	u32 ur = in(g, 1000, 3000), us = in(g, 16, 50) * 1000;
	u32 chunks = (u32)((u64)g->dur_us * share / 100 / (c + 1000));
	double ui;

	chunks = chunks ? chunks : 1;
	task_open(g, "batch", 1, chunks);
	gen_add(g->json, &g->jn, "\"run\": %u, \"sleep\": 1000 }", c);
	ui = sleep_task(g, "ui", n, ur, us);
	gen_add(g->desc, &g->dn, " B(chunk_us=%u,chunks=%u,ui_n=%u,ui_run_us=%u,ui_sleep_us=%u)",
		c, chunks, n, ur, us);
	g->u += (double)chunks * c / g->dur_us + ui;
}

/* One draw of a story's components (@min to three) into @g. */
static void draw(struct gen *g, u32 min)
{
	static void (*const comp[])(struct gen *) = {
		comp_periodic, comp_sleeploop, comp_phases, comp_herd, comp_batch
	};
	u32 i, nc = in(g, min, GEN_MAX_COMP);

	g->jn = g->dn = 0;
	g->json[0] = g->desc[0] = 0;
	g->u = 0;
	g->ntask = 0;
	g->dur_us = in(g, 2000, 4000) * 1000;
	for (i = 0; i < nc; i++)
		comp[in(g, 0, 4)](g);
}

/* The capacity of @m in CPUs of capacity 1024 at their highest OPP. */
static double model_cap(const struct sp_model *m)
{
	double cap = 0;
	u32 c;

	for (c = 0; c < m->nr_cpus; c++) {
		const struct sp_pd *pd = &m->pd[m->cpu_pd[c]];

		cap += pd->nr_opps ? pd->opp[pd->nr_opps - 1].cap / 1024.0 : 1.0;
	}
	return cap;
}

static int write_story(const char *dir, u64 seed, u32 idx, double cap, FILE *index)
{
	static struct gen g;
	char name[64], path[4096];
	bool moderate = idx % 5 == 4;
	double lo = moderate ? 0.5 * cap : 0, hi = (moderate ? 0.8 : 0.5) * cap;
	u32 tries;
	FILE *f;

	g.rng = splitmix64((seed << 24) ^ idx);
	for (tries = 0; tries < GEN_TRIES; tries++) {
		draw(&g, moderate ? 2 : 1);
		if (g.u >= lo && g.u < hi && g.jn < GEN_TEXT && g.dn < GEN_TEXT)
			break;
	}
	if (tries == GEN_TRIES) {
		fprintf(stderr, "sp_storygen: no story %u within its budget\n", idx);
		return -1;
	}
	snprintf(name, sizeof(name), "h%llu-%03u", (unsigned long long)seed, idx);
	snprintf(path, sizeof(path), "%s/%s.json", dir, name);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "sp_storygen: %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "{\n\t\"global\": {\n\t\t\"description\": \"sp_storygen seed %llu story %u,"
		" %s, u %.3f of budget %.3f, %u ms:%s\"\n\t},\n\t\"tasks\": {\n%s\n\t}\n}\n",
		(unsigned long long)seed, idx, moderate ? "moderate" : "light", g.u, hi,
		g.dur_us / 1000, g.desc, g.json);
	fclose(f);
	fprintf(index, "%s\t%s\t%.3f\t%.3f\t%u\t%s\n", name, moderate ? "moderate" : "light",
		g.u, hi, g.dur_us / 1000, g.desc + 1);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: sp_storygen -n N -s SEED -o DIR [-f FIRST] -m MODEL...\n");
	return 2;
}

int main(int argc, char **argv)
{
	static struct sp_model m;
	const char *dir = NULL;
	char path[4096], err[256];
	unsigned long long seed = 1;
	double cap = 0;
	u32 n = 0, first = 0, i;
	int a, nm = 0;
	FILE *index;

	for (a = 1; a + 1 < argc; a += 2) {
		const char *o = argv[a], *v = argv[a + 1];

		if (!strcmp(o, "-n"))
			n = (u32)strtoul(v, NULL, 10);
		else if (!strcmp(o, "-s"))
			seed = strtoull(v, NULL, 10);
		else if (!strcmp(o, "-f"))
			first = (u32)strtoul(v, NULL, 10);
		else if (!strcmp(o, "-o"))
			dir = v;
		else if (!strcmp(o, "-m")) {
			double c;

			if (model_file_load(v, &m, err, sizeof(err))) {
				fprintf(stderr, "sp_storygen: %s\n", err);
				return 1;
			}
			c = model_cap(&m);
			if (!nm++ || c < cap)
				cap = c;
		} else
			return usage();
	}
	if (a != argc || !dir || !n || !nm)
		return usage();
	snprintf(path, sizeof(path), "%s/index.tsv", dir);
	index = fopen(path, "w");
	if (!index) {
		fprintf(stderr, "sp_storygen: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fprintf(index, "# story\tclass\tu\tbudget\tduration_ms\tcomponents (capacity %.3f)\n", cap);
	for (i = first; i < first + n; i++) {
		if (write_story(dir, seed, i, cap, index)) {
			fclose(index);
			return 1;
		}
	}
	fclose(index);
	return 0;
}
