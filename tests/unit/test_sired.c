/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/sired.c: 001 eq. 6-8: the EWMA, f linear between
 * the thresholds, limits and bad input.
 */
#include <math.h>
#include <string.h>

#include "ovc/sired.h"
#include "ovc/types.h"
#include "suites.h"

struct sired_vec
{
	double q_hat; /* averaged occupancy */
	double f;	  /* expected f with defaults 0.7 / 0.9 / 0.05 */
};

static const struct sired_vec sired_vecs[] = {
		{0.0, 1.0},
		{0.5, 1.0},
		{0.7, 1.0},
		{0.75, 0.75},
		{0.8, 0.5},
		{0.85, 0.25},
		{0.88, 0.1},
		{0.89, 0.05},
		{0.895, 0.05}, /* 0.025 < f_min */
		{0.9, 0.05},
		{1.0, 0.05},
};

START_TEST(test_sired_f_of)
{
	struct ovc_sired_params p;
	const struct sired_vec *v = &sired_vecs[_i];

	ovc_sired_defaults(&p);
	ck_assert_double_eq_tol(ovc_sired_f_of(&p, v->q_hat), v->f, 1e-12);
}
END_TEST

START_TEST(test_sired_linear)
{
	struct ovc_sired_params p;
	double q, f, slope = -1.0 / 0.2, prev = 1.0;
	int i, bad = 0;

	ovc_sired_defaults(&p);
	ck_assert(p.qmin == 0.7 && p.qmax == 0.9);
	ck_assert(p.f_min == 0.05 && p.w == 0.05);
	/* constant slope -1/(Q_max - Q_min) from Q_min down to f_min */
	for(i = 1; i <= 190; i++) {
		q = 0.7 + i * 0.001;
		f = ovc_sired_f_of(&p, q);
		if(fabs((f - prev) / 0.001 - slope) > 1e-6)
			bad++;
		if(fabs(f - (0.9 - q) / 0.2) > 1e-12)
			bad++;
		prev = f;
	}
	ck_assert_int_eq(bad, 0);
	/* flat outside */
	for(i = 0; i < 70; i++)
		if(ovc_sired_f_of(&p, i * 0.01) != 1.0)
			bad++;
	if(ovc_sired_f_of(&p, 0.7) != 1.0)
		bad++;
	for(i = 0; i <= 10; i++)
		if(ovc_sired_f_of(&p, 0.9 + i * 0.01) != p.f_min)
			bad++;
	ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(test_sired_ewma)
{
	struct ovc_sired_params p;
	struct ovc_sired s;
	int t;

	ovc_sired_defaults(&p);
	ck_assert_int_eq(ovc_sired_init(&s, &p), OVC_OK);
	/* q^ starts at 0: 0.05, 0.0975, then 0.142625 */
	ovc_sired_step(&s, 1.0);
	ck_assert_double_eq_tol(s.q_hat.v, 0.05, 1e-15);
	ovc_sired_step(&s, 1.0);
	ck_assert_double_eq_tol(s.q_hat.v, 0.0975, 1e-15);
	ck_assert(ovc_sired_step(&s, 1.0) == 1.0);
	ck_assert_double_eq_tol(s.q_hat.v, 0.142625, 1e-15);
	/* a steady 80 % queue: q^ -> 0.8, f -> 0.5 */
	for(t = 0; t < 1000; t++)
		ovc_sired_step(&s, 0.8);
	ck_assert_double_eq_tol(s.f, 0.5, 1e-9);
	/* overfull readings are clamped to 1 */
	for(t = 0; t < 1000; t++)
		ovc_sired_step(&s, 5.0);
	ck_assert_double_eq_tol(s.q_hat.v, 1.0, 1e-9);
	ck_assert(s.f == p.f_min);
}
END_TEST

START_TEST(test_sired_bad)
{
	struct ovc_sired_params p, d;
	struct ovc_sired s, before;

	ovc_sired_defaults(&d);
	ovc_sired_init(&s, &d);
	ovc_sired_step(&s, 0.9);
	memcpy(&before, &s, sizeof(before)); /* padding too */
	ck_assert(ovc_sired_step(&s, NAN) == before.f);
	ck_assert(ovc_sired_step(&s, -0.1) == before.f);
	ck_assert(ovc_sired_step(&s, INFINITY) == before.f);
	ck_assert(memcmp(&s, &before, sizeof(s)) == 0);
#define BAD(field, val)                                            \
	do {                                                           \
		p = d;                                                     \
		p.field = val;                                             \
		ck_assert_int_eq(ovc_sired_init(&s, &p), OVC_ERANGE);      \
		ck_assert(memcmp(&s, &before, sizeof(s)) == 0);            \
	} while(0)
	BAD(qmin, 0.9);
	BAD(qmin, -0.1);
	BAD(qmax, 1.1);
	BAD(f_min, 1.0);
	BAD(w, 0.0);
	BAD(qmax, NAN);
	BAD(epoch_ms, 0);
#undef BAD
}
END_TEST

Suite *make_suite_sired(void)
{
	Suite *s = suite_create("sired");
	TCase *tc = tcase_create("sired");

	tcase_add_loop_test(tc, test_sired_f_of, 0,
			sizeof(sired_vecs) / sizeof(sired_vecs[0]));
	tcase_add_test(tc, test_sired_linear);
	tcase_add_test(tc, test_sired_ewma);
	tcase_add_test(tc, test_sired_bad);
	suite_add_tcase(s, tc);
	return s;
}
