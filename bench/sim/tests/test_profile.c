/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim tests - load profile parsing and shapes.
 */
#include <string.h>

#include "profile.h"
#include "suites.h"

START_TEST(test_profile_shapes)
{
	struct sim_profile p;
	char err[200];

	ck_assert_int_eq(sim_profile_parse(&p, "constant:2.5", err, 200), 0);
	ck_assert_double_eq(sim_profile_rate(&p, 0), 2.5);
	ck_assert_double_eq(sim_profile_rate(&p, 1e4), 2.5);
	ck_assert_int_eq(sim_profile_parse(&p, "instant:3:20", err, 200), 0);
	ck_assert_double_eq(sim_profile_rate(&p, 19.9), 0.5);
	ck_assert_double_eq(sim_profile_rate(&p, 20), 3);
	ck_assert_double_eq(sim_profile_max(&p), 3);
	ck_assert_int_eq(sim_profile_parse(&p, "gradual:2:10:5", err, 200), 0);
	ck_assert_double_eq_tol(sim_profile_rate(&p, 5), 1, 1e-12);
	ck_assert_double_eq(sim_profile_rate(&p, 12), 2);
	ck_assert_double_eq_tol(sim_profile_rate(&p, 20), 1, 1e-12);
	ck_assert_double_eq(sim_profile_rate(&p, 26), 0);
	ck_assert_int_eq(
			sim_profile_parse(&p, "steps:0=0.9,100=1.3,200=0.5", err, 200),
			0);
	ck_assert_double_eq(sim_profile_rate(&p, 99), 0.9);
	ck_assert_double_eq(sim_profile_rate(&p, 150), 1.3);
	ck_assert_double_eq(sim_profile_rate(&p, 1e6), 0.5);
	ck_assert_double_eq(sim_profile_max(&p), 1.3);
}
END_TEST

START_TEST(test_profile_bad)
{
	struct sim_profile p;
	char err[200];

	ck_assert_int_eq(sim_profile_parse(&p, "constant", err, 200), -1);
	ck_assert_int_eq(sim_profile_parse(&p, "constant:-1", err, 200), -1);
	ck_assert_int_eq(sim_profile_parse(&p, "constant:1x", err, 200), -1);
	ck_assert_int_eq(sim_profile_parse(&p, "steps:5=1", err, 200), -1);
	ck_assert_int_eq(sim_profile_parse(&p, "steps:0=1,0=2", err, 200), -1);
	ck_assert_int_eq(sim_profile_parse(&p, "ramp:1", err, 200), -1);
	ck_assert_ptr_nonnull(strstr(err, "ramp:1"));
}
END_TEST

Suite *make_suite_profile(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_profile_shapes);
	tcase_add_test(tc, test_profile_bad);
	suite_add_tcase(s, tc);
	return s;
}
