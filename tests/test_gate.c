// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of core/sp_gate.c: the load-balancer gate's predicate on the
 * two-package board and the big.LITTLE phone.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "sp_model.h"
#include "sp_state.h"
#include "sp_place.h"
#include "sp_gate.h"
#include "test_models.h"

#define NOW	1000000000ull	/* 1 s */

static struct sp_model m;
static struct sp_state st;

static void load(const char *text, size_t len)
{
	struct sp_parse_error err;

	assert_int_equal(sp_model_parse(text, len, &m, &err), 0);
	sp_state_init(&st, &m, NOW);
}

static struct sp_gate_in gate_in(u32 mode)
{
	struct sp_gate_in in = {
		.mode = mode, .enabled = true, .overutil_pct = 80, .now_ns = NOW,
		.dst_cpu = SP_NONE,
	};

	return in;
}

/* @cpu's utilisation @util, fresh at NOW. */
static void set_util(u32 cpu, u32 util)
{
	st.cpu[cpu].util = util;
	st.cpu[cpu].util_stamp_ns = NOW;
}

static void test_gate_level(void **s)
{
	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	assert_int_equal(sp_gate_level(&m), 0);		/* package */
	assert_int_equal(m.gate_cpu[3].group, m.cpu_group[0][3]);
	assert_int_equal(m.gate_cpu[3].cap, 1024);
	assert_int_equal(m.gate_cpu[4].group, SP_NONE);	/* past the CPUs */
	load(phone, sizeof(phone) - 1);
	assert_int_equal(sp_gate_level(&m), 0);		/* cluster: one package */
	assert_int_equal(m.gate_cpu[0].cap, 360);	/* LITTLE */
	assert_int_equal(m.gate_cpu[4].cap, 1024);	/* big */
	assert_int_not_equal(m.gate_cpu[0].group, m.gate_cpu[4].group);
}

static void test_gate_off_modes(void **s)
{
	struct sp_gate_in in;
	u32 mode;

	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	for (mode = 0; mode < SP_MODE_NR; mode++) {
		in = gate_in(mode);
		assert_int_equal(sp_gate_begin(&m, &in, true),
				 sp_place_mode_acts(mode) ? SP_GATE_GATED : SP_GATE_OFF);
	}
	in = gate_in(SP_MODE_POWER);
	in.enabled = false;
	assert_int_equal(sp_gate_begin(&m, &in, true), SP_GATE_OFF);
}

static void test_gate_local_passes(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_POWER);

	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	assert_int_equal(sp_gate_begin(&m, &in, false), SP_GATE_LOCAL);
	assert_true(sp_gate_passes(SP_GATE_LOCAL));
}

static void test_gate_between_packages(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_BALANCED);
	u32 cpu;

	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	for (cpu = 0; cpu < 4; cpu++)
		set_util(cpu, 300);		/* 29 %: light */
	assert_int_equal(sp_gate_begin(&m, &in, true), SP_GATE_GATED);
	for (cpu = 0; cpu < 4; cpu++)
		assert_int_equal(sp_gate_cpu(&m, &st, cpu, &in), SP_GATE_GATED);
	assert_false(sp_gate_passes(SP_GATE_GATED));
}

/* An overutilised CPU with a task waiting: CFS balances, before any bound. */
static void test_gate_overutilised(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_POWER);

	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	sp_state_set_nr_running(&st, 1, 2, NOW);	/* waiting since now */
	set_util(1, 819);			/* 79.98 %: not above 80 % */
	assert_int_equal(sp_gate_cpu(&m, &st, 1, &in), SP_GATE_GATED);
	set_util(1, 820);			/* 80.08 % */
	assert_int_equal(sp_gate_cpu(&m, &st, 1, &in), SP_GATE_OVERUTIL);
	in.overutil_pct = 90;
	assert_int_equal(sp_gate_cpu(&m, &st, 1, &in), SP_GATE_GATED);
}

/*
 * One task alone on a CPU of the largest capacity, however busy: a balance
 * could only move it, running, to a CPU no faster (6.1's active balance
 * after repeated failures), so it does not open the gate.  On x86-2pkg
 * every CPU has the largest capacity; on the phone the big ones do.
 */
static void test_gate_overutilised_alone(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_POWER);

	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	in.dst_cpu = 2;		/* package 1, awake since NOW: no awake share yet */
	set_util(1, 1024);
	assert_int_equal(sp_gate_cpu(&m, &st, 1, &in), SP_GATE_GATED);
	sp_state_set_nr_running(&st, 1, 1, NOW - 10000000);
	assert_int_equal(sp_gate_cpu(&m, &st, 1, &in), SP_GATE_GATED);
	/* a second task arrives: it can move, so CFS balances at once */
	sp_state_set_nr_running(&st, 1, 2, NOW);
	assert_int_equal(sp_gate_cpu(&m, &st, 1, &in), SP_GATE_OVERUTIL);

	load(phone, sizeof(phone) - 1);
	set_util(4, 1024);			/* big, alone */
	sp_state_set_nr_running(&st, 4, 1, NOW - 10000000);
	assert_int_equal(sp_gate_cpu(&m, &st, 4, &in), SP_GATE_GATED);
	sp_state_set_nr_running(&st, 4, 2, NOW);
	assert_int_equal(sp_gate_cpu(&m, &st, 4, &in), SP_GATE_OVERUTIL);
	/* LITTLE, alone: its task can grow onto big (misfit), so it passes */
	set_util(0, 350);
	sp_state_set_nr_running(&st, 0, 1, NOW - 10000000);
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_OVERUTIL);
}

static void test_gate_overutilised_little(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_POWER);

	/* a LITTLE CPU (capacity 360) is overutilised at its own 80 % */
	load(phone, sizeof(phone) - 1);
	set_util(0, 288);			/* 0.8 * 360 = 288: not above */
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_GATED);
	set_util(0, 289);
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_OVERUTIL);
	set_util(4, 290);			/* the same on big is light */
	assert_int_equal(sp_gate_cpu(&m, &st, 4, &in), SP_GATE_GATED);
}

/*
 * A job that ran at 771 on big, woken onto LITTLE CPU 0 whose own average
 * is 50: 6.1 counts its utilisation on CPU 0 at once (a misfit task), so
 * the gate must not wait for CPU 0's average to climb past 288.
 */
static void test_gate_placed_little(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_POWER);

	load(phone, sizeof(phone) - 1);
	set_util(0, 50);
	sp_state_note_task(&st, 0, 771, NOW - 5000000);
	/* 771 decayed over 5 ms, ~690, plus 50 */
	assert_in_range(sp_state_cpu_placed(&st, 0, NOW), 680, 700);
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_OVERUTIL);
	/* 200 ms of running later the average holds it: the term has decayed */
	in.now_ns = NOW + 195000000;
	st.cpu[0].util_stamp_ns = in.now_ns;
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_GATED);
	/* two placements add up: 2 x 150 + 50 > 288 */
	in.now_ns = NOW;
	st.cpu[0].util_stamp_ns = NOW;
	sp_state_note_task(&st, 1, 150, NOW);
	sp_state_note_task(&st, 1, 150, NOW);
	set_util(1, 50);
	assert_int_equal(sp_state_cpu_placed(&st, 1, NOW), 300);
	assert_int_equal(sp_gate_cpu(&m, &st, 1, &in), SP_GATE_OVERUTIL);
	/* CPU 1 enters idle: the tasks left or sleep, their share goes */
	sp_state_idle_enter(&st, &m, 1, 0, NOW + 1000);
	in.now_ns = NOW + 2000;
	assert_int_equal(sp_state_cpu_placed(&st, 1, in.now_ns), 0);
	assert_int_equal(sp_gate_cpu(&m, &st, 1, &in), SP_GATE_GATED);
	/* a placement after that idle entry counts again */
	sp_state_note_task(&st, 1, 400, NOW + 2000);
	assert_int_equal(sp_gate_cpu(&m, &st, 1, &in), SP_GATE_OVERUTIL);
}

/* On the largest CPUs (no misfit possible) and on a symmetric machine, the average alone. */
static void test_gate_placed_largest(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_POWER);

	load(phone, sizeof(phone) - 1);
	set_util(4, 50);
	sp_state_note_task(&st, 4, 1000, NOW);
	assert_int_equal(sp_gate_cpu(&m, &st, 4, &in), SP_GATE_GATED);
	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	set_util(0, 50);
	sp_state_note_task(&st, 0, 1000, NOW);
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_GATED);
	/* outside the snapshot: ignored */
	sp_state_note_task(&st, SP_MAX_CPUS, 1000, NOW);
}

/* What a placement brings: its share, or a fork's post-init utilisation. */
static void test_gate_brought_util(void **s)
{
	struct sp_decision d = { .wake = SP_WAKE_WAKEUP, .util = 700, .prev_cpu = 1 };

	load(phone, sizeof(phone) - 1);
	set_util(0, 60);
	assert_int_equal(sp_place_brought_util(&m, &st, &d, 0, NOW), 700);
	/* back onto prev_cpu: its past is in that CPU's average */
	assert_int_equal(sp_place_brought_util(&m, &st, &d, 1, NOW), 0);
	/* a CPU of the largest capacity: the gate reads no brought share there */
	assert_int_equal(sp_place_brought_util(&m, &st, &d, 4, NOW), 0);
	/* a fork: half the spare capacity of the CPU it lands on */
	d.wake = SP_WAKE_FORK;
	d.util = 8;
	assert_int_equal(sp_place_brought_util(&m, &st, &d, 0, NOW), (360 - 60) / 2);
	set_util(3, 24);
	assert_int_equal(sp_place_brought_util(&m, &st, &d, 3, NOW), (360 - 24) / 2);
	assert_int_equal(sp_place_brought_util(&m, &st, &d, 5, NOW), 0);
	assert_int_equal(sp_place_brought_util(&m, &st, &d, SP_MAX_CPUS, NOW), 0);
}

/*
 * sp_place_note(): the work in flight and the budget everywhere, the brought
 * utilisation only below the largest capacity, as sp_place_brought_util().
 */
static void test_gate_note(void **s)
{
	struct sp_decision d = { .wake = SP_WAKE_WAKEUP, .util = 300, .prev_cpu = 1 };

	load(phone, sizeof(phone) - 1);
	sp_place_note(&m, &st, &d, 2, 0, false, NOW);	/* LITTLE, from CPU 2 */
	assert_int_equal(sp_state_cpu_pending(&st, 0, NOW), 300);
	assert_int_equal(sp_state_cpu_pending_nr(&st, 0, NOW), 1);
	assert_int_equal(sp_state_cpu_placed(&st, 0, NOW), 300);
	assert_int_equal(st.cpu[2].lat_tokens, 1);
	sp_place_note(&m, &st, &d, 2, 4, false, NOW);	/* big: in flight only */
	assert_int_equal(sp_state_cpu_pending(&st, 4, NOW), 300);
	assert_int_equal(sp_state_cpu_placed(&st, 4, NOW), 0);
	assert_int_equal(st.cpu[2].lat_tokens, 2);
	sp_place_note(&m, &st, &d, 2, 1, false, NOW);	/* back onto prev_cpu */
	assert_int_equal(sp_state_cpu_pending(&st, 1, NOW), 1);	/* counted at least 1 */
	assert_int_equal(sp_state_cpu_pending_nr(&st, 1, NOW), 1);
	assert_int_equal(sp_state_cpu_placed(&st, 1, NOW), 0);
	d.wake = SP_WAKE_FORK;				/* half the spare capacity */
	set_util(3, 60);
	sp_place_note(&m, &st, &d, 2, 3, false, NOW);
	assert_int_equal(sp_state_cpu_placed(&st, 3, NOW), (360 - 60) / 2);
	assert_int_equal(sp_state_cpu_pending(&st, 3, NOW), 300);
	/* outside the model and the snapshot: the budget only */
	sp_place_note(&m, &st, &d, 2, SP_MAX_CPUS, false, NOW);
	assert_int_equal(st.cpu[2].lat_tokens, 5);
	load(x86_2pkg, sizeof(x86_2pkg) - 1);		/* symmetric: nothing brought */
	d.wake = SP_WAKE_WAKEUP;
	sp_place_note(&m, &st, &d, 0, 3, false, NOW);
	assert_int_equal(sp_state_cpu_pending(&st, 3, NOW), 300);
	assert_int_equal(sp_state_cpu_placed(&st, 3, NOW), 0);
}

static void test_gate_starvation_guard(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_POWER);

	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	set_util(2, 100);
	sp_state_set_nr_running(&st, 2, 1, NOW - 10000000);
	assert_int_equal(sp_gate_cpu(&m, &st, 2, &in), SP_GATE_GATED);
	/* a second task since 3.9 ms: not yet */
	sp_state_set_nr_running(&st, 2, 2, NOW - 3900000);
	assert_int_equal(sp_gate_cpu(&m, &st, 2, &in), SP_GATE_GATED);
	/* a third arriving later does not restart the stretch */
	sp_state_set_nr_running(&st, 2, 3, NOW - 1000);
	in.now_ns = NOW + 100000;			/* 4.0 ms after the second */
	assert_int_equal(sp_gate_cpu(&m, &st, 2, &in), SP_GATE_STARVING);
	/* back to one runnable task: the stretch ends */
	sp_state_set_nr_running(&st, 2, 1, NOW + 100000);
	assert_int_equal(sp_gate_cpu(&m, &st, 2, &in), SP_GATE_GATED);
	/* a new stretch starts from its own beginning */
	sp_state_set_nr_running(&st, 2, 2, NOW + 200000);
	in.now_ns = NOW + 200000 + SP_GATE_STARVE_NS - 1;
	assert_int_equal(sp_gate_cpu(&m, &st, 2, &in), SP_GATE_GATED);
	in.now_ns++;
	assert_int_equal(sp_gate_cpu(&m, &st, 2, &in), SP_GATE_STARVING);
	/* the wait the balance trace event reports */
	assert_int_equal(sp_gate_waited_ns(&st, 2, in.now_ns), SP_GATE_STARVE_NS);
	/* a stamp from a clock ahead of this one reads as no wait */
	sp_state_set_nr_running(&st, 2, 1, NOW);
	sp_state_set_nr_running(&st, 2, 2, in.now_ns + 1);
	assert_int_equal(sp_gate_waited_ns(&st, 2, in.now_ns), 0);
	assert_int_equal(sp_gate_cpu(&m, &st, 2, &in), SP_GATE_GATED);
}

/* Put both CPUs of package 1 (CPUs 2, 3) in their deepest state at @t. */
static void sleep_pkg1(u64 t)
{
	sp_state_idle_enter(&st, &m, 2, 1, t);
	sp_state_idle_enter(&st, &m, 3, 1, t);
	assert_true(sp_state_group_idle(&st, m.cpu_group[0][2]));
	assert_false(sp_state_group_idle(&st, m.cpu_group[0][0]));
}

static void test_gate_waiting_dst_awake(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_POWER);

	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	set_util(0, 300);
	/* CPU 0 (package 0) has had a task waiting for 1 ms */
	sp_state_set_nr_running(&st, 0, 2, NOW - 1000000);
	/* the pulling CPU unknown: the starvation guard alone */
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_GATED);
	/* CPU 2 of package 1, awake: the waiting task moves at once */
	in.dst_cpu = 2;
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_WAITING);
	assert_true(sp_gate_passes(SP_GATE_WAITING));
	/* from CPU 1, CPU 0's own package: awake as well */
	in.dst_cpu = 1;
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_WAITING);
	/* a CPU outside the model is not known */
	in.dst_cpu = 4;
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_GATED);
	/* nothing waits: a single running task stays where it is */
	in.dst_cpu = 2;
	sp_state_set_nr_running(&st, 0, 1, NOW - 500000);
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_GATED);
	assert_int_equal(sp_gate_cpu(&m, &st, 2, &in), SP_GATE_GATED);
}

static void test_gate_waiting_dst_asleep(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_POWER);

	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	set_util(0, 300);
	sleep_pkg1(NOW - 2000000);
	sp_state_set_nr_running(&st, 0, 2, NOW - 1000000);
	/* pulling to sleeping package 1 would wake it: gated until 4 ms */
	in.dst_cpu = 3;
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_GATED);
	in.now_ns = NOW - 1000000 + SP_GATE_STARVE_NS - 1;
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_GATED);
	in.now_ns++;
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_STARVING);
	/* package 1 wakes (CPU 2 leaves idle): waiting, before the bound */
	in.now_ns = NOW;
	sp_state_idle_exit(&st, &m, 2, NOW);
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_WAITING);
	/* past the bound a waiting CPU reads as starving, whatever dst */
	in.now_ns = NOW + SP_GATE_STARVE_NS;
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_STARVING);
	/* overutilised comes first */
	set_util(0, 900);
	st.cpu[0].util_stamp_ns = in.now_ns;
	assert_int_equal(sp_gate_cpu(&m, &st, 0, &in), SP_GATE_OVERUTIL);
}

/* Package 1 (CPU 3 asleep) wakes @nr times from @t: CPU 2, @awake_ns every @period_ns. */
static u64 pkg1_wakes(u64 t, u32 nr, u64 awake_ns, u64 period_ns)
{
	u32 i;

	for (i = 0; i < nr; i++, t += period_ns) {
		sp_state_idle_exit(&st, &m, 2, t);
		sp_state_idle_enter(&st, &m, 2, 1, t + awake_ns);
	}
	assert_true(sp_state_group_idle(&st, m.cpu_group[0][2]));
	return t;
}

/* CPU 1 alone with a task at @util, fresh at @in's time: OVERUTIL or GATED? */
static u32 alone_verdict(struct sp_gate_in *in, u32 util)
{
	st.cpu[1].util = util;
	st.cpu[1].util_stamp_ns = in->now_ns;
	return sp_gate_cpu(&m, &st, 1, in);
}

/*
 * A lone busy task may move into a package only if that package's own tasks
 * keep waking it (awake more than SP_GATE_AWAKE_PCT % of the time), read
 * from its awake fraction, not from whether it is awake at that moment.
 */
static void test_gate_overutilised_alone_dst_wakes(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_POWER);
	u32 g1;

	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	g1 = m.cpu_group[0][2];
	sleep_pkg1(NOW);
	sp_state_set_nr_running(&st, 1, 1, NOW);
	in.dst_cpu = 2;
	in.now_ns = NOW + 1000000000ull;	/* package 1 asleep for 1 s */
	assert_int_equal(alone_verdict(&in, 1024), SP_GATE_GATED);
	/* a 200 us timer every 20 ms: awake 1 % of the time, under the share */
	in.now_ns = pkg1_wakes(in.now_ns, 20, 200000, 20000000) + 1000000;
	assert_true(sp_state_group_awake(&st, g1, in.now_ns) > 0);
	assert_true(sp_state_group_awake(&st, g1, in.now_ns) * 100 <
		    SP_GATE_AWAKE_PCT * SP_CAP_SCALE);
	assert_int_equal(alone_verdict(&in, 1024), SP_GATE_GATED);
	/* 2 ms of work every 7 ms for 210 ms: asleep right now, yet it passes */
	in.now_ns = pkg1_wakes(in.now_ns, 30, 2000000, 7000000) + 1000000;
	assert_true(sp_state_group_idle(&st, g1));
	assert_int_equal(alone_verdict(&in, 1024), SP_GATE_OVERUTIL);
	/* only for an overutilised CPU, and only toward that package */
	assert_int_equal(alone_verdict(&in, 700), SP_GATE_GATED);
	in.dst_cpu = SP_NONE;
	assert_int_equal(alone_verdict(&in, 1024), SP_GATE_GATED);
	in.dst_cpu = 0;		/* its own, awake, package: nothing to move into */
	assert_int_equal(alone_verdict(&in, 1024), SP_GATE_GATED);
	/* two seconds of sleep later the share has decayed: gated again */
	in.dst_cpu = 3;
	in.now_ns += 2000000000ull;
	assert_int_equal(alone_verdict(&in, 1024), SP_GATE_GATED);
}

/*
 * The rule as sp_gate.h states it, read from the model's own tables (no
 * derived gate_cpu entry, no bound): what sp_gate_cpu() must answer.
 */
static u32 rule_group(u32 cpu)
{
	u32 l = m.nr_levels;

	if (cpu >= m.nr_cpus)
		return SP_NONE;
	while (l--)
		if (m.level[l].nr_groups > 1)
			return m.cpu_group[l][cpu];
	return SP_NONE;
}

static u32 rule_cap(u32 cpu)
{
	const struct sp_pd *pd = &m.pd[m.cpu_pd[cpu]];

	return pd->nr_opps ? pd->opp[pd->nr_opps - 1].cap : SP_CAP_SCALE;
}

static u32 rule_cpu(u32 cpu, const struct sp_gate_in *in)
{
	const struct sp_cpu_state *c = &st.cpu[cpu];
	u32 cap = rule_cap(cpu), g = rule_group(in->dst_cpu);
	u64 util = sp_state_cpu_util(&st, cpu, in->now_ns);
	bool over, wakes;

	if (cap < m.cap_max)
		util += sp_state_cpu_placed(&st, cpu, in->now_ns);
	over = util * 100 > (u64)cap * in->overutil_pct;
	wakes = g != SP_NONE && g != rule_group(cpu) &&
		sp_state_group_awake(&st, g, in->now_ns) * 100 >
		SP_GATE_AWAKE_PCT * SP_CAP_SCALE;
	if (over && (c->nr_running >= 2 || cap < m.cap_max || wakes))
		return SP_GATE_OVERUTIL;
	if (c->nr_running < 2)
		return SP_GATE_GATED;
	if (in->now_ns >= c->overload_since_ns + SP_GATE_STARVE_NS)
		return SP_GATE_STARVING;
	if (g != SP_NONE && !sp_state_group_idle(&st, g))
		return SP_GATE_WAITING;
	return SP_GATE_GATED;
}

static u32 rnd_state = 12345;

static u32 rnd(u32 n)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (rnd_state >> 8) % n;
}

/* One random event of the snapshot's writers at @t on a random CPU. */
static void random_event(u64 t)
{
	u32 cpu = rnd(m.nr_cpus), pd_idle = m.pd[m.cpu_pd[cpu]].nr_idle;

	switch (rnd(6)) {
	case 0:
		sp_state_idle_enter(&st, &m, cpu, rnd(pd_idle), t);
		break;
	case 1:
		sp_state_idle_exit(&st, &m, cpu, t);
		break;
	case 2:
		sp_state_set_nr_running(&st, cpu, rnd(4), t);
		break;
	case 3:
		sp_state_note_task(&st, cpu, rnd(SP_CAP_SCALE), t);
		break;
	case 4:
		sp_state_set_cap(&st, cpu, rnd(SP_CAP_SCALE + 1), t);
		break;
	default:	/* an average near the limits */
		st.cpu[cpu].util = 200 + rnd(SP_CAP_SCALE - 199);
		break;
	}
}

/*
 * sp_gate_cpu_check()'s @waited for a verdict @want: the wait it judged
 * (a task waiting and @cpu not overutilised), else untouched (1).
 */
static void check_waited(u32 cpu, const struct sp_gate_in *in, u32 want, u64 waited)
{
	const struct sp_cpu_state *c = &st.cpu[cpu];
	u64 since = c->overload_since_ns;

	if (want == SP_GATE_OVERUTIL || c->nr_running < 2) {
		assert_int_equal(waited, 1);
		return;
	}
	assert_int_equal(waited, in->now_ns > since ? in->now_ns - since : 0);
	assert_int_equal(waited >= SP_GATE_STARVE_NS, want == SP_GATE_STARVING);
}

/* Every CPU, every dst (and none), three limits: the rule's reason. */
static void check_all(u64 now, u32 *seen)
{
	static const u32 pcts[] = { 50, 80, 100 };
	struct sp_gate_in in = gate_in(SP_MODE_POWER);
	u32 cpu, dst, p, want;
	u64 waited;

	in.now_ns = now;
	for (p = 0; p < 3; p++)
		for (dst = 0; dst <= m.nr_cpus; dst++)
			for (cpu = 0; cpu < m.nr_cpus; cpu++) {
				in.overutil_pct = pcts[p];
				in.dst_cpu = dst < m.nr_cpus ? dst : SP_NONE;
				want = rule_cpu(cpu, &in);
				assert_int_equal(sp_gate_cpu(&m, &st, cpu, &in), want);
				waited = 1;	/* left as it was unless read */
				assert_int_equal(sp_gate_cpu_check(&m, &st, cpu,
								   st.cpu[cpu].nr_running,
								   &in, &waited), want);
				check_waited(cpu, &in, want, waited);
				seen[want]++;
			}
}

/*
 * On both models, 3000 random events of the snapshot's writers, each
 * followed by @check(@t, @seen) at the event's time @t.
 */
static void random_walk(void (*check)(u64 t, u32 *seen), u32 *seen)
{
	u32 model, i;
	u64 t;

	for (model = 0; model < 2; model++) {
		if (model == 0)
			load(x86_2pkg, sizeof(x86_2pkg) - 1);
		else
			load(phone, sizeof(phone) - 1);
		for (i = 0, t = NOW; i < 3000; i++) {
			t += rnd(3000000);
			random_event(t);
			check(t, seen);
		}
	}
}

/* check_all() a random time up to 6 ms after @t. */
static void check_all_later(u64 t, u32 *seen)
{
	check_all(t + rnd(6000000), seen);
}

/*
 * sp_gate_cpu(), and sp_gate_cpu_check() on its own, answer as the rule
 * written plainly, on snapshots the writers keep through random events, on
 * both models; every reason the predicate can give comes up.
 */
static void test_gate_matches_rule(void **s)
{
	struct sp_gate_in in_none = gate_in(SP_MODE_POWER);
	u32 seen[SP_GATE_NR] = { 0 };

	random_walk(check_all_later, seen);
	assert_int_equal(sp_gate_cpu_check(&m, &st, m.nr_cpus, 2, &in_none, NULL), SP_GATE_GATED);
	assert_true(seen[SP_GATE_OVERUTIL] > 0);
	assert_true(seen[SP_GATE_STARVING] > 0);
	assert_true(seen[SP_GATE_WAITING] > 0);
	assert_true(seen[SP_GATE_GATED] > 0);
}

/* ---- the kick gate: sp_gate_kick() ---- */

/* Tasks on CPUs 0 and 1 (package 0, one each, light), package 1 asleep. */
static void kick_gathered(void)
{
	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	set_util(0, 300);
	set_util(1, 300);
	sp_state_set_nr_running(&st, 0, 1, NOW - 10000000);
	sp_state_set_nr_running(&st, 1, 1, NOW - 10000000);
	sleep_pkg1(NOW - 2000000);
}

static u32 kick(u32 cpu, struct sp_gate_in *in, u32 *target)
{
	return sp_gate_kick(&m, &st, cpu, in, target);
}

static void test_kick_target(void **s)
{
	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	assert_int_equal(sp_gate_kick_target(&m, &st, 0), SP_NONE);	/* all awake */
	sp_state_idle_enter(&st, &m, 3, 0, NOW);	/* shallow idle counts */
	assert_int_equal(sp_gate_kick_target(&m, &st, 0), 3);
	sp_state_idle_enter(&st, &m, 2, 1, NOW);
	assert_int_equal(sp_gate_kick_target(&m, &st, 0), 2);		/* CPU order */
	assert_int_equal(sp_gate_kick_target(&m, &st, 2), 3);		/* not itself */
	sp_state_idle_enter(&st, &m, 0, 1, NOW);
	assert_int_equal(sp_gate_kick_target(&m, &st, 1), 0);
}

/* Both CPUs of the gathered package busy: the kick would wake package 1. */
static void test_kick_gated(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_POWER);
	u32 target;

	kick_gathered();
	assert_int_equal(kick(0, &in, &target), SP_KICK_GATED);
	assert_int_equal(target, 2);
	assert_int_equal(in.dst_cpu, 2);
	assert_false(sp_gate_kick_passes(SP_KICK_GATED));
	assert_int_equal(kick(1, &in, &target), SP_KICK_GATED);
	in = gate_in(SP_MODE_BALANCED);
	assert_int_equal(kick(1, &in, &target), SP_KICK_GATED);
}

static void test_kick_off(void **s)
{
	struct sp_gate_in in;
	u32 target, mode;

	kick_gathered();
	for (mode = 0; mode < SP_MODE_NR; mode++) {
		in = gate_in(mode);
		assert_int_equal(kick(0, &in, &target),
				 sp_place_mode_acts(mode) ? SP_KICK_GATED : SP_KICK_OFF);
	}
	in = gate_in(SP_MODE_POWER);
	in.enabled = false;
	assert_int_equal(kick(0, &in, &target), SP_KICK_OFF);
	assert_int_equal(target, SP_NONE);
	assert_true(sp_gate_kick_passes(SP_KICK_OFF));
}

/* The kick would land in the ticking CPU's own package, or an awake one. */
static void test_kick_local_awake(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_POWER);
	u32 target;

	kick_gathered();
	sp_state_idle_enter(&st, &m, 1, 1, NOW);
	assert_int_equal(kick(0, &in, &target), SP_KICK_LOCAL);
	assert_int_equal(target, 1);
	/* package 1 awake: CPU 2 left idle, CPU 3 still asleep is the target */
	kick_gathered();
	sp_state_idle_exit(&st, &m, 2, NOW);
	assert_int_equal(kick(0, &in, &target), SP_KICK_AWAKE);
	assert_int_equal(target, 3);
	/* a shallow state: the package is idle, gated (it would leave idle) */
	kick_gathered();
	sp_state_idle_exit(&st, &m, 2, NOW - 1000000);
	sp_state_idle_enter(&st, &m, 2, 0, NOW - 500000);
	assert_false(sp_state_group_idle(&st, m.cpu_group[0][2]));
	assert_int_equal(kick(0, &in, &target), SP_KICK_GATED);
	assert_int_equal(target, 2);
	/* ... but awake in the balance gate's sense: a waiting task passes */
	sp_state_set_nr_running(&st, 1, 2, NOW - 1000000);
	assert_int_equal(kick(0, &in, &target), SP_KICK_WAITING);
	/* nobody idle: no kick to gate */
	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	assert_int_equal(kick(0, &in, &target), SP_KICK_NONE);
	assert_int_equal(target, SP_NONE);
}

/* What would let the balance through lets the kick through. */
static void test_kick_gate_passes(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_POWER);
	u32 target;

	kick_gathered();
	/* a task waits on CPU 1 for 1 ms: towards a sleeping package, gated */
	sp_state_set_nr_running(&st, 1, 2, NOW - 1000000);
	assert_int_equal(kick(0, &in, &target), SP_KICK_GATED);
	/* ... until it starves */
	in.now_ns = NOW - 1000000 + SP_GATE_STARVE_NS;
	assert_int_equal(kick(0, &in, &target), SP_KICK_STARVING);
	/* overutilised with a task waiting, before the bound */
	in.now_ns = NOW;
	set_util(1, 900);
	assert_int_equal(kick(0, &in, &target), SP_KICK_OVERUTIL);
	/* overutilised alone on its CPU: gated (nothing a balance improves) */
	sp_state_set_nr_running(&st, 1, 1, NOW);
	assert_int_equal(kick(0, &in, &target), SP_KICK_GATED);
}

/* A LITTLE CPU outgrowing its capacity reaches the sleeping big cluster. */
static void test_kick_misfit(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_POWER);
	u32 cpu, target;

	load(phone, sizeof(phone) - 1);
	for (cpu = 0; cpu < 4; cpu++) {
		set_util(cpu, 100);
		sp_state_set_nr_running(&st, cpu, 1, NOW - 10000000);
	}
	for (cpu = 4; cpu < 8; cpu++)
		sp_state_idle_enter(&st, &m, cpu, 1, NOW - 2000000);
	assert_true(sp_state_group_idle(&st, m.gate_cpu[4].group));
	assert_int_equal(kick(0, &in, &target), SP_KICK_GATED);
	assert_int_equal(target, 4);
	set_util(2, 330);		/* 92 % of a LITTLE CPU's 360 */
	assert_int_equal(kick(0, &in, &target), SP_KICK_OVERUTIL);
}

/*
 * The kernel wrapper's steps: sp_gate_kick_begin() answers off, none,
 * local and awake with neither overutil_pct nor the time (both 0 here,
 * which would make every CPU overutilised); sp_gate_kick_cpus() then asks
 * the CPUs with them.
 */
static void test_kick_steps(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_POWER);
	u32 target;

	kick_gathered();
	in.overutil_pct = 0;
	in.now_ns = 0;
	assert_int_equal(sp_gate_kick_begin(&m, &st, 0, &in, &target), SP_KICK_GATED);
	assert_int_equal(target, 2);
	assert_int_equal(in.dst_cpu, 2);
	in.overutil_pct = 80;
	in.now_ns = NOW;
	assert_int_equal(sp_gate_kick_cpus(&m, &st, &in), SP_KICK_GATED);
	/* a task waits on CPU 1 until it starves */
	sp_state_set_nr_running(&st, 1, 2, NOW - 1000000);
	assert_int_equal(sp_gate_kick_cpus(&m, &st, &in), SP_KICK_GATED);
	in.now_ns = NOW - 1000000 + SP_GATE_STARVE_NS;
	assert_int_equal(sp_gate_kick_cpus(&m, &st, &in), SP_KICK_STARVING);
	/* the verdicts that need no time, given none */
	in = gate_in(SP_MODE_POWER);
	in.overutil_pct = 0;
	in.now_ns = 0;
	kick_gathered();
	sp_state_idle_enter(&st, &m, 1, 1, NOW);
	assert_int_equal(sp_gate_kick_begin(&m, &st, 0, &in, &target), SP_KICK_LOCAL);
	assert_int_equal(target, 1);
	assert_int_equal(in.dst_cpu, SP_NONE);
	kick_gathered();
	sp_state_idle_exit(&st, &m, 2, NOW);
	assert_int_equal(sp_gate_kick_begin(&m, &st, 0, &in, &target), SP_KICK_AWAKE);
	assert_int_equal(target, 3);
	assert_int_equal(in.dst_cpu, SP_NONE);
	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	assert_int_equal(sp_gate_kick_begin(&m, &st, 0, &in, &target), SP_KICK_NONE);
	in.mode = SP_MODE_OBSERVE;
	assert_int_equal(sp_gate_kick_begin(&m, &st, 0, &in, &target), SP_KICK_OFF);
	assert_int_equal(target, SP_NONE);
}

/* The kick's verdict for the first CPU the balance gate lets through. */
static const u32 kick_of[SP_GATE_NR] = {
	[SP_GATE_OVERUTIL] = SP_KICK_OVERUTIL,
	[SP_GATE_STARVING] = SP_KICK_STARVING,
	[SP_GATE_WAITING] = SP_KICK_WAITING,
};

/* sp_gate_kick()'s rule written plainly: every CPU of the model asked. */
static u32 rule_kick(u32 cpu, struct sp_gate_in in, u32 *target)
{
	u32 t, g, c;

	*target = SP_NONE;
	if (!in.enabled || !sp_place_mode_acts(in.mode))
		return SP_KICK_OFF;
	for (t = 0; t < m.nr_cpus; t++)
		if (t != cpu && st.cpu[t].idle_state != SP_CPU_AWAKE)
			break;
	if (t == m.nr_cpus)
		return SP_KICK_NONE;
	*target = t;
	g = rule_group(t);
	if (g == SP_NONE || g == rule_group(cpu))
		return SP_KICK_LOCAL;
	for (c = 0; c < m.nr_cpus; c++)
		if (rule_group(c) == g && st.cpu[c].idle_state == SP_CPU_AWAKE)
			return SP_KICK_AWAKE;
	in.dst_cpu = t;
	for (c = 0; c < m.nr_cpus; c++)
		if (rule_cpu(c, &in) != SP_GATE_GATED)
			return kick_of[rule_cpu(c, &in)];
	return SP_KICK_GATED;
}

/*
 * The wrapper's order (balance_hook.c sp_balance_kick_verdict()): the
 * knob and the time are filled in only between the steps, 0 before.
 */
static u32 kick_steps(u32 cpu, const struct sp_gate_in *knobs, u32 *target)
{
	struct sp_gate_in in = *knobs;
	u32 reason;

	in.overutil_pct = 0;
	in.now_ns = 0;
	reason = sp_gate_kick_begin(&m, &st, cpu, &in, target);
	if (reason != SP_KICK_GATED)
		return reason;
	in.overutil_pct = knobs->overutil_pct;
	in.now_ns = knobs->now_ns;
	return sp_gate_kick_cpus(&m, &st, &in);
}

/*
 * Every ticking CPU at a random time up to 6 ms after @t, random knobs:
 * the steps in the wrapper's order, and sp_gate_kick() whole, answer as
 * the plain rule.
 */
static void check_kick(u64 t, u32 *seen)
{
	static const u32 pcts[] = { 50, 80, 100 };
	u32 cpu, want, target, want_target;
	struct sp_gate_in in;

	in = gate_in(rnd(8) ? SP_MODE_POWER : rnd(SP_MODE_NR));
	in.enabled = rnd(16) != 0;
	in.overutil_pct = pcts[rnd(3)];
	in.now_ns = t + rnd(6000000);
	for (cpu = 0; cpu < m.nr_cpus; cpu++) {
		want = rule_kick(cpu, in, &want_target);
		assert_int_equal(kick_steps(cpu, &in, &target), want);
		assert_int_equal(target, want_target);
		assert_int_equal(kick(cpu, &in, &target), want);
		assert_int_equal(target, want_target);
		in.dst_cpu = SP_NONE;
		seen[want]++;
	}
}

/*
 * On snapshots the writers keep through random events, on both models,
 * check_kick(); every verdict comes up.
 */
static void test_kick_matches_rule(void **s)
{
	u32 seen[SP_KICK_NR] = { 0 }, i;

	random_walk(check_kick, seen);
	for (i = 0; i < SP_KICK_NR; i++)
		assert_true(seen[i] > 0);
}

/*
 * Why sp_gate_kick_cpus() asks every CPU of the model: the CPUs of the
 * target's top-level domain are all of them (a level above the gate level
 * has one group, and every level partitions the CPUs), and neither the
 * target's group nor the ticking CPU's can be left out.  Phone: big CPU 4
 * ticks, the LITTLE cluster sleeps, and LITTLE CPU 1, in the target's
 * group, has just idled with an average above 80 % of its 360: it is
 * overutilised with a larger CPU to grow onto, and the kick passes.
 */
static void test_kick_asks_every_group(void **s)
{
	struct sp_gate_in in = gate_in(SP_MODE_POWER);
	u32 cpu, target;

	load(phone, sizeof(phone) - 1);
	for (cpu = 0; cpu < 4; cpu++)
		sp_state_idle_enter(&st, &m, cpu, 1, NOW);
	for (cpu = 4; cpu < 8; cpu++) {
		set_util(cpu, 300);
		sp_state_set_nr_running(&st, cpu, 1, NOW - 10000000);
	}
	assert_int_equal(kick(4, &in, &target), SP_KICK_GATED);
	assert_int_equal(target, 0);
	set_util(1, 300);	/* 83 % of LITTLE's 360 */
	assert_int_equal(m.gate_cpu[1].group, m.gate_cpu[0].group);
	assert_int_equal(kick(4, &in, &target), SP_KICK_OVERUTIL);
	assert_int_equal(sp_gate_cpu(&m, &st, 1, &in), SP_GATE_OVERUTIL);
	/* the ticking CPU's group: a task waits there and starves */
	set_util(1, 0);
	sp_state_set_nr_running(&st, 6, 2, NOW - SP_GATE_STARVE_NS);
	assert_int_equal(kick(4, &in, &target), SP_KICK_STARVING);
}

static void test_kick_names(void **s)
{
	assert_string_equal(sp_kick_names[SP_KICK_GATED], "gated");
	assert_string_equal(sp_kick_names[SP_KICK_OFF], "off");
	assert_string_equal(sp_kick_names[SP_KICK_STARVING], "starving");
	assert_int_equal(SP_KICK_NR, 8);
}

static void test_gate_names(void **s)
{
	assert_string_equal(sp_gate_names[SP_GATE_GATED], "gated");
	assert_string_equal(sp_gate_names[SP_GATE_STARVING], "starving");
	assert_string_equal(sp_gate_names[SP_GATE_WAITING], "waiting");
	assert_int_equal(SP_GATE_NR, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gate_level),
		cmocka_unit_test(test_gate_off_modes),
		cmocka_unit_test(test_gate_local_passes),
		cmocka_unit_test(test_gate_between_packages),
		cmocka_unit_test(test_gate_overutilised),
		cmocka_unit_test(test_gate_overutilised_alone),
		cmocka_unit_test(test_gate_overutilised_alone_dst_wakes),
		cmocka_unit_test(test_gate_overutilised_little),
		cmocka_unit_test(test_gate_placed_little),
		cmocka_unit_test(test_gate_placed_largest),
		cmocka_unit_test(test_gate_brought_util),
		cmocka_unit_test(test_gate_note),
		cmocka_unit_test(test_gate_starvation_guard),
		cmocka_unit_test(test_gate_waiting_dst_awake),
		cmocka_unit_test(test_gate_waiting_dst_asleep),
		cmocka_unit_test(test_gate_matches_rule),
		cmocka_unit_test(test_gate_names),
		cmocka_unit_test(test_kick_target),
		cmocka_unit_test(test_kick_gated),
		cmocka_unit_test(test_kick_off),
		cmocka_unit_test(test_kick_local_awake),
		cmocka_unit_test(test_kick_gate_passes),
		cmocka_unit_test(test_kick_misfit),
		cmocka_unit_test(test_kick_steps),
		cmocka_unit_test(test_kick_matches_rule),
		cmocka_unit_test(test_kick_asks_every_group),
		cmocka_unit_test(test_kick_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
