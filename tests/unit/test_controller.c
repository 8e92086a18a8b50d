/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/controller.c: the dispatcher over every algorithm:
 * init errors without side effects, measurement refusal, output sanity.
 */
#include <math.h>
#include <string.h>

#include "ovc/controller.h"
#include "suites.h"

#define MS OVC_NS_PER_MS

static void measure_init(struct ovc_measure *m, double dt, double cpu)
{
	int i;

	memset(m, 0, sizeof(*m));
	m->dt_s = dt;
	m->cpu = cpu;
	m->mem = -1.0;
	m->queue_len = 0.0;
	m->queue_cap = 0.0;
	m->queue_delay_s = -1.0;
	for(i = 0; i < OVC_CLASS_COUNT; i++)
		m->offered[i] = m->admitted[i] = 0.0;
}

static void assert_output_sane(const struct ovc_output *o)
{
	int i;

	ck_assert(isfinite(o->f) && o->f >= 0.0 && o->f <= 1.0);
	ck_assert(isfinite(o->alpha) && o->alpha >= 0.0 && o->alpha <= 1.0);
	ck_assert(isfinite(o->u));
	for(i = 0; i < OVC_CLASS_COUNT; i++) {
		ck_assert(isfinite(o->p_reject[i]));
		ck_assert(o->p_reject[i] >= 0.0 && o->p_reject[i] <= 1.0);
		ck_assert(isfinite(o->burst_limit[i]));
	}
	ck_assert(o->p_reject[OVC_CLASS_INDIALOG] == 0.0);
	for(i = 0; i < OVC_DLG_COUNT; i++)
		ck_assert(o->p_drop[i] >= 0.0 && o->p_drop[i] <= 1.0);
}

START_TEST(test_size_and_bad_init)
{
	struct ovc_params p;
	struct ovc_ctl c, before;

	ck_assert_uint_eq(ovc_ctl_size(), sizeof(struct ovc_ctl));
	ovc_params_defaults(&p);
	ck_assert_int_eq(ovc_ctl_init(&c, OVC_ALG_NONE, &p), OVC_OK);
	before = c;
	ck_assert_int_eq(ovc_ctl_init(&c, OVC_ALG_COUNT, &p), OVC_EINVAL);
	ck_assert_int_eq(ovc_ctl_init(&c, (enum ovc_alg) - 1, &p), OVC_EINVAL);
	ck_assert_int_eq(ovc_ctl_init(&c, OVC_ALG_OCC, NULL), OVC_EINVAL);
	p.occ.target = 0.0;
	ck_assert_int_eq(ovc_ctl_init(&c, OVC_ALG_OCC, &p), OVC_ERANGE);
	ck_assert(memcmp(&c, &before, sizeof(c)) == 0);
	ck_assert_int_eq(ovc_ctl_alg(&c), OVC_ALG_NONE);
}
END_TEST

START_TEST(test_none)
{
	struct ovc_params p;
	struct ovc_ctl c;
	struct ovc_measure m;
	struct ovc_output o;
	int t;

	ovc_params_defaults(&p);
	ck_assert_int_eq(ovc_ctl_init(&c, OVC_ALG_NONE, &p), OVC_OK);
	ck_assert_uint_eq(ovc_ctl_epoch_ms(&c), 1000);
	ovc_ctl_last(&c, &o);
	ck_assert(o.f == 1.0);
	for(t = 1; t <= 10; t++) {
		measure_init(&m, 1.0, 1.0);
		ck_assert_int_eq(ovc_ctl_step(&c, &m, t * 1000 * MS, &o), OVC_OK);
		ck_assert(o.f == 1.0 && o.alpha == 0.0);
		ck_assert(o.p_reject[OVC_CLASS_INVITE] == 0.0);
		assert_output_sane(&o);
	}
}
END_TEST

START_TEST(test_occ_matches_direct)
{
	const double rhos[] = {1.0, 1.0, 0.95, 0.7, 0.2, 1.0, 0.0, 0.99, 0.5};
	struct ovc_params p;
	struct ovc_ctl c;
	struct ovc_occ d;
	struct ovc_measure m;
	struct ovc_output o, l;
	size_t i;

	ovc_params_defaults(&p);
	ck_assert_int_eq(ovc_ctl_init(&c, OVC_ALG_OCC, &p), OVC_OK);
	ck_assert_int_eq(ovc_ctl_alg(&c), OVC_ALG_OCC);
	ck_assert_uint_eq(ovc_ctl_epoch_ms(&c), 1000);
	ovc_occ_init(&d, &p.occ);
	for(i = 0; i < sizeof(rhos) / sizeof(rhos[0]); i++) {
		measure_init(&m, 1.0, rhos[i]);
		ck_assert_int_eq(
				ovc_ctl_step(&c, &m, (ovc_time_ns)(i + 1) * 1000 * MS, &o),
				OVC_OK);
		ck_assert_double_eq_tol(o.f, ovc_occ_step(&d, rhos[i]), 1e-15);
		ck_assert_double_eq_tol(
				o.p_reject[OVC_CLASS_INVITE], 1.0 - o.f, 1e-15);
		assert_output_sane(&o);
		ovc_ctl_last(&c, &l);
		ck_assert(memcmp(&o, &l, sizeof(o)) == 0);
	}
}
END_TEST

START_TEST(test_bad_measure_repeats_last)
{
	const double bad[] = {NAN, INFINITY, -INFINITY, -0.5};
	struct ovc_params p;
	struct ovc_ctl c, before;
	struct ovc_measure m;
	struct ovc_output o, last;
	size_t i;

	ovc_params_defaults(&p);
	ovc_ctl_init(&c, OVC_ALG_OCC, &p);
	measure_init(&m, 1.0, 1.0);
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 1000 * MS, &last), OVC_OK);
	ck_assert_double_eq_tol(last.f, 0.9, 1e-12);
	before = c;
	for(i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		measure_init(&m, 1.0, bad[i]);
		ck_assert_int_eq(ovc_ctl_step(&c, &m, 2000 * MS, &o), OVC_EINVAL);
		ck_assert(memcmp(&o, &last, sizeof(o)) == 0);
		ck_assert(memcmp(&c, &before, sizeof(c)) == 0);
	}
	ck_assert_int_eq(ovc_ctl_step(&c, NULL, 2000 * MS, &o), OVC_EINVAL);
	ck_assert(memcmp(&o, &last, sizeof(o)) == 0);
}
END_TEST

START_TEST(test_dt_from_clock)
{
	struct ovc_params p;
	struct ovc_ctl c;
	struct ovc_measure m;
	struct ovc_output o;

	ovc_params_defaults(&p);
	ovc_ctl_init(&c, OVC_ALG_OCC, &p);
	/* no dt and no previous step: refused */
	measure_init(&m, 0.0, 1.0);
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 5 * MS, &o), OVC_EINVAL);
	measure_init(&m, NAN, 1.0);
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 5 * MS, &o), OVC_EINVAL);
	ck_assert(o.f == 1.0);
	measure_init(&m, 1.0, 1.0);
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 1000 * MS, &o), OVC_OK);
	/* then the clock gives dt; a clock standing still does not */
	measure_init(&m, -1.0, 1.0);
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 2000 * MS, &o), OVC_OK);
	ck_assert_double_eq_tol(o.f, 0.81, 1e-12);
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 2000 * MS, &o), OVC_EINVAL);
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 1500 * MS, &o), OVC_EINVAL);
	ck_assert_double_eq_tol(o.f, 0.81, 1e-12);
}
END_TEST

START_TEST(test_reconfigure_occ)
{
	struct ovc_params p;
	struct ovc_ctl c, before;
	struct ovc_measure m;
	struct ovc_output o;

	ovc_params_defaults(&p);
	ovc_ctl_init(&c, OVC_ALG_OCC, &p);
	measure_init(&m, 1.0, 1.0);
	ovc_ctl_step(&c, &m, 1000 * MS, &o);
	ovc_ctl_step(&c, &m, 2000 * MS, &o);
	ck_assert_double_eq_tol(o.f, 0.81, 1e-12);
	p.occ.target = 0.5;
	p.occ.epoch_ms = 200;
	ck_assert_int_eq(ovc_ctl_reconfigure(&c, &p), OVC_OK);
	ck_assert_uint_eq(ovc_ctl_epoch_ms(&c), 200);
	ovc_ctl_step(&c, &m, 3000 * MS, &o);
	ck_assert_double_eq_tol(o.f, 0.405, 1e-12);
	before = c;
	p.occ.phi_max = 0.0;
	ck_assert_int_eq(ovc_ctl_reconfigure(&c, &p), OVC_ERANGE);
	ck_assert(memcmp(&c, &before, sizeof(c)) == 0);
}
END_TEST

Suite *make_suite_controller(void)
{
	Suite *s = suite_create("controller");
	TCase *tc = tcase_create("dispatch");

	tcase_add_test(tc, test_size_and_bad_init);
	tcase_add_test(tc, test_none);
	tcase_add_test(tc, test_occ_matches_direct);
	tcase_add_test(tc, test_bad_measure_repeats_last);
	tcase_add_test(tc, test_dt_from_clock);
	tcase_add_test(tc, test_reconfigure_occ);
	suite_add_tcase(s, tc);
	return s;
}
