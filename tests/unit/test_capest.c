/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/capest.c: the first sample, the filter, intervals
 * that are no sample, convergence on a synthetic proxy.
 */
#include <math.h>

#include "ovc/capest.h"
#include "suites.h"

START_TEST(test_first_and_filter)
{
	struct ovc_capest e;
	double r;

	ovc_capest_init(&e, 5.0);
	ck_assert(e.rho == 0);
	/* 200 INVITEs in 1 s at half the CPU: 400/s at full CPU */
	ck_assert_double_eq_tol(ovc_capest_step(&e, 200, 0.5, 1.0), 400, 1e-9);
	/* next sample 500/s: filtered by 1 - e^(-1/5) */
	r = ovc_capest_step(&e, 250, 0.5, 1.0);
	ck_assert_double_eq_tol(r, 400 + (1 - exp(-0.2)) * 100, 1e-9);
}
END_TEST

START_TEST(test_not_samples)
{
	struct ovc_capest e;

	ovc_capest_init(&e, 5.0);
	/* light load, no INVITE, bad input: nothing learned */
	ck_assert(ovc_capest_step(&e, 10, 0.05, 1.0) == 0);
	ck_assert(ovc_capest_step(&e, 0, 0.9, 1.0) == 0);
	ck_assert(ovc_capest_step(&e, NAN, 0.9, 1.0) == 0);
	ck_assert(ovc_capest_step(&e, 100, NAN, 1.0) == 0);
	ck_assert(ovc_capest_step(&e, 100, 0.9, 0) == 0);
	ck_assert(ovc_capest_step(&e, 100, 0.9, -1) == 0);
	ck_assert(ovc_capest_step(&e, -5, 0.9, 1) == 0);
	ck_assert_double_eq_tol(ovc_capest_step(&e, 90, 0.3, 1.0), 300, 1e-9);
	/* and they leave an estimate alone */
	ck_assert_double_eq_tol(ovc_capest_step(&e, 10, 0.01, 1.0), 300, 1e-9);
	/* a bad tau falls back to 1 s */
	ovc_capest_init(&e, -1);
	ck_assert(e.tau_s == 1.0);
}
END_TEST

START_TEST(test_converges)
{
	struct ovc_capest e;
	double r = 0;
	int k;

	/* a proxy of 350 calls/s whose load moves between 0.3 and 0.9 */
	ovc_capest_init(&e, 5.0);
	for(k = 0; k < 400; k++) {
		double load = 0.3 + 0.6 * (k % 7) / 6.0;

		r = ovc_capest_step(&e, 350 * load * 0.1, load, 0.1);
	}
	ck_assert_double_eq_tol(r, 350, 1e-6);
}
END_TEST

Suite *make_suite_capest(void)
{
	Suite *s = suite_create("capest");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_first_and_filter);
	tcase_add_test(tc, test_not_samples);
	tcase_add_test(tc, test_converges);
	suite_add_tcase(s, tc);
	return s;
}
