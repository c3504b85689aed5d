// SPDX-License-Identifier: GPL-2.0
/*
 * test_power_bench.c - power-bench's host side, on hand cases: the story as
 * rt-app 1.0 JSON and its nominal length (rtapp_story.c), the energy meters
 * on fake sysfs trees (pb-meter.sh, under the host's sh and, if present,
 * busybox sh: the guest's) and the reports (pb-stats, pb-queued.sh).  The
 * trace metrics are sp-report's (tests/test_report.c).  Expected values are
 * worked out in the comments beside each case.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

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

/* ---- shell and tools ---------------------------------------------------- */

static const char *shells[] = { "sh", "busybox sh" };

static int have_shell(const char *sh)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "%s -c true >/dev/null 2>&1", sh);
	return system(cmd) == 0;
}

/* The first line of @cmd's output (no newline); the command must succeed. */
static char *run(const char *cmd)
{
	static char out[8192];
	size_t n;
	FILE *p;

	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = 0;
	assert_int_equal(pclose(p), 0);
	out[strcspn(out, "\n")] = 0;
	return out;
}

/* ---- the meters on fake sysfs trees (pb-meter.sh) -------------------------- */

static char sysfs[64];

static void put(const char *rel, const char *value)
{
	char path[256], cmd[512];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s/%s)\"", sysfs, rel);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/%s", sysfs, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", value);
	fclose(f);
}

static int sysfs_setup(void **state)
{
	snprintf(sysfs, sizeof(sysfs), "/tmp/pb-sysfs-XXXXXX");
	return mkdtemp(sysfs) ? 0 : -1;
}

static int sysfs_teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", sysfs);
	return system(cmd);
}

/* @sh runs @script with pb-meter.sh sourced and PB_SYSFS at the fake tree. */
static char *meter_sh(const char *sh, const char *script)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), "PB_SYSFS=%s %s -c '. %s/tools/power-bench/pb-meter.sh; %s'",
		 sysfs, sh, PB_TOP, script);
	return run(cmd);
}

/* The meters pb-meter.sh finds under the fake tree, as "rapl,hwmon,". */
static char *meters_present(const char *sh)
{
	return meter_sh(sh, "meters_present | tr \"\\n\" ,");
}

/* meter_delta of meter @kind read before and after the commands @change. */
static char *meter_delta_over(const char *sh, const char *kind, const char *change)
{
	char script[1024];

	snprintf(script, sizeof(script),
		 "b=$(meter_read %s); %s; meter_delta \"$b\" \"$(meter_read %s)\"",
		 kind, change, kind);
	return meter_sh(sh, script);
}

/* An empty fake tree again, for the next shell. */
static void sysfs_renew(void **state)
{
	sysfs_teardown(state);
	sysfs_setup(state);
}

/*
 * Two RAPL packages (a subzone beside them is not counted): package 0
 * wraps from 3900 to 100 at 4000 (+200), package 1 goes 500 -> 700 (+200).
 */
static void test_meter_rapl(void **state)
{
	unsigned i;

	for (i = 0; i < 2; i++) {
		if (!have_shell(shells[i]))
			continue;
		put("class/powercap/intel-rapl:0/energy_uj", "3900");
		put("class/powercap/intel-rapl:0/max_energy_range_uj", "4000");
		put("class/powercap/intel-rapl:0:0/energy_uj", "50");
		put("class/powercap/intel-rapl:1/energy_uj", "500");
		put("class/powercap/intel-rapl:1/max_energy_range_uj", "1000");
		assert_string_equal(meters_present(shells[i]), "rapl,");
		assert_string_equal(meter_delta_over(shells[i], "rapl",
			"echo 100 >$PB_SYSFS/class/powercap/intel-rapl:0/energy_uj;"
			" echo 700 >$PB_SYSFS/class/powercap/intel-rapl:1/energy_uj"), "400");
		sysfs_renew(state);
	}
}

/*
 * hwmon energy counters (uJ): hwmon0/energy1_input and the older layout
 * hwmon1/device/energy2_input; a temperature and a non-number are not
 * counters.  1000 -> 1500 and 10 -> 30: 520.  A counter that goes back
 * (no maximum to wrap at) or one that disappears gives "-".
 */
static void test_meter_hwmon(void **state)
{
	unsigned i;

	for (i = 0; i < 2; i++) {
		if (!have_shell(shells[i]))
			continue;
		put("class/hwmon/hwmon0/energy1_input", "1000");
		put("class/hwmon/hwmon1/device/energy2_input", "10");
		put("class/hwmon/hwmon2/temp1_input", "45000");
		put("class/hwmon/hwmon3/energy1_input", "n/a");
		assert_string_equal(meters_present(shells[i]), "hwmon,");
		assert_string_equal(meter_delta_over(shells[i], "hwmon",
			"echo 1500 >$PB_SYSFS/class/hwmon/hwmon0/energy1_input;"
			" echo 30 >$PB_SYSFS/class/hwmon/hwmon1/device/energy2_input"), "520");
		assert_string_equal(meter_delta_over(shells[i], "hwmon",
			"echo 20 >$PB_SYSFS/class/hwmon/hwmon1/device/energy2_input"), "-");
		assert_string_equal(meter_delta_over(shells[i], "hwmon",
			"rm $PB_SYSFS/class/hwmon/hwmon0/energy1_input"), "-");
		sysfs_renew(state);
	}
}

/* Both kinds present: RAPL first; an empty tree has no meter. */
static void test_meter_present(void **state)
{
	unsigned i;

	for (i = 0; i < 2; i++) {
		if (!have_shell(shells[i]))
			continue;
		assert_string_equal(meters_present(shells[i]), "");
		assert_string_equal(meter_sh(shells[i], "meter_delta \"\" \"\""), "-");
		put("class/hwmon/hwmon0/energy1_input", "1");
		put("class/powercap/intel-rapl:0/energy_uj", "1");
		assert_string_equal(meters_present(shells[i]), "rapl,hwmon,");
		sysfs_renew(state);
	}
}

/* --meter CMD: its first line, a number of uJ, or "-". */
static void test_meter_cmd(void **state)
{
	unsigned i;

	for (i = 0; i < 2; i++) {
		if (!have_shell(shells[i]))
			continue;
		assert_string_equal(meter_sh(shells[i], "PB_METER=\"echo 1234; echo 5\"; meter_cmd"), "1234");
		assert_string_equal(meter_sh(shells[i], "PB_METER=\"echo 12.5\"; meter_cmd"), "12.5");
		assert_string_equal(meter_sh(shells[i], "PB_METER=\"echo watts\"; meter_cmd"), "-");
		assert_string_equal(meter_sh(shells[i], "PB_METER=false; meter_cmd"), "-");
	}
}

/* ---- the report (pb-stats) ------------------------------------------------ */

/* Column @name of the CSV row that starts with @row, in @csv. */
static const char *csv_get(const char *csv, const char *row, const char *name)
{
	static char v[64];
	const char *h = csv, *r = strstr(csv, row);
	int col = 0, i;
	size_t n;

	assert_non_null(r);
	if (*r == '\n')
		r++;
	for (;;) {
		n = strcspn(h, ",\n");
		if (n == strlen(name) && !strncmp(h, name, n))
			break;
		if (h[n] != ',')
			fail_msg("no column %s", name);
		h += n + 1;
		col++;
	}
	for (i = 0; i < col; i++)
		r += strcspn(r, ",\n") + 1;
	n = strcspn(r, ",\n");
	snprintf(v, sizeof(v), "%.*s", (int)n, r);
	return v;
}

/* A new temporary runs file, named into @path ("/tmp/pb-runs-XXXXXX"). */
static FILE *runs_file(char *path)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	return fdopen(fd, "w");
}

static char *pb_stats(const char *args, const char *runs_path)
{
	static char out[16384];
	char cmd[512];
	size_t n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s/build/tools/power-bench/pb-stats %s %s", PB_TOP, args,
		 runs_path);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = 0;
	assert_int_equal(pclose(p), 0);
	return out;
}

/*
 * Story s.  not_loaded: est 100, 200, 100, 200 (median 150); power: 90, 180,
 * 95, 190 and a fifth run incomplete.  Paired ratio of sums 555 / 600 =
 * 0.925; every pair lies in 0.90..0.95, so does the interval: "lower".
 * observe ran twice: a ratio, but too few pairs for an interval.  RAPL
 * named in both not_loaded and power: the measured energy gets its own
 * ratio, 900 / 1000; the estimator's source "est" would not.
 */
static void test_stats(void **state)
{
	static const char *runs[] = {
		"config=not_loaded rep=1 status=ok est_uj=100 energy_uj=250 energy_src=rapl",
		"config=not_loaded rep=2 status=ok est_uj=200 energy_uj=250 energy_src=rapl",
		"config=not_loaded rep=3 status=ok est_uj=100 energy_uj=250 energy_src=rapl",
		"config=not_loaded rep=4 status=ok est_uj=200 energy_uj=250 energy_src=rapl",
		"config=power rep=1 status=ok est_uj=90 energy_uj=225 energy_src=rapl",
		"config=power rep=2 status=ok est_uj=180 energy_uj=225 energy_src=rapl",
		"config=power rep=3 status=ok est_uj=95 energy_uj=225 energy_src=rapl",
		"config=power rep=4 status=ok est_uj=190 energy_uj=225 energy_src=rapl",
		"config=power rep=5 status=incomplete est_uj=1 energy_uj=1 energy_src=rapl",
		"config=observe rep=1 status=ok est_uj=100 energy_uj=100 energy_src=est",
		"config=observe rep=2 status=ok est_uj=100 energy_uj=100 energy_src=est",
	};
	char path[] = "/tmp/pb-runs-XXXXXX";
	const char *out;
	unsigned i;
	FILE *f;

	f = runs_file(path);
	fprintf(f, "# pb-meta machine=m kernel=k\nnot a run line\n");
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		fprintf(f, "pb-result story=s %s\n", runs[i]);
	fclose(f);
	out = pb_stats("--fmt csv", path);
	assert_string_equal(csv_get(out, "\ns,not_loaded,", "est_uj"), "150");
	assert_string_equal(csv_get(out, "\ns,not_loaded,", "energy_est_ratio"), "-");
	assert_string_equal(csv_get(out, "\ns,power,", "reps_ok"), "4");
	assert_string_equal(csv_get(out, "\ns,power,", "reps_run"), "5");
	assert_string_equal(csv_get(out, "\ns,power,", "failed"), "5:incomplete");
	assert_string_equal(csv_get(out, "\ns,power,", "energy_est_pairs"), "4");
	assert_string_equal(csv_get(out, "\ns,power,", "energy_est_ratio"), "0.9250");
	assert_true(atof(csv_get(out, "\ns,power,", "energy_est_lo")) >= 0.90);
	assert_true(atof(csv_get(out, "\ns,power,", "energy_est_hi")) <= 0.95);
	assert_string_equal(csv_get(out, "\ns,power,", "energy_est_verdict"), "lower");
	assert_string_equal(csv_get(out, "\ns,power,", "energy_ratio"), "0.9000");
	assert_string_equal(csv_get(out, "\ns,power,", "energy_src"), "rapl");
	assert_string_equal(csv_get(out, "\ns,observe,", "energy_est_pairs"), "2");
	assert_string_equal(csv_get(out, "\ns,observe,", "energy_est_verdict"), "cannot tell");
	assert_string_equal(csv_get(out, "\ns,observe,", "energy_ratio"), "-");
	/* another reference */
	out = pb_stats("--fmt csv --ref power", path);
	assert_string_equal(csv_get(out, "\ns,not_loaded,", "reference"), "power");
	assert_string_equal(csv_get(out, "\ns,not_loaded,", "energy_est_ratio"), "1.0811");
	assert_string_equal(csv_get(out, "\ns,not_loaded,", "energy_est_verdict"), "higher");
	/* the table names the energy source, and JSON parses */
	out = pb_stats("", path);
	assert_non_null(strstr(out, " rapl "));
	assert_non_null(strstr(out, "cannot tell"));
	out = pb_stats("--fmt json", path);
	assert_non_null(json_tokener_parse(out));
	unlink(path);
}

/*
 * Three configurations of the arm64 board: eas (est 100, 200, 100, 200),
 * cfs (110, 220, 110, 220) and power_freq (99, 198, 99, 198, and a fifth
 * run in which EAS ran: status eas_on, left out).  The default references
 * are eas and cfs, both present: every row comes once per reference.
 * power_freq / eas = 594 / 600 = 0.99 in every pair, so the interval is
 * [0.99, 0.99] and the verdict "lower"; power_freq / cfs = 594 / 660 = 0.9;
 * cfs / eas = 660 / 600 = 1.1, "higher".  --ref cfs alone: one row each.
 */
static void test_stats_refs(void **state)
{
	static const char *const cfg[] = { "eas", "cfs", "power_freq" };
	static const int est[][4] = { { 100, 200, 100, 200 }, { 110, 220, 110, 220 },
				      { 99, 198, 99, 198 } };
	char path[] = "/tmp/pb-runs-XXXXXX";
	const char *out;
	int c, r;
	FILE *f;

	f = runs_file(path);
	for (r = 0; r < 4; r++)
		for (c = 0; c < 3; c++)
			fprintf(f, "pb-result story=s config=%s rep=%d status=ok est_uj=%d eas=%s "
				"cpufreq=sp_testfreq\n", cfg[c], r + 1, est[c][r], c ? "off" : "on");
	fprintf(f, "pb-result story=s config=power_freq rep=5 status=eas_on est_uj=1 eas=on\n");
	fclose(f);
	out = pb_stats("--fmt csv", path);
	assert_string_equal(csv_get(out, "\ns,eas,4,4,eas,", "eas"), "on");
	assert_string_equal(csv_get(out, "\ns,eas,4,4,eas,", "energy_est_ratio"), "-");
	assert_string_equal(csv_get(out, "\ns,power_freq,4,5,eas,", "eas"), "off");
	assert_string_equal(csv_get(out, "\ns,power_freq,4,5,eas,", "cpufreq"), "sp_testfreq");
	assert_string_equal(csv_get(out, "\ns,power_freq,4,5,eas,", "failed"), "5:eas_on");
	assert_string_equal(csv_get(out, "\ns,power_freq,4,5,eas,", "energy_est_ratio"), "0.9900");
	assert_string_equal(csv_get(out, "\ns,power_freq,4,5,eas,", "energy_est_hi"), "0.9900");
	assert_string_equal(csv_get(out, "\ns,power_freq,4,5,eas,", "energy_est_verdict"), "lower");
	assert_string_equal(csv_get(out, "\ns,power_freq,4,5,cfs,", "energy_est_ratio"), "0.9000");
	assert_string_equal(csv_get(out, "\ns,cfs,4,4,eas,", "energy_est_ratio"), "1.1000");
	assert_string_equal(csv_get(out, "\ns,cfs,4,4,eas,", "energy_est_verdict"), "higher");
	assert_string_equal(csv_get(out, "\ns,cfs,4,4,cfs,", "energy_est_ratio"), "-");
	out = pb_stats("--fmt csv --ref cfs", path);
	assert_null(strstr(out, "\ns,power_freq,4,5,eas,"));
	assert_string_equal(csv_get(out, "\ns,eas,4,4,cfs,", "energy_est_ratio"), "0.9091");
	out = pb_stats("", path);
	assert_non_null(strstr(out, "Ratios to eas"));
	assert_non_null(strstr(out, "Ratios to cfs"));
	out = pb_stats("--fmt json", path);
	assert_non_null(json_tokener_parse(out));
	assert_non_null(strstr(out, "\"references\": [\"eas\", \"cfs\"]"));
	unlink(path);
}

/*
 * The queued wake-ups (sp-report's wake_queued*): observe_freq 2, 4, 2, 4
 * per s, power_freq 3, 6, 3, 6: a ratio of 1.5 in every pair, "higher".
 * A runs file counted before they existed (story old) has none of the
 * keys: its rows say "-" and have no ratio, and the table still prints.
 */
static void test_stats_queued(void **state)
{
	static const char *const cfg[] = { "observe_freq", "power_freq" };
	static const int wq[][4] = { { 2, 4, 2, 4 }, { 3, 6, 3, 6 } };
	char path[] = "/tmp/pb-runs-XXXXXX";
	const char *out, *line;
	int c, r;
	FILE *f;

	f = runs_file(path);
	for (r = 0; r < 4; r++)
		for (c = 0; c < 2; c++) {
			fprintf(f, "pb-result story=s config=%s rep=%d status=ok est_uj=100 "
				"wake_queued_per_s=%d.000 wake_queued_idle_awake_pkg=%d "
				"wake_queued_idle_awake_pkg_per_s=%d.000\n", cfg[c], r + 1, wq[c][r],
				wq[c][r], wq[c][r]);
			fprintf(f, "pb-result story=old config=%s rep=%d status=ok est_uj=100\n",
				cfg[c], r + 1);
		}
	fclose(f);
	out = pb_stats("--fmt csv --ref observe_freq", path);
	assert_string_equal(csv_get(out, "\ns,power_freq,", "wake_queued_per_s"), "4.5");
	assert_string_equal(csv_get(out, "\ns,power_freq,", "queued_per_s_ratio"), "1.5000");
	assert_string_equal(csv_get(out, "\ns,power_freq,", "queued_awake_per_s_verdict"), "higher");
	assert_string_equal(csv_get(out, "\ns,power_freq,", "queued_far_per_s_ratio"), "-");
	assert_string_equal(csv_get(out, "\nold,power_freq,", "wake_queued_per_s"), "-");
	assert_string_equal(csv_get(out, "\nold,power_freq,", "queued_per_s_ratio"), "-");
	assert_string_equal(csv_get(out, "\nold,power_freq,", "energy_est_ratio"), "1.0000");
	out = pb_stats("--ref observe_freq", path);
	assert_non_null(strstr(out, "queued_awake_per_s"));
	line = strstr(out, "\ns              power_freq");
	assert_non_null(line);
	assert_non_null(strstr(line, "   4.50   4.50\n"));
	assert_true(strstr(line, "   4.50   4.50\n") < strchr(line + 1, '\n') + 1);
	line = strstr(out, "\nold            power_freq");
	assert_non_null(line);
	line = strchr(line + 1, '\n');
	assert_non_null(line);
	assert_int_equal(strncmp(line - 14, "      -      -", 14), 0);
	unlink(path);
}

/*
 * The kept x86-freq runs of video, balanced_freq against cfs, per-run
 * wake_queued_idle_far_per_s: balanced_freq 0, 0.2, 0.2, 0, 0, 0.2, 0, 0.2,
 * cfs 0.4, 1.201, 0, 0.4, 0.4, 0.4, 0, 0.  Ratio 0.8 / 2.801 = 0.2856; the
 * resample at the interval's top is 1 (four 0.2 over two 0.4), summed to
 * 1 - 2^-52: the interval includes 1, "cannot tell", not "lower".
 */
static void test_stats_rounding(void **state)
{
	static const char *const far[][8] = {
		{ "0.000", "0.200", "0.200", "0.000", "0.000", "0.200", "0.000", "0.200" },
		{ "0.400", "1.201", "0.000", "0.400", "0.400", "0.400", "0.000", "0.000" },
	};
	static const char *const cfg[] = { "balanced_freq", "cfs" };
	char path[] = "/tmp/pb-runs-XXXXXX";
	const char *out;
	int c, r;
	FILE *f;

	f = runs_file(path);
	for (r = 0; r < 8; r++)
		for (c = 0; c < 2; c++)
			fprintf(f, "pb-result story=video config=%s rep=%d status=ok est_uj=100 "
				"wake_queued_idle_far_per_s=%s\n", cfg[c], r + 1, far[c][r]);
	fclose(f);
	out = pb_stats("--fmt csv --ref cfs", path);
	assert_string_equal(csv_get(out, "\nvideo,balanced_freq,", "queued_far_per_s_ratio"), "0.2856");
	assert_string_equal(csv_get(out, "\nvideo,balanced_freq,", "queued_far_per_s_hi"), "1.0000");
	assert_string_equal(csv_get(out, "\nvideo,balanced_freq,", "queued_far_per_s_verdict"),
			    "cannot tell");
	unlink(path);
}

/*
 * Two runs of one story, configuration and repetition (two runs files of
 * one numbering joined): the pairs would be wrong, so pb-stats refuses the
 * file and says which run.
 */
static void test_stats_twice(void **state)
{
	char path[] = "/tmp/pb-runs-XXXXXX", cmd[512];
	int r, ret;
	FILE *f;

	f = runs_file(path);
	for (r = 0; r < 2; r++) {
		fprintf(f, "pb-result story=s config=cfs rep=1 status=ok est_uj=%d\n", 100 + r);
		fprintf(f, "pb-result story=s config=power rep=1 status=ok est_uj=%d\n", 90 + r);
	}
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s/build/tools/power-bench/pb-stats --fmt csv %s 2>&1 | "
		 "grep -q 'story s config cfs rep 1 appears twice'", PB_TOP, path);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/build/tools/power-bench/pb-stats --fmt csv %s >/dev/null 2>&1",
		 PB_TOP, path);
	ret = system(cmd);
	assert_true(WIFEXITED(ret) && WEXITSTATUS(ret) == 1);
	unlink(path);
}

/*
 * Runs the guest found ok whose counts say otherwise: rep 2's recording
 * does not cover W (trace_status=short), rep 3's lost events (sp-report's
 * trace_lost, the last of the key, after the guest's 0).  Both are left out
 * of the medians and pairs as failed runs: est 100 and 400 out, median of
 * 10, 30 = 20; the reference's reps 2 and 3 have no partner.
 */
static void test_stats_trace(void **state)
{
	char path[] = "/tmp/pb-runs-XXXXXX";
	const char *out;
	int r;
	FILE *f;

	f = runs_file(path);
	for (r = 1; r <= 4; r++)
		fprintf(f, "pb-result story=s config=cfs rep=%d status=ok est_uj=100 trace_lost=0 "
			"trace_status=ok trace_lost=0\n", r);
	fprintf(f, "pb-result story=s config=power rep=1 status=ok est_uj=10 trace_lost=0 "
		"trace_status=ok trace_lost=0\n");
	fprintf(f, "pb-result story=s config=power rep=2 status=ok est_uj=100 trace_lost=0 "
		"trace_status=short trace_lost=0\n");
	fprintf(f, "pb-result story=s config=power rep=3 status=ok est_uj=400 trace_lost=0 "
		"trace_status=ok trace_lost=7\n");
	fprintf(f, "pb-result story=s config=power rep=4 status=ok est_uj=30 trace_lost=0 "
		"trace_status=ok trace_lost=0\n");
	fclose(f);
	out = pb_stats("--fmt csv --ref cfs", path);
	assert_string_equal(csv_get(out, "\ns,power,", "reps_ok"), "2");
	assert_string_equal(csv_get(out, "\ns,power,", "failed"), "2:trace_short 3:trace_lost");
	assert_string_equal(csv_get(out, "\ns,power,", "est_uj"), "20");
	assert_string_equal(csv_get(out, "\ns,power,", "energy_est_pairs"), "2");
	assert_string_equal(csv_get(out, "\ns,power,", "energy_est_ratio"), "0.2000");
	unlink(path);
}

/*
 * power-bench --report on a kept runs file: the tables' date is when the
 * runs were measured (the pb-meta line's date), not when the file was
 * copied or checked out; a runs file without one gives its file time.
 */
static void test_report_date(void **state)
{
	char path[] = "/tmp/pb-runs-XXXXXX", dir[] = "/tmp/pb-out-XXXXXX", cmd[1024];
	char csv[600];
	int r;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	f = runs_file(path);
	fprintf(f, "# pb-meta machine=qemu_x kernel=6.1.0-k date=2026-01-02T03:04Z\n");
	for (r = 1; r <= 3; r++)
		fprintf(f, "pb-result story=s config=cfs rep=%d status=ok est_uj=100\n", r);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s/tools/power-bench/power-bench --report %s --out %s >/dev/null 2>&1",
		 PB_TOP, path, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(csv, sizeof(csv), "%s/results.csv", dir);
	snprintf(cmd, sizeof(cmd), "tail -n 1 %s | grep -q ',6.1.0-k,qemu x,2026-01-02T03:04Z$'", csv);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	unlink(path);
}

/*
 * pb-queued.sh: two ok runs of s/power_freq summed (wake-ups 100 + 200,
 * queued 3 + 4, ...; reasons and balances merged by name, in the order
 * they came), a failed run, a run counted before the keys, a short
 * recording and one with lost events (pb-stats fails both) left out.
 */
static void test_queued_sums(void **state)
{
	char path[] = "/tmp/pb-runs-XXXXXX", cmd[512];
	static char out[4096];
	size_t n;
	FILE *f, *p;

	f = runs_file(path);
	fprintf(f, "pb-result story=s config=power_freq rep=1 status=ok wakeups=100 wake_queued=3 "
		"wake_queued_idle_pkg=1 wake_queued_idle_far=2 wake_queued_idle_awake_pkg=2 "
		"wake_queued_idle_awake_pkg_by=overutilised_fallback:2 "
		"wake_queued_idle_awake_pkg_waited=2 wake_queued_idle_awake_pkg_moved=0 "
		"wake_queued_idle_awake_pkg_over_p99=1 wake_queued_idle_awake_pkg_lb=local:1\n");
	fprintf(f, "pb-result story=s config=power_freq rep=2 status=ok wakeups=200 wake_queued=4 "
		"wake_queued_idle_pkg=0 wake_queued_idle_far=4 wake_queued_idle_awake_pkg=3 "
		"wake_queued_idle_awake_pkg_by=cfs_cheapest:1,overutilised_fallback:2 "
		"wake_queued_idle_awake_pkg_waited=2 wake_queued_idle_awake_pkg_moved=1 "
		"wake_queued_idle_awake_pkg_over_p99=0 wake_queued_idle_awake_pkg_lb=gated:2,local:1\n");
	fprintf(f, "pb-result story=s config=power_freq rep=3 status=incomplete wakeups=9 "
		"wake_queued=9\n");
	fprintf(f, "pb-result story=old config=power_freq rep=1 status=ok wakeups=50\n");
	fprintf(f, "pb-result story=s config=power_freq rep=4 status=ok trace_lost=0 "
		"trace_status=short trace_lost=0 wakeups=9 wake_queued=9\n");
	fprintf(f, "pb-result story=s config=power_freq rep=5 status=ok trace_lost=0 "
		"trace_status=ok trace_lost=3 wakeups=9 wake_queued=9\n");
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s/tools/power-bench/pb-queued.sh %s", PB_TOP, path);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = 0;
	assert_int_equal(pclose(p), 0);
	assert_non_null(strstr(out, "\ns              power_freq           2     300      7      1"
			       "      6      5      4     1    1  overutilised_fallback:4,"
			       "cfs_cheapest:1  local:2,gated:2\n"));
	assert_null(strstr(out, "\nold "));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meta),
		cmocka_unit_test(test_meta_spread),
		cmocka_unit_test(test_json),
		cmocka_unit_test_setup_teardown(test_meter_rapl, sysfs_setup, sysfs_teardown),
		cmocka_unit_test_setup_teardown(test_meter_hwmon, sysfs_setup, sysfs_teardown),
		cmocka_unit_test_setup_teardown(test_meter_present, sysfs_setup, sysfs_teardown),
		cmocka_unit_test(test_meter_cmd),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_stats_refs),
		cmocka_unit_test(test_stats_queued),
		cmocka_unit_test(test_stats_rounding),
		cmocka_unit_test(test_stats_twice),
		cmocka_unit_test(test_stats_trace),
		cmocka_unit_test(test_report_date),
		cmocka_unit_test(test_queued_sums),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
