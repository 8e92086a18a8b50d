/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/occupancy.c: 001 eq. 1-3 by hand-computed vectors,
 * limits, bad input, and behaviour on a synthetic 3x overload plant.
 */
#include <math.h>
#include <string.h>

#include "ovc/occupancy.h"
#include "ovc/types.h"
#include "suites.h"

START_TEST(test_occupancy_defaults)
{
	struct ovc_occupancy_params p;

	ovc_occupancy_defaults(&p);
	ck_assert_uint_eq(p.k, 25);
	ck_assert(p.target == 0.95 && p.f_min == 0.05 && p.w == 0.1);
	ck_assert_uint_eq(p.epoch_ms, 40);
}
END_TEST

struct occu_vec
{
	double cpu, dt;			/* sample */
	double rho, rho_hat, f; /* expected after it */
};

/* k 3, w 0.5, target 0.9, f_min 0.05; computed by hand from eq. 1-3 */
static const struct occu_vec occu_vecs[] = {
		{1.0, 1.0, 1.0, 1.0, 0.9},
		{0.5, 1.0, 0.75, 0.875, 0.9257142857142858},
		{1.0, 2.0, 0.875, 0.875, 0.9521632653061227},
		{1.0, 1.0, 0.875, 0.875, 0.9793679300291549}, /* (1,1) left */
		{0.2, 1.0, 0.8, 0.8375, 1.0},
};

START_TEST(test_occupancy_vectors)
{
	struct ovc_occupancy_params p;
	struct ovc_occupancy s;
	size_t i;

	ovc_occupancy_defaults(&p);
	p.k = 3;
	p.w = 0.5;
	p.target = 0.9;
	ck_assert_int_eq(ovc_occupancy_init(&s, &p), OVC_OK);
	for(i = 0; i < sizeof(occu_vecs) / sizeof(occu_vecs[0]); i++) {
		const struct occu_vec *v = &occu_vecs[i];
		double f = ovc_occupancy_step(&s, v->cpu, v->dt);
		ck_assert_double_eq_tol(s.rho, v->rho, 1e-12);
		ck_assert_double_eq_tol(s.rho_hat.v, v->rho_hat, 1e-12);
		ck_assert_double_eq_tol(f, v->f, 1e-12);
	}
}
END_TEST

START_TEST(test_occupancy_bad)
{
	struct ovc_occupancy_params p, d;
	struct ovc_occupancy s, before;

	ovc_occupancy_defaults(&d);
	ovc_occupancy_init(&s, &d);
	ovc_occupancy_step(&s, 1.0, 0.04);
	memcpy(&before, &s, sizeof(before)); /* padding too */
	ck_assert(ovc_occupancy_step(&s, NAN, 0.04) == before.f);
	ck_assert(ovc_occupancy_step(&s, -0.1, 0.04) == before.f);
	ck_assert(ovc_occupancy_step(&s, 0.5, 0.0) == before.f);
	ck_assert(ovc_occupancy_step(&s, 0.5, -1.0) == before.f);
	ck_assert(ovc_occupancy_step(&s, 0.5, INFINITY) == before.f);
	ck_assert(memcmp(&s, &before, sizeof(s)) == 0);
#define BAD(field, val)                                                 \
	do {                                                                \
		p = d;                                                          \
		p.field = val;                                                  \
		ck_assert_int_eq(ovc_occupancy_init(&s, &p), OVC_ERANGE);       \
		ck_assert(memcmp(&s, &before, sizeof(s)) == 0);                 \
	} while(0)
	BAD(k, 0);
	BAD(k, OVC_WINDOW_MAX + 1);
	BAD(target, 0.0);
	BAD(target, 1.5);
	BAD(f_min, 1.0);
	BAD(w, 0.0);
	BAD(w, NAN);
	BAD(epoch_ms, 0);
#undef BAD
}
END_TEST

/* 3x offered load; rejecting costs a tenth of accepting. */
static double plant_3x(double f)
{
	double c = 3.0 * f + 0.3 * (1.0 - f);

	return c > 1.0 ? 1.0 : c;
}

/* Runs n epochs of 40 ms on the 3x plant; returns the mean, min and max
 * occupancy over the last m and counts f outside [f_min, 1]. */
static void run_plant(struct ovc_occupancy *s, int n, int m, double *mean,
		double *lo, double *hi, int *out)
{
	double cpu = 1.0, f, sum = 0.0;
	int t;

	*lo = 1.0;
	*hi = 0.0;
	*out = 0;
	for(t = 0; t < n; t++) {
		f = ovc_occupancy_step(s, cpu, 0.04);
		if(f < s->p.f_min || f > 1.0)
			(*out)++;
		cpu = plant_3x(f);
		if(t >= n - m) {
			sum += cpu;
			*lo = fmin(*lo, cpu);
			*hi = fmax(*hi, cpu);
		}
	}
	*mean = sum / m;
}

START_TEST(test_occupancy_plant_no_lag)
{
	/* k 1, w 1: eq. 3 acts on the last sample and settles exactly */
	struct ovc_occupancy_params p;
	struct ovc_occupancy s;
	double mean, lo, hi;
	int out;

	ovc_occupancy_defaults(&p);
	p.k = 1;
	p.w = 1.0;
	ovc_occupancy_init(&s, &p);
	run_plant(&s, 500, 100, &mean, &lo, &hi, &out);
	ck_assert_int_eq(out, 0);
	ck_assert_double_eq_tol(mean, p.target, 1e-6);
	ck_assert_double_le(hi - lo, 1e-6);
	ck_assert_double_eq_tol(s.f, (p.target - 0.3) / 2.7, 1e-6);
}
END_TEST

START_TEST(test_occupancy_plant_defaults)
{
	/* 001's k 25, w 0.1: the window and EWMA lag make eq. 3 cycle around
	 * the target (documented in docs/algorithms.md); on average the
	 * occupancy sits at rho_thresh and f stays in its bounds. */
	struct ovc_occupancy_params p;
	struct ovc_occupancy s;
	double mean, lo, hi, f = 0.0;
	int out, t;

	ovc_occupancy_defaults(&p);
	ovc_occupancy_init(&s, &p);
	run_plant(&s, 5000, 2000, &mean, &lo, &hi, &out);
	ck_assert_int_eq(out, 0);
	ck_assert_double_eq_tol(mean, p.target, 0.02);
	ck_assert_double_lt(lo, p.target);
	ck_assert_double_ge(lo, 0.5);
	/* load gone: back to f = 1 */
	for(t = 0; t < 200; t++)
		f = ovc_occupancy_step(&s, 0.1, 0.04);
	ck_assert(f == 1.0);
}
END_TEST

START_TEST(test_occupancy_idle)
{
	struct ovc_occupancy_params p;
	struct ovc_occupancy s;

	ovc_occupancy_defaults(&p);
	ovc_occupancy_init(&s, &p);
	ck_assert(ovc_occupancy_step(&s, 0.0, 0.04) == 1.0);
	ck_assert(ovc_occupancy_step(&s, 2.0, 0.04) <= 1.0); /* clamped */
	ck_assert(s.rho <= 1.0);
}
END_TEST

/* Readings averaged as measured: 0.7 and 1.3 in turn (a saturated proxy
 * under a CPU quota) are rho = 1, above the target, and f falls; clamped
 * first they would be 0.85 and leave f at 1. */
START_TEST(test_occupancy_unclamped_readings)
{
	struct ovc_occupancy_params p;
	struct ovc_occupancy a, b;
	int t;

	ovc_occupancy_defaults(&p);
	ovc_occupancy_init(&a, &p);
	ovc_occupancy_init(&b, &p);
	for(t = 0; t < 100; t++) {
		ovc_occupancy_step(&a, t % 2 ? 1.3 : 0.7, 0.04);
		ovc_occupancy_step(&b, t % 2 ? 1.0 : 0.7, 0.04);
	}
	ck_assert(a.rho > 0.95 && a.rho <= 1.0);
	ck_assert(a.f < 0.95);
	ck_assert(b.f == 1.0);
}
END_TEST

Suite *make_suite_occupancy(void)
{
	Suite *s = suite_create("occupancy");
	TCase *tc = tcase_create("occupancy");

	tcase_add_test(tc, test_occupancy_defaults);
	tcase_add_test(tc, test_occupancy_vectors);
	tcase_add_test(tc, test_occupancy_bad);
	tcase_add_test(tc, test_occupancy_plant_no_lag);
	tcase_add_test(tc, test_occupancy_plant_defaults);
	tcase_add_test(tc, test_occupancy_idle);
	tcase_add_test(tc, test_occupancy_unclamped_readings);
	suite_add_tcase(s, tc);
	return s;
}
