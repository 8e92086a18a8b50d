/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim tests - regression sweeps asserting the papers' qualitative
 * facts, so that a controller regression in libovc fails CI:
 * - no control collapses beyond capacity and does not recover when the
 *   load falls back below it (000 Fig. 7);
 * - at r = 3 no control keeps less than 0.3 rho_M, OCC well above it;
 * - PI keeps at least 0.8 g_opt(3) (003 Fig. 11), at 000's beta (36) and
 *   at a testbed-like beta of 4;
 * - BBC on the message buffer (000's setting) is near capacity at first and
 *   then drops suddenly, OCC stays flat to r = 1.5 and then degrades about
 *   linearly (000 Fig. 11); at beta 4 BBC on the in-core queue (Ohta in
 *   003) collapses just above r = 1 while PI stays near g_opt.
 */
#include <math.h>

#include "ovc/pi.h"

#include "sim.h"
#include "sweep.h"
#include "suites.h"

static void base(struct sim_cfg *c)
{
	sim_cfg_defaults(c);
	sim_cfg_paper(c);
	c->duration_s = 60;
	c->warmup_s = 20;
}

START_TEST(test_collapse_no_recovery)
{
	struct sim_cfg c;
	struct sim_result before, after;
	char err[200];

	base(&c);
	ck_assert_int_eq(sim_profile_parse(&c.prof, "steps:0=0.9,60=1.3,120=0.9",
							 err, sizeof(err)),
			0);
	ck_assert_int_eq(sim_run(&c, &before), 0);
	ck_assert_msg(before.g > 0.8, "goodput %g below capacity", before.g);
	c.duration_s = 180;
	c.warmup_s = 140;
	ck_assert_int_eq(sim_run(&c, &after), 0);
	ck_assert_msg(after.g < 0.3, "recovered: goodput %g at r %g", after.g,
			after.r);
	ck_assert(after.r > 0.8 && after.r < 1.0);
	ck_assert(after.cpu > 0.95);
}
END_TEST

START_TEST(test_r3_none_occ)
{
	struct sim_cfg c;
	double none, occ;

	base(&c);
	none = sim_sweep_point(&c, OVC_ALG_NONE, 3.0, NULL);
	occ = sim_sweep_point(&c, OVC_ALG_OCC, 3.0, NULL);
	ck_assert_msg(none < 0.3, "none at r=3: %g", none);
	ck_assert_msg(occ > 0.4, "occ at r=3: %g", occ);
}
END_TEST

/* Fails the test unless the simulator runs alg: a controller libovc
 * cannot initialise is a failure, never a skip. */
static void need(enum ovc_alg alg)
{
	struct sim_cfg c;
	struct sim_result res;

	sim_cfg_defaults(&c);
	sim_cfg_paper(&c);
	c.alg = alg;
	c.duration_s = 0;
	c.warmup_s = 0;
	ck_assert_msg(sim_run(&c, &res) == 0, "the simulator cannot run %s",
			ovc_alg_name(alg));
}

static void check_pi(double beta, double r)
{
	struct sim_cfg c;
	struct sim_result res;
	double g, bound;

	base(&c);
	c.beta = beta;
	g = sim_sweep_point(&c, OVC_ALG_PI, r, &res);
	bound = sim_g_opt(r, ovc_pi_c_target(&c.params.pi, 0), res.beta);
	ck_assert_msg(g >= 0.8 * bound, "pi at beta %g r=%g: %g < 0.8 * g_opt %g",
			beta, r, g, bound);
}

START_TEST(test_r3_pi)
{
	need(OVC_ALG_PI);
	check_pi(0, 3.0);
	check_pi(4, 3.0);
	check_pi(4, 1.5);
}
END_TEST

/* 003 Fig. 11-12 with alpha applied to the drained flow (003's
 * placement): CPU on C_T, setup delay on T_q, no retransmission, g_opt. */
START_TEST(test_003_pi_dequeue)
{
	struct sim_cfg c;
	struct sim_result res;
	double g;

	need(OVC_ALG_PI);
	base(&c);
	c.capacity = 193;
	c.beta = 4.679;
	c.reject_at_dequeue = 1;
	g = sim_sweep_point(&c, OVC_ALG_PI, 3.0, &res);
	ck_assert_msg(fabs(res.cpu - ovc_pi_c_target(&c.params.pi, 0)) < 0.02,
			"cpu %g", res.cpu);
	ck_assert_msg(res.setup_ms < 2 * 1000 * c.params.pi.tq, "setup %g ms",
			res.setup_ms);
	ck_assert_msg(res.rtx_ratio < 0.01, "rtx ratio %g", res.rtx_ratio);
	ck_assert_msg(
			g >= 0.9
							* sim_g_opt(3.0, ovc_pi_c_target(&c.params.pi, 0),
									res.beta),
			"g %g", g);
}
END_TEST

START_TEST(test_fig11_shapes)
{
	struct sim_cfg c;
	double b09, b15, n15, o15, o3;

	need(OVC_ALG_BBC);
	base(&c);
	c.incore = 0; /* 000: BBC watches the message buffer */
	b09 = sim_sweep_point(&c, OVC_ALG_BBC, 0.9, NULL);
	b15 = sim_sweep_point(&c, OVC_ALG_BBC, 1.5, NULL);
	n15 = sim_sweep_point(&c, OVC_ALG_NONE, 1.5, NULL);
	o15 = sim_sweep_point(&c, OVC_ALG_OCC, 1.5, NULL);
	o3 = sim_sweep_point(&c, OVC_ALG_OCC, 3.0, NULL);
	ck_assert_msg(b09 > 0.85, "bbc at 0.9: %g", b09);
	ck_assert_msg(b15 < 0.6 && b15 > n15 + 0.2, "bbc at 1.5: %g (none %g)",
			b15, n15);
	ck_assert_msg(o15 > 0.85, "occ at 1.5: %g", o15);
	ck_assert_msg(o3 < o15 - 0.2 && o3 > 0.3, "occ at 3: %g", o3);
}
END_TEST

START_TEST(test_003_ohta_vs_pi)
{
	struct sim_cfg c;
	double b;

	need(OVC_ALG_BBC);
	base(&c);
	c.beta = 4;
	b = sim_sweep_point(&c, OVC_ALG_BBC, 1.5, NULL);
	ck_assert_msg(b < 0.1, "bbc (in-core queue) at 1.5, beta 4: %g", b);
	ck_assert(!isnan(b));
}
END_TEST

Suite *make_suite_regress(void)
{
	Suite *s = suite_create("regress");
	TCase *tc = tcase_create("sweeps");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_collapse_no_recovery);
	tcase_add_test(tc, test_r3_none_occ);
	tcase_add_test(tc, test_r3_pi);
	tcase_add_test(tc, test_003_pi_dequeue);
	tcase_add_test(tc, test_fig11_shapes);
	tcase_add_test(tc, test_003_ohta_vs_pi);
	suite_add_tcase(s, tc);
	return s;
}
