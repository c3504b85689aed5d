// SPDX-License-Identifier: GPL-2.0
/*
 * bench_gate.c - host micro-benchmark of the load-balancer gate's predicate.
 *
 * The kernel's wrapper around load_balance() (balance_hook.c) asks
 * sp_gate_begin() once per call and, for a domain that crosses the gate,
 * sp_gate_cpu() for each CPU of the domain until one lets the balance
 * through.  This replays that on the models given, for the domain that
 * spans every CPU (the one that crosses the gate level), on a snapshot
 * kept by the core's own writers (sp_state_idle_enter/exit,
 * sp_state_set_nr_running): tasks gathered on the gate level's first
 * group, one per CPU on every other of its CPUs, the other CPUs in their
 * deepest state.  In the "light" story each task runs 3 ms in 10 (the
 * CPUs' starts staggered), and every 50 ms one task CPU has a second task
 * waiting for 2 ms; in the "busy" story each task runs without pause (a
 * CPU-bound job alone on its CPU, overutilised with nothing waiting).
 * After 1 s of warm-up, one balance a millisecond, with the balanced CPU
 * (dst) taking every CPU in turn.
 *
 * The instructions are callgrind's Ir of bench_gate_balance() (the calls
 * above, the loop included), divided by the number of balances:
 *
 *	gate_balance model=PATH story=S cpus=N balances=B instr_per_balance=I
 *	cpus_asked_per_balance=A
 *
 * and a line "# verdicts ..." with how many balances ended in each reason,
 * so a change of the predicate's cost can be checked not to change what it
 * answers.  It prints numbers, not a pass or a fail.
 *
 * Usage: bench_gate MODEL...
 *        bench_gate --child STORY MODEL  (the callgrind run)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"
#include "model_file.h"
#include "sp_gate.h"
#include "sp_place.h"

#define WARMUP_MS	1000u
#define BALANCES	4000u
#define NS_PER_MS	1000000ull

static struct sp_model model;
static struct sp_state state;
static unsigned long long verdicts[SP_GATE_NR];
static unsigned long long asked;

/* One load_balance() of the all-CPU domain for @dst, as the wrapper asks. */
static SP_NOINLINE u32 bench_gate_balance(u32 dst, u64 now_ns)
{
	const struct sp_gate_in in = {
		.mode = SP_MODE_POWER, .enabled = true, .overutil_pct = 80,
		.now_ns = now_ns, .dst_cpu = dst,
	};
	u32 reason = sp_gate_begin(&model, &in, true), cpu;

	for (cpu = 0; reason == SP_GATE_GATED && cpu < model.nr_cpus; cpu++) {
		reason = sp_gate_cpu(&model, &state, cpu, &in);
		asked++;
	}
	return reason;
}

/* @cpu's deepest idle state. */
static u32 deepest(u32 cpu)
{
	const struct sp_pd *pd = &model.pd[model.cpu_pd[cpu]];

	return pd->nr_idle ? pd->nr_idle - 1u : 0;
}

/* Does @cpu run a task: every other CPU of the gate level's first group. */
static bool task_cpu(u32 cpu, u32 level, u32 *rank)
{
	u32 g0 = model.cpu_group[level][0], c, n = 0;

	if (model.cpu_group[level][cpu] != g0)
		return false;
	for (c = 0; c < cpu; c++)
		n += model.cpu_group[level][c] == g0;
	*rank = n;
	return n % 2 == 0;
}

/* The task CPUs' idle transitions of millisecond @ms. */
static void step(bool busy, u32 level, u32 ms, u64 now_ns)
{
	u32 cpu, rank;

	for (cpu = 0; cpu < model.nr_cpus; cpu++) {
		u32 phase;

		if (!task_cpu(cpu, level, &rank))
			continue;
		phase = (ms + rank) % 10;
		if (!busy && phase == 0) {
			sp_state_idle_exit(&state, &model, cpu, now_ns);
			sp_state_set_nr_running(&state, cpu, 1, now_ns);
		} else if (!busy && phase == 3) {
			sp_state_set_nr_running(&state, cpu, 0, now_ns);
			sp_state_idle_enter(&state, &model, cpu, deepest(cpu), now_ns);
		}
		if (!busy && ms % 50 == 0 && rank == (ms / 50) % 4 && phase < 3)
			sp_state_set_nr_running(&state, cpu, 2, now_ns);
		if (!busy && ms % 50 == 2 && rank == (ms / 50) % 4 && phase < 3)
			sp_state_set_nr_running(&state, cpu, 1, now_ns);
	}
}

/* The story; @balances balances after the warm-up. */
static void run(bool busy, u32 balances)
{
	u64 now = 1000000000ull;
	u32 level = sp_gate_level(&model), cpu, ms, rank;

	memset(verdicts, 0, sizeof(verdicts));
	asked = 0;
	sp_state_init(&state, &model, now);
	for (cpu = 0; cpu < model.nr_cpus; cpu++)
		sp_state_idle_enter(&state, &model, cpu, deepest(cpu), now);
	if (level == SP_NONE)
		level = 0;
	if (busy)
		for (cpu = 0; cpu < model.nr_cpus; cpu++)
			if (task_cpu(cpu, level, &rank)) {
				sp_state_idle_exit(&state, &model, cpu, now);
				sp_state_set_nr_running(&state, cpu, 1, now);
			}
	for (ms = 0; ms < WARMUP_MS + balances; ms++) {
		now += NS_PER_MS;
		step(busy, level, ms, now);
		if (ms >= WARMUP_MS)
			verdicts[bench_gate_balance(ms % model.nr_cpus, now + 250000)]++;
	}
}

int main(int argc, char **argv)
{
	static const char *const stories[] = { "light", "busy" };
	static const char *const counted[] = { "bench_gate_balance", NULL };
	u32 s, r;
	int i;

	if (argc == 4 && !strcmp(argv[1], "--child")) {
		if (model_file_load_warn("bench_gate", argv[3], &model))
			return 1;
		run(!strcmp(argv[2], "busy"), BALANCES);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if (model_file_load_warn("bench_gate", argv[i], &model))
			return 1;
		for (s = 0; s < 2; s++) {
			long long ir = callgrind_instr(counted, "%s --child %s %s",
						       argv[0], stories[s], argv[i]);

			run(s == 1, BALANCES);
			printf("# verdicts model=%s story=%s", argv[i], stories[s]);
			for (r = 0; r < SP_GATE_NR; r++)
				printf(" %s=%llu", sp_gate_names[r], verdicts[r]);
			printf("\ngate_balance model=%s story=%s cpus=%u balances=%u",
			       argv[i], stories[s], model.nr_cpus, BALANCES);
			printf(" instr_per_balance=");
			if (ir >= 0)
				printf("%.1f", (double)ir / BALANCES);
			else
				printf("n/a");
			printf(" cpus_asked_per_balance=%.2f\n", (double)asked / BALANCES);
		}
	}
	return 0;
}
