/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/occ.c: 000 eq. 1-2 by hand-computed vectors, the
 * limits, bad input, and convergence on a synthetic 3x overload plant.
 */
#include <math.h>
#include <string.h>

#include "ovc/occ.h"
#include "ovc/types.h"
#include "suites.h"

struct occ_vec
{
	double f0;	/* f_t */
	double rho; /* rho_t */
	double f1;	/* expected f_{t+1} with defaults (0.9, 0.02, 5) */
};

static const struct occ_vec occ_vecs[] = {
		{1.0, 0.9, 1.0},			/* phi = 1 */
		{1.0, 1.0, 0.9},			/* phi = 0.9 */
		{0.5, 0.45, 1.0},			/* phi = 2, 1.0 > 1: clamp */
		{0.5, 0.6, 0.75},			/* phi = 1.5 */
		{0.1, 0.1, 0.5},			/* phi = 9 -> phi_max 5 */
		{0.1, 0.0, 0.5},			/* rho = 0: phi_max */
		{0.021, 1.0, 0.02},			/* 0.0189 < f_min */
		{0.5, 2.0, 0.45},			/* rho clamped to 1 */
		{0.3, 0.95, 0.9 / 0.95 * 0.3}, /* 0.28421052631... */
		{0.02, 1.0, 0.02},			/* stays at f_min */
		{0.2, 0.18, 1.0},			/* phi 5: 1.0 */
		{0.15, 0.3, 0.45},			/* phi 3 */
};

START_TEST(test_vectors)
{
	struct ovc_occ_params p;
	struct ovc_occ s;
	const struct occ_vec *v = &occ_vecs[_i];

	ovc_occ_defaults(&p);
	ck_assert_int_eq(ovc_occ_init(&s, &p), OVC_OK);
	ck_assert(s.f == 1.0);
	s.f = v->f0;
	ck_assert_double_eq_tol(ovc_occ_step(&s, v->rho), v->f1, 1e-12);
	ck_assert_double_eq_tol(s.f, v->f1, 1e-12);
}
END_TEST

START_TEST(test_defaults)
{
	struct ovc_occ_params p;

	ovc_occ_defaults(&p);
	ck_assert(p.target == 0.9);
	ck_assert(p.f_min == 0.02);
	ck_assert(p.phi_max == 5.0);
	ck_assert_uint_eq(p.epoch_ms, 1000);
}
END_TEST

START_TEST(test_bad_params)
{
	struct ovc_occ_params p, d;
	struct ovc_occ s, before;

	ovc_occ_defaults(&d);
	ck_assert_int_eq(ovc_occ_init(&s, &d), OVC_OK);
	s.f = 0.3;
	memcpy(&before, &s, sizeof(before)); /* padding too */
#define BAD(field, val)                                               \
	do {                                                              \
		p = d;                                                        \
		p.field = val;                                                \
		ck_assert_int_eq(ovc_occ_init(&s, &p), OVC_ERANGE);           \
		ck_assert_int_eq(ovc_occ_reconfigure(&s, &p), OVC_ERANGE);    \
		ck_assert(memcmp(&s, &before, sizeof(s)) == 0);               \
	} while(0)
	BAD(target, 0.0);
	BAD(target, 1.01);
	BAD(target, NAN);
	BAD(f_min, -0.1);
	BAD(f_min, 1.0);
	BAD(f_min, INFINITY);
	BAD(phi_max, 0.5);
	BAD(phi_max, NAN);
	BAD(epoch_ms, 0);
#undef BAD
}
END_TEST

START_TEST(test_bad_rho)
{
	struct ovc_occ_params p;
	struct ovc_occ s;

	ovc_occ_defaults(&p);
	ovc_occ_init(&s, &p);
	s.f = 0.4;
	ck_assert(ovc_occ_step(&s, NAN) == 0.4);
	ck_assert(ovc_occ_step(&s, INFINITY) == 0.4);
	ck_assert(ovc_occ_step(&s, -INFINITY) == 0.4);
	ck_assert(ovc_occ_step(&s, -0.01) == 0.4);
	ck_assert(s.f == 0.4);
}
END_TEST

START_TEST(test_reconfigure_keeps_f)
{
	struct ovc_occ_params p;
	struct ovc_occ s;

	ovc_occ_defaults(&p);
	ovc_occ_init(&s, &p);
	s.f = 0.3;
	p.target = 0.8;
	ck_assert_int_eq(ovc_occ_reconfigure(&s, &p), OVC_OK);
	ck_assert(s.f == 0.3);
	ck_assert(s.p.target == 0.8);
	p.f_min = 0.5;
	ck_assert_int_eq(ovc_occ_reconfigure(&s, &p), OVC_OK);
	ck_assert(s.f == 0.5);
}
END_TEST

/* Plant: offered load 3x capacity; an accepted request costs 1 unit, a
 * rejected one 1/beta. rho = min(1, 3 f + 3 (1 - f) / beta). */
static double plant_3x(double f, double beta)
{
	double rho = 3.0 * f + 3.0 * (1.0 - f) / beta;

	return rho > 1.0 ? 1.0 : rho;
}

START_TEST(test_converges_3x)
{
	struct ovc_occ_params p;
	struct ovc_occ s;
	double rho = 1.0, f;
	int t;

	ovc_occ_defaults(&p);
	ovc_occ_init(&s, &p);
	for(t = 0; t < 200; t++) {
		f = ovc_occ_step(&s, rho);
		ck_assert(f >= p.f_min && f <= 1.0);
		rho = plant_3x(f, 10.0);
	}
	ck_assert_double_eq_tol(rho, p.target, 1e-6);
	/* 3 f + 0.3 (1 - f) = 0.9 */
	ck_assert_double_eq_tol(s.f, 0.6 / 2.7, 1e-6);
	/* and recovers to f = 1 once the load is gone */
	for(t = 0; t < 5; t++)
		ovc_occ_step(&s, 0.1);
	ck_assert(s.f == 1.0);
}
END_TEST

START_TEST(test_floor_under_huge_load)
{
	/* 100x load with expensive rejection: f sits at f_min, never below. */
	struct ovc_occ_params p;
	struct ovc_occ s;
	int t;

	ovc_occ_defaults(&p);
	ovc_occ_init(&s, &p);
	for(t = 0; t < 100; t++)
		ck_assert(ovc_occ_step(&s, 1.0) >= p.f_min);
	ck_assert(s.f == p.f_min);
}
END_TEST

Suite *make_suite_occ(void)
{
	Suite *s = suite_create("occ");
	TCase *tc = tcase_create("occ");

	tcase_add_loop_test(
			tc, test_vectors, 0, sizeof(occ_vecs) / sizeof(occ_vecs[0]));
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_bad_params);
	tcase_add_test(tc, test_bad_rho);
	tcase_add_test(tc, test_reconfigure_keeps_f);
	tcase_add_test(tc, test_converges_3x);
	tcase_add_test(tc, test_floor_under_huge_load);
	suite_add_tcase(s, tc);
	return s;
}
