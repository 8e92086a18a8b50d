/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/rate.c: sliding per-period rate, period rotation,
 * idle gaps and a clock going back.
 */
#include "ovc/rate.h"
#include "suites.h"

#define MS OVC_NS_PER_MS

START_TEST(test_rate_steady)
{
	struct ovc_rate r;
	ovc_time_ns t;

	ck_assert_int_eq(ovc_rate_init(&r, 1000 * MS), OVC_OK);
	/* 100 events per second, one every 10 ms, for 5 s */
	for(t = 0; t < 5000 * MS; t += 10 * MS)
		ovc_rate_add(&r, t, 1);
	/* at 5 s: curr is empty (new period), prev = 100, weight 1 */
	ck_assert_double_eq_tol(ovc_rate_read(&r, 5000 * MS), 100.0, 1e-9);
	/* half way into the next period, nothing new: 50 */
	ck_assert_double_eq_tol(ovc_rate_read(&r, 5500 * MS), 50.0, 1e-9);
	ck_assert_double_eq_tol(ovc_rate_per_s(&r, 5500 * MS), 50.0, 1e-9);
	/* two idle periods: zero */
	ck_assert_double_eq_tol(ovc_rate_read(&r, 7100 * MS), 0.0, 1e-12);
}
END_TEST

START_TEST(test_rate_sliding)
{
	struct ovc_rate r;

	ovc_rate_init(&r, 1000 * MS);
	ovc_rate_add(&r, 0, 40);		/* period [0, 1 s) */
	ovc_rate_add(&r, 1250 * MS, 10); /* period [1, 2 s) */
	/* at 1.25 s: 10 + 40 * 0.75 */
	ck_assert_double_eq_tol(ovc_rate_read(&r, 1250 * MS), 40.0, 1e-9);
	/* clock back: counted in the current period, read as its start */
	ovc_rate_add(&r, 900 * MS, 5);
	ck_assert_double_eq_tol(ovc_rate_read(&r, 900 * MS), 55.0, 1e-9);
	/* per-second scaling with a 100 ms period */
	ovc_rate_init(&r, 100 * MS);
	ovc_rate_add(&r, 0, 7);
	ck_assert_double_eq_tol(ovc_rate_per_s(&r, 100 * MS), 70.0, 1e-9);
	ck_assert_int_eq(ovc_rate_init(&r, 0), OVC_ERANGE);
	ck_assert_int_eq(ovc_rate_init(&r, -5), OVC_ERANGE);
}
END_TEST

Suite *make_suite_rate(void)
{
	Suite *s = suite_create("rate");
	TCase *tc = tcase_create("rate");

	tcase_add_test(tc, test_rate_steady);
	tcase_add_test(tc, test_rate_sliding);
	suite_add_tcase(s, tc);
	return s;
}
