/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/cpu.c: occupancy from ns busy counters, capacity,
 * counter resets, clocks that stand still, go back or jump.
 */
#include <math.h>

#include "ovc/cpu.h"
#include "suites.h"

#define MS OVC_NS_PER_MS

START_TEST(test_cpu_basic)
{
	struct ovc_cpu_meter m;
	double occ = -1.0;

	ck_assert_int_eq(ovc_cpu_init(&m, 1.0, 0), OVC_OK);
	ck_assert_int_eq(ovc_cpu_sample(&m, 5 * MS, 1000 * MS, &occ), OVC_EEMPTY);
	ck_assert(occ == -1.0);
	/* 50 ms busy in 100 ms */
	ck_assert_int_eq(ovc_cpu_sample(&m, 55 * MS, 1100 * MS, &occ), OVC_OK);
	ck_assert_double_eq_tol(occ, 0.5, 1e-12);
	/* idle */
	ck_assert_int_eq(ovc_cpu_sample(&m, 55 * MS, 1200 * MS, &occ), OVC_OK);
	ck_assert(occ == 0.0);
	/* more busy than elapsed on one CPU: clamped to 1 */
	ck_assert_int_eq(ovc_cpu_sample(&m, 255 * MS, 1300 * MS, &occ), OVC_OK);
	ck_assert(occ == 1.0);
	ck_assert(m.last_occ == 1.0);
}
END_TEST

START_TEST(test_cpu_capacity)
{
	struct ovc_cpu_meter m;
	double occ;

	/* 2 CPUs: 150 ms busy in 100 ms is 75 % */
	ovc_cpu_init(&m, 2.0, 0);
	ovc_cpu_sample(&m, 0, 0, &occ);
	ck_assert_int_eq(ovc_cpu_sample(&m, 150 * MS, 100 * MS, &occ), OVC_OK);
	ck_assert_double_eq_tol(occ, 0.75, 1e-12);
	/* a cgroup quota of half a CPU: 25 ms in 100 ms is 50 % */
	ovc_cpu_init(&m, 0.5, 0);
	ovc_cpu_sample(&m, 1000 * MS, 0, &occ);
	ovc_cpu_sample(&m, 1025 * MS, 100 * MS, &occ);
	ck_assert_double_eq_tol(occ, 0.5, 1e-12);
	ck_assert_int_eq(ovc_cpu_init(&m, 0.0, 0), OVC_ERANGE);
	ck_assert_int_eq(ovc_cpu_init(&m, NAN, 0), OVC_ERANGE);
	ck_assert_int_eq(ovc_cpu_init(&m, 1.0, -1), OVC_ERANGE);
}
END_TEST

START_TEST(test_cpu_glitches)
{
	struct ovc_cpu_meter m;
	double occ = 9.0;

	ovc_cpu_init(&m, 1.0, 5000 * MS);
	ovc_cpu_sample(&m, 100 * MS, 1000 * MS, &occ);
	/* clock standing still: no value, baseline kept */
	ck_assert_int_eq(ovc_cpu_sample(&m, 150 * MS, 1000 * MS, &occ),
			OVC_EEMPTY);
	ck_assert_int_eq(ovc_cpu_sample(&m, 150 * MS, 1100 * MS, &occ), OVC_OK);
	ck_assert_double_eq_tol(occ, 0.5, 1e-12);
	/* counter reset (process restarted): re-baseline */
	ck_assert_int_eq(
			ovc_cpu_sample(&m, 10 * MS, 1200 * MS, &occ), OVC_EEMPTY);
	ck_assert_int_eq(ovc_cpu_sample(&m, 30 * MS, 1300 * MS, &occ), OVC_OK);
	ck_assert_double_eq_tol(occ, 0.2, 1e-12);
	/* clock going back: re-baseline */
	ck_assert_int_eq(ovc_cpu_sample(&m, 40 * MS, 900 * MS, &occ), OVC_EEMPTY);
	ck_assert_int_eq(ovc_cpu_sample(&m, 70 * MS, 1000 * MS, &occ), OVC_OK);
	ck_assert_double_eq_tol(occ, 0.3, 1e-12);
	/* clock jumping beyond max_gap: re-baseline */
	ck_assert_int_eq(
			ovc_cpu_sample(&m, 80 * MS, 100000 * MS, &occ), OVC_EEMPTY);
	ck_assert_int_eq(
			ovc_cpu_sample(&m, 160 * MS, 100100 * MS, &occ), OVC_OK);
	ck_assert_double_eq_tol(occ, 0.8, 1e-12);
	ck_assert(occ >= 0.0 && occ <= 1.0);
	/* reset forgets the baseline */
	ovc_cpu_reset(&m);
	ck_assert_int_eq(
			ovc_cpu_sample(&m, 200 * MS, 100200 * MS, &occ), OVC_EEMPTY);
	/* huge ns counters keep their precision */
	ovc_cpu_init(&m, 1.0, 0);
	ovc_cpu_sample(&m, UINT64_C(1) << 62, INT64_C(1) << 61, &occ);
	ck_assert_int_eq(ovc_cpu_sample(&m, (UINT64_C(1) << 62) + 25 * MS,
							 (INT64_C(1) << 61) + 100 * MS, &occ),
			OVC_OK);
	ck_assert_double_eq_tol(occ, 0.25, 1e-9);
}
END_TEST

Suite *make_suite_cpu(void)
{
	Suite *s = suite_create("cpu");
	TCase *tc = tcase_create("cpu");

	tcase_add_test(tc, test_cpu_basic);
	tcase_add_test(tc, test_cpu_capacity);
	tcase_add_test(tc, test_cpu_glitches);
	suite_add_tcase(s, tc);
	return s;
}
