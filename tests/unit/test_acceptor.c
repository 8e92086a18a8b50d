/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/acceptor.c: exact counts for many f, bounded runs of
 * refusals, f changing mid-stream, and processes sharing one acceptor.
 */
#include <math.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovc/acceptor.h"
#include "ovc/types.h"
#include "suites.h"

/* Over n decisions at constant f the count stays in [floor(i f),
 * floor(i f) + 1] after every decision i and refusal runs stay below
 * ceil(1/f). */
static void check_constant(double f, unsigned n)
{
	struct ovc_acceptor a;
	unsigned i, acc = 0, run = 0, max_run = 0;
	double lo;

	unsigned bad_i = 0, bad_acc = 0;

	ovc_acceptor_init(&a, f);
	/* ck_assert costs a pipe write when it passes: check in bulk. */
	for(i = 1; i <= n; i++) {
		if(ovc_acceptor_take(&a)) {
			acc++;
			run = 0;
		} else if(++run > max_run) {
			max_run = run;
		}
		lo = floor((double)i * f);
		if(bad_i == 0 && ((double)acc < lo || (double)acc > lo + 1.0)) {
			bad_i = i;
			bad_acc = acc;
		}
	}
	ck_assert_msg(bad_i == 0, "f=%.9g after %u: %u accepted, floor(n f)=%.0f",
			f, bad_i, bad_acc, floor((double)bad_i * f));
	if(f > 0.0)
		ck_assert_msg((double)max_run <= ceil(1.0 / f) - 1.0,
				"f=%.9g: refusal run %u > ceil(1/f)-1", f, max_run);
	ck_assert_uint_eq(atomic_load(&a.taken), n);
	ck_assert_uint_eq(atomic_load(&a.accepted), acc);
}

START_TEST(test_exact_grid)
{
	/* f = i/997 for every i: all residues of a prime grid. */
	unsigned i;

	for(i = 0; i <= 997; i++)
		check_constant((double)i / 997.0, 3000);
}
END_TEST

START_TEST(test_exact_special)
{
	const double fs[] = {0.0, 1e-6, 0.001, 0.005, 0.01, 0.0123456, 0.02,
			1.0 / 3.0, 2.0 / 3.0, 0.5, 0.999, 0.9999999, 1.0};
	size_t i;

	for(i = 0; i < sizeof(fs) / sizeof(fs[0]); i++)
		check_constant(fs[i], 200000);
}
END_TEST

START_TEST(test_one_third_pattern)
{
	struct ovc_acceptor a;
	int i;

	ovc_acceptor_init(&a, 1.0 / 3.0);
	for(i = 1; i <= 3000; i++)
		if(ovc_acceptor_take(&a) != (i % 3 == 0))
			break;
	ck_assert_int_eq(i, 3001);
}
END_TEST

START_TEST(test_limits_and_set)
{
	struct ovc_acceptor a;
	int i;

	ovc_acceptor_init(&a, NAN);
	ck_assert(ovc_acceptor_get(&a) == 1.0);
	for(i = 0; i < 100; i++)
		ovc_acceptor_take(&a);
	ck_assert_uint_eq(atomic_load(&a.accepted), 100);
	ck_assert_int_eq(ovc_acceptor_set(&a, -0.5), OVC_OK);
	ck_assert(ovc_acceptor_get(&a) == 0.0);
	for(i = 0; i < 100; i++)
		ovc_acceptor_take(&a);
	ck_assert_uint_eq(atomic_load(&a.accepted), 100);
	ck_assert_uint_eq(atomic_load(&a.taken), 200);
	ck_assert_int_eq(ovc_acceptor_set(&a, 7.0), OVC_OK);
	ck_assert(ovc_acceptor_get(&a) == 1.0);
	ck_assert_int_eq(ovc_acceptor_set(&a, 0.25), OVC_OK);
	ck_assert_double_eq_tol(ovc_acceptor_get(&a), 0.25, 1e-9);
	ck_assert_int_eq(ovc_acceptor_set(&a, NAN), OVC_EINVAL);
	ck_assert_double_eq_tol(ovc_acceptor_get(&a), 0.25, 1e-9);
	ck_assert_int_eq(ovc_acceptor_set(&a, INFINITY), OVC_OK);
	ck_assert(ovc_acceptor_get(&a) == 1.0);
	ovc_acceptor_init(&a, -INFINITY);
	ck_assert(ovc_acceptor_get(&a) == 0.0);
	/* finer than 1 %: 0.1234 % is honoured */
	ovc_acceptor_init(&a, 0.001234);
	for(i = 0; i < 1000000; i++)
		ovc_acceptor_take(&a);
	ck_assert_uint_eq(atomic_load(&a.accepted), 1234);
}
END_TEST

/* Small deterministic generator for test sequences. */
static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

START_TEST(test_changing_f_dyadic)
{
	/* Dyadic f = k/65536 is exact in fixed point: after every decision
	 * the count equals floor(sum f) exactly. */
	struct ovc_acceptor a;
	uint32_t seed = 12345;
	uint64_t sum = 0; /* in units of 2^-32 */
	uint64_t acc = 0, k = 0;
	unsigned i;

	ovc_acceptor_init(&a, 0.0);
	for(i = 0; i < 400000; i++) {
		if(i % 97 == 0) {
			k = lcg(&seed) % 65537;
			ck_assert_int_eq(
					ovc_acceptor_set(&a, (double)k / 65536.0), OVC_OK);
		}
		sum += k << 16;
		acc += (uint64_t)ovc_acceptor_take(&a);
		if(acc != sum >> 32)
			break;
	}
	ck_assert_uint_eq(i, 400000);
	ck_assert_uint_eq(acc, sum >> 32);
}
END_TEST

START_TEST(test_changing_f_any)
{
	/* Arbitrary f: the count stays within [floor(sum f), +1]. */
	struct ovc_acceptor a;
	uint32_t seed = 777;
	long double sum = 0.0L;
	double f = 0.5;
	uint64_t acc = 0;
	unsigned i;

	ovc_acceptor_init(&a, f);
	for(i = 0; i < 300000; i++) {
		if(i % 53 == 0) {
			f = (double)(lcg(&seed) % 1000003) / 1000003.0;
			ovc_acceptor_set(&a, f);
		}
		sum += (long double)f;
		acc += (uint64_t)ovc_acceptor_take(&a);
		if((long double)acc < floorl(sum)
				|| (long double)acc > floorl(sum) + 1.0L)
			break;
	}
	ck_assert_uint_eq(i, 300000);
}
END_TEST

#define MP_WORKERS 4
#define MP_EACH 60000

struct shared_region
{
	struct ovc_acceptor acc;
	uint64_t got[MP_WORKERS];
};

START_TEST(test_multiprocess_exact)
{
	struct shared_region *r;
	pid_t pids[MP_WORKERS];
	uint64_t total = 0, fx, expect;
	int i, j, status;
	const double f = 0.3719;

	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(r, MAP_FAILED);
	ck_assert(atomic_is_lock_free(&r->acc.credit));
	ovc_acceptor_init(&r->acc, f);
	for(i = 0; i < MP_WORKERS; i++) {
		pids[i] = fork();
		ck_assert_int_ge(pids[i], 0);
		if(pids[i] == 0) {
			uint64_t n = 0;
			for(j = 0; j < MP_EACH; j++)
				n += (uint64_t)ovc_acceptor_take(&r->acc);
			r->got[i] = n;
			_exit(0);
		}
	}
	for(i = 0; i < MP_WORKERS; i++) {
		ck_assert_int_eq(waitpid(pids[i], &status, 0), pids[i]);
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		total += r->got[i];
	}
	/* Exactly what one sequence of N decisions gives. */
	fx = (uint64_t)ceil(f * 4294967296.0);
	expect = ((uint64_t)MP_WORKERS * MP_EACH * fx) >> 32;
	ck_assert_uint_eq(total, expect);
	ck_assert_uint_eq(atomic_load(&r->acc.accepted), expect);
	ck_assert_uint_eq(atomic_load(&r->acc.taken), MP_WORKERS * MP_EACH);
	ck_assert(fabs((double)total - f * MP_WORKERS * MP_EACH) <= 1.0);
	munmap(r, sizeof(*r));
}
END_TEST

Suite *make_suite_acceptor(void)
{
	Suite *s = suite_create("acceptor");
	TCase *tc = tcase_create("exact");
	TCase *mp = tcase_create("multiprocess");

	tcase_add_test(tc, test_exact_grid);
	tcase_add_test(tc, test_exact_special);
	tcase_add_test(tc, test_one_third_pattern);
	tcase_add_test(tc, test_limits_and_set);
	tcase_add_test(tc, test_changing_f_dyadic);
	tcase_add_test(tc, test_changing_f_any);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	tcase_add_test(mp, test_multiprocess_exact);
	tcase_set_timeout(mp, 30);
	suite_add_tcase(s, mp);
	return s;
}
