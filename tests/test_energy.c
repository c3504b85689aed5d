// SPDX-License-Identifier: GPL-2.0
/*
 * test_energy.c - hand-computed energy estimates (core/sp_energy.c).
 *
 * The board is the 2-package, two-idle-state model of tests/test_models.h
 * (x86-2pkg's OPPs and packages):
 *
 *	OPP	khz	cap	uw (per CPU)
 *	0	 800000	 256	  270000
 *	1	1600000	 512	  800000
 *	2	2400000	 768	 1670000
 *	3	3200000	1024	 3200000
 *	idle C1: 150000 uW, wake 0 uJ;  C6: 5000 uW, wake 40 uJ
 *	package: active 2000000 uW, idle 100000 uW, wake 600 uJ
 *	pd 0 = package 0 = CPUs 0-1, pd 1 = package 1 = CPUs 2-3
 *
 * Every snapshot has util_stamp_ns == now_ns, so sp_state_cpu_util() returns
 * the stored util unchanged (no time has passed to decay or grow it).  Until
 * core/sp_state.c is linked, a weak stand-in below does exactly that.
 *
 * Groups are awake all the time (awake fraction f = 1024, stamped now)
 * unless a test says otherwise: then the static and future terms, which are
 * proportional to 1 - f, are 0 and each older case checks the terms it was
 * written for.  The tests of static_nj and future_nj set f themselves.
 *
 * Arithmetic as sp_energy.c does it (DOC block there): need(u) = (5u+3)/4,
 * busy power P_k * S / cap_k in whole uW, then nJ = uW * W / 1000.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "sp_energy.h"
#include "sp_floor.h"
#include "test_models.h"

#define NOW_NS	1000000000ull

/* Stand-in while sp_state.c is absent; the real one wins when linked. */
__attribute__((weak)) u32 sp_state_cpu_util(const struct sp_state *st, u32 cpu,
					  u64 now_ns)
{
	return st->cpu[cpu].util;
}

static struct sp_model m;
static struct sp_state st;
static struct sp_energy_terms t;

/* Group @g's awake fraction is @f (0..1024) now. */
static void awake_frac(u32 g, u32 f)
{
	st.group[g].awake_avg = f;
	st.group[g].avg_stamp_ns = NOW_NS;
}

static void board(void)
{
	struct sp_parse_error err;
	u32 c;

	assert_int_equal(sp_model_parse(x86_2pkg, sizeof(x86_2pkg) - 1, &m, &err), 0);
	memset(&st, 0, sizeof(st));
	st.nr_cpus = 4;
	for (c = 0; c < SP_MAX_PDS; c++)
		st.pd_opp[c] = SP_OPP_MODELLED;
	for (c = 0; c < m.nr_groups; c++)
		awake_frac(c, SP_CAP_SCALE);
}

/* @idle: SP_CPU_AWAKE, 0 (C1) or 1 (C6). */
static void cpu(u32 c, u32 util, s32 idle)
{
	st.cpu[c].util = util;
	st.cpu[c].idle_state = idle;
	st.cpu[c].util_stamp_ns = NOW_NS;
	st.cpu[c].idle_since_ns = NOW_NS - 5000000;
	st.cpu[c].busy_since_ns = NOW_NS - 5000000;
}

/* nr_awake of each package group from the CPUs' idle states. */
static void sync_groups(void)
{
	u32 g, i;

	for (g = 0; g < m.nr_groups; g++) {
		int awake = 0;

		for (i = 0; i < m.group[g].nr_cpus; i++)
			awake += st.cpu[m.group_cpus[m.group[g].cpu_off + i]].idle_state ==
				 SP_CPU_AWAKE;
		sp_atomic_set(&st.group[g].nr_awake, awake);
	}
}

/* CPU 0 busy at util 200, CPU 1 in C6; package 1 asleep (CPUs 2, 3 in C6). */
static void scene_light(void)
{
	board();
	cpu(0, 200, SP_CPU_AWAKE);
	cpu(1, 0, 1);
	cpu(2, 0, 1);
	cpu(3, 0, 1);
	sync_groups();
}

/*
 * t's OPPs without and with the task, its busy, P-state, idle and wake-up
 * terms (nJ), the groups it wakes and its total (nJ).
 */
static void assert_terms(u16 opp_before, u16 opp_after, s64 busy_nj,
			 s64 pstate_nj, s64 idle_nj, s64 wake_nj,
			 u16 groups_woken, s64 total_nj)
{
	assert_int_equal(t.opp_before, opp_before);
	assert_int_equal(t.opp_after, opp_after);
	assert_int_equal(t.busy_nj, busy_nj);
	assert_int_equal(t.pstate_nj, pstate_nj);
	assert_int_equal(t.idle_nj, idle_nj);
	assert_int_equal(t.wake_nj, wake_nj);
	assert_int_equal(t.groups_woken, groups_woken);
	assert_int_equal(t.total_nj, total_nj);
}

static void test_busy_cpu_costs_pstate_step(void **state)
{
	/*
	 * Task u=100 on CPU 0 (u_c=200), W=10000 us.
	 * before: max 200, need 250 -> OPP 0 (cap 256)
	 * after:  max 300, need 375 -> OPP 1 (cap 512)
	 * E_0(before) = 270000*200/256 = 210937 uW  -> 2109370 nJ
	 * E_0(after)  = 270000*256/256 = 270000 uW  -> 2700000 nJ (300 saturates)
	 * E_1(after)  = 800000*300/512 = 468750 uW  -> 4687500 nJ
	 * busy   = 2700000 - 2109370 = 590630
	 * pstate = 4687500 - 2700000 = 1987500
	 * idle   = -(150000 (C1, awake) * 100/512 = 29296 uW) -> -292960
	 * wake   = 0 (CPU and package awake)
	 * total  = 590630 + 1987500 - 292960 = 2285170
	 */
	scene_light();
	sp_energy_delta(&m, &st, NOW_NS, 0, 100, 10000, &t);
	assert_terms(0, 1, 590630, 1987500, -292960, 0, 0, 2285170);
}

static void test_idle_package_costs_wakeup(void **state)
{
	/*
	 * Task u=100 on CPU 2 (C6, package 1 asleep), W=10000 us.
	 * OPP 0 before (max 0) and after (need 125 <= 256): no P-state step.
	 * busy  = 270000*100/256 = 105468 uW -> 1054680 nJ
	 * idle  = -(5000 (C6)*100/256 = 1953 uW) -> -19530
	 * wake  = 40 uJ (C6 exit) + 600 uJ (package)
	 *	   + (2000000-100000)*100/256 = 742187 uW -> 7421870 nJ
	 *	 = 40000 + 600000 + 7421870 = 8061870
	 * total = 1054680 - 19530 + 8061870 = 9097020
	 */
	scene_light();
	sp_energy_delta(&m, &st, NOW_NS, 2, 100, 10000, &t);
	assert_terms(0, 0, 1054680, 0, -19530, 8061870, 1, 9097020);
}

/*
 * A CPU in its shallowest state pays that state's exit energy as well: C1
 * of pd 0 given wake_uj=5, CPU 1 in C1 beside CPU 0 running (package 0
 * up): wake = 5 uJ = 5000 nJ, no group woken.  CPU 0, awake, pays none.
 * (The shipped models' shallowest states cost 0 uJ to leave.)
 */
static void test_wake_from_shallowest_state(void **state)
{
	static const char c1[] = "idle pd=0 name=C1 uw=150000 exit_us=2 target_us=2 wake_uj=0\n";
	static char txt[sizeof(x86_2pkg)];
	struct sp_parse_error err;
	char *at;

	scene_light();
	memcpy(txt, x86_2pkg, sizeof(txt));
	at = strstr(txt, c1);
	assert_non_null(at);
	at[sizeof(c1) - 3] = '5';
	assert_int_equal(sp_model_parse(txt, sizeof(txt) - 1, &m, &err), 0);
	assert_int_equal(m.pd[0].idle[0].wakeup_uj, 5);
	cpu(1, 0, 0);
	sync_groups();
	sp_energy_delta(&m, &st, NOW_NS, 1, 100, 10000, &t);
	assert_int_equal(t.groups_woken, 0);
	assert_int_equal(t.wake_nj, 5000);
	sp_energy_delta(&m, &st, NOW_NS, 0, 100, 10000, &t);
	assert_int_equal(t.wake_nj, 0);
}

/*
 * CPUs 0 and 1 busy at 600 each, package 1 asleep; task u=100.
 *
 * CPU 0: before max 600, need 750 -> OPP 2 (cap 768); after max 700,
 * need 875 -> OPP 3 (cap 1024).  Per window, in uW:
 *	E_2(before) = 1670000*1200/768 = 2609375
 *	E_2(after)  = 1670000*1300/768 = 2826822	busy   +217447
 *	E_3(after)  = 3200000*1300/1024 = 4062500	pstate +1235678
 *	idle        = 150000*100/1024 = 14648		idle   -14648
 *	slope0 = 1438477 uW, no fixed part.
 * CPU 2: OPP 0 before and after (need 125).
 *	busy 270000*100/256 = 105468, idle -5000*100/256 = -1953,
 *	package (2000000-100000)*100/256 = 742187	slope2 = 845702 uW
 *	fixed 40 uJ + 600 uJ = 640000 nJ
 * Equal when 640000 nJ = (1438477 - 845702) uW * W / 1000:
 *	W* = 640000 * 1000 / 592775 = 1079.67 us.
 * Below W* the P-state step on the busy package is cheaper, above it waking
 * the idle package is.
 */
static void scene_heavy(void)
{
	board();
	cpu(0, 600, SP_CPU_AWAKE);
	cpu(1, 600, SP_CPU_AWAKE);
	cpu(2, 0, 1);
	cpu(3, 0, 1);
	sync_groups();
}

static void test_threshold_below(void **state)
{
	struct sp_energy_terms t2;

	/*
	 * W = 1079: CPU 0: busy 2826822*1079/1000 - 2609375*1079/1000
	 * = 3050140 - 2815515 = 234625; pstate 4383437 - 3050140 = 1333297;
	 * idle -15805; total 1552117.
	 * CPU 2: busy 113799, idle -2107, wake 640000 + 800819 = 1440819;
	 * total 1552511 > 1552117.
	 */
	scene_heavy();
	sp_energy_delta(&m, &st, NOW_NS, 0, 100, 1079, &t);
	sp_energy_delta(&m, &st, NOW_NS, 2, 100, 1079, &t2);
	assert_int_equal(t.opp_before, 2);
	assert_int_equal(t.opp_after, 3);
	assert_int_equal(t.total_nj, 1552117);
	assert_int_equal(t2.total_nj, 1552511);
	assert_true(t.total_nj < t2.total_nj);
}

static void test_threshold_above(void **state)
{
	struct sp_energy_terms t2;

	/*
	 * W = 1080: CPU 0: busy 3052967 - 2818125 = 234842; pstate
	 * 4387500 - 3052967 = 1334533; idle -15819; total 1553556.
	 * CPU 2: busy 113905, idle -2109, wake 640000 + 801561 = 1441561;
	 * total 1553357 < 1553556.
	 */
	scene_heavy();
	sp_energy_delta(&m, &st, NOW_NS, 0, 100, 1080, &t);
	sp_energy_delta(&m, &st, NOW_NS, 2, 100, 1080, &t2);
	assert_int_equal(t.total_nj, 1553556);
	assert_int_equal(t2.total_nj, 1553357);
	assert_true(t2.total_nj < t.total_nj);
}

static void test_groups_woken_per_level(void **state)
{
	/* 8 CPUs, 2 packages x 2 cores x 2 threads; siblings n and n + 4 */
	static const u16 pkg[8] = { 0, 0, 1, 1, 0, 0, 1, 1 };
	static const u16 core[8] = { 0, 1, 2, 3, 0, 1, 2, 3 };
	u32 c;

	assert_int_equal(sp_model_synthetic(&m, 8, pkg, core), 0);
	memset(&st, 0, sizeof(st));
	st.nr_cpus = 8;
	for (c = 0; c < SP_MAX_PDS; c++)
		st.pd_opp[c] = SP_OPP_MODELLED;
	for (c = 0; c < m.nr_groups; c++)
		awake_frac(c, SP_CAP_SCALE);
	for (c = 0; c < 8; c++)
		cpu(c, 0, (s32)m.pd[0].nr_idle - 1);	/* the synthetic C6 */
	cpu(5, 300, SP_CPU_AWAKE);	/* core {1,5} and package 0 awake */
	sync_groups();
	/* CPU 2: its core {2,6} and package 1 both asleep -> 2 groups */
	sp_energy_delta(&m, &st, NOW_NS, 2, 100, 1000, &t);
	assert_int_equal(t.groups_woken, 2);
	/* CPU 0: core {0,4} asleep, package 0 awake -> 1 group */
	sp_energy_delta(&m, &st, NOW_NS, 0, 100, 1000, &t);
	assert_int_equal(t.groups_woken, 1);
	/* CPU 1: sibling 5 awake, so core and package awake -> 0 */
	sp_energy_delta(&m, &st, NOW_NS, 1, 100, 1000, &t);
	assert_int_equal(t.groups_woken, 0);
	/*
	 * The woken core's cost: pd 0 runs at OPP 1 for CPU 5's 300 (need
	 * 375 <= 512) before and after, d = 100:
	 * 10 uJ + (100000-5000)*100/512 = 18554 uW for 1000 us = 18554 nJ,
	 * plus C6's 40 uJ: wake = 10000 + 18554 + 40000 = 68554 nJ.
	 */
	sp_energy_delta(&m, &st, NOW_NS, 0, 100, 1000, &t);
	assert_int_equal(t.opp_after, 1);
	assert_int_equal(t.wake_nj, 68554);
}

static void test_idle_term_sign(void **state)
{
	scene_light();
	/*
	 * Awake CPU 0 gives up C1 time: -(150000*100/512) = -29296 uW;
	 * sleeping CPU 3 gives up C6 time: -(5000*100/256) = -1953 uW.
	 * Both negative; a zero-utilisation task gives up nothing.
	 */
	sp_energy_delta(&m, &st, NOW_NS, 0, 100, 1000, &t);
	assert_int_equal(t.idle_nj, -29296);
	sp_energy_delta(&m, &st, NOW_NS, 3, 100, 1000, &t);
	assert_int_equal(t.idle_nj, -1953);
	sp_energy_delta(&m, &st, NOW_NS, 0, 0, 1000, &t);
	assert_int_equal(t.idle_nj, 0);
	assert_int_equal(t.busy_nj, 0);
	assert_int_equal(t.pstate_nj, 0);
}

static void test_saturated_cpu_adds_no_busy_time(void **state)
{
	/*
	 * CPU 0 at 1000 -> OPP 3 (need 1250 > 1024, highest); +100 saturates
	 * at 1024: S_3 goes 1000 -> 1024 (CPU 1 asleep at 0).
	 * busy = (3200000*1024/1024 - 3200000*1000/1024) = 3200000 - 3125000
	 *	= 75000 uW -> 75000 nJ for 1000 us; d = 24:
	 * idle = -(150000*24/1024 = 3515) -> -3515.
	 */
	scene_light();
	cpu(0, 1000, SP_CPU_AWAKE);
	sp_energy_delta(&m, &st, NOW_NS, 0, 100, 1000, &t);
	assert_int_equal(t.opp_before, 3);
	assert_int_equal(t.opp_after, 3);
	assert_int_equal(t.busy_nj, 75000);
	assert_int_equal(t.pstate_nj, 0);
	assert_int_equal(t.idle_nj, -3515);
}

static void test_pd_opp(void **state)
{
	scene_light();
	/* CPU 0 at 200: need 250 -> OPP 0; +100 on CPU 0: need 375 -> OPP 1 */
	assert_int_equal(sp_energy_pd_opp(&m, &st, NOW_NS, 0, 0, 0), 0);
	assert_int_equal(sp_energy_pd_opp(&m, &st, NOW_NS, 0, 0, 100), 1);
	/* extra utilisation on a CPU outside the pd changes nothing */
	assert_int_equal(sp_energy_pd_opp(&m, &st, NOW_NS, 0, 2, 100), 0);
	/* 1.25 x 204 = 255 fits cap 256; 1.25 x 205 = 256.25 does not */
	cpu(0, 204, SP_CPU_AWAKE);
	assert_int_equal(sp_energy_pd_opp(&m, &st, NOW_NS, 0, 0, 0), 0);
	cpu(0, 205, SP_CPU_AWAKE);
	assert_int_equal(sp_energy_pd_opp(&m, &st, NOW_NS, 0, 0, 0), 1);
	/* cpufreq reports OPP 2: a higher report wins, a lower one does not */
	st.pd_opp[0] = 2;
	assert_int_equal(sp_energy_pd_opp(&m, &st, NOW_NS, 0, 0, 0), 2);
	cpu(0, 900, SP_CPU_AWAKE);
	assert_int_equal(sp_energy_pd_opp(&m, &st, NOW_NS, 0, 0, 0), 3);
}

static void test_reported_opp_in_delta(void **state)
{
	/*
	 * pd 0 reported at OPP 1 while CPU 0 (200) only needs OPP 0: the task
	 * (+100, need 375 <= 512) stays at OPP 1, so no P-state term, and busy
	 * is 800000*100/512 = 156250 uW -> 1562500 nJ over 10000 us.
	 */
	scene_light();
	st.pd_opp[0] = 1;
	sp_energy_delta(&m, &st, NOW_NS, 0, 100, 10000, &t);
	assert_int_equal(t.opp_before, 1);
	assert_int_equal(t.opp_after, 1);
	assert_int_equal(t.pstate_nj, 0);
	assert_int_equal(t.busy_nj, 1562500);
}

static void test_power_of_snapshot(void **state)
{
	/*
	 * CPU 0 awake at 512 -> pd 0 OPP 2 (need 640, cap 768).
	 *	busy 1670000*512/768 = 1113333
	 *	idle (768-512)*150000 (C1) + 768*5000 (CPU 1 C6) = 42240000,
	 *	     / 768 = 55000
	 * pd 1 both in C6 at 0 -> OPP 0: busy 0, idle 2*256*5000/256 = 10000
	 * package 0 awake 2000000, package 1 asleep 100000
	 * total = 1113333 + 55000 + 10000 + 2000000 + 100000 = 3278333 uW
	 */
	scene_light();
	cpu(0, 512, SP_CPU_AWAKE);
	assert_int_equal(sp_energy_power_uw(&m, &st, NOW_NS), 3278333);
	/* all four asleep: 4 x 5000 + 2 x 100000 = 220000 uW */
	cpu(0, 0, 1);
	sync_groups();
	assert_int_equal(sp_energy_power_uw(&m, &st, NOW_NS), 220000);
}

static void test_static_term_awake_group(void **state)
{
	/*
	 * test_busy_cpu_costs_pstate_step's placement (u=100 on CPU 0, d=100,
	 * k' = OPP 1, cap 512, W=10000 us) with package 0 awake a quarter of
	 * the time (f = 256):
	 * S = (2000000-100000)*100/512 = 371093 uW -> 3710930 nJ
	 * static = 3710930 * (1024-256)/1024 = 2783197
	 * future = (600000 + 3710930) * 768/1024 = 3233197
	 * total = 2285170 + 2783197 + 3233197 = 8301564
	 */
	scene_light();
	awake_frac(0, 256);
	sp_energy_delta(&m, &st, NOW_NS, 0, 100, 10000, &t);
	assert_int_equal(t.wake_nj, 0);
	assert_int_equal(t.static_nj, 2783197);
	assert_int_equal(t.future_nj, 3233197);
	assert_int_equal(t.total_nj, 8301564);
	/* a package that is always up costs nothing extra, now or later */
	awake_frac(0, SP_CAP_SCALE);
	sp_energy_delta(&m, &st, NOW_NS, 0, 100, 10000, &t);
	assert_int_equal(t.static_nj, 0);
	assert_int_equal(t.future_nj, 0);
	assert_int_equal(t.total_nj, 2285170);
}

static void test_future_term_sleeping_group(void **state)
{
	/*
	 * test_idle_package_costs_wakeup's placement (u=100 on CPU 2, package
	 * 1 asleep): its wake-up term is unchanged, 8061870, of which the
	 * package's 600000 + 7421870 = 8021870.  No static term (asleep now).
	 * f = 0: the next wake-up finds it asleep too, future = 8021870;
	 * f = 512: half the time, future = 4010935.
	 */
	scene_light();
	awake_frac(1, 0);
	sp_energy_delta(&m, &st, NOW_NS, 2, 100, 10000, &t);
	assert_int_equal(t.wake_nj, 8061870);
	assert_int_equal(t.static_nj, 0);
	assert_int_equal(t.future_nj, 8021870);
	assert_int_equal(t.total_nj, 9097020 + 8021870);
	awake_frac(1, 512);
	sp_energy_delta(&m, &st, NOW_NS, 2, 100, 10000, &t);
	assert_int_equal(t.future_nj, 4010935);
}

/*
 * A group whose active - idle power is under 1000 uW: x86_2pkg with each
 * package at active 100999 uW, idle 100000 uW, static_uw = 999, the
 * smallest power a mW rounding would turn into 0.  S = (999 * d / cap_k')
 * uW is then a few hundred uW, below one mW, and each rounding of the DOC
 * block's steps shows.
 *
 * Task u=100 on CPU 2 (C6, package 1 asleep), OPP 0 (cap 256), d = 100:
 *	S = 999 * 100 / 256 = 99900 / 256 = 390 uW (390 * 256 = 99840)
 *	W = 10000 (10 ms of 1000 us):
 *	  busy = 270000 * 100 / 256 = 105468 uW -> 1054680
 *	  idle = -(5000 * 100 / 256 = 1953 uW) -> -19530
 *	  S -> 3900 nJ; wake = 40000 + 600000 + 3900 = 643900
 *	  total = 1054680 - 19530 + 643900 = 1679050
 *	  future (f = 0) = 600000 + 3900 = 603900
 *	W = 2500 (not whole ms: floor(x * 2500 / 1000)):
 *	  busy = 105468 * 2.5 = 263670; idle = -(1953 * 2.5 = 4882.5) -> -4882
 *	  S = 390 * 2.5 = 975; wake = 640975
 *	  total = 263670 - 4882 + 640975 = 899763
 * Task u=100 on CPU 0 (awake at 200), OPP 0 -> 1 (cap 512), d = 100, W =
 * 10000, package 0 awake a quarter of the time (f = 256):
 *	S = 999 * 100 / 512 = 195 uW (195 * 512 = 99840) -> 1950 nJ
 *	static = 1950 * 768 / 1024 = 1462.5 -> 1462
 *	future = (600000 + 1950) * 768 / 1024 = 451462.5 -> 451462
 *	total = 2285170 (test_static_term_awake_group) + 1462 + 451462
 *	      = 2738094
 */
static void test_group_under_1000uw(void **state)
{
	static char text[sizeof(x86_2pkg) + 16];
	const char *from = "active_uw=2000000 idle_uw=100000";
	const char *to = "active_uw=100999 idle_uw=100000 ";
	struct sp_parse_error err;
	char *p;
	int n = 0;

	memcpy(text, x86_2pkg, sizeof(x86_2pkg));
	for (p = strstr(text, from); p; p = strstr(p, from), n++)
		memcpy(p, to, strlen(to));
	assert_int_equal(n, 2);
	scene_light();
	assert_int_equal(sp_model_parse(text, strlen(text), &m, &err), 0);
	assert_int_equal(m.group[0].static_uw, 999);
	assert_int_equal(m.group[1].static_uw, 999);
	awake_frac(1, 0);
	sp_energy_delta(&m, &st, NOW_NS, 2, 100, 10000, &t);
	assert_int_equal(t.busy_nj, 1054680);
	assert_int_equal(t.idle_nj, -19530);
	assert_int_equal(t.wake_nj, 643900);
	assert_int_equal(t.groups_woken, 1);
	assert_int_equal(t.static_nj, 0);
	assert_int_equal(t.future_nj, 603900);
	assert_int_equal(t.total_nj, 1679050 + 603900);
	awake_frac(1, SP_CAP_SCALE);
	sp_energy_delta(&m, &st, NOW_NS, 2, 100, 2500, &t);
	assert_int_equal(t.busy_nj, 263670);
	assert_int_equal(t.idle_nj, -4882);
	assert_int_equal(t.wake_nj, 640975);
	assert_int_equal(t.total_nj, 899763);
	awake_frac(0, 256);
	sp_energy_delta(&m, &st, NOW_NS, 0, 100, 10000, &t);
	assert_int_equal(t.wake_nj, 0);
	assert_int_equal(t.static_nj, 1462);
	assert_int_equal(t.future_nj, 451462);
	assert_int_equal(t.total_nj, 2738094);
}

static void test_awake_fraction_decays(void **state)
{
	/*
	 * The fraction moves towards 1024 while the group is awake and towards
	 * 0 while it sleeps, with a half-life of 128 ms: package 0 (awake) at
	 * f = 0 stamped 128 ms ago reads 512; package 1 (asleep) at 1024
	 * stamped 128 ms ago reads 512 too.
	 */
	scene_light();
	st.group[0].awake_avg = 0;
	st.group[0].avg_stamp_ns = NOW_NS - 128000000ull;
	st.group[1].awake_avg = 1024;
	st.group[1].avg_stamp_ns = NOW_NS - 128000000ull;
	assert_int_equal(sp_state_group_awake(&st, 0, NOW_NS), 512);
	assert_int_equal(sp_state_group_awake(&st, 1, NOW_NS), 512);
}

static void test_awake_cpu_overlay(void **state)
{
	/*
	 * CPU 2 sits in C6 and package 1 asleep in the snapshot, but CPU 2
	 * runs the decision for an interrupt (awake_cpu = 2): no C6 exit, no
	 * package wake-up; the package is awake, f = 0, so its static power
	 * for the task's busy time counts in full (OPP 0, d = 100, cap 256):
	 * busy 1054680, idle -19530 (C6, the state it goes back to),
	 * static = 742187 uW -> 7421870, future = 600000 + 7421870 = 8021870;
	 * total = 1054680 - 19530 + 7421870 + 8021870 = 16478890.
	 */
	scene_light();
	awake_frac(1, 0);
	sp_energy_delta_cached(&m, &st, NOW_NS, 2, 2, 100, 10000, NULL, &t);
	assert_int_equal(t.wake_nj, 0);
	assert_int_equal(t.groups_woken, 0);
	assert_int_equal(t.static_nj, 7421870);
	assert_int_equal(t.future_nj, 8021870);
	assert_int_equal(t.total_nj, 16478890);
	/* another CPU of the package counts as awake for the group alone */
	sp_energy_delta_cached(&m, &st, NOW_NS, 3, 2, 100, 10000, NULL, &t);
	assert_int_equal(t.wake_nj, 40000);
	assert_int_equal(t.groups_woken, 0);
}

static void test_opp_floor(void **state)
{
	/*
	 * Energy per unit of work at OPP k with the package up for it alone:
	 * (P_k - P_C6 + active - idle) / cap_k, P_C6 = 5000, package 1900000:
	 *	k0 (270000 + 1895000) / 256 = 8457
	 *	k1 (800000 + 1895000) / 512 = 5263
	 *	k2 (1670000 + 1895000) / 768 = 4641	<- floor
	 *	k3 (3200000 + 1895000) / 1024 = 4975
	 */
	board();
	assert_int_equal(sp_energy_opp_floor(&m, 0), 2);
	assert_int_equal(sp_energy_opp_floor(&m, 1), 2);
	assert_int_equal(sp_energy_opp_floor(&m, 7), 0);	/* no such pd */
	/* with a free package the lowest OPP is the most efficient */
	m.group[0].active_uw = m.group[0].idle_uw;
	assert_int_equal(sp_energy_opp_floor(&m, 0), 0);
	/* a floor reported as pd_opp is what the estimate runs at */
	board();
	cpu(0, 0, SP_CPU_AWAKE);
	cpu(1, 0, 1);
	sync_groups();
	st.pd_opp[0] = 2;
	sp_energy_delta(&m, &st, NOW_NS, 0, 100, 1000, &t);
	assert_int_equal(t.opp_before, 2);
	assert_int_equal(t.opp_after, 2);
}

/*
 * The floor's gap limit, phone model: a task of 50 us of work (at 1024)
 * each 1 ms on LITTLE CPU 1, run at LITTLE's floor (OPP 3, cap 360): 142
 * us of work, a gap of 858 us, past cpu-off's target residency (800 us),
 * so every period ends in cpu-off and the next wake-up pays cpu-off, the
 * cluster and the package: 150 + 400 + 500 = 1050 us.  Schedutil asks
 * for OPP 0 (1.25 x 51 = 64 <= cap 100): 512 us of work, a gap of 488
 * us, WFI (1 us).  Gaps per OPP: k1 (cap 200) 744 us, WFI; k2 (cap 300)
 * 830 us, cpu-off.  The limit is OPP 1.
 */
static void test_floor_gap(void **state)
{
	static struct sp_acct a;
	static struct sp_state ast;
	static struct sp_floor_look look[SP_MAX_CPUS];
	struct sp_parse_error err;
	u64 t0 = 0, run_ns = 50ull * 1024 * 1000 / 360;
	u32 i;

	assert_int_equal(sp_model_parse(phone, sizeof(phone) - 1, &m, &err), 0);
	assert_int_equal(sp_energy_opp_floor(&m, 0), 3);
	sp_state_init(&ast, &m, 0);
	sp_acct_reset(&a, 0);
	ast.pd_opp[0] = 3;		/* cpufreq reports the floor */
	for (i = 0; i < 20; i++, t0 += 1000000) {
		sp_acct_enter(&a, &ast, &m, 1, 1, t0 + run_ns);
		assert_true(sp_acct_exit(&a, &ast, &m, 1, t0 + 1000000, NULL));
	}
	memset(look, 0, sizeof(look));
	assert_int_equal(sp_floor_gap_opp(&m, 0, 3, 3, 0, &a, look, NULL), 1);
	/* nothing since: the CPU's vote stands, a quiet look changes nothing */
	assert_int_equal(sp_floor_gap_opp(&m, 0, 3, 3, 0, &a, look, NULL), 1);
	assert_int_equal(sp_floor_gap_opp(&m, 0, 3, 1, 0, &a, look, NULL), 1);
	/* a latency_us bound that allows the whole chain keeps the floor */
	memset(look, 0, sizeof(look));
	assert_int_equal(sp_floor_gap_opp(&m, 0, 3, 3, 1050, &a, look, NULL), 3);
	memset(look, 0, sizeof(look));
	assert_int_equal(sp_floor_gap_opp(&m, 0, 3, 3, 1049, &a, look, NULL), 1);
	/* a floor at or under schedutil's OPP is not touched */
	memset(look, 0, sizeof(look));
	assert_int_equal(sp_floor_gap_opp(&m, 0, 0, 0, 0, &a, look, NULL), 0);
	assert_int_equal(sp_floor_gap_opp(&m, 9, 3, 3, 0, &a, look, NULL), 3);	/* no such pd */
	/* held at OPP 1 (cap 200) since: 256 us of work, a gap of 744 us; it stays */
	run_ns = 50ull * 1024 * 1000 / 200;
	for (i = 0; i < 20; i++, t0 += 1000000) {
		sp_acct_enter(&a, &ast, &m, 1, 0, t0 + run_ns);
		assert_true(sp_acct_exit(&a, &ast, &m, 1, t0 + 1000000, NULL));
	}
	assert_int_equal(sp_floor_gap_opp(&m, 0, 3, 1, 0, &a, look, NULL), 1);
	/* the task gone: 8 exits of 5 ms idle stays, deep at any OPP, raise it */
	for (i = 0; i < 7; i++, t0 += 5000000) {
		sp_acct_enter(&a, &ast, &m, 1, 0, t0 + 10000);
		assert_true(sp_acct_exit(&a, &ast, &m, 1, t0 + 5000000, NULL));
	}
	assert_int_equal(sp_floor_gap_opp(&m, 0, 3, 1, 0, &a, look, NULL), 1);	/* 7: too few */
	sp_acct_enter(&a, &ast, &m, 1, 0, t0 + 10000);
	assert_true(sp_acct_exit(&a, &ast, &m, 1, t0 + 5000000, NULL));
	assert_int_equal(sp_floor_gap_opp(&m, 0, 3, 1, 0, &a, look, NULL), 3);
}

/*
 * Looks of the phone's LITTLE pd over @n x 20 ms, CPU 1 periodic (1 ms)
 * with @run_us of work at cap 360, run at the limit in force: in a time
 * inverse to its capacity if @follows, else in @run_us at any OPP (memory
 * bound, or a cpufreq driver that changes no speed).  Return: the moves of
 * the limit; *@lim is the last.
 */
static u32 floor_gap_looks(u32 n, u32 run_us, bool follows, struct sp_floor_pd *ps, u32 *lim)
{
	static struct sp_acct a;
	static struct sp_state ast;
	static struct sp_floor_look look[SP_MAX_CPUS];
	u32 i, l, cur = 3, moves = 0;
	u64 t0 = 0;

	sp_state_init(&ast, &m, 0);
	sp_acct_reset(&a, 0);
	memset(look, 0, sizeof(look));
	for (l = 0; l < n; l++) {
		u64 run_ns = run_us * 1000ull;
		u32 k;

		if (follows)
			run_ns = run_ns * 360 / m.pd[0].opp[cur].cap;
		ast.pd_opp[0] = cur;
		for (i = 0; i < 20; i++, t0 += 1000000) {
			sp_acct_enter(&a, &ast, &m, 1, 1, t0 + run_ns);
			assert_true(sp_acct_exit(&a, &ast, &m, 1, t0 + 1000000, NULL));
		}
		k = sp_floor_gap_opp(&m, 0, 3, cur, 0, &a, look, ps);
		moves += k != cur;
		cur = k;
	}
	*lim = cur;
	return moves;
}

/*
 * The settle rule.  150 us of work each 1 ms that takes 150 us at any OPP:
 * at the floor (OPP 3) the look reads it as 150 x 360 of work, which OPP 2
 * runs in 180 us (a gap of 820 us, cpu-off) and OPP 1 in 270 us (730 us,
 * WFI), so it lowers the limit to OPP 1.  There the same 150 us reads as
 * 150 x 200 of work and the look lowers it to OPP 0; at OPP 0 it reads as
 * 150 x 100, every OPP's gap is in cpu-off and the look raises it to OPP 3:
 * without the rule the limit moves at every look (150 moves in 3 s).  With
 * it the second move, within %SP_FLOOR_SETTLE_LOOKS looks, holds the lower
 * limit (0) for 1 s; then 3, 1 and a hold of 2 s: 4 moves.  Work that
 * follows the OPP moves the limit once, to OPP 1, and it stays there.
 */
static void test_floor_gap_settle(void **state)
{
	struct sp_parse_error err;
	struct sp_floor_pd ps;
	u32 lim;

	assert_int_equal(sp_model_parse(phone, sizeof(phone) - 1, &m, &err), 0);
	assert_int_equal(floor_gap_looks(150, 150, false, NULL, &lim), 150);
	memset(&ps, 0, sizeof(ps));
	assert_int_equal(floor_gap_looks(150, 150, false, &ps, &lim), 4);
	assert_int_equal(lim, 1);
	assert_int_equal(ps.backoff, 2 * SP_FLOOR_HOLD_MIN_LOOKS);
	memset(&ps, 0, sizeof(ps));
	assert_int_equal(floor_gap_looks(150, 150, true, &ps, &lim), 1);
	assert_int_equal(lim, 1);
	assert_int_equal(ps.hold, 0);
	assert_int_equal(floor_gap_looks(150, 150, true, NULL, &lim), 1);
	assert_int_equal(lim, 1);
}

/*
 * @n looks of 20 ms from *@t0 on the phone: LITTLE CPU 1 runs @run_us each
 * 1 ms and sleeps in cpu-off, every other CPU sleeps in cpu-off but big
 * CPU 4, which stays up while @big_busy.
 */
static void floor_shared_looks(struct sp_acct *a, struct sp_state *ast,
			       struct sp_floor_groups *fg, u64 *t0, u32 n, bool big_busy,
			       u32 run_us)
{
	u32 i, l;

	if (big_busy)
		assert_true(sp_acct_exit(a, ast, &m, 4, *t0, NULL) ||
			    ast->cpu[4].idle_state == SP_CPU_AWAKE);
	else if (ast->cpu[4].idle_state == SP_CPU_AWAKE)
		sp_acct_enter(a, ast, &m, 4, 1, *t0);
	for (l = 0; l < n; l++) {
		for (i = 0; i < 20; i++, *t0 += 1000000) {
			sp_acct_enter(a, ast, &m, 1, 1, *t0 + run_us * 1000ull);
			assert_true(sp_acct_exit(a, ast, &m, 1, *t0 + 1000000, NULL));
		}
		sp_floor_groups_look(&m, a, ast, *t0, fg, false);
	}
}

/* The phone, every CPU but 1 and 4 asleep at 0, the looks' baseline taken. */
static void floor_shared_start(struct sp_acct *a, struct sp_state *ast,
			       struct sp_floor_groups *fg)
{
	u32 cpu;

	sp_state_init(ast, &m, 0);
	sp_acct_reset(a, 0);
	for (cpu = 0; cpu < 8; cpu++)
		if (cpu != 1 && cpu != 4)
			sp_acct_enter(a, ast, &m, cpu, 1, 0);
	memset(fg, 0, sizeof(*fg));
	sp_floor_groups_look(&m, a, ast, 0, fg, true);
}

/*
 * The floor's shared groups, phone model.  LITTLE's floor priced with the
 * package (280 mW net) is OPP 3 (test_floor_gap); without it, (P_k - 1000
 * + 28000) / cap_k is 520, 435, 490, 547 uW per unit for k = 0..3: OPP 1.
 * While big CPU 4 keeps the package (and its own cluster) up, the package
 * is never up for LITTLE alone: share 0, floor OPP 1 once 8 looks have
 * been summed, where CPU 1 runs 300 us each 1 ms and asks for OPP 1 at its
 * idle entries.  With 800 us each 1 ms it asks for OPP 3 and the floor
 * stays there: never below what the pd asks for.  Big's floor is OPP 1
 * either way.  Once big sleeps the package is up only while LITTLE is,
 * and after the recent looks forget the busy ones (1/8 a look), share 1:
 * OPP 3 again.  With big's OPP table made LITTLE's, its cluster races with
 * LITTLE's and does not count against it: OPP 3.
 */
static void test_floor_shared(void **state)
{
	static struct sp_acct a;
	static struct sp_state ast;
	static struct sp_floor_groups fg;
	struct sp_parse_error err;
	char twins[sizeof(phone) + 64], *p;
	u64 t0 = 0;
	u32 k;

	assert_int_equal(sp_model_parse(phone, sizeof(phone) - 1, &m, &err), 0);
	floor_shared_start(&a, &ast, &fg);
	/* no recent time: every group counts in full */
	assert_int_equal(sp_floor_shared_opp(&m, 0, &ast, &fg), 3);
	assert_int_equal(sp_floor_shared_opp(&m, 9, &ast, &fg), 0);	/* no such pd */
	/* the sums describe the recent looks once 8 were added */
	floor_shared_looks(&a, &ast, &fg, &t0, SP_FLOOR_SHARE_LOOKS - 1, true, 300);
	assert_int_equal(sp_floor_shared_opp(&m, 0, &ast, &fg), 3);
	floor_shared_looks(&a, &ast, &fg, &t0, 3, true, 300);
	assert_int_equal(sp_floor_shared_opp(&m, 0, &ast, &fg), 1);
	assert_int_equal(sp_floor_shared_opp(&m, 1, &ast, &fg), 1);
	assert_int_equal(sp_energy_opp_floor(&m, 1), 1);
	/* 800 us each 1 ms: CPU 1 asks for OPP 3 */
	floor_shared_start(&a, &ast, &fg);
	t0 = 0;
	floor_shared_looks(&a, &ast, &fg, &t0, 10, true, 800);
	assert_int_equal(sp_floor_shared_opp(&m, 0, &ast, &fg), 3);
	/* the same shares with the pd asking for OPP 2: OPP 2 */
	k = ast.pd_req[0];
	ast.pd_req[0] = (k & ~SP_PD_REQ_OPP_MASK) | 2;
	assert_int_equal(sp_floor_shared_opp(&m, 0, &ast, &fg), 2);
	ast.pd_req[0] = k;
	floor_shared_start(&a, &ast, &fg);
	t0 = 0;
	floor_shared_looks(&a, &ast, &fg, &t0, 10, true, 300);
	floor_shared_looks(&a, &ast, &fg, &t0, 60, false, 300);
	assert_int_equal(sp_floor_shared_opp(&m, 0, &ast, &fg), 3);
	/* the weights by hand: the package not counted, counted, clamped */
	assert_int_equal(sp_energy_opp_floor_w(&m, 0, (const u32 []){ 1024, 0 }), 1);
	assert_int_equal(sp_energy_opp_floor_w(&m, 0, (const u32 []){ 1024, 1024 }), 3);
	assert_int_equal(sp_energy_opp_floor_w(&m, 0, (const u32 []){ 1024, 4096 }), 3);
	assert_int_equal(sp_energy_opp_floor_w(&m, 0, NULL), 3);

	/* big with LITTLE's OPPs: one class, one race */
	strcpy(twins, phone);
	p = strstr(twins, "pd id=1 cpus=4-7\n");
	assert_non_null(p);
	p += strlen("pd id=1 cpus=4-7\n");
	k = (u32)(strstr(p, "idle pd=1") - p);
	memmove(p, p + k, strlen(p + k) + 1);
	{
		static const char opps[] =
			"opp pd=1 khz=500000 cap=100 uw=25000\n"
			"opp pd=1 khz=1000000 cap=200 uw=60000\n"
			"opp pd=1 khz=1500000 cap=300 uw=120000\n"
			"opp pd=1 khz=1800000 cap=360 uw=170000\n";

		memmove(p + strlen(opps), p, strlen(p) + 1);
		memcpy(p, opps, strlen(opps));
	}
	assert_int_equal(sp_model_parse(twins, strlen(twins), &m, &err), 0);
	t0 = 0;
	floor_shared_start(&a, &ast, &fg);
	floor_shared_looks(&a, &ast, &fg, &t0, 10, true, 300);
	assert_int_equal(sp_floor_shared_opp(&m, 0, &ast, &fg), 3);
}

/*
 * A pd of 24 CPUs, over the 16 CPUs a pass once kept per CPU, evaluated
 * through a decision's cache: one OPP (cap 1024, 1000000 uW), C1 1000 uW,
 * every CPU awake at util 10, the task (100) on CPU 20, W = 1000 us:
 *	before: 1000000 * 240 / 1024 = 234375 uW -> 234375 nJ
 *	after:  1000000 * 340 / 1024 = 332031 uW -> 332031 nJ: busy 97656
 *	idle:   1000 * 100 / 1024 = 97 uW -> -97 nJ; no wake, free group
 *	total = 97656 - 97 = 97559
 */
static void test_large_pd(void **state)
{
	static const char text[] =
		"sched_power_model version=1 cpus=24\n"
		"level name=package\n"
		"pd id=0 cpus=0-23\n"
		"opp pd=0 khz=1000000 cap=1024 uw=1000000\n"
		"idle pd=0 name=C1 uw=1000 exit_us=1 target_us=1 wake_uj=0\n"
		"group level=package id=0 cpus=0-23 active_uw=0 idle_uw=0 wake_uj=0 exit_us=0\n"
		"end\n";
	static struct sp_util_cache uc;
	struct sp_pd_cache pc = { .pd = SP_NONE, .uc = &uc };
	struct sp_parse_error err;
	u32 c;

	assert_int_equal(sp_model_parse(text, sizeof(text) - 1, &m, &err), 0);
	memset(&st, 0, sizeof(st));
	st.nr_cpus = 24;
	st.pd_opp[0] = SP_OPP_MODELLED;
	for (c = 0; c < 24; c++)
		cpu(c, 10, SP_CPU_AWAKE);
	sync_groups();
	awake_frac(0, SP_CAP_SCALE);
	sp_state_ucache_begin(&uc);
	sp_energy_delta_cached(&m, &st, NOW_NS, 20, SP_NONE, 100, 1000, &pc, &t);
	assert_int_equal(t.busy_nj, 97656);
	assert_int_equal(t.idle_nj, -97);
	assert_int_equal(t.total_nj, 97559);
	/* the same pass again, and without a cache */
	sp_energy_delta_cached(&m, &st, NOW_NS, 3, SP_NONE, 100, 1000, &pc, &t);
	assert_int_equal(t.total_nj, 97559);
	sp_energy_delta(&m, &st, NOW_NS, 20, 100, 1000, &t);
	assert_int_equal(t.total_nj, 97559);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_busy_cpu_costs_pstate_step),
		cmocka_unit_test(test_idle_package_costs_wakeup),
		cmocka_unit_test(test_wake_from_shallowest_state),
		cmocka_unit_test(test_threshold_below),
		cmocka_unit_test(test_threshold_above),
		cmocka_unit_test(test_groups_woken_per_level),
		cmocka_unit_test(test_idle_term_sign),
		cmocka_unit_test(test_saturated_cpu_adds_no_busy_time),
		cmocka_unit_test(test_pd_opp),
		cmocka_unit_test(test_reported_opp_in_delta),
		cmocka_unit_test(test_power_of_snapshot),
		cmocka_unit_test(test_static_term_awake_group),
		cmocka_unit_test(test_future_term_sleeping_group),
		cmocka_unit_test(test_group_under_1000uw),
		cmocka_unit_test(test_awake_fraction_decays),
		cmocka_unit_test(test_awake_cpu_overlay),
		cmocka_unit_test(test_opp_floor),
		cmocka_unit_test(test_floor_gap),
		cmocka_unit_test(test_floor_gap_settle),
		cmocka_unit_test(test_floor_shared),
		cmocka_unit_test(test_large_pd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
