// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead.c - make vm-overhead's statistics (tools/overhead/
 * ovh_stats_lib.c): the median, the bootstrap interval of the median and
 * the rule that prints "cannot tell" instead of a ratio.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "ovh_stats.h"

static void test_median(void **state)
{
	const double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 };

	assert_true(ovh_median(odd, 3) == 2);
	assert_true(ovh_median(even, 4) == 2.5);
	/* the input is not reordered */
	assert_true(odd[0] == 3 && even[0] == 4);
}

static void test_boot_constant(void **state)
{
	const double v[] = { 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05 };
	struct ovh_ci ci;

	assert_int_equal(ovh_boot_ci(v, 10, 2000, 1, &ci), 0);
	assert_true(ci.median == 1.05 && ci.lo == 1.05 && ci.hi == 1.05);
	assert_int_equal(ovh_judge(&ci, OVH_TOL), OVH_OVER);
}

static void test_boot_empty(void **state)
{
	struct ovh_ci ci;

	assert_int_equal(ovh_boot_ci(NULL, 0, 100, 1, &ci), -1);
}

/* Same seed, same interval; the interval holds the median and lies within
 * the samples' range. */
static void test_boot_reproducible(void **state)
{
	const double v[] = { 0.98, 1.01, 1.00, 0.99, 1.02, 1.00, 1.01, 0.97, 1.03, 1.00, 0.99 };
	struct ovh_ci a, b;

	assert_int_equal(ovh_boot_ci(v, 11, 5000, 42, &a), 0);
	assert_int_equal(ovh_boot_ci(v, 11, 5000, 42, &b), 0);
	assert_true(a.lo == b.lo && a.hi == b.hi);
	assert_true(a.median == 1.00);
	assert_true(a.lo <= a.median && a.median <= a.hi);
	assert_true(a.lo >= 0.97 && a.hi <= 1.03);
	/* the median of 11 such values moves little: a tight interval */
	assert_true(a.hi - a.lo <= 0.03);
	assert_int_equal(ovh_judge(&a, OVH_TOL), OVH_WITHIN);
}

/* Host noise as seen on the 2-core machine: samples from 0.75 to 1.40. */
static void test_noisy_cannot_tell(void **state)
{
	const double v[] = { 1.12, 0.80, 1.35, 0.95, 1.21, 0.75, 1.40, 1.02, 0.88, 1.30 };
	struct ovh_ci ci;

	assert_int_equal(ovh_boot_ci(v, 10, OVH_BOOT_RESAMPLES, 7, &ci), 0);
	assert_true(ci.hi - ci.lo > 0.1);
	assert_int_equal(ovh_judge(&ci, OVH_TOL), OVH_CANNOT_TELL);
	assert_string_equal(ovh_verdict_name(OVH_CANNOT_TELL), "cannot_tell");
}

/* The rule itself, on hand-made intervals. */
static void test_judge(void **state)
{
	struct ovh_ci within = { 1.010, 1.000, 1.020 };
	struct ovh_ci edge = { 1.000, 0.980, 1.020 };	/* exactly +-2 %: tells */
	struct ovh_ci wide_lo = { 1.000, 0.975, 1.010 };
	struct ovh_ci wide_hi = { 1.000, 0.990, 1.025 };
	struct ovh_ci over = { 1.100, 1.090, 1.110 };
	struct ovh_ci over_edge = { 1.015, 1.005, 1.030 };	/* tight, reaches past 1.02 */
	struct ovh_ci under = { 0.400, 0.390, 0.410 };

	assert_int_equal(ovh_judge(&within, OVH_TOL), OVH_WITHIN);
	assert_int_equal(ovh_judge(&edge, OVH_TOL), OVH_WITHIN);
	assert_int_equal(ovh_judge(&wide_lo, OVH_TOL), OVH_CANNOT_TELL);
	assert_int_equal(ovh_judge(&wide_hi, OVH_TOL), OVH_CANNOT_TELL);
	assert_int_equal(ovh_judge(&over, OVH_TOL), OVH_OVER);
	assert_int_equal(ovh_judge(&over_edge, OVH_TOL), OVH_OVER);
	assert_int_equal(ovh_judge(&under, OVH_TOL), OVH_UNDER);
}

/* The percentile bootstrap of a median of 2 values: medians of resamples
 * are a, (a+b)/2 or b, with probabilities 1/4, 1/2, 1/4. */
static void test_boot_two_values(void **state)
{
	const double v[] = { 1.0, 2.0 };
	struct ovh_ci ci;

	assert_int_equal(ovh_boot_ci(v, 2, 20000, 3, &ci), 0);
	assert_true(ci.median == 1.5);
	assert_true(ci.lo == 1.0 && ci.hi == 2.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_boot_constant),
		cmocka_unit_test(test_boot_empty),
		cmocka_unit_test(test_boot_reproducible),
		cmocka_unit_test(test_noisy_cannot_tell),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_boot_two_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
