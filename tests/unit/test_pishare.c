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
#include "ovc/pi.h"
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
	ck_assert_int_eq(
			ovc_pishare_step(&s, 0.01, 80, 4, NULL, 0.05, 0.1), OVC_OK);
	ck_assert_double_eq_tol(s.f, 0.075, 1e-12);
	/* A = 1500/s: A~ = 400 + 0.01 / 0.11 (1500 - 400) = 500;
	 * f = 1.5 * 500 / 8000 */
	ck_assert_int_eq(
			ovc_pishare_step(&s, 0.01, 80, 15, NULL, 0.05, 0.1), OVC_OK);
	ck_assert_double_eq_tol(s.adm.v, 500.0, 1e-9);
	ck_assert_double_eq_tol(s.f, 0.09375, 1e-12);
}
END_TEST

START_TEST(test_pishare_bounds)
{
	struct ovc_pishare s, before;

	/* never above 1: 1.5 * 300 > 400 */
	ovc_pishare_init(&s);
	ovc_pishare_step(&s, 0.01, 4, 3, NULL, 0.05, 0.1);
	ck_assert(s.f == 1.0);
	/* the floor: one INVITE per T_q (20/s) of 8000/s */
	ovc_pishare_init(&s);
	ovc_pishare_step(&s, 0.01, 80, 0, NULL, 0.05, 0.1);
	ck_assert_double_eq_tol(s.f, 20.0 / 8000.0, 1e-12);
	/* tau 0: no margin derivable, nothing refused at arrival */
	ovc_pishare_init(&s);
	ovc_pishare_step(&s, 0.01, 80, 0, NULL, 0.05, 0.0);
	ck_assert(s.f == 1.0);
	/* no arrivals */
	ovc_pishare_init(&s);
	ovc_pishare_step(&s, 0.01, 0, 0, NULL, 0.05, 0.1);
	ck_assert(s.f == 1.0);
	/* refused inputs change nothing */
	ovc_pishare_init(&s);
	ovc_pishare_step(&s, 0.01, 80, 4, NULL, 0.05, 0.1);
	before = s;
	ck_assert_int_eq(
			ovc_pishare_step(&s, 0.0, 80, 4, NULL, 0.05, 0.1), OVC_EINVAL);
	ck_assert_int_eq(
			ovc_pishare_step(&s, NAN, 80, 4, NULL, 0.05, 0.1), OVC_EINVAL);
	ck_assert_int_eq(
			ovc_pishare_step(&s, 0.01, -1, 4, NULL, 0.05, 0.1), OVC_EINVAL);
	ck_assert_int_eq(ovc_pishare_step(&s, 0.01, 80, INFINITY, NULL, 0.05, 0.1),
			OVC_EINVAL);
	ck_assert_int_eq(
			ovc_pishare_step(&s, 0.01, 80, 4, NULL, 0.0, 0.1), OVC_EINVAL);
	ck_assert_int_eq(
			ovc_pishare_step(&s, 0.01, 80, 4, NULL, 0.05, -1), OVC_EINVAL);
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

/* Means over the last 10 s of a 40 s fluid run. */
struct fluid_run
{
	double adm;	 /* admitted at the output, RHO */
	double cpu;	 /* occupancy */
	double wait; /* Little: queue over drain, s */
	double kept; /* admitted over drained */
	int hides;	 /* ovc_ctl_hides_overload() at the end */
};

/* pi on the fluid proxy at r RHO offered, under a CPU quota (stall) or
 * not, the INVITEs that left the queue counted (count_out) or not. */
static void fluid_run(double r, int stall, int count_out, struct fluid_run *res)
{
	struct ovc_params p;
	struct ovc_ctl c;
	struct ovc_measure m;
	struct ovc_output o;
	struct ovc_plan pl;
	struct fluid x = {0};
	double dt = 0.01, adm = 0, out = 0, q = 0, cpu = 0;
	int t, n = 0;

	ovc_params_defaults(&p);
	p.pi.rho_m = RHO;
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
		m.queue_out = count_out ? x.out : -1.0;
		m.stall_ms = stall ? 80.0 : 0.0;
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
	res->adm = adm / (n * dt) / RHO;
	res->cpu = cpu / n;
	res->wait = q / n / (out / (n * dt));
	res->kept = adm / out;
	res->hides = ovc_ctl_hides_overload(&c, &o);
}

/* At r = 8 pi admits what eq. 1 leaves for forwarding, A (1 + (k - 1) /
 * B_DEQ - k / B_ARR) + r / B_ARR = C_T: 0.563 RHO at k = 1.5, against
 * 0.19 RHO when every refusal is at the output (A (1 - 1/B_DEQ) + r /
 * B_DEQ = C_T); the queue waits T_q, the CPU holds C_T, and at the queue's
 * output pi refuses 1 - 1/k of what enters. The workers keep up with the
 * drain: counting what leaves the queue changes nothing. */
START_TEST(test_pishare_closed_loop)
{
	struct ovc_pi_params pp;
	struct fluid_run res;
	double r = 8.0, k, want;
	int count_out;

	ovc_pi_defaults(&pp);
	k = ovc_pishare_margin(pp.tq, pp.tau);
	want = (ovc_pi_c_target(&pp, 0) - r / B_ARR)
		   / (1.0 + (k - 1.0) / B_DEQ - k / B_ARR);
	for(count_out = 0; count_out <= 1; count_out++) {
		fluid_run(r, 0, count_out, &res);
		ck_assert_double_eq_tol(res.adm, want, 0.02);
		ck_assert_double_eq_tol(res.cpu, ovc_pi_c_target(&pp, 0), 0.01);
		/* Little: the mean wait is q over the drain */
		ck_assert_double_eq_tol(res.wait, pp.tq, 0.005);
		ck_assert_double_eq_tol(res.kept, 1.0 / k, 0.03);
		ck_assert_int_eq(res.hides, 1);
	}
}
END_TEST

/* Under a CPU quota (C_T 1) the CPU loop never refuses, and the workers,
 * short of CPU, fall behind the paced drain. Counting what leaves the
 * queue, the share's margin follows the queue: the queue waits T_q, the
 * CPU is used whole, and pi admits what eq. 1 leaves with every refusal
 * at arrival, A (1 - 1/B_ARR) + r / B_ARR = 1 (0.682 RHO at r = 8, 0.951
 * at r = 2). Not counting it (the share before), the margin k fills the
 * queue without end: the wait grows far past T_q. */
START_TEST(test_pishare_quota_closed_loop)
{
	static const double rs[] = {2.0, 8.0};
	struct ovc_pi_params pp;
	struct fluid_run res;
	double want;
	unsigned i;

	ovc_pi_defaults(&pp);
	for(i = 0; i < sizeof(rs) / sizeof(rs[0]); i++) {
		want = (1.0 - rs[i] / B_ARR) / (1.0 - 1.0 / B_ARR);
		fluid_run(rs[i], 1, 1, &res);
		ck_assert_msg(res.adm > 0.95 * want && res.adm <= want + 1e-9,
				"r %g: admitted %g of %g", rs[i], res.adm, want);
		ck_assert_double_eq_tol(res.cpu, 1.0, 0.01);
		ck_assert_msg(res.wait > 0.5 * pp.tq && res.wait < 1.5 * pp.tq,
				"r %g: wait %g s", rs[i], res.wait);
		ck_assert_int_eq(res.hides, 1);
		fluid_run(rs[i], 1, 0, &res);
		ck_assert_msg(res.wait > 10 * pp.tq, "r %g: wait %g s without", rs[i],
				res.wait);
	}
}
END_TEST

/* The margin behind the drain: k empty, 1 at the target, less above it,
 * never below 0; k when keeping up or without a target. */
START_TEST(test_pishare_fill_margin)
{
	ck_assert_double_eq_tol(
			ovc_pishare_fill_margin(1.5, 0.05, 0.1, 40, 20, 0), 1.5, 1e-12);
	ck_assert_double_eq_tol(
			ovc_pishare_fill_margin(1.5, 0.05, 0.1, 0, 20, 1), 1.5, 1e-12);
	ck_assert_double_eq_tol(
			ovc_pishare_fill_margin(1.5, 0.05, 0.1, 10, 20, 1), 1.25, 1e-12);
	ck_assert_double_eq_tol(
			ovc_pishare_fill_margin(1.5, 0.05, 0.1, 20, 20, 1), 1.0, 1e-12);
	ck_assert_double_eq_tol(
			ovc_pishare_fill_margin(1.5, 0.05, 0.1, 40, 20, 1), 0.5, 1e-12);
	ck_assert(ovc_pishare_fill_margin(1.5, 0.05, 0.1, 80, 20, 1) == 0.0);
	ck_assert(ovc_pishare_fill_margin(1.5, 0.05, 0.1, 40, 0, 1) == 1.5);
	ck_assert(ovc_pishare_fill_margin(1.5, 0.05, 0.0, 40, 20, 1) == 1.5);
}
END_TEST

/* Behind or not, by hand: seeded filters, L~ 8000/s, A~ 400/s. */
START_TEST(test_pishare_behind_steps)
{
	struct ovc_pishare s, before;
	struct ovc_pishare_queue qs = {40, 20, 10, 4};

	/* P~ 1000/s > 1.5 D~ (600/s): behind, q at twice q_T: m = 0.5,
	 * f = 0.5 * 400 / 8000 */
	ovc_pishare_init(&s);
	ck_assert_int_eq(ovc_pishare_step(&s, 0.01, 80, 4, &qs, 0.05, 0.1), OVC_OK);
	ck_assert_int_eq(s.behind, 1);
	ck_assert_double_eq_tol(s.margin, 0.5, 1e-12);
	ck_assert_double_eq_tol(s.f, 0.025, 1e-12);
	/* P~ 600/s = 1.5 D~: keeping up, the full margin */
	ovc_pishare_init(&s);
	qs.paced = 6;
	ck_assert_int_eq(ovc_pishare_step(&s, 0.01, 80, 4, &qs, 0.05, 0.1), OVC_OK);
	ck_assert_int_eq(s.behind, 0);
	ck_assert_double_eq_tol(s.f, 0.075, 1e-12);
	/* far above the target: m 0, the floor of one INVITE per T_q */
	ovc_pishare_init(&s);
	qs.paced = 10;
	qs.q = 100;
	ovc_pishare_step(&s, 0.01, 80, 4, &qs, 0.05, 0.1);
	ck_assert_double_eq_tol(s.f, 20.0 / 8000.0, 1e-12);
	/* not paced (released) or not counted: the full margin, the drain's
	 * filters untouched */
	ovc_pishare_init(&s);
	qs.paced = -1;
	ovc_pishare_step(&s, 0.01, 80, 4, &qs, 0.05, 0.1);
	ck_assert_int_eq(s.behind, 0);
	ck_assert_int_eq(s.paced.primed, 0);
	ck_assert_double_eq_tol(s.f, 0.075, 1e-12);
	qs.paced = 10;
	qs.drained = -1;
	ovc_pishare_step(&s, 0.01, 80, 4, &qs, 0.05, 0.1);
	ck_assert_int_eq(s.behind, 0);
	/* refused queue figures change nothing */
	before = s;
	qs.drained = 4;
	qs.q = NAN;
	ck_assert_int_eq(
			ovc_pishare_step(&s, 0.01, 80, 4, &qs, 0.05, 0.1), OVC_EINVAL);
	qs.q = -1;
	ck_assert_int_eq(
			ovc_pishare_step(&s, 0.01, 80, 4, &qs, 0.05, 0.1), OVC_EINVAL);
	qs.q = 40;
	qs.paced = INFINITY;
	ck_assert_int_eq(
			ovc_pishare_step(&s, 0.01, 80, 4, &qs, 0.05, 0.1), OVC_EINVAL);
	ck_assert(memcmp(&s, &before, sizeof(s)) == 0);
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
	tcase_add_test(tc, test_pishare_quota_closed_loop);
	tcase_add_test(tc, test_pishare_fill_margin);
	tcase_add_test(tc, test_pishare_behind_steps);
	suite_add_tcase(s, tc);
	return s;
}
