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

/* bench:... reproduces bench/testbed/profile.sh's per-second rates. */
START_TEST(test_profile_bench)
{
	struct sim_profile p;
	char err[200];
	double want_g[] = {0.3, 0.3, 1.5, 2.5, 2.5, 2.5, 2.5, 1.5, 0.5};
	int i;

	ck_assert_int_eq(sim_profile_parse(&p, "bench:gradual:2.5:7:2", err, 200),
			0);
	/* third = 2: ramp 1.5, 2.5; hold 3 s; ramp 1.5, 0.5 */
	for(i = 0; i < 9; i++)
		ck_assert_double_eq_tol(sim_profile_rate(&p, i + 0.5), want_g[i],
				1e-12);
	ck_assert_double_eq(sim_profile_end(&p), 9);
	ck_assert_int_eq(sim_profile_parse(&p, "bench:instant:3", err, 200), 0);
	ck_assert_double_eq(sim_profile_rate(&p, 4.9), 0.3);
	ck_assert_double_eq(sim_profile_rate(&p, 5), 3);
	ck_assert_double_eq(sim_profile_rate(&p, 24.9), 3);
	ck_assert_double_eq(sim_profile_rate(&p, 25), 0.5);
	ck_assert_double_eq(sim_profile_rate(&p, 30.9), 0.5);
	ck_assert_double_eq(sim_profile_rate(&p, 31), 0);
	ck_assert_int_eq(sim_profile_parse(&p, "bench:constant:2:10:0", err,
							 200),
			0);
	ck_assert_double_eq(sim_profile_rate(&p, 0), 2);
	ck_assert_double_eq(sim_profile_rate(&p, 10), 0);
	ck_assert_int_eq(sim_profile_parse(&p, "bench:ramp:2", err, 200), -1);
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
	tcase_add_test(tc, test_profile_bench);
	tcase_add_test(tc, test_profile_bad);
	suite_add_tcase(s, tc);
	return s;
}
