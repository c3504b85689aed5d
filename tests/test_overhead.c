// SPDX-License-Identifier: GPL-2.0
/*
 * test_overhead.c - the tools' statistics: the median, the geometric mean
 * and their bootstrap intervals (tools/lib/boot_ci.c, shared by make
 * vm-overhead and power-bench), and vm-overhead's rule that prints "cannot
 * tell" instead of a ratio (tools/overhead/ovh_stats_lib.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>

#include "ovh_stats.h"

static void test_median(void **state)
{
	const double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 };

	assert_true(boot_median(odd, 3) == 2);
	assert_true(boot_median(even, 4) == 2.5);
	/* the input is not reordered */
	assert_true(odd[0] == 3 && even[0] == 4);
}

static void test_boot_constant(void **state)
{
	const double v[] = { 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05, 1.05 };
	struct boot_ci ci;

	assert_int_equal(boot_ci(v, 10, 2000, 1, &ci), 0);
	assert_true(ci.est == 1.05 && ci.lo == 1.05 && ci.hi == 1.05);
	assert_int_equal(ovh_judge(&ci, OVH_TOL), OVH_OVER);
}

static void test_boot_empty(void **state)
{
	struct boot_ci ci;

	assert_int_equal(boot_ci(NULL, 0, 100, 1, &ci), -1);
}

/* Same seed, same interval; the interval holds the median and lies within
 * the samples' range. */
static void test_boot_reproducible(void **state)
{
	const double v[] = { 0.98, 1.01, 1.00, 0.99, 1.02, 1.00, 1.01, 0.97, 1.03, 1.00, 0.99 };
	struct boot_ci a, b;

	assert_int_equal(boot_ci(v, 11, 5000, 42, &a), 0);
	assert_int_equal(boot_ci(v, 11, 5000, 42, &b), 0);
	assert_true(a.lo == b.lo && a.hi == b.hi);
	assert_true(a.est == 1.00);
	assert_true(a.lo <= a.est && a.est <= a.hi);
	assert_true(a.lo >= 0.97 && a.hi <= 1.03);
	/* the median of 11 such values moves little: a tight interval */
	assert_true(a.hi - a.lo <= 0.03);
	assert_int_equal(ovh_judge(&a, OVH_TOL), OVH_WITHIN);
}

/* Host noise as seen on the 2-core machine: samples from 0.75 to 1.40. */
static void test_noisy_cannot_tell(void **state)
{
	const double v[] = { 1.12, 0.80, 1.35, 0.95, 1.21, 0.75, 1.40, 1.02, 0.88, 1.30 };
	struct boot_ci ci;

	assert_int_equal(boot_ci(v, 10, OVH_BOOT_RESAMPLES, 7, &ci), 0);
	assert_true(ci.hi - ci.lo > 0.1);
	assert_int_equal(ovh_judge(&ci, OVH_TOL), OVH_CANNOT_TELL);
	assert_string_equal(ovh_verdict_name(OVH_CANNOT_TELL), "cannot_tell");
}

/* The rule itself, on hand-made intervals. */
static void test_judge(void **state)
{
	struct boot_ci within = { 1.010, 1.000, 1.020 };
	struct boot_ci edge = { 1.000, 0.980, 1.020 };	/* exactly +-2 %: tells */
	struct boot_ci wide_lo = { 1.000, 0.975, 1.010 };
	struct boot_ci wide_hi = { 1.000, 0.990, 1.025 };
	struct boot_ci over = { 1.100, 1.090, 1.110 };
	struct boot_ci over_edge = { 1.015, 1.005, 1.030 };	/* tight, reaches past 1.02 */
	struct boot_ci under = { 0.400, 0.390, 0.410 };

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
	struct boot_ci ci;

	assert_int_equal(boot_ci(v, 2, 20000, 3, &ci), 0);
	assert_true(ci.est == 1.5);
	assert_true(ci.lo == 1.0 && ci.hi == 2.0);
}

/* The ratio of sums over pairs: the estimate, reproducible, and a pair
 * that moves both sides (a slow host minute) widens it less than noise. */
static void test_boot_ratio(void **state)
{
	const double num[] = { 90, 190, 95, 180, 92, 185, 91, 188 };
	const double den[] = { 100, 200, 100, 200, 100, 200, 100, 200 };
	const double zero[] = { 0, 0 }, one[] = { 1, 2 };
	struct boot_ci a, b;

	assert_int_equal(boot_ci_ratio(num, den, 8, 5000, 9, &a), 0);
	assert_int_equal(boot_ci_ratio(num, den, 8, 5000, 9, &b), 0);
	assert_true(a.lo == b.lo && a.hi == b.hi);
	assert_true(fabs(a.est - 1111.0 / 1200) < 1e-12);
	assert_true(a.lo <= a.est && a.est <= a.hi);
	/* paired: every pair is 0.90-0.95, so is the interval */
	assert_true(a.lo >= 0.90 && a.hi <= 0.95);
	assert_int_equal(boot_excludes(&a, 1.0), -1);
	/* zeros on the numerator side are counts like any other */
	assert_int_equal(boot_ci_ratio(zero, one, 2, 1000, 1, &a), 0);
	assert_true(a.est == 0 && a.lo == 0 && a.hi == 0);
	/* no reference: no ratio */
	assert_int_equal(boot_ci_ratio(one, zero, 2, 1000, 1, &a), -1);
}

/* A resample of only zero references is +inf, and the interval says so. */
static void test_boot_ratio_inf(void **state)
{
	const double num[] = { 1, 1, 1 }, den[] = { 0, 0, 3 };
	struct boot_ci ci;

	assert_int_equal(boot_ci_ratio(num, den, 3, 4000, 5, &ci), 0);
	assert_true(fabs(ci.est - 1.0) < 1e-12);
	assert_true(isinf(ci.hi));
	assert_false(isnan(ci.lo));
	assert_int_equal(boot_excludes(&ci, 1.0), 0);
}

static void test_boot_excludes(void **state)
{
	const struct boot_ci below = { 0.9, 0.85, 0.95 }, span = { 1.0, 0.9, 1.1 };
	const struct boot_ci above = { 1.2, 1.1, 1.3 };

	assert_int_equal(boot_excludes(&below, 1.0), -1);
	assert_int_equal(boot_excludes(&span, 1.0), 0);
	assert_int_equal(boot_excludes(&above, 1.0), 1);
}

/*
 * An end that is 1 but for the rounding of the sums spans 1.  The pairs of
 * x86-freq video, balanced_freq against cfs, queued_far_per_s: a resample
 * of ratio 1 (0.2 + 0.2 + 0.2 + 0.2 over 0.4 + 0.4) comes out as 1 - 2^-52
 * at the 97.5th percentile; its end is within a relative 1e-9 of 1, and a
 * real difference of 1e-4 (the closest ends of the kept runs) is not.
 */
static void test_boot_excludes_rounding(void **state)
{
	const double num[] = { 0, 0.2, 0.2, 0, 0, 0.2, 0, 0.2 };
	const double den[] = { 0.4, 1.201, 0, 0.4, 0.4, 0.4, 0, 0 };
	const struct boot_ci near = { 0.9, 0.8, 1.0 - 1e-4 }, near_up = { 1.1, 1.0 + 1e-4, 1.2 };
	struct boot_ci ci;

	assert_int_equal(boot_ci_ratio(num, den, 8, 10000, 0x5eed + 8, &ci), 0);
	assert_true(ci.hi < 1.0 && ci.hi > 1.0 - 1e-12);
	assert_int_equal(boot_excludes(&ci, 1.0), 0);
	assert_int_equal(boot_excludes(&near, 1.0), -1);
	assert_int_equal(boot_excludes(&near_up, 1.0), 1);
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
		cmocka_unit_test(test_boot_ratio),
		cmocka_unit_test(test_boot_ratio_inf),
		cmocka_unit_test(test_boot_excludes),
		cmocka_unit_test(test_boot_excludes_rounding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
