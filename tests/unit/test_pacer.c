/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/pacer.c: slots are spaced by the interval, a burst
 * goes at once after idle, idle time is not saved up beyond the burst,
 * unpaced takes never wait, a rate change applies from the next slot (no
 * slot is reserved beyond the caller's limit), and concurrent takers in
 * forked processes get distinct slots.
 */
#include <check.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovc/pacer.h"
#include "suites.h"

#define MS 1000000LL
/* no limit on how far a slot may be reserved */
#define NOLIM (1000000 * MS)

START_TEST(test_pacer_spacing)
{
	struct ovc_pacer p;
	int i;

	ovc_pacer_init(&p);
	/* 100/s, burst 1: the first at once, then 10 ms apart */
	ck_assert_int_eq(ovc_pacer_take(&p, 1000 * MS, 10 * MS, 1, NOLIM), 0);
	ck_assert_int_eq(ovc_pacer_take(&p, 1000 * MS, 10 * MS, 1, NOLIM), 10 * MS);
	ck_assert_int_eq(ovc_pacer_take(&p, 1000 * MS, 10 * MS, 1, NOLIM), 20 * MS);
	/* a caller that waited its turn takes the next slot */
	ck_assert_int_eq(ovc_pacer_take(&p, 1030 * MS, 10 * MS, 1, NOLIM), 0);
	ck_assert_int_eq(ovc_pacer_take(&p, 1030 * MS, 10 * MS, 1, NOLIM), 10 * MS);
	/* after a long idle spell, burst 5: five at once, then spaced */
	for(i = 0; i < 5; i++)
		ck_assert_int_eq(ovc_pacer_take(&p, 5000 * MS, 10 * MS, 5, NOLIM), 0);
	ck_assert_int_eq(ovc_pacer_take(&p, 5000 * MS, 10 * MS, 5, NOLIM), 10 * MS);
	/* burst 0 behaves as 1 */
	ck_assert_int_eq(ovc_pacer_take(&p, 9000 * MS, 10 * MS, 0, NOLIM), 0);
	ck_assert_int_eq(ovc_pacer_take(&p, 9000 * MS, 10 * MS, 0, NOLIM), 10 * MS);
}
END_TEST

START_TEST(test_pacer_unpaced_and_rate_change)
{
	struct ovc_pacer p;
	int i;

	ovc_pacer_init(&p);
	for(i = 0; i < 3; i++)
		ck_assert_int_eq(ovc_pacer_take(&p, 100 * MS, 50 * MS, 1, NOLIM),
				(ovc_time_ns)i * 50 * MS);
	/* unpaced: never waits, and forgets the debt */
	ck_assert_int_eq(ovc_pacer_take(&p, 100 * MS, 0, 1, NOLIM), 0);
	ck_assert_int_eq(ovc_pacer_take(&p, 100 * MS, -5, 1, NOLIM), 0);
	ck_assert_int_eq(ovc_pacer_take(&p, 100 * MS, 50 * MS, 1, NOLIM), 0);
	/* a faster rate applies from the next slot: one interval of the new
	 * rate after the last slot, not one of the old */
	ck_assert_int_eq(ovc_pacer_take(&p, 100 * MS, 1 * MS, 1, NOLIM), 1 * MS);
	ck_assert_int_eq(ovc_pacer_take(&p, 100 * MS, 1 * MS, 1, NOLIM), 2 * MS);
}
END_TEST

/* pi's drain goes from 1/s to 2800/s in one epoch (its queue loop leaving
 * an empty queue): four workers that took their slots at the slow rate
 * must not sleep for seconds while the queue fills (t_queue, 2026-11-25:
 * 3.5 s without a dequeue, the queue at its 800 and its expiry) */
START_TEST(test_pacer_slow_rate_reserves_nothing_far)
{
	struct ovc_pacer p;
	int i;

	ovc_pacer_init(&p);
	/* 1/s: the first slot at once; the next, a second later, is not
	 * reserved with a 10 ms limit, however many workers ask */
	ck_assert_int_eq(ovc_pacer_take(&p, 100 * MS, 1000 * MS, 1, 10 * MS), 0);
	for(i = 0; i < 3; i++)
		ck_assert_int_eq(ovc_pacer_take(&p, 100 * MS, 1000 * MS, 1, 10 * MS),
				1000 * MS);
	/* 2800/s 10 ms later: the next slot is due at once, then spaced */
	ck_assert_int_eq(ovc_pacer_take(&p, 110 * MS, 357143, 1, 10 * MS), 0);
	ck_assert_int_eq(
			ovc_pacer_take(&p, 110 * MS, 357143, 1, 10 * MS), 357143);
	/* a slot just within the limit is reserved, one beyond it is not */
	ovc_pacer_init(&p);
	ck_assert_int_eq(ovc_pacer_take(&p, 100 * MS, 10 * MS, 1, 10 * MS), 0);
	ck_assert_int_eq(
			ovc_pacer_take(&p, 100 * MS, 10 * MS, 1, 10 * MS), 10 * MS);
	ck_assert_int_eq(
			ovc_pacer_take(&p, 100 * MS, 10 * MS, 1, 10 * MS), 20 * MS);
	ck_assert_int_eq(
			ovc_pacer_take(&p, 110 * MS, 10 * MS, 1, 10 * MS), 10 * MS);
}
END_TEST

START_TEST(test_pacer_multiprocess)
{
	enum
	{
		PROCS = 4,
		TAKES = 5000
	};
	struct ovc_pacer *p;
	pid_t pids[PROCS];
	int i, st;

	p = mmap(NULL, sizeof(*p), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	ovc_pacer_init(p);
	for(i = 0; i < PROCS; i++) {
		pids[i] = fork();
		ck_assert_int_ge(pids[i], 0);
		if(pids[i] == 0) {
			int k;

			/* every take at the same instant: each must get its own
			 * slot, so the debt grows by exactly one interval per take */
			for(k = 0; k < TAKES; k++)
				ovc_pacer_take(p, 1000, 7, 1, NOLIM);
			_exit(0);
		}
	}
	for(i = 0; i < PROCS; i++) {
		ck_assert_int_eq(waitpid(pids[i], &st, 0), pids[i]);
		ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	ck_assert_int_eq(ovc_pacer_take(p, 1000, 7, 1, NOLIM), 7LL * PROCS * TAKES);
	munmap(p, sizeof(*p));
}
END_TEST

Suite *make_suite_pacer(void)
{
	Suite *s = suite_create("pacer");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_pacer_spacing);
	tcase_add_test(tc, test_pacer_unpaced_and_rate_change);
	tcase_add_test(tc, test_pacer_slow_rate_reserves_nothing_far);
	tcase_add_test(tc, test_pacer_multiprocess);
	suite_add_tcase(s, tc);
	return s;
}
