// SPDX-License-Identifier: GPL-2.0
/*
 * bench_idle.c - host micro-benchmark of the idle probe's work.
 *
 * The kernel's power:cpu_idle probe (cpuidle_hook.c) spends its time in
 * sp_acct_enter() and sp_acct_exit() (core/sp_acct.c): snapshot update,
 * verdict, energy terms, group counters.  This times those two calls on the
 * shipped models, CPU by CPU in turn (so every group changes state, the
 * expensive path), with stays of 50..5000 us, best of 5 repetitions, and
 * prints ns per event (an entry or an exit) on this host:
 *
 *	idle_event model=PATH cpus=N ns_per_event=T
 *
 * The VM selftest reports the same probe's cost inside the TCG guest, which
 * emulates the CPU and is many times slower.
 *
 * Usage: bench_idle MODEL...
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sp_acct.h"

#define NR_EVENTS	(1u << 20)
#define NR_REPS		5

static struct sp_model model;
static struct sp_state state;
static struct sp_acct acct;
static char text[SP_MODEL_TEXT_MAX];

static u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000u + (u64)ts.tv_nsec;
}

static int load(const char *path)
{
	struct sp_parse_error err;
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(text, 1, sizeof(text), f);
	fclose(f);
	if (sp_model_parse(text, n, &model, &err)) {
		fprintf(stderr, "%s: line %d %s: %s\n", path, err.line, err.field, err.msg);
		return -1;
	}
	return 0;
}

/* One pass: every CPU enters its deepest state, then every CPU leaves. */
static double run(void)
{
	u64 t = 1000000, t0, best = ~0ull;
	u32 rep, i, cpu, n = model.nr_cpus;
	struct sp_idle_exit_info x;

	for (rep = 0; rep < NR_REPS; rep++) {
		sp_state_init(&state, &model, t);
		sp_acct_reset(&acct, t);
		t0 = mono_ns();
		for (i = 0; i < NR_EVENTS / 2; i++) {
			cpu = i % n;
			t += 50000 + (i * 7919u) % 4950000;
			if ((i / n) % 2 == 0)
				sp_acct_enter(&acct, &state, &model, cpu, 1, t);
			else
				sp_acct_exit(&acct, &state, &model, cpu, t, &x);
		}
		t0 = mono_ns() - t0;
		if (t0 < best)
			best = t0;
	}
	return (double)best / (NR_EVENTS / 2);
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (load(argv[i]))
			return 1;
		printf("idle_event model=%s cpus=%u ns_per_event=%.1f\n", argv[i],
		       model.nr_cpus, run());
	}
	return 0;
}
