// SPDX-License-Identifier: GPL-2.0
/*
 * acct_equiv.c - the idle accounting of this tree against another's.
 *
 * Two copies of core/sp_acct.c and core/sp_state.c (acct_equiv_shim.c,
 * the other built from a git revision's core/, main by default) take the
 * same seeded random events on the same model: entries into random states
 * (the deepest for half of them, an index past it for some), exits, a
 * second entry or an exit of an awake CPU now and then, CPUs taken at
 * random or in turn, gaps of 0 to 50 ms (a quarter under 100 us, a quarter
 * under 2 ms), a clock step back, a reset, a cpufreq report or a capacity
 * change once in a while.  After every event each copy's fields and
 * readouts (sp_acct_cpu_sum(), sp_acct_group_sum(), the group's awake
 * fraction, the CPU's utilisation, the exit's report) are compared.
 *
 * Usage: acct_equiv [-n EVENTS] [-s SEED] MODEL...
 * Prints one line per model and "N passed, M failed" (events); exits 1 on
 * any mismatch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acct_equiv.h"
#include "model_file.h"
#include "xorshift.h"

#define MAX_OUT	(1u << 17)

static struct sp_model model;
static u64 ra[MAX_OUT], rb[MAX_OUT];
static s8 awake[SP_MAX_CPUS + 1];	/* the driver's own idea of each CPU: 1 awake */

/* @n events on @m from @seed; returns the events whose results differ. */
static u64 run(const struct sp_model *m, u64 n, u64 seed)
{
	u64 t = 1000000, bad = 0, i, x = seed, ea, eb;
	u32 cpu = 0, op, arg, na, nb, r;

	old_init(m, t);
	new_init(m, t);
	memset(awake, 1, sizeof(awake));
	for (i = 0; i < n; i++) {
		r = xorshift_u32(&x) % 4;
		t += r == 0 ? xorshift_in(&x, 0, 100000) : r == 1 ? xorshift_in(&x, 0, 2000000) :
		     xorshift_in(&x, 0, 50000000);
		if (xorshift_u32(&x) % 1000 == 0)
			t -= xorshift_in(&x, 0, 1000000);	/* the clock steps back */
		cpu = xorshift_u32(&x) % 4 ? (cpu + 1) % m->nr_cpus : xorshift_u32(&x) % m->nr_cpus;
		if (xorshift_u32(&x) % 500 == 0)
			cpu = m->nr_cpus;			/* outside the model */
		r = xorshift_u32(&x) % 10000;
		if (r < 2) {
			op = 2;
			arg = 0;
		} else if (r < 20) {
			op = 3;
			arg = xorshift_u32(&x) % 256 << 8 |
			      (u8)(xorshift_u32(&x) % 2 ? -1 : (s32)xorshift_in(&x, 0, 8));
		} else if (r < 40) {
			op = 4;
			arg = xorshift_in(&x, 0, 1100);
		} else {
			op = awake[cpu] ? xorshift_u32(&x) % 16 == 0 : xorshift_u32(&x) % 16 != 0;
			r = xorshift_u32(&x) % 8;
			arg = op ? xorshift_u32(&x) % 2 : r < 4 ? UINT32_MAX : r < 6 ?
			      xorshift_in(&x, 0, SP_MAX_IDLE) : xorshift_u32(&x) % 2;
			if (cpu < m->nr_cpus)
				awake[cpu] = op == 1;
		}
		ea = old_event(m, op, cpu, arg, t);
		eb = new_event(m, op, cpu, arg, t);
		na = old_readout(m, t, ra, MAX_OUT);
		nb = new_readout(m, t, rb, MAX_OUT);
		if (ea != eb || na != nb || na > MAX_OUT || memcmp(ra, rb, na * sizeof(u64))) {
			if (!bad++)
				fprintf(stderr, "acct_equiv: first mismatch at event %llu (op %u cpu %u arg %u t %llu)\n",
					(unsigned long long)i, op, cpu, arg, (unsigned long long)t);
		}
	}
	return bad;
}

int main(int argc, char **argv)
{
	u64 n = 200000, seed = 1, bad, all = 0, fails = 0;
	int i = 1;

	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "-n"))
			n = strtoull(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "-s"))
			seed = strtoull(argv[i + 1], NULL, 10);
	}
	for (; i < argc; i++) {
		if (model_file_load_warn("acct_equiv", argv[i], &model))
			return 1;
		bad = run(&model, n, seed ? seed : 1);
		printf("acct_equiv model=%s cpus=%u events=%llu mismatches=%llu\n", argv[i],
		       model.nr_cpus, (unsigned long long)n, (unsigned long long)bad);
		all += n;
		fails += bad;
	}
	printf("%llu passed, %llu failed\n", (unsigned long long)(all - fails),
	       (unsigned long long)fails);
	return fails ? 1 : 0;
}
