// SPDX-License-Identifier: GPL-2.0
/*
 * test_sim.c - the simulator (tools/sim): hand-computed runs of the engine
 * and its physics, CFS's placement and balancer by hand, the lower bound by
 * hand, the oracle against brute force, determinism, story errors, and
 * bound <= oracle <= oracle-lat <= every policy (that meets oracle-lat's
 * bounds) and oracle-lat <= oracle-lat-su on every shipped story and
 * model, pinned runs, and the balancer's gate.
 */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model_file.h"
#include "sim_int.h"

/*
 * Two CPUs in one pd and one package.  OPP0: cap 512 at 300 mW, OPP1: cap
 * 1024 at 1 W; one idle state of 10 mW, no exit latency, 5 uJ per exit; the
 * package costs 100 mW awake, 10 mW asleep and 20 uJ to wake.
 */
static const char two_cpu_model[] =
	"sched_power_model version=1 cpus=2\n"
	"level name=package\n"
	"pd id=0 cpus=0-1\n"
	"opp pd=0 khz=1000000 cap=512 uw=300000\n"
	"opp pd=0 khz=2000000 cap=1024 uw=1000000\n"
	"idle pd=0 name=WFI uw=10000 exit_us=0 target_us=0 wake_uj=5\n"
	"group level=package id=0 cpus=0-1 active_uw=100000 idle_uw=10000 wake_uj=20 exit_us=0\n"
	"end\n";

/*
 * The same package with one OPP (cap 1024, 500 mW) and two idle states:
 * C1 (100 mW, free to leave, target 0) and C6 (0 mW, 10 uJ per exit,
 * target 1000 us, exit latency EXIT us); the package: 1 W awake, 0 asleep,
 * 100 uJ and PEXIT us to wake.
 */
static char c1c6_model[1024];

static void make_c1c6(u32 exit_us, u32 pexit_us)
{
	snprintf(c1c6_model, sizeof(c1c6_model),
		 "sched_power_model version=1 cpus=2\n"
		 "level name=package\n"
		 "pd id=0 cpus=0-1\n"
		 "opp pd=0 khz=1000000 cap=1024 uw=500000\n"
		 "idle pd=0 name=C1 uw=100000 exit_us=0 target_us=0 wake_uj=0\n"
		 "idle pd=0 name=C6 uw=0 exit_us=%u target_us=1000 wake_uj=10\n"
		 "group level=package id=0 cpus=0-1 active_uw=1000000 idle_uw=0 "
		 "wake_uj=100 exit_us=%u\n"
		 "end\n", exit_us, pexit_us);
}

static struct sp_model model;

static void load_text(const char *text)
{
	struct sp_parse_error pe;

	if (sp_model_parse(text, strlen(text), &model, &pe))
		fail_msg("model line %d: %s %s", pe.line, pe.field, pe.msg ? pe.msg : "");
}

static int load_file_model(const char *path)
{
	char err[SIM_ERR_LEN];

	if (model_file_load(path, &model, err, sizeof(err))) {
		print_error("%s\n", err);
		return -1;
	}
	return 0;
}

static void parse_story(const char *json, struct sim_story *s)
{
	char err[SIM_ERR_LEN];

	if (sim_story_parse(json, strlen(json), "inline", s, err, sizeof(err)))
		fail_msg("%s", err);
}

/*
 * c1c6_model with C6's exit latency @exit_us and the package's @pexit_us
 * (make_c1c6()), and in @s one task that runs 100 us and sleeps @sleep_us,
 * twice.
 */
static void c1c6_two_runs(u32 exit_us, u32 pexit_us, u32 sleep_us,
			  struct sim_story *s)
{
	char json[96];

	make_c1c6(exit_us, pexit_us);
	load_text(c1c6_model);
	snprintf(json, sizeof(json),
		 "{ \"tasks\": { \"t\": { \"loop\": 2, \"run\": 100, "
		 "\"sleep\": %u } } }", sleep_us);
	parse_story(json, s);
}

/* uJ of @e, exactly (all hand cases are whole uJ). */
static u64 uj(sim_fj e)
{
	assert_true(e % 1000000000u == 0);
	return (u64)(e / 1000000000u);
}

/* @r's makespan (ns) and its busy, idle and wake-up energy (whole uJ). */
static void assert_run(const struct sim_result *r, u64 makespan_ns, u64 busy_uj,
		       u64 idle_uj, u64 wake_uj)
{
	assert_int_equal(r->makespan_ns, makespan_ns);
	assert_int_equal(uj(r->e_busy), busy_uj);
	assert_int_equal(uj(r->e_idle), idle_uj);
	assert_int_equal(uj(r->e_wake), wake_uj);
}

/* ---- the engine and its physics, by hand ---- */

/*
 * One task, 1000 us of work, cfs.  At t = 0 rt-app's main thread wakes
 * CPU 0 (5 uJ, and the package: 20 uJ) and forks the task: the slow path
 * sees the parent on CPU 0 and CPU 1 idle, so the task goes to CPU 1
 * (5 uJ).  The child then starts at half the spare capacity, 512, which
 * CPU 0's idle entry (same pd) turns into OPP1 (1.25 x 512 > 512): the
 * work takes 1000 us.  CPU 0 idles from t = 0.
 *	busy: CPU1 1 W x 1 ms = 1000 uJ, package 100 mW x 1 ms = 100 uJ
 *	idle: CPU0 10 mW x 1 ms = 10 uJ
 *	wake: 5 + 20 + 5 = 30 uJ
 * Makespan 1000 us, one wake-up sample (the fork) of latency 0.
 */
static void test_one_task_by_hand(void **state)
{
	struct sim_story s;
	struct sim_result r;

	load_text(two_cpu_model);
	parse_story("{ \"tasks\": { \"t\": { \"run\": 1000 } } }", &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &r), 0);
	assert_run(&r, 1000000, 1100, 10, 30);
	assert_int_equal(r.wakeups, 1);
	assert_int_equal(r.lat_max_ns, 0);
	assert_int_equal(r.pkg_wakeups, 1);
	assert_int_equal(r.migrations, 0);
	sim_story_free(&s);
}

/*
 * A package is asleep only while both CPUs are in C6.  The task runs 100
 * us, sleeps 500 us, twice, on CPU 1.  Its timer is 500 us away, below
 * C6's 1000 us target, so CPU 1 halts in C1 and the package stays up for
 * the whole run; CPU 0 idles in C6 from t = 0 (its first stay has no
 * history: the prediction is long, not 0).  Runs 0-100 and 600-700 us, the
 * task ends when its last sleep does, at 1200 us.
 *	busy: CPU1 200 us x 500 mW = 100 uJ, package 1200 us x 1 W = 1200 uJ
 *	idle: CPU1 in C1 1000 us x 100 mW = 100 uJ, C6 costs nothing
 *	wake: t = 0: CPU0 10 + package 100 + CPU1 10; C1 exits are free
 */
static void test_package_awake_while_a_cpu_halts(void **state)
{
	struct sim_story s;
	struct sim_result r;
	struct sim_opts o = { 0 };
	char *tl = NULL;
	size_t tl_len = 0;

	c1c6_two_runs(0, 0, 500, &s);
	o.timeline = open_memstream(&tl, &tl_len);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, &o, &r), 0);
	fclose(o.timeline);
	assert_run(&r, 1200000, 1300, 100, 120);
	assert_int_equal(r.pkg_wakeups, 1);
	assert_int_equal(r.verdict[SIM_V_HIT], 2);
	/* CPU 0: awake 0-0, then C6 (state 1) to the end */
	assert_non_null(strstr(tl, "0 0 1200 0 1\n"));
	free(tl);
	sim_story_free(&s);
}

/*
 * The same with 2000 us sleeps: CPU 1 now picks C6, so the package sleeps
 * between the runs and wakes for each (3 package wake-ups).  Runs 0-100
 * and 2100-2200 us, the end at 4200 us.
 *	busy: CPU1 100 uJ, package 200 us x 1 W = 200 uJ
 *	idle: 0 (C6 and the sleeping package cost nothing)
 *	wake: 10 + 100 + 10 at t = 0, then twice CPU1 10 + package 100
 */
static void test_package_sleeps_when_all_deep(void **state)
{
	struct sim_story s;
	struct sim_result r;

	c1c6_two_runs(0, 0, 2000, &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &r), 0);
	assert_run(&r, 4200000, 300, 0, 340);
	assert_int_equal(r.pkg_wakeups, 3);
	assert_int_equal(r.verdict[SIM_V_HIT], 2);
	sim_story_free(&s);
}

/*
 * Wake-up energy is charged once: C6 takes 100 us to leave and the
 * package 50 us more, and over an exit only the wakeup_uj is paid (the
 * package draws its idle 0 W until the CPU is up, the CPU its C6 0 W).
 * t = 0: CPU 0 wakes the package (150 us), the fork at 150 us sends the
 * task to CPU 1 (C6 only: 100 us), it runs 250-350; the timer at 2350
 * wakes CPU 1 and the package (150 us): run 2500-2600; the last wake-up at
 * 4600 ends the task at 4750.  The package is active 150-350 and
 * 2500-2600: 300 uJ; CPU 1 busy 200 us: 100 uJ.  Wake: 10 + 100, 10,
 * 10 + 100, 10 + 100 = 340 uJ.  Latencies: the fork 100 us, the two timer
 * wake-ups 150 us each.
 */
static void test_wakeup_charged_once(void **state)
{
	struct sim_story s;
	struct sim_result r;

	c1c6_two_runs(100, 50, 2000, &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &r), 0);
	assert_run(&r, 4750000, 400, 0, 340);
	assert_int_equal(r.wakeups, 3);
	assert_int_equal(r.lat_p50_ns, 150000);
	assert_int_equal(r.lat_max_ns, 150000);
	sim_story_free(&s);
}

/*
 * The same story with --wakeups: each latency sample split into the
 * deciding CPU's own exit and the wait on the target.  The fork, decided
 * on CPU 0 once it is up (t = 150 us), finds CPU 1 in C6 (state 1): 100
 * us on the target.  Each timer wake-up (t = 2350 and 4600 us) is paid
 * on CPU 1 itself, C6 and the package (150 us), before it is placed; CPU
 * 1 is then awake and the task runs at once.
 */
static void test_wakeups_split(void **state)
{
	struct sim_story s;
	struct sim_result r;
	struct sim_opts o = { 0 };
	char *wk = NULL;
	size_t wk_len = 0;

	c1c6_two_runs(100, 50, 2000, &s);
	o.wakeups = open_memstream(&wk, &wk_len);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, &o, &r), 0);
	fclose(o.wakeups);
	assert_int_equal(r.wakeups, 3);
	assert_string_equal(wk,
		"t_us=150 task=t#0 waker=0 prev=0 cpu=1 waker_ns=0 target=idle1 "
		"wait_ns=100000 lat_ns=100000\n"
		"t_us=2350 task=t#0 waker=1 prev=1 cpu=1 waker_ns=150000 target=awake "
		"wait_ns=0 lat_ns=150000\n"
		"t_us=4600 task=t#0 waker=1 prev=1 cpu=1 waker_ns=150000 target=awake "
		"wait_ns=0 lat_ns=150000\n");
	free(wk);
	sim_story_free(&s);
}

/*
 * The same story with --energy: the row's terms split by CPU and group.
 * CPU 0 leaves C6 once at t = 0 (10 uJ), waking the package (100 uJ), and
 * goes back as soon as it has forked.  CPU 1 leaves C6 three times (the
 * fork and both timers, 30 uJ) and runs 250-350 and 2500-2600 us at 500
 * mW: 100 uJ over 200 us.  The package wakes three times (300 uJ) and is
 * active 150-350 and 2500-2600 us at 1 W: 300 uJ over 300 us; C6 and the
 * sleeping package draw nothing.  The lines add up to the row: busy 400,
 * idle 0, wake 340 uJ.
 */
static void test_energy_split(void **state)
{
	struct sim_story s;
	struct sim_result r;
	struct sim_opts o = { 0 };
	char *en = NULL;
	size_t en_len = 0;

	c1c6_two_runs(100, 50, 2000, &s);
	o.energy = open_memstream(&en, &en_len);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, &o, &r), 0);
	fclose(o.energy);
	assert_int_equal(uj(r.e_busy), 400);
	assert_int_equal(uj(r.e_wake), 340);
	assert_string_equal(en,
		"cpu=0 pd=0 busy_uj=0.000 idle_uj=0.000 wake_uj=10.000 exits=1 awake_us=0\n"
		"cpu=1 pd=0 busy_uj=100.000 idle_uj=0.000 wake_uj=30.000 exits=3 "
		"awake_us=200\n"
		"group=0 level=package id=0 cpus=0-1 busy_uj=300.000 idle_uj=0.000 "
		"wake_uj=300.000 exits=3 active_us=300\n");
	free(en);
	sim_story_free(&s);
}

/* Sum the busy_uj, idle_uj and wake_uj of --energy lines, in nJ. */
static void sum_energy_lines(const char *text, u64 nj[3])
{
	static const char *const key[3] = { " busy_uj=", " idle_uj=", " wake_uj=" };
	const char *l;
	u32 k;

	memset(nj, 0, 3 * sizeof(*nj));
	for (l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		for (k = 0; k < 3; k++) {
			const char *v = strstr(l, key[k]);
			unsigned long long a, b;

			assert_non_null(v);
			assert_int_equal(sscanf(v + strlen(key[k]), "%llu.%llu", &a, &b), 2);
			nj[k] += a * 1000 + b;
		}
	}
}

/*
 * The OPP floor's gap limit (core/sp_floor.c), phone-biglittle: one task
 * of 50 us of work each 1 ms for 3 s.  At LITTLE's priced floor (cap 360)
 * its gap, 858 us, passes cpu-off's 800 us: CPU, cluster and package
 * sleep each period and each timer pays 1050 us (p99 1050 us, 1311
 * package wake-ups in 3.9 s).  The look lowers the floor to OPP 1 (gap
 * 744 us, WFI) after its first SP_FLOOR_LOOK_MS: p99 is cfs's (1 us), and
 * the package wakes only in that first look.
 */
static void test_floor_gap_scene(void **state)
{
	struct sim_story s;
	struct sim_result c, r;

	assert_int_equal(load_file_model("models/phone-biglittle.model"), 0);
	parse_story("{ \"tasks\": { \"p\": { \"instance\": 1, \"loop\": 3000, \"run\": 50,"
		    " \"timer\": { \"ref\": \"t\", \"period\": 1000 } } } }", &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &c), 0);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SP_POWER, NULL, &r), 0);
	assert_true(r.lat_p99_ns * 10 <= c.lat_p99_ns * 11);
	assert_true(r.pkg_wakeups <= SP_FLOOR_LOOK_MS + 2);
	assert_true(r.makespan_ns * 100 <= c.makespan_ns * 102);
	sim_story_free(&s);
}

/*
 * On a shipped model and story (sp-power, phone-biglittle, idle: three
 * levels of groups, exits of CPUs and clusters), the --energy lines add up
 * to the row's three terms to within 1 nJ per line (each is floored).
 */
static void test_energy_split_sums(void **state)
{
	struct sim_story s;
	struct sim_result r;
	struct sim_opts o = { 0 };
	char err[SIM_ERR_LEN], *en = NULL;
	size_t en_len = 0;
	u64 nj[3], row[3], lines = 0;
	const char *p;
	u32 k;

	assert_int_equal(load_file_model("models/phone-biglittle.model"), 0);
	if (sim_story_load("tools/sim/stories/idle.json", &s, err, sizeof(err)))
		fail_msg("%s", err);
	o.energy = open_memstream(&en, &en_len);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SP_POWER, &o, &r), 0);
	fclose(o.energy);
	for (p = en; (p = strchr(p, '\n')); p++)
		lines++;
	assert_int_equal(lines, model.nr_cpus + model.nr_groups);
	sum_energy_lines(en, nj);
	row[0] = (u64)(r.e_busy / 1000000u);
	row[1] = (u64)(r.e_idle / 1000000u);
	row[2] = (u64)(r.e_wake / 1000000u);
	for (k = 0; k < 3; k++)
		assert_true(nj[k] <= row[k] && row[k] - nj[k] <= lines);
	free(en);
	sim_story_free(&s);
}

/*
 * When the snapshot and the module's accounting see an idle exit.  One
 * task of 1000 us on c1c6 with C6 exits of 100 us and a package exit of
 * 200 us, cfs.  At t = 0 CPU 0 leaves C6 with the package (300 us) and
 * forks at 300 us; the task goes to CPU 1, whose exit takes 100 us: it
 * runs 400-1400 us.  The hardware draws C6's and the idle package's power
 * (0) over the exits:
 *	busy: CPU1 1000 us x 500 mW + package 1100 us x 1 W = 1600 uJ
 *	wake: 10 + 100 + 10 = 120 uJ
 * 6.1 fires the cpu_idle exit event after ->enter() returns, at the end of
 * the exit (sim_opts.idle_exit_end): the module's accounting then charges
 * the same 1720 uJ.  Seen at the exit's start, it charged the exits as
 * busy: CPU 0 300 us x 500 mW, the package 300 us x 1 W and CPU 1 100 us
 * x 500 mW, 500 uJ more.  The hardware's energy is the same either way.
 */
static void test_idle_exit_seen_at_end(void **state)
{
	struct sim_opts o = { .idle_exit_end = true };
	struct sim_story s;
	struct sim_result r;

	make_c1c6(100, 200);
	load_text(c1c6_model);
	parse_story("{ \"tasks\": { \"t\": { \"run\": 1000 } } }", &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, &o, &r), 0);
	assert_run(&r, 1400000, 1600, 0, 120);
	assert_int_equal(uj(r.e_acct), 1720);
	o.idle_exit_end = false;
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, &o, &r), 0);
	assert_int_equal(uj(r.e_busy) + uj(r.e_idle) + uj(r.e_wake), 1720);
	assert_int_equal(uj(r.e_acct), 2220);
	sim_story_free(&s);
}

/*
 * A timer: 200 us of work then "timer" with period 1000 us, 3 times, on
 * the one-state board.  The first run ends at 200 us (OPP1, as above); the
 * timer is armed then and expires at 1200, 2200 and 3200 us, each time on
 * the CPU the task slept on, which cfs keeps.  The task ends when the last
 * wait ends, at 3200 us.
 */
/*
 * Two CPUs, each its own pd and cluster, under one package: CPU 0 big (its
 * deepest state 300 us to leave, its cluster 800 us), CPU 1 LITTLE (150 us,
 * cluster 400 us), the package 500 us.  Woken at one instant from the
 * deepest state, the first pays the package and its own chain; the second
 * waits for the package only (up 500 us after the first began), then its
 * own cluster and core: big 1600 us, LITTLE 1050 us, in either order.
 */
static const char two_cluster_model[] =
	"sched_power_model version=1 cpus=2\n"
	"level name=cluster\n"
	"level name=package\n"
	"pd id=0 cpus=0\n"
	"opp pd=0 khz=2000000 cap=1024 uw=1000000\n"
	"idle pd=0 name=off uw=0 exit_us=300 target_us=1500 wake_uj=0\n"
	"pd id=1 cpus=1\n"
	"opp pd=1 khz=1000000 cap=360 uw=100000\n"
	"idle pd=1 name=off uw=0 exit_us=150 target_us=800 wake_uj=0\n"
	"group level=cluster id=0 cpus=0 active_uw=0 idle_uw=0 wake_uj=0 exit_us=800\n"
	"group level=cluster id=1 cpus=1 active_uw=0 idle_uw=0 wake_uj=0 exit_us=400\n"
	"group level=package id=0 cpus=0-1 active_uw=0 idle_uw=0 wake_uj=0 exit_us=500\n"
	"end\n";

/* @S's CPUs, all idle in their deepest state, at 10 s. */
static void all_idle(struct sim *S)
{
	u32 cpu;

	S->cpu = calloc(model.nr_cpus, sizeof(*S->cpu));
	assert_non_null(S->cpu);
	topo_build(S->m, &S->topo);
	sp_state_init(S->st, S->m, 0);
	sp_state_init(S->acct_st, S->m, 0);
	sp_acct_reset(S->acct, 0);
	for (cpu = 0; cpu < model.nr_cpus; cpu++)
		hw_init_cpu(S, cpu);
	S->nr_idle = model.nr_cpus;
	S->now = 10000000;
}

static void wake_both(u32 first, u64 lat_us[2])
{
	static struct sp_state st, acct_st;
	static struct sp_acct acct;
	struct sim_result r = { 0 };
	struct sim S = { .m = &model, .r = &r, .st = &st, .acct_st = &acct_st,
			 .acct = &acct };

	all_idle(&S);
	lat_us[first] = hw_cpu_wake(&S, first) / 1000;
	lat_us[!first] = hw_cpu_wake(&S, !first) / 1000;
	free(S.cpu);
}

static void test_group_up_for_second_cpu(void **state)
{
	u64 lat[2];

	load_text(two_cluster_model);
	wake_both(0, lat);
	assert_int_equal(lat[0], 1600);
	assert_int_equal(lat[1], 1050);
	wake_both(1, lat);
	assert_int_equal(lat[0], 1600);
	assert_int_equal(lat[1], 1050);
}

/*
 * two_cluster_model with a package of 1 W awake, 0 asleep.  The big CPU 0
 * wakes the package at t0 (its chain: package 500, cluster 800, core 300:
 * up at t0 + 1600 us), the LITTLE CPU 1 at the same time runs from t0 +
 * 1050 us (package up at 500, its cluster 400, core 150).  The package's
 * idle draw ends when the first of its CPUs is up, CPU 1: by t0 + 1600 us
 * it has drawn 1 W for 550 us.
 */
static void test_group_active_for_first_cpu_up(void **state)
{
	static struct sp_state st, acct_st;
	static struct sp_acct acct;
	static char text[sizeof(two_cluster_model) + 16];
	static const char pkg0[] = "package id=0 cpus=0-1 active_uw=0 ";
	struct sim_result r = { 0 };
	struct sim S = { .m = &model, .r = &r, .st = &st, .acct_st = &acct_st,
			 .acct = &acct };
	const char *p = strstr(two_cluster_model, pkg0);
	u32 pkg;

	assert_non_null(p);
	snprintf(text, sizeof(text), "%.*spackage id=0 cpus=0-1 active_uw=1000000 %s",
		 (int)(p - two_cluster_model), two_cluster_model, p + strlen(pkg0));
	load_text(text);
	all_idle(&S);
	assert_int_equal(hw_cpu_wake(&S, 0), 1600000);
	assert_int_equal(hw_cpu_wake(&S, 1), 1050000);
	S.now += 1600000;
	pkg = model.cpu_group[1][0];
	hw_group_flush(&S, pkg);
	assert_int_equal(S.grp_e[pkg].busy, (sim_fj)1000000 * 550000);
	assert_int_equal(S.grp_e[pkg].up_ns, 550000);
	free(S.cpu);
}

static void test_timer_by_hand(void **state)
{
	struct sim_story s;
	struct sim_result r;

	load_text(two_cpu_model);
	parse_story("{ \"tasks\": { \"t\": { \"loop\": 3, \"run\": 200, "
		    "\"timer\": { \"ref\": \"p\", \"period\": 1000 } } } }", &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &r), 0);
	assert_int_equal(r.makespan_ns, 3200000);
	assert_int_equal(r.wakeups, 4);
	assert_int_equal(r.migrations, 0);
	assert_int_equal(r.wake_placed, 3);
	assert_int_equal(r.wake_prev_pkg, 3);
	assert_int_equal(r.irq_wakes, 0);
	sim_story_free(&s);
}

static void test_verdict(void **state)
{
	struct sp_pd pd = { .nr_idle = 2 };

	pd.idle[0].target_residency_us = 2;
	pd.idle[1].target_residency_us = 240;
	assert_int_equal(sim_verdict(&pd, 0, 1), SIM_V_EARLY);
	assert_int_equal(sim_verdict(&pd, 0, 100), SIM_V_HIT);
	assert_int_equal(sim_verdict(&pd, 0, 240), SIM_V_LATE);
	assert_int_equal(sim_verdict(&pd, 1, 239), SIM_V_EARLY);
	assert_int_equal(sim_verdict(&pd, 1, 100000), SIM_V_HIT);
}

/* ---- cfs's placement by hand, on x86-2pkg ---- */

static struct sim S;
static struct sim_cpu fx_cpu[SIM_ORACLE_MAX_CPUS];
static struct sim_task fx_task[4];
static struct sim_result fx_r;
static struct sp_state fx_st;

#define FX_NOW	100000000ull

/* The loaded model, every CPU awake with nothing to run, at FX_NOW. */
static void fixture_model(void)
{
	u32 c;

	memset(&S, 0, sizeof(S));
	memset(fx_cpu, 0, sizeof(fx_cpu));
	memset(fx_task, 0, sizeof(fx_task));
	S.m = &model;
	S.cpu = fx_cpu;
	S.task = fx_task;
	S.st = &fx_st;
	S.r = &fx_r;
	S.now = FX_NOW;
	S.policy = SIM_POL_CFS;
	S.parent_cpu = -1;
	topo_build(&model, &S.topo);
	sp_state_init(&fx_st, &model, FX_NOW);
	for (c = 0; c < model.nr_cpus; c++) {
		fx_cpu[c].pd = model.cpu_pd[c];
		fx_cpu[c].idle = -1;
		fx_cpu[c].exit_from = -1;
		fx_cpu[c].ucache_ns = ~0ull;
	}
	lb_init(&S);
}

/* Model @path, every CPU awake with nothing to run, at FX_NOW. */
static void fixture_on(const char *path)
{
	assert_int_equal(load_file_model(path), 0);
	fixture_model();
}

static void fixture(void)
{
	fixture_on("models/x86-2pkg.model");
}

/* @cpu runs fx_task[@k] (utilisation @util) and has been busy at @util. */
static void busy(u32 cpu, u32 k, u32 util)
{
	fx_task[k].util = fx_task[k].util_est = util;
	fx_task[k].cpu = (s32)cpu;
	fx_cpu[cpu].curr = &fx_task[k];
	fx_st.cpu[cpu].util = util;
	fx_cpu[cpu].ucache_ns = ~0ull;	/* read afresh */
}

/* The task to place: fx_task[0], last on @prev, utilisation 100. */
static struct sim_task *wakee(u32 prev, s32 recent)
{
	struct sim_task *t = &fx_task[0];

	t->util = t->util_est = 100;
	t->cpu = (s32)prev;
	t->recent_used = recent;
	return t;
}

/*
 * wake_affine(): the waker's CPU 0 is idle (an interrupt) and prev_cpu 2,
 * in the other package, runs a task of utilisation 900.  wake_affine_idle()
 * cannot decide (CPU 0 does not share CPU 2's cache, CPU 2 is busy), so
 * wake_affine_weight() compares (0 + 100) * 100 * 1024 with (900 - 100) *
 * (100 + 17 / 2) * 1024: the waker's side is lighter, the target becomes
 * CPU 0, which select_idle_sibling() takes since it is idle.  With CPU 2
 * idle instead, prev_cpu wins (wake_affine_idle()).  A busy waker and a
 * busy prev_cpu whose sibling is idle: the target stays prev_cpu and the
 * idle sibling is picked in its LLC.
 */
static void test_cfs_affine_wakeup(void **state)
{
	fixture();
	busy(2, 1, 900);
	assert_int_equal(cfs_select(&S, wakee(2, 2), 0, SIM_WF_TTWU), 0);

	fixture();
	assert_int_equal(cfs_select(&S, wakee(2, 2), 0, SIM_WF_TTWU), 2);

	fixture();
	busy(0, 1, 900);
	busy(2, 2, 900);
	assert_int_equal(cfs_select(&S, wakee(2, 2), 0, SIM_WF_TTWU), 3);
}

/*
 * select_idle_sibling() for a timer wake-up (the waker is prev_cpu 2,
 * busy): the recently used CPU 3 if idle; else the scan of the LLC from
 * CPU 3 finds it; an idle CPU of the other package is never taken.  With
 * the LLC's summed utilisation at 85 % of its capacity or more (CPU 2 at
 * 1024, CPU 3 idle but still at 800: x = 912), SIS_UTIL's nr_idle_scan is 0
 * once a periodic balance of the LLC has seen it, and the task stays
 * queued on prev_cpu although CPU 3 is idle; before that balance the hint
 * is still the idle machine's and the scan finds CPU 3.
 */
static void test_cfs_idle_sibling(void **state)
{
	fixture();
	busy(2, 1, 600);
	assert_int_equal(cfs_select(&S, wakee(2, 3), 2, SIM_WF_TTWU), 3);
	assert_int_equal(fx_task[0].recent_used, 2);	/* prev becomes recent */

	fixture();
	busy(2, 1, 600);
	assert_int_equal(cfs_select(&S, wakee(2, 1), 2, SIM_WF_TTWU), 3);

	fixture();
	busy(2, 1, 600);
	busy(3, 2, 600);
	assert_int_equal(cfs_select(&S, wakee(2, 2), 2, SIM_WF_TTWU), 2);

	fixture();
	busy(2, 1, 1024);
	fx_st.cpu[3].util = 800;
	fx_cpu[3].ucache_ns = ~0ull;
	assert_int_equal(cfs_select(&S, wakee(2, 2), 2, SIM_WF_TTWU), 3);
	lb_idle_scan_refresh(&S, 2);
	assert_int_equal(cfs_select(&S, wakee(2, 2), 2, SIM_WF_TTWU), 2);
}

/*
 * Four SMT cores of two CPUs in one LLC (the package), one pd, one OPP and
 * one idle state.
 */
static const char smt_model[] =
	"sched_power_model version=1 cpus=8\n"
	"level name=core\n"
	"level name=package\n"
	"pd id=0 cpus=0-7\n"
	"opp pd=0 khz=1000000 cap=1024 uw=1000000\n"
	"idle pd=0 name=C1 uw=100000 exit_us=2 target_us=2 wake_uj=0\n"
	"group level=core id=0 cpus=0-1 active_uw=10000 idle_uw=1000 wake_uj=1 exit_us=0\n"
	"group level=core id=1 cpus=2-3 active_uw=10000 idle_uw=1000 wake_uj=1 exit_us=0\n"
	"group level=core id=2 cpus=4-5 active_uw=10000 idle_uw=1000 wake_uj=1 exit_us=0\n"
	"group level=core id=3 cpus=6-7 active_uw=10000 idle_uw=1000 wake_uj=1 exit_us=0\n"
	"group level=package id=0 cpus=0-7 active_uw=100000 idle_uw=10000 wake_uj=10 exit_us=0\n"
	"end\n";

/*
 * select_idle_cpu() with an idle core (6.1's has_idle_cores): prev_cpu 2
 * runs a task, its sibling CPU 3 and cores 4-5 and 6-7 idle.  The scan from
 * CPU 3 takes the first idle core, CPU 4, but SIS_UTIL's nr_idle_scan of 0
 * (an LLC 85 % busy at the last periodic balance) stops select_idle_cpu()
 * before any scan in 6.1, idle core or not (fair.c: "overloaded LLC is
 * unlikely to have idle cpu/core"), and the task stays on prev_cpu.
 */
static void test_cfs_idle_core_sis_util(void **state)
{
	load_text(smt_model);
	fixture_model();
	assert_true(S.topo.smt >= 0 && S.topo.llc >= 0);
	busy(2, 1, 600);
	assert_int_equal(cfs_select(&S, wakee(2, 2), 2, SIM_WF_TTWU), 4);

	load_text(smt_model);
	fixture_model();
	busy(2, 1, 600);
	S.llc_scan[topo_span_id(&S, (u32)S.topo.llc, 2)] = 0;
	assert_int_equal(cfs_select(&S, wakee(2, 2), 2, SIM_WF_TTWU), 2);
}

/*
 * get_sd_balance_interval() of a busy CPU: one jiffy less than the
 * domain's interval times busy_factor.  CPU 0 of x86-2pkg runs one light
 * task, the other CPUs are awake with nothing to run; at its tick the
 * package domain (2 CPUs) finds nothing to do and its interval doubles to
 * 4 ms, so busy: 64 ms, 16 jiffies, less one: 60 ms; the top domain
 * (4 CPUs) is left to CPU 1, the first idle CPU of CPU 0's package, and
 * doubles to 8 ms: 124 ms.  The next balance is 60 ms away.
 */
static void test_cfs_busy_balance_interval(void **state)
{
	fixture();
	busy(0, 1, 300);
	assert_int_equal(lb_tick(&S, 0), 0);
	assert_int_equal(fx_cpu[0].balance_ms[0], 4);
	assert_int_equal(fx_cpu[0].balance_ms[1], 8);
	assert_int_equal(fx_cpu[0].next_balance_ns - FX_NOW, 60000000ull);
}

/*
 * Fork (find_idlest_cpu()): the parent on CPU 0 counts as running; the
 * package with more idle CPUs wins, then the idle CPU with the shallowest
 * state: CPU 3 in C1 before CPU 2 in C6.
 */
static void test_cfs_fork_idlest(void **state)
{
	fixture();
	S.parent_cpu = 0;
	S.forking = true;
	fx_cpu[2].idle = 3;
	fx_cpu[3].idle = 0;
	assert_int_equal(cfs_select(&S, wakee(0, 0), 0, SIM_WF_FORK), 3);
	/* with a task on CPU 3 as well, package 0 (CPU 1 idle) ties package 1
	 * (CPU 2 idle) on idle CPUs: the local one is kept, CPU 1 */
	busy(3, 1, 0);
	fx_cpu[3].idle = -1;
	assert_int_equal(cfs_select(&S, wakee(0, 0), 0, SIM_WF_FORK), 1);
}

/*
 * One balance between the packages.  Three tasks are forked: a (200 ms)
 * to CPU 2, b (100 us) to CPU 1, c (200 ms) to CPU 3.  Once b is done,
 * package 1 runs two tasks and package 0 none.  The busy CPUs' ticks kick
 * an idle CPU of package 0 (their LLC has two busy CPUs); at the package
 * level prefer_sibling finds 2 > 0 + 1 tasks, but neither run queue has a
 * waiting task, so the balance fails; the fourth failure exceeds
 * cache_nice_tries + 2 and the running task moves (active balance): one
 * migration, after which both packages stay awake.  Each attempt is made
 * by an idle CPU the tick kicked.
 */
static void test_cfs_balance_between_packages(void **state)
{
	struct sim_story s;
	struct sim_result r;

	assert_int_equal(load_file_model("models/x86-2pkg.model"), 0);
	parse_story("{ \"tasks\": { \"a\": { \"run\": 200000 }, \"b\": { \"run\": 100 }, "
		    "\"c\": { \"run\": 200000 } } }", &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &r), 0);
	assert_int_equal(r.lb_active, 1);
	assert_int_equal(r.lb_pulled, 1);
	assert_int_equal(r.migrations, 1);
	assert_true(r.all_pkgs_awake_ns * 10 > r.makespan_ns * 8);
	assert_true(r.ilb_kicks >= 4);
	sim_story_free(&s);
}

/*
 * A misfit task moves up (phone-biglittle: CPUs 0-3 capacity 360, 4-7
 * 1024).  Two CPU-bound tasks of 300 ms of work each, one segment without
 * a sleep: the fork puts a on a big CPU and b on a LITTLE one, where b
 * starts at half the LITTLE's spare capacity (180, which fits).  Running,
 * b's utilisation rises past 360 / 1.25 = 288 within tens of ms; the tick
 * brings it up to date (task_tick_fair()), b turns misfit, its CPU kicks
 * an idle CPU, and a big CPU pulls b by active balance: one migration, and
 * both are done in about 300 ms of big-CPU time, not the 853 ms b's work
 * takes on a LITTLE CPU.
 */
static void test_cfs_misfit_moves_up(void **state)
{
	struct sim_story s;
	struct sim_result r;

	assert_int_equal(load_file_model("models/phone-biglittle.model"), 0);
	parse_story("{ \"tasks\": { \"a\": { \"run\": 300000 }, "
		    "\"b\": { \"run\": 300000 } } }", &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &r), 0);
	assert_int_equal(r.lb_active, 1);
	assert_int_equal(r.migrations, 1);
	assert_true(r.makespan_ns < 400000000ull);
	sim_story_free(&s);
}

/*
 * No balance kick for a misfit task on a CPU of the largest capacity
 * (check_misfit_status()): one CPU-bound task of 600 ms on phone-biglittle
 * runs on a big CPU, where its utilisation passes 1024 / 1.25 (it fits no
 * CPU), and nothing can take it.  Its tick kicks an idle CPU only to
 * refresh blocked load, at most once per 32 ms, not for a balance at every
 * tick.
 */
static void test_cfs_no_kick_for_biggest_misfit(void **state)
{
	struct sim_story s;
	struct sim_result r;

	assert_int_equal(load_file_model("models/phone-biglittle.model"), 0);
	parse_story("{ \"tasks\": { \"a\": { \"run\": 600000 } } }", &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &r), 0);
	assert_int_equal(r.migrations, 0);
	assert_true(r.ilb_kicks <= r.makespan_ns / SIM_LOAD_AVG_PERIOD_NS + 1);
	sim_story_free(&s);
}

/*
 * sim_opts.decisions: one line per sp_place() of an sp-* policy, none for
 * cfs.  On phone-biglittle, rt-app's main thread wakes CPU 0 (150 + 400 +
 * 500 us of exits: the fork at 1050 us) and forks a task of 100 us every
 * 10 ms.  CFS's fork path takes big CPU 4 (the idlest group, the most spare
 * capacity); sp_place() keeps the task in the LITTLE cluster, awake for
 * the parent (pack_awake_group).  Its three timer wake-ups come as
 * interrupts on CPU 1, where CFS keeps it and nothing is cheaper.
 */
static void test_decisions_file(void **state)
{
	struct sim_story s;
	struct sim_result r;
	struct sim_opts o = { 0 };
	char *buf = NULL;
	size_t len = 0, lines = 0, i;

	assert_int_equal(load_file_model("models/phone-biglittle.model"), 0);
	parse_story("{ \"tasks\": { \"a\": { \"loop\": 3, \"run\": 100, "
		    "\"timer\": { \"ref\": \"p\", \"period\": 10000 } } } }", &s);
	o.decisions = open_memstream(&buf, &len);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SP_POWER, &o, &r), 0);
	fclose(o.decisions);
	for (i = 0; i < len; i++)
		lines += buf[i] == '\n';
	assert_int_equal(r.decisions, 4);
	assert_int_equal(lines, r.decisions);
	assert_memory_equal(buf, "t_us=1050 task=a#0 util=", 24);
	assert_non_null(strstr(buf, " this=0 ctx=task cfs=4 cpu=1 reason=pack_awake_group "
				 "override=1 "));
	assert_non_null(strstr(strchr(buf, '\n'), " this=1 ctx=irq cfs=1 cpu=1 "
				 "reason=cfs_cheapest override=0 "));
	free(buf);

	buf = NULL;
	o.decisions = open_memstream(&buf, &len);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, &o, &r), 0);
	fclose(o.decisions);
	assert_int_equal(len, 0);
	free(buf);
	sim_story_free(&s);
}

/*
 * What sp-power decides on for a woken task is what select_hook.c reads,
 * max(util_avg, util_est.enqueued).  On phone-biglittle (every CPU awake
 * and empty) a task went to sleep on LITTLE CPU 1 at utilisation 400 and
 * slept long: its average decayed to 4, its util_est still holds 400.
 * CFS's wake-up (select_idle_sibling() on util_est) sends it to big CPU
 * 4, since 400 fits no LITTLE CPU (360 at the top OPP).  sp_place() must
 * see 400 and keep a big CPU; on the decayed 4 it took LITTLE CPU 1
 * (util=4 cpu=1 reason=queue_avoided in the decision line).
 */
static void test_sp_wakeup_sees_util_est(void **state)
{
	static const struct sim_task_def def = { .name = "w" };
	struct sim_opts o = { 0 };
	struct sim_task *t = &fx_task[0];
	char *buf = NULL;
	size_t len = 0;
	u32 cpu;

	fixture_on("models/phone-biglittle.model");
	memset(&fx_r, 0, sizeof(fx_r));
	S.policy = SIM_POL_SP_POWER;
	S.sp_pol = (struct sp_knobs){ .mode = SP_MODE_POWER, .margin_pct = 5,
				      .overutil_pct = 80, .window_us = 4000 };
	o.decisions = open_memstream(&buf, &len);
	S.o = &o;
	t->def = &def;
	t->util = 4;
	t->util_est = 400;
	t->cpu = 1;
	t->recent_used = 1;
	cpu = sim_policy_select(&S, t, 1, SIM_WF_TTWU);
	fclose(o.decisions);
	assert_non_null(strstr(buf, " util=400 prev=1 this=1 ctx=irq cfs=4 "));
	assert_true(cpu >= 4);
	free(buf);
	free(S.heap);
}

/*
 * eas as 6.1's find_energy_efficient_cpu(): the task's util_est counts
 * where it goes (cpu_util_next()).  A task last on LITTLE CPU 1 whose
 * util_avg decayed to 4 over its sleep but whose util_est is 300 fits no
 * LITTLE CPU (300 * 1.25 >= 360), so it goes to a big one; with util_est
 * 100 it fits, and LITTLE CPU 1 (prev_cpu, every LITTLE CPU as cheap)
 * keeps it.
 */
static void test_eas_sees_util_est(void **state)
{
	struct sim_task *t = &fx_task[0];
	u32 cpu;

	fixture_on("models/phone-biglittle.model");
	S.policy = SIM_POL_EAS;
	t->util = 4;
	t->util_est = 300;
	t->cpu = 1;
	t->recent_used = 1;
	cpu = sim_policy_select(&S, t, 1, SIM_WF_TTWU);
	assert_true(cpu >= 4);
	t->util_est = 100;
	assert_int_equal(sim_policy_select(&S, t, 1, SIM_WF_TTWU), 1);
}

static int no_freq_update(struct sim *sim, u32 pd)
{
	return 0;
}

/*
 * No pulling down to a smaller CPU (update_sd_pick_busiest()): on
 * phone-biglittle big CPU 4 runs a task and has another waiting, big CPU 5
 * runs one, big CPUs 6-7 and the LITTLE CPUs idle.  LITTLE CPU 0, going
 * idle, balances the package domain: the big cluster has spare capacity
 * and CPUs larger than CPU 0, so it is no busiest group, and the waiting
 * task is left to the idle big CPUs.
 */
static void test_cfs_no_pull_down(void **state)
{
	static const struct sim_ops ops = { .freq_update = no_freq_update };

	fixture_on("models/phone-biglittle.model");
	memset(&fx_r, 0, sizeof(fx_r));
	S.ops = &ops;
	busy(4, 1, 600);
	busy(5, 3, 600);
	fx_task[2].util = fx_task[2].util_est = 300;
	rq_q_add(&S, 4, &fx_task[2]);
	assert_int_equal(lb_newidle(&S, 0), 0);
	assert_int_equal(fx_task[2].cpu, 4);
	assert_null(fx_cpu[0].curr);
	assert_int_equal(fx_r.lb_pulled, 0);
	free(S.heap);
}

/*
 * The misfit balance on phone-biglittle, big CPU 4 newly idle, LITTLE
 * CPU 1 busy with task 1 and task 2 waiting behind it.  Misfit is
 * task_fits_cpu() on util_est: task 1 ran at utilisation 200 but slept at
 * 400, which does not fit 360, so CPU 1 has a misfit task; task 2 (100)
 * fits, the running task moves up by active balance.  With task 2 misfit
 * as well (util_est 400), detach_tasks() takes the waiting task 2 instead
 * and task 1 stays.
 */
static void test_cfs_misfit_balance(void **state)
{
	static const struct sim_ops ops = { .freq_update = no_freq_update };
	u32 i;

	for (i = 0; i < 2; i++) {
		fixture_on("models/phone-biglittle.model");
		memset(&fx_r, 0, sizeof(fx_r));
		S.ops = &ops;
		busy(1, 1, 200);
		fx_task[1].util_est = 400;
		fx_task[2].util = 100;
		fx_task[2].util_est = i ? 400 : 100;
		rq_q_add(&S, 1, &fx_task[2]);
		assert_int_equal(lb_newidle(&S, 4), 0);
		assert_int_equal(fx_r.lb_pulled, 1);
		assert_int_equal(fx_r.lb_active, !i);
		assert_int_equal(fx_task[1].cpu, i ? 1 : 4);
		assert_int_equal(fx_task[2].cpu, i ? 4 : 1);
		free(S.heap);
	}
}

/*
 * 6.1.192's NI_RANDOM on the misfit scene above (task 1 running on LITTLE
 * CPU 1, task 2 fitting behind it, big CPU 4 newly idle): each domain is balanced with
 * probability (1 + newidle_ratio) / 1024.  At ratio 0 (every recent
 * newly-idle balance failed) the dice skip both domains, nothing moves,
 * and each skip counts as a call; at ratio 1023 both run and task 1 moves
 * up by active balance, which counts as no success (load_balance()
 * returns no moved task for it).  The 1024th call sets the ratio to the
 * successes and halves both counts.
 */
static void test_cfs_newidle_dice(void **state)
{
	static const struct sim_ops ops = { .freq_update = no_freq_update };
	u32 i, d;

	for (i = 0; i < 2; i++) {
		fixture_on("models/phone-biglittle.model");
		memset(&fx_r, 0, sizeof(fx_r));
		S.ops = &ops;
		S.ni_random = true;
		S.rng = SIM_RNG_SEED;
		for (d = 0; d < S.topo.nr_doms; d++) {
			fx_cpu[4].ni_ratio[d] = i ? 1023 : 0;
			fx_cpu[4].ni_call[d] = 1023;
			fx_cpu[4].ni_success[d] = 100;
		}
		busy(1, 1, 200);
		fx_task[1].util_est = 400;
		fx_task[2].util = 100;
		fx_task[2].util_est = 100;
		rq_q_add(&S, 1, &fx_task[2]);
		assert_int_equal(lb_newidle(&S, 4), 0);
		assert_int_equal(fx_r.lb_active, i);
		assert_int_equal(fx_task[1].cpu, i ? 4 : 1);
		for (d = 0; d < S.topo.nr_doms; d++) {
			assert_int_equal(fx_cpu[4].ni_ratio[d], 100);
			assert_int_equal(fx_cpu[4].ni_call[d], 512);
			assert_int_equal(fx_cpu[4].ni_success[d], 50);
		}
		free(S.heap);
	}
}

/*
 * The dice as a whole: on phone-biglittle's build story (six jobs, a
 * misfit task on a LITTLE CPU whenever a big CPU's job sleeps), fewer
 * newly-idle misfit pulls with NI_RANDOM than without.
 */
static void test_cfs_newidle_dice_build(void **state)
{
	static const struct sim_opts off = { .ni_random_off = true };
	struct sim_story s;
	struct sim_result on, all;
	char err[SIM_ERR_LEN];

	assert_int_equal(load_file_model("models/phone-biglittle.model"), 0);
	assert_int_equal(sim_story_load("tools/sim/stories/build.json", &s, err, sizeof(err)), 0);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &on), 0);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, &off, &all), 0);
	assert_true(on.lb_active > 0);
	assert_true(on.lb_active < all.lb_active);
	sim_story_free(&s);
}

/* ---- sched_power's gate on the balancer ---- */

/*
 * Two packages of unequal size, so that CFS's fork placement gathers two
 * tasks on one of them: package 0 holds CPUs 0-2, package 1 CPU 3, one
 * OPP (cap 1024, 1 W), C1 (100 mW) and C6 (0 W, 10 us, target 100 us).
 */
static const char three_one_model[] =
	"sched_power_model version=1 cpus=4\n"
	"level name=package\n"
	"pd id=0 cpus=0-2\n"
	"opp pd=0 khz=1000000 cap=1024 uw=1000000\n"
	"idle pd=0 name=C1 uw=100000 exit_us=0 target_us=0 wake_uj=0\n"
	"idle pd=0 name=C6 uw=0 exit_us=10 target_us=100 wake_uj=10\n"
	"pd id=1 cpus=3\n"
	"opp pd=1 khz=1000000 cap=1024 uw=1000000\n"
	"idle pd=1 name=C1 uw=100000 exit_us=0 target_us=0 wake_uj=0\n"
	"idle pd=1 name=C6 uw=0 exit_us=10 target_us=100 wake_uj=10\n"
	"group level=package id=0 cpus=0-2 active_uw=1000000 idle_uw=0 wake_uj=100 exit_us=0\n"
	"group level=package id=1 cpus=3 active_uw=1000000 idle_uw=0 wake_uj=100 exit_us=0\n"
	"end\n";

/*
 * A light pair: two tasks run 6 ms every 12 ms (utilisation about 50 %,
 * below overutil_pct's 80 %).  rt-app's main thread forks both on CPU 0:
 * package 0 keeps two idle CPUs against package 1's one, so CFS keeps
 * them local, on CPUs 1 and 2, and sp-power keeps CFS's choice.  Package
 * 1's CPU 3 idles without a tick; the busy CPUs' ticks kick it (their LLC
 * has two busy CPUs), and at the all-CPU domain SD_PREFER_SIBLING finds 2
 * tasks against 0: nothing waits in a queue, so the balance fails until
 * the failures exceed cache_nice_tries + 2 and the running task moves
 * (active balance).  Without the gate that happens once and both packages
 * stay awake from then on (a third of the run or more); with it every
 * such balance is gated (no CPU overutilised, none starving: each runs
 * one task), the pair stays on package 0 and package 1 is only woken by
 * the kicks.  cfs is never gated, and sp-power without the gate is cfs.
 */
static void test_gate_keeps_light_pair(void **state)
{
	struct sim_opts off = { .balance_gate_off = true };
	struct sim_story s;
	struct sim_result on, ungated, cfs, cfs_off;

	load_text(three_one_model);
	parse_story("{ \"tasks\": { \"t\": { \"instance\": 2, \"loop\": 20, \"run\": 6000, "
		    "\"timer\": { \"ref\": \"p\", \"period\": 12000 } } } }", &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SP_POWER, NULL, &on), 0);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SP_POWER, &off, &ungated), 0);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &cfs), 0);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, &off, &cfs_off), 0);

	assert_true(on.lb_gated > 0);
	assert_int_equal(on.lb_gate_passed, 0);
	assert_int_equal(on.lb_pulled, 0);
	assert_int_equal(on.migrations, 0);
	assert_true(on.all_pkgs_awake_ns * 100 < on.makespan_ns);

	assert_int_equal(ungated.lb_gated, 0);
	assert_int_equal(ungated.lb_active, 1);
	assert_true(ungated.migrations >= 1);
	assert_true(ungated.all_pkgs_awake_ns * 3 > ungated.makespan_ns);
	assert_true(sim_total(&on) < sim_total(&ungated));

	assert_true(sim_total(&ungated) == sim_total(&cfs));
	assert_true(sim_total(&cfs) == sim_total(&cfs_off));
	assert_int_equal(cfs.lb_gated + cfs.lb_gate_passed, 0);
	sim_story_free(&s);
}

/*
 * The same pair, heavy: 4.8 ms every 5 ms, each task alone on its CPU.
 * Both CPUs soon read as overutilised (96 %), but every CPU of this model
 * has the largest capacity and none has a task waiting, so no balance
 * across the packages can help a task: the gate keeps them all closed,
 * where 6.1's balancer would move one running task to package 1 (the
 * active balance of the light pair) and keep both packages awake.  The
 * pair stays on package 0 at CFS's p99 and makespan, for less energy.
 */
static void test_gate_keeps_heavy_pair(void **state)
{
	struct sim_story s;
	struct sim_result r, cfs;

	load_text(three_one_model);
	parse_story("{ \"tasks\": { \"t\": { \"instance\": 2, \"loop\": 40, \"run\": 4800, "
		    "\"timer\": { \"ref\": \"p\", \"period\": 5000 } } } }", &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SP_POWER, NULL, &r), 0);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &cfs), 0);
	assert_true(r.lb_gated > 0);
	assert_int_equal(r.lb_gate_passed, 0);
	assert_int_equal(r.lb_pulled, 0);
	assert_int_equal(r.migrations, 0);
	assert_true(r.all_pkgs_awake_ns * 100 < r.makespan_ns);
	assert_true(cfs.migrations >= 1);
	assert_true(r.lat_p99_ns <= cfs.lat_p99_ns);
	assert_true(r.makespan_ns <= cfs.makespan_ns);
	assert_true(sim_total(&r) < sim_total(&cfs));
	sim_story_free(&s);
}

/*
 * Twelve CPU-bound workers and 24 periodic tasks (2 ms, then 5 ms of sleep)
 * forked at once on the 64-CPU server: 36 tasks for package 0's 32 CPUs,
 * so a few periodic tasks start on package 1 and stay there alone.  That
 * package sleeps between their periods and each of their wake-ups pays its
 * exit latency, 683 us.  The lone workers on package 0 read as
 * overutilised; package 1 is awake about a third of the time, so the gate
 * lets 6.1's idle balances toward it through at every try, their failures
 * add up past cache_nice_tries + 2, and workers move there by active
 * balance and keep it awake (both packages awake 69 % of the run against
 * 32 %).  Had the gate asked whether package 1 is awake at that instant,
 * most of those balances would be gated, each clearing the failure count,
 * and no worker would move (makespan 1.058 of cfs's).
 */
static void test_gate_wakes_periodic_package(void **state)
{
	struct sim_story s;
	struct sim_result r, cfs;

	assert_int_equal(load_file_model("models/server-64.model"), 0);
	parse_story("{ \"tasks\": { \"w\": { \"instance\": 12, \"loop\": 20, \"run\": 50000, "
		    "\"sleep\": 100 }, \"ui\": { \"instance\": 24, \"loop\": 150, "
		    "\"run\": 2000, \"sleep\": 5000 } } }", &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SP_POWER, NULL, &r), 0);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &cfs), 0);
	assert_true(r.all_pkgs_awake_ns * 2 > r.makespan_ns);
	assert_true(r.makespan_ns * 50 <= cfs.makespan_ns * 51);
	assert_true(r.lat_p99_ns * 10 <= cfs.lat_p99_ns * 11);
	assert_true(sim_total(&r) < sim_total(&cfs));
	sim_story_free(&s);
}

/*
 * Five light tasks in phase on x86-2pkg's four CPUs (1 ms every 8 ms):
 * at every period one of them waits behind another, on a CPU of one
 * package while a CPU of the other, awake, package runs out of work.  The
 * gate lets those balances through (a task waits and the pulling CPU's
 * package is awake: moving it wakes no package), so here sp-power with
 * the gate pulls exactly what it pulls without it; the starvation guard
 * alone would hold the waiting task until it had waited 4 ms.  Run under
 * SIM_PREEMPT_GRAN, where the woken task is the one that waits: under the
 * vruntime model it preempts at once, the one that waits has just run
 * (cache-hot, task_hot()) and no balancer pulls it, gated or not.
 */
static void test_gate_passes_waiting(void **state)
{
	struct sim_opts off = { .balance_gate_off = true };
	struct sim_story s;
	struct sim_result on, ungated;

	assert_int_equal(load_file_model("models/x86-2pkg.model"), 0);
	parse_story("{ \"tasks\": { \"t\": { \"instance\": 5, \"loop\": 300, \"run\": 1000, "
		    "\"timer\": { \"ref\": \"p\", \"period\": 8000 } } } }", &s);
	sim_set_preempt(SIM_PREEMPT_GRAN);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SP_POWER, NULL, &on), 0);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SP_POWER, &off, &ungated), 0);
	sim_set_preempt(SIM_PREEMPT_VRUNTIME);	/* the default */
	assert_true(on.lb_gate_passed > 0);
	assert_true(ungated.lb_pulled > 0);
	assert_int_equal(on.lb_pulled, ungated.lb_pulled);
	assert_true(sim_total(&on) == sim_total(&ungated));
	sim_story_free(&s);
}

/*
 * models/x86-16.model, the validation's 16-CPU guest (2 packages x 8
 * cores), is the model the module builds for that guest at insmod: the
 * synthetic one (sp_model_synthetic()), comments aside.
 */
static void test_x86_16_is_synthetic(void **state)
{
	static char text[SP_MODEL_TEXT_MAX + 1], line[4096];
	static struct sp_model m;
	static char out[SP_MODEL_TEXT_MAX + 1];
	u16 pkg[16];
	size_t len = 0;
	FILE *f;
	u32 c;

	for (c = 0; c < 16; c++)
		pkg[c] = (u16)(c / 8);
	assert_int_equal(sp_model_synthetic(&m, 16, pkg, NULL), 0);
	sp_model_format(&m, out, sizeof(out));
	f = fopen("models/x86-16.model", "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#')
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s", line);
	fclose(f);
	assert_string_equal(out, text);
	assert_int_equal(load_file_model("models/x86-16.model"), 0);
	assert_int_equal(model.nr_cpus, 16);
}

/*
 * The metrics' packages (prev_pkg, all_awake, package wake-ups): on
 * phone-biglittle, one package of two clusters, the clusters, as
 * sp-report counts the arm64 board's recordings; on x86-2pkg the two
 * packages; on server-256 (two nodes of two packages) the four packages,
 * not the nodes.  A task run on LITTLE CPU 0 and woken onto a big CPU
 * therefore leaves its package on phone-biglittle.
 */
static void test_metrics_pkg_level(void **state)
{
	static const struct {
		const char *path, *level;
		u32 nr_pkgs;
	} want[] = {
		{ "models/phone-biglittle.model", "cluster", 2 },
		{ "models/x86-2pkg.model", "package", 2 },
		{ "models/server-256.model", "package", 4 },
	};
	static struct sim_topo tp;
	u32 i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(load_file_model(want[i].path), 0);
		topo_build(&model, &tp);
		assert_string_equal(model.level[tp.pkg_level].name, want[i].level);
		assert_int_equal(tp.nr_pkgs, want[i].nr_pkgs);
	}
}

/*
 * The latency rule's defect count (wake_queued_idle_awake_pkg): two
 * packages of one CPU each, C1 (free, target 0) and C6 (target 1000 us).
 * Pinned: "a" runs 5 ms on CPU 0; "b", also on CPU 0, starts when it
 * preempts "a" (1 ms), sleeps 1 ms and is woken onto CPU 0 while "a" still
 * runs: one queued wake-up.  "c" on CPU 1 runs 50 us per loop.  Sleeping
 * 300 us between runs, CPU 1 halts in C1 (its timer is below C6's target)
 * and keeps package 1 awake: the queued wake-up had an idle CPU in an
 * awake package, count 1.  Sleeping 10 ms, CPU 1 sits in C6 and package 1
 * is asleep: count 0, though CPU 1 idles (wake_queued_idle_far 1).  Run
 * under SIM_PREEMPT_GRAN, whose 1 ms slice these times are taken from.
 */
static void test_queued_beside_awake_idle(void **state)
{
	static const char two_pkg_model[] =
		"sched_power_model version=1 cpus=2\n"
		"level name=package\n"
		"pd id=0 cpus=0-1\n"
		"opp pd=0 khz=1000000 cap=1024 uw=500000\n"
		"idle pd=0 name=C1 uw=100000 exit_us=0 target_us=0 wake_uj=0\n"
		"idle pd=0 name=C6 uw=0 exit_us=0 target_us=1000 wake_uj=10\n"
		"group level=package id=0 cpus=0 active_uw=1000000 idle_uw=0 wake_uj=100 exit_us=0\n"
		"group level=package id=1 cpus=1 active_uw=1000000 idle_uw=0 wake_uj=100 exit_us=0\n"
		"end\n";
	static const char *const story[2] = {
		"{ \"tasks\": { \"a\": { \"run\": 5000 }, "
		"\"b\": { \"sleep\": 1000, \"run\": 100 }, "
		"\"c\": { \"loop\": 20, \"run\": 50, \"sleep\": 300 } } }",
		"{ \"tasks\": { \"a\": { \"run\": 5000 }, "
		"\"b\": { \"sleep\": 1000, \"run\": 100 }, "
		"\"c\": { \"loop\": 2, \"run\": 50, \"sleep\": 10000 } } }",
	};
	static const s16 pin[] = { 0, 0, 1 };
	struct sim_opts o = { .pin = pin };
	struct sim_story s;
	struct sim_result r;
	u32 i;

	load_text(two_pkg_model);
	for (i = 0; i < 2; i++) {
		parse_story(story[i], &s);
		sim_set_preempt(SIM_PREEMPT_GRAN);
		assert_int_equal(sim_run(&model, &s, SIM_POL_PINNED, &o, &r), 0);
		sim_set_preempt(SIM_PREEMPT_VRUNTIME);	/* the default */
		assert_int_equal(r.wake_queued, 1);
		assert_int_equal(r.wake_queued_idle_far, 1);
		assert_int_equal(r.wake_queued_idle_awake_pkg, i == 0);
		sim_story_free(&s);
	}
}

/* observe and performance keep CFS's choice: identical to cfs. */
static void test_observe_is_cfs(void **state)
{
	struct sim_story s;
	struct sim_result a, b, c;
	char err[SIM_ERR_LEN];

	assert_int_equal(load_file_model("models/x86-2pkg.model"), 0);
	if (sim_story_load("tools/sim/stories/video.json", &s, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SP_OBSERVE, NULL, &a), 0);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SP_PERFORMANCE, NULL, &b), 0);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &c), 0);
	assert_true(sim_total(&a) == sim_total(&c) && sim_total(&b) == sim_total(&c));
	assert_int_equal(a.lat_p99_ns, c.lat_p99_ns);
	assert_int_equal(a.migrations, c.migrations);
	sim_story_free(&s);
}

/* ---- the bound by hand ---- */

/*
 * One task, twice 100 us of work then a 5000 us sleep, on the one-state
 * board (no exit latencies: X = 0).
 *  T_lb: 100 + 5000 + 100 + 5000 = 10200 us.
 *  floor: 2 CPUs x 10 mW + package 10 mW, over 10.2 ms = 306 uJ.
 *  busy: one task, so the package's 90 mW is not shared: OPP0 costs
 *   (300 - 10 + 90) mW x 1024/512 = 760 mW per unit of work, OPP1 1080:
 *   200 us of work x 760 mW = 152 uJ.
 *  first wake-up: 5 + 20 = 25 uJ.
 *  gaps: the slowest run takes 200 us (OPP0), so the task is surely asleep
 *   200-5100 and 5400-10200 us; each gap costs min(5 uJ, 290 mW x L) +
 *   min(20 uJ, 90 mW x L) = 25 uJ: 50 uJ.
 */
static void test_bound_by_hand(void **state)
{
	struct sim_story s;
	struct sim_result r, p;

	load_text(two_cpu_model);
	parse_story("{ \"tasks\": { \"t\": { \"loop\": 2, \"run\": 100, "
		    "\"sleep\": 5000 } } }", &s);
	sim_lower_bound(&model, &s, &r);
	assert_run(&r, 10200000, 152, 306, 75);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &p), 0);
	assert_true(sim_total(&r) <= sim_total(&p));
	sim_story_free(&s);
}

/*
 * A board whose OPP draws less than its idle state (the model orders the
 * idle states and the OPPs each, not the one against the other): 10 uW
 * running, 100 mW idle.  One task, 100 ms of work.
 *  T_lb: 100 ms.
 *  floor: P_min = 10 uW on each of 2 CPUs over 100 ms = 2 uJ; the deepest
 *   state's 100 mW would give 20000 uJ, above cfs's schedule (10000 uJ
 *   idle on the other CPU and 1 uJ of work).
 *  busy: P_k - P_min = 0.  First wake-up and gaps: 0.
 */
static const char low_opp_model[] =
	"sched_power_model version=1 cpus=2\n"
	"level name=package\n"
	"pd id=0 cpus=0-1\n"
	"opp pd=0 khz=1000000 cap=1024 uw=10\n"
	"idle pd=0 name=C1 uw=100000 exit_us=1 target_us=1 wake_uj=0\n"
	"group level=package id=0 cpus=0-1 active_uw=0 idle_uw=0 wake_uj=0 exit_us=0\n"
	"end\n";

static void test_bound_opp_below_idle(void **state)
{
	struct sim_story s;
	struct sim_result r, p;
	u32 pol;

	load_text(low_opp_model);
	parse_story("{ \"tasks\": { \"t\": { \"loop\": 1, \"run\": 100000 } } }", &s);
	sim_lower_bound(&model, &s, &r);
	assert_run(&r, 100000000, 0, 2, 0);
	for (pol = 0; pol < SIM_POL_NR; pol++) {
		assert_int_equal(sim_run(&model, &s, pol, NULL, &p), 0);
		assert_true(sim_total(&r) <= sim_total(&p));
	}
	sim_story_free(&s);
}

/* ---- the preemption models (sim_set_preempt()) ---- */

/*
 * @json's tasks, every instance on CPU 0 (pinned) of two_cpu_model, under
 * preemption model @pm: the wake-up latency (us) of task @name's @nth
 * sample (0: its fork).  On 2 CPUs 6.1's factor is 1 + ilog2(2) = 2:
 * latency 12 ms, min_granularity 1.5 ms, wakeup_granularity 2 ms.
 */
static u64 pinned_lat_us(const char *json, u32 pm, const char *name, u32 nth)
{
	static const s16 pin[SIM_ORACLE_MAX_TASKS];
	struct sim_opts o = { .pin = pin };
	struct sim_story s;
	struct sim_result r;
	char *buf = NULL, *p, *q, key[40];
	size_t len = 0;
	u64 lat = ~0ull;
	int rc;

	load_text(two_cpu_model);
	parse_story(json, &s);
	o.wakeups = open_memstream(&buf, &len);
	assert_non_null(o.wakeups);
	sim_set_preempt(pm);
	rc = sim_run(&model, &s, SIM_POL_PINNED, &o, &r);
	sim_set_preempt(SIM_PREEMPT_VRUNTIME);	/* the default */
	assert_int_equal(rc, 0);
	fclose(o.wakeups);
	snprintf(key, sizeof(key), " task=%s#", name);
	for (p = buf; p && (q = strstr(p, key)); p = strchr(q, '\n')) {
		if (nth--)
			continue;
		q = strstr(q, "lat_ns=");
		assert_non_null(q);
		lat = strtoull(q + 7, NULL, 10) / 1000;
		break;
	}
	free(buf);
	sim_story_free(&s);
	assert_true(lat != ~0ull);
	return lat;
}

/*
 * A long sleeper preempts a lone running task at once.  s runs first (its
 * fork: vruntime 6 ms, START_DEBIT of 12 ms / 2) and sleeps; the hog
 * (forked at 6 + 12 / 3 = 10 ms) runs 10 ms, naps 100 us and runs again
 * from 10.1 ms.  s wakes at 10.5 ms: placed at min_vruntime - 6 ms, 6 ms
 * behind the hog, more than wakeup_granularity's 2 ms: it runs at once.
 * The gran model waits until the hog has had 1 ms of its slice: 11.1 ms.
 */
static void test_vrt_long_sleeper_preempts_at_once(void **state)
{
	static const char json[] =
		"{ \"tasks\": { \"s\": { \"sleep\": 10500, \"runtime\": 100 }, "
		"\"hog\": { \"runtime\": 10000, \"sleep\": 100, \"runtime1\": 30000 } } }";

	assert_int_equal(pinned_lat_us(json, SIM_PREEMPT_VRUNTIME, "s", 1), 0);
	assert_int_equal(pinned_lat_us(json, SIM_PREEMPT_GRAN, "s", 1), 600);
}

/*
 * A sleeper that wakes behind another recent sleeper preempts it only if
 * that one has run more than wakeup_granularity (f ms, 2 ms here).  The
 * hog runs from 10 ms; a (20 ms asleep) wakes at 20.5 ms and preempts it
 * (6 ms behind it); b wakes D us later: both were placed at the same
 * min_vruntime - 6 ms, so b lags a by what a has run.  With D = 1900 it
 * does not preempt and waits until a's 5 ms end at 25.5 ms (the tick at
 * 22 ms finds a's 1.5 ms below its 4 ms slice and lead), 3100 us; with
 * D = 2100 it runs at once.  The gran model lets b in after a's first
 * 1 ms either way: at once.
 */
static void test_vrt_second_sleeper_waits_gran(void **state)
{
	char json[256];
	u32 d;

	for (d = 1900; d <= 2100; d += 200) {
		snprintf(json, sizeof(json),
			 "{ \"tasks\": { \"a\": { \"sleep\": 20500, \"runtime\": 5000 }, "
			 "\"b\": { \"sleep\": %u, \"runtime\": 100 }, "
			 "\"hog\": { \"sleep\": 10000, \"runtime\": 30000 } } }", 20500 + d);
		assert_int_equal(pinned_lat_us(json, SIM_PREEMPT_VRUNTIME, "a", 1), 0);
		assert_int_equal(pinned_lat_us(json, SIM_PREEMPT_VRUNTIME, "b", 1),
				 d < 2000 ? 3100 : 0);
		assert_int_equal(pinned_lat_us(json, SIM_PREEMPT_GRAN, "b", 1), 0);
	}
}

/*
 * The tick preempts by sched_slice().  a and b wake 1 us apart at 10 ms;
 * b (vruntime 10 ms, a's 6 ms: no wake-up preemption) waits.  The ticks
 * come at 14 and 18 ms (from CPU 0's wake-up); sched_slice() of two is
 * 12 ms / 2 = 6 ms: at 14 ms a has run 4 ms and leads b by 0, at 18 ms it
 * has run 8 ms: b runs, 7999 us after its wake-up.  The gran model lets b
 * in after a's first 1 ms: 999 us.
 */
static void test_vrt_tick_by_slice(void **state)
{
	static const char json[] =
		"{ \"tasks\": { \"a\": { \"sleep\": 10000, \"runtime\": 30000 }, "
		"\"b\": { \"sleep\": 10001, \"runtime\": 30000 } } }";

	assert_int_equal(pinned_lat_us(json, SIM_PREEMPT_VRUNTIME, "b", 1), 7999);
	assert_int_equal(pinned_lat_us(json, SIM_PREEMPT_GRAN, "b", 1), 999);
}

/* ---- the oracle ---- */

/*
 * Every pinning of three tasks on x86-2pkg's four CPUs x every per-pd
 * setting (schedutil or one of 4 OPPs), tried one by one: the cheapest
 * energy in *best, and in *best_lat the cheapest whose p99 is at most
 * 1.1 x @cfs's and makespan at most 1.02 x.
 */
static void brute_force(const struct sim_story *s, const struct sim_result *cfs,
			sim_fj *best, sim_fj *best_lat)
{
	struct sim_result q;
	s16 pin[3];
	s8 opp[2];
	u32 i;

	*best = *best_lat = ~(sim_fj)0;
	for (i = 0; i < 64 * 25; i++) {
		struct sim_opts o = { .pin = pin, .fixed_opp = opp };

		pin[0] = (s16)(i % 4);
		pin[1] = (s16)(i / 4 % 4);
		pin[2] = (s16)(i / 16 % 4);
		opp[0] = (s8)((s32)(i / 64 % 5) - 1);
		opp[1] = (s8)((s32)(i / 320) - 1);
		assert_int_equal(sim_run(&model, s, SIM_POL_PINNED, &o, &q), 0);
		if (sim_total(&q) < *best)
			*best = sim_total(&q);
		if (q.lat_p99_ns * 10 <= cfs->lat_p99_ns * 11 &&
		    q.makespan_ns * 50 <= cfs->makespan_ns * 51 && sim_total(&q) < *best_lat)
			*best_lat = sim_total(&q);
	}
}

/*
 * On short stories of three tasks (two identical) on x86-2pkg, the
 * oracle's search up to symmetry finds the same energy as brute force,
 * and so does oracle-lat under its bounds, under either preemption model.
 * On the second story the cheapest schedule takes 10 % longer than cfs
 * (two tasks share a CPU), and oracle-lat's schedule is another, dearer
 * one.  On the first story the cheapest schedule meets the bounds under
 * SIM_PREEMPT_GRAN; under the vruntime model (the default) its cheapest
 * one shares a CPU too (63.704 mJ, 19.8 ms against cfs's 17.5 ms: a woken
 * task waits for the tick's preemption), so oracle-lat's is dearer there
 * as well (64.923 mJ).
 */
static void test_oracle_matches_brute_force(void **state)
{
	static const u32 pms[] = { SIM_PREEMPT_VRUNTIME, SIM_PREEMPT_GRAN };
	static const char *const stories[] = {
		"{ \"tasks\": { \"u\": { \"instance\": 2, \"loop\": 3, \"run\": 2000, "
		"\"sleep\": 3000 }, \"v\": { \"loop\": 4, \"run\": 700, "
		"\"timer\": { \"ref\": \"t\", \"period\": 4000 } } } }",
		"{ \"tasks\": { \"u\": { \"instance\": 2, \"loop\": 4, \"run\": 3000, "
		"\"sleep\": 1000 }, \"v\": { \"loop\": 6, \"run\": 500, "
		"\"timer\": { \"ref\": \"t\", \"period\": 3000 } } } }",
	};
	struct sim_story s;
	struct sim_result r, rl, cfs;
	sim_fj best, best_lat;
	u32 k, i;

	assert_int_equal(load_file_model("models/x86-2pkg.model"), 0);
	for (i = 0; i < SP_ARRAY_SIZE(pms) * SP_ARRAY_SIZE(stories); i++) {
		u32 pm = pms[i / SP_ARRAY_SIZE(stories)];

		k = i % SP_ARRAY_SIZE(stories);
		sim_set_preempt(pm);
		parse_story(stories[k], &s);
		assert_int_equal(sim_oracle(&model, &s, &r), 0);
		assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &cfs), 0);
		assert_int_equal(sim_oracle_lat(&model, &s, &cfs, &rl), 0);
		brute_force(&s, &cfs, &best, &best_lat);
		assert_true(sim_total(&r) == best);
		assert_true(r.searched > 0 && r.searched < 64 * 25);
		/* the oracle's result is a real run of the schedule it names */
		assert_non_null(strstr(r.plan, "pin="));
		assert_int_equal(rl.policy, SIM_POL_ORACLE_LAT);
		assert_true(best_lat != ~(sim_fj)0 && sim_total(&rl) == best_lat);
		assert_true(rl.lat_p99_ns * 10 <= cfs.lat_p99_ns * 11);
		assert_true(rl.makespan_ns * 50 <= cfs.makespan_ns * 51);
		assert_non_null(strstr(rl.plan, "pin="));
		if (k == 0 && pm == SIM_PREEMPT_GRAN) {
			assert_true(sim_total(&rl) == sim_total(&r));
		} else {
			assert_true(sim_total(&rl) > sim_total(&r));
			assert_true(r.makespan_ns * 50 > cfs.makespan_ns * 51);
		}
		sim_story_free(&s);
	}
	sim_set_preempt(SIM_PREEMPT_VRUNTIME);	/* the default */
}

/*
 * The oracles apply where their search is small: at most 8 task instances
 * on at most 8 CPUs, and at most SIM_ORACLE_MAX_PINNINGS pinnings up to
 * symmetry, counted before anything runs.  Nine instances, or eight
 * different tasks on x86-2pkg (4^8 pinnings, about half of them distinct
 * once CPUs 2 and 3 are interchangeable), are beyond it; seven identical
 * instances have fewer pinnings than the 120 multisets of 7 of 4 CPUs, and
 * an oracle.  Five tasks of 100 ms
 * on four CPUs: cfs's balancer moves them around and finishes in about
 * 184 ms, while every static schedule puts two on one CPU (200 ms at
 * least): no schedule meets oracle-lat's makespan bound, and its row says
 * so ("none").
 */
static void test_oracle_not_applicable(void **state)
{
	struct sim_story s;
	struct sim_result r, cfs;

	assert_int_equal(load_file_model("models/x86-2pkg.model"), 0);
	parse_story("{ \"tasks\": { \"t\": { \"instance\": 2, \"run\": 100 } } }", &s);
	/* 0/0 0/1 0/2 1/1 1/2 2/2 2/3: CPU 3 only beside a task on CPU 2 */
	assert_int_equal(sim_oracle_pinnings(&model, &s), 7);
	sim_story_free(&s);
	parse_story("{ \"tasks\": { \"t\": { \"instance\": 9, \"run\": 100 } } }", &s);
	assert_int_equal(sim_oracle_pinnings(&model, &s), SIM_ORACLE_MAX_PINNINGS + 1);
	assert_int_equal(sim_oracle(&model, &s, &r), 1);
	assert_int_equal(r.policy, SIM_POL_ORACLE);
	assert_int_equal(r.searched, 0);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &cfs), 0);
	assert_int_equal(sim_oracle_lat(&model, &s, &cfs, &r), 1);
	assert_int_equal(r.policy, SIM_POL_ORACLE_LAT);
	sim_story_free(&s);
	parse_story("{ \"tasks\": { \"a\": { \"run\": 100 }, \"b\": { \"run\": 100 }, "
		    "\"c\": { \"run\": 100 }, \"d\": { \"run\": 100 }, "
		    "\"e\": { \"run\": 100 }, \"f\": { \"run\": 100 }, "
		    "\"g\": { \"run\": 100 }, \"h\": { \"run\": 100 } } }", &s);
	assert_int_equal(sim_oracle_pinnings(&model, &s), SIM_ORACLE_MAX_PINNINGS + 1);
	assert_int_equal(sim_oracle(&model, &s, &r), 1);
	assert_int_equal(r.searched, 0);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &cfs), 0);
	assert_int_equal(sim_oracle_lat_su(&model, &s, &cfs, false, &r), 1);
	assert_int_equal(r.policy, SIM_POL_ORACLE_LAT_SU);
	sim_story_free(&s);
	parse_story("{ \"tasks\": { \"t\": { \"instance\": 7, \"run\": 100 } } }", &s);
	assert_in_range(sim_oracle_pinnings(&model, &s), 1, 120);
	assert_int_equal(sim_oracle(&model, &s, &r), 0);
	assert_true(r.searched > 0 && r.makespan_ns > 0);
	sim_story_free(&s);
	parse_story("{ \"tasks\": { \"t\": { \"instance\": 5, \"run\": 100000 } } }", &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &cfs), 0);
	assert_true(cfs.makespan_ns < 190000000);
	assert_int_equal(sim_oracle_lat(&model, &s, &cfs, &r), 0);
	assert_int_equal(r.makespan_ns, 0);
	assert_true(r.searched > 0);
	assert_string_equal(r.plan, "none");
	assert_int_equal(sim_oracle(&model, &s, &r), 0);
	assert_true(r.makespan_ns >= 200000000);
	sim_story_free(&s);
	assert_int_equal(load_file_model("models/server-64.model"), 0);
	parse_story("{ \"tasks\": { \"t\": { \"run\": 100 } } }", &s);
	assert_int_equal(sim_oracle(&model, &s, &r), 1);
	sim_story_free(&s);
}

/* ---- every story x policy ---- */

#define MAX_RESULTS	(64 * SIM_POL_ALL)

/* Does @p meet oracle-lat's bounds: p99 <= 1.1 x cfs's, makespan <= 1.02 x? */
static bool meets_lat(const struct sim_result *p, const struct sim_result *cfs)
{
	return p->lat_p99_ns * 10 <= cfs->lat_p99_ns * 11 &&
	       p->makespan_ns * 50 <= cfs->makespan_ns * 51;
}

/*
 * A pinned run moves nothing: on phone-biglittle, a CPU-bound task of
 * 300 ms pinned to LITTLE CPU 0 (capacity 360) and one of three 50 ms
 * chunks with 1 ms gaps pinned to big CPU 4.  Once the big one ends, CPU 4
 * idles in WFI (its idles were short) and keeps its tick, which must not
 * pull the LITTLE one up as a misfit (the oracle's tasks are pinned, and
 * can_migrate_task() refuses a task whose affinity is one CPU): it runs
 * its 300 ms at capacity 360 on CPU 0, about 853 ms.
 */
static void test_pinned_stays_pinned(void **state)
{
	static const s16 pin[] = { 0, 4 };
	struct sim_opts o = { .pin = pin };
	struct sim_story s;
	struct sim_result r;

	assert_int_equal(load_file_model("models/phone-biglittle.model"), 0);
	parse_story("{ \"tasks\": { \"a\": { \"run\": 300000 }, "
		    "\"b\": { \"loop\": 3, \"run\": 50000, \"sleep\": 1000 } } }", &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_PINNED, &o, &r), 0);
	assert_int_equal(r.migrations, 0);
	assert_int_equal(r.lb_pulled, 0);
	assert_true(r.makespan_ns > 850000000ull);
	sim_story_free(&s);
}

/*
 * oracle-lat-su on a short mixed story on x86-2pkg (two UI threads of 2 ms
 * every 32 ms, two batch jobs of 100 ms chunks).  Under plain schedutil
 * the best pinning is cfs's (one batch job and one UI thread per package):
 * a UI thread alone on a package runs at 800 MHz, 8 ms instead of 2 ms,
 * and breaks the makespan bound.  With sp-power's floor (2400 MHz on
 * x86-2pkg) the batch jobs share package 0 and the UI threads package 1,
 * the schedule oracle-lat finds (batch under schedutil, UI at OPP 2).
 */
static void test_oracle_lat_su(void **state)
{
	struct sim_story s;
	struct sim_result cfs, rl, su, fl;

	assert_int_equal(load_file_model("models/x86-2pkg.model"), 0);
	parse_story("{ \"tasks\": { \"ui\": { \"instance\": 2, \"loop\": 12, "
		    "\"run\": 2000, \"sleep\": 30000 }, \"batch\": { \"instance\": 2, "
		    "\"loop\": 3, \"run\": 100000, \"sleep\": 1000 } } }", &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_CFS, NULL, &cfs), 0);
	assert_int_equal(sim_oracle_lat(&model, &s, &cfs, &rl), 0);
	assert_int_equal(sim_oracle_lat_su(&model, &s, &cfs, false, &su), 0);
	assert_int_equal(sim_oracle_lat_su(&model, &s, &cfs, true, &fl), 0);
	assert_int_equal(su.policy, SIM_POL_ORACLE_LAT_SU);
	assert_string_equal(su.plan, "pin=1/2/0/3 opp=su/su");
	assert_string_equal(fl.plan, "pin=2/3/0/1 opp=su/su floor");
	assert_string_equal(rl.plan, "pin=2/3/0/1 opp=su/2");
	assert_true(sim_total(&su) >= sim_total(&rl));
	assert_true(sim_total(&su) * 10 > sim_total(&cfs) * 9);
	assert_true(sim_total(&fl) == sim_total(&rl));
	assert_true(meets_lat(&su, &cfs) && meets_lat(&fl, &cfs));
	sim_story_free(&s);
}

/*
 * bound <= oracle <= oracle-lat <= every policy of @r[0..n) that meets
 * oracle-lat's bounds, and oracle-lat meets them itself.
 */
static void check_oracle_lat(const char *story, const char *model_path,
			     const struct sim_result *r, u32 n, const struct sim_result *cfs,
			     const struct sim_result *orc, const struct sim_result *olat,
			     const struct sim_result *lb)
{
	u32 p;

	if (!olat->makespan_ns)
		return;		/* n/a, or no static schedule meets the bounds */
	if (!meets_lat(olat, cfs))
		fail_msg("%s on %s: oracle-lat misses its bounds", story, model_path);
	if (sim_total(lb) > sim_total(olat) || lb->makespan_ns > olat->makespan_ns)
		fail_msg("%s on %s: bound above oracle-lat", story, model_path);
	if (!orc->makespan_ns || sim_total(orc) > sim_total(olat))
		fail_msg("%s on %s: oracle above oracle-lat", story, model_path);
	for (p = 0; p < n; p++) {
		if (r[p].policy >= SIM_POL_NR || !meets_lat(&r[p], cfs))
			continue;
		if (sim_total(olat) > sim_total(&r[p]))
			fail_msg("%s on %s: oracle-lat %.0f uJ above %s's %.0f uJ", story,
				 model_path, sim_uj(sim_total(olat)),
				 sim_policy_names[r[p].policy], sim_uj(sim_total(&r[p])));
	}
}

/*
 * oracle-lat-su searches a subset of oracle-lat's runs: it applies where
 * oracle-lat does, meets the same bounds, and is never below it.
 */
static void check_oracle_lat_su(const char *story, const char *model_path,
				const struct sim_result *cfs, const struct sim_result *olat,
				const struct sim_result *su)
{
	if (!su->makespan_ns)
		return;		/* n/a, or no pinning meets the bounds */
	if (!meets_lat(su, cfs))
		fail_msg("%s on %s: oracle-lat-su misses its bounds", story, model_path);
	if (!olat->makespan_ns || sim_total(olat) > sim_total(su))
		fail_msg("%s on %s: oracle-lat above oracle-lat-su", story, model_path);
}

/* Every story x policy (+ the oracles, bound) on @model_path, reports in @buf. */
static size_t run_all(const char *model_path, char **buf, bool check)
{
	static struct sim_result r[MAX_RESULTS];
	char err[SIM_ERR_LEN];
	size_t len = 0;
	glob_t g;
	u32 n = 0, i, p;
	FILE *f;

	assert_int_equal(load_file_model(model_path), 0);
	assert_int_equal(glob("tools/sim/stories/*.json", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 7 && g.gl_pathc <= 64);
	for (i = 0; i < g.gl_pathc; i++) {
		const struct sim_result *lb, *orc, *olat, *cfs;
		struct sim_story s;
		u32 first = n, pinnings;
		bool applies;

		if (sim_story_load(g.gl_pathv[i], &s, err, sizeof(err)))
			fail_msg("%s", err);
		for (p = 0; p < SIM_POL_NR; p++)
			assert_int_equal(sim_run(&model, &s, p, NULL, &r[n++]), 0);
		cfs = &r[first + SIM_POL_CFS];
		assert_true(sim_oracle(&model, &s, &r[n++]) >= 0);
		assert_true(sim_oracle_lat(&model, &s, cfs, &r[n++]) >= 0);
		assert_true(sim_oracle_lat_su(&model, &s, cfs, false, &r[n++]) >= 0);
		sim_lower_bound(&model, &s, &r[n++]);
		orc = &r[n - 4];
		olat = &r[n - 3];
		lb = &r[n - 1];
		pinnings = sim_oracle_pinnings(&model, &s);
		applies = pinnings <= SIM_ORACLE_MAX_PINNINGS;
		if (check && !!orc->searched != applies)
			fail_msg("%s on %s: %u pinnings, oracle searched %u", s.name,
				 model_path, pinnings, orc->searched);
		if (check) {
			check_oracle_lat(s.name, model_path, r + first, n - first, cfs, orc, olat, lb);
			check_oracle_lat_su(s.name, model_path, cfs, olat, &r[n - 2]);
		}
		for (p = first; check && p < n - 1; p++) {
			if (r[p].policy >= SIM_POL_ORACLE && !r[p].makespan_ns)
				continue;	/* n/a, none */
			if (sim_total(lb) > sim_total(&r[p]) || lb->makespan_ns > r[p].makespan_ns)
				fail_msg("%s on %s: bound %.0f uJ above %s's %.0f uJ",
					 s.name, model_path, sim_uj(sim_total(lb)),
					 sim_policy_names[r[p].policy], sim_uj(sim_total(&r[p])));
			if (orc->searched && sim_total(orc) > sim_total(&r[p]))
				fail_msg("%s on %s: oracle %.0f uJ above %s's %.0f uJ",
					 s.name, model_path, sim_uj(sim_total(orc)),
					 sim_policy_names[r[p].policy], sim_uj(sim_total(&r[p])));
			assert_true(r[p].makespan_ns > 0);
		}
		sim_story_free(&s);
	}
	globfree(&g);
	f = open_memstream(buf, &len);
	assert_non_null(f);
	sim_report_text(f, r, n);
	sim_report_csv(f, r, n);
	sim_report_ratios(f, r, n);
	sim_report_metrics(f, r, n);
	fclose(f);
	return len;
}

static void test_deterministic(void **state)
{
	char *a = NULL, *b = NULL;
	size_t la = run_all("models/x86-2pkg.model", &a, false);
	size_t lb = run_all("models/x86-2pkg.model", &b, false);

	assert_true(la > 1000);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	free(a);
	free(b);
}

static void test_bound_oracle_policies(void **state)
{
	static const char *const models[] = { "models/x86-2pkg.model",
		"models/phone-biglittle.model", "models/server-64.model",
		"models/server-256.model" };
	u32 i;

	for (i = 0; i < SP_ARRAY_SIZE(models); i++) {
		char *buf = NULL;

		run_all(models[i], &buf, true);
		free(buf);
	}
}

/* The same under SIM_PREEMPT_GRAN: the bound below, the oracle at or below every policy. */
static void test_bound_oracle_policies_gran(void **state)
{
	static const char *const models[] = { "models/x86-2pkg.model",
		"models/phone-biglittle.model", "models/server-64.model",
		"models/server-256.model" };
	u32 i;

	sim_set_preempt(SIM_PREEMPT_GRAN);
	for (i = 0; i < SP_ARRAY_SIZE(models); i++) {
		char *buf = NULL;

		run_all(models[i], &buf, true);
		free(buf);
	}
	sim_set_preempt(SIM_PREEMPT_VRUNTIME);	/* the default */
}

/* ---- stories ---- */

static void expect_error(const char *path, const char *what)
{
	struct sim_story s;
	char err[SIM_ERR_LEN] = "";

	assert_int_equal(sim_story_load(path, &s, err, sizeof(err)), -1);
	if (!strstr(err, path) || !strstr(err, what))
		fail_msg("%s: message \"%s\" lacks \"%s\"", path, err, what);
}

static int parse_str(const char *json, char *err, size_t len)
{
	struct sim_story s;

	return sim_story_parse(json, strlen(json), "x", &s, err, len);
}

static void test_story_errors(void **state)
{
	char err[SIM_ERR_LEN];

	expect_error("tools/sim/tests/bad_malformed.json", "2:1: malformed JSON");
	expect_error("tools/sim/tests/bad_unknown_key.json",
		     "tasks.t: unknown key \"wobble\"");
	expect_error("tools/sim/tests/bad_negative_period.json",
		     "tasks.t.timer.period: must be >= 0");
	expect_error("tools/sim/tests/bad_missing_tasks.json", "missing \"tasks\"");
	expect_error("tools/sim/tests/no_such_file.json", "No such file");
	assert_int_equal(parse_str("{\"tasks\":{\"t\":{\"loop\":-1,\"run\":5}}}",
				   err, sizeof(err)), -1);
	assert_non_null(strstr(err, "tasks.t.loop"));
	assert_int_equal(parse_str("{\"tasks\":{\"t\":{\"run\":\"5\"}}}",
				   err, sizeof(err)), -1);
	assert_non_null(strstr(err, "tasks.t.run: must be an integer"));
	assert_int_equal(parse_str("{\"tasks\":{\"t\":{\"phases\":{\"a\":"
				   "{\"sleep\":5,\"x\":1}}}}}", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "tasks.t.phases.a: unknown key \"x\""));
}

/* Every shipped story parses and has a description. */
static void test_stories_parse(void **state)
{
	char err[SIM_ERR_LEN];
	glob_t g;
	u32 i;

	assert_int_equal(glob("tools/sim/stories/*.json", 0, NULL, &g), 0);
	for (i = 0; i < g.gl_pathc; i++) {
		struct sim_story s;

		if (sim_story_load(g.gl_pathv[i], &s, err, sizeof(err)))
			fail_msg("%s", err);
		assert_true(strlen(s.desc) > 10);
		sim_story_free(&s);
	}
	globfree(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_task_by_hand),
		cmocka_unit_test(test_package_awake_while_a_cpu_halts),
		cmocka_unit_test(test_package_sleeps_when_all_deep),
		cmocka_unit_test(test_wakeup_charged_once),
		cmocka_unit_test(test_wakeups_split),
		cmocka_unit_test(test_energy_split),
		cmocka_unit_test(test_energy_split_sums),
		cmocka_unit_test(test_floor_gap_scene),
		cmocka_unit_test(test_idle_exit_seen_at_end),
		cmocka_unit_test(test_group_up_for_second_cpu),
		cmocka_unit_test(test_group_active_for_first_cpu_up),
		cmocka_unit_test(test_timer_by_hand),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_cfs_affine_wakeup),
		cmocka_unit_test(test_cfs_idle_sibling),
		cmocka_unit_test(test_cfs_idle_core_sis_util),
		cmocka_unit_test(test_cfs_busy_balance_interval),
		cmocka_unit_test(test_cfs_fork_idlest),
		cmocka_unit_test(test_cfs_balance_between_packages),
		cmocka_unit_test(test_cfs_misfit_moves_up),
		cmocka_unit_test(test_cfs_no_kick_for_biggest_misfit),
		cmocka_unit_test(test_decisions_file),
		cmocka_unit_test(test_sp_wakeup_sees_util_est),
		cmocka_unit_test(test_eas_sees_util_est),
		cmocka_unit_test(test_cfs_no_pull_down),
		cmocka_unit_test(test_cfs_misfit_balance),
		cmocka_unit_test(test_observe_is_cfs),
		cmocka_unit_test(test_x86_16_is_synthetic),
		cmocka_unit_test(test_metrics_pkg_level),
		cmocka_unit_test(test_queued_beside_awake_idle),
		cmocka_unit_test(test_cfs_newidle_dice),
		cmocka_unit_test(test_cfs_newidle_dice_build),
		cmocka_unit_test(test_gate_keeps_light_pair),
		cmocka_unit_test(test_gate_keeps_heavy_pair),
		cmocka_unit_test(test_gate_wakes_periodic_package),
		cmocka_unit_test(test_gate_passes_waiting),
		cmocka_unit_test(test_bound_by_hand),
		cmocka_unit_test(test_bound_opp_below_idle),
		cmocka_unit_test(test_vrt_long_sleeper_preempts_at_once),
		cmocka_unit_test(test_vrt_second_sleeper_waits_gran),
		cmocka_unit_test(test_vrt_tick_by_slice),
		cmocka_unit_test(test_oracle_matches_brute_force),
		cmocka_unit_test(test_oracle_not_applicable),
		cmocka_unit_test(test_pinned_stays_pinned),
		cmocka_unit_test(test_oracle_lat_su),
		cmocka_unit_test(test_story_errors),
		cmocka_unit_test(test_stories_parse),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_bound_oracle_policies),
		cmocka_unit_test(test_bound_oracle_policies_gran),
	};

	return cmocka_run_group_tests_name("sim", tests, NULL, NULL);
}
