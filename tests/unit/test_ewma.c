/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/ewma.c: EWMA and low-pass vectors, seeding, refusal
 * of bad samples and parameters.
 */
#include <math.h>
#include <string.h>

#include "ovc/ewma.h"
#include "ovc/types.h"
#include "suites.h"

START_TEST(test_ewma_vectors)
{
	struct ovc_ewma e;

	/* w = 0.1 from v0 = 0: 1, 1 -> 0.1, 0.19; then 0 -> 0.171 */
	ck_assert_int_eq(ovc_ewma_init(&e, 0.1, 0.0, 0), OVC_OK);
	ck_assert_int_eq(ovc_ewma_update(&e, 1.0), OVC_OK);
	ck_assert_double_eq_tol(ovc_ewma_value(&e), 0.1, 1e-15);
	ovc_ewma_update(&e, 1.0);
	ck_assert_double_eq_tol(ovc_ewma_value(&e), 0.19, 1e-15);
	ovc_ewma_update(&e, 0.0);
	ck_assert_double_eq_tol(ovc_ewma_value(&e), 0.171, 1e-15);
	/* seeded: the first sample is taken as is */
	ck_assert_int_eq(ovc_ewma_init(&e, 0.6, 0.0, 1), OVC_OK);
	ovc_ewma_update(&e, 0.5);
	ck_assert_double_eq_tol(ovc_ewma_value(&e), 0.5, 1e-15);
	ovc_ewma_update(&e, 1.0);
	ck_assert_double_eq_tol(ovc_ewma_value(&e), 0.8, 1e-15);
	/* w = 1: follows the input */
	ovc_ewma_init(&e, 1.0, 3.0, 0);
	ovc_ewma_update(&e, -2.0);
	ck_assert(ovc_ewma_value(&e) == -2.0);
}
END_TEST

START_TEST(test_ewma_refusals)
{
	struct ovc_ewma e, before;

	ovc_ewma_init(&e, 0.5, 0.25, 0);
	memcpy(&before, &e, sizeof(before)); /* padding too */
	ck_assert_int_eq(ovc_ewma_update(&e, NAN), OVC_EINVAL);
	ck_assert_int_eq(ovc_ewma_update(&e, INFINITY), OVC_EINVAL);
	ck_assert_int_eq(ovc_ewma_update_dt(&e, 1.0, 0.0, 0.1), OVC_EINVAL);
	ck_assert_int_eq(ovc_ewma_update_dt(&e, 1.0, -1.0, 0.1), OVC_EINVAL);
	ck_assert_int_eq(ovc_ewma_update_dt(&e, 1.0, NAN, 0.1), OVC_EINVAL);
	ck_assert_int_eq(ovc_ewma_update_dt(&e, 1.0, 0.01, -0.1), OVC_EINVAL);
	ck_assert_int_eq(ovc_ewma_update_dt(&e, NAN, 0.01, 0.1), OVC_EINVAL);
	ck_assert(memcmp(&e, &before, sizeof(e)) == 0);
	ck_assert_int_eq(ovc_ewma_init(&e, 0.0, 0.0, 0), OVC_ERANGE);
	ck_assert_int_eq(ovc_ewma_init(&e, 1.5, 0.0, 0), OVC_ERANGE);
	ck_assert_int_eq(ovc_ewma_init(&e, NAN, 0.0, 0), OVC_ERANGE);
	ck_assert_int_eq(ovc_ewma_init(&e, 0.5, INFINITY, 0), OVC_ERANGE);
	ck_assert(memcmp(&e, &before, sizeof(e)) == 0);
	ck_assert_int_eq(ovc_ewma_init(NULL, 0.5, 0.0, 0), OVC_EINVAL);
}
END_TEST

START_TEST(test_lpf)
{
	struct ovc_ewma e;
	int i;

	/* dt 10 ms, tau 90 ms: gain 0.1 */
	ovc_ewma_init(&e, 1.0, 0.0, 0);
	ovc_ewma_update_dt(&e, 1.0, 0.01, 0.09);
	ck_assert_double_eq_tol(ovc_ewma_value(&e), 0.1, 1e-12);
	/* tau 0: no filtering */
	ovc_ewma_update_dt(&e, 0.7, 0.01, 0.0);
	ck_assert_double_eq_tol(ovc_ewma_value(&e), 0.7, 1e-15);
	/* step response of 1/(1 + 0.1 s) at 10 ms: 1 - (1/1.1)^n; after
	 * 0.1 s about 1 - e^-1 (backward Euler: 0.6145) */
	ovc_ewma_init(&e, 1.0, 0.0, 0);
	for(i = 0; i < 10; i++)
		ovc_ewma_update_dt(&e, 1.0, 0.01, 0.1);
	ck_assert_double_eq_tol(ovc_ewma_value(&e), 1.0 - pow(1.0 / 1.1, 10),
			1e-12);
	ck_assert(ovc_ewma_value(&e) > 0.6 && ovc_ewma_value(&e) < 0.67);
	/* seeded */
	ovc_ewma_init(&e, 1.0, 0.0, 1);
	ovc_ewma_update_dt(&e, 0.4, 0.01, 0.1);
	ck_assert(ovc_ewma_value(&e) == 0.4);
}
END_TEST

Suite *make_suite_ewma(void)
{
	Suite *s = suite_create("ewma");
	TCase *tc = tcase_create("ewma");

	tcase_add_test(tc, test_ewma_vectors);
	tcase_add_test(tc, test_ewma_refusals);
	tcase_add_test(tc, test_lpf);
	suite_add_tcase(s, tc);
	return s;
}
