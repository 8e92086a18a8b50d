/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/plan.c: controller output to acceptor fractions.
 */
#include <math.h>

#include "ovc/plan.h"
#include "suites.h"

START_TEST(test_plan_no_overload)
{
	struct ovc_plan pl;
	unsigned i;

	/* without overload nothing is refused and the drain is free */
	for(i = 0; i < OVC_ALG_COUNT; i++) {
		ovc_plan_make(ovc_alg_traits(i), 0.2, 0.3, 300, 0, 0.1, &pl);
		ck_assert(pl.f_accept == 1.0);
		ck_assert(pl.f_arrival == 1.0);
		ck_assert(pl.guard_cap == 1.0);
		ck_assert(pl.drain == -1.0);
	}
}
END_TEST

START_TEST(test_plan_guard)
{
	struct ovc_plan pl;

	/* a guarded algorithm at arrival: min(f, cap) */
	ovc_plan_make(ovc_alg_traits(OVC_ALG_OCC), 0.8, 1, -1, 1, 0.5, &pl);
	ck_assert(pl.f_accept == 0.5 && pl.f_arrival == 1.0);
	ck_assert(pl.guard_cap == 0.5 && pl.drain == -1.0);
	ovc_plan_make(ovc_alg_traits(OVC_ALG_OCC), 0.3, 1, -1, 1, 0.5, &pl);
	ck_assert(pl.f_accept == 0.3);
	/* not guarded: the cap does not apply */
	ovc_plan_make(ovc_alg_traits(OVC_ALG_SIRED), 0.8, 1, -1, 1, 0.5, &pl);
	ck_assert(pl.f_accept == 0.8 && pl.guard_cap == 1.0);
	/* a paced queue: the cap at arrival, f at the output, its drain */
	ovc_plan_make(ovc_alg_traits(OVC_ALG_PI), 0.8, 1, 250, 1, 0.5, &pl);
	ck_assert(pl.f_accept == 0.8 && pl.f_arrival == 0.5);
	ck_assert(pl.drain == 250);
}
END_TEST

/* A paced queue's arrivals get the controller's arrival share, capped by
 * the guard; the share acts nowhere else and never without overload. */
START_TEST(test_plan_share)
{
	struct ovc_plan pl;

	ovc_plan_make(ovc_alg_traits(OVC_ALG_PI), 0.7, 0.2, 250, 1, 1.0, &pl);
	ck_assert(pl.f_arrival == 0.2 && pl.f_accept == 0.7);
	ovc_plan_make(ovc_alg_traits(OVC_ALG_PI), 0.7, 0.2, 250, 1, 0.1, &pl);
	ck_assert(pl.f_arrival == 0.1 && pl.guard_cap == 0.1);
	ovc_plan_make(ovc_alg_traits(OVC_ALG_PI), 0.7, 0.2, 250, 0, 0.1, &pl);
	ck_assert(pl.f_arrival == 1.0 && pl.f_accept == 1.0);
	ovc_plan_make(ovc_alg_traits(OVC_ALG_PI), 0.7, NAN, 250, 1, 1.0, &pl);
	ck_assert(pl.f_arrival == 1.0);
	ovc_plan_make(ovc_alg_traits(OVC_ALG_PI), 0.7, -3, 250, 1, 1.0, &pl);
	ck_assert(pl.f_arrival == 0.0);
	ovc_plan_make(ovc_alg_traits(OVC_ALG_OCC), 0.7, 0.2, -1, 1, 1.0, &pl);
	ck_assert(pl.f_arrival == 1.0 && pl.f_accept == 0.7);
}
END_TEST

START_TEST(test_plan_mem_cap)
{
	struct ovc_plan pl;

	/* the memory guard's cap holds without overload too */
	ovc_plan_make(ovc_alg_traits(OVC_ALG_OCC), 0.8, 1, -1, 0, 0.5, &pl);
	ovc_plan_cap(ovc_alg_traits(OVC_ALG_OCC), 0.25, &pl);
	ck_assert(pl.f_accept == 0.25 && pl.f_arrival == 1.0);
	/* below the controller's fraction only */
	ovc_plan_make(ovc_alg_traits(OVC_ALG_OCC), 0.2, 1, -1, 1, 1, &pl);
	ovc_plan_cap(ovc_alg_traits(OVC_ALG_OCC), 0.5, &pl);
	ck_assert(pl.f_accept == 0.2);
	/* a paced queue: at arrival, the queue's output left alone */
	ovc_plan_make(ovc_alg_traits(OVC_ALG_PI), 0.8, 0.9, 250, 1, 1, &pl);
	ovc_plan_cap(ovc_alg_traits(OVC_ALG_PI), 0.3, &pl);
	ck_assert(pl.f_arrival == 0.3 && pl.f_accept == 0.8);
	/* none, NaN and out of range */
	ovc_plan_cap(ovc_alg_traits(OVC_ALG_PI), NAN, &pl);
	ck_assert(pl.f_arrival == 0.3);
	ovc_plan_cap(ovc_alg_traits(OVC_ALG_PI), 7, &pl);
	ck_assert(pl.f_arrival == 0.3);
	ovc_plan_cap(ovc_alg_traits(OVC_ALG_PI), -1, &pl);
	ck_assert(pl.f_arrival == 0);
}
END_TEST

START_TEST(test_plan_bounds)
{
	struct ovc_plan pl;

	ovc_plan_make(ovc_alg_traits(OVC_ALG_OCC), NAN, 1, NAN, 1, 2.0, &pl);
	ck_assert(pl.f_accept == 1.0 && pl.drain == -1.0);
	ovc_plan_make(ovc_alg_traits(OVC_ALG_OCC), -1, 1, -5, 1, -1, &pl);
	ck_assert(pl.f_accept == 0.0 && pl.guard_cap == 0.0);
	ovc_plan_make(ovc_alg_traits(OVC_ALG_OCC), 7, 1, 1, 1, 1, &pl);
	ck_assert(pl.f_accept == 1.0);
}
END_TEST

Suite *make_suite_plan(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("plan");

	tcase_add_test(tc, test_plan_no_overload);
	tcase_add_test(tc, test_plan_guard);
	tcase_add_test(tc, test_plan_share);
	tcase_add_test(tc, test_plan_mem_cap);
	tcase_add_test(tc, test_plan_bounds);
	suite_add_tcase(s, tc);
	return s;
}
