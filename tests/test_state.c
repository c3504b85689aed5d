// SPDX-License-Identifier: GPL-2.0
/* Host tests of core/sp_state.c: utilisation decay and group counters. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "sp_model.h"
#include "sp_state.h"

/* Exact u * 2^-(dt/32000) + 1024 * (1 - 2^-(dt/32000)) * busy. */
static double exact(double u, double dt_us, int busy)
{
	double f = pow(2.0, -dt_us / 32000.0);

	return u * f + (busy ? 1024.0 * (1.0 - f) : 0.0);
}

static void test_decay_halflife(void **s)
{
	/* one half-life: 1024 idle -> 512; 0 busy -> 512 */
	assert_int_equal(sp_state_decay(1024, 32000, false), 512);
	assert_in_range(sp_state_decay(0, 32000, true), 511, 512);
	/* two half-lives: 1024 -> 256 */
	assert_int_equal(sp_state_decay(1024, 64000, false), 256);
	/* no time: unchanged */
	assert_int_equal(sp_state_decay(700, 0, false), 700);
	assert_int_equal(sp_state_decay(700, 0, true), 700);
	/* forever: 0 idle, 1024 busy (within rounding) */
	assert_int_equal(sp_state_decay(1024, 10000000, false), 0);
	assert_in_range(sp_state_decay(0, 10000000, true), 1023, 1024);
}

static void test_decay_matches_closed_form(void **s)
{
	static const u32 dts[] = { 1, 250, 999, 1000, 1500, 7777, 16000, 31999,
				   33000, 50000, 100000, 250000 };
	static const u32 us[] = { 0, 1, 100, 512, 1000, 1024 };
	size_t i, j;
	int b;

	for (i = 0; i < SP_ARRAY_SIZE(dts); i++)
		for (j = 0; j < SP_ARRAY_SIZE(us); j++)
			for (b = 0; b < 2; b++) {
				double e = exact(us[j], dts[i], b);
				u32 got = sp_state_decay(us[j], dts[i], b);

				/* table+interpolation+truncation: within 1.5 units */
				assert_true(fabs(got - e) <= 1.5);
			}
}

/* 4 CPUs, two packages of two (the VM's shape), built in code. */
/* sp_state_decay_us() as first written: util * f + cap * (2^32 - f). */
static u32 decay_as_written(u32 util, u64 dt_us, u32 cap)
{
	u64 ms = dt_us / 1000, f = 0, u;
	u32 part = (u32)(dt_us - ms * 1000), j = (u32)ms & 31;

	if (ms < 40 * 32) {
		f = sp_state_decay_q32[j] -
		    (sp_state_decay_q32[j] - sp_state_decay_q32[j + 1]) * part / 1000;
		f >>= ms >> 5;
	}
	if (cap > SP_CAP_SCALE)
		cap = SP_CAP_SCALE;
	u = (u64)util * f + (u64)cap * (0x100000000ULL - f);
	u = (u + 0x80000000ULL) >> 32;
	return u > SP_CAP_SCALE ? SP_CAP_SCALE : (u32)u;
}

static u64 rnd64(void)
{
	return (u64)random() << 33 ^ (u64)random() << 11 ^ (u64)random();
}

/*
 * The interpolation's table is sp_state_decay_q32 and its steps, whose Q20
 * form floors every part of a ms as the step / 1000 would.
 */
static void test_decay_steps(void **s)
{
	u32 j, part;

	for (j = 0; j < 32; j++) {
		u64 step = sp_state_decay_q32[j] - sp_state_decay_q32[j + 1];

		assert_true(sp_state_decay_steps.q32[j] == sp_state_decay_q32[j]);
		assert_true(sp_state_decay_steps.step_q20[j] == ((step << 20) + 999) / 1000);
		for (part = 0; part < 1000; part++)
			assert_true((part * sp_state_decay_steps.step_q20[j]) >> 20 ==
				    step * part / 1000);
	}
}

/* The rearranged product gives the same bits on every input, huge ones too. */
static void test_decay_equals_as_written(void **s)
{
	static const u64 dt_max[] = { 2000, 40000, 200000, 1400000, 1ull << 40 };
	u32 i;

	srandom(20);
	for (i = 0; i < 2000000; i++) {
		u32 util = i & 1 ? (u32)(rnd64() % 1100) : (u32)rnd64();
		u32 cap = i & 2 ? (u32)(rnd64() % 1100) : (u32)rnd64();
		u64 dt = rnd64() % dt_max[i % SP_ARRAY_SIZE(dt_max)];

		assert_int_equal(sp_state_decay_us(util, dt, cap), decay_as_written(util, dt, cap));
	}
	/* every us of the 40 half-lives the table covers, and the first past them */
	for (i = 0; i <= 40 * 32 * 1000; i++)
		assert_int_equal(sp_state_decay_us(1000 - i % 977, i, i % 3 * 300),
				 decay_as_written(1000 - i % 977, i, i % 3 * 300));
}

/* A fold that sp_state_group_fold_keeps() skips would not have changed it. */
static void test_group_fold_keeps(void **s)
{
	static const u64 dt_max[] = { 5000000, 20000000, 130000000, 1ull << 32 };
	u32 i, kept = 0;

	srandom(22);
	for (i = 0; i < 4000000; i++) {
		bool awake = i & 1;
		u32 d = (u32)(rnd64() % (i & 2 ? 40 : 1025));
		u32 avg = awake ? SP_CAP_SCALE - d : d;
		u64 dt = 1 + rnd64() % dt_max[(i >> 2) % SP_ARRAY_SIZE(dt_max)];

		if (!sp_state_group_fold_keeps(avg, awake, dt))
			continue;
		kept++;
		assert_int_equal(decay_as_written(avg, dt / 4000, awake ? SP_CAP_SCALE : 0), avg);
	}
	assert_true(kept > 100000);
}

/*
 * The idle path's shortcuts give what they stand for: below
 * SP_GROUP_KEEPS_NS every fraction keeps (and at it the farthest one need
 * not), sp_state_decay_near() is sp_state_decay_to() on every input,
 * sp_state_decay_near_in() is on every stretch under SP_STATE_DECAY_FAR_US
 * (its end included), whose factor is 0 from 33 half-lives on (so a clamp
 * to the bound's last us is the factor past it), and sp_state_decay_mix_in()
 * is sp_state_decay_mix() for inputs in range.
 */
static void test_idle_path_shortcuts(void **s)
{
	static const u64 dt_max[] = { 1000, 1001, 40000, 1ull << 40 };
	u32 avg, i;
	u64 dt, f;

	for (avg = 0; avg <= SP_CAP_SCALE; avg++)
		for (dt = SP_GROUP_KEEPS_NS - 1000; dt < SP_GROUP_KEEPS_NS; dt++) {
			assert_true(sp_state_group_fold_keeps(avg, true, dt));
			assert_true(sp_state_group_fold_keeps(avg, false, dt));
		}
	assert_false(sp_state_group_fold_keeps(0, true, SP_GROUP_KEEPS_NS));
	/* the group fold's clamp: its factor is 0 well before the bound */
	for (dt = 33 * 32 * 1000; dt < SP_STATE_DECAY_FAR_US; dt += 7)
		assert_true(sp_state_decay_factor_in(dt) == 0);
	assert_true(sp_state_decay_factor_in(32 * 32 * 1000) != 0);
	srandom(23);
	for (i = 0; i < 2000000; i++) {
		u32 util = (u32)(rnd64() % (SP_CAP_SCALE + 1));
		u32 cap = i & 1 ? (u32)(rnd64() % (SP_CAP_SCALE + 1)) : util;

		dt = rnd64() % dt_max[(i >> 1) % SP_ARRAY_SIZE(dt_max)];
		assert_int_equal(sp_state_decay_near(util, dt, cap), sp_state_decay_to(util, dt, cap));
		dt = i % 5 ? rnd64() % SP_STATE_DECAY_FAR_US : SP_STATE_DECAY_FAR_US - 1 - i % 3000;
		assert_int_equal(sp_state_decay_near_in(util, dt, cap),
				 sp_state_decay_to(util, dt, cap));
		/* the fold without the clamp, for any factor up to 2^32 and its ends */
		f = i % 3 ? rnd64() % (SP_Q32_ONE + 1) : i % 2 ? SP_Q32_ONE : 0;
		assert_int_equal(sp_state_decay_mix_in(util, f, cap), sp_state_decay_mix(util, f, cap));
	}
}

/* pd_req is the largest opp_req of each pd, held by a CPU that asks for it. */
static void check_pd_req(const struct sp_state *st, const struct sp_model *m)
{
	u32 p, i;

	for (p = 0; p < m->nr_pds; p++) {
		const struct sp_pd *pd = &m->pd[p];
		u32 req = st->pd_req[p], top = req & SP_PD_REQ_OPP_MASK, k = 0;
		bool held = false;

		for (i = 0; i < pd->nr_cpus; i++) {
			u32 cpu = m->pd_cpus[pd->cpu_off + i];

			if (st->opp_req[cpu] > k)
				k = st->opp_req[cpu];
			if (cpu == req >> SP_PD_REQ_CPU_SHIFT && st->opp_req[cpu] == top)
				held = true;
		}
		assert_int_equal(top, k);
		assert_true(held);
		assert_int_equal(sp_state_pd_opp_req(st, &m->pd_idle[p], p), sp_state_pd_opp(st, m, p));
	}
	/* what each CPU's entry keeps of its pd follows its request and the model */
	for (i = 0; i < m->nr_cpus; i++) {
		const struct sp_pd_idle *pi = &m->pd_idle[m->cpu_pd[i]];

		assert_int_equal(st->cpu[i].req_urange, sp_model_pd_urange(pi, st->opp_req[i]));
		assert_int_equal(st->cpu[i].opp_clamp, pi->opp_clamp);
		assert_int_equal(st->cpu[i].deepest, pi->deepest);
	}
}

static void test_pd_req_kept(void **s)
{
	static const u16 pkg[8] = { 0, 0, 0, 0, 0, 1, 1, 1 };
	static struct sp_model m;
	static struct sp_state st;
	u64 now = 1000000;
	u32 i;

	assert_int_equal(sp_model_synthetic(&m, 8, pkg, NULL), 0);
	srandom(21);
	sp_state_init(&st, &m, now);
	check_pd_req(&st, &m);
	for (i = 0; i < 200000; i++) {
		u32 cpu = (u32)random() % 8;

		now += (u64)(random() % 20000000);
		if (i % 1000 == 0)
			st.pd_opp[m.cpu_pd[cpu]] = random() % 3 ? SP_OPP_MODELLED :
						   (s32)(random() % 20);
		if (sp_state_cpu_idle(&st, cpu))
			sp_state_idle_exit(&st, &m, cpu, now);
		else
			sp_state_idle_enter(&st, &m, cpu, (u32)random() % 4, now);
		check_pd_req(&st, &m);
	}
	sp_state_resync(&st, &m, now);
	check_pd_req(&st, &m);
}

static void two_pkg(struct sp_model *m)
{
	static const u16 pkg[4] = { 0, 0, 1, 1 };

	assert_int_equal(sp_model_synthetic(m, 4, pkg, NULL), 0);
}

static u32 pkg_level(const struct sp_model *m)
{
	return m->nr_levels - 1;
}

/* The deepest idle-state index of @cpu's pd. */
static u32 deepest(const struct sp_model *m, u32 cpu)
{
	return m->pd[m->cpu_pd[cpu]].nr_idle - 1;
}

/*
 * A CPU's capacity starts at its pd's top OPP, at most 1024 (the idle
 * entry decays towards it without a clamp), even for a built model whose
 * top OPP claims more.
 */
static void test_init_cap_in_range(void **s)
{
	static struct sp_model m;
	static struct sp_state st;
	struct sp_pd *pd;

	two_pkg(&m);
	pd = &m.pd[m.cpu_pd[3]];
	sp_state_init(&st, &m, 0);
	assert_int_equal(st.cpu[3].cap, pd->opp[pd->nr_opps - 1].cap);
	pd->opp[pd->nr_opps - 1].cap = 3000;
	sp_state_init(&st, &m, 0);
	assert_int_equal(st.cpu[3].cap, SP_CAP_SCALE);
	assert_int_equal(st.cpu[0].cap, m.pd[m.cpu_pd[0]].opp[m.pd[m.cpu_pd[0]].nr_opps - 1].cap);
}

static void test_group_counters(void **s)
{
	static struct sp_model m;
	static struct sp_state st;
	u32 top, g0, g1, deep;

	two_pkg(&m);
	deep = deepest(&m, 2);
	assert_true(deep >= 1);
	sp_state_init(&st, &m, 1000);
	top = pkg_level(&m);
	g0 = m.cpu_group[top][0];
	g1 = m.cpu_group[top][2];
	assert_int_not_equal(g0, g1);
	assert_int_equal(sp_atomic_read(&st.group[g0].nr_awake), 2);
	assert_false(sp_state_group_idle(&st, g1));

	sp_state_idle_enter(&st, &m, 2, deep, 5000);
	assert_false(sp_state_group_idle(&st, g1));
	sp_state_idle_enter(&st, &m, 3, deep, 7000);
	assert_true(sp_state_group_idle(&st, g1));
	assert_int_equal(st.group[g1].idle_since_ns, 7000);
	/* a second enter into a shallower state wakes the package again */
	sp_state_idle_enter(&st, &m, 3, 0, 8000);
	assert_int_equal(sp_atomic_read(&st.group[g1].nr_awake), 1);
	assert_int_equal(st.cpu[3].idle_state, 0);
	/* ... and back to the deepest lets it sleep, stamped anew */
	assert_int_equal(sp_state_idle_enter(&st, &m, 3, deep, 8500), 1u << top);
	assert_true(sp_state_group_idle(&st, g1));
	assert_int_equal(st.group[g1].idle_since_ns, 8500);

	sp_state_idle_exit(&st, &m, 2, 9000);
	assert_false(sp_state_group_idle(&st, g1));
	sp_state_idle_exit(&st, &m, 2, 9500);	/* duplicate exit: ignored */
	assert_int_equal(sp_atomic_read(&st.group[g1].nr_awake), 1);
	assert_int_equal(sp_atomic_read(&st.group[g0].nr_awake), 2);

	/* out-of-model CPUs are ignored, not indexed */
	sp_state_idle_enter(&st, &m, 4, 0, 9600);
	sp_state_idle_enter(&st, &m, 100000, 0, 9600);
	assert_int_equal(sp_atomic_read(&st.group[g0].nr_awake), 2);
}

/*
 * A package is asleep only while all its CPUs are in their deepest state:
 * two CPUs halted in C1 (and any state short of the deepest) keep it up,
 * and leaving C1 does not count as a package wake-up.
 */
static void test_package_sleeps_only_when_all_deep(void **s)
{
	static struct sp_model m;
	static struct sp_state st;
	u32 g1, deep, idx;

	two_pkg(&m);
	deep = deepest(&m, 2);
	sp_state_init(&st, &m, 0);
	g1 = m.cpu_group[pkg_level(&m)][2];
	for (idx = 0; idx < deep; idx++) {
		assert_int_equal(sp_state_idle_enter(&st, &m, 2, idx, 1000), 0);
		assert_int_equal(sp_state_idle_enter(&st, &m, 3, idx, 1000), 0);
		assert_false(sp_state_group_idle(&st, g1));
		assert_int_equal(sp_state_idle_exit(&st, &m, 2, 2000), 0);
		assert_int_equal(sp_state_idle_exit(&st, &m, 3, 2000), 0);
	}
	assert_int_equal(sp_state_idle_enter(&st, &m, 2, deep, 3000), 0);
	assert_int_equal(sp_state_idle_enter(&st, &m, 3, deep - 1, 3000), 0);
	assert_false(sp_state_group_idle(&st, g1));
	/* an index past the deepest counts as the deepest */
	assert_int_equal(sp_state_idle_enter(&st, &m, 3, deep + 5, 4000),
			 1u << pkg_level(&m));
	assert_true(sp_state_group_idle(&st, g1));
	assert_int_equal(sp_state_idle_exit(&st, &m, 3, 5000), 1u << pkg_level(&m));
	assert_false(sp_state_group_idle(&st, g1));
	/* so does the largest index, which is no "awake" marker */
	assert_int_equal(sp_state_idle_enter(&st, &m, 3, UINT32_MAX, 6000),
			 1u << pkg_level(&m));
	assert_true(sp_state_cpu_idle(&st, 3));
	assert_true(sp_state_group_idle(&st, g1));
}

/*
 * Frequency invariance: busy at capacity 256 for 32 ms climbs from 0 to
 * half of 256, not half of 1024; a CPU never told its capacity runs at its
 * pd's full capacity.
 */
static void test_util_frequency_invariant(void **s)
{
	static struct sp_model m;
	static struct sp_state st;

	two_pkg(&m);
	sp_state_init(&st, &m, 0);
	assert_int_equal(st.cpu[1].cap, 1024);
	sp_state_set_cap(&st, 0, 256, 0);
	assert_in_range(sp_state_cpu_util(&st, 0, 32000000ull), 127, 128);
	/* at 32 ms the OPP goes up: what was accrued stays, the rate changes */
	sp_state_set_cap(&st, 0, 1024, 32000000ull);
	assert_in_range(st.cpu[0].util, 127, 128);
	/* 128 + (1024 - 128) / 2 = 576 after another half-life */
	assert_in_range(sp_state_cpu_util(&st, 0, 64000000ull), 575, 576);
	/* idle decays whatever the capacity */
	sp_state_idle_enter(&st, &m, 0, 0, 64000000ull);
	assert_in_range(sp_state_cpu_util(&st, 0, 96000000ull), 287, 288);
	assert_in_range(sp_state_decay_cap(0, 32000, 512), 255, 256);
	assert_int_equal(sp_state_decay_cap(100, 0, 0), 100);
}

static void test_util_follows_busy_idle(void **s)
{
	static struct sp_model m;
	static struct sp_state st;

	two_pkg(&m);
	sp_state_init(&st, &m, 0);
	/* busy 0..32 ms: 0 -> ~512 at the idle entry */
	sp_state_idle_enter(&st, &m, 0, 0, 32000000ull);
	assert_in_range(st.cpu[0].util, 511, 512);
	/* idle for 32 ms more: read-time decay halves it, stored value unchanged */
	assert_in_range(sp_state_cpu_util(&st, 0, 64000000ull), 255, 256);
	assert_in_range(st.cpu[0].util, 511, 512);
	/* wake at 64 ms: stored value catches up */
	sp_state_idle_exit(&st, &m, 0, 64000000ull);
	assert_in_range(st.cpu[0].util, 255, 256);
	/* busy CPU keeps climbing at read time: 256 + (1024-256)/2 = 640 */
	assert_in_range(sp_state_cpu_util(&st, 0, 96000000ull), 639, 640);
	/* a clock that goes backwards reads the stored value */
	assert_in_range(sp_state_cpu_util(&st, 0, 1000), 255, 256);
}

/*
 * The wake-up path reads a stored average as it is while its stamp is at
 * most SP_STALE_NS (4 ms) old, and brings an older one forward.  CPU 0 is
 * awake at full capacity with util 500 stamped at 10 ms:
 *  - at 14 ms (4 ms old) the stored 500, where the exact average has
 *    climbed to 500 * 2^-(4000/32000) + 1024 * (1 - 2^-(4000/32000)) =
 *    500 * 0.917004 + 1024 * 0.082996 = 543.49: 543;
 *  - 1 ns later, 4000 us by the clock's us, the stale rule gives that 543.
 * The awake fraction of package 0 (awake, 0 stamped at 10 ms): stored 0 at
 * 14 ms, at 42 ms the exact 1024 * (1 - 2^-(32000/128000)) = 1024 *
 * 0.159104 = 162.9: 162 or 163 by the table.  An idle exit of CPU 1 in a
 * shallow state at 42 ms folds it there (CPU 0 keeps the package up).
 */
static void test_stored_reads(void **s)
{
	static struct sp_model m;
	static struct sp_state st;
	u32 g0;

	two_pkg(&m);
	sp_state_init(&st, &m, 0);
	g0 = m.cpu_group[pkg_level(&m)][0];
	st.cpu[0].util = 500;
	st.cpu[0].util_stamp_ns = 10000000ull;
	assert_int_equal(sp_state_cpu_util_stored(&st, 0, 14000000ull), 500);
	assert_int_equal(sp_state_cpu_util(&st, 0, 14000000ull), 543);
	assert_int_equal(sp_state_cpu_util_stored(&st, 0, 14000001ull), 543);

	st.group[g0].awake_avg = 0;
	st.group[g0].avg_stamp_ns = 10000000ull;
	assert_int_equal(sp_state_group_awake(&st, g0, 14000000ull), 0);
	assert_in_range(sp_state_group_awake(&st, g0, 42000000ull), 162, 163);
	sp_state_idle_enter(&st, &m, 1, 0, 41000000ull);	/* folds: 31 ms old */
	assert_int_equal(st.group[g0].avg_stamp_ns, 41000000ull);
	assert_in_range(st.group[g0].awake_avg, 158, 159);	/* 1024 * 0.154538 */
	sp_state_idle_exit(&st, &m, 1, 42000000ull);	/* 1 ms old: left alone */
	assert_int_equal(st.group[g0].avg_stamp_ns, 41000000ull);
	sp_state_idle_exit(&st, &m, 1, 43000000ull);	/* awake already: ignored */
	assert_int_equal(st.group[g0].avg_stamp_ns, 41000000ull);
	sp_state_idle_enter(&st, &m, 1, 0, 45000001ull);	/* over 4 ms: folds */
	assert_int_equal(st.group[g0].avg_stamp_ns, 45000001ull);
}

static void test_resync(void **s)
{
	static struct sp_model m;
	static struct sp_state st;
	u32 g1;

	two_pkg(&m);
	sp_state_init(&st, &m, 0);
	g1 = m.cpu_group[pkg_level(&m)][2];
	st.cpu[2].idle_state = (s32)deepest(&m, 2);
	st.cpu[3].idle_state = 0;
	sp_state_resync(&st, &m, 42);
	assert_false(sp_state_group_idle(&st, g1));	/* CPU 3 only halts */
	st.cpu[3].idle_state = (s32)deepest(&m, 3);
	sp_state_resync(&st, &m, 42);
	assert_true(sp_state_group_idle(&st, g1));
	assert_int_equal(st.group[g1].idle_since_ns, 42);
	assert_int_equal(st.pd_opp[0], SP_OPP_MODELLED);
}

/*
 * The util cache: a CPU read in this decision is a hit; the next decision
 * reads it afresh, also when the decision number wraps (the keys are
 * cleared then, so a slot filled just before the wrap cannot match).
 */
static void test_ucache_decisions(void **s)
{
	static struct sp_state st;
	static struct sp_util_cache uc;
	const u64 now = 5000000;

	st.cpu[3].util = 200;
	st.cpu[3].util_stamp_ns = now;
	sp_state_ucache_begin(&uc);
	sp_state_ucache_put(&uc, 3, 100);
	assert_int_equal(sp_state_ucache_cpu(&uc, &st, 3, now), 100);
	assert_int_equal(sp_state_ucache_cpu(&uc, &st, 3 + SP_UTIL_CACHE_SLOTS, now), 0);
	sp_state_ucache_begin(&uc);
	assert_int_equal(sp_state_ucache_cpu(&uc, &st, 3, now), 200);
	/*
	 * A slot filled by the first decision number, then the last one before
	 * the wrap: the wrap comes back to the first number, and must not see
	 * that slot.
	 */
	memset(&uc, 0, sizeof(uc));
	sp_state_ucache_begin(&uc);
	sp_state_ucache_put(&uc, 3, 100);
	uc.gen = 0xffff0000u;
	sp_state_ucache_begin(&uc);
	assert_int_equal(sp_state_ucache_cpu(&uc, &st, 3, now), 200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decay_halflife),
		cmocka_unit_test(test_decay_matches_closed_form),
		cmocka_unit_test(test_group_counters),
		cmocka_unit_test(test_package_sleeps_only_when_all_deep),
		cmocka_unit_test(test_util_frequency_invariant),
		cmocka_unit_test(test_util_follows_busy_idle),
		cmocka_unit_test(test_stored_reads),
		cmocka_unit_test(test_resync),
		cmocka_unit_test(test_decay_steps),
		cmocka_unit_test(test_decay_equals_as_written),
		cmocka_unit_test(test_pd_req_kept),
		cmocka_unit_test(test_group_fold_keeps),
		cmocka_unit_test(test_idle_path_shortcuts),
		cmocka_unit_test(test_init_cap_in_range),
		cmocka_unit_test(test_ucache_decisions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
