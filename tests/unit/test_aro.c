/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/aro.c: 001 eq. 4-5 by hand-computed vectors, the
 * acceptance-rate controller alone, limits and bad input.
 */
#include <math.h>
#include <string.h>

#include "ovc/aro.h"
#include "ovc/types.h"
#include "suites.h"

START_TEST(test_aro_defaults)
{
	struct ovc_aro_params p;

	ovc_aro_defaults(&p);
	ck_assert_uint_eq(p.k, 25);
	ck_assert(p.rho_target == 0.95 && p.alpha_target == 0.95);
	ck_assert(p.f_min == 0.05 && p.w == 0.1);
}
END_TEST

struct aro_vec
{
	double cpu, dt, acc, tot;				   /* sample */
	double rho, rho_hat, alpha, fr, fa, f; /* expected after it */
};

/* k 2, w 0.5, rho_targ 0.9, alpha_targ 0.8, f_min 0.05, by hand */
static const struct aro_vec aro_vecs[] = {
		{1.0, 1.0, 100, 100, 1.0, 1.0, 1.0, 0.9, 0.8, 0.8},
		{1.0, 1.0, 50, 100, 1.0, 1.0, 0.75, 0.72, 0.8533333333333334, 0.72},
		/* no packets: the acceptance window is untouched, f_alpha = 1 */
		{0.5, 1.0, 0, 0, 0.75, 0.875, 0.75, 0.7405714285714288, 1.0,
				0.7405714285714288},
		{0.2, 1.0, 90, 100, 0.35, 0.6125, 0.7, 1.0, 0.8463673469387758,
				0.8463673469387758},
};

START_TEST(test_aro_vectors)
{
	struct ovc_aro_params p;
	struct ovc_aro s;
	size_t i;

	ovc_aro_defaults(&p);
	p.k = 2;
	p.w = 0.5;
	p.rho_target = 0.9;
	p.alpha_target = 0.8;
	ck_assert_int_eq(ovc_aro_init(&s, &p), OVC_OK);
	for(i = 0; i < sizeof(aro_vecs) / sizeof(aro_vecs[0]); i++) {
		const struct aro_vec *v = &aro_vecs[i];
		double f = ovc_aro_step(&s, v->cpu, v->dt, v->acc, v->tot);
		ck_assert_double_eq_tol(s.rho, v->rho, 1e-12);
		ck_assert_double_eq_tol(s.rho_hat.v, v->rho_hat, 1e-12);
		ck_assert_double_eq_tol(s.alpha, v->alpha, 1e-12);
		ck_assert_double_eq_tol(s.f_rho, v->fr, 1e-12);
		ck_assert_double_eq_tol(s.f_alpha, v->fa, 1e-12);
		ck_assert_double_eq_tol(f, v->f, 1e-12);
		/* eq. 5 */
		ck_assert(f == fmax(p.f_min, fmin(fmin(s.f_rho, s.f_alpha), 1.0)));
	}
}
END_TEST

START_TEST(test_acceptance_alone)
{
	struct ovc_aro_params p;
	struct ovc_acceptance s;
	int t;

	ovc_aro_defaults(&p);
	p.k = 4;
	ck_assert_int_eq(ovc_acceptance_init(&s, &p), OVC_OK);
	/* no packets: no change */
	ck_assert(ovc_acceptance_step(&s, 0, 0) == 1.0);
	/* alpha 0.5: f_alpha = 0.95 / 0.5 * f, restricted */
	s.f = 0.2;
	ck_assert_double_eq_tol(ovc_acceptance_step(&s, 50, 100), 0.38, 1e-12);
	/* alpha 1 with target 0.95: 5 % less each step, down to f_min */
	ovc_acceptance_init(&s, &p);
	for(t = 0; t < 200; t++)
		ovc_acceptance_step(&s, 100, 100);
	ck_assert(s.f == p.f_min);
	/* bad counts */
	ck_assert(ovc_acceptance_step(&s, 101, 100) == p.f_min);
	ck_assert(ovc_acceptance_step(&s, NAN, 100) == p.f_min);
	ck_assert(ovc_acceptance_step(&s, -1, 100) == p.f_min);
	p.alpha_target = 0.0;
	ck_assert_int_eq(ovc_acceptance_init(&s, &p), OVC_ERANGE);
}
END_TEST

START_TEST(test_aro_limits_and_bad)
{
	struct ovc_aro_params p;
	struct ovc_aro s, before;
	unsigned seed = 1;
	int t, out = 0;
	double f;

	ovc_aro_defaults(&p);
	ovc_aro_init(&s, &p);
	for(t = 0; t < 5000; t++) {
		seed = seed * 1103515245u + 12345u;
		double cpu = (double)(seed >> 16 & 0x7fff) / 16384.0; /* [0, 2) */
		double tot = (double)(seed % 200);
		f = ovc_aro_step(&s, cpu, 0.04, floor(tot * 0.7), tot);
		if(!(f >= p.f_min && f <= 1.0))
			out++;
	}
	ck_assert_int_eq(out, 0);
	memcpy(&before, &s, sizeof(before)); /* padding too */
	ck_assert(ovc_aro_step(&s, NAN, 0.04, 1, 2) == before.f);
	ck_assert(ovc_aro_step(&s, 0.5, 0.0, 1, 2) == before.f);
	ck_assert(ovc_aro_step(&s, 0.5, 0.04, 3, 2) == before.f);
	ck_assert(ovc_aro_step(&s, 0.5, 0.04, -1, 2) == before.f);
	ck_assert(ovc_aro_step(&s, 0.5, 0.04, 1, INFINITY) == before.f);
	ck_assert(memcmp(&s, &before, sizeof(s)) == 0);
	p.k = 0;
	ck_assert_int_eq(ovc_aro_init(&s, &p), OVC_ERANGE);
	ck_assert(memcmp(&s, &before, sizeof(s)) == 0);
}
END_TEST

/* Two controllers with default parameters but alpha_targ 1. */
static void init_pair_alpha1(struct ovc_aro *a, struct ovc_aro *b)
{
	struct ovc_aro_params p;

	ovc_aro_defaults(&p);
	p.alpha_target = 1.0;
	ck_assert_int_eq(ovc_aro_init(a, &p), OVC_OK);
	ck_assert_int_eq(ovc_aro_init(b, &p), OVC_OK);
}

START_TEST(test_aro_more_aggressive_than_occupancy)
{
	/* With alpha_targ 1 and full acceptance, ARO reduces to occupancy's
	 * f_rho; any rejection seen in alpha only lowers f further. */
	struct ovc_aro a, b;
	int t;

	init_pair_alpha1(&a, &b);
	for(t = 0; t < 100; t++) {
		ovc_aro_step(&a, 1.0, 0.04, 100, 100);
		ovc_aro_step(&b, 1.0, 0.04, 80, 100);
		ck_assert(a.f == a.f_rho);
		ck_assert(b.f <= a.f);
	}
}
END_TEST

/* Readings averaged as measured (see test_occupancy_unclamped_readings):
 * 0.7 and 1.3 in turn read rho = 1; clamped first, 0.85. */
START_TEST(test_aro_unclamped_readings)
{
	struct ovc_aro a, b;
	int t;

	init_pair_alpha1(&a, &b);
	for(t = 0; t < 100; t++) {
		ovc_aro_step(&a, t % 2 ? 1.3 : 0.7, 0.04, 100, 100);
		ovc_aro_step(&b, t % 2 ? 1.0 : 0.7, 0.04, 100, 100);
	}
	ck_assert(a.rho > 0.95 && a.rho <= 1.0);
	ck_assert(b.rho < 0.9);
	ck_assert(a.f < b.f);
}
END_TEST

/* f lowered under load recovers while the proxy is idle (no packet: only
 * the occupancy term acts), even when the last window's acceptance equals
 * alpha_target (module, 2026-11-24: f held at 0.78 through 3 idle s). */
START_TEST(test_aro_recovers_when_idle)
{
	struct ovc_aro s, unused;
	int t;

	init_pair_alpha1(&s, &unused);
	for(t = 0; t < 50; t++) /* saturated, everything admitted */
		ovc_aro_step(&s, 1.0, 0.04, 10, 10);
	ck_assert(s.f < 0.9);
	for(t = 0; t < 50; t++) /* 2 s idle, no packet */
		ovc_aro_step(&s, 0.1, 0.04, 0, 0);
	ck_assert(s.f == 1.0);
	ck_assert(s.alpha == 1.0); /* the last window's value is kept */
}
END_TEST

Suite *make_suite_aro(void)
{
	Suite *s = suite_create("aro");
	TCase *tc = tcase_create("aro");

	tcase_add_test(tc, test_aro_defaults);
	tcase_add_test(tc, test_aro_vectors);
	tcase_add_test(tc, test_acceptance_alone);
	tcase_add_test(tc, test_aro_limits_and_bad);
	tcase_add_test(tc, test_aro_more_aggressive_than_occupancy);
	tcase_add_test(tc, test_aro_unclamped_readings);
	tcase_add_test(tc, test_aro_recovers_when_idle);
	suite_add_tcase(s, tc);
	return s;
}
