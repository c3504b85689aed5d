// SPDX-License-Identifier: GPL-2.0
/*
 * test_sim.c - the simulator engine (tools/sim): hand-computed runs,
 * determinism, story errors, and the lower bound below every policy.
 */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sim.h"

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

static struct sp_model model;

static void load_two_cpu(void)
{
	struct sp_parse_error pe;

	assert_int_equal(sp_model_parse(two_cpu_model, strlen(two_cpu_model),
					&model, &pe), 0);
}

static void parse_story(const char *json, struct sim_story *s)
{
	char err[SIM_ERR_LEN];
	int rc = sim_story_parse(json, strlen(json), "inline", s, err, sizeof(err));

	if (rc)
		fail_msg("%s", err);
}

/* uJ of @e, exactly (all hand cases are whole uJ). */
static u64 uj(sim_fj e)
{
	assert_true(e % 1000000000u == 0);
	return (u64)(e / 1000000000u);
}

/*
 * One task, 1000 us of work, spread.  At t = 0 both CPUs sleep; the task
 * goes to CPU 0, whose utilisation is 0, so the pd stays at OPP0 (cap 512):
 * the work takes 1000 * 1024 / 512 = 2000 us, before the first tick (4 ms).
 *	busy: CPU0 300 mW x 2 ms = 600 uJ, package awake 100 mW x 2 ms = 200
 *	idle: CPU1 10 mW x 2 ms = 20 uJ (CPU0 and the package never idle)
 *	wake: CPU0 5 uJ + package 20 uJ = 25 uJ, zero exit latency
 * Total 845 uJ, makespan 2000 us, one wake-up of latency 0.
 */
static void test_one_task_by_hand(void **state)
{
	struct sim_story s;
	struct sim_result r;

	load_two_cpu();
	parse_story("{ \"tasks\": { \"t\": { \"run\": 1000 } } }", &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SPREAD, NULL, &r), 0);
	assert_int_equal(r.makespan_ns, 2000000);
	assert_int_equal(uj(r.e_busy), 800);
	assert_int_equal(uj(r.e_idle), 20);
	assert_int_equal(uj(r.e_wake), 25);
	assert_int_equal(uj(sim_total(&r)), 845);
	assert_int_equal(r.wakeups, 1);
	assert_int_equal(r.lat_max_ns, 0);
	assert_int_equal(r.pkg_wakeups, 1);
	assert_int_equal(r.migrations, 0);

	/*
	 * The bound: T_lb = max(1000 us alone at cap 1024, 1000 us / 2 CPUs)
	 * = 1000 us.  CPU floor 2 x 10 mW x 1 ms = 20 uJ, package floor 10 mW
	 * x 1 ms = 10 uJ; busy excess min((300 - 10) mW x 2000 us, (1000 - 10)
	 * mW x 1000 us) = 580 uJ; package excess (100 - 10) mW / 2 CPUs x
	 * 1000 us = 45 uJ; first wake 5 + 20 = 25 uJ.  Total 680 uJ.
	 */
	sim_lower_bound(&model, &s, &r);
	assert_int_equal(r.makespan_ns, 1000000);
	assert_int_equal(uj(r.e_idle), 30);
	assert_int_equal(uj(r.e_busy), 625);
	assert_int_equal(uj(r.e_wake), 25);
	sim_story_free(&s);
}

/*
 * Two such tasks, spread: CPU 0 then CPU 1 (CPU 0 is busy once the first
 * is placed).  Each runs 2000 us at OPP0: busy 2 x 600 + package 200 =
 * 1400 uJ, idle 0, wake 2 x 5 + 20 (the package wakes once) = 30 uJ.
 */
static void test_two_tasks_by_hand(void **state)
{
	struct sim_story s;
	struct sim_result r;

	load_two_cpu();
	parse_story("{ \"tasks\": { \"t\": { \"instance\": 2, \"run\": 1000 } } }", &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SPREAD, NULL, &r), 0);
	assert_int_equal(r.makespan_ns, 2000000);
	assert_int_equal(uj(r.e_busy), 1400);
	assert_int_equal(uj(r.e_idle), 0);
	assert_int_equal(uj(r.e_wake), 30);
	assert_int_equal(r.pkg_wakeups, 1);
	sim_story_free(&s);
}

/*
 * A timer: 200 us of work then "timer" with period 1000 us, 3 times.  Each
 * run takes 400 us at OPP0.  The timer is first reached at 400 us, so it
 * expires at 1400, 2400 and 3400 us: runs at 0, 1400 and 2400 us, and the
 * task ends when its last wait ends, at 3400 us.  CPU 0 is woken at 1400
 * and 2400 us; with the single idle state every residency is a hit.
 */
static void test_timer_by_hand(void **state)
{
	struct sim_story s;
	struct sim_result r;

	load_two_cpu();
	parse_story("{ \"tasks\": { \"t\": { \"loop\": 3, \"run\": 200, "
		    "\"timer\": { \"ref\": \"p\", \"period\": 1000 } } } }", &s);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SPREAD, NULL, &r), 0);
	assert_int_equal(r.makespan_ns, 3400000);
	assert_int_equal(r.wakeups, 3);
	assert_int_equal(r.verdict[SIM_V_HIT], 2);
	assert_int_equal(r.verdict[SIM_V_EARLY] + r.verdict[SIM_V_LATE], 0);
	/*
	 * busy: CPU0 3 x 400 us x 300 mW = 360 uJ, package awake 3 x 400 us
	 * x 100 mW = 120 uJ; idle: CPU1 3400 us x 10 mW = 34 uJ, CPU0 asleep
	 * 1000 + 600 + 600 = 2200 us x 10 mW = 22 uJ, the package as long,
	 * 22 uJ; wake: 3 x (5 + 20) = 75 uJ
	 */
	assert_int_equal(r.pkg_wakeups, 3);
	assert_int_equal(uj(r.e_busy), 480);
	assert_int_equal(uj(r.e_idle), 78);
	assert_int_equal(uj(r.e_wake), 75);
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

static int load_file_model(const char *path)
{
	char err[SIM_ERR_LEN];

	if (sim_model_load(path, &model, err, sizeof(err))) {
		print_error("%s\n", err);
		return -1;
	}
	return 0;
}

/* Every story x policy on @model_path, the text and CSV reports in @buf. */
static size_t run_all(const char *model_path, char **buf, bool check_bound)
{
	struct sim_result r[64 * SIM_POL_ALL];
	char err[SIM_ERR_LEN];
	size_t len = 0;
	glob_t g;
	u32 n = 0, i, p;
	FILE *f;

	assert_int_equal(load_file_model(model_path), 0);
	assert_int_equal(glob("tools/sim/stories/*.json", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 7 && g.gl_pathc <= 64);
	for (i = 0; i < g.gl_pathc; i++) {
		struct sim_story s;
		u32 first = n;

		if (sim_story_load(g.gl_pathv[i], &s, err, sizeof(err)))
			fail_msg("%s", err);
		for (p = 0; p < SIM_POL_NR; p++)
			assert_int_equal(sim_run(&model, &s, p, NULL, &r[n++]), 0);
		sim_lower_bound(&model, &s, &r[n++]);
		for (p = first; check_bound && p + 1 < n; p++) {
			if (sim_total(&r[n - 1]) > sim_total(&r[p]) ||
			    r[n - 1].makespan_ns > r[p].makespan_ns)
				fail_msg("%s on %s: bound %.0f uJ above %s's %.0f uJ",
					 s.name, model_path, sim_uj(sim_total(&r[n - 1])),
					 sim_policy_names[r[p].policy],
					 sim_uj(sim_total(&r[p])));
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

static void test_bound_below_every_policy(void **state)
{
	static const char *const models[] = { "models/x86-2pkg.model",
		"models/phone-biglittle.model", "models/server-64.model" };
	u32 i;

	for (i = 0; i < SP_ARRAY_SIZE(models); i++) {
		char *buf = NULL;

		run_all(models[i], &buf, true);
		free(buf);
	}
}

/* observe and performance keep CFS's choice: identical to spread. */
static void test_observe_is_spread(void **state)
{
	struct sim_story s;
	struct sim_result a, b, c;
	char err[SIM_ERR_LEN];

	assert_int_equal(load_file_model("models/x86-2pkg.model"), 0);
	if (sim_story_load("tools/sim/stories/video.json", &s, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SP_OBSERVE, NULL, &a), 0);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SP_PERFORMANCE, NULL, &b), 0);
	assert_int_equal(sim_run(&model, &s, SIM_POL_SPREAD, NULL, &c), 0);
	assert_true(sim_total(&a) == sim_total(&c) && sim_total(&b) == sim_total(&c));
	assert_int_equal(a.lat_p99_ns, c.lat_p99_ns);
	sim_story_free(&s);
}

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
		cmocka_unit_test(test_two_tasks_by_hand),
		cmocka_unit_test(test_timer_by_hand),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_story_errors),
		cmocka_unit_test(test_stories_parse),
		cmocka_unit_test(test_observe_is_spread),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_bound_below_every_policy),
	};

	return cmocka_run_group_tests_name("sim", tests, NULL, NULL);
}
