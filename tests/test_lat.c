// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of core/sp_lat.c: what a write to /dev/sched_power_latency
 * means, the floor, the limits, the per-CPU resume-latency wish.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sp_compat.h"
#include "sp_lat.h"

static int parse_bin(s32 v, u32 *us)
{
	char b[4];

	memcpy(b, &v, sizeof(b));
	return sp_lat_parse(b, sizeof(b), us);
}

static void test_parse_binary(void **s)
{
	u32 us = 7;

	assert_int_equal(parse_bin(200, &us), 0);
	assert_int_equal(us, 200);
	assert_int_equal(parse_bin(0, &us), 0);
	assert_int_equal(us, 0);
	assert_int_equal(parse_bin((s32)SP_LAT_MAX_US, &us), 0);
	assert_int_equal(us, SP_LAT_MAX_US);
}

static void test_parse_binary_bad_unchanged(void **s)
{
	u32 us = 77;

	assert_int_equal(parse_bin(-1, &us), -EINVAL);
	assert_int_equal(parse_bin((s32)SP_LAT_MAX_US + 1, &us), -EINVAL);
	assert_int_equal(parse_bin(INT32_MIN, &us), -EINVAL);
	/* short binary writes: 1-3 bytes that are not ASCII */
	assert_int_equal(sp_lat_parse("\x10", 1, &us), -EINVAL);
	assert_int_equal(sp_lat_parse("\x10\x00", 2, &us), -EINVAL);
	assert_int_equal(sp_lat_parse("\x10\x00\x00", 3, &us), -EINVAL);
	assert_int_equal(us, 77);
}

static void test_parse_ascii(void **s)
{
	u32 us = 0;

	assert_int_equal(sp_lat_parse("200", 3, &us), 0);
	assert_int_equal(us, 200);
	assert_int_equal(sp_lat_parse("150\n", 4, &us), 0);	/* 4 bytes, ASCII */
	assert_int_equal(us, 150);
	assert_int_equal(sp_lat_parse("7", 1, &us), 0);
	assert_int_equal(us, 7);
	assert_int_equal(sp_lat_parse("2000000\n", 8, &us), 0);
	assert_int_equal(us, SP_LAT_MAX_US);
	assert_int_equal(sp_lat_parse("1000", 4, &us), 0);	/* not binary */
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
		assert_int_equal(sp_lat_parse(bad[i], strlen(bad[i]), &us), -EINVAL);
	assert_int_equal(us, 33);
}

/* No valid binary bound reads as ASCII, and vice versa at 4 bytes. */
static void test_parse_forms_disjoint(void **s)
{
	u32 v, us;

	for (v = 0; v <= SP_LAT_MAX_US; v += 997) {
		assert_int_equal(parse_bin((s32)v, &us), 0);
		assert_int_equal(us, v);
	}
}

static void test_floor(void **s)
{
	static struct sp_model m;

	memset(&m, 0, sizeof(m));
	assert_int_equal(sp_lat_floor_us(NULL), SP_LAT_FLOOR_MARGIN_US);
	assert_int_equal(sp_lat_floor_us(&m), SP_LAT_FLOOR_MARGIN_US);
	m.nr_pds = 2;
	m.pd[0].nr_idle = 3;
	m.pd[0].idle[0].exit_latency_us = 0;	/* polling: not a floor */
	m.pd[0].idle[1].exit_latency_us = 40;
	m.pd[0].idle[2].exit_latency_us = 300;
	m.pd[1].nr_idle = 2;
	m.pd[1].idle[0].exit_latency_us = 25;
	m.pd[1].idle[1].exit_latency_us = 500;
	m.pd[1].idle[2].exit_latency_us = 1;	/* beyond nr_idle: ignored */
	assert_int_equal(sp_lat_floor_us(&m), 25 + SP_LAT_FLOOR_MARGIN_US);
	assert_int_equal(sp_lat_effective_us(0, 35), 35);
	assert_int_equal(sp_lat_effective_us(34, 35), 35);
	assert_int_equal(sp_lat_effective_us(200, 35), 200);
}

static void test_admit(void **s)
{
	assert_int_equal(sp_lat_admit(0, 0), 0);
	assert_int_equal(sp_lat_admit(SP_LAT_MAX_ENTRIES - 1, SP_LAT_MAX_PER_UID - 1), 0);
	assert_int_equal(sp_lat_admit(SP_LAT_MAX_ENTRIES, 0), -ENOSPC);
	assert_int_equal(sp_lat_admit(10, SP_LAT_MAX_PER_UID), -ENOSPC);
}

static void test_fold(void **s)
{
	u32 want[4] = { SP_LAT_NONE, SP_LAT_NONE, SP_LAT_NONE, SP_LAT_NONE };

	sp_lat_fold(want, 4, 1, 300);
	sp_lat_fold(want, 4, 1, 120);
	sp_lat_fold(want, 4, 1, 500);
	sp_lat_fold(want, 4, 3, 80);
	sp_lat_fold(want, 4, -1, 10);	/* out of range: ignored */
	sp_lat_fold(want, 4, 4, 10);
	sp_lat_fold(want, 4, 2, SP_LAT_NONE);
	assert_int_equal(want[0], SP_LAT_NONE);
	assert_int_equal(want[1], 120);
	assert_int_equal(want[2], SP_LAT_NONE);
	assert_int_equal(want[3], 80);
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
		cmocka_unit_test(test_admit),
		cmocka_unit_test(test_fold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
