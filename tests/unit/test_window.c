/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/window.c: ratio over the last k samples, ring
 * wrap-around, refusals.
 */
#include <math.h>
#include <string.h>

#include "ovc/types.h"
#include "ovc/window.h"
#include "suites.h"

START_TEST(test_window_ratio)
{
	struct ovc_window w;
	double r = -1.0;

	ck_assert_int_eq(ovc_window_init(&w, 3), OVC_OK);
	ck_assert_int_eq(ovc_window_ratio(&w, &r), OVC_EEMPTY);
	ck_assert(r == -1.0);
	ovc_window_push(&w, 1.0, 2.0);
	ck_assert_int_eq(ovc_window_ratio(&w, &r), OVC_OK);
	ck_assert_double_eq_tol(r, 0.5, 1e-15);
	ovc_window_push(&w, 3.0, 2.0);
	ovc_window_push(&w, 0.0, 4.0);
	ovc_window_ratio(&w, &r);
	ck_assert_double_eq_tol(r, 4.0 / 8.0, 1e-15);
	ck_assert_uint_eq(ovc_window_count(&w), 3);
	/* the oldest (1, 2) leaves */
	ovc_window_push(&w, 6.0, 2.0);
	ovc_window_ratio(&w, &r);
	ck_assert_double_eq_tol(r, 9.0 / 8.0, 1e-15);
	ck_assert_double_eq_tol(ovc_window_sum_num(&w), 9.0, 1e-15);
	ck_assert_double_eq_tol(ovc_window_sum_den(&w), 8.0, 1e-15);
	ck_assert_uint_eq(ovc_window_count(&w), 3);
}
END_TEST

START_TEST(test_window_long_run)
{
	/* After many wraps the ratio equals the last k samples exactly. */
	struct ovc_window w;
	double r, n, d;
	unsigned i, j, k = 25;

	ovc_window_init(&w, k);
	for(i = 1; i <= 10007; i++)
		ovc_window_push(&w, (double)(i % 17), (double)(i % 5 + 1));
	n = d = 0.0;
	for(j = 10007 - k + 1; j <= 10007; j++) {
		n += (double)(j % 17);
		d += (double)(j % 5 + 1);
	}
	ck_assert_int_eq(ovc_window_ratio(&w, &r), OVC_OK);
	ck_assert_double_eq_tol(r, n / d, 1e-12);
}
END_TEST

START_TEST(test_window_refusals)
{
	struct ovc_window w, before;
	double r;

	ck_assert_int_eq(ovc_window_init(&w, 0), OVC_ERANGE);
	ck_assert_int_eq(ovc_window_init(&w, OVC_WINDOW_MAX + 1), OVC_ERANGE);
	ck_assert_int_eq(ovc_window_init(&w, OVC_WINDOW_MAX), OVC_OK);
	ck_assert_int_eq(ovc_window_init(&w, 2), OVC_OK);
	ovc_window_push(&w, 0.0, 0.0);
	ck_assert_int_eq(ovc_window_ratio(&w, &r), OVC_ERANGE);
	memcpy(&before, &w, sizeof(before)); /* padding too */
	ck_assert_int_eq(ovc_window_push(&w, NAN, 1.0), OVC_EINVAL);
	ck_assert_int_eq(ovc_window_push(&w, 1.0, INFINITY), OVC_EINVAL);
	ck_assert_int_eq(ovc_window_push(&w, -1.0, 1.0), OVC_EINVAL);
	ck_assert_int_eq(ovc_window_push(&w, 1.0, -1.0), OVC_EINVAL);
	ck_assert(memcmp(&w, &before, sizeof(w)) == 0);
	/* k = 1: just the last sample */
	ovc_window_init(&w, 1);
	ovc_window_push(&w, 1.0, 4.0);
	ovc_window_push(&w, 3.0, 4.0);
	ovc_window_ratio(&w, &r);
	ck_assert_double_eq_tol(r, 0.75, 1e-15);
}
END_TEST

Suite *make_suite_window(void)
{
	Suite *s = suite_create("window");
	TCase *tc = tcase_create("window");

	tcase_add_test(tc, test_window_ratio);
	tcase_add_test(tc, test_window_long_run);
	tcase_add_test(tc, test_window_refusals);
	suite_add_tcase(s, tc);
	return s;
}
