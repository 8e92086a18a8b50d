/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim tests - event queue: time order, FIFO among equal times, empty.
 */
#include "evq.h"
#include "rng.h"
#include "suites.h"

START_TEST(test_evq_empty)
{
	struct sim_evq q;
	struct sim_ev e;

	sim_evq_init(&q);
	ck_assert_int_eq(sim_evq_pop(&q, &e), -1);
	ck_assert(sim_evq_next_t(&q) == INT64_MAX);
	sim_evq_free(&q);
}
END_TEST

START_TEST(test_evq_order)
{
	struct sim_evq q;
	struct sim_ev e;
	int64_t ts[] = {50, 10, 40, 10, 30, 20, 10, 0};
	/* expected (t, obj): ties in insertion order */
	int64_t et[] = {0, 10, 10, 10, 20, 30, 40, 50};
	uint32_t eo[] = {7, 1, 3, 6, 5, 4, 2, 0};
	unsigned i;

	sim_evq_init(&q);
	for(i = 0; i < 8; i++)
		ck_assert_int_eq(sim_evq_push(&q, ts[i], 1, i, 0), 0);
	ck_assert(sim_evq_next_t(&q) == 0);
	for(i = 0; i < 8; i++) {
		ck_assert_int_eq(sim_evq_pop(&q, &e), 0);
		ck_assert_int_eq(e.t, et[i]);
		ck_assert_uint_eq(e.obj, eo[i]);
	}
	ck_assert_int_eq(sim_evq_pop(&q, &e), -1);
	sim_evq_free(&q);
}
END_TEST

/* 100000 random events come out sorted by (t, insertion order). */
START_TEST(test_evq_random)
{
	struct sim_evq q;
	struct sim_rng r;
	struct sim_ev e, prev = {0};
	uint32_t i;

	sim_rng_seed(&r, 42);
	sim_evq_init(&q);
	for(i = 0; i < 100000; i++)
		sim_evq_push(&q, (int64_t)(sim_rng_next(&r) % 1000), 0, i, 0);
	for(i = 0; i < 100000; i++) {
		ck_assert_int_eq(sim_evq_pop(&q, &e), 0);
		if(i) {
			ck_assert(e.t >= prev.t);
			if(e.t == prev.t)
				ck_assert(e.obj > prev.obj);
		}
		prev = e;
	}
	ck_assert_int_eq(sim_evq_pop(&q, &e), -1);
	sim_evq_free(&q);
}
END_TEST

/* Interleaved push/pop keeps the order (pushes never go back in time). */
START_TEST(test_evq_interleaved)
{
	struct sim_evq q;
	struct sim_ev e;
	int64_t now = 0;
	int i;

	sim_evq_init(&q);
	sim_evq_push(&q, 5, 0, 0, 0);
	for(i = 0; i < 1000; i++) {
		ck_assert_int_eq(sim_evq_pop(&q, &e), 0);
		ck_assert(e.t >= now);
		now = e.t;
		sim_evq_push(&q, now + (i % 7), 0, (uint32_t)i, 0);
		sim_evq_push(&q, now + 3, 0, (uint32_t)i, 0);
	}
	sim_evq_free(&q);
}
END_TEST

Suite *make_suite_evq(void)
{
	Suite *s = suite_create("evq");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_evq_empty);
	tcase_add_test(tc, test_evq_order);
	tcase_add_test(tc, test_evq_random);
	tcase_add_test(tc, test_evq_interleaved);
	suite_add_tcase(s, tc);
	return s;
}
