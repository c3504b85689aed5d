// SPDX-License-Identifier: GPL-2.0
/*
 * bench_idle.c - host micro-benchmark of the idle probe's work.
 *
 * The kernel's power:cpu_idle probe (cpuidle_hook.c) spends its time in
 * sp_acct_enter() and sp_acct_exit() (core/sp_acct.c): snapshot update,
 * verdict, energy terms, group counters.  This times those two calls on the
 * models given, CPU by CPU in turn (so every group changes state as its
 * last CPU sleeps and its first wakes), with stays of 50..5000 us, best of
 * 5 repetitions, then reruns itself under `valgrind --tool=callgrind
 * --toggle-collect=sp_acct_enter --toggle-collect=sp_acct_exit` for the
 * instructions per event, and prints one line per model:
 *
 *	idle_event model=PATH cpus=N ns_per_event=T instr_per_event=I
 *	instr_ratio_to_target=R target_instr=150
 *
 * T is wall-clock ns per event (an entry or an exit) on this host, I is
 * callgrind's Ir per event (exact, stable across hosts), R = I / 150.  The
 * VM selftest reports the same probe's cost inside the TCG guest, which
 * emulates the CPU and is many times slower.
 *
 * The entries take idle state 1, a shallow one on every model here, so the
 * groups stay awake.  With --deep they take the pd's deepest state (the
 * index past it, clamped), so a group sleeps as its last CPU idles and
 * wakes with its first: the path of a board without a cpuidle driver,
 * whose default idle the kernel probe takes as the deepest (the qemu
 * guest); its lines carry state=deepest.
 *
 * With --pipe the events are those of a pipe round trip between two
 * packages, as perf bench sched pipe makes them in the guest: CPU 0 and
 * CPU N/2 take turns, each woken 20 us after the other went idle and
 * going idle 5 us after it woke, both into the deepest state, so that
 * every event wakes or sleeps a package, while the other CPUs sleep in
 * the deepest state (their one entry each is counted too); its lines
 * carry state=pipe.
 *
 * Usage: bench_idle [--no-callgrind] [--deep|--pipe] MODEL...
 *        bench_idle --child EVENTS MODEL [--deep|--pipe]  (the callgrind run)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "callgrind.h"
#include "model_file.h"
#include "mono_clock.h"
#include "sp_acct.h"

#define NR_EVENTS	(1u << 20)
#define NR_CG_EVENTS	(1u << 16)
#define NR_REPS		5
#define TARGET_INSTR	150.0

static struct sp_model model;
static struct sp_state state;
static struct sp_acct acct;
static u32 enter_idx = 1;		/* --deep: UINT32_MAX, the deepest */
static bool pipe_mode;			/* --pipe */

/* @n events: every CPU enters its deepest state in turn, then every CPU leaves. */
static void events(u32 n)
{
	u64 t = 1000000;
	u32 i, cpu, nr = model.nr_cpus;
	struct sp_idle_exit_info x;

	sp_state_init(&state, &model, t);
	sp_acct_reset(&acct, t);
	for (i = 0; i < n; i++) {
		cpu = i % nr;
		t += 50000 + (i * 7919u) % 4950000;
		if ((i / nr) % 2 == 0)
			sp_acct_enter(&acct, &state, &model, cpu, enter_idx, t);
		else
			sp_acct_exit(&acct, &state, &model, cpu, t, &x);
	}
}

/* @n events of pipe round trips between CPU 0 and CPU N/2 (--pipe). */
static void pipe_events(u32 n)
{
	u32 a = 0, b = model.nr_cpus / 2, i;
	u64 t = 1000000;

	sp_state_init(&state, &model, t);
	sp_acct_reset(&acct, t);
	for (i = 0; i < model.nr_cpus; i++)
		if (i != a)
			sp_acct_enter(&acct, &state, &model, i, UINT32_MAX, t += 1000);
	for (i = 0; i + 4 <= n; i += 4) {
		sp_acct_exit(&acct, &state, &model, b, t += 20000, NULL);
		sp_acct_enter(&acct, &state, &model, a, UINT32_MAX, t += 5000);
		sp_acct_exit(&acct, &state, &model, a, t += 20000, NULL);
		sp_acct_enter(&acct, &state, &model, b, UINT32_MAX, t += 5000);
	}
}

static void some_events(u32 n)
{
	if (pipe_mode)
		pipe_events(n);
	else
		events(n);
}

static double run(void)
{
	u64 t0, best = ~0ull;
	u32 rep;

	for (rep = 0; rep < NR_REPS; rep++) {
		t0 = mono_ns();
		some_events(NR_EVENTS / 2);
		t0 = mono_ns() - t0;
		if (t0 < best)
			best = t0;
	}
	return (double)best / (NR_EVENTS / 2);
}

/* callgrind's instructions in a child run of NR_CG_EVENTS events. */
static long long callgrind_events(const char *self, const char *path)
{
	static const char *const counted[] = { "sp_acct_enter", "sp_acct_exit", NULL };

	return callgrind_instr(counted, "%s --child %u %s%s", self, NR_CG_EVENTS, path,
			       pipe_mode ? " --pipe" : enter_idx == 1 ? "" : " --deep");
}

int main(int argc, char **argv)
{
	bool callgrind = true;
	int i = 1;

	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "--child")) {
		if (argc == 5 && !strcmp(argv[4], "--deep"))
			enter_idx = UINT32_MAX;
		if (argc == 5 && !strcmp(argv[4], "--pipe"))
			pipe_mode = true;
		if (model_file_load_warn("bench_idle", argv[3], &model))
			return 1;
		some_events((u32)strtoul(argv[2], NULL, 10));
		return 0;
	}
	if (i < argc && !strcmp(argv[i], "--no-callgrind")) {
		callgrind = false;
		i++;
	}
	if (i < argc && !strcmp(argv[i], "--deep")) {
		enter_idx = UINT32_MAX;
		i++;
	} else if (i < argc && !strcmp(argv[i], "--pipe")) {
		pipe_mode = true;
		i++;
	}
	for (; i < argc; i++) {
		long long ir = -1;
		double ns;

		if (model_file_load_warn("bench_idle", argv[i], &model))
			return 1;
		ns = run();
		if (callgrind)
			ir = callgrind_events(argv[0], argv[i]);
		printf("idle_event model=%s cpus=%u%s ns_per_event=%.1f instr_per_event=",
		       argv[i], model.nr_cpus,
		       pipe_mode ? " state=pipe" : enter_idx == 1 ? "" : " state=deepest", ns);
		if (ir >= 0)
			printf("%.0f instr_ratio_to_target=%.2f", (double)ir / NR_CG_EVENTS,
			       (double)ir / NR_CG_EVENTS / TARGET_INSTR);
		else
			printf("n/a");
		printf(" target_instr=%.0f\n", TARGET_INSTR);
	}
	return 0;
}
