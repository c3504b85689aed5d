// SPDX-License-Identifier: GPL-2.0
/*
 * test_place.c - hand-computed placement decisions (core/sp_place.c).
 *
 * Board A is the 2-package model (models/x86-2pkg.model, embedded below):
 *
 *	OPP	cap	uw (per CPU)
 *	0	 256	  270000
 *	1	 512	  800000
 *	2	 768	 1670000
 *	3	1024	 3200000
 *	idle C1: 150000 uW, exit 2 us, wake 0 uJ
 *	     C6:   5000 uW, exit 80 us, wake 40 uJ
 *	package: active 2000000 uW, idle 100000 uW, wake 600 uJ, exit 300 us
 *	pd 0 = package 0 = CPUs 0-1, pd 1 = package 1 = CPUs 2-3
 *
 * Board B is the big.LITTLE phone (models/phone-biglittle.model, embedded):
 * LITTLE CPUs 0-3 (pd 0, cluster 0), big CPUs 4-7 (pd 1, cluster 1), one
 * package over all eight.
 *
 * Energies follow sp_energy.c's integer steps (need(u) = (5u+3)/4, busy
 * power P_k * S / cap_k in whole uW, nJ = uW * W / 1000; see
 * tests/test_energy.c for the same board worked term by term).  Every
 * snapshot has util_stamp_ns == now_ns, so utilisations are used as stored.
 *
 * Both boards have at most 16 CPUs, so sp_place() scans every CPU: the
 * candidates are CFS's CPU, prev_cpu and the best CPU of each slot (awake
 * CPUs per pd, idle CPUs per number of idle groups above them); of CPUs that
 * tie, the lowest-numbered one is kept.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>

#include "sp_place.h"
#include "test_models.h"
#include "xorshift.h"

#define NOW_NS	1000000000ull
#define AWAKE	SP_CPU_AWAKE
#define C1	0
#define C6	1

/* What sp_place.c's DOC block promises: 2 + 2 * SP_MAX_LEVELS + 3. */
#define MAX_CANDIDATES	(2 + 2 * SP_MAX_LEVELS + 3)


static struct sp_model m;
static struct sp_state st;
static struct sp_knobs pol;
static struct sp_task_info t;
static struct sp_decision d;

static void load(const char *text, size_t len)
{
	struct sp_parse_error err;
	u32 c;

	assert_int_equal(sp_model_parse(text, len, &m, &err), 0);
	memset(&st, 0, sizeof(st));
	st.nr_cpus = m.nr_cpus;
	for (c = 0; c < SP_MAX_PDS; c++)
		st.pd_opp[c] = SP_OPP_MODELLED;
	pol = (struct sp_knobs){
		.mode = SP_MODE_POWER,
		.margin_pct = 5,
		.overutil_pct = 80,
		.window_us = 10000,
		.latency_us = 0,
	};
	t = (struct sp_task_info){ .now_ns = NOW_NS };
}

/* @idle: AWAKE or an idle-state index. */
static void cpu(u32 c, u32 util, s32 idle)
{
	st.cpu[c].util = util;
	st.cpu[c].idle_state = idle;
	st.cpu[c].util_stamp_ns = NOW_NS;
	st.cpu[c].idle_since_ns = NOW_NS - 5000000;
	st.cpu[c].busy_since_ns = NOW_NS - 5000000;
}

/* Group @g's awake fraction is @f (0..1024) now. */
static void awake_frac(u32 g, u32 f)
{
	st.group[g].awake_avg = f;
	st.group[g].avg_stamp_ns = NOW_NS;
}

/*
 * Group counters from the CPUs' idle states; every group's awake fraction
 * 1024 (always up), so the static and future terms are 0 unless a test
 * sets a fraction after this call.
 */
static void sync_groups(void)
{
	u32 g;

	sp_state_resync(&st, &m, NOW_NS - 5000000);
	for (g = 0; g < m.nr_groups; g++)
		awake_frac(g, SP_CAP_SCALE);
}

/*
 * Board A with CPU c at utilisation @uc in state @ic (AWAKE or an idle-state
 * index), the groups synced from them (sync_groups()).
 */
static void board_a(u32 u0, s32 i0, u32 u1, s32 i1, u32 u2, s32 i2,
		    u32 u3, s32 i3)
{
	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	cpu(0, u0, i0);
	cpu(1, u1, i1);
	cpu(2, u2, i2);
	cpu(3, u3, i3);
	sync_groups();
}

static void task(u32 util, u32 prev, u32 cfs)
{
	t.util = util;
	t.prev_cpu = prev;
	t.cfs_cpu = cfs;
	t.latency_us = 0;
	t.this_ctx = SP_THIS_NONE;
	t.wake = SP_WAKE_WAKEUP;
}

static void place(void)
{
	sp_place(&m, &st, &pol, &t, NULL, NULL, &d);
}

static bool only_pkg1(const void *ctx, u32 cpu)
{
	return cpu >= 2;
}

static bool only_pkg0(const void *ctx, u32 cpu)
{
	return cpu < 2;
}

static bool not_cpu1(const void *ctx, u32 cpu)
{
	return cpu != 1;
}

static bool not_cpu0(const void *ctx, u32 cpu)
{
	return cpu != 0;
}

static void assert_kept(u16 reason)
{
	assert_int_equal(d.cpu, t.cfs_cpu);
	assert_false(d.override);
	assert_int_equal(d.reason, reason);
}

static void assert_moved(u32 cpu, u16 reason)
{
	assert_int_equal(d.cpu, cpu);
	assert_true(d.override);
	assert_int_equal(d.reason, reason);
}

/*
 * Scene "light" on board A: CPU 0 awake at 200, CPU 1 in C6, package 1
 * asleep (CPUs 2 and 3 in C6).  Task u=100, W=10000 us.
 *
 * CPU 0: pd 0 steps OPP 0 -> 1 (need 375 > 256)	total 2285170 nJ
 *	(test_energy.c: busy 590630 + pstate 1987500 - idle 292960)
 * CPU 1: OPP 0 before and after (max stays 200), S 200 -> 300:
 *	busy  270000*300/256 - 270000*200/256 = 316406 - 210937 uW
 *	      = 3164060 - 2109370 = 1054690 nJ
 *	idle  -(5000*100/256 = 1953 uW) = -19530 nJ
 *	wake  40 uJ (C6), package 0 awake	= 40000 nJ
 *	total 1075160 nJ
 * CPU 2, 3: package wake-up	total 9097020 nJ (test_energy.c)
 */
static void scene_light(void)
{
	board_a(200, AWAKE, 0, C6, 0, C6, 0, C6);
}

static void test_avoid_package_wakeup(void **state)
{
	/*
	 * CFS picks CPU 2 in sleeping package 1.  Candidates: 2 (CFS = prev)
	 * and 1, the best of pd 0's slot (idle in an awake package, 80 us,
	 * ahead of CPU 0, which runs a task: 1000 us); 3 ties with 2.
	 * Cheapest is CPU 1 at 1075160 < 9097020, saving 88 % >= 5 %; CFS's
	 * package is idle and CPU 1's awake: avoid_package_wakeup.
	 */
	scene_light();
	task(100, 2, 2);
	place();
	assert_moved(1, SP_R_AVOID_PKG_WAKEUP);
	assert_int_equal(d.cfs_nj, 9097020);
	assert_int_equal(d.chosen_nj, 1075160);
	assert_int_equal(d.terms.total_nj, 1075160);
	assert_int_equal(d.terms.wake_nj, 40000);
	assert_int_equal(d.terms.groups_woken, 0);
	assert_int_equal(d.nr_candidates, 2);
	assert_false(d.queued);
}

/*
 * CPU 0 awake at 100, task u=50 (prev_cpu 1, so no CPU's average holds
 * the task).  OPP 0 throughout (need(150) = 188 <= 256).
 * CPU 0: busy 270000*150/256 - 270000*100/256 = 158203 - 105468
 *	  = 52735 uW -> 527350; idle -(150000*50/256 = 29296) -> -292960;
 *	  total 234390
 * CPU 1: busy 527350; idle -(5000*50/256 = 976) -> -9760;
 *	  wake 40000; total 557590
 * CPU 0 is cheaper by 323200 nJ, but it runs a task: the woken one would
 * wait behind it while CPU 1 idles in the same awake package.  Queueing is
 * a constraint, not a cost to trade: CFS's CPU 1 is kept, and when CFS
 * itself picks CPU 0 the task goes to CPU 1 (queue_avoided), although it
 * costs more.
 */
static void test_queue_avoided(void **state)
{
	scene_light();
	cpu(0, 100, AWAKE);
	task(50, 1, 1);
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(d.cfs_nj, 557590);
	assert_false(d.queued);
	task(50, 1, 0);
	place();
	assert_moved(1, SP_R_QUEUE_AVOIDED);
	assert_int_equal(d.cfs_nj, 234390);
	assert_int_equal(d.chosen_nj, 557590);
	assert_false(d.queued);
	assert_int_equal(d.wake_lat_us, 80);
	/* balanced mode: the same */
	pol.mode = SP_MODE_BALANCED;
	place();
	assert_moved(1, SP_R_QUEUE_AVOIDED);
	/* observe mode says so without acting */
	pol.mode = SP_MODE_OBSERVE;
	place();
	assert_int_equal(d.cpu, 1);
	assert_false(d.override);
	/* with CPU 1 refused, queueing on CFS's CPU 0 is all there is */
	pol.mode = SP_MODE_POWER;
	sp_place(&m, &st, &pol, &t, not_cpu1, NULL, &d);
	assert_int_equal(d.cpu, 0);
	assert_false(d.override);
	assert_true(d.queued);
}

/*
 * test_queue_avoided's scene seen from the waker: CPU 0 runs the waker and
 * decides (this_cpu 0), CFS picks CPU 0.  An ordinary wake-up there queues
 * behind the waker: queue_avoided, to CPU 1.  A sync wake-up whose waker is
 * the CPU's only task (SP_THIS_SYNC) leaves CPU 0 as the waker sleeps: it
 * does not queue, and CFS's CPU 0, the cheapest (234390 nJ against 557590,
 * with no wake-up energy: this_cpu is up), is kept.
 */
static void test_sync_waker_does_not_queue(void **state)
{
	scene_light();
	cpu(0, 100, AWAKE);
	task(50, 1, 0);
	t.this_cpu = 0;
	t.this_ctx = SP_THIS_TASK;
	place();
	assert_moved(1, SP_R_QUEUE_AVOIDED);
	t.this_ctx = SP_THIS_SYNC;
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(d.cfs_nj, 234390);
	assert_false(d.queued);
	assert_int_equal(d.wake_lat_us, 0);
}

/*
 * Both CPUs of package 0 run tasks (100 each), package 1 sleeps, task
 * u=50, CFS on CPU 2 (80 us C6 + 300 us package).  No CPU takes the task
 * without queueing or waking a package, so a running CPU is a candidate:
 * its wait of SP_QUEUE_WAIT_US against the task's own bound.  200 us: no
 * CPU complies (lat_miss, CFS kept); 400: CFS's 380 us complies; 1000: the
 * wait is allowed, and queueing on CPU 0 beats waking package 1.
 */
static void test_bounded_task_not_queued(void **state)
{
	scene_light();
	cpu(0, 100, AWAKE);
	cpu(1, 100, AWAKE);
	sync_groups();
	task(50, 2, 2);
	t.latency_us = 200;
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_true(d.lat_miss);
	assert_int_equal(d.wake_lat_us, 380);
	t.latency_us = 400;
	place();
	assert_int_equal(d.cpu, 2);
	assert_false(d.override);
	assert_false(d.lat_miss);
	t.latency_us = 1000;
	place();
	assert_moved(0, SP_R_AVOID_PKG_WAKEUP);
	assert_true(d.queued);
	assert_int_equal(d.wake_lat_us, SP_QUEUE_WAIT_US);
}

/*
 * Scene "step" on board A: CPU 0 awake at 600, CPU 1 in C6 (package 0
 * awake), package 1 asleep.  Task u=100, margin 0.
 *
 * CPU 0: need(600) = 750 -> OPP 2 (cap 768); need(700) = 875 -> OPP 3.
 *	E_2(before) = 1670000*600/768 = 1304687 uW
 *	E_2(after)  = 1670000*700/768 = 1522135 uW	busy   217448 uW
 *	E_3(after)  = 3200000*700/1024 = 2187500 uW	pstate 665365 uW
 *	idle C1: 150000*100/1024 = 14648 uW		idle  -14648 uW
 *	slope 868165 uW, no fixed part
 * CPU 1: max stays 600 -> OPP 2 before and after, S 600 -> 700:
 *	busy 217448 uW, idle -(5000*100/768 = 651) uW, wake 40 uJ
 *	slope 216797 uW, fixed 40000 nJ
 * Equal when 40000 nJ = (868165 - 216797) uW * W / 1000:
 *	W* = 40000 * 1000 / 651368 = 61.41 us
 * Per-term rounding (nJ = (uW / 1000) * W + (uW % 1000) * W / 1000):
 *	W = 61: CPU 0 13265 + 40587 - 893 = 52959
 *		CPU 1 13265 - 39 + 40000 = 53226	-> P-state step cheaper
 *	W = 62: CPU 0 13482 + 41253 - 908 = 53827
 *		CPU 1 13482 - 40 + 40000 = 53442	-> wake-up cheaper
 * CPUs 2 and 3 pay 640 uJ of wake-ups on top and never win here.
 */
static void scene_step(u32 window_us)
{
	board_a(600, AWAKE, 0, C6, 0, C6, 0, C6);
	pol.margin_pct = 0;
	pol.window_us = window_us;
}

static void test_pstate_cheaper_below_flip(void **state)
{
	/*
	 * CFS wakes idle CPU 1; at W = 61 stepping CPU 0's pd would be cheaper
	 * (52959 < 53226), but only by queueing behind CPU 0's task while CPU
	 * 1 idles in the same package: CFS kept.  (prev_cpu 3 holds none of
	 * the task's utilisation.)
	 */
	scene_step(61);
	task(100, 3, 1);
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(d.cfs_nj, 53226);
	/* CFS on CPU 0 itself: moved to CPU 1, although it costs 267 nJ more */
	task(100, 3, 0);
	place();
	assert_moved(1, SP_R_QUEUE_AVOIDED);
	assert_int_equal(d.cfs_nj, 52959);
	assert_int_equal(d.chosen_nj, 53226);
	/* CPU 1 refused: the P-state step is what is left */
	sp_place(&m, &st, &pol, &t, not_cpu1, NULL, &d);
	assert_int_equal(d.cpu, 0);
	assert_int_equal(d.terms.opp_before, 2);
	assert_int_equal(d.terms.opp_after, 3);
	assert_int_equal(d.terms.pstate_nj, 40587);
}

static void test_wake_cheaper_above_flip(void **state)
{
	/* CFS loads busy CPU 0; at W = 62 waking CPU 1 is cheaper anyway. */
	scene_step(62);
	task(100, 3, 0);
	place();
	assert_moved(1, SP_R_QUEUE_AVOIDED);
	assert_int_equal(d.cfs_nj, 53827);
	assert_int_equal(d.chosen_nj, 53442);
	assert_int_equal(d.terms.opp_after, 2);
	assert_int_equal(d.terms.wake_nj, 40000);
	task(100, 3, 1);
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(d.cfs_nj, 53442);
}

/*
 * Scene "heavy" on board A (test_energy.c's threshold scene): CPUs 0 and 1
 * awake at 600, package 1 asleep; task u=100.  Loading CPU 0 steps pd 0 to
 * OPP 3, waking CPU 2 costs 640 uJ plus the package's active power:
 *	W = 1079:  CPU 0 1552117, CPU 2 1552511
 *	W = 1080:  CPU 0 1553556, CPU 2 1553357	(flip at 1079.67 us)
 *	W = 10000: CPU 0 busy 2174470 + pstate 12356780 - idle 146480
 *		   = 14384770;  CPU 2 9097020
 * CPU 1 ties with CPU 0 (same pd, same score) and is not a candidate.
 * The tasks come from CPU 2 (prev_cpu), whose average does not hold them.
 * Both package-0 CPUs run tasks: no CPU takes the task without queueing or
 * waking a package, so queueing on CPU 0 competes on energy.
 */
static void scene_heavy(u32 window_us)
{
	board_a(600, AWAKE, 600, AWAKE, 0, C6, 0, C6);
	pol.window_us = window_us;
}

static void test_below_margin(void **state)
{
	/*
	 * W = 1080: CPU 2 saves 1553556 - 1553357 = 199 nJ, 0.013 % of CFS's:
	 * below 5 %, CFS kept (below_margin), chosen energy is CFS's.
	 */
	scene_heavy(1080);
	task(100, 2, 0);
	place();
	assert_kept(SP_R_BELOW_MARGIN);
	assert_int_equal(d.cfs_nj, 1553556);
	assert_int_equal(d.chosen_nj, 1553556);
	assert_int_equal(d.nr_candidates, 2);
	/* margin 0: any saving moves it; CPU 2 is deeper (2 > 0) */
	scene_heavy(1080);
	pol.margin_pct = 0;
	task(100, 2, 0);
	place();
	assert_moved(2, SP_R_WAKE_CHEAPER);
	assert_int_equal(d.chosen_nj, 1553357);
	assert_int_equal(d.terms.groups_woken, 1);
	/* W = 1079, margin 0: CPU 0 is the cheapest */
	scene_heavy(1079);
	pol.margin_pct = 0;
	task(100, 2, 0);
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(d.cfs_nj, 1552117);
}

static void test_margin_boundary(void **state)
{
	/*
	 * W = 10000: CPU 2 saves 14384770 - 9097020 = 5287750 nJ, 36.76 % of
	 * CFS's.  margin 36 moves (528775000 >= 517851720), 37 does not
	 * (528775000 < 532236490).
	 */
	scene_heavy(10000);
	pol.margin_pct = 36;
	task(100, 2, 0);
	place();
	assert_moved(2, SP_R_WAKE_CHEAPER);
	assert_int_equal(d.cfs_nj, 14384770);
	assert_int_equal(d.chosen_nj, 9097020);
	pol.margin_pct = 37;
	place();
	assert_kept(SP_R_BELOW_MARGIN);
}

static void test_overutilised_fallback(void **state)
{
	/*
	 * Scene light with CPU 0 at 900: 900 * 100 > 1024 * 80, the system is
	 * overutilised and CFS's CPU 2 is kept although CPU 1 is far cheaper.
	 * At 819 (81900 <= 81920) it is not; CPU 0 no longer fits the task
	 * (919 * 100 > 81920) and CPU 1 still beats CFS's package wake-up.
	 */
	scene_light();
	cpu(0, 900, AWAKE);
	task(100, 2, 2);
	place();
	assert_kept(SP_R_OVERUTILISED);
	assert_int_equal(d.cfs_nj, 9097020);
	assert_int_equal(d.chosen_nj, 9097020);
	cpu(0, 819, AWAKE);
	place();
	assert_moved(1, SP_R_AVOID_PKG_WAKEUP);
	/* overutil_pct 0 means the default 80 */
	cpu(0, 900, AWAKE);
	pol.overutil_pct = 0;
	place();
	assert_kept(SP_R_OVERUTILISED);
}

/*
 * The rate bound at the largest window: CPU 1 draws 0 uW busy and 2 kW
 * idle (rate r_q10 = -2e9), so a task of 700 there saves energy; its bound
 * rate * u * W passed 2^63 at W = 9999999 us and wrapped above CFS's
 * estimate, and sp_place() kept CPU 0 where the exhaustive walk took CPU 1.
 * The window is clamped to SP_ENERGY_WINDOW_MAX_US (1 s), where the
 * product stays below 2^61.
 */
static const char idle_dear[] =
	"sched_power_model version=1 cpus=2\n"
	"level name=package\n"
	"pd id=0 cpus=0\n"
	"opp pd=0 khz=1000 cap=1024 uw=1000000\n"
	"idle pd=0 name=C1 uw=0 exit_us=1 target_us=1 wake_uj=0\n"
	"pd id=1 cpus=1\n"
	"opp pd=1 khz=1000 cap=1024 uw=0\n"
	"idle pd=1 name=C1 uw=2000000000 exit_us=1 target_us=1 wake_uj=0\n"
	"group level=package id=0 cpus=0-1 active_uw=0 idle_uw=0 wake_uj=0 exit_us=0\n"
	"end\n";

static void test_rate_bound_largest_window(void **state)
{
	static const u32 windows[] = { 4000, 1000000, 5000000, 9999999, 0xffffffffu };
	struct sp_decision full;
	u32 i;

	for (i = 0; i < SP_ARRAY_SIZE(windows); i++) {
		load(idle_dear, sizeof(idle_dear) - 1);
		cpu(0, 0, 0);
		cpu(1, 0, 0);
		sync_groups();
		pol.window_us = windows[i];
		task(700, 0, 0);
		place();
		sp_place_exhaustive(&m, &st, &pol, &t, NULL, NULL, &full);
		assert_int_equal(full.cpu, 1);
		assert_int_equal(d.cpu, full.cpu);
		assert_true(d.chosen_nj == full.chosen_nj && d.cfs_nj == full.cfs_nj);
	}
}

static void test_not_allowed(void **state)
{
	/*
	 * Scene light, CFS on CPU 2, the task may run on package 1 only: the
	 * cheapest CPUs (1 at 1075160, 0 at 2285170) are refused, CPU 3 costs
	 * as much as CPU 2, so CFS is kept and says not_allowed.
	 */
	scene_light();
	task(100, 2, 2);
	sp_place(&m, &st, &pol, &t, only_pkg1, NULL, &d);
	assert_kept(SP_R_NOT_ALLOWED);
	assert_int_equal(d.cfs_nj, 9097020);
	/*
	 * Only CPU 1 refused: the next cheapest allowed one, CPU 0 at
	 * 2285170, still saves 75 % and is taken.
	 */
	sp_place(&m, &st, &pol, &t, not_cpu1, NULL, &d);
	assert_moved(0, SP_R_AVOID_PKG_WAKEUP);
	assert_int_equal(d.chosen_nj, 2285170);
}

static void test_latency_blocks_idle_package(void **state)
{
	/*
	 * Scene heavy at W = 10000 moves the task from CPU 0 to CPU 2.  CPU 2
	 * wakes in 80 (C6) + 300 (package) = 380 us: a task bound of 379 us
	 * keeps it out, and CFS's CPU 0, running a task, means a wait of
	 * SP_QUEUE_WAIT_US = 1000 us: no CPU meets the bound, CFS stays and
	 * the decision says lat_miss.  380 lets CPU 2 in, and since CFS's CPU
	 * breaks the bound the move is latency_bound.  The policy's bound
	 * (exit latency only) applies when the task has none, and the task's
	 * own bound wins over the policy's.
	 */
	scene_heavy(10000);
	task(100, 2, 0);
	t.latency_us = 379;
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_true(d.lat_miss);
	assert_int_equal(d.wake_lat_us, SP_QUEUE_WAIT_US);
	t.latency_us = 380;
	place();
	assert_moved(2, SP_R_LATENCY_BOUND);
	assert_false(d.lat_miss);
	assert_int_equal(d.wake_lat_us, 380);
	t.latency_us = 0;
	pol.latency_us = 100;
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	t.latency_us = 1000;
	place();
	assert_moved(2, SP_R_WAKE_CHEAPER);
}

static void test_latency_bound_moves_off_deep_cfs(void **state)
{
	/*
	 * Scene heavy at W = 10000 with CFS on CPU 2 (the cheapest, 9097020).
	 * Under a policy bound of 100 us (exit latency only) CPU 2 needs 380
	 * us, so the cheapest compliant candidate, CPU 0 (awake, 14384770), is
	 * taken although it costs more: latency_bound.  As the task's own
	 * bound, 100 us also counts CPU 0's wait behind its running task
	 * (1000 us): nothing complies, CFS is kept, lat_miss.
	 */
	scene_heavy(10000);
	task(100, 2, 2);
	pol.latency_us = 100;
	place();
	assert_moved(0, SP_R_LATENCY_BOUND);
	assert_int_equal(d.cfs_nj, 9097020);
	assert_int_equal(d.chosen_nj, 14384770);
	assert_true(d.chosen_nj > d.cfs_nj);
	assert_false(d.lat_miss);
	pol.latency_us = 0;
	t.latency_us = 100;
	place();
	assert_int_equal(d.cpu, 2);
	assert_false(d.override);
	assert_true(d.lat_miss);
	assert_int_equal(d.wake_lat_us, 380);
	/* no compliant candidate allowed: CFS kept */
	sp_place(&m, &st, &pol, &t, only_pkg1, NULL, &d);
	assert_int_equal(d.cpu, 2);
	assert_false(d.override);
	assert_int_not_equal(d.reason, SP_R_LATENCY_BOUND);
}

static void test_observe_mode(void **state)
{
	/* The power decision of test_avoid_package_wakeup, never applied. */
	scene_light();
	pol.mode = SP_MODE_OBSERVE;
	task(100, 2, 2);
	place();
	assert_int_equal(d.cpu, 1);
	assert_false(d.override);
	assert_int_equal(d.reason, SP_R_AVOID_PKG_WAKEUP);
	assert_int_equal(d.cfs_nj, 9097020);
	assert_int_equal(d.chosen_nj, 1075160);
}

static void test_performance_and_off_modes(void **state)
{
	scene_light();
	pol.mode = SP_MODE_PERFORMANCE;
	task(100, 2, 2);
	place();
	assert_kept(SP_R_MODE);
	/* CFS's energy is still filled in, for the trace */
	assert_int_equal(d.cfs_nj, 9097020);
	assert_int_equal(d.chosen_nj, 9097020);
	assert_int_equal(d.nr_candidates, 1);
	pol.mode = SP_MODE_OFF;
	place();
	assert_kept(SP_R_MODE);
	assert_int_equal(d.cfs_nj, 0);
	assert_int_equal(d.nr_candidates, 0);
	pol.mode = SP_MODE_NR;
	place();
	assert_kept(SP_R_MODE);
}

static void test_balanced_latency_guard(void **state)
{
	/*
	 * Scene heavy at W = 10000: power mode moves CPU 0 -> CPU 2.  Balanced
	 * mode's default bound is the shallowest group exit latency above
	 * CFS's CPU, 300 us, and CPU 2 needs 380: CFS kept.  A task bound of
	 * 400 us admits CPU 2 again (0 + 100 is within 50 % of 1024), and
	 * rules out CFS's CPU 0, where the task would wait 1000 us behind the
	 * running one: latency_bound.
	 */
	scene_heavy(10000);
	task(100, 2, 0);
	place();
	assert_moved(2, SP_R_WAKE_CHEAPER);
	pol.mode = SP_MODE_BALANCED;
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	t.latency_us = 400;
	place();
	assert_moved(2, SP_R_LATENCY_BOUND);
}

static void test_balanced_headroom_guard(void **state)
{
	/*
	 * CPUs 0 and 1 awake at 450, package 1 asleep, CFS on CPU 2, policy
	 * bound 1000 us (so CFS's 380 us is fine).  CPU 0: need(550) = 688 ->
	 * OPP 2 before and after, busy 1670000*1000/768 - 1670000*900/768 =
	 * 2174480 nJ, idle -(150000*100/768 = 19531) -> -195310, total 1979170
	 * < 9097020: power mode packs it (avoid_package_wakeup), queueing
	 * since no CPU idles in an awake package.  Balanced never queues a
	 * wake-up that CFS would not (CFS's CPU 2 is idle): CFS kept.
	 */
	board_a(450, AWAKE, 450, AWAKE, 0, C6, 0, C6);
	pol.latency_us = 1000;
	task(100, 2, 2);
	place();
	assert_moved(0, SP_R_AVOID_PKG_WAKEUP);
	assert_int_equal(d.chosen_nj, 1979170);
	pol.mode = SP_MODE_BALANCED;
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	/*
	 * CPU 1 idle in C1 (package 0 still awake): balanced takes it only if
	 * util + task fits 50 % of 1024: 450 + 100 = 550 does not, 412 + 100 =
	 * 512 fits exactly.
	 */
	cpu(1, 450, C1);
	sync_groups();
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	cpu(1, 412, C1);
	place();
	assert_moved(1, SP_R_AVOID_PKG_WAKEUP);
	assert_int_equal(d.wake_lat_us, 2);
}

static void test_out_of_range_cpus(void **state)
{
	static const u32 bad[] = { 4, 5, SP_MAX_CPUS, 0xffff, 0xffffffffu };
	u32 i;

	scene_light();
	for (i = 0; i < SP_ARRAY_SIZE(bad); i++) {
		/* CFS outside the model: nothing to compare, CFS decides */
		task(100, 2, bad[i]);
		place();
		assert_false(d.override);
		assert_int_equal(d.cpu, bad[i]);
		assert_int_equal(d.reason, SP_R_NOT_ALLOWED);
		assert_int_equal(d.nr_candidates, 0);
		task(100, bad[i], bad[i]);
		place();
		assert_false(d.override);
		/* prev outside the model is ignored: the light decision */
		task(100, bad[i], 2);
		place();
		assert_moved(1, SP_R_AVOID_PKG_WAKEUP);
		assert_int_equal(d.nr_candidates, 2);
		pol.mode = SP_MODE_BALANCED;
		place();
		assert_true(d.cpu < m.nr_cpus);
		pol.mode = SP_MODE_POWER;
	}
}

static void test_task_util_above_scale(void **state)
{
	static const u32 huge[] = { 1025, 42949673, 0x7fffffffu, 0xffffffffu };
	struct sp_decision ref;
	u32 i;

	/*
	 * A task utilisation above 1024 is 1024, as sp_energy_delta() clamps
	 * it.  Scene light, CFS on CPU 2: u=1024 fits nowhere (1024 * 100 >
	 * 1024 * 80), so CFS is kept.  42949673 * 100 wraps to 4 in 32 bits
	 * and must not make the task "fit" on CPU 1.
	 */
	scene_light();
	task(1024, 2, 2);
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	ref = d;
	for (i = 0; i < SP_ARRAY_SIZE(huge); i++) {
		task(huge[i], 2, 2);
		place();
		assert_int_equal(d.cpu, ref.cpu);
		assert_int_equal(d.reason, ref.reason);
		assert_int_equal(d.override, ref.override);
		assert_int_equal(d.cfs_nj, ref.cfs_nj);
	}
}

/*
 * Board B, the phone.  CPU 4 (big) awake at 50, everything else in cpu-off,
 * so cluster 0 (LITTLE) is asleep, cluster 1 and the package awake.  Task
 * u=40, W=4000 us.
 * CPU 0 (LITTLE, CFS's pick): OPP 0 (need(40) = 50 <= 100)
 *	busy 25000*40/100 = 10000 uW -> 40000; idle -(1000*40/100 = 400) ->
 *	-1600; wake 20 uJ (cpu-off) + 80 uJ (cluster 0) +
 *	(30000-2000)*40/100 = 11200 uW -> 44800; wake 144800; total 183200
 * CPU 4 (big, awake): OPP 0 (need(90) = 113 <= 290), S 50 -> 90:
 *	busy 170000*90/290 - 170000*50/290 = 52758 - 29310 = 23448 uW ->
 *	93792; idle -(25000*40/290 = 3448) -> -13792; total 80000
 * CPU 5 (big, cpu-off, cluster awake): busy 93792, idle -(2000*40/290 =
 *	275) -> -1100, wake 60000; total 152692
 * CPU 4 is cheapest, but it runs a task and CPU 5 idles in the awake big
 * cluster: no queueing then.  CPU 5 wins over CFS's CPU 0 (152692 <
 * 183200, 16.7 % >= 5 %): depth 1 < CFS's 2 (itself and cluster 0), no
 * OPP step: pack_awake_group.  The package holds every CPU and is awake,
 * so it is not avoid_package_wakeup.  Candidates: 0 and the best of pd 1's
 * slot, 5 (CPUs 1-3 tie with 0, 6-7 with 5).
 */
static void scene_phone(void)
{
	u32 c;

	load(phone, sizeof(phone) - 1);
	pol.window_us = 4000;
	for (c = 0; c < 8; c++)
		cpu(c, 0, C6);
	cpu(4, 50, AWAKE);
	sync_groups();
}

static void test_biglittle_pack_into_awake_cluster(void **state)
{
	scene_phone();
	task(40, 0, 0);
	place();
	assert_moved(5, SP_R_PACK_AWAKE_GROUP);
	assert_int_equal(d.cfs_nj, 183200);
	assert_int_equal(d.chosen_nj, 152692);
	assert_int_equal(d.nr_candidates, 2);
	/* CFS on CPU 5 itself: kept, CPU 4 (80000) would queue */
	task(40, 5, 5);
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(d.cfs_nj, 152692);
}

static bool big_only(const void *ctx, u32 cpu)
{
	return cpu >= 4;
}

static bool only_0_4(const void *ctx, u32 cpu)
{
	return cpu == 0 || cpu == 4;
}

static void test_biglittle_little_runs_it_cheaper(void **state)
{
	/*
	 * Add LITTLE CPU 0 awake at 50 (cluster 0 awake); CFS picks CPU 5,
	 * idle in the awake big cluster (152692).  CPU 0: need(50) = 63 ->
	 * OPP 0, need(90) = 113 -> OPP 1:
	 *	busy 25000*90/100 - 25000*50/100 = 10000 uW -> 40000
	 *	pstate 60000*90/200 - 22500 = 4500 uW -> 18000
	 *	idle -(10000*40/200 = 2000) -> -8000; total 50000
	 * but it runs a task.  CPU 1 (cpu-off, cluster awake): OPP 0, busy
	 * 40000, idle -(1000*40/100 = 400) -> -1600, wake 20000; total 58400.
	 * CPU 1 wins at equal depth (1): wake_cheaper, the LITTLE domain runs
	 * the task for less.
	 */
	scene_phone();
	cpu(0, 50, AWAKE);
	sync_groups();
	task(40, 5, 5);
	place();
	assert_moved(1, SP_R_WAKE_CHEAPER);
	assert_int_equal(d.cfs_nj, 152692);
	assert_int_equal(d.chosen_nj, 58400);
	/* CFS on running CPU 4: queue_avoided, to CPU 1 again */
	task(40, 5, 4);
	place();
	assert_moved(1, SP_R_QUEUE_AVOIDED);
	assert_int_equal(d.cfs_nj, 80000);
	/*
	 * Allowed on CPUs 0 and 4 only, both running: no allowed CPU takes the
	 * task without queueing, so queueing competes on energy, and stepping
	 * CPU 0's LITTLE domain beats queueing on CPU 4 at equal depth (0):
	 * pstate_cheaper, 50000 < 80000.
	 */
	sp_place(&m, &st, &pol, &t, only_0_4, NULL, &d);
	assert_moved(0, SP_R_PSTATE_CHEAPER);
	assert_int_equal(d.cfs_nj, 80000);
	assert_int_equal(d.chosen_nj, 50000);
	assert_int_equal(d.terms.opp_before, 0);
	assert_int_equal(d.terms.opp_after, 1);
	assert_true(d.queued);
	/*
	 * Affinity to the big cluster: the LITTLE CPUs are refused; CFS's CPU
	 * 4 runs a task while CPU 5 idles in the same cluster: queue_avoided,
	 * to CPU 5 (152692, more than CPU 4's 80000).
	 */
	task(40, 5, 4);
	sp_place(&m, &st, &pol, &t, big_only, NULL, &d);
	assert_moved(5, SP_R_QUEUE_AVOIDED);
	assert_int_equal(d.chosen_nj, 152692);
}

/*
 * A fork is not moved to a CPU of larger capacity than CFS's (its
 * utilisation is an estimate; on a larger CPU its timer keeps it there).
 * test_biglittle_pack_into_awake_cluster's wake-up (CFS's LITTLE CPU 0,
 * 183200) goes to big CPU 5 (152692); the same task forked stays on CPU 0,
 * CPU 5 being no candidate: cfs_cheapest.  Towards a smaller CPU a fork
 * moves as a wake-up does: test_biglittle_little_runs_it_cheaper's CFS
 * CPU 5 to LITTLE CPU 1 (58400, wake_cheaper).  And a fork that CFS's CPU
 * would queue, while a larger CPU idles in an awake cluster, leaves the
 * queue for it: with LITTLE CPUs 0-3 running at 50, CFS's CPU 0 queues
 * the task and big CPU 5 is free (queue_avoided).
 */
static void test_fork_not_moved_up(void **state)
{
	struct sp_decision ref;

	scene_phone();
	task(40, 0, 0);
	t.wake = SP_WAKE_FORK;
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(d.cfs_nj, 183200);
	sp_place_exhaustive(&m, &st, &pol, &t, NULL, NULL, &ref);
	assert_int_equal(ref.cpu, 0);
	assert_false(ref.override);

	scene_phone();
	cpu(0, 50, AWAKE);
	sync_groups();
	task(40, 5, 5);
	t.wake = SP_WAKE_FORK;
	place();
	assert_moved(1, SP_R_WAKE_CHEAPER);
	assert_int_equal(d.chosen_nj, 58400);

	scene_phone();
	cpu(0, 50, AWAKE);
	cpu(1, 50, AWAKE);
	cpu(2, 50, AWAKE);
	cpu(3, 50, AWAKE);
	sync_groups();
	task(40, 0, 0);
	t.wake = SP_WAKE_FORK;
	place();
	assert_moved(5, SP_R_QUEUE_AVOIDED);
}

/*
 * Balanced mode keeps CFS's CPU for a fork (reason mode, CFS's energy
 * filled in for the trace): the scene where power mode moves a fork from
 * big CPU 5 to LITTLE CPU 1 (wake_cheaper, test_fork_not_moved_up).  The
 * same task waking there is priced as in power mode, inside the guard.
 */
static void test_balanced_fork_kept(void **state)
{
	scene_phone();
	cpu(0, 50, AWAKE);
	sync_groups();
	task(40, 5, 5);
	t.wake = SP_WAKE_FORK;
	pol.mode = SP_MODE_BALANCED;
	place();
	assert_kept(SP_R_MODE);
	assert_int_equal(d.nr_candidates, 1);
	assert_true(d.cfs_nj > 0);
	assert_int_equal(d.chosen_nj, d.cfs_nj);
	t.wake = SP_WAKE_WAKEUP;
	place();
	assert_moved(1, SP_R_WAKE_CHEAPER);
	pol.mode = SP_MODE_POWER;
}

/*
 * Balanced mode's default bound (the shallowest group exit above CFS's
 * CPU) keeps candidates out; CFS's own CPU meets it.  On the phone with
 * only big CPU 4 running, CFS's LITTLE CPU 0 wakes in 150 + 400 us (its
 * cluster sleeps), above the bound of 400 us; a big CPU in cpu-off (300
 * us) would meet it, for more energy.  Balanced mode keeps CPU 0 and
 * reports no latency miss.  A bound the task or latency_us gives still
 * makes CFS's CPU one to leave (latency_bound).
 */
static void test_balanced_default_bound_keeps_cfs(void **state)
{
	scene_phone();
	task(100, 0, 0);
	t.this_cpu = 4;
	t.this_ctx = SP_THIS_TASK;
	pol.mode = SP_MODE_BALANCED;
	place();
	assert_int_equal(d.lat_bound_us, 400);
	assert_int_equal(d.cpu, 0);
	assert_false(d.override);
	assert_int_not_equal(d.reason, SP_R_LATENCY_BOUND);
	assert_false(d.lat_miss);
	pol.latency_us = 400;
	place();
	assert_true(d.cpu >= 5);
	assert_true(d.override);
	assert_int_equal(d.reason, SP_R_LATENCY_BOUND);
	pol.latency_us = 0;
	pol.mode = SP_MODE_POWER;
}

static bool only_cpu0(const void *ctx, u32 cpu)
{
	return cpu == 0;
}

/*
 * Scene "queue": CPUs 0, 1 and 2 run tasks (100 each), CPU 3 is in C6
 * under package 1, which CPU 2 keeps up; task u=50, CFS's and prev_cpu 3,
 * decided by CPU 2 with a full latency budget.  CPU 3 is free (no queue, no
 * idle group above it); CPUs 0 and 1 queue the task behind theirs.
 * OPP 0 (cap 256) before and after everywhere, W = 10000 us:
 *	CPU 3: busy 270000 * 150 / 256 - 270000 * 100 / 256 = 158203 - 105468
 *	       = 52735 uW -> 527350, idle -(5000 * 50 / 256 = 976) -> -9760,
 *	       C6 exit 40000: cfs_nj 557590, wake-up latency 80 us
 *	CPU 0: busy 270000 * 250 / 256 - 270000 * 200 / 256 = 263671 - 210937
 *	       = 52734 uW -> 527340, idle -(150000 * 50 / 256 = 29296) ->
 *	       -292960: 234380, wake-up latency 0 + SP_QUEUE_WAIT_US
 */
static void scene_queue(void)
{
	scene_light();
	cpu(0, 100, AWAKE);
	cpu(1, 100, AWAKE);
	cpu(2, 100, AWAKE);
	cpu(3, 0, C6);
	sync_groups();
	task(50, 3, 3);
	t.this_cpu = 2;
	st.cpu[2].lat_tokens = SP_LAT_TOKENS_SLOWER;
}

/*
 * The rule (sp_place.c's DOC block, "Queueing"): a queueing CPU is
 * admissible only if no admissible free CPU exists, or if the task's own
 * bound allows SP_QUEUE_WAIT_US; the bound holds the whole wake-up latency,
 * queueing included.  Scene "queue" has a free CPU (CFS's CPU 3), so:
 *	999 us: CPU 0's wait is not allowed, and no free CPU beats CFS's:
 *		CPU 3 kept (the fast path's one candidate);
 *	1000 us: the wait is allowed and CPU 0's 1000 us meets the bound:
 *		CPU 0, 234380 < 557590 less the margin, and slower than CFS's
 *		80 us (the budget is full);
 *	1001 us: the same.
 * With no bound at all the wait is not allowed either.
 */
static void test_queue_wait_bound_boundary(void **state)
{
	static const u32 lat[] = { 0, SP_QUEUE_WAIT_US - 1 };
	u32 i;

	for (i = 0; i < SP_ARRAY_SIZE(lat); i++) {
		scene_queue();
		t.latency_us = lat[i];
		place();
		assert_kept(SP_R_CFS_CHEAPEST);
		assert_int_equal(d.cfs_nj, 557590);
		assert_false(d.queued);
		assert_int_equal(d.wake_lat_us, 80);
		assert_int_equal(d.nr_candidates, 1);
	}
	for (i = 0; i <= 1; i++) {
		scene_queue();
		t.latency_us = SP_QUEUE_WAIT_US + i;
		place();
		assert_int_equal(d.cpu, 0);
		assert_true(d.override);
		assert_int_equal(d.cfs_nj, 557590);
		assert_int_equal(d.chosen_nj, 234380);
		assert_true(d.queued);
		assert_true(d.slower);
		assert_false(d.lat_miss);
		assert_int_equal(d.wake_lat_us, SP_QUEUE_WAIT_US);
	}
}

/*
 * A decision reads a CPU once, into its util cache: the stored average
 * while its stamp is at most SP_STALE_NS old, plus the work placed there
 * while that placement is at most SP_PENDING_NS old; each limit is
 * inclusive.  Scene "queue" at a bound of 1000 us, where CPUs 0 and 1 tie
 * for pd 0 (both at 100, one task each) and CPU 0, the lower, is chosen
 * (test_queue_wait_bound_boundary).  CPU 0 is neither CFS's CPU nor
 * prev_cpu, so the scan reads it first.
 *  - Work of 30 placed on CPU 0 exactly SP_PENDING_NS ago is still in
 *    flight: CPU 0 queues two tasks, 2000 us, over the bound, and CPU 1
 *    takes the task (its 1000 us; the same energy, 234380).  1 ns older,
 *    the placement has lapsed: CPU 0 again.
 *  - CPU 0's average stamped exactly SP_STALE_NS ago reads as stored, 100:
 *    the tie, CPU 0.  1 ns older, it is brought forward to the decision:
 *    CPU 0 runs at capacity 1024, 100 * 0.917004 + 1024 * 0.082996 =
 *    176.7 (177 by the decay table), less spare capacity than CPU 1: CPU 1,
 *    at the same energy (pd 0 stays at OPP 0, and CPU 1's share grows by
 *    50 from a sum of 200 or 277: 52734 uW either way).
 */
static void test_ucache_expiry_boundary(void **state)
{
	u64 i;

	for (i = 0; i <= 1; i++) {
		scene_queue();
		t.latency_us = SP_QUEUE_WAIT_US;
		sp_state_note_decision(&st, SP_NONE, 0, 30, false, NOW_NS - SP_PENDING_NS - i);
		place();
		assert_int_equal(d.cpu, i ? 0 : 1);
		assert_int_equal(d.chosen_nj, 234380);
		assert_int_equal(d.wake_lat_us, SP_QUEUE_WAIT_US);
	}
	for (i = 0; i <= 1; i++) {
		scene_queue();
		t.latency_us = SP_QUEUE_WAIT_US;
		st.cpu[0].util_stamp_ns = NOW_NS - SP_STALE_NS - i;
		st.cpu[0].cap = SP_CAP_SCALE;	/* running at full speed */
		assert_int_equal(sp_state_cpu_util_stored(&st, 0, NOW_NS), i ? 177 : 100);
		place();
		assert_int_equal(d.cpu, i ? 1 : 0);
		assert_int_equal(d.chosen_nj, 234380);
	}
}

/*
 * A task placed on an idle CPU is in flight there until that CPU next
 * enters idle, for at most SP_PENDING_NS: scene light with CPU 0 running
 * (100) and CPU 1 in C6.  The first task (u=50) goes to CFS's CPU 1, free;
 * once noted, CPU 1 counts as busy: a second task meets a 80 us exit plus
 * the wait behind the first, 1080 us, and CPU 1's utilisation reads 50.
 * The claim lapses after SP_PENDING_NS, and an idle entry clears it.
 */
static void test_work_in_flight(void **state)
{
	scene_light();
	cpu(0, 100, AWAKE);
	task(50, 1, 1);
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(d.wake_lat_us, 80);
	sp_state_note_decision(&st, SP_NONE, 1, 50, false, NOW_NS);
	assert_int_equal(sp_state_cpu_pending(&st, 1, NOW_NS), 50);
	/*
	 * The second task finds no CPU free: CFS's CPU 1 means an 80 us exit
	 * and the wait behind the first task; CPU 0's queue is the shorter
	 * wait and the cheaper (depth 0, no step): pack_awake_group.
	 */
	place();
	assert_moved(0, SP_R_PACK_AWAKE_GROUP);
	assert_true(d.queued);
	assert_int_equal(d.wake_lat_us, SP_QUEUE_WAIT_US);
	sp_place(&m, &st, &pol, &t, not_cpu0, NULL, &d);
	assert_int_equal(d.wake_lat_us, 80 + SP_QUEUE_WAIT_US);
	/*
	 * A second placement adds up (a task of utilisation 0 counts 1), and a
	 * third task would wait behind both: 80 + 2 x 1000 us.
	 */
	sp_state_note_decision(&st, SP_NONE, 1, 0, false, NOW_NS);
	assert_int_equal(sp_state_cpu_pending(&st, 1, NOW_NS), 51);
	assert_int_equal(sp_state_cpu_pending_nr(&st, 1, NOW_NS), 2);
	sp_place(&m, &st, &pol, &t, not_cpu0, NULL, &d);
	assert_int_equal(d.wake_lat_us, 80 + 2 * SP_QUEUE_WAIT_US);
	assert_int_equal(sp_state_cpu_pending(&st, 1, NOW_NS + SP_PENDING_NS), 51);
	assert_int_equal(sp_state_cpu_pending(&st, 1, NOW_NS + SP_PENDING_NS + 1), 0);
	/*
	 * A placement noted once the claim lapsed starts the sum again: the
	 * 51 noted before are gone, 30 and one task remain.
	 */
	sp_state_note_decision(&st, SP_NONE, 1, 30, false, NOW_NS + SP_PENDING_NS + 1);
	assert_int_equal(sp_state_cpu_pending(&st, 1, NOW_NS + SP_PENDING_NS + 1), 30);
	assert_int_equal(sp_state_cpu_pending_nr(&st, 1, NOW_NS + SP_PENDING_NS + 1), 1);
	sp_state_idle_enter(&st, &m, 1, C6, NOW_NS);
	assert_int_equal(sp_state_cpu_pending(&st, 1, NOW_NS), 0);
	assert_int_equal(sp_state_cpu_pending_nr(&st, 1, NOW_NS), 0);
	place();
	assert_false(d.queued);
	assert_int_equal(d.wake_lat_us, 80);
	/*
	 * Three forks (u=300) at once from a parent running on CPU 0, CFS
	 * sending them to the idlest package (CPUs 2, 2, 3): the first takes
	 * CPU 1 (package 0 is up); the second finds CPU 1 claimed, and
	 * queueing on package 0 would be slower than CFS's 380 us with no
	 * budget to spend: CPU 2; the third CPU 3.  No two share a CPU.
	 */
	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	for (u32 c = 0; c < 4; c++)
		cpu(c, 0, C6);
	cpu(0, 0, AWAKE);
	sync_groups();
	{
		static const u32 cfs_pick[3] = { 2, 2, 3 };
		u32 used = 0, i;

		for (i = 0; i < 3; i++) {
			task(300, 0, cfs_pick[i]);
			t.wake = SP_WAKE_FORK;
			t.this_cpu = 0;
			t.this_ctx = SP_THIS_TASK;
			place();
			used |= 1u << d.cpu;
			sp_state_note_decision(&st, 0, d.cpu, 300, false, NOW_NS);
		}
		assert_int_equal(used, 0xe);
	}
}

/*
 * The deciding CPU woken by an interrupt: every CPU sits in C6 and both
 * packages sleep in the snapshot, but CPU 2 runs the timer interrupt that
 * wakes the task (this_cpu 2, SP_THIS_IRQ).  Keeping the task there costs
 * no exit and no package wake-up; without the overlay it looked as costly
 * as waking package 1 from scratch (test_energy.c: wake 8061870).
 */
static void test_interrupted_cpu_is_awake(void **state)
{
	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	for (u32 c = 0; c < 4; c++)
		cpu(c, 0, C6);
	sync_groups();
	task(100, 2, 2);
	place();
	assert_int_equal(d.wake_lat_us, 380);
	assert_int_equal(d.terms.wake_nj, 8061870);
	t.this_cpu = 2;
	t.this_ctx = SP_THIS_IRQ;
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(d.wake_lat_us, 0);
	assert_int_equal(d.terms.wake_nj, 0);
	assert_int_equal(d.terms.groups_woken, 0);
	assert_false(d.queued);
	/* a CPU running the waker has work: a wake-up there waits */
	t.this_ctx = SP_THIS_TASK;
	place();
	assert_int_equal(d.cpu, 3);
	assert_int_equal(d.reason, SP_R_QUEUE_AVOIDED);
}

/*
 * Two queues of the same length.  Package 0 is up: CPU 1 runs the waker
 * (util 300) and decides, CPU 0 (util 10) has one task in flight; package
 * 1 sleeps, and the task may not run there (else its CPUs, which wake in
 * 380 us, would make either queue slower: test_queue_beside_sleeping_group).
 * Each of CPU 0 and CPU 1 has one task in flight, so both
 * queue the task (u=400) behind two and both estimate 2 x
 * SP_QUEUE_WAIT_US.  CFS keeps it on CPU 1; CPU 0 is cheaper, since pd 0
 * then runs at OPP 2 rather than OPP 3.  The estimates being equal says
 * nothing about the waits (the waker may stop in a few us, CPU 0's task
 * may still be leaving C6): the move is slower and needs the budget.
 */
static void test_equal_queues_spend_budget(void **state)
{
	board_a(10, AWAKE, 700, AWAKE, 0, C6, 0, C6);
	sp_state_note_decision(&st, 3, 0, 1, false, NOW_NS);
	sp_state_note_decision(&st, 3, 1, 1, false, NOW_NS);
	task(400, 1, 1);
	t.this_cpu = 1;
	t.this_ctx = SP_THIS_TASK;
	st.cpu[1].lat_tokens = 0;
	sp_place(&m, &st, &pol, &t, only_pkg0, NULL, &d);
	assert_int_equal(d.cpu, 1);
	assert_false(d.override);
	assert_true(d.queued);
	assert_false(d.slower);
	assert_int_equal(d.wake_lat_us, 2 * SP_QUEUE_WAIT_US);
	/* with the budget the move is allowed, and spends it */
	st.cpu[1].lat_tokens = SP_LAT_TOKENS_SLOWER;
	sp_place(&m, &st, &pol, &t, only_pkg0, NULL, &d);
	assert_moved(0, SP_R_PSTATE_CHEAPER);
	assert_true(d.queued);
	assert_true(d.slower);
	assert_int_equal(d.wake_lat_us, 2 * SP_QUEUE_WAIT_US);
	/* balanced mode never makes it */
	pol.mode = SP_MODE_BALANCED;
	sp_place(&m, &st, &pol, &t, only_pkg0, NULL, &d);
	assert_int_equal(d.cpu, 1);
	assert_false(d.slower);
}

/*
 * Two CPUs of one performance domain, both running at 100 (CPU 0's 300
 * less the waking task's own 200: it slept there), and package 1 asleep:
 * no free CPU, so queueing is allowed.  CFS's CPU 0 also has a task placed
 * and not yet run (2 x SP_QUEUE_WAIT_US expected), CPU 1 only its running
 * one (1 x).  Both cost the same: the task steps the shared domain to the
 * same OPP and gives up the same idle time.  The margin does not keep CFS's
 * CPU then: the move costs nothing estimated and the task waits behind one
 * task instead of two.  Not slower, so no budget is spent.  Without the
 * task placed on CPU 0 the queues are equal and CFS keeps its CPU.
 */
static void shorter_queue_scene(void)
{
	board_a(300, AWAKE, 100, AWAKE, 0, C6, 0, C6);
	task(200, 0, 0);
	st.cpu[0].lat_tokens = 0;
}

static void test_shorter_queue_wins_tie(void **state)
{
	shorter_queue_scene();
	sp_state_note_decision(&st, 0, 0, 1, false, NOW_NS);
	sp_place(&m, &st, &pol, &t, only_pkg0, NULL, &d);
	assert_moved(1, SP_R_SHORTER_QUEUE);
	assert_true(d.queued);
	assert_false(d.slower);
	assert_int_equal(d.wake_lat_us, SP_QUEUE_WAIT_US);
	assert_int_equal(d.chosen_nj, d.cfs_nj);
	/*
	 * package 1 allowed: its CPUs wake in 380 us, sooner than either
	 * queue, so the shorter one is still slower (the deciding CPU is not
	 * known: no budget kept, the move allowed)
	 */
	place();
	assert_moved(1, SP_R_SHORTER_QUEUE);
	assert_true(d.slower);
	/* equal queues: CFS's CPU stays */
	shorter_queue_scene();
	sp_place(&m, &st, &pol, &t, only_pkg0, NULL, &d);
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(d.wake_lat_us, SP_QUEUE_WAIT_US);
}

/*
 * A queue beside a sleeping package.  Package 0 is up, both CPUs running
 * (CPU 0 the waker, which decides, at 300; CPU 1 at 300); package 1
 * sleeps.  The task (u=100, prev and CFS's CPU 0) would wait behind the
 * waker, SP_QUEUE_WAIT_US expected, or behind CPU 1's task; no CPU of an
 * awake package is free, so queueing is admissible.  Waking package 1
 * costs more than joining a queue (its 600 uJ), so the energy keeps CFS's
 * CPU.  But CPU 2 wakes the task in 380 us (C6's 80, the package's 300),
 * below the queue's estimate: keeping the queue is the slower choice, and with the deciding
 * CPU's tokens short it is refused and package 1 woken (queue_avoided).
 * With the tokens, CFS's CPU is kept and spends them (slower, and
 * sp_place_spends()).  Balanced mode never spends them and keeps the
 * queue, as CFS would; a task whose own bound allows the wait keeps it
 * without spending.
 */
static void queue_beside_scene(void)
{
	board_a(300, AWAKE, 300, AWAKE, 0, C6, 0, C6);
	task(100, 0, 0);
	t.this_cpu = 0;
	t.this_ctx = SP_THIS_TASK;
}

static void test_queue_beside_sleeping_group(void **state)
{
	queue_beside_scene();
	st.cpu[0].lat_tokens = 0;
	place();
	assert_int_equal(d.cpu, 2);
	assert_true(d.override);
	assert_int_equal(d.reason, SP_R_QUEUE_AVOIDED);
	assert_false(d.queued);
	assert_false(d.slower);
	assert_int_equal(d.wake_lat_us, 380);
	/* package 1 refused: nothing wakes sooner, the queue is CFS's */
	sp_place(&m, &st, &pol, &t, only_pkg0, NULL, &d);
	assert_int_equal(d.cpu, 0);
	assert_false(d.override);
	assert_false(d.slower);
	/* with the budget the queue is kept, and spends it */
	st.cpu[0].lat_tokens = SP_LAT_TOKENS_SLOWER;
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_true(d.queued);
	assert_true(d.slower);
	assert_int_equal(d.wake_lat_us, SP_QUEUE_WAIT_US);
	assert_true(sp_place_spends(&d, 0));
	assert_false(sp_place_spends(&d, 2));
	sp_place_note(&m, &st, &d, 0, 0, sp_place_spends(&d, 0), NOW_NS);
	assert_int_equal(st.cpu[0].lat_tokens, 1);
	/* balanced: kept, never slower */
	queue_beside_scene();
	pol.mode = SP_MODE_BALANCED;
	place();
	assert_int_equal(d.cpu, 0);
	assert_false(d.slower);
	/* the task's own bound allows the wait: kept, no budget spent */
	pol.mode = SP_MODE_POWER;
	t.latency_us = SP_QUEUE_WAIT_US;
	place();
	assert_int_equal(d.cpu, 0);
	assert_false(d.slower);
}

/*
 * Consolidation and the latency budget.  Package 0 is up (CPU 0 runs at
 * 100, CPU 1 in C6) and has been up 3/4 of the time (f0 = 768); package 1
 * was up 1/4 of the time (f1 = 256) and CPU 2 now runs the timer interrupt
 * of a task (u=50, W=10000 us) that slept there.  S = static power for
 * the task's busy time = 1900000*50/256 = 371093 uW -> 3710930 nJ.
 * CPU 2 (awake for the interrupt, package 1 awake with it, OPP 0):
 *	busy 527340, idle -9760 (C6, where it returns), wake 0,
 *	static 3710930 (package 1 is up for this wake-up alone: in full),
 *	future (600000 + 3710930)*768/1024 = 3233197	total 7461707
 * CPU 1 (C6, package 0 up, OPP 0 with CPU 0's 100 before and after):
 *	busy 1582030 - 1054680 = 527350, idle -9760, wake 40000,
 *	static 3710930*256/1024 = 927732,
 *	future 4310930*256/1024 = 1077732		total 2563054
 * Moving saves 66 %: wake_cheaper (CPU 1 is deeper).  But CPU 1 wakes in
 * 80 us and staying costs 0: the move makes the wake-up slower than CFS's,
 * which spends SP_LAT_TOKENS_SLOWER of CPU 2's budget.  Without them the
 * task stays.  With both packages at 1/4 moving still saves (6573984):
 * package 1 is up for the task alone; once CPU 3 holds it up as well,
 * staying costs 6533974, the static term S * (1 - f1), and the task stays.
 */
static void test_consolidation_and_budget(void **state)
{
	board_a(100, AWAKE, 0, C6, 0, C6, 0, C6);
	awake_frac(0, 768);
	awake_frac(1, 256);
	task(50, 2, 2);
	t.this_cpu = 2;
	t.this_ctx = SP_THIS_IRQ;
	st.cpu[2].lat_tokens = SP_LAT_TOKENS_SLOWER;
	place();
	assert_moved(1, SP_R_WAKE_CHEAPER);
	assert_int_equal(d.cfs_nj, 7461707);
	assert_int_equal(d.chosen_nj, 2563054);
	assert_int_equal(d.terms.static_nj, 927732);
	assert_int_equal(d.terms.future_nj, 1077732);
	assert_true(d.slower);
	assert_int_equal(d.wake_lat_us, 80);
	/* the decision is charged to CPU 2: one token earned, 200 spent */
	sp_state_note_decision(&st, 2, 1, 50, d.slower, NOW_NS);
	assert_int_equal(st.cpu[2].lat_tokens, 1);
	sp_state_idle_enter(&st, &m, 1, C6, NOW_NS);	/* CPU 1 free again */
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_false(d.slower);
	/* 199 decisions later the budget allows one more */
	for (u32 i = 0; i < 199; i++)
		sp_state_note_decision(&st, 2, 2, 0, false, NOW_NS - SP_PENDING_NS - 1);
	place();
	assert_moved(1, SP_R_WAKE_CHEAPER);
	/* balanced mode never spends it */
	pol.mode = SP_MODE_BALANCED;
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	/* equal awake fractions: package 1 is up for the task alone */
	pol.mode = SP_MODE_POWER;
	awake_frac(0, 256);
	place();
	assert_moved(1, SP_R_WAKE_CHEAPER);
	assert_int_equal(d.cfs_nj, 7461707);
	assert_int_equal(d.chosen_nj, 6573984);
	/* CPU 3 holds package 1 up as well: staying is cheaper */
	sp_state_idle_exit(&st, &m, 3, NOW_NS);
	place();
	assert_int_not_equal(d.cpu, 1);
	assert_int_equal(d.cfs_nj, 6533974);
}

/*
 * A timer wake-up whose interrupt woke the task's package alone: staying
 * keeps package 1 up for the task only, so the static term counts S =
 * 3710930 nJ in full (test_consolidation_and_budget's numbers), not S *
 * (1 - f1).  The package woke with CPU 2 when the exit is recorded too
 * (both stamped at NOW), but not if it was up before CPU 2 left idle, nor
 * while CPU 3 holds it awake; nor for a wake-up that is no timer's (the
 * interrupt runs on another CPU than the one the task slept on).
 */
/*
 * test_consolidation_and_budget's board and timer wake-up, CPU 2 without
 * latency budget.
 */
static void alone_scene(void)
{
	board_a(100, AWAKE, 0, C6, 0, C6, 0, C6);
	awake_frac(0, 768);
	awake_frac(1, 256);
	st.cpu[2].lat_tokens = 0;
	task(50, 2, 2);
	t.this_cpu = 2;
	t.this_ctx = SP_THIS_IRQ;
}

/*
 * Place alone_scene()'s task after its CPUs' exits, package 1's fraction
 * set again (an exit refreshes it): CFS's CPU 2 kept, its static term
 * @static_nj.
 */
static void kept_with_static(s64 static_nj)
{
	awake_frac(1, 256);
	place();
	assert_int_equal(d.cpu, 2);
	assert_int_equal(d.terms.static_nj, static_nj);
}

static void test_timer_alone_group(void **state)
{
	const s64 s_full = 3710930, s_share = 2783197;	/* S, S * 768 / 1024 */

	alone_scene();
	place();			/* no budget: CFS's CPU 2 is kept */
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(d.terms.static_nj, s_full);
	/* the exit recorded: the package woke with CPU 2 */
	sp_state_idle_exit(&st, &m, 2, NOW_NS);
	kept_with_static(s_full);
	/* up before CPU 2 left idle (CPU 2 woke it, then slept shallow) */
	alone_scene();
	sp_state_idle_exit(&st, &m, 2, NOW_NS - 1000);
	sp_state_idle_enter(&st, &m, 2, C1, NOW_NS - 500);
	sp_state_idle_exit(&st, &m, 2, NOW_NS);
	kept_with_static(s_share);
	/* woke with CPU 2, but CPU 3 holds it awake too */
	alone_scene();
	sp_state_idle_exit(&st, &m, 2, NOW_NS);
	sp_state_idle_exit(&st, &m, 3, NOW_NS);
	kept_with_static(s_share);
	/* an interrupt on CPU 3 waking a task that slept on CPU 2 */
	alone_scene();
	t.this_cpu = 3;
	place();
	/* CPU 2's exit (40 uJ) and S * (1 - f1): 6533974 + 40000 */
	assert_int_equal(d.cfs_nj, 6573974);
}

/*
 * A waking task's own past is in prev_cpu's average: CPU 0 at 600 with the
 * task (u=100) coming back to it reads 500, so pd 0 stays at OPP 2 (need
 * 750 <= 768) instead of stepping to OPP 3 for 700.  A fork's utilisation
 * is not on the parent's CPU: there the step shows (OPP 2 -> 3).
 */
static void test_prev_without_task(void **state)
{
	scene_step(10000);
	task(100, 0, 0);
	sp_place(&m, &st, &pol, &t, only_cpu0, NULL, &d);
	assert_int_equal(d.terms.opp_before, 2);
	assert_int_equal(d.terms.opp_after, 2);
	assert_int_equal(d.terms.pstate_nj, 0);
	t.wake = SP_WAKE_FORK;
	sp_place(&m, &st, &pol, &t, only_cpu0, NULL, &d);
	assert_int_equal(d.terms.opp_before, 2);
	assert_int_equal(d.terms.opp_after, 3);
}

/*
 * A task woken back onto its previous CPU is in that CPU's average
 * already (test_prev_without_task), so its placement leaves no more
 * utilisation in flight there (sp_place_note_util(): 0, which
 * sp_state_note_decision() counts as 1).  The phone's browser story: the
 * main thread (u=560) wakes back onto big CPU 4 (560, WFI); a raster
 * thread (u=270) then wakes from LITTLE CPU 2 (280, WFI), and CFS sends it
 * to big CPU 5 because its util_est no longer fits LITTLE.  Noted as 560,
 * the main thread made CPU 4 read 1024, above 80 % of its capacity, and
 * the raster thread fell back to CFS (overutilised_fallback) and left for
 * the big cluster.  Read at 561, CPU 4 is not overutilised, and LITTLE
 * CPU 2 (10 without the task, 280 with it, within 80 % of 360; its
 * cluster awake for CPU 0) runs the thread for less: wake_cheaper (both
 * idle at depth 1).  A fork has no share anywhere yet: noted whole.
 */
static void test_note_prev_once(void **state)
{
	scene_phone();
	cpu(0, 100, AWAKE);
	cpu(2, 280, C1);
	cpu(4, 560, C1);
	sync_groups();
	task(560, 4, 4);
	place();
	assert_int_equal(d.cpu, 4);
	assert_int_equal(sp_place_note_util(&d, 4), 0);
	sp_state_note_decision(&st, SP_NONE, 4, sp_place_note_util(&d, 4), false, NOW_NS);
	assert_int_equal(sp_state_cpu_pending(&st, 4, NOW_NS), 1);
	cpu(4, 560, AWAKE);	/* the main thread runs */
	sync_groups();
	task(270, 2, 5);
	place();
	assert_int_not_equal(d.reason, SP_R_OVERUTILISED);
	assert_moved(2, SP_R_WAKE_CHEAPER);
	assert_int_equal(sp_place_note_util(&d, 2), 0);
	assert_int_equal(sp_place_note_util(&d, 5), 270);
	t.wake = SP_WAKE_FORK;
	place();
	assert_int_equal(sp_place_note_util(&d, 2), 270);
}

/*
 * A timer wake-up decides two wake-ups: the task's next timer fires on the
 * CPU it sleeps on.  Big CPU 4 runs the timer interrupt of a task (u=40)
 * that slept there (this_cpu = prev = CFS's CPU 4, SP_THIS_IRQ; the big
 * cluster is up only for it); LITTLE CPU 0 runs at 50, so cluster 0 and
 * the package are up.  CPU 4 (OPP 0, cap 290): busy 170000*40/290 = 23448
 * uW -> 93792, idle -(2000*40/290 = 275) -> -1100, and the big cluster's
 * static power for the task's run, 115000*40/290 = 15862 uW -> 63448, in
 * full: it woke for this wake-up alone (test_timer_alone_group); total
 * 156140.  CPU 1
 * (cpu-off in the awake cluster): 58400 (test_biglittle_little_runs_it_cheaper).
 * CPU 1 wakes in 150 us, CPU 4 in 0: slower now, and CPU 4 has no latency
 * budget.  But the task's next timer wake-up, from the deepest state with
 * every group asleep, costs 300 + 800 + 500 = 1600 us on CPU 4 and
 * 150 + 400 + 500 = 1050 us on CPU 1: the larger of now and next is 1050
 * against 1600, so the move spends no budget (d.slower false).  Balanced
 * mode never makes a wake-up slower; a sync wake-up from a task on CPU 4
 * is no timer's: the rule is as before.
 */
static void test_timer_next_wakeup(void **state)
{
	scene_phone();
	cpu(0, 50, AWAKE);
	cpu(4, 0, C6);
	sync_groups();
	task(40, 4, 4);
	t.this_cpu = 4;
	t.this_ctx = SP_THIS_IRQ;
	st.cpu[4].lat_tokens = 0;
	place();
	assert_moved(1, SP_R_WAKE_CHEAPER);
	assert_int_equal(d.cfs_nj, 156140);
	assert_int_equal(d.chosen_nj, 58400);
	assert_int_equal(d.wake_lat_us, 150);
	assert_false(d.slower);
	sp_state_note_decision(&st, 4, 1, 40, d.slower, NOW_NS);
	assert_int_equal(st.cpu[4].lat_tokens, 1);
	sp_state_idle_enter(&st, &m, 1, C6, NOW_NS);	/* CPU 1 free again */
	pol.mode = SP_MODE_BALANCED;
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	pol.mode = SP_MODE_POWER;
	/* woken by a task on CPU 4 that is about to sleep, not by its timer: kept */
	t.this_ctx = SP_THIS_SYNC;
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
}

/*
 * A timer wake-up on big CPU 4 whose exit woke its cluster and the package
 * (300 + 800 + 500 = 1600 us paid before the decision), every LITTLE CPU
 * asleep in cpu-off with its cluster, and big's cluster up only for its
 * own tasks (awake fraction 0), so LITTLE costs less: a move to LITTLE CPU
 * 0 adds 150 + 400 us to that, 2150 us, above the 1600 us of the task's
 * worst timer wake-up on CPU 4, so it is slower and the CPU has no budget:
 * kept.  The same
 * whether the snapshot still has CPU 4 in cpu-off or has seen its exit.
 * Once CPU 4's groups were up before it left idle (nothing paid but its
 * own state, counted 0), the move is 550 us now against 1600 at every
 * timer on CPU 4, and LITTLE's next timer is 1050: moved, spending nothing.
 */
static void test_timer_key_counts_paid_exit(void **state)
{
	u32 c;

	scene_phone();
	for (c = 0; c < 8; c++)
		cpu(c, 0, C6);
	sync_groups();
	awake_frac(m.cpu_group[0][4], 0);	/* big: up only for its own tasks */
	task(40, 4, 4);
	t.this_cpu = 4;
	t.this_ctx = SP_THIS_IRQ;
	st.cpu[4].lat_tokens = 0;
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	/* the exit recorded: CPU 4 and its groups awake since the same instant */
	sp_state_idle_exit(&st, &m, 4, NOW_NS - 1600000);
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	/* the groups up before CPU 4's exit: nothing of theirs paid */
	st.cpu[4].busy_since_ns = NOW_NS - 1000;
	place();
	assert_moved(0, SP_R_WAKE_CHEAPER);
	assert_int_equal(d.wake_lat_us, 550);
	assert_false(d.slower);
}

/*
 * Fork: 6.1 decides before post_init_entity_util_avg(), so the child's own
 * utilisation reads 0; the estimate is what that call will give it on the
 * chosen CPU, half its spare capacity, and no more than the CPU's own
 * utilisation when it has some: idle CPU 512, CPU at 200 200, at 900 62.
 */
static void test_fork_util(void **state)
{
	scene_light();
	assert_int_equal(sp_place_fork_util(&m, &st, 2, NOW_NS), 512);
	assert_int_equal(sp_place_fork_util(&m, &st, 0, NOW_NS), 200);
	cpu(0, 900, AWAKE);
	assert_int_equal(sp_place_fork_util(&m, &st, 0, NOW_NS), 62);
	assert_int_equal(sp_place_fork_util(&m, &st, 99, NOW_NS), 512);
}

/*
 * Seeded random decisions on the shipped models: invariants that hold for
 * every input, and a digest of every decision so that an optimisation of
 * sp_place()/sp_energy_delta() can show it changes no decision.
 *
 * The snapshots mix awake CPUs (util 0..1024), idle ones in every state
 * (and an out-of-range state index), stale utilisation stamps, reported
 * OPPs; the tasks mix utilisations, latency bounds, prev/cfs CPUs (some
 * outside the model), modes, margins, windows and affinity masks.
 */
#define RND_SNAPSHOTS	40
#define RND_TASKS	50

static u64 rng;
static u8 allowed_map[SP_MAX_CPUS];

static u32 rnd(void)
{
	return xorshift_u32(&rng);
}

static u32 rnd_in(u32 lo, u32 hi)
{
	return xorshift_in(&rng, lo, hi);
}

static bool rnd_allowed(const void *ctx, u32 cpu)
{
	return cpu < SP_MAX_CPUS && allowed_map[cpu];
}

/* Parse models/@name (or $SP_MODELS_DIR/@name) into m. */
static void load_file(const char *name)
{
	static char buf[SP_MODEL_TEXT_MAX];
	const char *dir = getenv("SP_MODELS_DIR");
	char path[512];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "models", name);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	load(buf, n);
}

static void rnd_snapshot(void)
{
	u32 c, hot = rnd() % 4 == 0;	/* a few CPUs may be saturated */

	sp_state_init(&st, &m, NOW_NS - 1000000000ull);
	for (c = 0; c < SP_MAX_PDS; c++)
		st.pd_opp[c] = rnd() % 4 ? SP_OPP_MODELLED : (s32)rnd_in(0, SP_MAX_OPPS);
	for (c = 0; c < m.nr_cpus; c++) {
		const struct sp_pd *pd = &m.pd[m.cpu_pd[c]];
		u32 r = rnd() % 8, idx, util, since_ns;

		if (r >= 4) {
			/* one draw a statement: the order of arguments is the compiler's */
			since_ns = rnd_in(1, 2000000);
			idx = rnd_in(0, pd->nr_idle);
			sp_state_idle_enter(&st, &m, c, idx, NOW_NS - since_ns);
		}
		st.cpu[c].util = pd->opp[pd->nr_opps - 1].cap *
				  (hot && r == 0 ? rnd_in(0, 100) : rnd_in(0, 60)) / 100;
		st.cpu[c].util_stamp_ns = rnd() % 2 ? NOW_NS :
					  NOW_NS - rnd_in(0, 5000000);
		if (rnd() % 4 == 0) {	/* work in flight, maybe expired */
			since_ns = rnd_in(0, 6000000);
			util = rnd_in(0, 600);
			sp_state_note_decision(&st, SP_NONE, c, util, false, NOW_NS - since_ns);
		}
		st.cpu[c].lat_tokens = rnd_in(0, SP_LAT_TOKENS_MAX);
	}
	for (c = 0; c < m.nr_groups; c++) {
		st.group[c].awake_avg = rnd_in(0, 1024);
		st.group[c].avg_stamp_ns = NOW_NS - rnd_in(0, 300000000);
	}
}

static u32 rnd_cpu(void)
{
	u32 r = rnd() % 32;

	if (r == 0)
		return 0xffffffffu;
	if (r == 1)
		return m.nr_cpus + rnd() % 4;
	return rnd() % m.nr_cpus;
}

static void rnd_task(void)
{
	static const u32 modes[] = { SP_MODE_OBSERVE, SP_MODE_POWER,
				     SP_MODE_BALANCED, SP_MODE_PERFORMANCE,
				     SP_MODE_POWER, SP_MODE_BALANCED };
	u32 c, all = rnd() % 8 == 0;

	pol.mode = modes[rnd() % SP_ARRAY_SIZE(modes)];
	pol.margin_pct = rnd() % 3 ? rnd_in(0, 20) : 5;
	pol.overutil_pct = rnd() % 8 ? rnd_in(60, 100) : 0;
	pol.window_us = rnd_in(100, 20000);
	pol.latency_us = rnd() % 4 ? 0 : rnd_in(0, 2000);
	t.util = rnd() % 16 ? rnd_in(0, 600) : rnd_in(600, 1024);
	t.latency_us = rnd() % 3 ? 0 : rnd_in(0, 2000);
	t.prev_cpu = rnd_cpu();
	t.cfs_cpu = rnd() % 4 ? t.prev_cpu : rnd_cpu();
	t.this_cpu = rnd() % 2 ? t.prev_cpu : rnd_cpu();
	t.this_ctx = rnd() % 3;
	t.wake = rnd() % SP_WAKE_NR;
	for (c = 0; c < SP_MAX_CPUS; c++)
		allowed_map[c] = all || rnd() % 4 != 0;
}

static u64 fnv(u64 h, u64 v)
{
	u32 i;

	for (i = 0; i < 8; i++, v >>= 8)
		h = (h ^ (v & 0xff)) * 0x100000001b3ull;
	return h;
}

static u64 rnd_decisions(const char *name, u64 seed)
{
	struct sp_decision fast;
	u64 h = 0xcbf29ce484222325ull;
	u32 i, j;

	load_file(name);
	rng = seed;
	for (i = 0; i < RND_SNAPSHOTS; i++) {
		rnd_snapshot();
		for (j = 0; j < RND_TASKS; j++) {
			bool acts;

			rnd_task();
			/*
			 * The full evaluation's decision is the one hashed; the
			 * pruned one must agree on the CPU, the override and the
			 * energies; its reason and candidate count may differ
			 * only where it kept CFS's CPU without looking at what
			 * made the full walk say overutilised_fallback.
			 */
			sp_place(&m, &st, &pol, &t, rnd_allowed, NULL, &fast);
			sp_place_exhaustive(&m, &st, &pol, &t, rnd_allowed, NULL, &d);
			assert_int_equal(fast.cpu, d.cpu);
			assert_int_equal(fast.override, d.override);
			assert_true(fast.cfs_nj == d.cfs_nj && fast.chosen_nj == d.chosen_nj);
			assert_true(fast.terms.total_nj == d.terms.total_nj);
			/* a CFS choice kept without looking at everything */
			if (fast.reason != d.reason) {
				assert_int_equal(d.reason, SP_R_OVERUTILISED);
				assert_int_equal(fast.cpu, t.cfs_cpu);
			}
			acts = pol.mode == SP_MODE_POWER || pol.mode == SP_MODE_BALANCED;
			assert_true(d.reason < SP_R_NR);
			assert_true(d.nr_candidates <= MAX_CANDIDATES);
			/* a CPU sp_place() picks is in the model and allowed */
			if (d.cpu != t.cfs_cpu) {
				assert_true(d.cpu < m.nr_cpus);
				assert_true(rnd_allowed(NULL, d.cpu));
				assert_true(pol.mode == SP_MODE_OBSERVE || d.override);
			}
			if (d.override) {
				assert_true(acts);
				assert_true(d.cpu != t.cfs_cpu);
				if (d.reason == SP_R_SHORTER_QUEUE)
					assert_true(d.chosen_nj <= d.cfs_nj);
				else if (d.reason != SP_R_LATENCY_BOUND &&
					 d.reason != SP_R_QUEUE_AVOIDED)
					assert_true(d.chosen_nj < d.cfs_nj);
			}
			if (t.cfs_cpu >= m.nr_cpus)
				assert_int_equal(d.nr_candidates, 0);
			h = fnv(h, d.cpu);
			h = fnv(h, d.reason | (u64)d.override << 16 |
				   (u64)d.nr_candidates << 32);
			h = fnv(h, (u64)d.cfs_nj);
			h = fnv(h, (u64)d.chosen_nj);
			h = fnv(h, (u64)d.terms.busy_nj);
			h = fnv(h, (u64)d.terms.pstate_nj);
			h = fnv(h, (u64)d.terms.idle_nj);
			h = fnv(h, (u64)d.terms.wake_nj);
			h = fnv(h, d.terms.opp_before | (u64)d.terms.opp_after << 16 |
				   (u64)d.terms.groups_woken << 32);
			h = fnv(h, (u64)d.terms.static_nj);
			h = fnv(h, (u64)d.terms.future_nj);
			h = fnv(h, d.queued | d.slower << 1 | d.lat_miss << 2 |
				   (u64)d.wake_lat_us << 32);
			/* queue_avoided moves off a queueing CPU onto one that is not */
			if (d.reason == SP_R_QUEUE_AVOIDED && pol.mode != SP_MODE_OBSERVE)
				assert_false(d.queued);
			/* shorter_queue leaves one queue for another */
			if (d.reason == SP_R_SHORTER_QUEUE)
				assert_true(d.queued);
			/* balanced never makes a wake-up slower than CFS's */
			if (pol.mode == SP_MODE_BALANCED)
				assert_false(d.slower);
			/* nor leaves CFS's CPU for its default bound */
			if (pol.mode == SP_MODE_BALANCED && !t.latency_us && !pol.latency_us)
				assert_int_not_equal(d.reason, SP_R_LATENCY_BOUND);
			/* nor moves a fork: CFS's CPU, for the mode */
			if (pol.mode == SP_MODE_BALANCED && t.wake == SP_WAKE_FORK) {
				assert_false(d.override);
				if (t.cfs_cpu < m.nr_cpus)
					assert_int_equal(d.reason, SP_R_MODE);
			}
		}
	}
	return h;
}

/*
 * A board whose tables test the rate bounds' corners: pd 0's capacities are
 * uneven (bucket 3 holds the needs 96..127, which ask for OPP 0, 1 or 2, and
 * takes OPP 0's rate, the lowest), its shallowest idle state draws more than
 * OPP 0 and OPP 1 run, so their rates are negative; pd 1's efficiency falls (OPP 1 is
 * cheaper per unit), so it has no bound; the package mixes the two.
 */
static const char rate_board[] =
	"sched_power_model version=1 cpus=4\n"
	"level name=package\n"
	"pd id=0 cpus=0-1\n"
	"opp pd=0 khz=400000 cap=100 uw=60000\n"
	"opp pd=0 khz=500000 cap=120 uw=80000\n"
	"opp pd=0 khz=1800000 cap=610 uw=900000\n"
	"opp pd=0 khz=3000000 cap=1024 uw=2900000\n"
	"idle pd=0 name=C1 uw=250000 exit_us=2 target_us=2 wake_uj=0\n"
	"idle pd=0 name=C6 uw=1000 exit_us=80 target_us=240 wake_uj=30\n"
	"pd id=1 cpus=2-3\n"
	"opp pd=1 khz=800000 cap=200 uw=400000\n"
	"opp pd=1 khz=3200000 cap=1024 uw=1100000\n"
	"idle pd=1 name=C1 uw=10000 exit_us=2 target_us=2 wake_uj=0\n"
	"group level=package id=0 cpus=0-3 active_uw=500000 idle_uw=50000 wake_uj=100 exit_us=50\n"
	"end\n";

/*
 * While @cpu's groups up to level L sleep (the first groups_woken levels
 * of its chain), busy + P-state + idle (@run) plus the static power of the
 * groups woken, wake_nj less the wake-up energies it counts (@e), is at
 * least the sleeping bound of each of those groups: floor(rate * u * W /
 * 1024000) with its lb_sleep_q10 entry, less 2 + L + 1 slacks of W / 1000
 * + 2 (sp_place_lb_sleeping()).
 */
static void sleeping_bound_holds(u32 c, u32 u, u32 wc, u32 b, s64 run,
				 const struct sp_energy_terms *e)
{
	const struct sp_pd *pd = &m.pd[m.cpu_pd[c]];
	s32 idx = st.cpu[c].idle_state;
	s64 wake_nj = 0, got, lb;
	u32 l;

	if (idx == AWAKE || !e->groups_woken)
		return;
	if (pd->nr_idle)
		wake_nj = 1000ll * pd->idle[(u32)idx < pd->nr_idle ? (u32)idx :
					    pd->nr_idle - 1u].wakeup_uj;
	for (l = 0; l < e->groups_woken; l++)
		wake_nj += (s64)m.group[m.cpu_group[l][c]].wakeup_nj;
	got = run + e->wake_nj - wake_nj;
	for (l = 0; l < e->groups_woken; l++) {
		s32 rate = m.lb_sleep_q10[b][m.cpu_group[l][c]];

		if (rate == SP_LB_NONE)
			continue;
		lb = sp_div_s64((s64)rate * u * wc, 1024000) - (3 + l) * (wc / 1000 + 2);
		if (got < lb)
			fail_msg("cpu %u u %u w %u level %u: %lld < sleeping bound %lld",
				 c, u, wc, l, (long long)got, (long long)lb);
	}
}

/*
 * The rate bound that sp_place() prunes with (sp_model_derive.c's DOC block)
 * never exceeds what it bounds: for tasks of every utilisation on random
 * snapshots, with cpufreq reporting every OPP in turn (and none), on every
 * CPU the task fits (u_c + u <= cap_top), busy + P-state + idle of
 * sp_energy_delta() is at least floor(rate * u * W / 1024000) less twice
 * the slack W / 1000 + 2, as sp_place_lb_rate_nj() takes it; a group's
 * rate is at most each of its CPUs' pds'; and future_nj is at least the
 * sum of sp_place_lb_future_nj()'s bound over the groups above the CPU.  Returns how many bounds came
 * within 1 % of the estimate (the bound is tight somewhere).
 */
static u32 rate_bounds_hold(void)
{
	u32 i, k, c, tight = 0;

	for (i = 0; i < 20; i++) {
		rnd_snapshot();
		for (k = 0; k <= SP_MAX_OPPS; k++) {
			u32 u = rnd() % 4 ? rnd_in(0, 1024) : rnd_in(600, 1024);
			u32 w = rnd() % 8 ? rnd_in(100, 20000) : rnd_in(1, 12000000);
			u32 wc = w < SP_ENERGY_WINDOW_MAX_US ? w : SP_ENERGY_WINDOW_MAX_US;
			u32 b = ((5 * u + 3) / 4) >> SP_OPP_LUT_SHIFT;

			for (c = 0; c < SP_MAX_PDS; c++)
				st.pd_opp[c] = k == SP_MAX_OPPS ? SP_OPP_MODELLED : (s32)k;
			for (c = 0; c < m.nr_cpus; c++) {
				u32 pdi = m.cpu_pd[c], l;
				s32 rate = m.lb_q10[b][pdi];
				u32 u_c = sp_state_cpu_util_stored(&st, c, NOW_NS);
				struct sp_energy_terms e;
				s64 run, lb, fut = 0;

				for (l = 0; l < m.nr_levels; l++) {
					u32 g = m.cpu_group[l][c];
					u64 asleep = SP_CAP_SCALE -
						     sp_state_group_awake_stored(&st, g, NOW_NS);
					u64 s_nj = ((u64)m.group[g].static_uw * u >> 10) * wc / 1000;

					assert_true(m.lb_q10[b][SP_LB_GROUP0 + g] <= rate);
					fut += (s64)(((m.group[g].wakeup_nj + s_nj) * asleep) >> 10);
				}
				u_c = u_c < SP_CAP_SCALE ? u_c : SP_CAP_SCALE;
				if (rate == SP_LB_NONE || u_c + u > m.pd[pdi].cap_top)
					continue;
				sp_energy_delta(&m, &st, NOW_NS, c, u, w, &e);
				assert_true(e.future_nj >= fut);
				run = e.busy_nj + e.pstate_nj + e.idle_nj;
				lb = sp_div_s64((s64)rate * u * wc, 1024000) - 2 * (wc / 1000 + 2);
				if (run < lb)
					fail_msg("cpu %u u_c %u u %u w %u opp %u: %lld < bound %lld",
						 c, u_c, u, w, k, (long long)run, (long long)lb);
				tight += run - lb <= run / 100 && run > 0;
				sleeping_bound_holds(c, u, wc, b, run, &e);
			}
		}
	}
	return tight;
}

/*
 * sp_place() against sp_place_exhaustive() on @n random snapshots of
 * RND_TASKS tasks each: the pruning (the bounds above, the fast path) must
 * never change the CPU.
 */
static void same_cpu_as_exhaustive(u32 n)
{
	struct sp_decision fast;
	u32 i, j;

	for (i = 0; i < n; i++) {
		rnd_snapshot();
		for (j = 0; j < RND_TASKS; j++) {
			rnd_task();
			sp_place(&m, &st, &pol, &t, rnd_allowed, NULL, &fast);
			sp_place_exhaustive(&m, &st, &pol, &t, rnd_allowed, NULL, &d);
			assert_int_equal(fast.cpu, d.cpu);
		}
	}
}

/*
 * A pd and package where the sleeping bound's assumptions hold exactly:
 * every CPU idle at utilisation 0 in the pd's one (so deepest) idle state,
 * the package asleep, and every power a multiple of what the divisions
 * take, so that no floor drops anything.  Two OPPs: (cap 512, 409600 uW),
 * (cap 1024, 1024000 uW); C1 102400 uW; package active 204800 uW, idle 0.
 * Per OPP (sp_model_derive.c's step 7), floor(1024 (P_k + 204800) / cap_k)
 * - ceil(1024 * 102400 / cap_k):
 *	k0: 2 * 614400 - 2 * 102400 = 1024000
 *	k1: 1228800 - 102400 = 1126400
 * so lb_sleep_q10 is 1024000 for a need up to 512 (k0 is the cheaper), and
 * 1126400 above.
 *
 * u=256 (need 320: OPP 0), W=1000 us, on CPU 0:
 *	busy = 409600 * 256 / 512 = 204800 uW -> 204800, no step
 *	idle = -(102400 * 256 / 512 = 51200) -> -51200
 *	S    = 204800 * 256 / 512 = 102400 -> 102400
 *	busy + P-state + idle + S = 256000 = 1024000 * 256 * 1000 / 1024000
 * u=640 (need 800: OPP 1), W=1000 us:
 *	busy = 409600 * 512 / 512 = 409600 (c's entry saturates at OPP 0)
 *	P-state = 1024000 * 640 / 1024 - 409600 = 230400
 *	idle = -(102400 * 640 / 1024 = 64000) -> -64000
 *	S    = 204800 * 640 / 1024 = 128000
 *	sum  = 704000 = 1126400 * 640 * 1000 / 1024000
 * W=4000 us multiplies each by 4.  The estimate equals the bound before its
 * slack: a bound any looser than its rounding fails.
 */
static void test_sleeping_bound_tight(void **state)
{
	static const char text[] =
		"sched_power_model version=1 cpus=2\n"
		"level name=package\n"
		"pd id=0 cpus=0-1\n"
		"opp pd=0 khz=1000000 cap=512 uw=409600\n"
		"opp pd=0 khz=2000000 cap=1024 uw=1024000\n"
		"idle pd=0 name=C1 uw=102400 exit_us=10 target_us=20 wake_uj=7\n"
		"group level=package id=0 cpus=0-1 active_uw=204800 idle_uw=0 wake_uj=50 exit_us=100\n"
		"end\n";
	static const struct {
		u32 u, w;
		s32 rate;
		s64 got;
	} cases[] = {
		{ 256, 1000, 1024000, 256000 },
		{ 640, 1000, 1126400, 704000 },
		{ 256, 4000, 1024000, 1024000 },
		{ 640, 4000, 1126400, 2816000 },
	};
	u32 i, c;

	for (i = 0; i < SP_ARRAY_SIZE(cases); i++) {
		u32 u = cases[i].u, w = cases[i].w;
		u32 b = ((5 * u + 3) / 4) >> SP_OPP_LUT_SHIFT;
		s32 rate;
		struct sp_energy_terms e;
		s64 run, got, lb;

		load(text, sizeof(text) - 1);
		cpu(0, 0, C1);
		cpu(1, 0, C1);
		sync_groups();
		assert_true(sp_state_group_idle(&st, 0));
		rate = m.lb_sleep_q10[b][0];
		assert_int_equal(rate, cases[i].rate);
		for (c = 0; c < 2; c++) {
			sp_energy_delta(&m, &st, NOW_NS, c, u, w, &e);
			assert_int_equal(e.groups_woken, 1);
			run = e.busy_nj + e.pstate_nj + e.idle_nj;
			got = run + e.wake_nj - 7000 - 50000;
			assert_int_equal(got, cases[i].got);
			/* the bound before its slack is the estimate, to the nJ */
			lb = sp_div_s64((s64)rate * u * w, 1024000);
			assert_int_equal(lb, got);
			sleeping_bound_holds(c, u, w, b, run, &e);
		}
	}
}

static void test_rate_bounds_hold(void **state)
{
	static const char *const models[] = {
		"x86-2pkg.model", "x86-16.model", "phone-biglittle.model",
		"server-64.model", "server-256.model",
	};
	u32 i, b;

	rng = 0x5eed5eedull;
	for (i = 0; i < SP_ARRAY_SIZE(models); i++) {
		load_file(models[i]);
		assert_true(rate_bounds_hold() > 0);
		same_cpu_as_exhaustive(200);
	}
	load(rate_board, sizeof(rate_board) - 1);
	for (b = 0; b < SP_OPP_LUT_LEN; b++)
		assert_int_equal(m.lb_q10[b][1], SP_LB_NONE);
	/* OPP 0: floor(1024 * 600) - ceil(1024 * 2500) = 614400 - 2560000 */
	assert_int_equal(m.lb_q10[0][0], 614400 - 2560000);
	assert_int_equal(m.lb_q10[100 >> SP_OPP_LUT_SHIFT][0], 614400 - 2560000);
	/* a need of 128 (bucket 4) asks for OPP 2 at least: 1510819 - 419673 */
	assert_int_equal(m.lb_q10[128 >> SP_OPP_LUT_SHIFT][0], 1510819 - 419673);
	assert_int_equal(m.lb_q10[0][SP_LB_GROUP0 + 0], SP_LB_NONE);
	for (i = 0; i < 10; i++)
		assert_true(rate_bounds_hold() > 0);
}

/*
 * Digests of RND_SNAPSHOTS x RND_TASKS decisions per shipped model, recorded
 * with the queueing rule, work in flight, the awake-fraction terms, the
 * latency budget, a group woken for the task alone priced in full, and
 * averages read as stored unless over SP_STALE_NS old
 * (the snapshots date them up to 5 ms and 300 ms back); they must not change unless the decision rule does (then
 * record new ones from the "digest" line this test prints, and say why in
 * the commit).
 */
static const struct {
	const char *model;
	u64 digest;
} golden[] = {
	{ "x86-2pkg.model",		0x4f9cb6fa14e464bfull },
	{ "phone-biglittle.model",	0x2535327c1ab893b1ull },
	{ "server-64.model",		0xef4edfff97437cd0ull },
	{ "server-256.model",		0xb53b16be7242ad8full },
};

/*
 * The pipe-like wake-up on the two-package board: the waker running on CPU 0
 * (utilisation 200), CPUs 1-3 in C6, a task of utilisation @util whose
 * previous and CFS's CPU is 1, decided by CPU 0 in task context; the fast
 * decision goes to d, the exhaustive one to @full.
 */
static void pipe_wakeup(u32 util, struct sp_decision *full)
{
	board_a(200, AWAKE, 0, C6, 0, C6, 0, C6);
	task(util, 1, 1);
	t.this_cpu = 0;
	t.this_ctx = SP_THIS_TASK;
	place();
	sp_place_exhaustive(&m, &st, &pol, &t, NULL, NULL, full);
}

/*
 * The wake-up of perf bench sched pipe: the waker runs on CPU 0, the task
 * last ran on CPU 1, idle in C6 in the awake package 0, and CFS returns
 * CPU 1; package 1 sleeps.  CFS's CPU is free and fits, so no queueing CPU
 * may be chosen (CPU 0 runs the waker), and waking package 1 costs at
 * least 600 uJ + 40 uJ = 640000 nJ plus its rate bound, more than all of
 * CPU 1's cost: at OPP 0 (max 200 needs 250 <= 256) the pd's busy power
 * goes from 270000 * 200 / 256 = 210937 uW to 270000 * 300 / 256 = 316406
 * uW, busy 3164060 - 2109370 = 1054690 nJ over 10 ms; idle 5000 * 100 / 256
 * = 1953 uW, -19530; C6 exit 40000; package always up: 1075160 nJ.  CFS's CPU is
 * kept without a search (one candidate), as the full evaluation keeps it
 * after looking at two (CFS's, and CPU 2 for package 1; CPU 0 ranks behind
 * CFS's CPU in pd 0's slot, queueing).  With CPU 0 up for an interrupt only it does not
 * queue and is not ruled out: the full search runs.
 */
static void test_fast_path_keeps_free_cfs(void **state)
{
	struct sp_decision full;

	pipe_wakeup(100, &full);
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(d.cfs_nj, 1075160);
	assert_int_equal(d.nr_candidates, 1);
	assert_int_equal(full.cpu, 1);
	assert_int_equal(full.nr_candidates, 2);
	t.this_ctx = SP_THIS_IRQ;
	place();
	assert_int_equal(d.cpu, 1);
	assert_true(d.nr_candidates > 1);
}

/*
 * The same wake-up of a task of utilisation 741, what the pipe's tasks show
 * under TCG.  CFS's CPU 1: the pd steps from OPP 0 (max 200) to OPP 3 (741
 * needs 927): busy at OPP 0 270000 * 456 / 256 = 480937 uW less 210937,
 * 2700000 nJ over 10 ms; P-state 3200000 * 941 / 1024 = 2940625 uW, 29406250
 * - 4809370 = 24596880; idle -5000 * 741 / 1024 = -3618 uW, -36180; C6 exit
 * 40000: 27300700 nJ.  Any CPU of pd 1 runs the task at OPP 3 or higher (its
 * own need asks for it), so its rate bound is the pd's at OPP 3, (3200000 -
 * 150000) / 1024 per unit << 10 = 3050000, not OPP 0's 1080000 - 600000 =
 * 480000: package 1's bound, 600 uJ + 741 * 10 ms * 3050000 / 1024000 +
 * its static power 1900000 * 741 / 1024 over 10 ms, less the slack, is
 * about 36.4 mJ, above CFS's 27.3 mJ, and CFS's CPU is kept without a
 * search (with OPP 0's rate it was 17.8 mJ and the search ran, two
 * candidates).  The full evaluation agrees: CPU 2 costs 37509090 nJ.
 */
static void test_fast_path_heavy_task(void **state)
{
	struct sp_decision full;

	pipe_wakeup(741, &full);
	assert_int_equal(m.lb_q10[0][1], 480000);
	assert_int_equal(m.lb_q10[927 >> SP_OPP_LUT_SHIFT][1], 3050000);
	assert_int_equal(m.lb_q10[927 >> SP_OPP_LUT_SHIFT][SP_LB_GROUP0 + 1], 3050000);
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(d.cfs_nj, 27300700);
	assert_int_equal(d.nr_candidates, 1);
	assert_int_equal(full.cpu, 1);
	assert_int_equal(full.nr_candidates, 2);
	sp_energy_delta(&m, &st, NOW_NS, 2, 741, pol.window_us, &full.terms);
	assert_int_equal(full.terms.total_nj, 37509090);
}

/*
 * The pipe as the qemu guest runs it: both tasks in package 1 (the waker on
 * CPU 3 at 161, the task's CPU 2 idle), package 0 asleep and never up
 * (awake fraction 0), package 1 up half the time.  CFS's CPU 2: busy
 * 270000 * 417 / 256 = 439804 uW less 169804, 2700000 nJ; P-state to OPP 3
 * 3200000 * 902 / 1024 = 2818750 uW, 28187500 - 4398040 = 23789460; idle
 * -36180; C6 exit 40000; package 1's static power 1900000 * 741 / 1024 =
 * 1374902 uW, 13749020 nJ, half of it 6874510, and its future term
 * (600000 + 13749020) / 2 = 7174510: 40542300 nJ.  Package 0's bound
 * without its future term: 600000 + 22070800 (rate 3050000) + 13749020,
 * less 36 nJ of slack, 36419784, short of it; its future term adds
 * (600000 + 13749020) * 1024 / 1024 = 14349020, 50768804: ruled out, and
 * CFS's CPU is kept without a search.  (Waking CPU 0 costs 51858110.)
 */
static void test_fast_path_future_term(void **state)
{
	struct sp_decision full;

	board_a(0, C6, 0, C6, 0, C6, 161, AWAKE);
	awake_frac(0, 0);
	awake_frac(1, 512);
	task(741, 2, 2);
	t.this_cpu = 3;
	t.this_ctx = SP_THIS_TASK;
	place();
	sp_place_exhaustive(&m, &st, &pol, &t, NULL, NULL, &full);
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(d.cfs_nj, 40542300);
	assert_int_equal(d.nr_candidates, 1);
	assert_int_equal(full.cpu, 2);
	assert_true(full.nr_candidates > 1);
	sp_energy_delta_cached(&m, &st, NOW_NS, 0, 3, 741, pol.window_us, NULL, &full.terms);
	assert_int_equal(full.terms.total_nj, 51858110);
}

/*
 * The pipe decision the x86 guest made (tools/bench/pipe-guest.state): the
 * waker on CPU 2, the task (515) back to CPU 3, idle in the awake package
 * 1, package 0 asleep.
 */
static void guest_pipe_scene(void)
{
	load(x86_2pkg, sizeof(x86_2pkg) - 1);
	pol.window_us = 4000;
	cpu(0, 19, C6);
	cpu(1, 67, C6);
	cpu(2, 89, AWAKE);
	cpu(3, 666, C6);
	st.opp_req[3] = 3;
	sync_groups();
	awake_frac(0, 99);
	awake_frac(1, 522);
	task(515, 3, 3);
	t.this_cpu = 2;
	t.this_ctx = SP_THIS_TASK;
}

/*
 * A decision of perf bench sched pipe as the x86 guest made it in power
 * mode (tools/bench/pipe-guest.state, with the 4 ms window): the waker
 * runs on CPU 2 (89), the task (515) last ran on CPU 3, idle in C6 with
 * 666 stored, its own share included, and an OPP request of 3 from it;
 * package 0 sleeps (awake fraction 99 / 1024), package 1 is up about half
 * the time (522).  CFS's CPU 3 costs 12496694 nJ.  Waking package 0 costs
 * at least 600 uJ (C1's 0 and the package's 600) plus, at the OPP the task
 * needs there (644: OPP 2, cap 768), (1670000 + 1900000 - 150000) / 768
 * per unit << 10 = 4560000 for busy + P-state + idle and the package's
 * static power together: 515 * 4000 * 4560000 / 1024000 = 9173437, less
 * 3 slacks of 6 nJ; with the package's future term, (600000 + 1900000 *
 * 515 / 1024 * 4000 / 1000) * 925 / 1024 = 3994750, 13768169: above CFS's
 * total, and CFS's CPU is kept without a search.  Bounded apart, the rate
 * at OPP 2 (2026666: 4077082 - 12) and the static power at the top OPP's
 * 1024 (3822264 - 6) gave 12494078, 2616 nJ short, and the walk ran (two
 * candidates).  The full evaluation keeps CPU 3: CPU 0 costs 15733206.
 */
static void test_fast_path_guest_pipe(void **state)
{
	struct sp_decision full;

	guest_pipe_scene();
	place();
	sp_place_exhaustive(&m, &st, &pol, &t, NULL, NULL, &full);
	assert_int_equal(m.lb_sleep_q10[644 >> SP_OPP_LUT_SHIFT][0], 4560000);
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(d.cfs_nj, 12496694);
	assert_int_equal(d.nr_candidates, 1);
	assert_int_equal(full.cpu, 3);
	assert_int_equal(full.nr_candidates, 2);
	sp_energy_delta_cached(&m, &st, NOW_NS, 0, 2, 515, pol.window_us, NULL, &full.terms);
	assert_int_equal(full.terms.total_nj, 15733206);
}

/*
 * The guest's decision above through sp_place_w(), as the kernel's hook
 * makes it: the fast path compares the other CPUs' lower bounds with an
 * upper bound of CFS's estimate first (its total without the idle term,
 * -10056 nJ here, plus 4 slacks of 6 nJ: 12496694 + 10056 + 24 =
 * 12506774), and package 0's 13768169 is above it, so CFS's CPU is kept
 * without computing its estimate: cfs_nj, chosen_nj and the terms stay 0
 * until sp_place_w_energy() fills them in, with the full evaluation's
 * values.  A decision that computed the estimate (CPU 2 up for an
 * interrupt only is not ruled out: the search runs) leaves nothing for
 * sp_place_w_energy() to do.
 */
static void test_fast_path_upper_bound(void **state)
{
	static struct sp_place_work w;
	struct sp_decision full;

	guest_pipe_scene();
	sp_place_exhaustive(&m, &st, &pol, &t, NULL, NULL, &full);
	memset(&w, 0, sizeof(w));
	sp_place_w_filter(&w, NULL, NULL);
	sp_place_w(&m, &st, &pol, &t, &d, &w);
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(full.cpu, 3);
	assert_int_equal(d.nr_candidates, 1);
	assert_int_equal(d.wake_lat_us, full.wake_lat_us);
	assert_int_equal(d.cfs_nj, 0);
	assert_int_equal(d.chosen_nj, 0);
	assert_int_equal(d.terms.busy_nj, 0);
	assert_int_equal(w.cfs_ub_nj, 12506774);
	sp_place_w_energy(&w, &d);
	assert_int_equal(d.cfs_nj, 12496694);
	assert_int_equal(d.cfs_nj, full.cfs_nj);
	assert_int_equal(d.chosen_nj, full.chosen_nj);
	assert_memory_equal(&d.terms, &full.terms, sizeof(d.terms));
	t.this_ctx = SP_THIS_IRQ;
	sp_place_w(&m, &st, &pol, &t, &d, &w);
	assert_true(d.nr_candidates > 1);
	assert_int_equal(d.cfs_nj, 12496694);
	d.cfs_nj = 1;
	sp_place_w_energy(&w, &d);
	assert_int_equal(d.cfs_nj, 1);
}

/*
 * A task that fits no CPU (900 > 80 % of 1024 on every CPU): no candidate
 * but CFS's is admissible, so CFS's CPU is kept without a walk, one
 * candidate, where the full evaluation looks at more and keeps it too.
 */
static void test_fits_none(void **state)
{
	struct sp_decision full;

	scene_light();
	task(900, 1, 1);
	place();
	sp_place_exhaustive(&m, &st, &pol, &t, NULL, NULL, &full);
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_int_equal(d.nr_candidates, 1);
	assert_int_equal(full.cpu, 1);
	assert_int_equal(full.reason, SP_R_CFS_CHEAPEST);
	assert_true(full.nr_candidates > 1);
	assert_int_equal(d.wake_lat_us, full.wake_lat_us);
	assert_int_equal(d.cfs_nj, full.cfs_nj);
}

/*
 * The same task while CPU 3, asleep in package 1 and neither CFS's CPU,
 * prev_cpu nor the deciding CPU, reads 900 (over 80 % of 1024): the full
 * walk, which scans all four CPUs of the board, sees it and says
 * overutilised_fallback, and so does the decision that the task fits no
 * CPU kept without a walk.
 */
static void test_fits_none_overutilised(void **state)
{
	struct sp_decision full;

	scene_light();
	cpu(3, 900, C6);
	task(900, 1, 1);
	place();
	sp_place_exhaustive(&m, &st, &pol, &t, NULL, NULL, &full);
	assert_int_equal(full.cpu, 1);
	assert_int_equal(full.reason, SP_R_OVERUTILISED);
	assert_kept(SP_R_OVERUTILISED);
	assert_int_equal(d.nr_candidates, 1);
	assert_int_equal(d.wake_lat_us, full.wake_lat_us);
	assert_int_equal(d.lat_miss, full.lat_miss);
	assert_int_equal(d.cfs_nj, full.cfs_nj);
}

/*
 * server-64: package 1 sleeps (every CPU in C6); in package 0 cluster 0
 * sleeps too, and CFS picks CPU 0 there (prev_cpu), so taking it means a
 * C6 exit and a cluster wake-up; cluster 1 runs CPU 8 with CPUs 9-15 in C1,
 * clusters 2 and 3 run.  A free C1 CPU of cluster 1 is cheaper than CPU 0,
 * and waking package 1 (3000 + 400 + 100 uJ at least) costs more than CPU
 * 0 does: package 1 is not scanned, one candidate fewer than the full
 * walk's, the same CPU.  When a CPU of package 1 that the walk would have
 * looked at (the walk scans 4 of its CPUs from CFS's CPU number on: 32-35)
 * is overutilised, the full walk falls back to CFS's CPU, and so must the
 * pruned one once it is about to move.
 */
static void test_sleeping_package_not_scanned(void **state)
{
	struct sp_decision full;
	u32 c;

	load_file("server-64.model");
	for (c = 0; c < 64; c++)
		cpu(c, 10, 2);			/* C6 */
	cpu(8, 300, AWAKE);
	for (c = 9; c < 16; c++)
		cpu(c, 10, C1);
	for (c = 16; c < 32; c++)
		cpu(c, 300, AWAKE);
	sync_groups();
	task(100, 0, 0);
	place();
	sp_place_exhaustive(&m, &st, &pol, &t, NULL, NULL, &full);
	assert_int_equal(d.cpu, full.cpu);
	assert_true(d.cpu >= 9 && d.cpu < 16);
	assert_true(d.override);
	assert_int_equal(d.nr_candidates + 1, full.nr_candidates);

	st.cpu[33].util = 900;			/* over 80 % of 1024 */
	place();
	sp_place_exhaustive(&m, &st, &pol, &t, NULL, NULL, &full);
	assert_int_equal(full.reason, SP_R_OVERUTILISED);
	assert_int_equal(d.cpu, 0);
	assert_int_equal(d.reason, SP_R_OVERUTILISED);
	assert_false(d.override);
}

static bool not_cpu2(const void *ctx, u32 cpu)
{
	return cpu != 2;
}

/*
 * The phone, a timer wake-up on prev_cpu 1 while another task runs there
 * (this_ctx task): LITTLE CPUs 0, 1 and 3 run, CPU 2 idles in WFI, the big
 * cluster sleeps and CFS picks big CPU 4.  On CPU 1 the task fits (its own
 * share is there) and queues; on CPU 2 it runs at once but does not fit
 * (100 + 200 above 80 % of 360).  Queueing on CPU 1 is the cheapest, and the
 * deciding CPU has the tokens for a slower wake-up, but it would wait behind
 * a running task while CPU 2 idles in an awake cluster: not admissible,
 * and CFS's CPU is kept, whether it is big CPU 4 or CPU 2 itself.  With
 * CPU 2 not allowed, or running too, the queue is admissible again (and
 * beats waking the big cluster).
 */
static void test_no_queue_beside_idle_awake(void **state)
{
	u32 c;

	load_file("phone-biglittle.model");
	cpu(0, 100, AWAKE);
	cpu(1, 250, AWAKE);
	cpu(2, 100, C1);
	cpu(3, 150, AWAKE);
	for (c = 4; c < 8; c++)
		cpu(c, 10, C6);
	sync_groups();
	task(200, 1, 4);
	t.this_cpu = 1;
	t.this_ctx = SP_THIS_TASK;
	st.cpu[1].lat_tokens = SP_LAT_TOKENS_SLOWER;
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_false(d.queued);
	task(200, 1, 2);			/* CFS's own pick: CPU 2 */
	t.this_cpu = 1;
	t.this_ctx = SP_THIS_TASK;
	place();
	assert_kept(SP_R_CFS_CHEAPEST);
	assert_false(d.queued);

	task(200, 1, 4);
	t.this_cpu = 1;
	t.this_ctx = SP_THIS_TASK;
	sp_place(&m, &st, &pol, &t, not_cpu2, NULL, &d);
	assert_int_equal(d.cpu, 1);
	assert_true(d.queued);

	cpu(2, 100, AWAKE);
	sync_groups();
	place();
	assert_int_equal(d.cpu, 1);
	assert_true(d.queued);
}

static void test_random_decisions(void **state)
{
	u32 i, bad = 0;

	for (i = 0; i < SP_ARRAY_SIZE(golden); i++) {
		u64 h = rnd_decisions(golden[i].model, 0x5eed0000ull + i);

		if (h != golden[i].digest) {
			printf("# digest %s 0x%016llx (expected 0x%016llx)\n",
			       golden[i].model, (unsigned long long)h,
			       (unsigned long long)golden[i].digest);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_avoid_package_wakeup),
		cmocka_unit_test(test_queue_avoided),
		cmocka_unit_test(test_no_queue_beside_idle_awake),
		cmocka_unit_test(test_sync_waker_does_not_queue),
		cmocka_unit_test(test_bounded_task_not_queued),
		cmocka_unit_test(test_pstate_cheaper_below_flip),
		cmocka_unit_test(test_wake_cheaper_above_flip),
		cmocka_unit_test(test_below_margin),
		cmocka_unit_test(test_margin_boundary),
		cmocka_unit_test(test_overutilised_fallback),
		cmocka_unit_test(test_not_allowed),
		cmocka_unit_test(test_rate_bound_largest_window),
		cmocka_unit_test(test_latency_blocks_idle_package),
		cmocka_unit_test(test_latency_bound_moves_off_deep_cfs),
		cmocka_unit_test(test_observe_mode),
		cmocka_unit_test(test_performance_and_off_modes),
		cmocka_unit_test(test_balanced_latency_guard),
		cmocka_unit_test(test_balanced_headroom_guard),
		cmocka_unit_test(test_out_of_range_cpus),
		cmocka_unit_test(test_task_util_above_scale),
		cmocka_unit_test(test_biglittle_pack_into_awake_cluster),
		cmocka_unit_test(test_biglittle_little_runs_it_cheaper),
		cmocka_unit_test(test_fork_not_moved_up),
		cmocka_unit_test(test_balanced_fork_kept),
		cmocka_unit_test(test_balanced_default_bound_keeps_cfs),
		cmocka_unit_test(test_queue_wait_bound_boundary),
		cmocka_unit_test(test_ucache_expiry_boundary),
		cmocka_unit_test(test_work_in_flight),
		cmocka_unit_test(test_note_prev_once),
		cmocka_unit_test(test_timer_next_wakeup),
		cmocka_unit_test(test_timer_key_counts_paid_exit),
		cmocka_unit_test(test_interrupted_cpu_is_awake),
		cmocka_unit_test(test_equal_queues_spend_budget),
		cmocka_unit_test(test_shorter_queue_wins_tie),
		cmocka_unit_test(test_queue_beside_sleeping_group),
		cmocka_unit_test(test_consolidation_and_budget),
		cmocka_unit_test(test_timer_alone_group),
		cmocka_unit_test(test_prev_without_task),
		cmocka_unit_test(test_fork_util),
		cmocka_unit_test(test_fast_path_keeps_free_cfs),
		cmocka_unit_test(test_fast_path_heavy_task),
		cmocka_unit_test(test_fast_path_future_term),
		cmocka_unit_test(test_fast_path_guest_pipe),
		cmocka_unit_test(test_fast_path_upper_bound),
		cmocka_unit_test(test_fits_none),
		cmocka_unit_test(test_fits_none_overutilised),
		cmocka_unit_test(test_rate_bounds_hold),
		cmocka_unit_test(test_sleeping_bound_tight),
		cmocka_unit_test(test_sleeping_package_not_scanned),
		cmocka_unit_test(test_random_decisions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
