/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/onset.c: overload evidence from the least wait of a
 * window, the hold before overload ends, windows without INVITEs, the
 * switch that makes ovc always overloaded.
 */
#include <math.h>

#include "ovc/onset.h"
#include "suites.h"

START_TEST(test_below_capacity)
{
	struct ovc_onset o;
	int i;

	/* a quota-capped proxy below capacity: waits up to the stall, but the
	 * freshest INVITE of every window waited almost nothing */
	ovc_onset_init(&o);
	for(i = 0; i < 100; i++)
		ck_assert_int_eq(ovc_onset_step(&o, 0.3, 20, 0.2, 1.0), 0);
	ck_assert_uint_eq(o.onsets, 0);
	/* no INVITE at all: no evidence */
	ck_assert_int_eq(ovc_onset_step(&o, -1, 20, 0.2, 1.0), 0);
	ck_assert_int_eq(ovc_onset_step(&o, NAN, 20, 0.2, 1.0), 0);
	/* exactly the threshold is not above it */
	ck_assert_int_eq(ovc_onset_step(&o, 20, 20, 0.2, 1.0), 0);
}
END_TEST

START_TEST(test_onset_and_hold)
{
	struct ovc_onset o;
	int i;

	ovc_onset_init(&o);
	/* one window in which every INVITE waited > 20 ms: overload */
	ck_assert_int_eq(ovc_onset_step(&o, 35, 20, 0.2, 1.0), 1);
	ck_assert_uint_eq(o.onsets, 1);
	/* quiet windows: still overloaded until 1 s has passed */
	for(i = 0; i < 4; i++)
		ck_assert_int_eq(ovc_onset_step(&o, 1, 20, 0.2, 1.0), 1);
	/* evidence again restarts the hold, and is the same episode */
	ck_assert_int_eq(ovc_onset_step(&o, 90, 20, 0.2, 1.0), 1);
	for(i = 0; i < 4; i++)
		ck_assert_int_eq(ovc_onset_step(&o, -1, 20, 0.2, 1.0), 1);
	ck_assert_uint_eq(o.onsets, 1);
	/* the fifth quiet window completes 1 s: overload ends */
	ck_assert_int_eq(ovc_onset_step(&o, 0, 20, 0.2, 1.0), 0);
	ck_assert_int_eq(ovc_onset_step(&o, 0, 20, 0.2, 1.0), 0);
	/* a new episode counts */
	ck_assert_int_eq(ovc_onset_step(&o, 21, 20, 0.2, 1.0), 1);
	ck_assert_uint_eq(o.onsets, 2);
}
END_TEST

START_TEST(test_off)
{
	struct ovc_onset o;

	/* onset_ms 0: always overloaded (the papers' controllers) */
	ovc_onset_init(&o);
	ck_assert_int_eq(ovc_onset_step(&o, 0, 0, 0.2, 1.0), 1);
	ck_assert_int_eq(ovc_onset_step(&o, -1, 0, 0.2, 1.0), 1);
	ck_assert_uint_eq(o.onsets, 1);
	/* a bad dt does not advance the hold */
	ovc_onset_init(&o);
	ck_assert_int_eq(ovc_onset_step(&o, 50, 20, 0.2, 0.5), 1);
	ck_assert_int_eq(ovc_onset_step(&o, 0, 20, NAN, 0.5), 1);
	ck_assert_int_eq(ovc_onset_step(&o, 0, 20, -1, 0.5), 1);
	ck_assert_int_eq(ovc_onset_step(&o, 0, 20, 0.5, 0.5), 0);
}
END_TEST

Suite *make_suite_onset(void)
{
	Suite *s = suite_create("onset");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_below_capacity);
	tcase_add_test(tc, test_onset_and_hold);
	tcase_add_test(tc, test_off);
	suite_add_tcase(s, tc);
	return s;
}
