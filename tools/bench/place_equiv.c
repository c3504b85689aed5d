// SPDX-License-Identifier: GPL-2.0
/*
 * place_equiv.c - the fast decision against the exhaustive one.
 *
 * sp_place() skips candidates whose lower bound cannot win, does not scan
 * a sleeping group no CPU of which can beat CFS's, and keeps CFS's free CPU
 * without a search when nothing can beat it; sp_place_exhaustive() walks
 * everything and computes every admissible candidate's energy.  Both must
 * choose the same CPU.  This draws seeded random snapshots on every model
 * given (busy, idle and sleeping packages, idle states, work in flight,
 * cpufreq-reported OPPs, the deciding CPU's context) and random wake-ups
 * and knobs (mode, margin, overutil, window, latency bounds, a task's own
 * bound, affinity), and counts the decisions whose CPU differs (must be 0)
 * and those whose reason differs (sp_place() may report cfs_cheapest or
 * below_margin where the full search, having seen an overutilised CPU it
 * did not need to look at, says overutilised_fallback; the CPU is CFS's
 * either way).
 *
 * It also counts the decisions whose cfs_nj differs (CFS's estimate, which
 * a fast decision computes only when asked, sp_place_w_energy(): must be 0)
 * and those whose upper bound of CFS's estimate, which the fast path
 * compares first, fell below the estimate (sp_place_ub_violations: must
 * be 0).
 *
 * Output: "place-equiv: N decisions, M cpu mismatches, R reason differences,
 * E cfs_nj differences, U upper bound violations" and per reason pair the
 * count.  Exit 1 on a CPU mismatch, an energy difference or a violation.
 *
 * --digest makes no comparison: it hashes the decisions themselves, so that
 * a change the fast and the exhaustive decision share (an energy term, a
 * margin) is seen too.  Per model and mode (power, balanced, performance,
 * observe) it draws the same wake-ups as above, N per mode, on snapshots
 * half of which have every utilisation stamp at the decision time (no
 * decay, as bench_place) and half the ages drawn above (up to 4 or 100 ms,
 * as bench_place -a), and half of each no CPU above 60 % of its capacity
 * (else the walk meets an overutilised CPU in most decisions), decides
 * each with sp_place_w() and one working set kept across the run, as the
 * kernel does, fills the energies the fast path leaves out with
 * sp_place_w_energy(), as the kernel does for the trace event, and hashes
 * every output field (place_digest.c).  One line
 * per model and mode, "digest model=M mode=X n=N cpu=HEX all=HEX" (cpu:
 * over cpu, ret_cpu and override only; all: every field), and a '#' line
 * with the decisions per reason.  The seed of a model's run is drawn from
 * -s and the model's name, so adding a model adds lines and changes no
 * other.  sp_place_exhaustive() is not hashed: it is the reference of the
 * comparison above, not a decision the module makes.  --check FILE then
 * compares the lines with FILE's (place_digest_check()); exit 1 if any
 * differs.
 *
 * Usage: place_equiv [-n DECISIONS] [-s SEED] MODEL...
 *        place_equiv --digest [-n DECISIONS] [-s SEED] [--check FILE] MODEL...
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_file.h"
#include "place_digest.h"
#include "sp_place.h"
#include "xorshift.h"

static struct sp_model model;
static struct sp_state state;
static u64 rng;
static u64 allow_mask[SP_MAX_CPUS / 64];
static u64 reason_diff[SP_R_NR][SP_R_NR];

static u32 rnd(void)
{
	return xorshift_u32(&rng);
}

static u32 rnd_in(u32 lo, u32 hi)
{
	return xorshift_in(&rng, lo, hi);
}

static bool allowed(const void *ctx, u32 cpu)
{
	return cpu < SP_MAX_CPUS && (allow_mask[cpu / 64] >> (cpu % 64)) & 1;
}

/* A random snapshot at @now: packages idle or partly busy, OPPs, pending. */
static void fill_state(u64 now)
{
	const struct sp_level *top = &model.level[model.nr_levels - 1];
	u32 g, i, cpu, p;

	sp_state_init(&state, &model, now - 2000000000ull);
	for (g = top->first_group; g < top->first_group + top->nr_groups; g++) {
		const struct sp_group *gr = &model.group[g];
		u32 busy_pct = rnd() % 3 == 0 ? 0 : rnd_in(10, 100);
		bool asleep = !busy_pct && rnd() % 2;	/* every CPU in its deepest state */

		for (i = 0; i < gr->nr_cpus; i++) {
			const struct sp_pd *pd;
			u64 since;

			cpu = model.group_cpus[gr->cpu_off + i];
			pd = &model.pd[model.cpu_pd[cpu]];
			if (rnd() % 100 < busy_pct)
				continue;
			/* one draw per statement: the same on every compiler */
			since = now - rnd_in(1000, 80000000);
			sp_state_idle_enter(&state, &model, cpu,
					    asleep ? pd->nr_idle : rnd() % (pd->nr_idle + 1),
					    since);
		}
	}
	for (cpu = 0; cpu < model.nr_cpus; cpu++) {
		u32 cap = model.pd[model.cpu_pd[cpu]].cap_top;

		state.cpu[cpu].util = rnd() % 8 ? cap * rnd_in(0, 70) / 100 : cap * rnd_in(70, 100) / 100;
		state.cpu[cpu].util_stamp_ns = now - 1000ull * rnd_in(0, rnd() % 2 ? 4000 : 100000);
		state.cpu[cpu].lat_tokens = rnd() % 2 ? 400 : rnd_in(0, 250);
		if (rnd() % 6 == 0) {
			u64 at = now - rnd_in(0, 6000000);

			sp_state_note_decision(&state, SP_NONE, cpu, rnd_in(0, 400), false, at);
		}
	}
	for (g = 0; g < model.nr_groups; g++) {
		state.group[g].awake_avg = rnd_in(0, 1024);
		state.group[g].avg_stamp_ns = now - rnd_in(0, 300000000);
	}
	for (p = 0; p < model.nr_pds; p++)
		state.pd_opp[p] = rnd() % 4 ? SP_OPP_MODELLED :
				  (s32)(rnd() % model.pd[p].nr_opps);
}

static void fill_allowed(void)
{
	u32 cpu, kind = rnd() % 4;

	memset(allow_mask, 0, sizeof(allow_mask));
	for (cpu = 0; cpu < model.nr_cpus; cpu++)
		if (kind || rnd() % 3)
			allow_mask[cpu / 64] |= 1ull << (cpu % 64);
}

static void draw(u64 now, struct sp_knobs *k, struct sp_task_info *t)
{
	static const u32 modes[] = { SP_MODE_POWER, SP_MODE_BALANCED, SP_MODE_OBSERVE };

	k->mode = modes[rnd() % 3];
	k->margin_pct = rnd() % 4 ? 5 : rnd_in(0, 30);
	k->overutil_pct = rnd() % 4 ? 80 : rnd_in(50, 100);
	k->window_us = rnd() % 4 ? 4000 : rnd_in(100, 100000);
	k->latency_us = rnd() % 5 ? 0 : rnd_in(1, 600);
	memset(t, 0, sizeof(*t));
	t->now_ns = now;
	t->util = rnd() % 10 ? rnd_in(0, 400) : rnd_in(0, 1100);
	t->latency_us = rnd() % 6 ? 0 : rnd_in(5, 3000);
	t->prev_cpu = rnd() % 20 ? rnd() % model.nr_cpus : model.nr_cpus + 3;
	t->cfs_cpu = rnd() % 3 ? t->prev_cpu % model.nr_cpus : rnd() % model.nr_cpus;
	t->this_ctx = rnd() % 4;
	t->this_cpu = rnd() % model.nr_cpus;
	t->wake = rnd() % 8 ? SP_WAKE_WAKEUP : SP_WAKE_FORK;
}

/* Every utilisation stamp at @now: no decay on read (bench_place without -a). */
static void fresh_stamps(u64 now)
{
	u32 cpu;

	for (cpu = 0; cpu < model.nr_cpus; cpu++)
		state.cpu[cpu].util_stamp_ns = now;
}

/*
 * No CPU above 60 % of its capacity: on the larger models nearly every
 * drawn snapshot has some CPU overutilised, and the walk then stops there.
 */
static void calm_utils(void)
{
	u32 cpu;

	for (cpu = 0; cpu < model.nr_cpus; cpu++) {
		u32 lim = model.pd[model.cpu_pd[cpu]].cap_top * 60 / 100;

		if (state.cpu[cpu].util > lim)
			state.cpu[cpu].util = lim;
	}
}

/* The modes that decide; off returns CFS's CPU before reading anything. */
static const u32 digest_modes[] = {
	SP_MODE_POWER, SP_MODE_BALANCED, SP_MODE_PERFORMANCE, SP_MODE_OBSERVE,
};

/* @n decisions of the loaded model in @mode from generator state @rng0. */
static void digest_mode(u32 mode, unsigned long n, u64 rng0, struct place_digest *pd)
{
	static struct sp_place_work w;
	const u64 now = 100000000000ull;
	unsigned long i;

	memset(&w, 0, sizeof(w));	/* a fresh working set: util cache zeroed */
	sp_place_w_filter(&w, allowed, NULL);
	place_digest_init(pd);
	rng = rng0;
	for (i = 0; i < n; i++) {
		struct sp_decision d;
		struct sp_task_info t;
		struct sp_knobs k;

		if (i % 64 == 0) {
			fill_state(now);
			if (i / 64 % 2 == 0)
				fresh_stamps(now);
			if (i / 128 % 2 == 0)
				calm_utils();
			fill_allowed();
		}
		draw(now, &k, &t);
		k.mode = mode;
		sp_place_w(&model, &state, &k, &t, &d, &w);
		sp_place_w_energy(&w, &d);
		place_digest_add(pd, &d);
	}
}

static char digest_out[65536];
static size_t digest_len;

/* printf() to stdout, and into digest_out for --check. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	len = vsnprintf(digest_out + digest_len, sizeof(digest_out) - digest_len, fmt, ap);
	va_end(ap);
	if (len > 0)
		digest_len += (size_t)len;
	if (digest_len >= sizeof(digest_out))
		digest_len = sizeof(digest_out) - 1;
}

/* A model's name: its file name without the directory and ".model". */
static void model_name(const char *path, char *name, size_t len)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	snprintf(name, len, "%.*s", (int)n, base);
}

/* The generator's start for @name's runs: FNV-1a of the name, mixed with @seed. */
static u64 digest_rng(u64 seed, const char *name)
{
	u64 h = 0xcbf29ce484222325ull;

	for (; *name; name++) {
		h ^= (unsigned char)*name;
		h *= 0x100000001b3ull;
	}
	h ^= seed * 0x9e3779b97f4a7c15ull;
	return h ? h : 1;
}

static void digest_model(const char *name, unsigned long n, u64 seed)
{
	u32 mi, r;

	for (mi = 0; mi < SP_ARRAY_SIZE(digest_modes); mi++) {
		u32 mode = digest_modes[mi];
		struct place_digest pd;
		char line[256];

		digest_mode(mode, n, digest_rng(seed, name), &pd);
		place_digest_line(line, sizeof(line), name, sp_mode_names[mode], &pd);
		say("%s\n#  ", line);
		for (r = 0; r < SP_R_NR; r++)
			say(" %s=%lu", sp_reason_names[r], pd.reason[r]);
		say("\n");
	}
}

/* @path's text, NUL-terminated, in a buffer to free(); NULL if unreadable. */
static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text;
	long len;

	if (!f)
		return NULL;
	len = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
	text = len < 0 || fseek(f, 0, SEEK_SET) ? NULL : malloc((size_t)len + 1);
	if (!text) {
		fclose(f);
		return NULL;
	}
	len = (long)fread(text, 1, (size_t)len, f);
	text[len] = 0;
	fclose(f);
	return text;
}

static int usage(const char *self)
{
	fprintf(stderr, "usage: %s [-n N] [-s SEED] MODEL...\n"
		"       %s --digest [-n N] [-s SEED] [--check FILE] MODEL...\n", self, self);
	return 2;
}

static int digest(int argc, char **argv, unsigned long n, u64 seed, const char *check)
{
	char name[64], *expected;
	int a, bad;

	say("# place_equiv --digest -n %lu -s %llu: per model and mode, %lu decisions hashed;\n"
	    "# make place-digest-update writes this file, make place-digest compares it.\n",
	    n, (unsigned long long)seed, n);
	for (a = 0; a < argc; a++) {
		if (model_file_load_warn("place-digest", argv[a], &model))
			return 2;
		model_name(argv[a], name, sizeof(name));
		digest_model(name, n, seed);
	}
	if (!check)
		return 0;
	fflush(stdout);
	expected = read_text(check);
	if (!expected) {
		fprintf(stderr, "place-digest: cannot read %s\n", check);
		return 2;
	}
	bad = place_digest_check(stderr, check, expected, digest_out);
	free(expected);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long n = 0, i, cpu_bad = 0, reason_bad = 0, total = 0, nj_bad = 0;
	const u64 now = 100000000000ull;
	const char *check = NULL;
	bool want_digest = false, seed_given = false;
	u64 seed = 1;
	int a = 1, mi;

	for (; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "-n") && a + 1 < argc)
			n = strtoul(argv[++a], NULL, 10);
		else if (!strcmp(argv[a], "-s") && a + 1 < argc)
			seed = strtoull(argv[++a], NULL, 10), seed_given = true;
		else if (!strcmp(argv[a], "--digest"))
			want_digest = true;
		else if (!strcmp(argv[a], "--check") && a + 1 < argc)
			check = argv[++a];
		else
			return usage(argv[0]);
	}
	if (a >= argc || (check && !want_digest))
		return usage(argv[0]);
	if (want_digest)
		return digest(argc - a, argv + a, n ? n : PLACE_DIGEST_N,
			      seed_given ? seed : PLACE_DIGEST_SEED, check);
	if (!n)
		n = 1000000;
	for (mi = a; mi < argc; mi++) {
		unsigned long per = n / (unsigned long)(argc - a);

		if (model_file_load_warn("place-equiv", argv[mi], &model))
			return 2;
		rng = seed * 0x9e3779b97f4a7c15ull + (u64)mi;
		for (i = 0; i < per; i++) {
			struct sp_decision fast, full;
			struct sp_task_info t;
			struct sp_knobs k;

			if (i % 64 == 0) {
				fill_state(now);
				fill_allowed();
			}
			draw(now, &k, &t);
			sp_place(&model, &state, &k, &t, allowed, NULL, &fast);
			sp_place_exhaustive(&model, &state, &k, &t, allowed, NULL, &full);
			total++;
			if (fast.cpu != full.cpu || fast.override != full.override) {
				if (cpu_bad++ < 5)
					fprintf(stderr, "place-equiv: %s decision %lu: cpu %u (%s) vs exhaustive %u (%s)\n",
						argv[mi], i, fast.cpu, sp_reason_names[fast.reason],
						full.cpu, sp_reason_names[full.reason]);
			} else if (fast.reason != full.reason) {
				reason_bad++;
				reason_diff[fast.reason][full.reason]++;
			}
			nj_bad += fast.cfs_nj != full.cfs_nj;
		}
	}
	printf("place-equiv: %lu decisions, %lu cpu mismatches, %lu reason differences, %lu cfs_nj differences, %lu upper bound violations\n",
	       total, cpu_bad, reason_bad, nj_bad, sp_place_ub_violations);
	printf("#   kept CFS's CPU on the upper bound of its estimate: %lu\n", sp_place_ub_taken);
	for (i = 0; i < SP_R_NR * SP_R_NR; i++)
		if (reason_diff[i / SP_R_NR][i % SP_R_NR])
			printf("#   fast %s where exhaustive %s: %llu\n",
			       sp_reason_names[i / SP_R_NR], sp_reason_names[i % SP_R_NR],
			       (unsigned long long)reason_diff[i / SP_R_NR][i % SP_R_NR]);
	return cpu_bad || nj_bad || sp_place_ub_violations ? 1 : 0;
}
