// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of core/sp_acct.c: verdicts, residency and modelled energy
 * driven by synthetic idle-event sequences, checked against hand-computed
 * values on the x86-2pkg model (models/x86-2pkg.model):
 *
 *	OPP0 256 cap 270000 uW (a CPU at utilisation ~0 runs here)
 *	C1 150000 uW, target 2 us, wake 0 uJ; C6 5000 uW, target 240 us, wake 40 uJ
 *	package: active 2000000 uW, idle 100000 uW, wake 600 uJ
 *
 * nJ = uW * us / 1000.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <pthread.h>

#include "sp_acct.h"
#include "test_models.h"

#define US(x)	((u64)(x) * 1000u)	/* us -> ns timestamps */
#define C1	0
#define C6	1


static struct sp_model m;
static struct sp_state st;
static struct sp_acct acct;

static int setup(void **s)
{
	struct sp_parse_error err;

	if (sp_model_parse(x86_2pkg, sizeof(x86_2pkg) - 1, &m, &err)) {
		fprintf(stderr, "model: line %d %s: %s\n", err.line, err.field, err.msg);
		return -1;
	}
	sp_state_init(&st, &m, 0);
	sp_acct_reset(&acct, 0);
	return 0;
}

static u32 pkg(u32 cpu)
{
	return m.cpu_group[m.nr_levels - 1][cpu];
}

static void test_verdict_rule(void **s)
{
	const struct sp_pd *pd = &m.pd[0];

	/* C6 (deepest): early below 240 us, hit from 240 on, never late */
	assert_int_equal(sp_acct_verdict(pd, C6, 239), SP_V_EARLY);
	assert_int_equal(sp_acct_verdict(pd, C6, 240), SP_V_HIT);
	assert_int_equal(sp_acct_verdict(pd, C6, 100000000), SP_V_HIT);
	/* C1: early below 2, late once C6 would have paid (>= 240) */
	assert_int_equal(sp_acct_verdict(pd, C1, 1), SP_V_EARLY);
	assert_int_equal(sp_acct_verdict(pd, C1, 2), SP_V_HIT);
	assert_int_equal(sp_acct_verdict(pd, C1, 239), SP_V_HIT);
	assert_int_equal(sp_acct_verdict(pd, C1, 240), SP_V_LATE);
	/* an index past the table is the deepest state */
	assert_int_equal(sp_acct_verdict(pd, 7, 100), SP_V_EARLY);
}

/*
 * sp_acct_exit()'s verdict and target are sp_acct_verdict()'s and the
 * state's, at every boundary of every state (and an index past the table),
 * on the straight path and on the general one (a stay begun before a reset).
 */
static void test_exit_verdict_bounds(void **s)
{
	const struct sp_pd *pd = &m.pd[m.cpu_pd[0]];
	u32 idx, i, path;

	for (path = 0; path < 2; path++)
		for (idx = 0; idx <= pd->nr_idle; idx++) {
			u32 as = idx < pd->nr_idle ? idx : pd->nr_idle - 1u;
			u64 t = pd->idle[as].target_residency_us;
			u64 late = as + 1u < pd->nr_idle ? pd->idle[as + 1].target_residency_us :
				   1ull << 34;
			const u64 res[] = { 0, t ? t - 1 : 0, t, t + 1, late - 1, late, late + 1,
					    1ull << 33, 1ull << 34 };

			for (i = 0; i < SP_ARRAY_SIZE(res); i++) {
				struct sp_idle_exit_info x;
				u64 now = US(1000);

				sp_state_init(&st, &m, now);
				sp_acct_reset(&acct, now);
				now += US(50);
				sp_acct_enter(&acct, &st, &m, 0, idx, now);
				if (path)
					sp_acct_reset(&acct, now + 1);
				now += US(res[i]);
				assert_true(sp_acct_exit(&acct, &st, &m, 0, now, &x));
				assert_int_equal(x.state, as);
				assert_int_equal(x.residency_us, res[i]);
				assert_int_equal(x.target_us, t);
				assert_int_equal(x.verdict, sp_acct_verdict(pd, as, res[i]));
			}
		}
}

/*
 * CPU0: busy 0..1000, C6 1000..1500 (500 >= 240: hit).
 * CPU1: busy 0..200, C6 200..300 (100 < 240: early), busy 300..400,
 *	 C1 400..900 (500 >= 240, C6's target: late).
 * CPU2, CPU3: C6 from 0; CPU2 wakes at 2000 and so wakes package 1.
 * Read at 3000.
 */
static void run_sequence(void)
{
	struct sp_idle_exit_info x;

	sp_acct_enter(&acct, &st, &m, 2, C6, US(0));
	sp_acct_enter(&acct, &st, &m, 3, C6, US(0));
	sp_acct_enter(&acct, &st, &m, 1, C6, US(200));
	assert_true(sp_acct_exit(&acct, &st, &m, 1, US(300), &x));
	assert_int_equal(x.verdict, SP_V_EARLY);
	assert_int_equal(x.residency_us, 100);
	assert_int_equal(x.target_us, 240);
	sp_acct_enter(&acct, &st, &m, 1, C1, US(400));
	assert_true(sp_acct_exit(&acct, &st, &m, 1, US(900), &x));
	assert_int_equal(x.verdict, SP_V_LATE);
	assert_int_equal(x.state, C1);
	sp_acct_enter(&acct, &st, &m, 0, C6, US(1000));
	assert_true(sp_acct_exit(&acct, &st, &m, 0, US(1500), &x));
	assert_int_equal(x.verdict, SP_V_HIT);
	assert_true(sp_acct_exit(&acct, &st, &m, 2, US(2000), &x));
}

static void test_counts(void **s)
{
	const struct sp_acct_cpu *c0 = &acct.cpu[0], *c1 = &acct.cpu[1];

	run_sequence();
	assert_int_equal(sp_acct_stat_entries(&c0->state[C6]), 1);
	assert_int_equal(c0->state[C6].residency_us, 500);
	assert_int_equal(c0->state[C6].verdict[SP_V_HIT], 1);
	assert_int_equal(c1->state[C6].verdict[SP_V_EARLY], 1);
	assert_int_equal(c1->state[C1].verdict[SP_V_LATE], 1);
	assert_int_equal(c1->state[C1].residency_us, 500);
	assert_int_equal(sp_acct_cpu_exits(c1), 2);
	/* CPU3 is still in C6: an open stay, not yet an entry */
	assert_int_equal(sp_acct_stat_entries(&acct.cpu[3].state[C6]), 0);
}

/* @e's busy and idle time (us) and its busy, idle and wake-up energy (nJ). */
static void assert_sum(const struct sp_energy_sum *e, u64 busy_us,
		       u64 idle_us, u64 busy_nj, u64 idle_nj, u64 wake_nj)
{
	assert_int_equal(e->busy_us, busy_us);
	assert_int_equal(e->idle_us, idle_us);
	assert_int_equal(e->busy_nj, busy_nj);
	assert_int_equal(e->idle_nj, idle_nj);
	assert_int_equal(e->wake_nj, wake_nj);
}

static void test_cpu_energy(void **s)
{
	struct sp_energy_sum e;

	run_sequence();
	/* CPU0: busy 1000 us at OPP0: 1000 * 270000 / 1000 = 270000 nJ,
	 * C6 500 us: 2500 nJ, one C6 exit 40000 nJ, then busy 1500 us more
	 * (open stretch 1500..3000): 405000 nJ.
	 */
	sp_acct_cpu_sum(&acct, &st, &m, 0, US(3000), &e);
	assert_sum(&e, 2500, 500, 270000 + 405000, 2500, 40000);
	/* CPU1: busy 200 + 100 + (900..3000) 2100 = 2400 us: 648000 nJ;
	 * C6 100 us: 500 nJ, C1 500 us: 75000 nJ; wake 40000 + 0.
	 */
	sp_acct_cpu_sum(&acct, &st, &m, 1, US(3000), &e);
	assert_sum(&e, 2400, 600, 648000, 75500, 40000);
	/* CPU3: C6 since 0, open: 3000 us * 5000 / 1000 = 15000 nJ */
	sp_acct_cpu_sum(&acct, &st, &m, 3, US(3000), &e);
	assert_int_equal(e.idle_us, 3000);
	assert_int_equal(e.idle_nj, 15000);
	assert_int_equal(e.busy_us, 0);
}

static void test_group_energy(void **s)
{
	struct sp_energy_sum e;

	run_sequence();
	/* package 0 never idle (CPU0 awake while CPU1 slept and vice versa):
	 * active 3000 us * 2000000 / 1000 = 6000000 nJ, no wake-up */
	sp_acct_group_sum(&acct, &st, &m, pkg(0), US(3000), &e);
	assert_int_equal(e.busy_us, 3000);
	assert_int_equal(e.busy_nj, 6000000);
	assert_int_equal(e.wakeups, 0);
	/* package 1: idle 0..2000 (100000 uW: 200000 nJ), woken once (600 uJ),
	 * active 2000..3000: 2000000 nJ */
	sp_acct_group_sum(&acct, &st, &m, pkg(2), US(3000), &e);
	assert_sum(&e, 1000, 2000, 2000000, 200000, 600000);
	assert_int_equal(e.wakeups, 1);
}

/* busy + idle of every CPU is the wall time since reset, whatever happened */
static void test_time_adds_up(void **s)
{
	struct sp_energy_sum e;
	u32 cpu;

	run_sequence();
	for (cpu = 0; cpu < 4; cpu++) {
		sp_acct_cpu_sum(&acct, &st, &m, cpu, US(3000), &e);
		assert_int_equal(e.busy_us + e.idle_us, 3000);
	}
}

/* A reset in the middle of a stay: the verdict sees the whole stay, the
 * totals only the part after the reset. */
static void test_reset_clips(void **s)
{
	struct sp_idle_exit_info x;
	struct sp_energy_sum e;

	sp_acct_enter(&acct, &st, &m, 0, C6, US(1000));
	sp_acct_reset(&acct, US(1200));
	assert_true(sp_acct_exit(&acct, &st, &m, 0, US(1500), &x));
	assert_int_equal(x.residency_us, 500);
	assert_int_equal(x.verdict, SP_V_HIT);
	assert_int_equal(acct.cpu[0].state[C6].residency_us, 300);
	sp_acct_cpu_sum(&acct, &st, &m, 0, US(2000), &e);
	assert_int_equal(e.idle_us, 300);
	assert_int_equal(e.busy_us, 500);
}

/* cpufreq's reported OPP is charged instead of the modelled one */
static void test_reported_opp(void **s)
{
	struct sp_energy_sum e;

	st.pd_opp[0] = 3;	/* 3.2 GHz, 3200000 uW */
	sp_acct_enter(&acct, &st, &m, 0, C6, US(100));
	sp_acct_cpu_sum(&acct, &st, &m, 0, US(100), &e);
	assert_int_equal(e.busy_nj, 320000);	/* 100 us * 3200000 / 1000 */
}

/*
 * Busy time is kept per OPP and priced when read: 100 us at the reported
 * OPP 3 (3200000 uW) and 200 us at the reported OPP 1 (800000 uW):
 * 100 * 3200000 / 1000 + 200 * 800000 / 1000 = 320000 + 160000 nJ.
 */
static void test_busy_per_opp(void **s)
{
	struct sp_energy_sum e;

	st.pd_opp[0] = 3;
	sp_acct_enter(&acct, &st, &m, 0, C6, US(100));
	sp_acct_exit(&acct, &st, &m, 0, US(100), NULL);
	st.pd_opp[0] = 1;
	sp_acct_enter(&acct, &st, &m, 0, C6, US(300));
	assert_int_equal(acct.cpu[0].busy_opp_us[3], 100);
	assert_int_equal(acct.cpu[0].busy_opp_us[1], 200);
	sp_acct_cpu_sum(&acct, &st, &m, 0, US(300), &e);
	assert_int_equal(e.busy_us, 300);
	assert_int_equal(e.busy_nj, 320000 + 160000);
}

/*
 * Without a report the pd runs at the largest OPP its CPUs ask for as
 * their last idle entry left them.  CPU1 (util 700, awake at cap 1024)
 * enters C6 at 100 us: 700 * y + 1024 * (1 - y), y = 2^-(100/32000) by the
 * table, 701, needs 5 * 701 / 4 = 877: OPP 3 (cap 768 < 877 <= 1024).
 * CPU0 (util 0) enters C6 at 300 us: 1024 * (1 - 2^-(300/32000)) = 7, OPP 0
 * for itself, but its 300 us are charged at the pd's OPP 3: 300 * 3200000
 * / 1000 = 960000 nJ.
 */
static void test_busy_at_pd_opp(void **s)
{
	struct sp_energy_sum e;

	st.cpu[1].util = 700;
	sp_acct_enter(&acct, &st, &m, 1, C6, US(100));
	assert_int_equal(st.cpu[1].util, 701);
	assert_int_equal(st.opp_req[1], 3);
	sp_acct_enter(&acct, &st, &m, 0, C6, US(300));
	assert_int_equal(st.cpu[0].util, 7);
	assert_int_equal(st.opp_req[0], 0);
	sp_acct_cpu_sum(&acct, &st, &m, 0, US(300), &e);
	assert_int_equal(e.busy_nj, 960000);
}

/* A total past 2^64 nJ saturates instead of wrapping to a small number. */
static void test_energy_saturates(void **s)
{
	struct sp_energy_sum e;

	sp_acct_enter(&acct, &st, &m, 0, C6, US(100));
	acct.cpu[0].busy_opp_us[3] = 1ull << 62;	/* 146,000 years */
	sp_acct_cpu_sum(&acct, &st, &m, 0, US(100), &e);
	assert_true(e.busy_nj == ~0ull);
	acct.cpu[0].busy_opp_us[3] = 0;
}

static void test_robust_input(void **s)
{
	struct sp_idle_exit_info x;

	/* exit without a seen entry: nothing recorded */
	assert_false(sp_acct_exit(&acct, &st, &m, 0, US(10), &x));
	assert_int_equal(sp_acct_cpu_exits(&acct.cpu[0]), 0);
	/* a kernel index past the model's states counts as the deepest */
	sp_acct_enter(&acct, &st, &m, 0, 7, US(10));
	assert_true(sp_acct_exit(&acct, &st, &m, 0, US(20), &x));
	assert_int_equal(x.state, C6);
	assert_int_equal(sp_acct_stat_entries(&acct.cpu[0].state[C6]), 1);
	/* CPUs outside the model are ignored */
	sp_acct_enter(&acct, &st, &m, 4, C6, US(30));
	assert_false(sp_acct_exit(&acct, &st, &m, 4, US(40), &x));
	sp_acct_enter(&acct, &st, &m, 1000000, C6, US(30));
	/* a clock going backwards charges nothing rather than wrapping */
	sp_acct_enter(&acct, &st, &m, 1, C6, US(50));
	assert_true(sp_acct_exit(&acct, &st, &m, 1, US(40), &x));
	assert_int_equal(x.residency_us, 0);
	assert_int_equal(sp_acct_cpu_idle_us(&acct.cpu[1]), 0);
	assert_int_equal(acct.cpu[1].state[C6].residency_us, 0);
}

/*
 * A 350 W package awake for 16 h: uW * us is 2.0e19, past 2^64, so a plain
 * product wraps; the energy must be 350 W * 57600 s = 20160000000000 nJ.
 */
static void test_energy_no_overflow(void **s)
{
	static struct sp_model big;
	struct sp_energy_sum sum;
	u64 h16_us = 16ull * 3600 * 1000000;

	big = m;
	big.group[pkg(0)].active_uw = 350000000;
	sp_state_init(&st, &big, 0);
	sp_acct_reset(&acct, 0);
	sp_acct_group_sum(&acct, &st, &big, pkg(0), US(h16_us), &sum);
	assert_int_equal(sum.busy_us, h16_us);
	assert_true(sum.busy_nj == 350000000ull * 57600 * 1000);
	sp_state_init(&st, &m, 0);
	sp_acct_reset(&acct, 0);
}

/* The accounting a test expects of one CPU, kept beside sp_acct's. */
static struct sp_acct_cpu ref[SP_MAX_CPUS];

/* What sp_acct_enter() must charge, from the sp_state_idle_enter() twin @tw. */
static void ref_enter(const struct sp_state *tw, u32 cpu, u64 busy_since, u64 reset, u64 now)
{
	u64 from = busy_since > reset ? busy_since : reset;
	u32 k = sp_state_pd_opp(tw, &m, m.cpu_pd[cpu]);

	ref[cpu].busy_opp_us[k % SP_MAX_OPPS] += now > from ? (now - from) / 1000 : 0;
}

static void ref_exit(u32 cpu, u32 idx, u64 idle_since, u64 reset, u64 now)
{
	const struct sp_pd *pd = &m.pd[m.cpu_pd[cpu]];
	u64 from = idle_since > reset ? idle_since : reset;
	u64 res = now > idle_since ? (now - idle_since) / 1000 : 0;

	ref[cpu].state[idx].residency_us += now > from ? (now - from) / 1000 : 0;
	ref[cpu].state[idx].verdict[sp_acct_verdict(pd, idx, res)]++;
}

/* A step of the clock: none, short, long, very long, or backwards. */
static u64 rnd_step(void)
{
	switch (random() % 8) {
	case 0:
		return 0;
	case 1:
		return (u64)-(random() % 200000);
	case 2:
	case 3:
		return (u64)(random() % 300000);
	case 4:
	case 5:
		return (u64)(random() % 6000000);
	default:
		return (u64)(random() % 100000000);
	}
}

/*
 * Random idle events, clock steps (back ones too), resets and cpufreq
 * reports: the snapshot sp_acct_enter()/exit() keep equals, bit for bit,
 * the one sp_state_idle_enter()/exit() keep, and the CPUs' accounting is
 * the stretches they saw, clipped to the reset, at the pd's OPP.
 */
static void test_same_as_sp_state(void **s)
{
	static struct sp_state tw;
	u64 now = US(1000), reset = now;
	u32 i;

	srandom(11);
	sp_state_init(&st, &m, now);
	sp_state_init(&tw, &m, now);
	sp_acct_reset(&acct, now);
	memset(ref, 0, sizeof(ref));
	for (i = 0; i < 50000; i++) {
		u32 cpu = (u32)random() % m.nr_cpus, r = (u32)random() % 64;
		const struct sp_cpu_state *c = &tw.cpu[cpu];
		u32 deepest = m.pd[m.cpu_pd[cpu]].nr_idle - 1u;

		u32 seq0 = st.cpu[cpu].seq;

		now += rnd_step();
		if (r == 0) {
			seq0 -= 2;	/* no event */
			sp_acct_reset(&acct, now);
			memset(ref, 0, sizeof(ref));
			reset = now;
		} else if (r == 1) {
			s32 k = (s32)(random() % 6) - 1;	/* -1: SP_OPP_MODELLED */

			st.pd_opp[m.cpu_pd[cpu]] = k;
			tw.pd_opp[m.cpu_pd[cpu]] = k;
			seq0 -= 2;	/* no event */
		} else if (r < 32) {
			u32 idx = (u32)random() % 6, as = idx < deepest ? idx : deepest;
			bool awake = c->idle_state == SP_CPU_AWAKE;
			u64 busy_since = c->busy_since_ns;

			sp_acct_enter(&acct, &st, &m, cpu, idx, now);
			sp_state_idle_enter(&tw, &m, cpu, as, now);
			if (awake)
				ref_enter(&tw, cpu, busy_since, reset, now);
		} else if (c->idle_state != SP_CPU_AWAKE) {
			u32 idx = (u32)c->idle_state;
			u64 since = c->idle_since_ns;

			assert_true(sp_acct_exit(&acct, &st, &m, cpu, now, NULL));
			sp_state_idle_exit(&tw, &m, cpu, now);
			ref_exit(cpu, idx, since, reset, now);
		} else {
			assert_false(sp_acct_exit(&acct, &st, &m, cpu, now, NULL));
			seq0 -= 2;	/* refused before it writes */
		}
		/* every event of the CPU takes its count two steps, back to even */
		assert_int_equal(st.cpu[cpu].seq, seq0 + 2);
		tw.cpu[cpu].seq = st.cpu[cpu].seq;
		assert_memory_equal(&st, &tw, sizeof(st));
		assert_memory_equal(acct.cpu, ref, sizeof(ref));
	}
}

/*
 * A reader on one thread, idle events of CPU 1 on another: every sum of the
 * CPU and of its package must be whole, busy + idle = the time since the
 * reset, even when an event closes a stretch while the reader adds its
 * counters and then the open stretch.  CPU 0 sleeps in C6 throughout, so
 * that CPU 1 puts the package to sleep and wakes it at each event.
 */
#define TORN_END_NS	US(1000000000)	/* past every event's time */

static int torn_stop;
static u64 torn_events;

static void *torn_writer(void *unused)
{
	u64 now = US(10);
	u32 spin;

	while (!__atomic_load_n(&torn_stop, __ATOMIC_RELAXED)) {
		now += US(1 + now % 7);
		sp_acct_enter(&acct, &st, &m, 1, C6, now);
		now += US(1 + now % 5);
		sp_acct_exit(&acct, &st, &m, 1, now, NULL);
		__atomic_store_n(&torn_events, torn_events + 2, __ATOMIC_RELAXED);
		for (spin = 0; spin < 1000; spin++)	/* a CPU's events are us apart */
			__atomic_signal_fence(__ATOMIC_SEQ_CST);
	}
	return NULL;
}

static void test_sums_whole_under_events(void **s)
{
	const u64 span_us = TORN_END_NS / 1000 - 5;
	struct sp_energy_sum c, g;
	u32 i, torn_cpu = 0, torn_pkg = 0;
	pthread_t t;

	sp_acct_reset(&acct, US(5));
	sp_acct_enter(&acct, &st, &m, 0, C6, US(5));
	assert_int_equal(pkg(0), pkg(1));
	assert_int_equal(pthread_create(&t, NULL, torn_writer, NULL), 0);
	/* until the writer has made 150000 events, or 5 M reads */
	for (i = 0; i < 5000000 &&
		    __atomic_load_n(&torn_events, __ATOMIC_RELAXED) < 150000; i++) {
		sp_acct_cpu_sum(&acct, &st, &m, 1, TORN_END_NS, &c);
		sp_acct_group_sum(&acct, &st, &m, pkg(1), TORN_END_NS, &g);
		torn_cpu += c.busy_us + c.idle_us != span_us;
		torn_pkg += g.busy_us + g.idle_us != span_us;
	}
	__atomic_store_n(&torn_stop, 1, __ATOMIC_RELAXED);
	assert_int_equal(pthread_join(t, NULL), 0);
	print_message("%llu events during %u reads: %u torn CPU sums, %u torn package sums\n",
		      (unsigned long long)torn_events, i, torn_cpu, torn_pkg);
	assert_true(torn_events >= 150000);	/* the two threads did overlap */
	assert_int_equal(torn_cpu, 0);
	assert_int_equal(torn_pkg, 0);
}

/*
 * x86_2pkg with a polling state first: package 0's pd has POLL then C6,
 * package 1's has POLL alone (a driver with nothing deeper).
 */
static const char poll_model[] =
	"sched_power_model version=1 cpus=4\n"
	"level name=package\n"
	"pd id=0 cpus=0-1\n"
	"opp pd=0 khz=800000 cap=256 uw=270000\n"
	"idle pd=0 name=POLL uw=200000 exit_us=0 target_us=0 wake_uj=0 poll=1\n"
	"idle pd=0 name=C6 uw=5000 exit_us=80 target_us=240 wake_uj=40\n"
	"pd id=1 cpus=2-3\n"
	"opp pd=1 khz=800000 cap=256 uw=270000\n"
	"idle pd=1 name=POLL uw=200000 exit_us=0 target_us=0 wake_uj=0 poll=1\n"
	"group level=package id=0 cpus=0-1 active_uw=2000000 idle_uw=100000 wake_uj=600 exit_us=300\n"
	"group level=package id=1 cpus=2-3 active_uw=2000000 idle_uw=100000 wake_uj=600 exit_us=300\n"
	"end\n";

#define POLL	0

static int setup_poll(void **s)
{
	struct sp_parse_error err;

	if (sp_model_parse(poll_model, sizeof(poll_model) - 1, &m, &err)) {
		fprintf(stderr, "model: line %d %s: %s\n", err.line, err.field, err.msg);
		return -1;
	}
	sp_state_init(&st, &m, 0);
	sp_acct_reset(&acct, 0);
	return 0;
}

/*
 * Both CPUs of package 0 polling: the package stays awake, and a poll exit
 * wakes nothing; both in C6: asleep, and the exit is a package wake-up.
 * The polling stays count as stays of POLL.
 */
static void test_poll_keeps_package_awake(void **s)
{
	struct sp_energy_sum e;

	sp_acct_enter(&acct, &st, &m, 0, POLL, US(100));
	sp_acct_enter(&acct, &st, &m, 1, POLL, US(100));
	assert_true(sp_state_cpu_idle(&st, 0));
	assert_false(sp_state_group_idle(&st, pkg(0)));
	assert_true(sp_acct_exit(&acct, &st, &m, 0, US(200), NULL));
	sp_acct_enter(&acct, &st, &m, 0, POLL, US(300));
	assert_false(sp_state_group_idle(&st, pkg(0)));
	sp_acct_group_sum(&acct, &st, &m, pkg(0), US(300), &e);
	assert_int_equal(e.wakeups, 0);
	assert_int_equal(e.busy_us, 300);
	assert_int_equal(sp_acct_stat_entries(&acct.cpu[0].state[POLL]), 1);
	assert_int_equal(acct.cpu[0].state[POLL].residency_us, 100);

	/* both leave POLL for C6: asleep; one exit wakes it */
	assert_true(sp_acct_exit(&acct, &st, &m, 0, US(400), NULL));
	assert_true(sp_acct_exit(&acct, &st, &m, 1, US(400), NULL));
	sp_acct_enter(&acct, &st, &m, 0, 1, US(500));
	sp_acct_enter(&acct, &st, &m, 1, 1, US(500));
	assert_true(sp_state_group_idle(&st, pkg(0)));
	assert_true(sp_acct_exit(&acct, &st, &m, 1, US(900), NULL));
	assert_false(sp_state_group_idle(&st, pkg(0)));
	sp_acct_group_sum(&acct, &st, &m, pkg(0), US(1000), &e);
	assert_int_equal(e.wakeups, 1);
	assert_int_equal(e.idle_us, 400);
	assert_int_equal(e.busy_us, 600);
}

/*
 * A pd whose only state polls: its package never sleeps, on the steady
 * path, on a second entry without an exit and after a stretch too long for
 * the steady path (the general one); the CPUs' time is POLL's.
 */
static void test_poll_only_pd_never_sleeps(void **s)
{
	struct sp_energy_sum e;
	const u64 late = US(3000000);	/* 3 s: past the steady bound */

	sp_acct_enter(&acct, &st, &m, 2, POLL, US(100));
	sp_acct_enter(&acct, &st, &m, 3, POLL, US(100));
	assert_false(sp_state_group_idle(&st, pkg(2)));
	sp_acct_enter(&acct, &st, &m, 3, POLL, US(150));	/* again, no exit */
	assert_false(sp_state_group_idle(&st, pkg(2)));
	assert_true(sp_acct_exit(&acct, &st, &m, 2, US(200), NULL));
	assert_int_equal(sp_atomic_read(&st.group[pkg(2)].nr_awake), 2);
	sp_acct_enter(&acct, &st, &m, 2, 5, US(300));	/* past the deepest: POLL */
	assert_false(sp_state_group_idle(&st, pkg(2)));
	assert_true(sp_acct_exit(&acct, &st, &m, 2, late, NULL));
	sp_acct_enter(&acct, &st, &m, 2, POLL, late + US(100));
	assert_false(sp_state_group_idle(&st, pkg(2)));
	assert_true(sp_acct_exit(&acct, &st, &m, 3, late + US(200), NULL));
	sp_acct_group_sum(&acct, &st, &m, pkg(2), late + US(1000), &e);
	assert_int_equal(e.wakeups, 0);
	assert_int_equal(e.idle_us, 0);
	assert_int_equal(e.busy_us, 3001000);
	/* an entry after 3 s busy (the general path), both CPUs polling */
	sp_acct_enter(&acct, &st, &m, 3, POLL, 2 * late);
	assert_false(sp_state_group_idle(&st, pkg(2)));
	assert_true(sp_acct_exit(&acct, &st, &m, 3, 2 * late + US(100), NULL));
	sp_acct_group_sum(&acct, &st, &m, pkg(2), 2 * late + US(100), &e);
	assert_int_equal(e.wakeups, 0);
	assert_int_equal(e.idle_us, 0);
	/* both CPUs count as awake, the polling one and the running one */
	assert_int_equal(sp_atomic_read(&st.group[pkg(2)].nr_awake), 2);
	assert_int_equal(sp_acct_stat_entries(&acct.cpu[2].state[POLL]), 2);
	assert_int_equal(sp_acct_stat_entries(&acct.cpu[3].state[POLL]), 2);
	/* what the snapshot's own path (sp_state_idle_enter()) says agrees */
	sp_state_init(&st, &m, 0);
	sp_state_idle_enter(&st, &m, 2, POLL, US(10));
	sp_state_idle_enter(&st, &m, 3, POLL, US(10));
	assert_false(sp_state_group_idle(&st, pkg(2)));
	sp_state_idle_enter(&st, &m, 0, 1, US(10));
	sp_state_idle_enter(&st, &m, 1, 1, US(10));
	assert_true(sp_state_group_idle(&st, pkg(0)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_energy_no_overflow, setup),
		cmocka_unit_test_setup(test_verdict_rule, setup),
		cmocka_unit_test_setup(test_exit_verdict_bounds, setup),
		cmocka_unit_test_setup(test_counts, setup),
		cmocka_unit_test_setup(test_cpu_energy, setup),
		cmocka_unit_test_setup(test_group_energy, setup),
		cmocka_unit_test_setup(test_time_adds_up, setup),
		cmocka_unit_test_setup(test_reset_clips, setup),
		cmocka_unit_test_setup(test_reported_opp, setup),
		cmocka_unit_test_setup(test_robust_input, setup),
		cmocka_unit_test_setup(test_busy_per_opp, setup),
		cmocka_unit_test_setup(test_busy_at_pd_opp, setup),
		cmocka_unit_test_setup(test_energy_saturates, setup),
		cmocka_unit_test_setup(test_same_as_sp_state, setup),
		cmocka_unit_test_setup(test_sums_whole_under_events, setup),
		cmocka_unit_test_setup(test_poll_keeps_package_awake, setup_poll),
		cmocka_unit_test_setup(test_poll_only_pd_never_sleeps, setup_poll),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
