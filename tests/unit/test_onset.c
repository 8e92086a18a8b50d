/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/onset.c: overload evidence from the least wait of a
 * window, the hold before overload ends, windows without INVITEs, the
 * switch that makes ovc always overloaded.
 */
#include <math.h>

#include "ovc/onset.h"
#include "suites.h"

/* One window with the thresholds given; no re-arming after an overload. */
static int step(struct ovc_onset *o, double wait_ms, double enter_ms,
		double onset_ms, double dt_s, double hold_s)
{
	struct ovc_onset_cfg c = {enter_ms, enter_ms, onset_ms, hold_s, 0};

	return ovc_onset_step(o, &c, wait_ms, -1, dt_s);
}

START_TEST(test_below_capacity)
{
	struct ovc_onset o;
	int i;

	/* a quota-capped proxy below capacity: waits up to the stall, but the
	 * freshest INVITE of every window waited almost nothing */
	ovc_onset_init(&o);
	for(i = 0; i < 100; i++)
		ck_assert_int_eq(step(&o, 0.3, 20, 20, 0.2, 1.0), 0);
	ck_assert_uint_eq(o.onsets, 0);
	/* no INVITE at all: no evidence */
	ck_assert_int_eq(step(&o, -1, 20, 20, 0.2, 1.0), 0);
	ck_assert_int_eq(step(&o, NAN, 20, 20, 0.2, 1.0), 0);
	/* exactly the threshold is not above it */
	ck_assert_int_eq(step(&o, 20, 20, 20, 0.2, 1.0), 0);
	ck_assert_uint_eq(o.onsets, 0);
	/* INFINITY (unmeasurable waits, pi's refusals) is evidence */
	ck_assert_int_eq(step(&o, INFINITY, 250, 20, 0.2, 1.0), 1);
	ck_assert_uint_eq(o.onsets, 1);
}
END_TEST

START_TEST(test_onset_and_hold)
{
	struct ovc_onset o;
	int i;

	ovc_onset_init(&o);
	/* one window in which every INVITE waited > 20 ms: overload */
	ck_assert_int_eq(step(&o, 35, 20, 20, 0.2, 1.0), 1);
	ck_assert_uint_eq(o.onsets, 1);
	/* quiet windows: still overloaded until 1 s has passed */
	for(i = 0; i < 4; i++)
		ck_assert_int_eq(step(&o, 1, 20, 20, 0.2, 1.0), 1);
	/* evidence again restarts the hold, and is the same episode */
	ck_assert_int_eq(step(&o, 90, 20, 20, 0.2, 1.0), 1);
	for(i = 0; i < 4; i++)
		ck_assert_int_eq(step(&o, -1, 20, 20, 0.2, 1.0), 1);
	ck_assert_uint_eq(o.onsets, 1);
	/* the fifth quiet window completes 1 s: overload ends */
	ck_assert_int_eq(step(&o, 0, 20, 20, 0.2, 1.0), 0);
	ck_assert_int_eq(step(&o, 0, 20, 20, 0.2, 1.0), 0);
	/* a new episode counts */
	ck_assert_int_eq(step(&o, 21, 20, 20, 0.2, 1.0), 1);
	ck_assert_uint_eq(o.onsets, 2);
}
END_TEST

START_TEST(test_off)
{
	struct ovc_onset o;

	/* onset_ms 0: always overloaded (the papers' controllers) */
	ovc_onset_init(&o);
	ck_assert_int_eq(step(&o, 0, 0, 0, 0.2, 1.0), 1);
	ck_assert_int_eq(step(&o, -1, 0, 0, 0.2, 1.0), 1);
	ck_assert_uint_eq(o.onsets, 1);
	/* a bad dt does not advance the hold */
	ovc_onset_init(&o);
	ck_assert_int_eq(step(&o, 50, 20, 20, 0.2, 0.5), 1);
	ck_assert_int_eq(step(&o, 0, 20, 20, NAN, 0.5), 1);
	ck_assert_int_eq(step(&o, 0, 20, 20, -1, 0.5), 1);
	ck_assert_int_eq(step(&o, 0, 20, 20, 0.5, 0.5), 0);
}
END_TEST

/* Starting an overload takes a longer wait than staying in it: a burst
 * the proxy absorbs is no onset. */
START_TEST(test_enter_hysteresis)
{
	struct ovc_onset o;

	ovc_onset_init(&o);
	/* 240 ms: a burst below enter_ms (250) */
	ck_assert_int_eq(step(&o, 240, 250, 20, 0.2, 1.0), 0);
	ck_assert_uint_eq(o.onsets, 0);
	ck_assert_int_eq(step(&o, 260, 250, 20, 0.2, 1.0), 1);
	ck_assert_uint_eq(o.onsets, 1);
	/* in overload 21 ms is evidence enough */
	for(int i = 0; i < 20; i++)
		ck_assert_int_eq(step(&o, 21, 250, 20, 0.2, 1.0), 1);
	for(int i = 0; i < 4; i++)
		ck_assert_int_eq(step(&o, 5, 250, 20, 0.2, 1.0), 1);
	ck_assert_int_eq(step(&o, 5, 250, 20, 0.2, 1.0), 0);
	/* out again: 21 ms is not an onset */
	ck_assert_int_eq(step(&o, 21, 250, 20, 0.2, 1.0), 0);
	/* enter_ms below onset_ms: onset_ms rules */
	ck_assert_int_eq(step(&o, 15, 10, 20, 0.2, 1.0), 0);
	ck_assert_uint_eq(o.onsets, 1);
}
END_TEST

/* For rearm_s after an overload ended, onset_ms starts the next one. */
START_TEST(test_rearm)
{
	struct ovc_onset_cfg c = {250, 250, 20, 1.0, 32};
	struct ovc_onset o;
	int i;

	ovc_onset_init(&o);
	ck_assert_int_eq(ovc_onset_step(&o, &c, 30, -1, 0.2), 0);
	ck_assert_int_eq(ovc_onset_step(&o, &c, 300, -1, 0.2), 1);
	for(i = 0; i < 5; i++)
		ovc_onset_step(&o, &c, 0, -1, 0.2);
	ck_assert_int_eq(o.on, 0);
	/* 10 s later a controlled overload's 30 ms is an onset again */
	for(i = 0; i < 50; i++)
		ck_assert_int_eq(ovc_onset_step(&o, &c, 0, -1, 0.2), 0);
	ck_assert_int_eq(ovc_onset_step(&o, &c, 30, -1, 0.2), 1);
	ck_assert_uint_eq(o.onsets, 2);
	/* after rearm_s of quiet, back to enter_ms */
	for(i = 0; i < 5 + 170; i++)
		ovc_onset_step(&o, &c, 0, -1, 0.2);
	ck_assert_int_eq(o.on, 0);
	ck_assert_int_eq(ovc_onset_step(&o, &c, 30, -1, 0.2), 0);
	ck_assert_int_eq(ovc_onset_step(&o, &c, 251, -1, 0.2), 1);
	ck_assert_uint_eq(o.onsets, 3);
}
END_TEST

/* With an in-core queue, its wait past the target starts an overload at
 * queue_enter_ms; a receive-queue burst still needs enter_ms. */
START_TEST(test_queue_enter)
{
	struct ovc_onset_cfg c = {250, 20, 20, 1.0, 32};
	struct ovc_onset o;
	int i;

	ovc_onset_init(&o);
	/* a 28 ms receive-queue wait at start: a burst, not an onset */
	ck_assert_int_eq(ovc_onset_step(&o, &c, 28, 0, 0.2), 0);
	ck_assert_int_eq(ovc_onset_step(&o, &c, 28, -1, 0.2), 0);
	ck_assert_int_eq(ovc_onset_step(&o, &c, 240, NAN, 0.2), 0);
	ck_assert_uint_eq(o.onsets, 0);
	/* the in-core queue 25 ms past its target: overload */
	ck_assert_int_eq(ovc_onset_step(&o, &c, 0, 25, 0.2), 1);
	ck_assert_uint_eq(o.onsets, 1);
	/* in overload either queue keeps it */
	for(i = 0; i < 10; i++)
		ck_assert_int_eq(ovc_onset_step(&o, &c, 21, 0, 0.2), 1);
	for(i = 0; i < 10; i++)
		ck_assert_int_eq(ovc_onset_step(&o, &c, 0, 21, 0.2), 1);
	/* INFINITY in either is evidence */
	ovc_onset_init(&o);
	ck_assert_int_eq(ovc_onset_step(&o, &c, INFINITY, -1, 0.2), 1);
	ovc_onset_init(&o);
	ck_assert_int_eq(ovc_onset_step(&o, &c, -1, INFINITY, 0.2), 1);
}
END_TEST

START_TEST(test_signs)
{
	struct ovc_onset_cfg c = {250, 20, 20, 1.0, 32.0};
	struct ovc_onset_signs s = {0};
	struct ovc_onset o;
	int i, on;

	ovc_onset_init(&o);
	/* nothing but waits: no sign, whatever the wait */
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, -1));
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, 300));
	/* INVITEs arrived, none with a measurable wait: evidence at any time */
	s.invites = 1;
	ck_assert_str_eq(ovc_onset_sign(&o, &c, &s, -1), "unmeasured (TCP, TLS)");
	ck_assert_str_eq(ovc_onset_sign(&o, &c, &s, NAN), "unmeasured (TCP, TLS)");
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, 0.5));
	s.invites = 0;
	/* out of overload, the consequences of controlling one start nothing */
	s.kstage = 1;
	s.epochs = 4;
	s.held = 3;
	s.refused_for_wait = 50;
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, 5));
	/* in overload each keeps it */
	ck_assert_int_eq(ovc_onset_step(&o, &c, 300, -1, 0.2), 1);
	ck_assert_str_eq(
			ovc_onset_sign(&o, &c, &s, 5), "held down by pi's refusals");
	s.held = 2; /* half the epochs is not most of them */
	ck_assert_str_eq(
			ovc_onset_sign(&o, &c, &s, 5), "the kernel stage drops calls");
	s.kstage = 0;
	/* INVITEs refused for their wait while the freshest waited less than
	 * onset_ms: the age limit keeps the queue short */
	ck_assert_str_eq(
			ovc_onset_sign(&o, &c, &s, 5), "INVITEs refused for their wait");
	ck_assert_str_eq(
			ovc_onset_sign(&o, &c, &s, -1), "INVITEs refused for their wait");
	/* a wait above onset_ms is its own evidence */
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, 35));
	s.refused_for_wait = 0;
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, 5));
	/* so the age refusals keep an overload whose waits the limit
	 * shortened, one onset in all, and it ends a hold after they stop */
	s.refused_for_wait = 10;
	for(i = 0; i < 20; i++) {
		const char *why = ovc_onset_sign(&o, &c, &s, 8);

		ck_assert_ptr_nonnull(why);
		ck_assert_int_eq(ovc_onset_step(&o, &c, INFINITY, -1, 0.2), 1);
	}
	s.refused_for_wait = 0;
	for(i = 0; i < 4; i++) {
		ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, 8));
		ck_assert_int_eq(ovc_onset_step(&o, &c, 8, -1, 0.2), 1);
	}
	on = ovc_onset_step(&o, &c, 8, -1, 0.2);
	if(on)
		on = ovc_onset_step(&o, &c, 8, -1, 0.2);
	ck_assert_int_eq(on, 0);
	ck_assert_uint_eq(o.onsets, 1);
}
END_TEST

/* A rush: three times the capacity reaching the host in a window whose
 * freshest INVITE waited past onset_ms starts an overload long before the
 * backlog reaches enter_ms; less, or no wait, or nothing known, does not. */
START_TEST(test_rush)
{
	struct ovc_onset_cfg c = {250, 20, 20, 1.0, 32.0};
	struct ovc_onset_signs s = {0};
	struct ovc_onset o;
	const char *why;

	ovc_onset_init(&o);
	s.invites = 1;
	s.capacity = 60; /* 300 calls/s over a 200 ms window */
	s.arrived = 181;
	why = ovc_onset_sign(&o, &c, &s, 21);
	ck_assert_ptr_nonnull(why);
	ck_assert_str_eq(why, "a rush of INVITEs past 3.0x the capacity");
	ck_assert_int_eq(ovc_onset_step(&o, &c, INFINITY, -1, 0.2), 1);
	ck_assert_uint_eq(o.onsets, 1);
	/* in overload it keeps it, whatever the waits (the kernel stage may
	 * keep the receive queue short) */
	why = ovc_onset_sign(&o, &c, &s, 0);
	ck_assert_ptr_nonnull(why);
	ck_assert_str_eq(why, "INVITEs still arrive past 3.0x the capacity");
	ck_assert_int_eq(ovc_onset_step(&o, &c, INFINITY, -1, 2.0), 1);
	/* three times the capacity or less, nothing known: no sign of it */
	s.arrived = 180;
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, 0));
	s.arrived = -1;
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, 0));
	s.arrived = 181;
	ovc_onset_init(&o);
	/* the proxy keeps up with the rush: no wait past onset_ms */
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, 20));
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, 0));
	/* three times the capacity is not a rush; 2.9 and a 240 ms wait is
	 * left to enter_ms */
	s.arrived = 180;
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, 240));
	ck_assert_int_eq(ovc_onset_step(&o, &c, 240, -1, 0.2), 0);
	/* unknown arrivals (no kernel stage) or capacity: no sign */
	s.arrived = -1;
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, 100));
	s.arrived = 1000;
	s.capacity = 0;
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, 100));
	s.capacity = NAN;
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, 100));
	s.capacity = 60;
	s.arrived = NAN;
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, 100));
	/* a wait not measured is no wait past onset_ms */
	s.arrived = 1000;
	s.invites = 0;
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, NAN));
	ck_assert_ptr_null(ovc_onset_sign(&o, &c, &s, -1));
	ck_assert_uint_eq(o.onsets, 0);
}
END_TEST

Suite *make_suite_onset(void)
{
	Suite *s = suite_create("onset");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_below_capacity);
	tcase_add_test(tc, test_onset_and_hold);
	tcase_add_test(tc, test_off);
	tcase_add_test(tc, test_enter_hysteresis);
	tcase_add_test(tc, test_rearm);
	tcase_add_test(tc, test_queue_enter);
	tcase_add_test(tc, test_signs);
	tcase_add_test(tc, test_rush);
	suite_add_tcase(s, tc);
	return s;
}
