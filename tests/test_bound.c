// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of core/sp_bound.c: what a write to /dev/sched_power_latency
 * means, the floor, who may add a bound (per-user limit, the reserve), and
 * which CPUs a bound holds (where a thread can run, the recent-run rule,
 * the per-user CPU cap).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sp_compat.h"
#include "sp_bound.h"

static int parse_bin(s32 v, u32 *us)
{
	char b[4];

	memcpy(b, &v, sizeof(b));
	return sp_bound_parse(b, sizeof(b), us);
}

static void test_parse_binary(void **s)
{
	u32 us = 7;

	assert_int_equal(parse_bin(200, &us), 0);
	assert_int_equal(us, 200);
	assert_int_equal(parse_bin(0, &us), 0);
	assert_int_equal(us, 0);
	assert_int_equal(parse_bin((s32)SP_BOUND_MAX_US, &us), 0);
	assert_int_equal(us, SP_BOUND_MAX_US);
}

static void test_parse_binary_bad_unchanged(void **s)
{
	u32 us = 77;

	assert_int_equal(parse_bin(-1, &us), -EINVAL);
	assert_int_equal(parse_bin((s32)SP_BOUND_MAX_US + 1, &us), -EINVAL);
	assert_int_equal(parse_bin(INT32_MIN, &us), -EINVAL);
	/* short binary writes: 1-3 bytes that are not ASCII */
	assert_int_equal(sp_bound_parse("\x10", 1, &us), -EINVAL);
	assert_int_equal(sp_bound_parse("\x10\x00", 2, &us), -EINVAL);
	assert_int_equal(sp_bound_parse("\x10\x00\x00", 3, &us), -EINVAL);
	assert_int_equal(us, 77);
}

static void test_parse_ascii(void **s)
{
	u32 us = 0;

	assert_int_equal(sp_bound_parse("200", 3, &us), 0);
	assert_int_equal(us, 200);
	assert_int_equal(sp_bound_parse("150\n", 4, &us), 0);	/* 4 bytes, ASCII */
	assert_int_equal(us, 150);
	assert_int_equal(sp_bound_parse("7", 1, &us), 0);
	assert_int_equal(us, 7);
	assert_int_equal(sp_bound_parse("2000000\n", 8, &us), 0);
	assert_int_equal(us, SP_BOUND_MAX_US);
	assert_int_equal(sp_bound_parse("1000", 4, &us), 0);	/* not binary */
	assert_int_equal(us, 1000);
}

static void test_parse_ascii_bad(void **s)
{
	static const char *const bad[] = {
		"", "\n", "-1", "-1\n", "+5", " 5", "5 ", "5\n\n", "abc",
		"12a", "2000001", "99999999999", "0x10", "5\n6",
	};
	u32 us = 33;
	size_t i;

	for (i = 0; i < SP_ARRAY_SIZE(bad); i++)
		assert_int_equal(sp_bound_parse(bad[i], strlen(bad[i]), &us), -EINVAL);
	assert_int_equal(us, 33);
}

/* No valid binary bound reads as ASCII, and vice versa at 4 bytes. */
static void test_parse_forms_disjoint(void **s)
{
	u32 v, us;

	for (v = 0; v <= SP_BOUND_MAX_US; v += 997) {
		assert_int_equal(parse_bin((s32)v, &us), 0);
		assert_int_equal(us, v);
	}
}

static void test_floor(void **s)
{
	static struct sp_model m;

	memset(&m, 0, sizeof(m));
	assert_int_equal(sp_bound_floor_us(NULL), SP_BOUND_FLOOR_MARGIN_US);
	assert_int_equal(sp_bound_floor_us(&m), SP_BOUND_FLOOR_MARGIN_US);
	m.nr_pds = 2;
	m.pd[0].nr_idle = 3;
	m.pd[0].idle[0].exit_latency_us = 0;	/* polling: not a floor */
	m.pd[0].idle[1].exit_latency_us = 40;
	m.pd[0].idle[2].exit_latency_us = 300;
	m.pd[1].nr_idle = 2;
	m.pd[1].idle[0].exit_latency_us = 25;
	m.pd[1].idle[1].exit_latency_us = 500;
	m.pd[1].idle[2].exit_latency_us = 1;	/* beyond nr_idle: ignored */
	assert_int_equal(sp_bound_floor_us(&m), 25 + SP_BOUND_FLOOR_MARGIN_US);
	assert_int_equal(sp_bound_effective_us(0, 35), 35);
	assert_int_equal(sp_bound_effective_us(34, 35), 35);
	assert_int_equal(sp_bound_effective_us(200, 35), 200);
}

static void test_admit_user(void **s)
{
	assert_int_equal(sp_bound_admit(0, 0, false), 0);
	assert_int_equal(sp_bound_admit(10, SP_BOUND_MAX_PER_USER - 1, false), 0);
	assert_int_equal(sp_bound_admit(10, SP_BOUND_MAX_PER_USER, false), -ENOSPC);
	/* a privileged writer is not held to the per-user limit */
	assert_int_equal(sp_bound_admit(10, SP_BOUND_MAX_PER_USER, true), 0);
	assert_int_equal(sp_bound_admit(10, 5 * SP_BOUND_MAX_PER_USER, true), 0);
}

/*
 * The pool keeps SP_BOUND_RESERVED slots that only privileged writers can
 * take: 16 users x 256 bounds (4096) cannot fill it, root still gets one.
 */
static void test_admit_reserve(void **s)
{
	u32 total = 0, user, n, refused = 0;

	for (user = 0; user < 16; user++) {
		for (n = 0; n < SP_BOUND_MAX_PER_USER; n++) {
			if (sp_bound_admit(total, n, false))
				refused++;
			else
				total++;
		}
	}
	assert_int_equal(total, SP_BOUND_MAX_HOLDS - SP_BOUND_RESERVED);
	assert_int_equal(refused, 16 * SP_BOUND_MAX_PER_USER - total);
	assert_int_equal(sp_bound_admit(total, 0, false), -ENOSPC);
	for (n = 0; n < SP_BOUND_RESERVED; n++)
		assert_int_equal(sp_bound_admit(total++, 0, true), 0);
	assert_int_equal(total, SP_BOUND_MAX_HOLDS);
	assert_int_equal(sp_bound_admit(total, 0, true), -ENOSPC);
}

static void test_fold(void **s)
{
	u32 want[4] = { SP_BOUND_NONE, SP_BOUND_NONE, SP_BOUND_NONE, SP_BOUND_NONE };

	sp_bound_fold(want, 4, 1, 300);
	sp_bound_fold(want, 4, 1, 120);
	sp_bound_fold(want, 4, 1, 500);
	sp_bound_fold(want, 4, 3, 80);
	sp_bound_fold(want, 4, -1, 10);	/* out of range: ignored */
	sp_bound_fold(want, 4, 4, 10);
	sp_bound_fold(want, 4, 2, SP_BOUND_NONE);
	assert_int_equal(want[0], SP_BOUND_NONE);
	assert_int_equal(want[1], 120);
	assert_int_equal(want[2], SP_BOUND_NONE);
	assert_int_equal(want[3], 80);
}

/* Requests follow where the thread can run, or are dropped. */
static void test_thread_cpu(void **s)
{
	assert_int_equal(sp_bound_thread_cpu(2, true, 2, 2), 2);
	assert_int_equal(sp_bound_thread_cpu(3, true, 1, 3), 3);
	/* re-pinned from CPU 3 to CPU 0 while asleep on 3: CPU 0 */
	assert_int_equal(sp_bound_thread_cpu(3, false, 1, 0), 0);
	/* affinity {2,3} -> {0,1} while on 2: nowhere until it is placed */
	assert_int_equal(sp_bound_thread_cpu(2, false, 2, 0), -1);
}

static void test_thread_recent(void **s)
{
	const u64 now = 5000000000ull;

	assert_true(sp_bound_thread_recent(true, now, 0));
	assert_false(sp_bound_thread_recent(false, now, 0));	/* never ran */
	assert_true(sp_bound_thread_recent(false, now, now));
	assert_true(sp_bound_thread_recent(false, now, now - SP_BOUND_RECENT_NS));
	assert_false(sp_bound_thread_recent(false, now, now - SP_BOUND_RECENT_NS - 1));
	assert_true(sp_bound_thread_recent(false, now, now + 1000));	/* clocks skewed */
}

static void test_user_cpus(void **s)
{
	struct sp_bound_user_cpus u = { 0 };
	s32 cpu;

	assert_true(sp_bound_user_take(&u, 3));
	assert_true(sp_bound_user_take(&u, 3));
	assert_int_equal(u.nr, 1);
	for (cpu = 0; cpu < 64; cpu++) {
		bool room = !sp_bound_user_full(&u);

		assert_true(sp_bound_user_take(&u, cpu) == (cpu == 3 || room));
	}
	assert_true(sp_bound_user_full(&u));
	assert_int_equal(u.nr, SP_BOUND_USER_CPUS);
	assert_true(sp_bound_user_take(&u, 3));
	assert_false(sp_bound_user_take(&u, 63));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_binary),
		cmocka_unit_test(test_parse_binary_bad_unchanged),
		cmocka_unit_test(test_parse_ascii),
		cmocka_unit_test(test_parse_ascii_bad),
		cmocka_unit_test(test_parse_forms_disjoint),
		cmocka_unit_test(test_floor),
		cmocka_unit_test(test_admit_user),
		cmocka_unit_test(test_admit_reserve),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_thread_cpu),
		cmocka_unit_test(test_thread_recent),
		cmocka_unit_test(test_user_cpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
