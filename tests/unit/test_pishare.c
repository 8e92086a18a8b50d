/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/pishare.c: pi's arrival share in front of its paced
 * queue by hand-computed steps, its bounds and refused inputs, and the
 * closed loop through the controller and the plan on a fluid proxy whose
 * refusals at arrival are cheaper than at the queue's output: the queue
 * waits T_q, the CPU holds C_T, and pi admits what eq. 1 allows.
 */
#include <math.h>
#include <string.h>

#include "ovc/controller.h"
#include "ovc/pishare.h"
#include "ovc/plan.h"
#include "ovc/types.h"
#include "suites.h"

START_TEST(test_pishare_margin)
{
	ck_assert_double_eq_tol(ovc_pishare_margin(0.05, 0.1), 1.5, 1e-12);
	ck_assert_double_eq_tol(ovc_pishare_margin(0.1, 0.1), 2.0, 1e-12);
	ck_assert(isinf(ovc_pishare_margin(0.05, 0.0)));
	ck_assert(isnan(ovc_pishare_margin(0.0, 0.1)));
	ck_assert(isnan(ovc_pishare_margin(0.05, -1.0)));
	ck_assert(isnan(ovc_pishare_margin(NAN, 0.1)));
}
END_TEST

START_TEST(test_pishare_hand_steps)
{
	struct ovc_pishare s;

	ovc_pishare_init(&s);
	ck_assert(s.f == 1.0);
	/* seeded: L~ = 80 / 0.01 = 8000/s, A~ = 4 / 0.01 = 400/s;
	 * f = 1.5 * 400 / 8000 = 0.075 */
	ck_assert_int_eq(ovc_pishare_step(&s, 0.01, 80, 4, 0.05, 0.1), OVC_OK);
	ck_assert_double_eq_tol(s.f, 0.075, 1e-12);
	/* A = 1500/s: A~ = 400 + 0.01 / 0.11 (1500 - 400) = 500;
	 * f = 1.5 * 500 / 8000 */
	ck_assert_int_eq(ovc_pishare_step(&s, 0.01, 80, 15, 0.05, 0.1), OVC_OK);
	ck_assert_double_eq_tol(s.adm.v, 500.0, 1e-9);
	ck_assert_double_eq_tol(s.f, 0.09375, 1e-12);
}
END_TEST

START_TEST(test_pishare_bounds)
{
	struct ovc_pishare s, before;

	/* never above 1: 1.5 * 300 > 400 */
	ovc_pishare_init(&s);
	ovc_pishare_step(&s, 0.01, 4, 3, 0.05, 0.1);
	ck_assert(s.f == 1.0);
	/* the floor: one INVITE per T_q (20/s) of 8000/s */
	ovc_pishare_init(&s);
	ovc_pishare_step(&s, 0.01, 80, 0, 0.05, 0.1);
	ck_assert_double_eq_tol(s.f, 20.0 / 8000.0, 1e-12);
	/* tau 0: no margin derivable, nothing refused at arrival */
	ovc_pishare_init(&s);
	ovc_pishare_step(&s, 0.01, 80, 0, 0.05, 0.0);
	ck_assert(s.f == 1.0);
	/* no arrivals */
	ovc_pishare_init(&s);
	ovc_pishare_step(&s, 0.01, 0, 0, 0.05, 0.1);
	ck_assert(s.f == 1.0);
	/* refused inputs change nothing */
	ovc_pishare_init(&s);
	ovc_pishare_step(&s, 0.01, 80, 4, 0.05, 0.1);
	before = s;
	ck_assert_int_eq(ovc_pishare_step(&s, 0.0, 80, 4, 0.05, 0.1), OVC_EINVAL);
	ck_assert_int_eq(ovc_pishare_step(&s, NAN, 80, 4, 0.05, 0.1), OVC_EINVAL);
	ck_assert_int_eq(ovc_pishare_step(&s, 0.01, -1, 4, 0.05, 0.1), OVC_EINVAL);
	ck_assert_int_eq(
			ovc_pishare_step(&s, 0.01, 80, INFINITY, 0.05, 0.1), OVC_EINVAL);
	ck_assert_int_eq(ovc_pishare_step(&s, 0.01, 80, 4, 0.0, 0.1), OVC_EINVAL);
	ck_assert_int_eq(ovc_pishare_step(&s, 0.01, 80, 4, 0.05, -1), OVC_EINVAL);
	ck_assert(memcmp(&s, &before, sizeof(s)) == 0);
}
END_TEST

/* A fluid proxy of capacity RHO (INVITEs/s at full CPU) whose refusal
 * costs 1/B_ARR of a forwarded INVITE at arrival and 1/B_DEQ at the
 * queue's output (bench/RESULTS.md: about 23 and 11). */
#define RHO 400.0
#define B_ARR 23.0
#define B_DEQ 11.0

struct fluid
{
	double q;	/* queue, INVITEs */
	double in;	/* entered the queue in the last period */
	double out; /* left it */
	double adm; /* admitted at its output */
	double cpu; /* occupancy of the last period, eq. 1 */
};

/* One period dt at r RHO offered INVITEs/s with the plan pl and the
 * controller's output o in force. */
static void fluid_step(struct fluid *x, const struct ovc_plan *pl,
		const struct ovc_output *o, double r, double dt)
{
	double l = r * RHO * dt, c;

	x->in = pl->f_arrival * l;
	x->out = fmin(x->q + x->in, pl->drain * dt);
	x->adm = (1.0 - o->alpha) * x->out;
	c = (x->adm + (x->out - x->adm) / B_DEQ + (l - x->in) / B_ARR) / (RHO * dt);
	if(c > 1.0) {
		/* the CPU cannot drain faster: what the queue gives up waits */
		double busy = (l - x->in) / B_ARR / (RHO * dt);
		double k = busy >= 1.0 ? 0.0 : (1.0 - busy) / (c - busy);

		x->out *= k;
		x->adm *= k;
		c = 1.0;
	}
	x->q += x->in - x->out;
	x->cpu = c;
}

/* At r = 8 pi admits what eq. 1 leaves for forwarding, A (1 + (k - 1) /
 * B_DEQ - k / B_ARR) + r / B_ARR = C_T: 0.563 RHO at k = 1.5, against
 * 0.19 RHO when every refusal is at the output (A (1 - 1/B_DEQ) + r /
 * B_DEQ = C_T); the queue waits T_q, the CPU holds C_T, and at the queue's
 * output pi refuses 1 - 1/k of what enters. */
START_TEST(test_pishare_closed_loop)
{
	struct ovc_params p;
	struct ovc_ctl c;
	struct ovc_measure m;
	struct ovc_output o;
	struct ovc_plan pl;
	struct fluid x = {0};
	double r = 8.0, dt = 0.01, k, want, adm = 0, out = 0, q = 0, cpu = 0;
	int t, n = 0;

	ovc_params_defaults(&p);
	p.pi.rho_m = RHO;
	k = ovc_pishare_margin(p.pi.tq, p.pi.tau);
	ck_assert_int_eq(ovc_ctl_init(&c, OVC_ALG_PI, &p), OVC_OK);
	ovc_ctl_last(&c, &o);
	x.cpu = 1.0;
	for(t = 1; t <= 4000; t++) { /* 40 s */
		ovc_plan_make(ovc_ctl_traits(&c), o.f, o.f_arrival,
				ovc_ctl_drain_rate(&c, &o), 1, 1.0, &pl);
		if(pl.drain < 0)
			pl.drain = 1e9;
		fluid_step(&x, &pl, &o, r, dt);
		memset(&m, 0, sizeof(m));
		m.dt_s = dt;
		m.cpu = x.cpu;
		m.queue_len = x.q;
		m.queue_cap = 1000;
		m.queue_in = x.in;
		m.offered[OVC_CLASS_INVITE] = r * RHO * dt;
		m.admitted[OVC_CLASS_INVITE] = x.adm;
		ck_assert_int_eq(
				ovc_ctl_step(&c, &m, t * 10 * OVC_NS_PER_MS, &o), OVC_OK);
		if(t > 3000) { /* the last 10 s */
			adm += x.adm;
			out += x.out;
			q += x.q;
			cpu += x.cpu;
			n++;
		}
	}
	want = (p.pi.c_target - r / B_ARR) / (1.0 + (k - 1.0) / B_DEQ - k / B_ARR);
	ck_assert_double_eq_tol(adm / (n * dt) / RHO, want, 0.02);
	ck_assert_double_eq_tol(cpu / n, p.pi.c_target, 0.01);
	/* Little: the mean wait is q over the drain */
	ck_assert_double_eq_tol(q / n / (out / (n * dt)), p.pi.tq, 0.005);
	ck_assert_double_eq_tol(adm / out, 1.0 / k, 0.03);
	ck_assert_int_eq(ovc_ctl_hides_overload(&c, &o), 1);
}
END_TEST

Suite *make_suite_pishare(void)
{
	Suite *s = suite_create("pishare");
	TCase *tc = tcase_create("pishare");

	tcase_add_test(tc, test_pishare_margin);
	tcase_add_test(tc, test_pishare_hand_steps);
	tcase_add_test(tc, test_pishare_bounds);
	tcase_add_test(tc, test_pishare_closed_loop);
	suite_add_tcase(s, tc);
	return s;
}
