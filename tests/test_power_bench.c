// SPDX-License-Identifier: GPL-2.0
/*
 * test_power_bench.c - power-bench's host side, on hand cases:
 * the story as rt-app 1.0 JSON and its nominal length (rtapp_story.c), the
 * trace metrics (pb-trace.awk) and the aggregation (pb-report.awk), the
 * latter two under the host's awk and, if present, busybox awk (the guest's).
 * Expected values are worked out in the comments beside each case.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "rtapp_story.h"

#ifndef PB_TOP
#define PB_TOP "."
#endif

/*
 * p: 3 x (run 1000, timer 10000); its timer first expires 10000 after first
 *    use, at 11000, then 21000, 31000: length 31000, work 3000, 3 rows.
 * w: 2 instances x 2 x (phase a: 2 x (run 500, sleep 1500), phase b: sleep
 *    4000): per instance 2 x (4000 + 4000) = 16000, work 2000, 2 x 3 rows.
 */
static const char story_text[] =
	"{ \"global\": { \"description\": \"hand case\" }, \"tasks\": {"
	" \"p\": { \"loop\": 3, \"run\": 1000, \"timer\": { \"ref\": \"t\", \"period\": 10000 } },"
	" \"w\": { \"instance\": 2, \"loop\": 2, \"phases\": {"
	"   \"a\": { \"loop\": 2, \"run\": 500, \"sleep\": 1500 }, \"b\": { \"sleep\": 4000 } } } } }";

static void parse(const char *text, struct sim_story *s)
{
	char err[SIM_ERR_LEN];

	assert_int_equal(sim_story_parse(text, strlen(text), "hand.json", s, err, sizeof(err)), 0);
}

static json_object *at(json_object *o, const char *path)
{
	char buf[128], *save, *key;

	snprintf(buf, sizeof(buf), "%s", path);
	for (key = strtok_r(buf, ".", &save); key; key = strtok_r(NULL, ".", &save)) {
		json_object *next;

		if (!json_object_object_get_ex(o, key, &next))
			fail_msg("no %s in the rt-app JSON", path);
		o = next;
	}
	return o;
}

static int64_t at_int(json_object *o, const char *path)
{
	return json_object_get_int64(at(o, path));
}

static void test_meta(void **state)
{
	struct rtapp_meta m;
	struct sim_story s;

	parse(story_text, &s);
	rtapp_story_meta(&s, 4, &m);
	assert_int_equal(m.threads, 3);
	assert_int_equal(m.rows, 3 + 2 * 2 * 3);
	assert_int_equal(m.work_us, 3000 + 2 * 2000);
	assert_int_equal(m.length_us, 31000);	/* > work / 4 CPUs = 1750 */
	sim_story_free(&s);
}

/* 8 x 10 ms of work on 4 CPUs: the even spread, 20 ms, is the longer. */
static void test_meta_spread(void **state)
{
	static const char text[] =
		"{ \"tasks\": { \"c\": { \"instance\": 8, \"loop\": 1, \"run\": 10000 } } }";
	struct rtapp_meta m;
	struct sim_story s;

	parse(text, &s);
	rtapp_story_meta(&s, 4, &m);
	assert_int_equal(m.length_us, 20000);
	assert_int_equal(m.rows, 8);
	sim_story_free(&s);
}

static void test_json(void **state)
{
	struct rtapp_opts o = { .calib_ns_per_loop = 395, .logdir = "/tmp/pb/log" };
	json_object *j, *v;
	struct sim_story s;

	parse(story_text, &s);
	j = rtapp_story_json(&s, &o);
	assert_non_null(j);
	/* A task without phases gets one, and a finite thread loop. */
	assert_int_equal(at_int(j, "tasks.p.loop"), 3);
	assert_int_equal(at_int(j, "tasks.p.phases.p0.loop"), 1);
	assert_int_equal(at_int(j, "tasks.p.phases.p0.run0"), 1000);
	assert_string_equal(json_object_get_string(at(j, "tasks.p.phases.p0.timer1.ref")), "unique0");
	assert_string_equal(json_object_get_string(at(j, "tasks.p.phases.p0.timer1.mode")), "absolute");
	assert_int_equal(at_int(j, "tasks.p.phases.p0.timer1.period"), 10000);
	assert_int_equal(at_int(j, "tasks.w.instance"), 2);
	assert_int_equal(at_int(j, "tasks.w.phases.p0.loop"), 2);
	assert_int_equal(at_int(j, "tasks.w.phases.p0.sleep1"), 1500);
	assert_int_equal(at_int(j, "tasks.w.phases.p1.sleep0"), 4000);
	assert_int_equal(at_int(j, "global.calibration"), 395);
	assert_false(json_object_get_boolean(at(j, "global.lock_pages")));
	assert_string_equal(json_object_get_string(at(j, "global.logdir")), "/tmp/pb/log");
	assert_false(json_object_object_get_ex(at(j, "global"), "duration", &v));
	json_object_put(j);

	o.calib_ns_per_loop = 0;
	o.duration_s = 7;
	j = rtapp_story_json(&s, &o);
	assert_string_equal(json_object_get_string(at(j, "global.calibration")), "CPU0");
	assert_int_equal(at_int(j, "global.duration"), 7);
	json_object_put(j);
	sim_story_free(&s);
}

/* ---- awk scripts ------------------------------------------------------ */

static const char *awks[] = { "awk", "busybox awk" };

static int have_awk(const char *awk)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "echo | %s '{}' >/dev/null 2>&1", awk);
	return system(cmd) == 0;
}

struct trace {
	char path[64];
	FILE *f;
};

static void trace_open(struct trace *t)
{
	int fd;

	snprintf(t->path, sizeof(t->path), "/tmp/pb-test-XXXXXX");
	fd = mkstemp(t->path);
	assert_true(fd >= 0);
	t->f = fdopen(fd, "w");
	assert_non_null(t->f);
}

/* One event in trace-cmd's `report -N -t` layout; @t_ns absolute. */
static void ev(struct trace *t, unsigned cpu, unsigned long long t_ns, const char *event,
	       const char *fmt, ...)
{
	va_list ap;

	fprintf(t->f, "%16s-%-5d [%03u] %6llu.%09llu: %-20s ", "sh", 1, cpu,
		t_ns / 1000000000ULL, t_ns % 1000000000ULL, event);
	va_start(ap, fmt);
	vfprintf(t->f, fmt, ap);
	va_end(ap);
	fputc('\n', t->f);
}

static void trace_close(struct trace *t)
{
	fclose(t->f);
}

/* Run @script (a file of tools/power-bench) with @vars on @input; the output. */
static char *run_awk(const char *awk, const char *script, const char *vars, const char *input)
{
	static char out[4096];
	char cmd[1024];
	size_t n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s %s -f %s/tools/power-bench/%s %s", awk, vars, PB_TOP,
		 script, input);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = 0;
	assert_int_equal(pclose(p), 0);
	return out;
}

/* The value of KEY=VALUE in @line (first occurrence), as a string. */
static const char *val(const char *line, const char *key)
{
	static char v[64];
	char pat[64];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	if (!p && !strncmp(line, pat + 1, strlen(pat) - 1))
		p = line - 1;
	if (!p)
		fail_msg("no %s in: %s", key, line);
	p += strlen(pat);
	n = strcspn(p, " \n");
	snprintf(v, sizeof(v), "%.*s", (int)n, p);
	return v;
}

struct expect {
	const char *key;
	const char *value;
};

typedef void (*trace_writer)(struct trace *t, int arg);

/*
 * Write a trace with @write(@arg), run pb-trace.awk on it with the window
 * @window (story thread "w", packages 0,0,1,1) under each awk present, and
 * check every expected key=value of its output.
 */
static void check_trace(trace_writer write, int arg, const char *window,
			const struct expect *e, size_t n)
{
	char vars[160];
	const char *out;
	struct trace t;
	unsigned a;
	size_t i;

	trace_open(&t);
	write(&t, arg);
	trace_close(&t);
	snprintf(vars, sizeof(vars), "%s -v tasks=w -v pkgs=0,0,1,1", window);
	for (a = 0; a < 2; a++) {
		if (!have_awk(awks[a]))
			continue;
		out = run_awk(awks[a], "pb-trace.awk", vars, t.path);
		for (i = 0; i < n; i++)
			assert_string_equal(val(out, e[i].key), e[i].value);
	}
	unlink(t.path);
}

#define CHECK_TRACE(write, arg, window, exp) \
	check_trace(write, arg, window, exp, sizeof(exp) / sizeof(exp[0]))

#define S(x) (x##ULL * 1000000000ULL)
#define MS(x) (x##ULL * 1000000ULL)
#define US(x) ((unsigned long long)(x) * 1000ULL)

/*
 * Latency: 100 wake-ups of story thread "w" (pid 10), the i-th waiting i us
 * for its CPU: nearest rank p50 = 50, p99 = 99, max = 100.  Ignored: a
 * waking while "w" runs, a second waking before it runs, a waking of a
 * thread outside the story, one outside W = [1 s, 3 s].
 */
static void write_latency_trace(struct trace *t, int unused)
{
	unsigned long long t0 = S(1), ts;
	unsigned i;

	ev(t, 0, S(1) - MS(1), "sched_waking", "comm=w pid=10 prio=120 target_cpu=000");
	ev(t, 0, S(1) - MS(1) + US(3), "sched_switch",
	   "prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=w next_pid=10 next_prio=120");
	ev(t, 0, S(1) - US(500), "sched_switch",
	   "prev_comm=w prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120");
	for (i = 1; i <= 100; i++) {
		ts = t0 + i * MS(10);
		ev(t, 1, ts, "sched_waking", "comm=w pid=10 prio=120 target_cpu=000");
		if (i == 7)
			ev(t, 1, ts + 1000, "sched_waking", "comm=w pid=10 prio=120 target_cpu=000");
		ev(t, 1, ts + 1500, "sched_waking", "comm=other pid=20 prio=120 target_cpu=001");
		ev(t, 0, ts + US(i), "sched_switch",
		   "prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=w next_pid=10 next_prio=120");
		ev(t, 1, ts + US(i) + 2000, "sched_waking", "comm=w pid=10 prio=120 target_cpu=000");
		ev(t, 0, ts + US(i) + US(100), "sched_switch",
		   "prev_comm=w prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120");
	}
	ev(t, 0, S(3) + MS(100), "sched_waking", "comm=w pid=10 prio=120 target_cpu=000");
}

static void test_trace_latency(void **state)
{
	static const struct expect exp[] = {
		{ "wakeups", "100" }, { "lat_p50_us", "50.0" }, { "lat_p99_us", "99.0" },
		{ "lat_max_us", "100.0" }, { "trace_status", "ok" },
	};

	CHECK_TRACE(write_latency_trace, 0, "-v t0_us=1000000 -v t1_us=3000000", exp);
}

/*
 * Packages 0 = CPUs 0-1, 1 = CPUs 2-3, W = [10 s, 11 s].
 * CPU0: enters idle at 10.0 (so awake before), exits 10.1, idle 10.5.
 * CPU1: no event at all, ran nothing: idle.
 * CPU2: first event an exit at 10.3 (so idle before), idle again 10.7.
 * CPU3: @cpu3_runs: only a switch to a task at 10.9 (awake all along); else silent.
 * Package 0 is awake [10.1, 10.5], package 1 [10.3, 10.7] (or all of W).
 * Both awake: 0.2 s = 0.2 of W (or 0.4).  Package wake-ups in W: 0 at 10.1,
 * 1 at 10.3 (or not: it never slept).
 */
static void write_package_trace(struct trace *t, int cpu3_runs)
{
	ev(t, 0, S(10), "cpu_idle", "state=1 cpu_id=0");
	ev(t, 0, S(10) + MS(100), "cpu_idle", "state=4294967295 cpu_id=0");
	ev(t, 2, S(10) + MS(300), "cpu_idle", "state=4294967295 cpu_id=2");
	ev(t, 0, S(10) + MS(500), "cpu_idle", "state=1 cpu_id=0");
	ev(t, 2, S(10) + MS(700), "cpu_idle", "state=1 cpu_id=2");
	if (cpu3_runs)
		ev(t, 3, S(10) + MS(900), "sched_switch",
		   "prev_comm=swapper/3 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b next_pid=77 next_prio=120");
	ev(t, 2, S(11) + MS(1), "cpu_idle", "state=4294967295 cpu_id=2");
}

static void test_trace_packages(void **state)
{
	static const struct expect cpu3_idle[] = {
		{ "both_pkgs_awake_share", "0.2000" }, { "pkg_wakeups", "2" },
	};
	static const struct expect cpu3_runs[] = {
		{ "both_pkgs_awake_share", "0.4000" }, { "pkg_wakeups", "1" },
	};

	CHECK_TRACE(write_package_trace, 0, "-v t0_us=10000000 -v t1_us=11000000", cpu3_idle);
	CHECK_TRACE(write_package_trace, 1, "-v t0_us=10000000 -v t1_us=11000000", cpu3_runs);
}

/*
 * W = [10 s, 11 s].  Migrations of "w" (pid 10): 0 -> 2 counts; 1 -> 1 (6.1
 * fires the event for it) does not, nor another thread's, nor one outside W:
 * 1, 1.00 per second.
 * Decisions of "w": 0.1 chosen_cpu 1 of prev 0 (same package), 2 of prev 0
 * (not), a fork (0x4, skipped), 0x18 (TTWU | SYNC: a wake-up) 0 of prev 1
 * (same); 0.2 ret_cpu 3 of prev 2 (same), an exec (skipped): 3 of 4 = 0.75.
 * sched_waking / sched_wakeup pairs: 0 -> 2 (not), 1 -> 0 (same): 0.5.
 */
static void write_placement_trace(struct trace *t, int unused)
{
	static const char *sel[] = {
		"pid=10 comm=w util=5 prev_cpu=0 cfs_cpu=0 chosen_cpu=1 wake_flags=0x8 reason=cfs_cheapest",
		"pid=10 comm=w util=5 prev_cpu=0 cfs_cpu=0 chosen_cpu=2 wake_flags=0x8 reason=cfs_cheapest",
		"pid=10 comm=w util=5 prev_cpu=0 cfs_cpu=3 chosen_cpu=3 wake_flags=0x4 reason=cfs_cheapest",
		"pid=10 comm=w util=5 prev_cpu=1 cfs_cpu=0 chosen_cpu=0 wake_flags=0x18 reason=mode",
		"pid=10 comm=w util=5 prev_cpu=2 cfs_cpu=2 policy_cpu=0 ret_cpu=3 applied=0 wake=wakeup mode=observe",
		"pid=10 comm=w util=5 prev_cpu=2 cfs_cpu=0 policy_cpu=0 ret_cpu=0 applied=0 wake=exec mode=observe",
	};
	unsigned i;

	ev(t, 0, S(10), "cpu_idle", "state=1 cpu_id=0");
	ev(t, 0, S(10) + MS(1), "sched_migrate_task", "comm=w pid=10 prio=120 orig_cpu=0 dest_cpu=2");
	ev(t, 0, S(10) + MS(2), "sched_migrate_task", "comm=w pid=10 prio=120 orig_cpu=1 dest_cpu=1");
	ev(t, 0, S(10) + MS(3), "sched_migrate_task", "comm=k pid=30 prio=120 orig_cpu=0 dest_cpu=3");
	ev(t, 0, S(11) + MS(3), "sched_migrate_task", "comm=w pid=10 prio=120 orig_cpu=0 dest_cpu=3");
	for (i = 0; i < 6; i++)
		ev(t, 1, S(10) + MS(10) + i * MS(1), "sched_power_select", sel[i]);
	ev(t, 1, S(10) + MS(20), "sched_waking", "comm=w pid=10 prio=120 target_cpu=000");
	ev(t, 2, S(10) + MS(21), "sched_wakeup", "comm=w pid=10 prio=120 target_cpu=002");
	ev(t, 2, S(10) + MS(22), "sched_switch",
	   "prev_comm=swapper/2 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=w next_pid=10 next_prio=120");
	ev(t, 2, S(10) + MS(23), "sched_switch",
	   "prev_comm=w prev_pid=10 prev_prio=120 prev_state=S ==> next_comm=swapper/2 next_pid=0 next_prio=120");
	ev(t, 1, S(10) + MS(30), "sched_waking", "comm=w pid=10 prio=120 target_cpu=001");
	ev(t, 0, S(10) + MS(31), "sched_wakeup", "comm=w pid=10 prio=120 target_cpu=000");
	ev(t, 0, S(11) + MS(5), "cpu_idle", "state=1 cpu_id=0");
}

static void test_trace_placement(void **state)
{
	static const struct expect exp[] = {
		{ "migrations", "1" }, { "migrations_per_s", "1.00" }, { "select_wakeups", "4" },
		{ "prev_pkg_share", "0.7500" }, { "prev_pkg_src", "select" },
		{ "prev_pkg_share_ttwu", "0.5000" },
	};

	CHECK_TRACE(write_placement_trace, 0, "-v t0_us=10000000 -v t1_us=11000000", exp);
}

/* The kernel's own text (a flags column, microseconds) parses the same. */
static void write_kernel_text(struct trace *t, int unused)
{
	fprintf(t->f, "# tracer: nop\n#\n");
	fprintf(t->f, "          <idle>-0       [001] d.s3.    10.100000: sched_waking: comm=w pid=10 prio=120 target_cpu=001\n");
	fprintf(t->f, "          <idle>-0       [001] d..2.    10.100250: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=w next_pid=10 next_prio=120\n");
	fprintf(t->f, "              sh-108     [003] .....    10.000001: tracing_mark_write: pb_reset\n");
	fprintf(t->f, "              sh-108     [003] .....    11.200000: tracing_mark_write: pb_read\n");
}

static void test_trace_kernel_format(void **state)
{
	static const struct expect exp[] = {
		{ "wakeups", "1" }, { "lat_max_us", "250.0" },
		{ "startup_us", "49999" }, { "teardown_us", "150000" },
	};

	CHECK_TRACE(write_kernel_text, 0, "-v t0_us=10050000 -v t1_us=11050000", exp);
}

/*
 * Runs of story s: not_loaded makespans 100, 300, 200 (median 200);
 * observe 110, 130 (lower median 110; energy 1000, 2000 -> 1000); power one
 * run ok (energy 800) and one incomplete, which does not count.
 * Ratios: observe makespan 110 / 200 = 0.550; power energy 800 / 1000 = 0.800.
 */
static void test_report(void **state)
{
	static const char *runs[] = {
		"config=not_loaded rep=1 status=ok makespan_us=100 energy_uj=- energy_src=- model_uj=-",
		"config=not_loaded rep=2 status=ok makespan_us=300 energy_uj=- energy_src=- model_uj=-",
		"config=not_loaded rep=3 status=ok makespan_us=200 energy_uj=- energy_src=- model_uj=-",
		"config=observe rep=1 status=ok makespan_us=130 energy_uj=2000 energy_src=model model_uj=2000",
		"config=observe rep=2 status=ok makespan_us=110 energy_uj=1000 energy_src=model model_uj=1000",
		"config=power rep=1 status=ok makespan_us=150 energy_uj=800 energy_src=model model_uj=800",
		"config=power rep=2 status=incomplete makespan_us=10 energy_uj=1 energy_src=model model_uj=1",
	};
	char line[512];
	const char *out;
	struct trace t;
	unsigned a, i;

	trace_open(&t);
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		fprintf(t.f, "pb-result story=s %s\n", runs[i]);
	trace_close(&t);
	for (a = 0; a < 2; a++) {
		if (!have_awk(awks[a]))
			continue;
		out = run_awk(awks[a], "pb-report.awk", "-v fmt=csv", t.path);
		/* Columns by header name: turn the CSV into key=value lines. */
		assert_non_null(strstr(out, "\ns,not_loaded,3,3,200,"));
		assert_non_null(strstr(out, "\ns,observe,2,2,110,1000,1000,"));
		assert_non_null(strstr(out, "\ns,power,1,2,150,800,800,"));
		snprintf(line, sizeof(line), "%s", strstr(out, "\ns,power,"));
		assert_non_null(strstr(line, ",model,0.800,observe,0.800,"));
		snprintf(line, sizeof(line), "%s", strstr(out, "\ns,observe,"));
		assert_non_null(strstr(line, ",1.000,observe,1.000,0.550,"));
	}
	unlink(t.path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meta),
		cmocka_unit_test(test_meta_spread),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_trace_latency),
		cmocka_unit_test(test_trace_packages),
		cmocka_unit_test(test_trace_placement),
		cmocka_unit_test(test_trace_kernel_format),
		cmocka_unit_test(test_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
