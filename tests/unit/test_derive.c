/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/derive.c: the CFS stall, the derived receive-queue
 * settings (auto values and explicit ones kept), the receive buffer size
 * and the onset window.
 */
#include <math.h>

#include "ovc/derive.h"
#include "suites.h"

START_TEST(test_stall)
{
	/* 20 ms of every 100 ms: 80 ms without the CPU */
	ck_assert_double_eq_tol(ovc_derive_stall_ms(100, 0.2), 80, 1e-12);
	ck_assert_double_eq_tol(ovc_derive_stall_ms(100, 0.5), 50, 1e-12);
	/* no quota, a quota of one CPU or more, nonsense */
	ck_assert(ovc_derive_stall_ms(100, 0) == 0);
	ck_assert(ovc_derive_stall_ms(100, 1) == 0);
	ck_assert(ovc_derive_stall_ms(100, 1.5) == 0);
	ck_assert(ovc_derive_stall_ms(0, 0.2) == 0);
	ck_assert(ovc_derive_stall_ms(NAN, 0.2) == 0);
	ck_assert(ovc_derive_stall_ms(100, INFINITY) == 0);
}
END_TEST

START_TEST(test_rxq_auto)
{
	struct ovc_rxq_params p;
	struct ovc_rxq_eff e;

	ovc_rxq_defaults(&p);
	ck_assert(p.max_age_ms < 0 && p.guard_ms < 0 && p.onset_ms < 0);
	ck_assert_uint_eq(p.t1_ms, 500);
	/* no quota: T1/5, T1/10, T1/25 */
	ovc_derive_rxq(&p, 0, &e);
	ck_assert_uint_eq(e.max_age_ms, 100);
	ck_assert_double_eq_tol(e.guard_ms, 50, 1e-12);
	ck_assert_double_eq_tol(e.onset_ms, 20, 1e-12);
	ck_assert_double_eq_tol(e.enter_ms, 250, 1e-12);
	/* the test machine's quota (20 ms / 100 ms): stall 80 + T1/25 */
	ovc_derive_rxq(&p, 80, &e);
	ck_assert_uint_eq(e.max_age_ms, 100);
	/* a longer stall (10 ms of 250 ms): 240 + 20 */
	ovc_derive_rxq(&p, 240, &e);
	ck_assert_uint_eq(e.max_age_ms, 260);
	ck_assert_double_eq_tol(e.guard_ms, 50, 1e-12);
	/* another T1 */
	p.t1_ms = 1000;
	ovc_derive_rxq(&p, 0, &e);
	ck_assert_uint_eq(e.max_age_ms, 200);
	ck_assert_double_eq_tol(e.guard_ms, 100, 1e-12);
	ck_assert_double_eq_tol(e.onset_ms, 40, 1e-12);
	ck_assert_double_eq_tol(e.enter_ms, 500, 1e-12);
	/* a negative or NaN stall counts as none */
	ovc_derive_rxq(&p, NAN, &e);
	ck_assert_uint_eq(e.max_age_ms, 200);
}
END_TEST

START_TEST(test_rxq_explicit)
{
	struct ovc_rxq_params p;
	struct ovc_rxq_eff e;

	ovc_rxq_defaults(&p);
	p.max_age_ms = 0; /* off */
	p.guard_ms = 0;
	p.onset_ms = 0;
	ovc_derive_rxq(&p, 80, &e);
	ck_assert_uint_eq(e.max_age_ms, 0);
	ck_assert(e.guard_ms == 0 && e.onset_ms == 0);
	ck_assert(e.enter_ms == 0);
	p.max_age_ms = 250;
	p.guard_ms = 70;
	p.onset_ms = 5;
	ovc_derive_rxq(&p, 80, &e);
	ck_assert_uint_eq(e.max_age_ms, 250);
	ck_assert_double_eq_tol(e.guard_ms, 70, 1e-12);
	ck_assert_double_eq_tol(e.onset_ms, 5, 1e-12);
	ck_assert_double_eq_tol(e.enter_ms, 5, 1e-12);
}
END_TEST

START_TEST(test_rcvbuf)
{
	/* 80 + 100 ms at 10 000 datagrams/s */
	ck_assert_uint_eq(ovc_derive_rcvbuf_msgs(80, 100, 409), 1800);
	/* no quota: 100 ms */
	ck_assert_uint_eq(ovc_derive_rcvbuf_msgs(0, 100, 409), 1000);
	/* never below what the socket has */
	ck_assert_uint_eq(ovc_derive_rcvbuf_msgs(0, 100, 4000), 4000);
	ck_assert_uint_eq(ovc_derive_rcvbuf_msgs(NAN, 0, 7), 7);
}
END_TEST

/* The age limit under overload: the stall's fresh tail plus the running
 * part must hold the share of INVITEs the proxy can serve. */
START_TEST(test_age_loaded)
{
	/* 20 ms / 100 ms quota: stall 80, max_age 100, T1 500 */
	/* 16x: need 0.06 -> 80 - 94 + 20 < 50: the floor T1/10 */
	ck_assert_uint_eq(ovc_derive_age_loaded(100, 500, 80, 100, 0.06), 50);
	/* 2x: 80 - 50 + 20 = 50 */
	ck_assert_uint_eq(ovc_derive_age_loaded(100, 500, 80, 100, 0.5), 50);
	/* 1.25x: 80 - 20 + 20 = 80 */
	ck_assert_uint_eq(ovc_derive_age_loaded(100, 500, 80, 100, 0.8), 80);
	/* barely over: 80 - 1 + 20; with a longer stall capped by max_age */
	ck_assert_uint_eq(ovc_derive_age_loaded(100, 500, 80, 100, 0.99), 99);
	ck_assert_uint_eq(ovc_derive_age_loaded(100, 500, 90, 100, 0.95), 100);
	/* 10 ms / 100 ms: stall 90, max_age 110; need 0.7 -> 90 - 30 + 20 */
	ck_assert_uint_eq(ovc_derive_age_loaded(110, 500, 90, 100, 0.7), 80);
	/* monotone in need */
	ck_assert_uint_le(ovc_derive_age_loaded(100, 500, 80, 100, 0.6),
			ovc_derive_age_loaded(100, 500, 80, 100, 0.7));
	/* no quota, need unknown or >= 1, the limit off: max_age_ms */
	ck_assert_uint_eq(ovc_derive_age_loaded(100, 500, 0, 0, 0.1), 100);
	ck_assert_uint_eq(ovc_derive_age_loaded(100, 500, 80, 100, 0), 100);
	ck_assert_uint_eq(ovc_derive_age_loaded(100, 500, 80, 100, 1.0), 100);
	ck_assert_uint_eq(ovc_derive_age_loaded(100, 500, 80, 100, NAN), 100);
	ck_assert_uint_eq(ovc_derive_age_loaded(0, 500, 80, 100, 0.1), 0);
	ck_assert_uint_eq(ovc_derive_age_loaded(100, 500, 80, 80, 0.1), 100);
}
END_TEST

START_TEST(test_window)
{
	ck_assert_double_eq_tol(ovc_derive_onset_window_ms(100), 200, 1e-12);
	ck_assert_double_eq_tol(ovc_derive_onset_window_ms(250), 500, 1e-12);
	/* short periods and no quota: 100 ms */
	ck_assert_double_eq_tol(ovc_derive_onset_window_ms(20), 100, 1e-12);
	ck_assert_double_eq_tol(ovc_derive_onset_window_ms(0), 100, 1e-12);
	ck_assert_double_eq_tol(ovc_derive_onset_window_ms(NAN), 100, 1e-12);
}
END_TEST

Suite *make_suite_derive(void)
{
	Suite *s = suite_create("derive");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_stall);
	tcase_add_test(tc, test_rxq_auto);
	tcase_add_test(tc, test_rxq_explicit);
	tcase_add_test(tc, test_rcvbuf);
	tcase_add_test(tc, test_age_loaded);
	tcase_add_test(tc, test_window);
	suite_add_tcase(s, tc);
	return s;
}
