/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/rsoca.c: 004 eq. 1-9: ramps, smoothing, dead zone,
 * severe overload, DoS drop (lets the engineered load through, capped by
 * p_pass^(1/n)), burst limits and memory thresholds.
 */
#include <math.h>
#include <string.h>

#include "ovc/rsoca.h"
#include "suites.h"

START_TEST(test_rsoca_ramp)
{
	int i, bad = 0;
	double x;

	/* 0 at and below R_min, 1 at and above R_max, linear between */
	for(i = 0; i <= 1000; i++) {
		x = i * 0.001;
		double p = ovc_rsoca_ramp(x, 0.2, 0.4);
		if(x <= 0.2 && p != 0.0)
			bad++;
		if(x >= 0.4 && p != 1.0)
			bad++;
		if(x > 0.2 && x < 0.4 && fabs(p - (x - 0.2) / 0.2) > 1e-12)
			bad++;
	}
	ck_assert_int_eq(bad, 0);
	ck_assert_double_eq_tol(ovc_rsoca_ramp(0.3, 0.2, 0.4), 0.5, 1e-12);
	ck_assert(ovc_rsoca_ramp(NAN, 0.2, 0.4) == 0.0);
}
END_TEST

START_TEST(test_rsoca_smoothing_vectors)
{
	struct ovc_rsoca_params p;
	struct ovc_rsoca s;

	ovc_rsoca_defaults(&p);
	ck_assert(p.cmin == 0.2 && p.cmax == 0.4 && p.sigma == 0.6);
	ck_assert(p.dead == 0.05 && p.ben == 1.7 && p.ppass == 0.1);
	ck_assert(p.ei == 1000.0 && p.nretx == 10);
	ck_assert_int_eq(ovc_rsoca_init(&s, &p), OVC_OK);
	/* C = 0.3 steady: P_C = 0.5; P^ = 0.3, 0.42, 0.468 */
	ck_assert_int_eq(ovc_rsoca_step(&s, 0.3, -1.0, 1.0, NULL, 0), OVC_OK);
	ck_assert_double_eq_tol(s.p_cpu, 0.5, 1e-12);
	ck_assert_double_eq_tol(s.p_hat, 0.3, 1e-12);
	ck_assert_double_eq_tol(s.p_reject, 0.3, 1e-12);
	ovc_rsoca_step(&s, 0.3, -1.0, 1.0, NULL, 0);
	ck_assert_double_eq_tol(s.p_hat, 0.42, 1e-12);
	ovc_rsoca_step(&s, 0.3, -1.0, 1.0, NULL, 0);
	ck_assert_double_eq_tol(s.p_hat, 0.468, 1e-12);
	/* C drops to 0.2: C^ = 0.4*0.3 + 0.6*0.2 = 0.24, P_C = 0.2,
	 * P^ = 0.4*0.468 + 0.6*0.2 = 0.3072 */
	ovc_rsoca_step(&s, 0.2, -1.0, 1.0, NULL, 0);
	ck_assert_double_eq_tol(s.c_hat.v, 0.24, 1e-12);
	ck_assert_double_eq_tol(s.p_cpu, 0.2, 1e-12);
	ck_assert_double_eq_tol(s.p_hat, 0.3072, 1e-12);
	ck_assert_int_eq(s.severe, 0);
	/* C is averaged as measured, bounded by OVC_CPU_READING_MAX */
	{
		struct ovc_rsoca t;

		ck_assert_int_eq(ovc_rsoca_init(&t, &p), OVC_OK);
		ovc_rsoca_step(&t, 9.0, -1.0, 1.0, NULL, 0);
		ck_assert_double_eq_tol(t.c_hat.v, OVC_CPU_READING_MAX, 1e-12);
		ck_assert_double_eq_tol(t.p_cpu, 1.0, 1e-12);
	}
}
END_TEST

START_TEST(test_rsoca_dead_zone_and_severe)
{
	struct ovc_rsoca_params p;
	struct ovc_rsoca s;
	int t;

	ovc_rsoca_defaults(&p);
	ovc_rsoca_init(&s, &p);
	/* C = 0.208: P_C = 0.04, P^ rises to 0.04 and never above: no
	 * rejection inside the dead zone */
	for(t = 0; t < 50; t++) {
		ovc_rsoca_step(&s, 0.208, -1.0, 1.0, NULL, 0);
		ck_assert(s.p_reject == 0.0);
	}
	ck_assert_double_eq_tol(s.p_hat, 0.04, 1e-6);
	/* C = 0.212: P_C = 0.06: rejection starts once P^ passes 0.05 */
	for(t = 0; t < 50; t++)
		ovc_rsoca_step(&s, 0.212, -1.0, 1.0, NULL, 0);
	ck_assert_double_eq_tol(s.p_reject, 0.06, 1e-6);
	/* below C_min P stays 0 */
	ovc_rsoca_init(&s, &p);
	for(t = 0; t < 20; t++) {
		ovc_rsoca_step(&s, 0.19, 0.5, 1.0, NULL, 0);
		ck_assert(s.p_hat == 0.0 && s.p_reject == 0.0);
	}
	/* C at C_max: severe, P^ = 1 at once */
	ovc_rsoca_init(&s, &p);
	ovc_rsoca_step(&s, 0.4, -1.0, 1.0, NULL, 0);
	ck_assert_int_eq(s.severe, 1);
	ck_assert(s.p_hat == 1.0 && s.p_reject == 1.0);
	/* load gone: C^ 0.16 -> P_C 0: P^ 0.4, 0.16, 0.064, then 0.0256 is
	 * inside the dead zone */
	ovc_rsoca_step(&s, 0.0, -1.0, 1.0, NULL, 0);
	ck_assert_double_eq_tol(s.p_reject, 0.4, 1e-12);
	ovc_rsoca_step(&s, 0.0, -1.0, 1.0, NULL, 0);
	ck_assert_double_eq_tol(s.p_reject, 0.16, 1e-12);
	ovc_rsoca_step(&s, 0.0, -1.0, 1.0, NULL, 0);
	ck_assert_double_eq_tol(s.p_reject, 0.064, 1e-12);
	ovc_rsoca_step(&s, 0.0, -1.0, 1.0, NULL, 0);
	ck_assert(s.p_reject == 0.0);
	/* memory alone: ramp 0.8 .. 0.95, severe at M_max */
	ovc_rsoca_init(&s, &p);
	ovc_rsoca_step(&s, -1.0, 0.875, 1.0, NULL, 0);
	ck_assert_double_eq_tol(s.p_mem, 0.5, 1e-12);
	ck_assert_double_eq_tol(s.p_hat, 0.3, 1e-12);
	ovc_rsoca_step(&s, 0.0, 0.95, 1.0, NULL, 0);
	ck_assert(s.severe && s.p_reject == 1.0);
	/* the max over resources */
	ovc_rsoca_init(&s, &p);
	ovc_rsoca_step(&s, 0.25, 0.9, 1.0, NULL, 0); /* P_C .25, P_M 2/3 */
	ck_assert_double_eq_tol(s.p_hat, 0.6 * (0.1 / 0.15), 1e-12);
}
END_TEST

START_TEST(test_rsoca_dos)
{
	struct ovc_rsoca_params p;
	double cap = 0.0, d, drop, bad = 0;
	int i;

	ovc_rsoca_defaults(&p);
	/* 004 §IV-B: p_pass 10 %, n 10: at most 79.4 % dropped */
	drop = ovc_rsoca_dos_drop(&p, OVC_DLG_BYE, 12000.0, 0.0, 1.0);
	cap = drop;
	ck_assert_double_eq_tol(cap, pow(0.1, 0.1), 1e-9);
	ck_assert(cap > 0.794 && cap < 0.795);
	/* at or below D_en = max(E_I, I) B_en = 1700: nothing dropped */
	ck_assert(ovc_rsoca_dos_drop(&p, OVC_DLG_BYE, 1700.0, 0.0, 1.0) == 0.0);
	ck_assert(ovc_rsoca_dos_drop(&p, OVC_DLG_BYE, 100.0, 0.0, 1.0) == 0.0);
	ck_assert(ovc_rsoca_dos_drop(&p, OVC_DLG_BYE, 0.0, 0.0, 1.0) == 0.0);
	/* below the cap exactly the engineered 1700 pass */
	for(i = 1701; i <= 8000; i += 7) {
		d = (double)i;
		drop = ovc_rsoca_dos_drop(&p, OVC_DLG_BYE, d, 0.0, 1.0);
		if(fabs(d * (1.0 - drop) - 1700.0) > 1e-6)
			bad++;
	}
	ck_assert(bad == 0);
	/* beyond it, the cap lets more than E_D through */
	d = 20000.0;
	drop = ovc_rsoca_dos_drop(&p, OVC_DLG_UPDATE, d, 0.0, 1.0);
	ck_assert(drop == cap);
	ck_assert(d * (1.0 - drop) > 1700.0);
	/* I above E_I raises D_en; re-INVITE multiplies by N_r; intervals scale */
	ck_assert_double_eq_tol(
			ovc_rsoca_dos_drop(&p, OVC_DLG_BYE, 6800.0, 2000.0, 1.0), 0.5,
			1e-12);
	p.nr = 2.0;
	ck_assert_double_eq_tol(
			ovc_rsoca_dos_drop(&p, OVC_DLG_REINVITE, 6800.0, 0.0, 1.0), 0.5,
			1e-12);
	ck_assert_double_eq_tol(
			ovc_rsoca_dos_drop(&p, OVC_DLG_BYE, 1700.0, 0.0, 0.5), 0.5, 1e-12);
	ck_assert(ovc_rsoca_dos_drop(&p, OVC_DLG_COUNT, 1e6, 0.0, 1.0) == 0.0);
	ck_assert(ovc_rsoca_dos_drop(&p, OVC_DLG_BYE, NAN, 0.0, 1.0) == 0.0);
	/* p_pass 1: no cap beyond 1; p_pass 0: never drop */
	p.ppass = 0.0;
	ck_assert(ovc_rsoca_dos_drop(&p, OVC_DLG_BYE, 1e6, 0.0, 1.0) == 0.0);
}
END_TEST

START_TEST(test_rsoca_step_dos_and_bursts)
{
	struct ovc_rsoca_params p;
	struct ovc_rsoca s, before;
	double dlg[OVC_DLG_COUNT] = {3400.0, 0.0, 100.0, 0.0, 0.0, 2550.0};

	ovc_rsoca_defaults(&p);
	ovc_rsoca_init(&s, &p);
	ck_assert_int_eq(ovc_rsoca_step(&s, 0.1, -1.0, 1.0, dlg, 500.0), OVC_OK);
	ck_assert_double_eq_tol(s.p_drop[OVC_DLG_BYE], 0.5, 1e-12);
	ck_assert(s.p_drop[OVC_DLG_UPDATE] == 0.0);
	ck_assert_double_eq_tol(s.p_drop[OVC_DLG_OTHER], 850.0 / 2550.0, 1e-12);
	ck_assert(s.p_reject == 0.0); /* DoS drop is independent of CPU */
	memcpy(&before, &s, sizeof(before)); /* padding too */
	dlg[2] = -1.0;
	ck_assert_int_eq(
			ovc_rsoca_step(&s, 0.1, -1.0, 1.0, dlg, 500.0), OVC_EINVAL);
	dlg[2] = NAN;
	ck_assert_int_eq(
			ovc_rsoca_step(&s, 0.1, -1.0, 1.0, dlg, 500.0), OVC_EINVAL);
	ck_assert_int_eq(
			ovc_rsoca_step(&s, NAN, -1.0, 1.0, NULL, 0.0), OVC_EINVAL);
	ck_assert_int_eq(
			ovc_rsoca_step(&s, 0.1, INFINITY, 1.0, NULL, 0.0), OVC_EINVAL);
	ck_assert_int_eq(
			ovc_rsoca_step(&s, 0.1, -1.0, 0.0, NULL, 0.0), OVC_EINVAL);
	ck_assert_int_eq(
			ovc_rsoca_step(&s, 0.1, -1.0, 1.0, NULL, -1.0), OVC_EINVAL);
	ck_assert(memcmp(&s, &before, sizeof(s)) == 0);
	/* burst limits: B_en E per interval; none where E is 0 */
	ck_assert(ovc_rsoca_burst_limit(&p, OVC_CLASS_INVITE, 1.0) == 1700.0);
	ck_assert(ovc_rsoca_burst_limit(&p, OVC_CLASS_INVITE, 0.1) == 170.0);
	ck_assert(ovc_rsoca_burst_limit(&p, OVC_CLASS_REGISTER, 1.0) == -1.0);
	p.er = 100.0;
	ck_assert(ovc_rsoca_burst_limit(&p, OVC_CLASS_REGISTER, 1.0) == 170.0);
	ck_assert(ovc_rsoca_burst_limit(&p, OVC_CLASS_COUNT, 1.0) == -1.0);
}
END_TEST

START_TEST(test_rsoca_mem_and_params)
{
	struct ovc_rsoca_mem_model m = {100.0, 200.0, 50.0, 10.0, 10.0, 0.5, 2.0,
			1000.0, 4.0};
	struct ovc_rsoca_params p, d;
	struct ovc_rsoca s, before;
	double lo = -1.0, hi = -1.0;

	/* S (E_I T_I + E_D T_O + E_O T_O + E_R T_R) = 1000 * 1205 */
	ck_assert_int_eq(ovc_rsoca_mem_thresholds(&m, &lo, &hi), OVC_OK);
	ck_assert_double_eq_tol(lo, 1205000.0, 1e-6);
	ck_assert_double_eq_tol(hi, 4820000.0, 1e-6);
	m.b = 1.0;
	lo = hi = -1.0;
	ck_assert_int_eq(ovc_rsoca_mem_thresholds(&m, &lo, &hi), OVC_ERANGE);
	m.b = 4.0;
	m.ti = NAN;
	ck_assert_int_eq(ovc_rsoca_mem_thresholds(&m, &lo, &hi), OVC_ERANGE);
	ck_assert(lo == -1.0 && hi == -1.0);
	ovc_rsoca_defaults(&d);
	ovc_rsoca_init(&s, &d);
	memcpy(&before, &s, sizeof(before)); /* padding too */
#define BAD(field, val)                                            \
	do {                                                           \
		p = d;                                                     \
		p.field = val;                                             \
		ck_assert_int_eq(ovc_rsoca_init(&s, &p), OVC_ERANGE);      \
		ck_assert(memcmp(&s, &before, sizeof(s)) == 0);            \
	} while(0)
	BAD(cmin, 0.4);
	BAD(mmax, 0.5);
	BAD(sigma, 0.0);
	BAD(ben, 0.5);
	BAD(ppass, 1.5);
	BAD(nretx, 0);
	BAD(ei, NAN);
	BAD(epoch_ms, 0);
#undef BAD
}
END_TEST

Suite *make_suite_rsoca(void)
{
	Suite *s = suite_create("rsoca");
	TCase *tc = tcase_create("rsoca");

	tcase_add_test(tc, test_rsoca_ramp);
	tcase_add_test(tc, test_rsoca_smoothing_vectors);
	tcase_add_test(tc, test_rsoca_dead_zone_and_severe);
	tcase_add_test(tc, test_rsoca_dos);
	tcase_add_test(tc, test_rsoca_step_dos_and_bursts);
	tcase_add_test(tc, test_rsoca_mem_and_params);
	suite_add_tcase(s, tc);
	return s;
}
