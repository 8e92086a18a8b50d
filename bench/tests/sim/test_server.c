/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim tests - the processor under a CPU quota (server.c): CFS
 * throttling on a bare world (no SIP: the hooks are unset). With a quota
 * Q of a period P the processor serves at most P of occupancy per period,
 * at 1/Q the speed, and is stalled from the budget's exhaustion to the
 * period's end; without one a service takes its own length.
 */
#include <string.h>

#include "server.h"
#include "suites.h"

#define MS OVC_NS_PER_MS

/* A bare world with one message type of svc ns and quota q of 100 ms. */
static void bare(struct sim_world *w, int64_t svc, double q)
{
	memset(w, 0, sizeof(*w));
	ck_assert_int_eq(sim_evq_init(&w->q), 0);
	w->svc_ns[M_T_CLEAN] = svc;
	if(q > 0) {
		w->quota = q;
		w->q_period_ns = 100 * MS;
	}
}

/* Serves the next EV_DONE; returns its time. */
static int64_t done(struct sim_world *w)
{
	struct sim_ev e;

	ck_assert_int_eq(sim_evq_pop(&w->q, &e), 0);
	ck_assert_int_eq(e.type, EV_DONE);
	w->now = e.t;
	sim_proc_done(w);
	return e.t;
}

START_TEST(test_quota_stall)
{
	static struct sim_world w;

	/* 150 ms of occupancy at Q 0.2: 20 ms run (100 of occupancy), the
	 * stall to 100 ms, 10 ms run: done at 110 ms */
	bare(&w, 150 * MS, 0.2);
	ck_assert(sim_proc_enqueue(&w, P_TIMER, M_T_CLEAN, 0, 0, 1));
	ck_assert_int_eq(done(&w), 110 * MS);
	ck_assert_int_eq(sim_busy_total(&w), 150 * MS);
	/* the next one finds 50 ms of budget: 10 ms run, the stall to 200
	 * ms, 20 ms run */
	ck_assert(sim_proc_enqueue(&w, P_TIMER, M_T_CLEAN, 0, 0, 1));
	ck_assert_int_eq(done(&w), 220 * MS);
	/* one started at 290 ms finds that period's budget spent: the stall
	 * to 300 ms, 20 ms run, the stall to 400 ms, 10 ms run */
	w.now = 290 * MS;
	ck_assert(sim_proc_enqueue(&w, P_TIMER, M_T_CLEAN, 0, 0, 1));
	ck_assert_int_eq(done(&w), 410 * MS);
	sim_evq_free(&w.q);

	/* one started at 95 ms with the whole budget straddles the period's
	 * end: 5 ms run (25), a new budget at 100 ms: 20 ms run (100), the
	 * stall to 200 ms, 5 ms run (25) */
	bare(&w, 150 * MS, 0.2);
	w.now = 95 * MS;
	ck_assert(sim_proc_enqueue(&w, P_TIMER, M_T_CLEAN, 0, 0, 1));
	ck_assert_int_eq(done(&w), 205 * MS);
	sim_evq_free(&w.q);

	bare(&w, 150 * MS, 0);
	ck_assert(sim_proc_enqueue(&w, P_TIMER, M_T_CLEAN, 0, 0, 1));
	ck_assert_int_eq(done(&w), 150 * MS);
	sim_evq_free(&w.q);
}
END_TEST

Suite *make_suite_server(void)
{
	Suite *s = suite_create("server");
	TCase *tc = tcase_create("quota");

	tcase_add_test(tc, test_quota_stall);
	suite_add_tcase(s, tc);
	return s;
}
