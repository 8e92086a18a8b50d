/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/ksplit.c: the split of refusals between 503s and
 * the kernel stage's drops.
 */
#include <math.h>

#include "ovc/ksplit.h"

#include "suites.h"

static const struct ovc_ksplit_params P = {
		.budget = 0.2, .weight = 1.0, .max = 0.98, .min_refusals = 10};

/* One epoch of 1 s: l calls/s reach the filter, which drops the share
 * in force (s->share) of them; ovc sees the rest, forwards a/s and
 * refuses the others, refusing costing cpu_reject. */
static double epoch(struct ovc_ksplit *s, const struct ovc_ksplit_params *p,
		double l, uint64_t a, double cpu_reject, int act)
{
	uint64_t seen = (uint64_t)(l * (1.0 - s->share) + 0.5);
	struct ovc_ksplit_in in = {.dt_s = 1.0,
			.offered = seen,
			.admitted = a,
			.refused = seen - a,
			.cpu_reject = cpu_reject,
			.may_act = act};

	return ovc_ksplit_step(s, p, &in);
}

START_TEST(test_ksplit_vectors)
{
	struct ovc_ksplit s;

	ovc_ksplit_init(&s);
	/* 16000/s offered, 1000 forwarded, 15000 refused at 0.6 of capacity:
	 * c = 4e-5, A = 0.2 / 4e-5 = 5000/s, share = (15000 - 5000) / 16000 */
	ck_assert_double_eq_tol(epoch(&s, &P, 16000, 1000, 0.6, 1), 0.625, 1e-12);
	ck_assert_double_eq_tol(s.cost, 4e-5, 1e-15);
	ck_assert_double_eq_tol(s.affordable, 5000, 1e-9);
	/* next epoch the kernel drops 0.625 of the calls: ovc sees 6000,
	 * refuses 5000 at 0.2, and the same share holds (the calls that
	 * reach the filter are 6000 / 0.375), whatever the dropped calls'
	 * retransmissions add to the kernel's own count */
	ck_assert_double_eq_tol(epoch(&s, &P, 16000, 1000, 0.2, 1), 0.625, 1e-12);
	/* the formula, weighted: (1 - f)(1 - A / ((1 - f) L)) */
	ck_assert_double_eq_tol(s.share,
			(1 - 1000.0 / 16000) * (1 - 5000 / ((1 - 1000.0 / 16000) * 16000)),
			1e-12);
	/* the flood ends: 300 calls/s reach the filter, ovc sees 113 and
	 * forwards 112: nothing to drop, however many retransmissions of the
	 * calls dropped before still reach the kernel */
	ck_assert(epoch(&s, &P, 300, 112, 0.0, 1) == 0);
	ck_assert(s.target == 0);
}
END_TEST

START_TEST(test_ksplit_bounds)
{
	struct ovc_ksplit_params p = P;
	struct ovc_ksplit s;

	ovc_ksplit_init(&s);
	/* 3000 refused at 0.12: c = 4e-5, A = 5000 >= 3000 */
	ck_assert(epoch(&s, &P, 4000, 1000, 0.12, 1) == 0);
	ck_assert(epoch(&s, &P, 16000, 1000, 0.6, 1) > 0.6);
	ck_assert(epoch(&s, &P, 16000, 1000, 0.6, 0) == 0);
	ck_assert(s.share == 0);
	/* refusing takes all the CPU: about 0.8 of the arrivals to drop,
	 * clamped to max */
	ovc_ksplit_init(&s);
	p.max = 0.5;
	ck_assert_double_eq_tol(epoch(&s, &p, 1000000, 10, 0.99, 1), 0.5, 1e-12);
	ck_assert_double_eq_tol(s.target, 0.5, 1e-12);
}
END_TEST

/* The cost is unknown until an epoch refuses min_refusals: no share;
 * smoothing moves weight of the way to the target. */
START_TEST(test_ksplit_unknown_and_smoothing)
{
	struct ovc_ksplit_params p = P;
	struct ovc_ksplit s;

	ovc_ksplit_init(&s);
	ck_assert(epoch(&s, &p, 16000, 15995, 0.6, 1) == 0);
	ck_assert(s.cost == 0);
	ck_assert(epoch(&s, &p, 16000, 1000, 0, 1) == 0); /* no CPU read */
	p.weight = 0.5;
	ck_assert_double_eq_tol(epoch(&s, &p, 16000, 1000, 0.6, 1), 0.3125, 1e-12);
	/* ovc now sees 11000 of the 16000, refuses 10000 at 0.4 (c = 4e-5):
	 * the target is still 0.625, half-way from 0.3125 */
	ck_assert_double_eq_tol(epoch(&s, &p, 16000, 1000, 0.4, 1), 0.46875, 1e-12);
	/* an epoch with no dt keeps it */
	ck_assert_double_eq_tol(ovc_ksplit_step(&s, &p,
									&(struct ovc_ksplit_in){.may_act = 1}),
			0.46875, 1e-12);
	/* no call at all (the flood over, the retransmissions of the calls
	 * dropped before also gone): the target is 0, the share decays */
	ck_assert_double_eq_tol(epoch(&s, &p, 0, 0, 0, 1), 0.234375, 1e-12);
	ck_assert(s.target == 0);
	ck_assert_int_eq(ovc_ksplit_check(&p), 0);
	p.max = 1.0;
	ck_assert_int_eq(ovc_ksplit_check(&p), -1);
	p.max = 0.5;
	p.budget = 0;
	ck_assert_int_eq(ovc_ksplit_check(&p), -1);
}
END_TEST

/* A 10 ms epoch at 8x the capacity: 2500 calls/s reach ovc, 500 are
 * forwarded, 2000 refused (cpu_reject set by each test). */
static const struct ovc_ksplit_in EPOCH_8X = {.dt_s = 0.01,
		.offered = 25,
		.admitted = 5,
		.refused = 20,
		.may_act = 1};

/* Epochs of 10 ms at 8x the capacity (2500 calls/s reach ovc, 500
 * forwarded, 2000 refused) whose refusals cost 0.15 of the capacity on
 * average, timed in every other epoch only (1 in 8 refusals is timed: in
 * 10 ms often none is). Per epoch the cost read was twice the mean
 * (0.3 x 0.01 / 20 = 1.5e-4), A = 0.2 / 1.5e-4 = 1333/s below the 2000
 * refused, and the kernel dropped calls; over a window of 0.2 s the cost
 * is the sums' ratio, 7.5e-5, A = 2667/s: nothing to drop. */
START_TEST(test_ksplit_window)
{
	struct ovc_ksplit_params p = P;
	struct ovc_ksplit_in in = EPOCH_8X;
	struct ovc_ksplit s;
	double most = 0;
	int i;

	p.min_refusals = 20;
	ovc_ksplit_init(&s);
	for(i = 0; i < 100; i++) {
		in.cpu_reject = i % 2 ? 0.3 : 0.0;
		ovc_ksplit_step(&s, &p, &in);
		most = s.share > most ? s.share : most;
	}
	/* epoch by epoch: at least (2000 - 1333) / 2500 */
	ck_assert(most > 0.25);
	p.window_s = 0.2;
	ck_assert_int_eq(ovc_ksplit_check(&p), 0);
	ovc_ksplit_init(&s);
	for(i = 0; i < 100; i++) {
		in.cpu_reject = i % 2 ? 0.3 : 0.0;
		ck_assert(ovc_ksplit_step(&s, &p, &in) == 0);
		/* nothing measured until the first window closes */
		ck_assert(i >= 19 || s.cost == 0);
	}
	ck_assert_double_eq_tol(s.cost, 7.5e-5, 1e-12);
	ck_assert_double_eq_tol(s.affordable, 0.2 / 7.5e-5, 1e-6);
	/* a window that may not act empties it: the next window starts anew */
	for(i = 0; i < 10; i++)
		ovc_ksplit_step(&s, &p, &in);
	in.may_act = 0;
	ck_assert(ovc_ksplit_step(&s, &p, &in) == 0);
	ck_assert(s.acc.dt_s == 0 && s.acc.refused == 0);
	p.window_s = -1;
	ck_assert_int_eq(ovc_ksplit_check(&p), -1);
}
END_TEST

/* A flood at 16x in 10 ms epochs: the share acts once the first 0.2 s
 * window closes, with the target of the same 0.2 s as one epoch. */
START_TEST(test_ksplit_window_flood)
{
	struct ovc_ksplit_params p = P;
	struct ovc_ksplit a, b;
	struct ovc_ksplit_in in = {.dt_s = 0.01,
			.offered = 160,
			.admitted = 10,
			.refused = 150,
			.cpu_reject = 0.6,
			.may_act = 1};
	struct ovc_ksplit_in whole = in;
	int i;

	p.window_s = 0.2;
	ovc_ksplit_init(&a);
	for(i = 0; i < 19; i++)
		ck_assert(ovc_ksplit_step(&a, &p, &in) == 0);
	whole.dt_s = 0.2;
	whole.offered *= 20;
	whole.admitted *= 20;
	whole.refused *= 20;
	p.window_s = 0;
	ovc_ksplit_init(&b);
	ovc_ksplit_step(&b, &p, &whole);
	p.window_s = 0.2;
	ck_assert_double_eq_tol(ovc_ksplit_step(&a, &p, &in), b.share, 1e-12);
	ck_assert_double_eq_tol(a.share, 0.625, 1e-12);
}
END_TEST

/* An epoch with no CPU reading is left out of the window whole: its
 * refusals without their CPU would halve the cost per refusal here, and
 * A = budget / c would pay for 503s the CPU does not. Windows of 0.2 s
 * of 10 ms epochs, 20 refusals at 0.15 each (c = 7.5e-5, A = 2667/s);
 * every other epoch has no reading. */
START_TEST(test_ksplit_no_reading)
{
	struct ovc_ksplit_params p = P;
	struct ovc_ksplit_in in = EPOCH_8X;
	struct ovc_ksplit s;
	int i;

	p.window_s = 0.2;
	p.min_refusals = 20;
	ovc_ksplit_init(&s);
	for(i = 0; i < 80; i++) {
		in.cpu_reject = i % 4 == 1 ? NAN : i % 4 == 3 ? -1.0 : 0.15;
		ovc_ksplit_step(&s, &p, &in);
	}
	/* 40 epochs counted: two windows */
	ck_assert_double_eq_tol(s.cost, 7.5e-5, 1e-12);
	ck_assert_double_eq_tol(s.acc.dt_s, 0, 1e-12);
	ck_assert(s.share == 0);
	/* with no reading at all nothing is measured, nothing dropped */
	ovc_ksplit_init(&s);
	in.cpu_reject = NAN;
	for(i = 0; i < 40; i++)
		ck_assert(ovc_ksplit_step(&s, &p, &in) == 0);
	ck_assert(s.cost == 0 && s.acc.refused == 0);
}
END_TEST

Suite *make_suite_ksplit(void)
{
	Suite *s = suite_create("ksplit");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_ksplit_vectors);
	tcase_add_test(tc, test_ksplit_bounds);
	tcase_add_test(tc, test_ksplit_unknown_and_smoothing);
	tcase_add_test(tc, test_ksplit_window);
	tcase_add_test(tc, test_ksplit_window_flood);
	tcase_add_test(tc, test_ksplit_no_reading);
	suite_add_tcase(s, tc);
	return s;
}
