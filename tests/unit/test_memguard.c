/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/memguard.c: no cap with ample memory, off and bad
 * input, and a synthetic proxy whose calls hold memory for their
 * lifetime: unguarded it fills the memory, guarded it stays under the
 * budget while still admitting what the budget holds.
 */
#include <math.h>

#include "ovc/memguard.h"
#include "suites.h"

#define MB (1024.0 * 1024.0)

/* A proxy with total bytes of shared memory, base of them used at rest,
 * offered calls/s of which it serves at most serve/s; each admitted call
 * holds per_call bytes for life_s seconds (tm's transactions until their
 * wait timer ends). Steps of 0.1 s for secs seconds, the admitted
 * fraction capped by the guard when guarded. Returns the most memory
 * used; *served the calls admitted over the last 10 s, per second. */
static double run(const struct ovc_memguard_params *p, int guarded,
		double total, double base, double offered, double serve,
		double per_call, double life_s, double secs, double *served)
{
	enum { LIFE_STEPS = 400 };
	double ring[LIFE_STEPS] = {0};
	struct ovc_memguard g;
	double dt = 0.1, held = 0, peak = 0, cap = 1, late = 0;
	int life = (int)(life_s / dt + 0.5), n = (int)(secs / dt + 0.5), i;

	ck_assert_int_le(life, LIFE_STEPS);
	ovc_memguard_init(&g);
	for(i = 0; i < n; i++) {
		double adm = offered * cap;
		double used;

		if(adm > serve)
			adm = serve;
		adm *= dt;
		held += adm - ring[i % life];
		ring[i % life] = adm;
		used = base + held * per_call;
		if(used > peak)
			peak = used;
		if(i >= n - (int)(10 / dt))
			late += adm;
		if(guarded)
			cap = ovc_memguard_step(
					&g, p, used, total, adm, offered * dt, dt);
	}
	*served = late / 10;
	return peak;
}

START_TEST(test_ample_memory)
{
	struct ovc_memguard_params p;
	double served, peak;

	ovc_memguard_defaults(&p);
	p.high = 0.8;
	/* 1 GB: 600 calls/s of 12 KB for 10 s hold 70 MB; 8x offered */
	peak = run(&p, 1, 1024 * MB, 10 * MB, 4800, 600, 12e3, 10, 60,
			&served);
	ck_assert_double_eq_tol(served, 600, 1e-6);
	ck_assert(peak < 0.2 * 1024 * MB);
}
END_TEST

START_TEST(test_below_budget_no_cap)
{
	struct ovc_memguard_params p;
	struct ovc_memguard g;
	int i;

	/* 64 MB, 20 MB held by 300 calls/s, all admitted: no cap */
	ovc_memguard_defaults(&p);
	p.high = 0.8;
	ovc_memguard_init(&g);
	ck_assert(ovc_memguard_step(&g, &p, 8 * MB, 64 * MB, 30, 30, 0.1) == 1);
	for(i = 0; i < 50; i++)
		ck_assert(ovc_memguard_step(&g, &p, 28 * MB, 64 * MB, 30, 30, 0.1)
				  == 1);
	/* k: 20 MB per 300 calls/s; the budget of 51.2 MB less 8 MB holds
	 * 648 */
	ck_assert_double_eq_tol(g.rate_max, 648, 648 * 0.01);
}
END_TEST

START_TEST(test_defaults_on)
{
	struct ovc_memguard_params p;

	/* on by default: Debian's -m 64 runs out under overload without it
	 * (bench/results/service) */
	ovc_memguard_defaults(&p);
	ck_assert(p.high > 0 && p.high < p.hard && p.hard <= 1);
}
END_TEST

START_TEST(test_off_and_bad_input)
{
	struct ovc_memguard_params p;
	struct ovc_memguard g;
	double c;

	ovc_memguard_defaults(&p);
	p.high = 0.8;
	ovc_memguard_init(&g);
	p.high = 0;
	ck_assert(ovc_memguard_step(&g, &p, 63 * MB, 64 * MB, 10, 100, 1) == 1);
	ovc_memguard_defaults(&p);
	p.high = 0.8;
	c = ovc_memguard_step(&g, &p, 62 * MB, 64 * MB, 10, 100, 1);
	ck_assert(c < 1);
	ck_assert(ovc_memguard_step(&g, &p, NAN, 64 * MB, 10, 100, 1) == c);
	ck_assert(ovc_memguard_step(&g, &p, 1, 0, 10, 100, 1) == c);
	ck_assert(ovc_memguard_step(&g, &p, 1, 64 * MB, -1, 100, 1) == c);
	ck_assert(ovc_memguard_step(&g, &p, 1, 64 * MB, 10, 100, 0) == c);
	ck_assert(g.base == 62 * MB);
	/* past the hard limit (default 0.97) nothing is admitted */
	ck_assert(p.hard < 0.99);
	ck_assert(ovc_memguard_step(&g, &p, 0.99 * 64 * MB, 64 * MB, 10, 100, 1)
			  == 0);
}
END_TEST

START_TEST(test_holds_the_budget)
{
	struct ovc_memguard_params p;
	double served, peak, total = 64 * MB, base = 12 * MB;

	ovc_memguard_defaults(&p);
	p.high = 0.8;
	/* 600 calls/s of 12 KB for 10 s would need 82 MB above the base */
	peak = run(&p, 0, total, base, 4800, 600, 12e3, 10, 60, &served);
	ck_assert(peak > total);
	peak = run(&p, 1, total, base, 4800, 600, 12e3, 10, 60, &served);
	/* guarded: under the hard limit at every step, and it admits about
	 * what the budget holds: (0.8 x 64 - 12) MB / 120 KB per call/s */
	ck_assert_msg(peak < p.hard * total, "peak %.1f MB", peak / MB);
	ck_assert_msg(served > 0.9 * (p.high * total - base) / 120e3,
			"served %.1f/s", served);
}
END_TEST

Suite *make_suite_memguard(void)
{
	Suite *s = suite_create("memguard");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_ample_memory);
	tcase_add_test(tc, test_below_budget_no_cap);
	tcase_add_test(tc, test_defaults_on);
	tcase_add_test(tc, test_off_and_bad_input);
	tcase_add_test(tc, test_holds_the_budget);
	suite_add_tcase(s, tc);
	return s;
}
