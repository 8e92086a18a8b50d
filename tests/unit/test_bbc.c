/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/bbc.c: 000 §VI-B watermarks, exact toggling points,
 * hysteresis, 003's 800/400 setting, bad input.
 */
#include <math.h>
#include <string.h>

#include "ovc/bbc.h"
#include "ovc/types.h"
#include "suites.h"

struct bbc_vec
{
	int overload; /* state before */
	double q;	  /* queue length */
	double f;	  /* expected f (defaults 800 / 600) */
};

static const struct bbc_vec bbc_vecs[] = {
		{0, 0.0, 1.0},
		{0, 799.0, 1.0},
		{0, 800.0, 1.0},   /* at B_h: not exceeded */
		{0, 800.5, 0.0},   /* exceeds B_h */
		{0, 1000.0, 0.0},
		{1, 1000.0, 0.0},
		{1, 700.0, 0.0},   /* hysteresis band keeps overload */
		{0, 700.0, 1.0},   /* ... and underload */
		{1, 600.0, 0.0},   /* at B_l: not below */
		{1, 599.9, 1.0},   /* below B_l */
		{1, 0.0, 1.0},
};

START_TEST(test_bbc_vectors)
{
	struct ovc_bbc_params p;
	struct ovc_bbc s;
	const struct bbc_vec *v = &bbc_vecs[_i];

	ovc_bbc_defaults(&p);
	ck_assert_int_eq(ovc_bbc_init(&s, &p), OVC_OK);
	s.overload = v->overload;
	s.f = v->overload ? 0.0 : 1.0;
	ck_assert(ovc_bbc_step(&s, v->q) == v->f);
	ck_assert_int_eq(s.overload, v->f == 0.0);
}
END_TEST

/* Ramps the queue 0 -> top -> 0 by 1 and returns where f toggled. */
static void ramp(const struct ovc_bbc_params *p, double top, double *on,
		double *off)
{
	struct ovc_bbc s;
	double q, prev = 1.0, f;
	int toggles = 0;

	ovc_bbc_init(&s, p);
	*on = *off = -1.0;
	for(q = 0.0; q <= top; q += 1.0) {
		f = ovc_bbc_step(&s, q);
		if(f != prev) {
			toggles++;
			*on = q;
		}
		prev = f;
	}
	for(q = top; q >= 0.0; q -= 1.0) {
		f = ovc_bbc_step(&s, q);
		if(f != prev) {
			toggles++;
			*off = q;
		}
		prev = f;
	}
	ck_assert_int_eq(toggles, 2);
}

START_TEST(test_bbc_toggles_at_watermarks)
{
	struct ovc_bbc_params p;
	double on, off;

	ovc_bbc_defaults(&p);
	ck_assert(p.high == 800.0 && p.low == 600.0);
	ramp(&p, 1000.0, &on, &off);
	ck_assert(on == 801.0);
	ck_assert(off == 599.0);
	/* 003's Ohta setting */
	p.low = 400.0;
	ramp(&p, 1000.0, &on, &off);
	ck_assert(on == 801.0);
	ck_assert(off == 399.0);
}
END_TEST

START_TEST(test_bbc_bad)
{
	struct ovc_bbc_params p, d;
	struct ovc_bbc s, before;

	ovc_bbc_defaults(&d);
	ovc_bbc_init(&s, &d);
	ovc_bbc_step(&s, 900.0);
	memcpy(&before, &s, sizeof(before)); /* padding too */
	ck_assert(ovc_bbc_step(&s, NAN) == 0.0);
	ck_assert(ovc_bbc_step(&s, -1.0) == 0.0);
	ck_assert(ovc_bbc_step(&s, -INFINITY) == 0.0);
	ck_assert(memcmp(&s, &before, sizeof(s)) == 0);
#define BAD(field, val)                                             \
	do {                                                            \
		p = d;                                                      \
		p.field = val;                                              \
		ck_assert_int_eq(ovc_bbc_init(&s, &p), OVC_ERANGE);         \
		ck_assert_int_eq(ovc_bbc_reconfigure(&s, &p), OVC_ERANGE);  \
		ck_assert(memcmp(&s, &before, sizeof(s)) == 0);             \
	} while(0)
	BAD(low, 800.0);
	BAD(low, 900.0);
	BAD(low, -1.0);
	BAD(high, NAN);
	BAD(low, NAN);
	BAD(epoch_ms, 0);
#undef BAD
	/* reconfigure keeps the state */
	p = d;
	p.low = 100.0;
	ck_assert_int_eq(ovc_bbc_reconfigure(&s, &p), OVC_OK);
	ck_assert_int_eq(s.overload, 1);
	ck_assert(ovc_bbc_step(&s, 150.0) == 0.0);
	ck_assert(ovc_bbc_step(&s, 99.0) == 1.0);
}
END_TEST

Suite *make_suite_bbc(void)
{
	Suite *s = suite_create("bbc");
	TCase *tc = tcase_create("bbc");

	tcase_add_loop_test(
			tc, test_bbc_vectors, 0, sizeof(bbc_vecs) / sizeof(bbc_vecs[0]));
	tcase_add_test(tc, test_bbc_toggles_at_watermarks);
	tcase_add_test(tc, test_bbc_bad);
	suite_add_tcase(s, tc);
	return s;
}
