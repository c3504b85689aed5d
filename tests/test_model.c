// SPDX-License-Identifier: GPL-2.0
/*
 * test_model.c - host tests of the model text format (core/sp_model_*.c).
 *
 * Every parser error class is fed once and must come back with the right
 * error code, line and field; the shipped models and the synthetic model must
 * round-trip through the formatter.  Tests run from the repository root (the
 * shipped models are read from models/, or from $SP_MODELS_DIR).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "sp_model.h"
#include "sp_state.h"
#include "test_models.h"

static struct sp_model m, m2;
static struct sp_parse_error err;
static char txt[SP_MODEL_TEXT_MAX + 64];
static char out[SP_MODEL_TEXT_MAX], out2[SP_MODEL_TEXT_MAX];

/*
 * The base model: 4 CPUs, 2 packages.  Line numbers matter: the error tests
 * replace one line and expect the error on that line.
 */
static const char *const base[] = {
	/*  1 */ "sched_power_model version=1 cpus=4",
	/*  2 */ "level name=package",
	/*  3 */ "pd id=0 cpus=0-1",
	/*  4 */ "opp pd=0 khz=800000 cap=400 uw=300000",
	/*  5 */ "opp pd=0 khz=1600000 cap=800 uw=900000",
	/*  6 */ "idle pd=0 name=C1 uw=80000 exit_us=2 target_us=4 wake_uj=1",
	/*  7 */ "pd id=1 cpus=2-3",
	/*  8 */ "opp pd=1 khz=800000 cap=400 uw=300000",
	/*  9 */ "idle pd=1 name=C1 uw=80000 exit_us=2 target_us=4 wake_uj=1",
	/* 10 */ "idle pd=1 name=C6 uw=1000 exit_us=100 target_us=300 wake_uj=30",
	/* 11 */ "group level=package id=0 cpus=0-1 active_uw=400000 idle_uw=20000 wake_uj=300 exit_us=50",
	/* 12 */ "group level=package id=1 cpus=2-3 active_uw=400000 idle_uw=20000 wake_uj=300 exit_us=50",
	/* 13 */ "end",
};

/* The base text with line @n (1-based) replaced by @repl (may hold "\n"). */
static const char *edit(int n, const char *repl)
{
	size_t i, len = 0;

	for (i = 0; i < SP_ARRAY_SIZE(base); i++)
		len += (size_t)snprintf(txt + len, sizeof(txt) - len, "%s\n",
					(int)i + 1 == n ? repl : base[i]);
	return txt;
}

static int parse(const char *t)
{
	return sp_model_parse(t, strlen(t), &m, &err);
}

/* m's canonical text parses into a model whose canonical text is the same. */
static void assert_fixed_point(void)
{
	sp_model_format(&m, out, sizeof(out));
	assert_int_equal(sp_model_parse(out, strlen(out), &m2, &err), 0);
	sp_model_format(&m2, out2, sizeof(out2));
	assert_string_equal(out, out2);
}

/* Parse @t and expect error @ret on @line naming @field. */
#define expect_err(t_, ret_, line_, field_) do {					\
	int r_ = parse(t_);							\
	if (r_ != (ret_) || err.line != (line_) || strcmp(err.field, (field_)))	\
		print_error("got %d line %d field '%s' (%s)\n", r_, err.line,	\
			    err.field, err.msg ? err.msg : "");			\
	assert_int_equal(r_, (ret_));						\
	assert_int_equal(err.line, (line_));					\
	assert_string_equal(err.field, (field_));				\
	assert_non_null(err.msg);						\
	assert_true(strlen(err.msg) > 0);					\
} while (0)

static void test_base_parses(void **state)
{
	assert_int_equal(parse(edit(0, NULL)), 0);
	assert_int_equal(m.nr_cpus, 4);
	assert_int_equal(m.nr_pds, 2);
	assert_int_equal(m.nr_levels, 1);
	assert_int_equal(m.nr_groups, 2);
	assert_int_equal(m.cpu_pd[1], 0);
	assert_int_equal(m.cpu_pd[2], 1);
	assert_int_equal(m.pd[0].nr_opps, 2);
	assert_int_equal(m.pd[0].opp[1].freq_khz, 1600000);
	assert_int_equal(m.pd[0].opp[1].cap, 800);
	assert_int_equal(m.pd[0].opp[1].power_uw, 900000);
	assert_int_equal(m.pd[1].nr_idle, 2);
	assert_string_equal(m.pd[1].idle[1].name, "C6");
	assert_int_equal(m.pd[1].idle[1].exit_latency_us, 100);
	assert_int_equal(m.pd[1].idle[1].target_residency_us, 300);
	assert_int_equal(m.pd[1].idle[1].wakeup_uj, 30);
	assert_int_equal(m.cpu_group[0][3], 1);
	assert_int_equal(m.group[1].wakeup_uj, 300);
	assert_int_equal(m.group[1].parent, SP_NONE);
	assert_int_equal(m.group[1].src_line, 12);
	/* the base text is canonical */
	sp_model_format(&m, out, sizeof(out));
	assert_string_equal(out, edit(0, NULL));
}

static void test_err_unknown_key(void **state)
{
	expect_err(edit(3, "pd id=0 cpus=0-1 colour=red"), -EINVAL, 3, "colour");
}

static void test_err_unknown_kind(void **state)
{
	expect_err(edit(6, "cstate pd=0 name=C1 uw=1"), -EINVAL, 6, "cstate");
}

static void test_err_not_key_value(void **state)
{
	expect_err(edit(3, "pd id=0 cpus"), -EINVAL, 3, "cpus");
}

static void test_err_missing_key(void **state)
{
	expect_err(edit(5, "opp pd=0 khz=1600000 cap=800"), -EINVAL, 5, "uw");
}

static void test_err_duplicate_key(void **state)
{
	expect_err(edit(5, "opp pd=0 khz=1600000 cap=800 uw=1 uw=900000"), -EINVAL, 5, "uw");
}

static void test_err_out_of_range(void **state)
{
	expect_err(edit(1, "sched_power_model version=2 cpus=4"), -EINVAL, 1, "version");
	expect_err(edit(3, "pd id=65535 cpus=0-1"), -EINVAL, 3, "id");
	expect_err(edit(1, "sched_power_model version=1 cpus=0"), -EINVAL, 1, "cpus");
	expect_err(edit(4, "opp pd=0 khz=0 cap=400 uw=300000"), -EINVAL, 4, "khz");
}

static void test_err_cap_over_1024(void **state)
{
	expect_err(edit(5, "opp pd=0 khz=1600000 cap=1025 uw=900000"), -EINVAL, 5, "cap");
}

/*
 * sp_model_div_rcp() is floor(y / c) for every capacity c and dividend y
 * below 2^SP_RCP_DIVIDEND_BITS (its proof in sp_model.h), through the
 * sp_mul_u64_u64_shr() the build uses (on x86-64 the kernel's mulq/shrdq),
 * which must equal the 128-bit product shifted, for every shift.
 */
static void test_div_rcp_exact(void **state)
{
	const u64 top = (1ull << SP_RCP_DIVIDEND_BITS) - 1;
	u64 x = 88172645463325252ull;	/* xorshift64 */
	u32 c, i, sh;

	for (c = 1; c <= 1024; c++) {
		u64 rcp = ((1ull << SP_RCP_SHIFT) + c - 1) / c;
		u64 edge[] = { 0, 1, c - 1, c, c + 1, top, top - 1, top - top % c,
			       top - top % c - 1 };

		for (i = 0; i < SP_ARRAY_SIZE(edge); i++)
			assert_int_equal(sp_model_div_rcp(edge[i], rcp), edge[i] / c);
		for (i = 0; i < 200; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			assert_int_equal(sp_model_div_rcp(x & top, rcp), (x & top) / c);
		}
	}
	for (sh = 0; sh < 64; sh++) {
		for (i = 0; i < 100; i++) {
			u64 a, b;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			a = x;
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			b = i & 1 ? x : ~0ull;
			assert_int_equal(sp_mul_u64_u64_shr(a, b, sh),
					 (u64)(((unsigned __int128)a * b) >> sh));
		}
	}
	(void)state;
}

static void test_cap_1024_ok(void **state)
{
	assert_int_equal(parse(edit(5, "opp pd=0 khz=1600000 cap=1024 uw=900000")), 0);
	assert_int_equal(m.pd[0].opp[1].cap, 1024);
}

static void test_err_cap_zero(void **state)
{
	expect_err(edit(4, "opp pd=0 khz=800000 cap=0 uw=300000"), -EINVAL, 4, "cap");
}

/* capacity must be 1..1024: one above the scale is refused */
static void test_err_cap_above_scale(void **state)
{
	expect_err(edit(5, "opp pd=0 khz=1600000 cap=1025 uw=900000"), -EINVAL, 5, "cap");
}

static void test_err_opp_freq_not_increasing(void **state)
{
	expect_err(edit(5, "opp pd=0 khz=800000 cap=800 uw=900000"), -EINVAL, 5, "khz");
	expect_err(edit(5, "opp pd=0 khz=700000 cap=800 uw=900000"), -EINVAL, 5, "khz");
}

static void test_err_opp_cap_not_increasing(void **state)
{
	expect_err(edit(5, "opp pd=0 khz=1600000 cap=400 uw=900000"), -EINVAL, 5, "cap");
}

static void test_err_opp_power_not_increasing(void **state)
{
	expect_err(edit(5, "opp pd=0 khz=1600000 cap=800 uw=300000"), -EINVAL, 5, "uw");
	expect_err(edit(5, "opp pd=0 khz=1600000 cap=800 uw=200000"), -EINVAL, 5, "uw");
}

static void test_err_idle_order(void **state)
{
	/* deeper state (line 10) must not draw more, exit faster or target less */
	expect_err(edit(10, "idle pd=1 name=C6 uw=90000 exit_us=100 target_us=300 wake_uj=30"),
		   -EINVAL, 10, "uw");
	/* C1 (line 9) draws 80000 uW: 1 uW more is refused, the same is not */
	expect_err(edit(10, "idle pd=1 name=C6 uw=80001 exit_us=100 target_us=300 wake_uj=30"),
		   -EINVAL, 10, "uw");
	assert_int_equal(parse(edit(10, "idle pd=1 name=C6 uw=80000 exit_us=100 target_us=300 wake_uj=30")), 0);
	expect_err(edit(10, "idle pd=1 name=C6 uw=1000 exit_us=1 target_us=300 wake_uj=30"),
		   -EINVAL, 10, "exit_us");
	expect_err(edit(10, "idle pd=1 name=C6 uw=1000 exit_us=100 target_us=3 wake_uj=30"),
		   -EINVAL, 10, "target_us");
}

/*
 * A polling state (poll=1) reads back as the pd's leading polling states
 * and is printed as written; a state without the key sleeps, and the
 * canonical text of a model without poll=1 has no poll key at all.
 */
static void test_poll_roundtrip(void **state)
{
	const char *poll_line = "idle pd=1 name=POLL uw=90000 exit_us=0 target_us=0 wake_uj=0";

	assert_int_equal(parse(edit(9, "idle pd=1 name=POLL uw=90000 exit_us=0 target_us=0 wake_uj=0 "
				  "poll=1\nidle pd=1 name=C1 uw=80000 exit_us=2 target_us=4 "
				  "wake_uj=1 poll=0")), 0);
	assert_int_equal(m.pd[1].nr_idle, 3);
	assert_int_equal(m.pd[1].nr_poll, 1);
	assert_int_equal(m.pd[0].nr_poll, 0);
	assert_int_equal(sp_state_sleep_from(&m.pd[1]), 2);	/* C6 sleeps */
	assert_fixed_point();
	assert_non_null(strstr(out, poll_line));
	assert_int_equal(strstr(out, poll_line)[strlen(poll_line)], ' ');
	assert_null(strstr(strstr(out, "poll=") + 1, "poll="));	/* C1 and C6 sleep */
	/* a pd whose only state polls never lets its package sleep */
	assert_int_equal(parse(edit(6, "idle pd=0 name=POLL uw=80000 exit_us=0 target_us=0 "
				  "wake_uj=0 poll=1")), 0);
	assert_int_equal(m.pd[0].nr_poll, 1);
	assert_int_equal(m.pd_idle[0].deepest, 0);
	assert_int_equal(sp_state_sleep_from(&m.pd[0]), 1);
	assert_fixed_point();
	/* without poll=1 nothing polls and the text has no poll key */
	assert_int_equal(parse(edit(0, "")), 0);
	sp_model_format(&m, out, sizeof(out));
	assert_null(strstr(out, "poll"));
	assert_int_equal(sp_state_sleep_from(&m.pd[1]), m.pd_idle[1].deepest);
}

/* Polling states come first: one after a sleeping state is refused. */
static void test_err_poll_after_sleep(void **state)
{
	expect_err(edit(10, "idle pd=1 name=C6 uw=1000 exit_us=100 target_us=300 wake_uj=30 poll=1"),
		   -EINVAL, 10, "poll");
	expect_err(edit(9, "idle pd=1 name=C1 uw=80000 exit_us=2 target_us=4 wake_uj=1 poll=2"),
		   -EINVAL, 9, "poll");
	expect_err(edit(9, "idle pd=1 name=C1 uw=80000 exit_us=2 target_us=4 wake_uj=1 poll=1 poll=1"),
		   -EINVAL, 9, "poll");
	/* polling states then a sleeping one */
	assert_int_equal(parse(edit(9, "idle pd=1 name=C1 uw=80000 exit_us=2 target_us=4 wake_uj=1 poll=1")), 0);
	assert_int_equal(m.pd[1].nr_poll, 1);
}

static void test_err_group_idle_above_active(void **state)
{
	expect_err(edit(12, "group level=package id=1 cpus=2-3 active_uw=400000 idle_uw=400001 wake_uj=300 exit_us=50"),
		   -EINVAL, 12, "idle_uw");
}

static void test_err_missing_levels(void **state)
{
	/* groups name a level nobody declared */
	expect_err(edit(2, ""), -EINVAL, 11, "level");
	/* no level and no group at all: reported on the header */
	edit(2, "");
	strcpy(strstr(txt, "group level=package id=0"), "end\n");
	expect_err(txt, -EINVAL, 1, "level");
}

static void test_err_level_without_groups(void **state)
{
	expect_err(edit(2, "level name=package\nlevel name=node"), -EINVAL, 3, "group");
}

static void test_err_pd_without_opp(void **state)
{
	expect_err(edit(8, ""), -EINVAL, 7, "opp");
}

static void test_err_pd_without_idle(void **state)
{
	expect_err(edit(6, ""), -EINVAL, 3, "idle");
}

static void test_err_cpu_in_no_pd(void **state)
{
	expect_err(edit(7, "pd id=1 cpus=2"), -EINVAL, 1, "pd");
	assert_int_equal(err.cpu, 3);
}

static void test_err_cpu_in_two_pds(void **state)
{
	expect_err(edit(7, "pd id=1 cpus=1-3"), -EINVAL, 7, "cpus");
	assert_int_equal(err.cpu, 1);
}

static void test_err_cpu_in_no_group(void **state)
{
	expect_err(edit(12, "group level=package id=1 cpus=2 active_uw=400000 idle_uw=20000 wake_uj=300 exit_us=50"),
		   -EINVAL, 2, "cpus");
	assert_int_equal(err.cpu, 3);
}

static void test_err_cpu_in_two_groups(void **state)
{
	expect_err(edit(12, "group level=package id=1 cpus=1-3 active_uw=400000 idle_uw=20000 wake_uj=300 exit_us=50"),
		   -EINVAL, 12, "cpus");
	assert_int_equal(err.cpu, 1);
}

/* Four CPUs in one pd, levels "core" and "package"; the groups follow. */
#define TWO_LEVELS_HEAD							\
	"sched_power_model version=1 cpus=4\n"				\
	"level name=core\n"						\
	"level name=package\n"						\
	"pd id=0 cpus=0-3\n"						\
	"opp pd=0 khz=1000 cap=1024 uw=10\n"				\
	"idle pd=0 name=C1 uw=1 exit_us=1 target_us=1 wake_uj=1\n"

/* Two levels: "core" groups {0,1} {2,3}; a package {1,2} cuts both. */
static const char nest_bad[] =
	TWO_LEVELS_HEAD
	"group level=core id=0 cpus=0-1 active_uw=5 idle_uw=1 wake_uj=1 exit_us=1\n"
	"group level=core id=1 cpus=2-3 active_uw=5 idle_uw=1 wake_uj=1 exit_us=1\n"
	"group level=package id=0 cpus=0,3 active_uw=5 idle_uw=1 wake_uj=1 exit_us=1\n"
	"group level=package id=1 cpus=1-2 active_uw=5 idle_uw=1 wake_uj=1 exit_us=1\n";

static void test_err_group_not_nested(void **state)
{
	/* core 0 = {0,1}: CPU 1 lies in package 1, CPU 0 in package 0 */
	expect_err(nest_bad, -EINVAL, 7, "cpus");
	assert_int_equal(err.cpu, 1);
}

static void test_groups_gathered_under_parents(void **state)
{
	/* cores {1} {0,3} {2}; packages {1} and {0,2,3}, written in that order */
	static const char t[] =
		TWO_LEVELS_HEAD
		"group level=package id=5 cpus=0,2-3 active_uw=5 idle_uw=1 wake_uj=1 exit_us=1\n"
		"group level=core id=0 cpus=0,3 active_uw=5 idle_uw=1 wake_uj=1 exit_us=1\n"
		"group level=core id=1 cpus=1 active_uw=5 idle_uw=1 wake_uj=1 exit_us=1\n"
		"group level=core id=2 cpus=2 active_uw=5 idle_uw=1 wake_uj=1 exit_us=1\n"
		"group level=package id=7 cpus=1 active_uw=5 idle_uw=1 wake_uj=1 exit_us=1\n";

	assert_int_equal(parse(t), 0);
	/*
	 * Levels sorted smallest first: core groups 0..2, packages 3..4 in the
	 * written order (id 5, id 7).  Cores are gathered by parent: package
	 * index 3 (id 5) owns cores id 0 and id 2, package 4 owns core id 1.
	 */
	assert_int_equal(m.level[0].first_group, 0);
	assert_int_equal(m.level[0].nr_groups, 3);
	assert_int_equal(m.level[1].first_group, 3);
	assert_int_equal(m.group[3].id, 5);
	assert_int_equal(m.group[4].id, 7);
	assert_int_equal(m.group[0].id, 0);
	assert_int_equal(m.group[1].id, 2);
	assert_int_equal(m.group[2].id, 1);
	assert_int_equal(m.group[0].parent, 3);
	assert_int_equal(m.group[1].parent, 3);
	assert_int_equal(m.group[2].parent, 4);
	assert_int_equal(m.group[3].first_child, 0);
	assert_int_equal(m.group[3].nr_children, 2);
	assert_int_equal(m.group[4].first_child, 2);
	assert_int_equal(m.group[4].nr_children, 1);
	assert_int_equal(m.cpu_group[0][3], 0);
	assert_int_equal(m.cpu_group[0][2], 1);
	assert_int_equal(m.cpu_group[1][2], 3);
	assert_int_equal(m.cpu_group[1][1], 4);
	assert_int_equal(sp_model_validate(&m, &err), 0);
	/* the canonical text is a fixed point */
	assert_fixed_point();
}

/* Append "fmt" to txt at *len. */
static void put(size_t *len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	*len += (size_t)vsnprintf(txt + *len, sizeof(txt) - *len, fmt, ap);
	va_end(ap);
}

static void test_err_too_many_opps(void **state)
{
	size_t len = 0;
	int i;

	put(&len, "sched_power_model version=1 cpus=1\nlevel name=p\npd id=0 cpus=0\n");
	for (i = 1; i <= SP_MAX_OPPS + 1; i++)
		put(&len, "opp pd=0 khz=%d cap=%d uw=%d\n", i * 1000, i * 10, i * 100);
	/* OPP 17 sits on line 3 + 17 = 20 */
	expect_err(txt, -E2BIG, 3 + SP_MAX_OPPS + 1, "opp");
}

static void test_err_too_many_idle_states(void **state)
{
	size_t len = 0;
	int i;

	put(&len, "sched_power_model version=1 cpus=1\nlevel name=p\npd id=0 cpus=0\n"
		  "opp pd=0 khz=1 cap=1 uw=1\n");
	for (i = 1; i <= SP_MAX_IDLE + 1; i++)
		put(&len, "idle pd=0 name=C%d uw=%d exit_us=%d target_us=%d wake_uj=0\n",
		    i, 1000 - i, i, i);
	expect_err(txt, -E2BIG, 4 + SP_MAX_IDLE + 1, "idle");
}

static void test_err_too_many_cpus(void **state)
{
	expect_err(edit(1, "sched_power_model version=1 cpus=513"), -E2BIG, 1, "cpus");
}

static void test_err_too_many_pds(void **state)
{
	size_t len = 0;
	int i;

	put(&len, "sched_power_model version=1 cpus=512\nlevel name=p\n");
	for (i = 0; i <= SP_MAX_PDS; i++)
		put(&len, "pd id=%d cpus=%d\n", i, i);
	expect_err(txt, -E2BIG, 2 + SP_MAX_PDS + 1, "pd");
}

static void test_err_too_many_levels(void **state)
{
	expect_err(edit(2, "level name=a\nlevel name=b\nlevel name=c\nlevel name=d\nlevel name=e"),
		   -E2BIG, 6, "level");
}

static void test_err_too_many_groups(void **state)
{
	size_t len = 0;
	int i;

	/* 512 one-CPU groups in level a, then a 513th in level b */
	put(&len, "sched_power_model version=1 cpus=512\nlevel name=a\nlevel name=b\n");
	for (i = 0; i < SP_MAX_GROUPS; i++)
		put(&len, "group level=a id=%d cpus=%d active_uw=1 idle_uw=0 wake_uj=0 exit_us=0\n",
		    i, i);
	put(&len, "group level=b id=0 cpus=0-511 active_uw=1 idle_uw=0 wake_uj=0 exit_us=0\n");
	expect_err(txt, -E2BIG, 3 + SP_MAX_GROUPS + 1, "group");
}

static void test_err_numeric_overflow(void **state)
{
	expect_err(edit(5, "opp pd=0 khz=4294967296 cap=800 uw=900000"), -EINVAL, 5, "khz");
	expect_err(edit(5, "opp pd=0 khz=1600000 cap=800 uw=99999999999999999999999"),
		   -EINVAL, 5, "uw");
	expect_err(edit(3, "pd id=0 cpus=0-4294967296"), -EINVAL, 3, "cpus");
}

static void test_u32_max_accepted(void **state)
{
	assert_int_equal(parse(edit(5, "opp pd=0 khz=4294967295 cap=800 uw=4294967295")), 0);
	assert_int_equal(m.pd[0].opp[1].freq_khz, 4294967295u);
	assert_int_equal(m.pd[0].opp[1].power_uw, 4294967295u);
}

static void test_err_number_junk(void **state)
{
	expect_err(edit(4, "opp pd=0 khz=+800000 cap=400 uw=300000"), -EINVAL, 4, "khz");
	expect_err(edit(4, "opp pd=0 khz=0x10 cap=400 uw=300000"), -EINVAL, 4, "khz");
	expect_err(edit(4, "opp pd=0 khz=800000kHz cap=400 uw=300000"), -EINVAL, 4, "khz");
	expect_err(edit(4, "opp pd=0 khz=-1 cap=400 uw=300000"), -EINVAL, 4, "khz");
	expect_err(edit(4, "opp pd=0 khz= cap=400 uw=300000"), -EINVAL, 4, "khz");
}

static void test_err_oversized_input(void **state)
{
	size_t n = SP_MODEL_TEXT_MAX + 1;
	int r;

	memset(txt, '#', n);
	r = sp_model_parse(txt, n, &m, &err);
	assert_int_equal(r, -E2BIG);
	assert_int_equal(err.line, 0);
	assert_string_equal(err.field, "input");
}

static void test_max_size_input_accepted(void **state)
{
	/* the base model padded with a comment to exactly SP_MODEL_TEXT_MAX */
	size_t len = strlen(edit(0, NULL));

	memset(txt + len, ' ', SP_MODEL_TEXT_MAX - len);
	txt[len] = '#';
	txt[SP_MODEL_TEXT_MAX - 1] = '\n';
	assert_int_equal(sp_model_parse(txt, SP_MODEL_TEXT_MAX, &m, &err), 0);
}

static void test_err_empty_input(void **state)
{
	expect_err("", -EINVAL, 1, "header");
	/* comments and blank lines only: reported after the last line */
	expect_err("# nothing\n\n   \n", -EINVAL, 3, "header");
}

static void test_err_header_not_first(void **state)
{
	expect_err(edit(1, "level name=x"), -EINVAL, 1, "level");
	expect_err(edit(2, "sched_power_model version=1 cpus=4"), -EINVAL, 2,
		   "header");
}

static void test_err_duplicate_ids(void **state)
{
	expect_err(edit(7, "pd id=0 cpus=2-3"), -EINVAL, 7, "id");
	expect_err(edit(12, "group level=package id=0 cpus=2-3 active_uw=400000 idle_uw=20000 wake_uj=300 exit_us=50"),
		   -EINVAL, 12, "id");
	expect_err(edit(2, "level name=package\nlevel name=package"), -EINVAL, 3, "name");
	expect_err(edit(10, "idle pd=1 name=C1 uw=1000 exit_us=100 target_us=300 wake_uj=30"),
		   -EINVAL, 10, "name");
}

static void test_err_bad_cpu_list(void **state)
{
	static const char *const bad[] = {
		"pd id=0 cpus=", "pd id=0 cpus=0-", "pd id=0 cpus=1-0",
		"pd id=0 cpus=0,,1", "pd id=0 cpus=0,", "pd id=0 cpus=,0",
		"pd id=0 cpus=a", "pd id=0 cpus=0-1,1", "pd id=0 cpus=1,0",
		"pd id=0 cpus=0-4", "pd id=0 cpus=0;1", "pd id=0 cpus=0--1",
	};
	size_t i;

	for (i = 0; i < SP_ARRAY_SIZE(bad); i++)
		expect_err(edit(3, bad[i]), -EINVAL, 3, "cpus");
}

static void test_err_bad_name(void **state)
{
	expect_err(edit(6, "idle pd=0 name=C1! uw=80000 exit_us=2 target_us=4 wake_uj=1"),
		   -EINVAL, 6, "name");
	expect_err(edit(6, "idle pd=0 name=ABCDEFGHIJKLMNOP uw=80000 exit_us=2 target_us=4 wake_uj=1"),
		   -EINVAL, 6, "name");
}

static void test_err_unknown_refs(void **state)
{
	expect_err(edit(8, "opp pd=9 khz=800000 cap=400 uw=300000"), -EINVAL, 8, "pd");
	expect_err(edit(11, "group level=pkg id=0 cpus=0-1 active_uw=400000 idle_uw=20000 wake_uj=300 exit_us=50"),
		   -EINVAL, 11, "level");
}

static void test_err_text_after_end(void **state)
{
	strcat((char *)edit(0, NULL), "level name=more\n");
	expect_err(txt, -EINVAL, 14, "level");
}

static void test_lenient_whitespace_comments_order(void **state)
{
	/* tabs, CR, comments, blank lines, keys in any order, no "end" */
	static const char t[] =
		"# a comment\r\n"
		"\tsched_power_model cpus=4 version=1   # trailing comment\r\n"
		"\n"
		"level name=package\n"
		"pd cpus=0,1 id=0\n"
		"opp uw=300000 cap=400 khz=800000 pd=0\n"
		"opp pd=0 khz=1600000 cap=800 uw=900000\n"
		"idle wake_uj=1 target_us=4 exit_us=2 uw=80000 name=C1 pd=0\n"
		"pd id=1 cpus=2-3\n"
		"opp pd=1 khz=800000 cap=400 uw=300000\n"
		"idle pd=1 name=C1 uw=80000 exit_us=2 target_us=4 wake_uj=1\n"
		"idle pd=1 name=C6 uw=1000 exit_us=100 target_us=300 wake_uj=30\n"
		"group level=package id=0 cpus=0-1 active_uw=400000 idle_uw=20000 wake_uj=300 exit_us=50\n"
		"group exit_us=50 wake_uj=300 idle_uw=20000 active_uw=400000 cpus=2-3 id=1 level=package";

	assert_int_equal(parse(t), 0);
	sp_model_format(&m, out, sizeof(out));
	assert_string_equal(out, edit(0, NULL));
}

/* ---- bytes: only ASCII blanks are blanks -------------------------------- */

static void test_high_bit_bytes_are_not_blanks(void **state)
{
	/* NBSP, NEL and 0xff where a blank would be: part of the token */
	expect_err(edit(2, "level\xa0name=package"), -EINVAL, 2, "level?name=pack");
	expect_err(edit(2, "level name=package\x85"), -EINVAL, 2, "name");
	expect_err(edit(4, "opp pd=0 khz=800000\xff" "cap=400 uw=300000"), -EINVAL, 4, "khz");
	expect_err(edit(4, "opp pd=0 khz=8\xb0" "0 cap=400 uw=300000"), -EINVAL, 4, "khz");
	expect_err(edit(6, "idle pd=0 name=C\xc3\xa9 uw=80000 exit_us=2 target_us=4 wake_uj=1"),
		   -EINVAL, 6, "name");
	expect_err(edit(3, "pd id=0 cpus=0\xad-1"), -EINVAL, 3, "cpus");
	/* a line of high-bit bytes is an unknown kind, with '?' in the field */
	expect_err(edit(5, "\xc3\xa9\xff"), -EINVAL, 5, "???");
	expect_err(edit(13, "\xff\xff\xff\xff\xff\xff\xff\xff"), -EINVAL, 13, "????????");
	/* in a comment anything but NUL is fine */
	assert_int_equal(parse(edit(2, "level name=package # caf\xc3\xa9 \xff\x80")), 0);
}

static void test_err_nul_byte(void **state)
{
	size_t len = strlen(edit(0, NULL));

	/* a NUL in a comment, and one in a value, are errors on their line */
	memcpy(txt + len, "# a\0b\n", 6);
	assert_int_equal(sp_model_parse(txt, len + 6, &m, &err), -EINVAL);
	assert_int_equal(err.line, 14);
	assert_string_equal(err.field, "input");
	edit(0, NULL);
	txt[strlen(base[0]) + 1 + 6] = '\0';	/* "level na\0e=package" */
	assert_int_equal(sp_model_parse(txt, len, &m, &err), -EINVAL);
	assert_int_equal(err.line, 2);
}

/* ---- the streamed text (sp_model_stream.c) ------------------------------ */

/*
 * Feed @len bytes of @t in chunks of @bs; return the stream's final verdict
 * (0 or the error), the offset of the chunk after which "end" first counted
 * in *@end_chunk (-1 if never), and the stream in *@s.
 */
static int feed_chunks(const char *t, size_t len, size_t bs,
		       struct sp_model_stream *s, long *end_chunk)
{
	size_t off;
	int ret = 0;

	sp_model_stream_init(s);
	*end_chunk = -1;
	for (off = 0; off < len && !ret; off += bs) {
		size_t n = len - off < bs ? len - off : bs;

		ret = sp_model_stream_feed(s, t + off, n);
		if (!ret && *end_chunk < 0 && sp_model_stream_ended(s))
			*end_chunk = (long)off;
	}
	return ret;
}

/* @t fed whole, and in chunks of every size 1..@max_bs: the same verdicts. */
static void expect_stream(const char *t, size_t len, int ret, long err_off,
			  long end_off, size_t max_bs)
{
	struct sp_model_stream whole, s;
	long end_chunk;
	size_t bs;

	for (bs = 1; bs <= max_bs; bs++) {
		int r = feed_chunks(t, len, bs, &s, &end_chunk);

		if (r != ret || (ret && (long)s.err_off != err_off) ||
		    (!ret && end_off >= 0 && end_chunk != end_off / (long)bs * (long)bs) ||
		    (end_off < 0 && end_chunk >= 0))
			fail_msg("bs %zu: ret %d err_off %u (%s) end at chunk %ld; want %d %ld end %ld",
				 bs, r, s.err_off, s.msg ? s.msg : "", end_chunk, ret,
				 err_off, end_off);
	}
	sp_model_stream_init(&whole);
	assert_int_equal(sp_model_stream_feed(&whole, t, len), ret);
	if (!ret) {
		/* a whole text and a chunked one end in the same state */
		feed_chunks(t, len, 7, &s, &end_chunk);
		assert_memory_equal(&whole, &s, sizeof(s));
	}
}

static void test_stream_high_bit_refused_at_once(void **state)
{
	static char ff[4096];
	struct sp_model_stream s;

	expect_stream("\xc3\xa9\xff\n", 4, -EINVAL, 0, -1, 4);
	memset(ff, 0xff, sizeof(ff));
	expect_stream(ff, 8, -EINVAL, 0, -1, 8);
	expect_stream(ff, sizeof(ff), -EINVAL, 0, -1, 64);
	/* NBSP before the header, and as the separator after "level" */
	expect_stream("\xa0sched_power_model", 18, -EINVAL, 0, -1, 18);
	edit(2, "level\xa0name=package");
	expect_stream(txt, strlen(txt), -EINVAL, (long)strlen(base[0]) + 1 + 5, -1, 64);
	sp_model_stream_init(&s);
	assert_int_equal(sp_model_stream_feed(&s, "\xc3\xa9\xff\n", 4), -EINVAL);
	assert_string_equal(s.msg, "unknown line kind");
	assert_int_equal(s.line, 1);
	/* refused stays refused */
	assert_int_equal(sp_model_stream_feed(&s, "sched_power_model", 17), -EINVAL);
}

static void test_stream_end(void **state)
{
	size_t len = strlen(edit(0, NULL));
	long e = (long)len - 4;		/* offset of "end" */
	struct sp_model_stream s;
	long end_chunk;

	/* "end" counts at its 'd': the chunk holding offset e + 2 */
	expect_stream(txt, len, 0, 0, e + 2, 64);
	expect_stream(txt, len, 0, 0, e + 2, len + 1);
	/* without the newline too, and never without "end" */
	expect_stream(txt, len - 1, 0, 0, e + 2, 64);
	expect_stream(txt, len - 4, 0, 0, -1, 64);
	expect_stream(txt, len - 2, 0, 0, -1, 64);	/* "en" */
	/* "end" then "ing": the word is no kind */
	memcpy(txt + len - 1, "ing\n", 5);
	expect_stream(txt, len + 3, -EINVAL, e + 3, e + 2, 64);
	assert_int_equal(feed_chunks(txt, len + 3, 1, &s, &end_chunk), -EINVAL);
	assert_string_equal(s.msg, "unknown line kind");
	/* "end#x" is one word, as for the parser */
	memcpy(txt + len - 1, "#x\n", 4);
	expect_stream(txt, len + 2, -EINVAL, e + 3, e + 2, 64);
	assert_int_not_equal(parse(txt), 0);
}

static void test_stream_after_end(void **state)
{
	static const char *const fine[] = {
		" # a comment on the end line\n", "\n# a comment line\n\n",
		"\r\n\t\n#\xc3\xa9\xff\n", "   ", "\n\n\n",
	};
	static const char *const bad[] = {
		"\nlevel name=more\n", " junk\n", "\n\xc3\xa9\n", "\nend\n",
		"\n  x", " x#", "\n#ok\nopp",
	};
	static const size_t bad_at[] = { 1, 1, 1, 1, 3, 1, 5 };
	size_t len = strlen(edit(0, NULL)) - 1;	/* up to "end", no LF */
	struct sp_model_stream s;
	long end_chunk;
	size_t i;

	for (i = 0; i < SP_ARRAY_SIZE(fine); i++) {
		strcpy(txt + len, fine[i]);
		expect_stream(txt, strlen(txt), 0, 0, (long)len - 1, 64);
		assert_int_equal(parse(txt), 0);
	}
	for (i = 0; i < SP_ARRAY_SIZE(bad); i++) {
		strcpy(txt + len, bad[i]);
		expect_stream(txt, strlen(txt), -EINVAL, (long)(len + bad_at[i]),
			      (long)len - 1, 64);
		assert_int_not_equal(parse(txt), 0);
	}
	strcpy(txt + len, "\nlevel name=more\n");
	feed_chunks(txt, strlen(txt), 3, &s, &end_chunk);
	assert_string_equal(s.msg, "text after end");
	assert_int_equal(s.line, 14);
}

static void test_stream_header_first(void **state)
{
	struct sp_model_stream s;

	expect_stream("level name=x\n", 13, -EINVAL, 0, -1, 13);
	sp_model_stream_init(&s);
	sp_model_stream_feed(&s, "level", 5);
	assert_string_equal(s.msg, "first line must be sched_power_model");
	expect_stream("# c\n \t\r\n  sched_power_model version=1", 36, 0, 0, -1, 36);
	expect_stream("sched_power_modelx", 18, -EINVAL, 17, -1, 18);
	expect_stream("sched_po", 8, 0, 0, -1, 8);
	expect_stream("end\n", 4, -EINVAL, 0, -1, 4);
	/* the kind of every later line is checked as it arrives */
	edit(5, "bogus key=1");
	expect_stream(txt, strlen(txt), -EINVAL, strstr(txt, "bogus") - txt, -1, 64);
	edit(5, "opp\tpd=0 khz=1600000 cap=800 uw=900000");
	expect_stream(txt, strlen(txt), 0, 0, (long)strlen(txt) - 2, 64);
}

static void test_stream_nul_blank_and_size(void **state)
{
	static char big[SP_MODEL_TEXT_MAX + 1];
	struct sp_model_stream s;

	expect_stream("sched_power_model # a\0b\n", 24, -EINVAL, 21, -1, 24);
	sp_model_stream_init(&s);
	assert_int_equal(sp_model_stream_feed(&s, " \t\r\n\n  ", 7), 0);
	assert_false(s.written);
	assert_int_equal(sp_model_stream_feed(&s, "#", 1), 0);
	assert_true(s.written);
	/* 256 KiB in all, not one byte more */
	memset(big, '#', sizeof(big));
	sp_model_stream_init(&s);
	assert_int_equal(sp_model_stream_feed(&s, big, SP_MODEL_TEXT_MAX - 1), 0);
	assert_int_equal(sp_model_stream_feed(&s, big, 1), 0);
	assert_int_equal(sp_model_stream_feed(&s, big, 1), -E2BIG);
	assert_int_equal(sp_model_stream_feed(&s, big, 0), -E2BIG);
}

/* Read models/@name with comment lines dropped (the canonical text). */
static size_t read_model(const char *name, char *buf, size_t size)
{
	const char *dir = getenv("SP_MODELS_DIR");
	char path[512], line[65536];
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "models", name);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s (run from the repository root)", path);
	buf[0] = '\0';
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#')
			len += (size_t)snprintf(buf + len, size - len, "%s", line);
	fclose(f);
	return len;
}

static void roundtrip(const char *name, u32 nr_cpus)
{
	size_t len = read_model(name, txt, sizeof(txt)), n;

	if (parse(txt))
		fail_msg("%s: line %d field %s: %s", name, err.line, err.field, err.msg);
	assert_int_equal(m.nr_cpus, nr_cpus);
	/* format(parse(t)) == t */
	n = sp_model_format(&m, out, sizeof(out));
	assert_int_equal(n, len);
	assert_string_equal(out, txt);
	/* parse(format(m)) == m, byte for byte apart from the source lines */
	assert_int_equal(sp_model_parse(out, n, &m2, &err), 0);
	assert_memory_equal(m.group, m2.group, sizeof(m.group));
	assert_memory_equal(m.pd, m2.pd, sizeof(m.pd));
	assert_memory_equal(m.cpu_group, m2.cpu_group, sizeof(m.cpu_group));
	assert_memory_equal(m.group_cpus, m2.group_cpus, sizeof(m.group_cpus));
	assert_int_equal(sp_model_validate(&m, &err), 0);
}

static void test_roundtrip_x86_2pkg(void **state)
{
	roundtrip("x86-2pkg.model", 4);
	/* qemu guest: 2 packages x 2 CPUs, one pd per package */
	assert_int_equal(m.nr_pds, 2);
	assert_int_equal(m.cpu_group[0][1], 0);
	assert_int_equal(m.cpu_group[0][2], 1);
}

static void test_roundtrip_phone(void **state)
{
	roundtrip("phone-biglittle.model", 8);
	assert_int_equal(m.nr_levels, 2);
	assert_int_equal(m.cpu_pd[3], 0);
	assert_int_equal(m.cpu_pd[4], 1);
}

static void test_roundtrip_server_64(void **state)
{
	roundtrip("server-64.model", 64);
	/* 8 pds of 8 CPUs; 8 clusters and 2 packages */
	assert_int_equal(m.nr_pds, 8);
	assert_int_equal(m.level[1].nr_groups, 2);
	assert_int_equal(m.group[m.level[1].first_group].nr_children, 4);
}

static void test_roundtrip_server_256(void **state)
{
	roundtrip("server-256.model", 256);
	/* core 128, cluster 32, package 4, node 2 */
	assert_int_equal(m.nr_levels, 4);
	assert_int_equal(m.nr_groups, 128 + 32 + 4 + 2);
	assert_int_equal(m.nr_pds, 32);
	assert_int_equal(m.cpu_group[3][255], m.level[3].first_group + 1);
}

static void test_format_truncates_like_snprintf(void **state)
{
	char small[16];
	size_t full;

	assert_int_equal(parse(edit(0, NULL)), 0);
	full = sp_model_format(&m, out, sizeof(out));
	assert_int_equal(full, strlen(edit(0, NULL)));
	assert_int_equal(sp_model_format(&m, small, sizeof(small)), full);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_memory_equal(small, out, sizeof(small) - 1);
}

static void test_synthetic_is_x86_2pkg(void **state)
{
	static const u16 pkg[4] = { 0, 0, 1, 1 };

	assert_int_equal(sp_model_synthetic(&m, 4, pkg, NULL), 0);
	assert_int_equal(sp_model_validate(&m, &err), 0);
	sp_model_format(&m, out, sizeof(out));
	read_model("x86-2pkg.model", txt, sizeof(txt));
	assert_string_equal(out, txt);
}

static void test_synthetic_smt_validates(void **state)
{
	/* 8 CPUs numbered like Linux on x86: siblings are n and n + 4 */
	static const u16 pkg[8] = { 0, 0, 1, 1, 0, 0, 1, 1 };
	static const u16 core[8] = { 0, 1, 2, 3, 0, 1, 2, 3 };

	assert_int_equal(sp_model_synthetic(&m, 8, pkg, core), 0);
	assert_int_equal(sp_model_validate(&m, &err), 0);
	assert_int_equal(m.nr_levels, 2);
	assert_string_equal(m.level[0].name, "core");
	assert_int_equal(m.level[0].nr_groups, 4);
	assert_int_equal(m.nr_pds, 2);
	/* CPUs 0 and 4 share a core; cores of package 0 come first */
	assert_int_equal(m.cpu_group[0][0], m.cpu_group[0][4]);
	assert_int_equal(m.group[m.cpu_group[0][5]].parent, m.cpu_group[1][0]);
	assert_int_equal(m.pd[m.cpu_pd[6]].nr_cpus, 4);
	assert_fixed_point();
}

static void test_synthetic_bad_args(void **state)
{
	static const u16 pkg[2] = { 0, SP_NONE };

	assert_int_equal(sp_model_synthetic(&m, 0, pkg, NULL), -EINVAL);
	assert_int_equal(sp_model_synthetic(&m, SP_MAX_CPUS + 1, pkg, NULL), -E2BIG);
	assert_int_equal(sp_model_synthetic(&m, 2, pkg, NULL), -EINVAL);
}

static void test_validate_catches_built_models(void **state)
{
	static const u16 pkg[4] = { 0, 0, 1, 1 };

	assert_int_equal(sp_model_synthetic(&m, 4, pkg, NULL), 0);
	m.pd[1].opp[2].freq_khz = m.pd[1].opp[1].freq_khz;
	assert_int_equal(sp_model_validate(&m, &err), -EINVAL);
	assert_string_equal(err.field, "khz");

	assert_int_equal(sp_model_synthetic(&m, 4, pkg, NULL), 0);
	m.cpu_group[0][3] = 0;	/* CPU 3 claimed by the wrong package */
	assert_int_equal(sp_model_validate(&m, &err), -EINVAL);
	assert_string_equal(err.field, "cpus");

	/* capacity 1..1024: the parser refuses 1025 as a number out of range,
	 * sp_model_validate() in its OPP rule */
	assert_int_equal(sp_model_synthetic(&m, 4, pkg, NULL), 0);
	m.pd[0].opp[m.pd[0].nr_opps - 1].cap = SP_CAP_SCALE + 1;
	assert_int_equal(sp_model_validate(&m, &err), -EINVAL);
	assert_string_equal(err.field, "cap");

	assert_int_equal(sp_model_synthetic(&m, 4, pkg, NULL), 0);
	m.pd[0].nr_idle = 0;
	assert_int_equal(sp_model_validate(&m, &err), -EINVAL);
	assert_string_equal(err.field, "idle");

	/* sp_model_link() recomputes what was broken in the derived tables */
	assert_int_equal(sp_model_synthetic(&m, 4, pkg, NULL), 0);
	m.cpu_group[0][3] = 0;
	m.cpu_pd[0] = 1;
	assert_int_equal(sp_model_link(&m, &err), 0);
	assert_int_equal(sp_model_validate(&m, &err), 0);
}

static u32 max_u32(u32 a, u32 b)
{
	return a > b ? a : b;
}

/* The idle-path table of every pd of @mm says what the pd's tables do. */
static void check_idle_derived(const struct sp_model *mm)
{
	u32 i, k, u;

	for (i = 0; i < mm->nr_pds; i++) {
		const struct sp_pd *pd = &mm->pd[i];
		const struct sp_pd_idle *pi = &mm->pd_idle[i];

		assert_int_equal(pi->deepest, pd->nr_idle ? pd->nr_idle - 1 : 0);
		assert_int_equal(pi->opp_clamp, pd->nr_opps ? pd->nr_opps - 1u : SP_OPP_NO_CLAMP);
		for (k = 0; k <= pi->deepest; k++) {
			u32 t = pd->nr_idle ? pd->idle[k].target_residency_us : 0;

			assert_int_equal(pi->idle_target_us[k], t);
			if (k == pi->deepest)
				assert_true(pi->idle_late_us[k] == ~0ull);
			else
				assert_true(pi->idle_late_us[k] ==
					    max_u32(pd->idle[k + 1].target_residency_us, t));
		}
		for (u = 0; u <= SP_CAP_SCALE; u++) {
			u32 want = sp_model_pd_opp_idx(pd, (5 * u + 3) / 4);

			assert_int_equal(want, sp_model_pd_opp_for(pd, (5 * u + 3) / 4));
			for (k = 0; k < 256; k++)
				assert_int_equal(sp_model_pd_opp_keeps(pi, k, u), k == want);
		}
		/* the step table ends the walk at the highest OPP for any request */
		assert_int_equal(sp_model_pd_opp_idx(pd, 0xffffffffu),
				 sp_model_pd_opp_for(pd, 0xffffffffu));
	}
}

/*
 * The idle-path tables (sp_pd_idle) of the shared models, of a synthetic
 * one, and of pds with capacities out of order (a built model before
 * validation) or without OPPs and idle states.
 */
/* Each CPU's slowest wake-up: deepest state, then every group above it. */
static void test_wake_max_derived(void **state)
{
	assert_int_equal(parse(phone), 0);
	assert_int_equal(m.cpu_wake_max_us[0], 150 + 400 + 500);
	assert_int_equal(m.cpu_wake_max_us[3], 150 + 400 + 500);
	assert_int_equal(m.cpu_wake_max_us[4], 300 + 800 + 500);
	assert_int_equal(m.cpu_wake_max_us[7], 300 + 800 + 500);
	assert_int_equal(parse(edit(0, NULL)), 0);
	assert_int_equal(m.cpu_wake_max_us[2], 100 + m.group[1].exit_latency_us);
}

/*
 * Exit latencies are at most SP_EXIT_US_MAX (100 s), so that a CPU's chain
 * of latencies cannot wrap the u32 sums of the wake-up path: a deepest
 * state of 2^32 - 1 us under a group of 2 us summed to 1 us.
 */
static void test_exit_us_max(void **state)
{
	static const u16 pkg[4] = { 0, 0, 1, 1 };

	expect_err(edit(10, "idle pd=1 name=C6 uw=1000 exit_us=4294967295 target_us=300 wake_uj=30"),
		   -EINVAL, 10, "exit_us");
	expect_err(edit(10, "idle pd=1 name=C6 uw=1000 exit_us=100000001 target_us=300 wake_uj=30"),
		   -EINVAL, 10, "exit_us");
	expect_err(edit(12, "group level=package id=1 cpus=2-3 active_uw=400000 idle_uw=20000 wake_uj=300 exit_us=100000001"),
		   -EINVAL, 12, "exit_us");
	/* the largest latencies: the chain is their exact sum */
	assert_int_equal(parse(edit(12, "group level=package id=1 cpus=2-3 active_uw=400000 idle_uw=20000 wake_uj=300 exit_us=100000000")), 0);
	assert_int_equal(m.cpu_wake_max_us[2], 100 + 100000000);
	assert_int_equal(parse(edit(10, "idle pd=1 name=C6 uw=1000 exit_us=100000000 target_us=300 wake_uj=30")), 0);
	assert_int_equal(m.cpu_wake_max_us[3], 100000000 + 50);

	/* a built model: sp_model_validate() applies the same limit */
	assert_int_equal(sp_model_synthetic(&m, 4, pkg, NULL), 0);
	m.pd[0].idle[m.pd[0].nr_idle - 1].exit_latency_us = SP_EXIT_US_MAX + 1;
	assert_int_equal(sp_model_validate(&m, &err), -EINVAL);
	assert_string_equal(err.field, "exit_us");
	assert_int_equal(sp_model_synthetic(&m, 4, pkg, NULL), 0);
	m.group[0].exit_latency_us = SP_EXIT_US_MAX + 1;
	assert_int_equal(sp_model_validate(&m, &err), -EINVAL);
	assert_string_equal(err.field, "exit_us");
	m.group[0].exit_latency_us = SP_EXIT_US_MAX;
	assert_int_equal(sp_model_validate(&m, &err), 0);
}

/*
 * A pd's CPUs times its highest OPP's power stay below 2^40 uW
 * (SP_PD_POWER_MAX_UW), where sp_energy.c clamps a busy power: 512 CPUs
 * at 4294967295 uW, 2^41 uW together, clamped before and after a task
 * was added, made the task cost 0 nJ.
 */
static char big_pd[1024];

static const char *big_pd_model(u32 n, u32 uw)
{
	snprintf(big_pd, sizeof(big_pd),
		 "sched_power_model version=1 cpus=%u\n"
		 "level name=package\n"
		 "pd id=0 cpus=0-%u\n"
		 "opp pd=0 khz=1000 cap=512 uw=1000\n"
		 "opp pd=0 khz=2000 cap=1024 uw=%u\n"
		 "idle pd=0 name=C1 uw=0 exit_us=1 target_us=1 wake_uj=0\n"
		 "group level=package id=0 cpus=0-%u active_uw=0 idle_uw=0 wake_uj=0 exit_us=0\n"
		 "end\n", n, n - 1, uw, n - 1);
	return big_pd;
}

static void test_pd_power_max(void **state)
{
	expect_err(big_pd_model(512, 4294967295u), -EINVAL, 3, "uw");
	expect_err(big_pd_model(257, 4294967295u), -EINVAL, 3, "uw");
	expect_err(big_pd_model(512, 2147483648u), -EINVAL, 3, "uw");
	assert_int_equal(parse(big_pd_model(256, 4294967295u)), 0);
	assert_int_equal(parse(big_pd_model(512, 2147483647u)), 0);
	/* sp_model_validate() applies it to a linked model, built or parsed */
	m.pd[0].opp[1].power_uw = 2147483648u;
	assert_int_equal(sp_model_validate(&m, &err), -EINVAL);
	assert_string_equal(err.field, "uw");
}

static void test_idle_derived(void **state)
{
	static const u16 pkg[4] = { 0, 0, 1, 1 };
	u32 k, u, kept = 0;

	assert_int_equal(sp_model_parse(x86_2pkg, sizeof(x86_2pkg) - 1, &m, &err), 0);
	check_idle_derived(&m);
	assert_int_equal(sp_model_parse(phone, sizeof(phone) - 1, &m, &err), 0);
	check_idle_derived(&m);
	assert_int_equal(sp_model_synthetic(&m, 4, pkg, NULL), 0);
	check_idle_derived(&m);
	for (u = 0; u <= SP_CAP_SCALE; u++)
		for (k = 0; k < SP_MAX_OPPS; k++)
			kept += sp_model_pd_opp_keeps(&m.pd_idle[0], k, u);
	assert_int_equal(kept, SP_CAP_SCALE + 1);	/* every u is kept by one OPP */
	m.pd[0].opp[0].cap = 700;
	m.pd[0].opp[1].cap = 100;
	m.pd[0].opp[m.pd[0].nr_opps - 1].cap = 50;
	m.pd[1].nr_opps = 0;
	m.pd[1].nr_idle = 0;
	sp_model_derive(&m);
	check_idle_derived(&m);
}

static void test_set_pds_per_cpu(void **state)
{
	/* intel_pstate-like: one cpufreq policy, so one pd, per CPU */
	static const u16 pkg[4] = { 0, 0, 1, 1 };
	static const u16 pd_of[4] = { 0, 1, 2, 3 };
	struct sp_pd tmpl;
	u32 c;

	assert_int_equal(sp_model_synthetic(&m, 4, pkg, NULL), 0);
	tmpl = m.pd[0];
	tmpl.opp[0].power_uw = 123;
	assert_int_equal(sp_model_set_pds(&m, pd_of, &tmpl), 0);
	assert_int_equal(m.nr_pds, 4);
	for (c = 0; c < 4; c++) {
		assert_int_equal(m.cpu_pd[c], c);
		assert_int_equal(m.pd[c].nr_cpus, 1);
		assert_int_equal(m.pd[c].id, c);
		assert_int_equal(m.pd[c].opp[0].power_uw, 123);
	}
	/* groups untouched: still two packages */
	assert_int_equal(m.nr_groups, 2);
	assert_int_equal(sp_model_validate(&m, &err), 0);
}

static void test_add_node_level(void **state)
{
	static const u16 pkg[8] = { 0, 0, 1, 1, 0, 0, 1, 1 };
	static const u16 core[8] = { 0, 1, 2, 3, 0, 1, 2, 3 };
	static const u16 node_ok[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
	static const u16 node_bad[8] = { 0, 1, 0, 1, 0, 1, 0, 1 };
	static const struct sp_group tmpl = { .active_uw = 4000000, .idle_uw = 1000000,
					      .wakeup_uj = 2000, .exit_latency_us = 500 };

	assert_int_equal(sp_model_synthetic(&m, 8, pkg, core), 0);
	sp_model_format(&m, out, sizeof(out));
	/* package 0 = {0,1,4,5} would straddle nodes 0 and 1: refused, unchanged */
	assert_int_equal(sp_model_add_level(&m, "node", node_bad, &tmpl), -EINVAL);
	sp_model_format(&m, out2, sizeof(out2));
	assert_string_equal(out, out2);
	assert_int_equal(sp_model_add_level(&m, "node", node_ok, &tmpl), 0);
	assert_int_equal(m.nr_levels, 3);
	assert_string_equal(m.level[2].name, "node");
	assert_int_equal(m.level[2].nr_groups, 1);
	/* 4 cores + 2 packages + 1 node */
	assert_int_equal(m.nr_groups, 7);
	assert_int_equal(m.group[6].nr_children, 2);
	assert_int_equal(m.group[6].active_uw, 4000000);
	assert_int_equal(sp_model_validate(&m, &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base_parses),
		cmocka_unit_test(test_err_unknown_key),
		cmocka_unit_test(test_err_unknown_kind),
		cmocka_unit_test(test_err_not_key_value),
		cmocka_unit_test(test_err_missing_key),
		cmocka_unit_test(test_err_duplicate_key),
		cmocka_unit_test(test_err_out_of_range),
		cmocka_unit_test(test_err_cap_over_1024),
		cmocka_unit_test(test_cap_1024_ok),
		cmocka_unit_test(test_div_rcp_exact),
		cmocka_unit_test(test_err_cap_zero),
		cmocka_unit_test(test_err_cap_above_scale),
		cmocka_unit_test(test_err_opp_freq_not_increasing),
		cmocka_unit_test(test_err_opp_cap_not_increasing),
		cmocka_unit_test(test_err_opp_power_not_increasing),
		cmocka_unit_test(test_err_idle_order),
		cmocka_unit_test(test_poll_roundtrip),
		cmocka_unit_test(test_err_poll_after_sleep),
		cmocka_unit_test(test_err_group_idle_above_active),
		cmocka_unit_test(test_err_missing_levels),
		cmocka_unit_test(test_err_level_without_groups),
		cmocka_unit_test(test_err_pd_without_opp),
		cmocka_unit_test(test_err_pd_without_idle),
		cmocka_unit_test(test_err_cpu_in_no_pd),
		cmocka_unit_test(test_err_cpu_in_two_pds),
		cmocka_unit_test(test_err_cpu_in_no_group),
		cmocka_unit_test(test_err_cpu_in_two_groups),
		cmocka_unit_test(test_err_group_not_nested),
		cmocka_unit_test(test_groups_gathered_under_parents),
		cmocka_unit_test(test_err_too_many_opps),
		cmocka_unit_test(test_err_too_many_idle_states),
		cmocka_unit_test(test_err_too_many_cpus),
		cmocka_unit_test(test_err_too_many_pds),
		cmocka_unit_test(test_err_too_many_levels),
		cmocka_unit_test(test_err_too_many_groups),
		cmocka_unit_test(test_err_numeric_overflow),
		cmocka_unit_test(test_u32_max_accepted),
		cmocka_unit_test(test_err_number_junk),
		cmocka_unit_test(test_err_oversized_input),
		cmocka_unit_test(test_max_size_input_accepted),
		cmocka_unit_test(test_err_empty_input),
		cmocka_unit_test(test_err_header_not_first),
		cmocka_unit_test(test_err_duplicate_ids),
		cmocka_unit_test(test_err_bad_cpu_list),
		cmocka_unit_test(test_err_bad_name),
		cmocka_unit_test(test_err_unknown_refs),
		cmocka_unit_test(test_err_text_after_end),
		cmocka_unit_test(test_lenient_whitespace_comments_order),
		cmocka_unit_test(test_high_bit_bytes_are_not_blanks),
		cmocka_unit_test(test_err_nul_byte),
		cmocka_unit_test(test_stream_high_bit_refused_at_once),
		cmocka_unit_test(test_stream_end),
		cmocka_unit_test(test_stream_after_end),
		cmocka_unit_test(test_stream_header_first),
		cmocka_unit_test(test_stream_nul_blank_and_size),
		cmocka_unit_test(test_roundtrip_x86_2pkg),
		cmocka_unit_test(test_roundtrip_phone),
		cmocka_unit_test(test_roundtrip_server_64),
		cmocka_unit_test(test_roundtrip_server_256),
		cmocka_unit_test(test_format_truncates_like_snprintf),
		cmocka_unit_test(test_synthetic_is_x86_2pkg),
		cmocka_unit_test(test_synthetic_smt_validates),
		cmocka_unit_test(test_synthetic_bad_args),
		cmocka_unit_test(test_validate_catches_built_models),
		cmocka_unit_test(test_set_pds_per_cpu),
		cmocka_unit_test(test_wake_max_derived),
		cmocka_unit_test(test_exit_us_max),
		cmocka_unit_test(test_pd_power_max),
		cmocka_unit_test(test_idle_derived),
		cmocka_unit_test(test_add_node_level),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
