/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim tests - Extremum Seeking on known cost maps: converges to the
 * minimum of a quadratic from 003's initial conditions, the anti-windup
 * pulls a negative parameter back, a flat map leaves theta^ alone.
 */
#include <math.h>

#include "es.h"
#include "escost.h"
#include "suites.h"

static const double opt[4] = {3.5, 10.3, 19.2, 130.5};

static double quad(const double *th)
{
	double j = 0.2;
	int i;

	for(i = 0; i < 4; i++)
		j += 0.003 * (th[i] - opt[i]) * (th[i] - opt[i]);
	return j;
}

START_TEST(test_es_quadratic)
{
	static const double init[][4] = {{12, 12, 20, 130}, {2, 2, 20, 130},
			{1, 1, 20, 130}};
	struct sim_es_params p;
	struct sim_es es;
	int i, k, r;

	sim_es_defaults(&p);
	for(r = 0; r < 3; r++) {
		ck_assert_int_eq(sim_es_init(&es, &p, init[r]), 0);
		for(k = 0; k < 300; k++)
			sim_es_update(&es, quad(es.theta));
		for(i = 0; i < 4; i++)
			ck_assert_msg(fabs(es.theta_hat[i] - opt[i]) < 1.0,
					"run %d theta^%d = %g, want %g", r, i, es.theta_hat[i],
					opt[i]);
	}
}
END_TEST

/* J flat: the high-pass filter kills the DC, theta^ stays put. */
START_TEST(test_es_flat)
{
	const double th0[4] = {5, 6, 7, 8};
	struct sim_es_params p;
	struct sim_es es;
	int k;

	sim_es_defaults(&p);
	sim_es_init(&es, &p, th0);
	for(k = 0; k < 100; k++)
		sim_es_update(&es, 0.7);
	for(k = 0; k < 4; k++)
		ck_assert_double_eq_tol(es.theta_hat[k], th0[k] - 1, 1e-9);
}
END_TEST

/* Anti-windup: a negative theta with a flat cost drifts back up. */
START_TEST(test_es_antiwindup)
{
	const double th0[4] = {-17, 12, -16.5, 120};
	struct sim_es_params p;
	struct sim_es es;
	int k;

	sim_es_defaults(&p);
	p.kaw = 0.05;
	sim_es_init(&es, &p, th0);
	for(k = 0; k < 200; k++)
		sim_es_update(&es, 1.0);
	ck_assert(es.theta_hat[0] > -5);
	ck_assert(es.theta_hat[2] > -5);
	ck_assert_double_eq_tol(es.theta_hat[1], 11, 1e-9);
	ck_assert_int_eq(sim_es_init(&es, &p, th0) == 0, 1);
	p.n = 0;
	ck_assert_int_eq(sim_es_init(&es, &p, th0), -1);
}
END_TEST

/* The cost on a testbed command: eq. 15 and eq. 14 over the 4 loads. */
START_TEST(test_esc_testbed_contract)
{
	struct sim_cfg base;
	struct sim_esc c;
	double th[4] = {3.5, 10.3, 19.2, 130.5}, g, j;

	sim_cfg_defaults(&base);
	base.alg = OVC_ALG_PI;
	sim_esc_defaults(&c, &base);
	c.testbed = "test -n \"$OVC_ES_PARAMS\" && echo noise && "
				"echo riae=0.1 ciae=0.2 g=0.5";
	j = sim_esc_eval(&c, th, &g);
	ck_assert_double_eq_tol(j, 4 * (0.1 + 2 * 0.2), 1e-9);
	ck_assert_double_eq_tol(g, -0.5 * (1.58 + 2.10 + 2.37 + 2.63), 1e-9);
	c.testbed = "echo nothing useful";
	ck_assert(isnan(sim_esc_eval(&c, th, &g)));
}
END_TEST

/* On the simulator: deterministic, and lower for 003's gains than for a
 * CPU loop switched off (which collapses). */
START_TEST(test_esc_sim)
{
	struct sim_cfg base;
	struct sim_esc c;
	double good[4] = {3.5, 10.3, 19.2, 130.5}, off[4] = {0, 0, 19.2, 130.5};
	double a, b;

	sim_cfg_defaults(&base);
	base.alg = OVC_ALG_PI;
	sim_esc_defaults(&c, &base);
	c.tf = 30;
	a = sim_esc_eval(&c, good, NULL);
	ck_assert_msg(!isnan(a), "the simulator gives no cost for pi");
	ck_assert_double_eq(a, sim_esc_eval(&c, good, NULL));
	b = sim_esc_eval(&c, off, NULL);
	ck_assert_msg(a < b, "J(003 gains) %g >= J(no CPU loop) %g", a, b);
}
END_TEST

Suite *make_suite_es(void)
{
	Suite *s = suite_create("es");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_es_quadratic);
	tcase_add_test(tc, test_es_flat);
	tcase_add_test(tc, test_es_antiwindup);
	tcase_add_test(tc, test_esc_testbed_contract);
	tcase_add_test(tc, test_esc_sim);
	suite_add_tcase(s, tc);
	return s;
}
