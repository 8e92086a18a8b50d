/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/pi.c: 003 eq. 7-8 by hand-computed steps, output
 * limits, step tracking without steady-state error on the fluid model of
 * 003 (eq. 1, 5, 9), no integrator windup after saturation, and CPU
 * readings above 1 filtered before they are clamped.
 */
#include <math.h>
#include <string.h>

#include "ovc/pi.h"
#include "ovc/types.h"
#include "suites.h"

START_TEST(test_pi_defaults)
{
	struct ovc_pi_params p;

	ovc_pi_defaults(&p);
	ck_assert(p.kpc == 3.5 && p.kic == 10.3);
	ck_assert(p.kpq == 19.2 && p.kiq == 130.5);
	ck_assert(p.tq == 0.05 && p.tau == 0.1 && p.tau_c == 0.1);
	ck_assert_uint_eq(p.epoch_ms, 10);
}
END_TEST

START_TEST(test_pi_hand_steps)
{
	struct ovc_pi_params p;
	struct ovc_pi s;

	ovc_pi_defaults(&p);
	ck_assert_int_eq(ovc_pi_init(&s, &p), OVC_OK);
	/* r = 20 / 0.01 / 1000 = 2; q_T = 0.05 * 1000 * 2 = 100 = q: e_q 0.
	 * e_c = 0.05: I_c = 10.3 * 0.01 * 0.05 = 0.00515,
	 * alpha = 3.5 * 0.05 + 0.00515 = 0.18015 */
	ck_assert_int_eq(ovc_pi_step(&s, 0.01, 0.95, 100.0, 20.0), OVC_OK);
	ck_assert_double_eq_tol(s.q_t, 100.0, 1e-9);
	ck_assert_double_eq_tol(s.u, 0.0, 1e-12);
	ck_assert_double_eq_tol(s.alpha, 0.18015, 1e-12);
	/* q = 150: e_q = 50, I_q = 130.5 * 0.01 * 50 = 65.25,
	 * u = (19.2 * 50 + 65.25) / 1000 = 1.02525; alpha = 0.175 + 0.0103 */
	ck_assert_int_eq(ovc_pi_step(&s, 0.01, 0.95, 150.0, 20.0), OVC_OK);
	ck_assert_double_eq_tol(s.u, 1.02525, 1e-12);
	ck_assert_double_eq_tol(s.alpha, 0.1853, 1e-12);
	/* the filters: r 0 now, r~ = 2 + 0.01 / 0.11 * (0 - 2) */
	ck_assert_int_eq(ovc_pi_step(&s, 0.01, 0.95, 150.0, 0.0), OVC_OK);
	ck_assert_double_eq_tol(s.r_f.v, 2.0 - 2.0 / 11.0, 1e-12);
	ck_assert_double_eq_tol(s.q_t, 50.0 * (2.0 - 2.0 / 11.0), 1e-9);
}
END_TEST

/* C_T: the one given; else 1 under a CPU quota and 003's 0.9 without
 * one. Under a quota a CPU at 0.95 is no excess (alpha stays 0); without
 * one it is. A reconfiguration keeps a derived C_T in force. */
START_TEST(test_pi_c_target)
{
	struct ovc_pi_params p;
	struct ovc_pi s, nq;
	int k;

	ovc_pi_defaults(&p);
	ck_assert(p.c_target <= 0);
	ck_assert_double_eq(ovc_pi_c_target(&p, 0), OVC_PI_C_TARGET);
	ck_assert_double_eq(ovc_pi_c_target(&p, 1), 1.0);
	p.c_target = 0.8;
	ck_assert_double_eq(ovc_pi_c_target(&p, 0), 0.8);
	ck_assert_double_eq(ovc_pi_c_target(&p, 1), 0.8);
	ck_assert_int_eq(ovc_pi_init(&s, &p), OVC_OK);
	ovc_pi_set_quota(&s, 1);
	ck_assert_double_eq(s.c_t, 0.8);
	ovc_pi_defaults(&p);
	ck_assert_int_eq(ovc_pi_init(&s, &p), OVC_OK);
	ck_assert_double_eq(s.c_t, OVC_PI_C_TARGET);
	nq = s;
	ovc_pi_set_quota(&s, 1);
	ck_assert_double_eq(s.c_t, 1.0);
	for(k = 0; k < 200; k++) {
		ck_assert_int_eq(ovc_pi_step(&s, 0.01, 0.95, 10, 5), OVC_OK);
		ck_assert_int_eq(ovc_pi_step(&nq, 0.01, 0.95, 10, 5), OVC_OK);
	}
	ck_assert_double_eq(s.alpha, 0.0);
	ck_assert(nq.alpha > 0.1);
	ck_assert_int_eq(ovc_pi_reconfigure(&s, &p), OVC_OK);
	ck_assert_double_eq(s.c_t, 1.0);
	p.c_target = 0.7;
	ck_assert_int_eq(ovc_pi_reconfigure(&s, &p), OVC_OK);
	ck_assert_double_eq(s.c_t, 0.7);
}
END_TEST

START_TEST(test_pi_limits_and_bad)
{
	struct ovc_pi_params p;
	struct ovc_pi s, before;
	unsigned seed = 7;
	int t, out = 0;

	ovc_pi_defaults(&p);
	ovc_pi_init(&s, &p);
	for(t = 0; t < 20000; t++) {
		seed = seed * 1103515245u + 12345u;
		double cpu = (double)(seed >> 16 & 0x7fff) / 16384.0;
		double q = (double)(seed % 1000);
		double a = (double)((seed >> 8) % 200);
		ovc_pi_step(&s, 0.01, cpu, q, a);
		if(!(s.u >= 0.0 && s.u <= p.u_max && s.alpha >= 0.0
				   && s.alpha <= 1.0 && s.iq >= 0.0
				   && s.iq <= p.u_max * s.rho_m && s.ic >= 0.0
				   && s.ic <= 1.0))
			out++;
	}
	ck_assert_int_eq(out, 0);
	memcpy(&before, &s, sizeof(before)); /* padding too */
	ck_assert_int_eq(ovc_pi_step(&s, 0.0, 0.5, 1.0, 1.0), OVC_EINVAL);
	ck_assert_int_eq(ovc_pi_step(&s, NAN, 0.5, 1.0, 1.0), OVC_EINVAL);
	ck_assert_int_eq(ovc_pi_step(&s, 0.01, NAN, 1.0, 1.0), OVC_EINVAL);
	ck_assert_int_eq(ovc_pi_step(&s, 0.01, -0.5, 1.0, 1.0), OVC_EINVAL);
	ck_assert_int_eq(ovc_pi_step(&s, 0.01, 0.5, -1.0, 1.0), OVC_EINVAL);
	ck_assert_int_eq(ovc_pi_step(&s, 0.01, 0.5, 1.0, INFINITY), OVC_EINVAL);
	ck_assert(memcmp(&s, &before, sizeof(s)) == 0);
	p.rho_m = -1.0;
	ck_assert_int_eq(ovc_pi_init(&s, &p), OVC_ERANGE);
	ck_assert_int_eq(ovc_pi_reconfigure(&s, &p), OVC_ERANGE);
	ovc_pi_defaults(&p);
	p.c_target = 1.5;
	ck_assert_int_eq(ovc_pi_init(&s, &p), OVC_ERANGE);
	p.c_target = NAN;
	ck_assert_int_eq(ovc_pi_init(&s, &p), OVC_ERANGE);
	ovc_pi_defaults(&p);
	p.kpc = -1.0;
	ck_assert_int_eq(ovc_pi_init(&s, &p), OVC_ERANGE);
	ck_assert(memcmp(&s, &before, sizeof(s)) == 0);
	/* reconfigure keeps integrators, clamped to the new range */
	ovc_pi_defaults(&p);
	p.u_max = 0.5;
	s.iq = 4000.0;
	ck_assert_int_eq(ovc_pi_reconfigure(&s, &p), OVC_OK);
	ck_assert(s.iq == 500.0 && s.u <= 0.5);
}
END_TEST

/* A saturated proxy under a CPU quota reads 0.7 and 1.3 in turn (mean 1,
 * above C_T = 0.9): alpha must rise. Clamping each reading to 1 before
 * the filter would average 0.85 and leave alpha at 0. A reading beyond
 * OVC_CPU_READING_MAX counts as that bound. */
START_TEST(test_pi_unclamped_readings)
{
	struct ovc_pi_params p;
	struct ovc_pi s, t;
	int k;

	ovc_pi_defaults(&p);
	ck_assert_int_eq(ovc_pi_init(&s, &p), OVC_OK);
	for(k = 0; k < 200; k++) /* 2 s at 10 ms */
		ck_assert_int_eq(ovc_pi_step(&s, 0.01, k % 2 ? 1.3 : 0.7, 0.0, 0.0),
				OVC_OK);
	ck_assert(s.alpha > 0.9);
	ck_assert(ovc_ewma_value(&s.c_f) > 0.95 && ovc_ewma_value(&s.c_f) < 1.05);
	/* the same readings clamped: alpha never leaves 0 */
	ck_assert_int_eq(ovc_pi_init(&t, &p), OVC_OK);
	for(k = 0; k < 200; k++)
		ovc_pi_step(&t, 0.01, k % 2 ? 1.0 : 0.7, 0.0, 0.0);
	ck_assert(t.alpha == 0.0);
	ck_assert_int_eq(ovc_pi_init(&t, &p), OVC_OK);
	ovc_pi_step(&t, 0.01, 1e9, 0.0, 0.0);
	ck_assert_double_eq_tol(ovc_ewma_value(&t.c_f), OVC_CPU_READING_MAX,
			1e-12);
}
END_TEST

/* The fluid model of 003: INVITEs arrive at r rho_M, wait in a queue of
 * q_M, are drained at u rho_M; a fraction alpha of drained INVITEs is
 * rejected at 1/beta of the forwarding cost: C = u_eff (1 - gamma alpha)
 * (eq. 9 with d = 0), gamma = (beta - 1) / beta, C <= 1. */
struct plant
{
	double rho_m, q_max, beta;
	double q;	/* queue, messages */
	double cpu; /* last CPU load */
};

static void plant_step(struct plant *pl, const struct ovc_pi *s, double r,
		double dt, double *arrivals)
{
	double in = r * pl->rho_m * dt, out, gamma, c;

	out = s->u * pl->rho_m * dt;
	if(out > pl->q + in)
		out = pl->q + in;
	gamma = (pl->beta - 1.0) / pl->beta;
	c = out / (pl->rho_m * dt) * (1.0 - gamma * s->alpha);
	if(c > 1.0) {
		out *= 1.0 / c; /* the CPU cannot drain faster */
		c = 1.0;
	}
	pl->q += in - out;
	if(pl->q > pl->q_max)
		pl->q = pl->q_max; /* overflow */
	pl->cpu = c;
	*arrivals = in;
}

START_TEST(test_pi_tracks_step)
{
	struct ovc_pi_params p;
	struct ovc_pi s;
	struct plant pl = {1000.0, 800.0, 5.0, 0.0, 0.0};
	double a = 0.0, r, cmax = 0.0, cmin = 1.0;
	int t;

	ovc_pi_defaults(&p);
	ovc_pi_init(&s, &p);
	for(t = 0; t < 3000; t++) { /* 30 s at 10 ms */
		r = t < 500 ? 0.5 : 1.5;
		ck_assert_int_eq(ovc_pi_step(&s, 0.01, pl.cpu, pl.q, a), OVC_OK);
		plant_step(&pl, &s, r, 0.01, &a);
		if(t > 2500) {
			cmax = fmax(cmax, pl.cpu);
			cmin = fmin(cmin, pl.cpu);
		}
		if(t == 499) {
			/* under load: no rejection, drain = arrival rate */
			ck_assert_double_eq_tol(s.alpha, 0.0, 1e-9);
			ck_assert_double_eq_tol(s.u, 0.5, 1e-3);
			ck_assert_double_eq_tol(pl.q, 25.0, 0.1);
		}
	}
	/* no steady-state error: C -> C_T, q -> q_T, alpha at 003's
	 * equilibrium beta / (beta - 1) (1 - C_T / r) = 0.5 */
	ck_assert_double_eq_tol(pl.cpu, OVC_PI_C_TARGET, 1e-4);
	ck_assert_double_le(cmax - cmin, 1e-4);
	ck_assert_double_eq_tol(s.alpha, 1.25 * (1.0 - 0.9 / 1.5), 1e-3);
	ck_assert_double_eq_tol(pl.q, 0.05 * 1000.0 * 1.5, 0.5);
	ck_assert_double_eq_tol(s.u, 1.5, 1e-3);
}
END_TEST

/* pi.rho_m 0: starts at OVC_PI_RHO_M_START, takes the learned capacity
 * keeping the drain in INVITEs/s; a configured rho_M is kept. */
START_TEST(test_pi_learned_capacity)
{
	struct ovc_pi_params p;
	struct ovc_pi s;
	double drain;

	ovc_pi_defaults(&p);
	ck_assert(p.rho_m == 0.0);
	ck_assert_int_eq(ovc_pi_init(&s, &p), OVC_OK);
	ck_assert(s.rho_m == OVC_PI_RHO_M_START);
	s.u = 0.3;
	s.iq = 300;
	drain = s.u * s.rho_m;
	ck_assert_int_eq(ovc_pi_set_capacity(&s, 400), OVC_OK);
	ck_assert(s.rho_m == 400);
	ck_assert_double_eq_tol(s.u * s.rho_m, drain, 1e-9);
	/* the queue integrator stays within [0, u_max rho_M] */
	ck_assert_int_eq(ovc_pi_set_capacity(&s, 50), OVC_OK);
	ck_assert(s.iq <= p.u_max * 50 && s.u <= p.u_max);
	/* bad values change nothing */
	ck_assert_int_eq(ovc_pi_set_capacity(&s, 0), OVC_EINVAL);
	ck_assert_int_eq(ovc_pi_set_capacity(&s, NAN), OVC_EINVAL);
	ck_assert(s.rho_m == 50);
	/* configured: kept */
	p.rho_m = 700;
	ck_assert_int_eq(ovc_pi_init(&s, &p), OVC_OK);
	ck_assert_int_eq(ovc_pi_set_capacity(&s, 400), OVC_OK);
	ck_assert(s.rho_m == 700);
}
END_TEST

START_TEST(test_pi_no_windup)
{
	struct ovc_pi_params p;
	struct ovc_pi s;
	struct plant pl = {1000.0, 800.0, 5.0, 0.0, 0.0};
	double a = 0.0;
	int t, t_alpha = -1, t_u = -1;

	ovc_pi_defaults(&p);
	ovc_pi_init(&s, &p);
	/* 20 s at 10x capacity: alpha and u pinned at their maxima */
	for(t = 0; t < 2000; t++) {
		ovc_pi_step(&s, 0.01, pl.cpu, pl.q, a);
		plant_step(&pl, &s, 10.0, 0.01, &a);
	}
	ck_assert(s.alpha == 1.0);
	ck_assert(s.u == p.u_max);
	ck_assert(s.ic <= 1.0 && s.iq <= p.u_max * s.rho_m);
	/* the load falls to 0.5: both loops leave saturation at once */
	for(t = 0; t < 500; t++) {
		ovc_pi_step(&s, 0.01, pl.cpu, pl.q, a);
		plant_step(&pl, &s, 0.5, 0.01, &a);
		if(t_alpha < 0 && s.alpha == 0.0)
			t_alpha = t;
		if(t_u < 0 && pl.q < 30.0 && fabs(s.u - 0.5) < 0.05)
			t_u = t;
	}
	/* the 800-message queue drains in ~0.2 s at u_max; alpha must follow
	 * within ~0.5 s (a wound-up integrator would need many seconds) */
	ck_assert_int_ge(t_alpha, 0);
	ck_assert_int_le(t_alpha, 50);
	ck_assert_int_ge(t_u, 0);
	ck_assert_int_le(t_u, 100);
	ck_assert(s.alpha == 0.0);
	ck_assert_double_eq_tol(s.u, 0.5, 1e-3);
}
END_TEST

/* T_q in force is pi.tq, at most half the queue's expiry: the wait pi
 * keeps stays clear of the wait at which the queue refuses. */
START_TEST(test_pi_tq_within_expiry)
{
	struct ovc_pi_params p;
	struct ovc_pi s;

	ovc_pi_defaults(&p);
	ck_assert_double_eq(ovc_pi_tq(&p, 0.0), 0.05);
	ck_assert_double_eq(ovc_pi_tq(&p, NAN), 0.05);
	ck_assert_double_eq(ovc_pi_tq(&p, 0.18), 0.05); /* the default fits */
	ck_assert_double_eq_tol(ovc_pi_tq(&p, 0.08), 0.04, 1e-15);
	p.tq = 0.2;
	ck_assert_double_eq_tol(ovc_pi_tq(&p, 0.18), 0.09, 1e-15);
	ck_assert_double_eq(ovc_pi_tq(&p, -1.0), 0.2);
	ck_assert_int_eq(ovc_pi_init(&s, &p), OVC_OK);
	ck_assert_double_eq(ovc_pi_tq_now(&s), 0.2); /* no expiry known yet */
	/* r = 20 / 0.01 / 1000 = 2: q_T = T_q 1000 2 */
	ovc_pi_set_queue_expiry(&s, 0.18);
	ck_assert_int_eq(ovc_pi_step(&s, 0.01, 0.5, 0.0, 20.0), OVC_OK);
	ck_assert_double_eq_tol(s.q_t, 180.0, 1e-9);
	/* a new pi.tq under the same expiry: clamped again */
	p.tq = 0.03;
	ck_assert_int_eq(ovc_pi_reconfigure(&s, &p), OVC_OK);
	ck_assert_double_eq(ovc_pi_tq_now(&s), 0.03);
	p.tq = 1.0;
	ck_assert_int_eq(ovc_pi_reconfigure(&s, &p), OVC_OK);
	ck_assert_double_eq_tol(ovc_pi_tq_now(&s), 0.09, 1e-15);
	/* the queue gone (no expiry): pi.tq as set */
	ovc_pi_set_queue_expiry(&s, 0.0);
	ck_assert_double_eq(ovc_pi_tq_now(&s), 1.0);
}
END_TEST

Suite *make_suite_pi(void)
{
	Suite *s = suite_create("pi");
	TCase *tc = tcase_create("pi");

	tcase_add_test(tc, test_pi_defaults);
	tcase_add_test(tc, test_pi_hand_steps);
	tcase_add_test(tc, test_pi_limits_and_bad);
	tcase_add_test(tc, test_pi_c_target);
	tcase_add_test(tc, test_pi_tracks_step);
	tcase_add_test(tc, test_pi_no_windup);
	tcase_add_test(tc, test_pi_learned_capacity);
	tcase_add_test(tc, test_pi_unclamped_readings);
	tcase_add_test(tc, test_pi_tq_within_expiry);
	suite_add_tcase(s, tc);
	return s;
}
