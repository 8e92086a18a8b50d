/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim tests - PRNG and Poisson source: per-second counts with mean
 * and variance lambda, exponential gaps, thinning follows the profile,
 * same seed -> same stream.
 */
#include <math.h>
#include <stdlib.h>

#include "rng.h"
#include "source.h"
#include "suites.h"

START_TEST(test_rng_range_and_seed)
{
	struct sim_rng a, b;
	double u, sum = 0;
	int i;

	sim_rng_seed(&a, 7);
	sim_rng_seed(&b, 7);
	for(i = 0; i < 100000; i++) {
		ck_assert_uint_eq(sim_rng_next(&a), sim_rng_next(&b));
		u = sim_rng_u01(&a);
		sim_rng_u01(&b);
		ck_assert(u > 0 && u < 1);
		sum += u;
	}
	ck_assert_double_eq_tol(sum / 100000, 0.5, 0.005);
	sim_rng_seed(&b, 8);
	ck_assert_uint_ne(sim_rng_next(&a), sim_rng_next(&b));
}
END_TEST

/* lambda = 100/s for 2000 s: counts per second have mean and variance
 * lambda (tolerances ~4 standard errors), gaps mean and variance
 * 1/lambda, 1/lambda^2. */
START_TEST(test_poisson_moments)
{
	static int cnt[2000];
	struct sim_profile p;
	struct sim_source s;
	double t, last = 0, g, gs = 0, gs2 = 0, m = 0, v = 0;
	long n = 0;
	int i;

	sim_profile_constant(&p, 1.0);
	sim_source_init(&s, &p, 100.0, 12345);
	for(i = 0; i < 2000; i++)
		cnt[i] = 0;
	while((t = sim_source_next(&s)) < 2000) {
		ck_assert(t > last);
		g = t - last;
		gs += g;
		gs2 += g * g;
		last = t;
		cnt[(int)t]++;
		n++;
	}
	for(i = 0; i < 2000; i++)
		m += cnt[i];
	m /= 2000;
	for(i = 0; i < 2000; i++)
		v += (cnt[i] - m) * (cnt[i] - m);
	v /= 1999;
	ck_assert_double_eq_tol(m, 100.0, 1.0);
	ck_assert_double_eq_tol(v, 100.0, 13.0);
	gs /= (double)n;
	gs2 = gs2 / (double)n - gs * gs;
	ck_assert_double_eq_tol(gs, 0.01, 0.0002);
	ck_assert_double_eq_tol(gs2, 1e-4, 0.06e-4);
}
END_TEST

/* Thinning: steps 0=1, 100=3 at capacity 50 -> 5000 then 15000. */
START_TEST(test_poisson_profile)
{
	struct sim_profile p;
	struct sim_source s;
	char err[200];
	double t;
	long a = 0, b = 0;

	ck_assert_int_eq(sim_profile_parse(&p, "steps:0=1,100=3,200=0", err,
							 sizeof(err)),
			0);
	sim_source_init(&s, &p, 50.0, 99);
	while((t = sim_source_next(&s)) >= 0 && t < 300) {
		if(t < 100)
			a++;
		else if(t < 200)
			b++;
		else
			ck_abort_msg("arrival at %g with zero load", t);
	}
	ck_assert(labs(a - 5000) < 300);
	ck_assert(labs(b - 15000) < 500);
}
END_TEST

START_TEST(test_source_zero)
{
	struct sim_profile p;
	struct sim_source s;

	sim_profile_constant(&p, 0);
	sim_source_init(&s, &p, 100.0, 1);
	ck_assert(sim_source_next(&s) < 0);
}
END_TEST

Suite *make_suite_source(void)
{
	Suite *s = suite_create("source");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_rng_range_and_seed);
	tcase_add_test(tc, test_poisson_moments);
	tcase_add_test(tc, test_poisson_profile);
	tcase_add_test(tc, test_source_zero);
	suite_add_tcase(s, tc);
	return s;
}
