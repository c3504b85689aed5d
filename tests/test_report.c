// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of sp-report's analysis (tools/sp-report): synthetic event
 * arrays, as the reader would decode them, on the x86-2pkg model
 * (tests/test_models.h):
 *
 *	OPP0 cap 256, 270000 uW; OPP3 cap 1024, 3200000 uW
 *	C1 150000 uW, exit 2 us; C6 5000 uW, exit 80 us, wake 40 uJ
 *	package: active 2000000 uW, idle 100000 uW, wake 600 uJ, exit 300 us
 *
 * and the reader's refusals of files that are not trace.dat recordings, and
 * its reading of a seed recording (fuzz/report-seeds) through one fd again
 * and again.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "report.h"
#include "test_models.h"

#define US(x)	((uint64_t)(x) * 1000u)
#define C1	0
#define C6	1

static struct sp_model m;
static struct rep_trace t;
static struct rep_result *r;

static int setup(void **s)
{
	struct sp_parse_error err;

	if (sp_model_parse(x86_2pkg, sizeof(x86_2pkg) - 1, &m, &err))
		return -1;
	memset(&t, 0, sizeof(t));
	t.nr_cpus = 4;
	r = calloc(1, sizeof(*r));
	return r ? 0 : -1;
}

static int teardown(void **s)
{
	rep_result_free(r);
	free(r);
	rep_trace_free(&t);
	return 0;
}

static void push(const struct rep_event *e)
{
	assert_int_equal(rep_trace_push(&t, e), 0);
}

/* A sched_power_select at @us: CFS chose @cfs, the kernel got @ret. */
static void sel(uint64_t us, int pid, int cfs, int ret, int applied, const char *reason)
{
	struct rep_event e = { .ts_ns = US(us), .cpu = 0, .kind = REP_EV_SELECT };

	e.sel.pid = pid;
	snprintf(e.sel.comm, sizeof(e.sel.comm), "task%d", pid);
	e.sel.cfs_cpu = cfs;
	e.sel.ret_cpu = e.sel.policy_cpu = ret;
	e.sel.applied = applied;
	e.sel.reason = rep_name_id(&t.reasons, reason);
	e.sel.mode = rep_name_id(&t.modes, "power");
	e.sel.wake = rep_name_id(&t.wakes, "wakeup");
	e.sel.cfs_nj = 5000;
	e.sel.chosen_nj = 3000;
	e.sel.lat_bound_us = -1;
	e.sel.queue_us = -1;
	t.fmt.has_select = true;
	push(&e);
}

static void idle_ev(uint64_t us, int cpu, uint64_t state)
{
	struct rep_event e = { .ts_ns = US(us), .cpu = cpu, .kind = REP_EV_CPU_IDLE };

	e.pw.cpu = cpu;
	e.pw.value = state;
	t.fmt.has_cpu_idle = true;
	push(&e);
}

static void waking(uint64_t us, int pid)
{
	struct rep_event e = { .ts_ns = US(us), .cpu = 0, .kind = REP_EV_WAKING };

	e.wk.pid = pid;
	t.fmt.has_waking = true;
	push(&e);
}

static void sw(uint64_t us, int cpu, int prev, int next)
{
	struct rep_event e = { .ts_ns = US(us), .cpu = cpu, .kind = REP_EV_SWITCH };

	e.sw.prev_pid = prev;
	e.sw.next_pid = next;
	snprintf(e.sw.next_comm, sizeof(e.sw.next_comm), "task%d", next);
	t.fmt.has_switch = true;
	push(&e);
}

static void marker(uint64_t us, const char *text)
{
	struct rep_event e = { .ts_ns = US(us), .cpu = 0, .kind = REP_EV_MARKER };

	snprintf(e.mark, sizeof(e.mark), "%s", text);
	push(&e);
}

static struct rep_task *task(int pid)
{
	size_t i;

	for (i = 0; i < r->nr_tasks; i++)
		if (r->tasks[i].pid == pid)
			return &r->tasks[i];
	fail_msg("no task %d", pid);
	return NULL;
}

/* saved (cfs_nj - chosen_nj, summed) stops at the ends of int64_t. */
static void test_saved_saturates(void **s)
{
	t.fmt.has_applied = true;
	sel(10, 100, 1, 2, 1, "pack_awake_group");
	t.ev[0].sel.cfs_nj = INT64_MAX;
	t.ev[0].sel.chosen_nj = -2;
	sel(20, 100, 1, 2, 1, "pack_awake_group");	/* +2000 more */
	sel(30, 101, 1, 2, 1, "wake_cheaper");
	t.ev[2].sel.cfs_nj = INT64_MIN;
	t.ev[2].sel.chosen_nj = 5;
	assert_int_equal(rep_analyse(r, &t, NULL), 0);
	assert_true(r->by_reason[rep_name_id(&t.reasons, "pack_awake_group")].saved_nj == INT64_MAX);
	assert_true(r->by_reason[rep_name_id(&t.reasons, "wake_cheaper")].saved_nj == INT64_MIN);
	assert_int_equal(r->total.overrides, 3);
}

/* 0.2: an override is applied=1 && ret != cfs; observe's ret == cfs. */
static void test_overrides_v02(void **s)
{
	t.fmt.has_applied = true;
	sel(10, 100, 1, 2, 1, "pack_awake_group");	/* override */
	sel(20, 100, 1, 1, 0, "cfs_cheapest");
	sel(30, 101, 3, 3, 0, "pack_awake_group");	/* observe: policy elsewhere */
	sel(40, 101, 3, 0, 0, "below_margin");		/* ret != cfs but not applied */
	assert_int_equal(rep_analyse(r, &t, NULL), 0);
	assert_int_equal(r->total.decisions, 4);
	assert_int_equal(r->total.overrides, 1);
	assert_int_equal(r->total.saved_nj, 2000);
	assert_int_equal(r->by_reason[rep_name_id(&t.reasons, "pack_awake_group")].decisions, 2);
	assert_int_equal(r->by_reason[rep_name_id(&t.reasons, "pack_awake_group")].overrides, 1);
	assert_int_equal(task(100)->overrides, 1);
	assert_int_equal(task(101)->decisions, 2);
}

/* A task's util_sum adds the util of each of its decisions; a negative util adds 0. */
static void test_task_util(void **s)
{
	sel(10, 100, 1, 1, 0, "cfs_cheapest");
	t.ev[0].sel.util = 40;
	sel(20, 100, 1, 1, 0, "cfs_cheapest");
	t.ev[1].sel.util = 120;
	sel(30, 101, 1, 1, 0, "cfs_cheapest");
	t.ev[2].sel.util = -1;
	assert_int_equal(rep_analyse(r, &t, NULL), 0);
	assert_int_equal(task(100)->util_sum, 160);
	assert_int_equal(task(100)->decisions, 2);
	assert_int_equal(task(101)->util_sum, 0);
}

/* 0.1: no applied field; chosen_cpu (ret) != cfs_cpu is the override. */
static void test_overrides_v01(void **s)
{
	t.fmt.v01 = true;
	sel(10, 100, 1, 2, -1, "pack_awake_group");
	sel(40, 101, 3, 0, -1, "below_margin");
	sel(50, 101, 3, 3, -1, "cfs_cheapest");
	assert_int_equal(rep_analyse(r, &t, NULL), 0);
	assert_int_equal(r->total.decisions, 3);
	assert_int_equal(r->total.overrides, 2);
}

/* Latency from waking to switch-in; a waking of a running task is none. */
static void test_wake_latency(void **s)
{
	int i;

	for (i = 0; i < 100; i++) {
		waking(1000 * i, 7);
		sw(1000 * i + 10 + i, i % 2 ? 1 : 0, 0, 7);	/* 10..109 us */
		waking(1000 * i + 200, 7);			/* running: ignored */
		sw(1000 * i + 500, i % 2 ? 1 : 0, 7, 0);
	}
	assert_int_equal(rep_analyse(r, &t, NULL), 0);
	assert_int_equal(task(7)->lat_ns.nr, 100);
	assert_int_equal(rep_pct_ns(&task(7)->lat_ns, 50), US(59));
	assert_int_equal(rep_pct_ns(&task(7)->lat_ns, 99), US(108));
	assert_int_equal(rep_pct_ns(&task(7)->lat_ns, 100), US(109));
	assert_int_equal(task(7)->migrations, 99);
	assert_int_equal(task(7)->cpus[0], 0x3);
}

/*
 * Replay: CPU 0 idle in C6 over 0..1000 us (its first event is an exit),
 * busy 1000..2000, idle in C6 to the end (3000); CPUs 1-3 have no event
 * and sit in the deepest state throughout.  Package 0 wakes once.
 */
static void test_replay_energy(void **s)
{
	const struct rep_pkg *p0;

	marker(0, "start");
	idle_ev(1000, 0, REP_IDLE_EXIT);
	idle_ev(2000, 0, C6);
	marker(3000, "end");
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_true(r->energy);
	assert_int_equal(r->cpu_sum[0].busy_us, 1000);
	assert_int_equal(r->cpu_sum[0].idle_us, 2000);
	assert_int_equal(r->cpu_sum[1].idle_us, 3000);
	/* busy at OPP0 (utilisation ~0 scaled by 5/4 fits cap 256) */
	assert_int_equal(r->cpu_sum[0].busy_nj, 270000ull * 1000 / 1000);
	assert_int_equal(r->cpu_pstate_nj[0], 0);
	assert_int_equal(r->cpu_sum[0].idle_nj, 5000ull * 2000 / 1000);
	assert_int_equal(r->cpu_sum[0].wake_nj, 40000);
	assert_int_equal(r->nr_pkgs, 2);
	p0 = &r->pkg[0];
	assert_int_equal(p0->grp.busy_us, 1000);
	assert_int_equal(p0->grp.wakeups, 1);
	assert_int_equal(p0->grp.wake_nj, 600000);
	assert_int_equal(p0->grp.busy_nj, 2000000ull * 1000 / 1000);
	assert_int_equal(r->pkg[1].grp.busy_us, 0);
	assert_true(r->nr_samples >= 2);
	assert_int_equal(r->samples[r->nr_samples - 1].ts_ns, US(3000));
}

/*
 * --idle-deepest: on a CPU without a cpuidle driver every idle entry reports
 * state index 0 (C1 in this model), which keeps the package awake; the
 * module counts such entries as the deepest state.  All four CPUs go idle at
 * 1000 us and stay there to 3000 us: package 0 is awake 0..1000 only with
 * the flag (2000 us idle), and awake throughout without it.
 */
static void replay_all_idle_c1(void)
{
	int cpu;

	for (cpu = 0; cpu < 4; cpu++) {
		idle_ev(0, cpu, REP_IDLE_EXIT);
		idle_ev(1000, cpu, C1);
	}
	marker(3000, "end");
}

static void test_replay_idle_deepest(void **s)
{
	replay_all_idle_c1();
	r->idle_deepest = true;
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(r->pkg[0].grp.busy_us, 1000);
	assert_int_equal(r->pkg[0].grp.idle_us, 2000);
	assert_int_equal(r->cpu_sum[0].idle_nj, 5000ull * 2000 / 1000);	/* C6 5 mW */
}

static void test_replay_idle_as_reported(void **s)
{
	replay_all_idle_c1();
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(r->pkg[0].grp.busy_us, 3000);
	assert_int_equal(r->pkg[0].grp.idle_us, 0);
}

/* A long busy stretch climbs the utilisation: the P-state term appears. */
static void test_replay_pstate(void **s)
{
	idle_ev(0, 0, C6);
	idle_ev(1000, 0, REP_IDLE_EXIT);
	idle_ev(201000, 0, C6);		/* 200 ms busy */
	idle_ev(202000, 0, REP_IDLE_EXIT);
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_true(r->cpu_pstate_nj[0] > 0);
	assert_true(r->cpu_pstate_nj[0] < r->cpu_sum[0].busy_nj);
	assert_int_equal(r->cpu_sum[0].busy_us + r->cpu_sum[0].idle_us, 202000);
}

/* --window: counts and energy between the two markers only. */
static void test_window(void **s)
{
	sel(5, 100, 1, 2, -1, "pack_awake_group");
	marker(10, "sp_window_start");
	sel(20, 100, 1, 2, -1, "pack_awake_group");
	idle_ev(30, 0, C6);
	marker(1030, "sp_window_end");
	sel(1040, 100, 1, 2, -1, "pack_awake_group");
	r->win_from = "window_start";
	r->win_to = "window_end";
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(r->total.decisions, 1);
	assert_int_equal(r->cpu_sum[0].busy_us, 20);
	assert_int_equal(r->cpu_sum[0].idle_us, 1000);
}

static void test_window_missing(void **s)
{
	marker(10, "a");
	sel(20, 100, 1, 2, -1, "x");
	r->win_from = "a";
	r->win_to = "b";
	assert_int_equal(rep_analyse(r, &t, &m), -ENOENT);
}

/* Bound 50 us: CPU 2 in C6 of an idle package needs 80 + 300 us. */
static void test_bound_violation(void **s)
{
	t.fmt.has_lat_bound = true;
	idle_ev(0, 2, C6);
	idle_ev(0, 3, C6);
	sel(100, 100, 0, 2, 1, "pack_awake_group");
	t.ev[t.nr - 1].sel.lat_bound_us = 50;
	t.ev[t.nr - 1].sel.queue_us = 0;
	sel(200, 100, 0, 0, 1, "latency_bound");	/* CPU 0 is awake: 0 us */
	t.ev[t.nr - 1].sel.lat_bound_us = 50;
	waking(300, 100);
	sw(400, 0, 0, 100);				/* 100 us > 50: measured */
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(r->bounded, 2);
	assert_int_equal(r->bound_model_violations, 1);
	assert_int_equal(r->bound_measured, 1);
	assert_int_equal(r->bound_measured_violations, 1);
	assert_int_equal(r->reason_latency_bound, 1);
}

/*
 * The estimator (replay.c, "energy from work"): the busy stretch of
 * test_replay_energy at OPP0 (cap 256, 270 mW) is 1000 us of work at
 * capacity 1024, charged 270 mW x 1024 / 256 = 1080 mW per unit; idle,
 * wake-up and group terms are the accounting's own.
 */
static void test_replay_work_estimator(void **s)
{
	marker(0, "start");
	idle_ev(1000, 0, REP_IDLE_EXIT);
	idle_ev(2000, 0, C6);
	marker(3000, "end");
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(r->cpu_sum[0].busy_nj, 270000);
	assert_int_equal(r->work_busy_nj, 1080000);
	assert_int_equal(r->work_total_nj - r->total_nj, 1080000 - 270000);
	/*
	 * The stretch bound: on hardware the 1000 us at cap 256 last 4000 us,
	 * 3000 us more with package 0 awake: 3000 us x (2 W - 0.1 W).
	 */
	assert_int_equal(r->work_stretch_nj, 3000ull * 1900);
}

/*
 * The stretch bound of stretches still open at the end.  CPU 0 (the
 * markers' CPU, without cpu_idle events) is busy 0..3000 us at the OPP its
 * utilisation asks for, OPP0 (cap 256: 9000 us more on hardware); CPU 2
 * from 1000 us at OPP1 of cpu_frequency (cap 512: 2000 us more).  Each
 * package: 2 W - 0.1 W.  With pd 1 at its top OPP (cap 1024) CPU 2 adds
 * nothing.
 */
static void test_replay_stretch_open(void **s)
{
	struct rep_event e = { .ts_ns = US(500), .cpu = 2, .kind = REP_EV_CPU_FREQ };

	e.pw.cpu = 2;
	e.pw.value = 1600000;
	marker(0, "start");
	push(&e);
	idle_ev(1000, 2, REP_IDLE_EXIT);
	marker(3000, "end");
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(r->work_busy_nj, 3000ull * 1080 + 2000ull * 1600);
	assert_int_equal(r->work_stretch_nj, (9000ull + 2000) * 1900);
	e.ts_ns = US(600);
	e.pw.value = 3200000;
	push(&e);
	rep_result_free(r);
	memset(r, 0, sizeof(*r));
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(r->work_stretch_nj, 9000ull * 1900);
}

/*
 * A pd whose frequency never changes in the recording has no cpu_frequency
 * event: power-bench's "sp_freq" marker says what it runs at.  CPU 0 is
 * busy 1000..2000 us; pd 0's marker says 3.2 GHz (OPP3, 3.2 W: 3200000 nJ),
 * without it the utilisation's OPP0 (0.27 W: 270000 nJ).  CPU 2 is busy
 * 1000..2000 us too; pd 1 reported 1.6 GHz (OPP1, 0.8 W) by cpu_frequency
 * before its marker, which then does not count: 800000 nJ.
 */
static void test_replay_freq_marker(void **s)
{
	struct rep_event e = { .ts_ns = US(5), .cpu = 3, .kind = REP_EV_CPU_FREQ };

	e.pw.cpu = 3;
	e.pw.value = 1600000;
	marker(0, "pb_reset");
	push(&e);
	marker(10, "sp_freq cpu=0 khz=3200000");
	marker(11, "sp_freq cpu=2 khz=3200000");
	idle_ev(1000, 0, REP_IDLE_EXIT);
	idle_ev(1000, 2, REP_IDLE_EXIT);
	idle_ev(2000, 0, C6);
	idle_ev(2000, 2, C6);
	marker(3000, "end");
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(r->cpu_sum[0].busy_us, 1000);
	assert_int_equal(r->cpu_sum[0].busy_nj, 3200000);
	assert_int_equal(r->cpu_sum[2].busy_nj, 800000);
	/* without the markers: pd 0 at the OPP of its utilisation */
	t.ev[2].kind = REP_EV_OTHER;
	t.ev[3].kind = REP_EV_OTHER;
	rep_result_free(r);
	memset(r, 0, sizeof(*r));
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(r->cpu_sum[0].busy_nj, 270000);
	assert_int_equal(r->cpu_sum[2].busy_nj, 800000);
}

/*
 * The work timeline (--slowdown 2): CPU 0's busy stretch 1000..3000 us was
 * twice as slow as calibrated, so it ends at 2000 us; CPU 2's idle exit at
 * 2500 stays, its stretch to 2900 becomes 2500..2700.  Package 0 is then
 * awake 1000 us, package 1 200 us, never together (they overlapped
 * 2500..3000 before).  Latencies keep their measured times.
 */
static void test_replay_work_timeline(void **s)
{
	marker(0, "start");
	idle_ev(1000, 0, REP_IDLE_EXIT);
	idle_ev(2500, 2, REP_IDLE_EXIT);
	idle_ev(2900, 2, C6);
	idle_ev(3000, 0, C6);
	waking(1100, 100);
	sw(2950, 0, 0, 100);
	marker(4000, "end");
	r->slowdown = 2.0;
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(r->cpu_sum[0].busy_us, 1000);
	assert_int_equal(r->cpu_sum[2].busy_us, 200);
	assert_int_equal(r->pkg[0].grp.busy_us, 1000);
	assert_int_equal(r->all_pkgs_awake_ns, 0);
	assert_int_equal(r->work_busy_nj, 1200ull * 1080);
	assert_int_equal(rep_pct_ns(&r->all_lat_ns, 50), US(1850));
}

/* A run faster than calibrated (slowdown < 1) is not stretched. */
static void test_replay_work_timeline_fast(void **s)
{
	idle_ev(1000, 0, REP_IDLE_EXIT);
	idle_ev(3000, 0, C6);
	marker(4000, "end");
	r->slowdown = 0.5;
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(r->cpu_sum[0].busy_us, 2000);
}

/* Every package awake at once: CPU 0 busy 1000..2000, CPU 2 1500..2500. */
static void test_replay_all_awake(void **s)
{
	marker(0, "start");
	idle_ev(1000, 0, REP_IDLE_EXIT);
	idle_ev(1500, 2, REP_IDLE_EXIT);
	idle_ev(2000, 0, C6);
	idle_ev(2500, 2, C6);
	marker(3000, "end");
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(r->all_pkgs_awake_ns, US(500));
	assert_int_equal(r->pkg[0].grp.busy_us, 1000);
	assert_int_equal(r->pkg[1].grp.busy_us, 1000);
	/* --span cuts it: 1800..3000 holds 200 us of it */
	rep_result_free(r);
	memset(r, 0, sizeof(*r));
	r->span_from_ns = US(1800);
	r->span_to_ns = US(3000);
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(r->all_pkgs_awake_ns, US(200));
	assert_int_equal(r->start_ns, US(1800));
}

/* Packages: the highest level with more than one group (a phone's clusters). */
static void test_pkg_level(void **s)
{
	static const char phone[] =
		"sched_power_model version=1 cpus=2\n"
		"level name=cluster\n"
		"level name=package\n"
		"pd id=0 cpus=0\n"
		"opp pd=0 khz=500000 cap=100 uw=25000\n"
		"idle pd=0 name=off uw=1000 exit_us=150 target_us=800 wake_uj=20\n"
		"pd id=1 cpus=1\n"
		"opp pd=1 khz=800000 cap=1024 uw=170000\n"
		"idle pd=1 name=off uw=2000 exit_us=300 target_us=1500 wake_uj=60\n"
		"group level=cluster id=0 cpus=0 active_uw=30000 idle_uw=2000 wake_uj=80 exit_us=400\n"
		"group level=cluster id=1 cpus=1 active_uw=120000 idle_uw=5000 wake_uj=250 exit_us=800\n"
		"group level=package id=0 cpus=0-1 active_uw=300000 idle_uw=20000 wake_uj=150 exit_us=500\n"
		"end\n";
	struct sp_model pm;
	struct sp_parse_error err;

	assert_int_equal(sp_model_parse(phone, sizeof(phone) - 1, &pm, &err), 0);
	assert_string_equal(pm.level[rep_pkg_level(&pm)].name, "cluster");
	assert_string_equal(m.level[rep_pkg_level(&m)].name, "package");
}

/* ---- --counts (counts.c) ------------------------------------------------ */

static void ev_wk(uint64_t us, enum rep_kind kind, int pid, const char *comm, int cpu)
{
	struct rep_event e = { .ts_ns = US(us), .cpu = 0, .kind = (uint8_t)kind };

	e.wk.pid = pid;
	e.wk.target_cpu = cpu;
	snprintf(e.wk.comm, sizeof(e.wk.comm), "%s", comm);
	push(&e);
}

static void ev_sw(uint64_t us, int cpu, int prev, int next, const char *comm)
{
	struct rep_event e = { .ts_ns = US(us), .cpu = cpu, .kind = REP_EV_SWITCH };

	e.sw.prev_pid = prev;
	e.sw.next_pid = next;
	snprintf(e.sw.next_comm, sizeof(e.sw.next_comm), "%s", comm);
	push(&e);
}

static void ev_mg(uint64_t us, int pid, const char *comm, int orig, int dest)
{
	struct rep_event e = { .ts_ns = US(us), .cpu = 0, .kind = REP_EV_MIGRATE };

	e.mg.pid = pid;
	e.mg.orig_cpu = orig;
	e.mg.dest_cpu = dest;
	snprintf(e.mg.comm, sizeof(e.mg.comm), "%s", comm);
	t.fmt.has_migrate = true;
	push(&e);
}

/*
 * Story thread "w" (pid 100), and "other" (pid 200) that is not one.  In the
 * span 50..1000 us: w wakes with prev_cpu 0, is placed on CPU 2 (the other
 * package) and runs after 50 us; a waking while it runs is no wake-up; it
 * sleeps, wakes on CPU 2 and runs on CPU 3 after 100 us; a waking at
 * 1100 us is outside the span.
 */
static void counts_story(void)
{
	marker(0, "pb_reset");
	ev_wk(100, REP_EV_WAKING, 100, "w", 0);
	ev_wk(101, REP_EV_WAKEUP, 100, "w", 2);
	ev_wk(120, REP_EV_WAKING, 200, "other", 1);
	ev_sw(130, 1, 0, 200, "other");
	ev_sw(150, 2, 0, 100, "w");
	ev_wk(200, REP_EV_WAKING, 100, "w", 2);
	ev_sw(300, 2, 100, 0, "swapper/2");
	ev_wk(400, REP_EV_WAKING, 100, "w", 2);
	ev_wk(401, REP_EV_WAKEUP, 100, "w", 2);
	ev_sw(500, 3, 0, 100, "w");
	ev_sw(600, 3, 100, 0, "swapper/3");
	ev_wk(1100, REP_EV_WAKING, 100, "w", 3);
	ev_sw(1200, 3, 0, 100, "w");
	r->span_from_ns = US(50);
	r->span_to_ns = US(1000);
}

static void test_counts_wakeups(void **s)
{
	struct rep_counts c;

	counts_story();
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(rep_counts(&c, r, &m, "w,x"), 0);
	assert_int_equal(c.wakeups, 2);
	assert_int_equal(c.lat_ns.nr, 2);
	assert_int_equal(rep_pct_ns(&c.lat_ns, 50), US(50));
	assert_int_equal(rep_pct_ns(&c.lat_ns, 99), US(100));
	assert_int_equal(c.ttwu_n, 2);
	assert_int_equal(c.ttwu_same, 1);
	/* no sched_migrate_task: switch-ins on another CPU, 2 -> 3, one package */
	assert_false(c.migr_from_migrate);
	assert_int_equal(c.migrations, 1);
	assert_int_equal(c.xpkg_migrations, 0);
	assert_true(c.complete);
	rep_counts_free(&c);
	/* without --comm every task counts: "other" adds one wake-up */
	assert_int_equal(rep_counts(&c, r, &m, NULL), 0);
	assert_int_equal(c.wakeups, 3);
	rep_counts_free(&c);
	/* a span beyond the last event: the recording is short */
	r->end_ns = US(1300);
	assert_int_equal(rep_counts(&c, r, &m, "w"), 0);
	assert_false(c.complete);
	rep_counts_free(&c);
}

/* sched_migrate_task, when recorded, is the source; equal CPUs do not count. */
static void test_counts_migrate(void **s)
{
	struct rep_counts c;

	counts_story();
	ev_mg(101, 100, "w", 0, 2);
	ev_mg(102, 100, "w", 2, 2);
	ev_mg(450, 100, "w", 2, 3);
	ev_mg(460, 200, "other", 1, 3);
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(rep_counts(&c, r, &m, "w"), 0);
	assert_true(c.migr_from_migrate);
	assert_int_equal(c.migrations, 2);
	assert_int_equal(c.xpkg_migrations, 1);
	rep_counts_free(&c);
}

/*
 * Run shares: in the span 50..1000 us, w runs 150..300 on CPU 2 and
 * 500..600 on CPU 3 (package 1: 250 us); added here, 700..750 on CPU 0 and
 * 960..1050 on CPU 1, cut at 1000 (package 0: 50 + 40 us).  Shares 90 / 340
 * and 250 / 340; "other" on CPU 1 does not count.
 */
static void test_counts_run_share(void **s)
{
	struct rep_counts c;

	counts_story();
	ev_sw(700, 0, 0, 100, "w");
	ev_sw(750, 0, 100, 0, "swapper/0");
	ev_sw(960, 1, 0, 100, "w");
	ev_sw(1050, 1, 100, 0, "swapper/1");
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(rep_counts(&c, r, &m, "w"), 0);
	assert_int_equal(c.run_total_ns, US(340));
	assert_int_equal(c.run_ns[0], US(90));
	assert_int_equal(c.run_ns[1], US(250));
	rep_counts_free(&c);
}

/* prev_pkg_share from the module's decisions: ret_cpu against prev_cpu. */
static void test_counts_select(void **s)
{
	struct rep_counts c;

	counts_story();
	sel(100, 100, 0, 2, 1, "pack_awake_group");
	t.ev[t.nr - 1].sel.prev_cpu = 0;
	snprintf(t.ev[t.nr - 1].sel.comm, REP_COMM_LEN, "w");
	sel(400, 100, 2, 3, 1, "pack_awake_group");
	t.ev[t.nr - 1].sel.prev_cpu = 2;
	snprintf(t.ev[t.nr - 1].sel.comm, REP_COMM_LEN, "w");
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(rep_counts(&c, r, &m, "w"), 0);
	assert_int_equal(c.sel_n, 2);
	assert_int_equal(c.sel_same, 1);
	rep_counts_free(&c);
}

/* Out-of-order input (not what libtracecmd gives) is sorted, stably. */
/* A sched_power_balance on @cpu at @us: the gate @passed it or not, for @reason. */
static void ev_lb(uint64_t us, int cpu, int passed, const char *reason)
{
	struct rep_event e = { .ts_ns = US(us), .cpu = cpu, .kind = REP_EV_BALANCE };

	e.lb.cpu = cpu;
	e.lb.passed = passed;
	e.lb.reason = rep_name_id(&t.gates, reason);
	t.fmt.has_balance = true;
	push(&e);
}

/* A decision for story thread @pid ("w") at @us: CPU @ret, for @reason. */
static void sel_w(uint64_t us, int pid, int ret, const char *reason)
{
	sel(us, pid, ret, ret, 1, reason);
	snprintf(t.ev[t.nr - 1].sel.comm, REP_COMM_LEN, "w");
}

/*
 * Wake-ups that queue (counts.c, DOC: wake-ups that queue).  CPUs 0-1 are
 * package 0, 2-3 package 1; "other" (300) runs on CPU 0 throughout but for
 * w's turns, "x" (400) on CPU 1 from 190 us; CPU 2 leaves idle at 290 us
 * (an interrupt: its package wakes, the CPU stays idle for the scheduler)
 * and re-enters C6 at 600 us.  Story threads "w": 100, 101, 102.
 *
 *	wake-up	at	placed on		queued	idle CPUs	package awake
 *	1	101	0 (runs other)		yes	1 (pkg 0)	0: yes
 *	2	201	0			yes	2, 3 (pkg 1)	1: no
 *	3	301	0			yes	2, 3		1: yes (CPU 2 out)
 *	4	401	3 (idle)		no
 *	5	411	3 (4 on its way there)	yes	2 (pkg 1)	1: yes
 *	6	501	0 (sched_wakeup only)	yes	2		1: yes
 *
 * judged 6, queued 5, idle_pkg 2 (1, 5), idle_far 3 (2, 3, 6), in an awake
 * package 4 (1, 3, 5, 6).  Of those four, 1 and 3 run where they were
 * placed after 50 us (waited), 6 is pulled to CPU 2 after 80 us (moved), 5
 * never runs.  While 6 waits, the gate gates a balance on CPU 2 (idle in an
 * awake package at 6's decision) and passes one on CPU 1 (busy then): only
 * the first counts.
 */
static void queue_story(void)
{
	int cpu;

	marker(0, "start");
	idle_ev(5, 0, REP_IDLE_EXIT);
	for (cpu = 1; cpu < 4; cpu++) {
		idle_ev(5, cpu, C6);
		ev_sw(10, cpu, 7, 0, "swapper");
	}
	ev_sw(10, 0, 0, 300, "other");
	ev_sw(20, 0, 300, 100, "w");
	ev_sw(30, 0, 100, 300, "other");
	ev_wk(100, REP_EV_WAKING, 100, "w", 0);
	sel_w(101, 100, 0, "cfs_cheapest");
	ev_wk(102, REP_EV_WAKEUP, 100, "w", 0);
	ev_sw(150, 0, 300, 100, "w");
	ev_sw(160, 0, 100, 300, "other");
	idle_ev(189, 1, REP_IDLE_EXIT);
	ev_sw(190, 1, 0, 400, "x");
	ev_wk(200, REP_EV_WAKING, 100, "w", 0);
	sel_w(201, 100, 0, "cfs_cheapest");
	ev_wk(202, REP_EV_WAKEUP, 100, "w", 0);
	ev_sw(250, 0, 300, 100, "w");
	ev_sw(260, 0, 100, 300, "other");
	idle_ev(290, 2, REP_IDLE_EXIT);
	ev_wk(300, REP_EV_WAKING, 100, "w", 0);
	sel_w(301, 100, 0, "pack_awake_group");
	ev_wk(302, REP_EV_WAKEUP, 100, "w", 0);
	ev_sw(350, 0, 300, 100, "w");
	ev_sw(360, 0, 100, 300, "other");
	ev_wk(400, REP_EV_WAKING, 100, "w", 0);
	sel_w(401, 100, 3, "wake_cheaper");
	ev_wk(402, REP_EV_WAKEUP, 100, "w", 3);
	ev_wk(410, REP_EV_WAKING, 101, "w", 1);
	sel_w(411, 101, 3, "pack_awake_group");
	ev_wk(500, REP_EV_WAKING, 102, "w", 0);
	ev_wk(501, REP_EV_WAKEUP, 102, "w", 0);
	ev_lb(520, 2, 0, "gated");
	ev_lb(530, 1, 1, "waiting");
	ev_sw(580, 2, 0, 102, "w");
	idle_ev(600, 2, C6);
	marker(1000, "end");
	r->span_from_ns = US(50);
	r->span_to_ns = US(1000);
}

static void assert_queued(const struct rep_counts *c)
{
	assert_int_equal(c->wakeups, 6);
	assert_int_equal(c->wake_judged, 6);
	assert_int_equal(c->wake_queued, 5);
	assert_int_equal(c->wake_queued_idle_pkg, 2);
	assert_int_equal(c->wake_queued_idle_far, 3);
	assert_int_equal(c->wake_queued_idle_awake_pkg, 4);
	assert_int_equal(c->awake_by_reason[rep_name_id(&t.reasons, "cfs_cheapest")], 1);
	assert_int_equal(c->awake_by_reason[rep_name_id(&t.reasons, "pack_awake_group")], 2);
	assert_int_equal(c->awake_by_reason[REP_MAX_NAMES], 1);
	assert_int_equal(c->awake_waited, 2);
	assert_int_equal(c->awake_moved, 1);
	assert_int_equal(c->awake_lat_ns.nr, 3);
	assert_int_equal(c->awake_lb[rep_name_id(&t.gates, "gated")], 1);
	assert_int_equal(c->awake_lb[rep_name_id(&t.gates, "waiting")], 0);
}

/* rep_print_counts()'s line for @c, to be freed. */
static char *counts_line(struct rep_counts *c)
{
	char *line = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&line, &len);
	assert_non_null(f);
	rep_print_counts(f, r, c);
	fclose(f);
	return line;
}

static void test_counts_queued(void **s)
{
	struct rep_counts c;
	char *line;

	queue_story();
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_true(r->awake_known);
	assert_int_equal(rep_counts(&c, r, &m, "w"), 0);
	assert_queued(&c);
	line = counts_line(&c);
	assert_non_null(strstr(line, " wake_judged=6 wake_queued=5 "));
	assert_non_null(strstr(line, " wake_queued_idle_pkg=2 "));
	assert_non_null(strstr(line, " wake_queued_idle_far=3 "));
	/* 4 in the span of 950 us */
	assert_non_null(strstr(line, " wake_queued_idle_awake_pkg=4 "
			       "wake_queued_idle_awake_pkg_per_s=4210.526 "));
	assert_non_null(strstr(line, " wake_queued_idle_awake_pkg_by="
			       "cfs_cheapest:1,pack_awake_group:2,ttwu:1 "));
	/* latencies 50, 50 and 80 us; the run's p99 is 80 us, which none exceeds */
	assert_non_null(strstr(line, " wake_queued_idle_awake_pkg_waited=2 "
			       "wake_queued_idle_awake_pkg_moved=1 "
			       "wake_queued_idle_awake_pkg_lat_p50_us=50.0 "
			       "wake_queued_idle_awake_pkg_lat_max_us=80.0 "
			       "wake_queued_idle_awake_pkg_over_p99=0 "
			       "wake_queued_idle_awake_pkg_lb=gated:1 "));
	free(line);
	rep_counts_free(&c);
}

/*
 * --slowdown moves CPU 2's idle entry from 600 to 445 us (290 + 310 / 2):
 * the packages' awake shares follow the work, but a wake-up queues in guest
 * time, so wake-up 6 at 501 us still finds package 1 awake.
 */
static void test_counts_queued_slowdown(void **s)
{
	struct rep_counts c;

	queue_story();
	r->slowdown = 2.0;
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(rep_counts(&c, r, &m, "w"), 0);
	assert_queued(&c);
	rep_counts_free(&c);
}

/* Without a model nothing says which CPUs share a package: "-". */
static void test_counts_queued_no_model(void **s)
{
	struct rep_counts c;
	char *line;

	queue_story();
	assert_int_equal(rep_analyse(r, &t, NULL), 0);
	assert_int_equal(rep_counts(&c, r, NULL, "w"), 0);
	assert_int_equal(c.wake_queued, 5);
	line = counts_line(&c);
	assert_non_null(strstr(line, " wake_queued=5 "));
	assert_non_null(strstr(line, " wake_queued_idle_pkg=- wake_queued_idle_pkg_per_s=- "));
	assert_non_null(strstr(line, " wake_queued_idle_awake_pkg=- "));
	assert_non_null(strstr(line, " wake_queued_idle_awake_pkg_by=- "));
	free(line);
	rep_counts_free(&c);
}

static void test_sort(void **s)
{
	idle_ev(2000, 0, C6);
	idle_ev(1000, 0, REP_IDLE_EXIT);
	idle_ev(0, 0, C6);
	assert_int_equal(rep_analyse(r, &t, &m), 0);
	assert_int_equal(t.ev[0].ts_ns, 0);
	assert_int_equal(t.ev[2].ts_ns, US(2000));
	assert_int_equal(r->cpu_sum[0].busy_us, 1000);
}

static int memfd_with(const void *data, size_t len)
{
	int fd = memfd_create("test_report", 0);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	return fd;
}

/* Files that are not recordings: one message, no events. */
static void test_reader_refuses(void **s)
{
	static const char magic[] = "\027\010\104tracing6";
	char err[256];
	int fd;

	fd = memfd_with("", 0);
	assert_int_equal(rep_read_fd(fd, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "empty"));
	close(fd);
	fd = memfd_with("hello world, not a trace", 24);
	assert_int_equal(rep_read_fd(fd, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a trace-cmd trace.dat"));
	close(fd);
	fd = memfd_with(magic, 5);
	assert_int_equal(rep_read_fd(fd, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "truncated"));
	close(fd);
	fd = memfd_with(magic, sizeof(magic));
	assert_int_equal(rep_read_fd(fd, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "truncated or corrupt"));
	close(fd);
}

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	void *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/*
 * One recording read three times through one fd, as the fuzzer reads every
 * input: the fd is left at its end by write() and at whatever offset the
 * previous read left it; each read must see the whole file, decode the same
 * events, and leave the fd's offset where it was.
 */
static void test_reader_same_fd_twice(void **s)
{
	struct rep_trace again;
	size_t len, nr_sel = 0, i;
	char err[256] = "";
	void *dat;
	int fd, round;

	dat = slurp(SP_REPORT_SEEDS "/v0.3.dat", &len);
	fd = memfd_with(dat, len);
	free(dat);
	assert_int_equal(rep_read_fd(fd, &t, err, sizeof(err)), 0);
	for (i = 0; i < t.nr; i++)
		nr_sel += t.ev[i].kind == REP_EV_SELECT;
	assert_true(nr_sel > 0);
	assert_int_equal(lseek(fd, 0, SEEK_CUR), (off_t)len);
	for (round = 0; round < 2; round++) {
		assert_int_equal(rep_read_fd(fd, &again, err, sizeof(err)), 0);
		assert_int_equal(again.nr, t.nr);
		assert_int_equal(again.nr_records, t.nr_records);
		assert_memory_equal(again.ev, t.ev, t.nr * sizeof(*t.ev));
		rep_trace_free(&again);
		assert_int_equal(lseek(fd, 0, SEEK_CUR), (off_t)len);
	}
	close(fd);
	/* and by path, the way sp-report opens a file */
	assert_int_equal(rep_read(SP_REPORT_SEEDS "/v0.3.dat", &again, err, sizeof(err)), 0);
	assert_int_equal(again.nr, t.nr);
	rep_trace_free(&again);
}

/*
 * A recording cut inside its data pages (headers whole): refused with one
 * line.  libtracecmd 3.1.6 crashes in tracecmd_close() when
 * tracecmd_open_fd() finds this; the reader must not take that path.
 */
static void test_reader_cut_data(void **s)
{
	char err[256] = "";
	size_t len;
	void *dat;
	int fd;

	dat = slurp(SP_REPORT_SEEDS "/v0.3.dat", &len);
	assert_true(len > 40000);
	fd = memfd_with(dat, 40000);
	free(dat);
	assert_int_equal(rep_read_fd(fd, &t, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "data pages"));
	close(fd);
}

static void test_names(void **s)
{
	struct rep_names n = { 0 };
	char name[16];
	int i;

	assert_int_equal(rep_name_id(&n, "a"), 0);
	assert_int_equal(rep_name_id(&n, "b"), 1);
	assert_int_equal(rep_name_id(&n, "a"), 0);
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		assert_true(rep_name_id(&n, name) < REP_MAX_NAMES);
	}
	assert_string_equal(rep_name(&n, 99), "?");
}

static void test_cpus_str(void **s)
{
	uint64_t mask[SP_MAX_CPUS / 64] = { 0 };
	char buf[64];

	mask[0] = 0x2f;		/* 0-3,5 */
	rep_cpus_str(mask, 8, buf, sizeof(buf));
	assert_string_equal(buf, "0-3,5");
	mask[0] = 0;
	rep_cpus_str(mask, 8, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_overrides_v02), T(test_task_util), T(test_overrides_v01), T(test_saved_saturates), T(test_wake_latency),
		T(test_replay_energy), T(test_replay_idle_deepest),
		T(test_replay_idle_as_reported), T(test_replay_pstate), T(test_window),
		T(test_window_missing), T(test_bound_violation), T(test_sort),
		T(test_reader_refuses), T(test_reader_same_fd_twice),
		T(test_reader_cut_data), T(test_names), T(test_cpus_str),
		T(test_replay_work_estimator), T(test_replay_all_awake), T(test_pkg_level),
		T(test_replay_work_timeline), T(test_replay_work_timeline_fast),
		T(test_counts_wakeups), T(test_counts_migrate), T(test_counts_select),
		T(test_counts_run_share), T(test_counts_queued), T(test_counts_queued_slowdown),
		T(test_counts_queued_no_model), T(test_replay_stretch_open), T(test_replay_freq_marker),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
