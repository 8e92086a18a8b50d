/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/agering.c: the age ring hands out the entries older
 * than a cutoff oldest first, passes deleted ones, never visits an entry
 * twice or after its delete, survives wrap-around and concurrent writers;
 * eq. 8-9 thresholds, age limits T B and the P_mem mapping.
 */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ovc/agering.h"
#include "suites.h"

static struct ovc_agering *ring(unsigned cap)
{
	size_t n = ovc_agering_size(cap);
	struct ovc_agering *r;

	ck_assert_uint_gt(n, 0);
	r = malloc(n);
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(ovc_agering_init(r, cap), OVC_OK);
	return r;
}

struct seen
{
	unsigned n;
	uint64_t cookie[4096];
	int64_t start[4096];
};

static void collect(uint64_t cookie, int64_t start_ms, void *arg)
{
	struct seen *s = arg;

	if(s->n < 4096) {
		s->cookie[s->n] = cookie;
		s->start[s->n] = start_ms;
	}
	s->n++;
}

START_TEST(test_agering_size)
{
	ck_assert_uint_eq(ovc_agering_size(0), 0);
	ck_assert_uint_eq(ovc_agering_size(1), 0);
	ck_assert_uint_eq(ovc_agering_size(3), 0);
	ck_assert_uint_eq(ovc_agering_size(100), 0);
	ck_assert_uint_gt(ovc_agering_size(64), 64 * 16);
	ck_assert_int_eq(ovc_agering_init(NULL, 64), OVC_EINVAL);
}
END_TEST

START_TEST(test_agering_expire_order)
{
	struct ovc_agering *r = ring(64);
	struct seen s;
	uint64_t tok[10];
	int i;

	for(i = 0; i < 10; i++) {
		tok[i] = ovc_agering_add(r, 1000 + 100 * i, 500 + i);
		ck_assert_uint_gt(tok[i], 0);
	}
	ck_assert_uint_eq(ovc_agering_span(r), 10);
	ovc_agering_del(r, tok[1]);
	ovc_agering_del(r, tok[3]);
	memset(&s, 0, sizeof(s));
	/* older than 1450: 1000, 1200, 1400 (1100 and 1300 are gone) */
	ck_assert_uint_eq(ovc_agering_expire(r, 1450, 100, collect, &s), 3);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_uint_eq(s.cookie[0], 500);
	ck_assert_uint_eq(s.cookie[1], 502);
	ck_assert_uint_eq(s.cookie[2], 504);
	ck_assert_int_eq(s.start[2], 1400);
	ck_assert_uint_eq(ovc_agering_span(r), 5);
	/* visited once only */
	memset(&s, 0, sizeof(s));
	ck_assert_uint_eq(ovc_agering_expire(r, 1450, 100, collect, &s), 0);
	/* max bounds one call */
	ck_assert_uint_eq(ovc_agering_expire(r, 5000, 2, collect, &s), 2);
	ck_assert_uint_eq(s.cookie[0], 505);
	ck_assert_uint_eq(s.cookie[1], 506);
	ck_assert_uint_eq(ovc_agering_expire(r, 5000, 100, collect, &s), 3);
	ck_assert_uint_eq(s.n, 5);
	ck_assert_uint_eq(ovc_agering_span(r), 0);
	/* a delete after the visit is harmless; token 0 too */
	ovc_agering_del(r, tok[9]);
	ovc_agering_del(r, 0);
	free(r);
}
END_TEST

START_TEST(test_agering_compact_and_young)
{
	struct ovc_agering *r = ring(8);
	struct seen s;
	uint64_t t1, t2;

	t1 = ovc_agering_add(r, 10, 1);
	t2 = ovc_agering_add(r, 20, 2);
	ovc_agering_add(r, 30, 3);
	ovc_agering_del(r, t1);
	ovc_agering_del(r, t2);
	memset(&s, 0, sizeof(s));
	/* cutoff below everything: passes the dead, stops at the young */
	ck_assert_uint_eq(ovc_agering_expire(r, INT64_MIN, 100, collect, &s), 0);
	ck_assert_uint_eq(ovc_agering_span(r), 1);
	ck_assert_uint_eq(s.n, 0);
	free(r);
}
END_TEST

START_TEST(test_agering_wrap_untracked)
{
	struct ovc_agering *r = ring(4);
	struct seen s;
	uint64_t tok[4];
	int i;

	for(i = 0; i < 4; i++)
		tok[i] = ovc_agering_add(r, i, i);
	/* the ring is full of live entries: the fifth is not tracked */
	ck_assert_uint_eq(ovc_agering_add(r, 4, 4), 0);
	ck_assert_uint_eq(atomic_load(&r->untracked), 1);
	/* its slot was the first's: free it, and the next add reuses one */
	ovc_agering_del(r, tok[0]);
	ovc_agering_del(r, tok[1]);
	ck_assert_uint_gt(ovc_agering_add(r, 6, 6), 0);
	memset(&s, 0, sizeof(s));
	/* position 5 was never filled and its slot is free now: the reaper
	 * cannot tell it from a writer about to fill it, waits a few calls */
	ck_assert_uint_eq(ovc_agering_expire(r, 100, 100, collect, &s), 2);
	for(i = 0; i < 5; i++)
		ovc_agering_expire(r, 100, 100, collect, &s);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_uint_eq(s.cookie[0], 2);
	ck_assert_uint_eq(s.cookie[1], 3);
	ck_assert_uint_eq(s.cookie[2], 6);
	/* the old token of a reused slot does nothing */
	ovc_agering_del(r, tok[1]);
	ck_assert_uint_eq(ovc_agering_span(r), 0);
	free(r);
}
END_TEST

START_TEST(test_agering_unfilled_slot_waits)
{
	struct ovc_agering *r = ring(8);
	struct seen s;
	int i;

	ovc_agering_add(r, 1, 1);
	/* a writer took position 2 and has not filled it yet */
	atomic_fetch_add(&r->head, 1);
	ovc_agering_add(r, 3, 3);
	memset(&s, 0, sizeof(s));
	ck_assert_uint_eq(ovc_agering_expire(r, 100, 100, collect, &s), 1);
	ck_assert_uint_eq(ovc_agering_span(r), 2); /* waits at position 2 */
	for(i = 0; i < 4; i++)
		ovc_agering_expire(r, 100, 100, collect, &s);
	/* after a few calls the unfilled slot is passed */
	ck_assert_uint_eq(s.n, 2);
	ck_assert_uint_eq(s.cookie[1], 3);
	ck_assert_uint_eq(ovc_agering_span(r), 0);
	free(r);
}
END_TEST

/* Writers add and delete concurrently while one reaper expires: every
 * visited cookie was live at the visit (the writer checks the flag it
 * sets before deleting and clears after). */
#define W_THREADS 4
#define W_OPS 20000

struct wstate
{
	struct ovc_agering *r;
	int id;
	_Atomic int *live; /* per cookie: 1 while added and not deleted */
};

static _Atomic int stop_reaper;
static _Atomic int bad_visit;
static _Atomic unsigned long visits;

static void check_visit(uint64_t cookie, int64_t start_ms, void *arg)
{
	_Atomic int *live = arg;

	if(atomic_load(&live[cookie]) != 1)
		atomic_store(&bad_visit, 1);
	atomic_fetch_add(&visits, 1);
}

static void *writer(void *p)
{
	struct wstate *w = p;
	uint64_t tok[8];
	int i, k;

	for(i = 0; i < W_OPS; i++) {
		uint64_t c = (uint64_t)w->id * W_OPS + i;

		k = i % 8;
		if(i >= 8) {
			uint64_t old = (uint64_t)w->id * W_OPS + i - 8;

			ovc_agering_del(w->r, tok[k]);
			atomic_store(&w->live[old], 0);
		}
		atomic_store(&w->live[c], 1);
		tok[k] = ovc_agering_add(w->r, i, c);
	}
	return NULL;
}

static void *reaper(void *p)
{
	struct wstate *w = p;

	while(!atomic_load(&stop_reaper))
		ovc_agering_expire(w->r, INT64_MAX, 64, check_visit, w->live);
	return NULL;
}

START_TEST(test_agering_concurrent)
{
	struct ovc_agering *r = ring(256);
	struct wstate ws[W_THREADS], rs;
	pthread_t th[W_THREADS], rt;
	_Atomic int *live = calloc(W_THREADS * W_OPS, sizeof(*live));
	int i;

	ck_assert_ptr_nonnull(live);
	atomic_store(&stop_reaper, 0);
	atomic_store(&bad_visit, 0);
	atomic_store(&visits, 0);
	rs.r = r;
	rs.live = live;
	pthread_create(&rt, NULL, reaper, &rs);
	for(i = 0; i < W_THREADS; i++) {
		ws[i].r = r;
		ws[i].id = i;
		ws[i].live = live;
		pthread_create(&th[i], NULL, writer, &ws[i]);
	}
	for(i = 0; i < W_THREADS; i++)
		pthread_join(th[i], NULL);
	/* the last 8 entries of each writer stay in the ring: the reaper
	 * visits them on its next pass, even when the writers were done
	 * before it first ran (a loaded machine, 2026-11-27); bounded at 10 s */
	for(i = 0; atomic_load(&visits) == 0 && i < 10000; i++)
		usleep(1000);
	atomic_store(&stop_reaper, 1);
	pthread_join(rt, NULL);
	ck_assert_int_eq(atomic_load(&bad_visit), 0);
	ck_assert_uint_gt(atomic_load(&visits), 0);
	free(live);
	free(r);
}
END_TEST

static void memctl_defaults(
		struct ovc_memctl_params *m, struct ovc_rsoca_params *r)
{
	memset(m, 0, sizeof(*m));
	m->source = OVC_MEM_TM;
	m->s = 8500;
	m->reap = 1;
	m->ti_ms = 10000;
	m->tr_ms = 4000;
	m->to_ms = 1000;
	m->b = 2;
	ovc_rsoca_defaults(r);
}

START_TEST(test_memctl_age_limit)
{
	struct ovc_memctl_params m;
	struct ovc_rsoca_params r;

	memctl_defaults(&m, &r);
	ck_assert_int_eq(ovc_memctl_age_limit_ms(&m, OVC_CLASS_INVITE), 20000);
	ck_assert_int_eq(ovc_memctl_age_limit_ms(&m, OVC_CLASS_REGISTER), 8000);
	ck_assert_int_eq(ovc_memctl_age_limit_ms(&m, OVC_CLASS_INDIALOG), 2000);
	ck_assert_int_eq(ovc_memctl_age_limit_ms(&m, OVC_CLASS_OTHER), 2000);
	ck_assert_int_eq(ovc_memctl_age_limit_ms(&m, OVC_CLASS_COUNT), -1);
	m.b = 1.5;
	ck_assert_int_eq(ovc_memctl_age_limit_ms(&m, OVC_CLASS_INVITE), 15000);
}
END_TEST

START_TEST(test_memctl_thresholds)
{
	struct ovc_memctl_params m;
	struct ovc_rsoca_params r;
	double lo = -1, hi = -1;

	memctl_defaults(&m, &r);
	/* 004 §IV-C: 8.5 KB, T_I 10 s, E_I 1000/s, B 2: 85 MB and 170 MB */
	ck_assert_int_eq(ovc_memctl_thresholds(&m, &r, OVC_MEM_TM, 0, &lo, &hi),
			OVC_OK);
	ck_assert_double_eq_tol(lo, 85e6, 1);
	ck_assert_double_eq_tol(hi, 170e6, 1);
	/* every class adds S E T */
	r.ed = 100;
	r.er = 10;
	r.eo = 50;
	ck_assert_int_eq(ovc_memctl_thresholds(&m, &r, OVC_MEM_TM, 0, &lo, &hi),
			OVC_OK);
	ck_assert_double_eq_tol(
			lo, 8500 * (1000 * 10 + 100 * 1 + 50 * 1 + 10 * 4), 1);
	/* shm: fractions of the total */
	ck_assert_int_eq(
			ovc_memctl_thresholds(&m, &r, OVC_MEM_SHM, 1e9, &lo, &hi),
			OVC_OK);
	ck_assert_double_eq_tol(lo, 0.8e9, 1);
	ck_assert_double_eq_tol(hi, 0.95e9, 1);
	lo = hi = -1;
	ck_assert_int_eq(ovc_memctl_thresholds(&m, &r, OVC_MEM_SHM, 0, &lo, &hi),
			OVC_ERANGE);
	ck_assert_double_eq(lo, -1); /* untouched on failure */
	/* explicit bytes win for every source */
	m.mmin_bytes = 1000;
	m.mmax_bytes = 3000;
	ck_assert_int_eq(ovc_memctl_thresholds(&m, &r, OVC_MEM_TM, 0, &lo, &hi),
			OVC_OK);
	ck_assert_double_eq(lo, 1000);
	ck_assert_double_eq(hi, 3000);
	ck_assert_int_eq(
			ovc_memctl_thresholds(&m, &r, OVC_MEM_SHM, 1e9, &lo, &hi),
			OVC_OK);
	ck_assert_double_eq(hi, 3000);
	/* one alone: the other by eq. 9 */
	m.mmax_bytes = 0;
	ck_assert_int_eq(ovc_memctl_thresholds(&m, &r, OVC_MEM_TM, 0, &lo, &hi),
			OVC_OK);
	ck_assert_double_eq(lo, 1000);
	ck_assert_double_eq(hi, 2000);
	m.mmin_bytes = 0;
	m.mmax_bytes = 3000;
	ck_assert_int_eq(ovc_memctl_thresholds(&m, &r, OVC_MEM_SHM, 1e9, &lo, &hi),
			OVC_OK);
	ck_assert_double_eq(lo, 1500);
	ck_assert_double_eq(hi, 3000);
	m.mmin_bytes = 1000;
	m.mmax_bytes = 500; /* not increasing */
	ck_assert_int_eq(ovc_memctl_thresholds(&m, &r, OVC_MEM_TM, 0, &lo, &hi),
			OVC_ERANGE);
	/* no engineered traffic: eq. 8 gives 0, refused */
	m.mmin_bytes = m.mmax_bytes = 0;
	r.ei = r.ed = r.er = r.eo = 0;
	ck_assert_int_eq(ovc_memctl_thresholds(&m, &r, OVC_MEM_TM, 0, &lo, &hi),
			OVC_ERANGE);
	ck_assert_int_eq(ovc_memctl_thresholds(NULL, &r, OVC_MEM_TM, 0, &lo, &hi),
			OVC_EINVAL);
}
END_TEST

START_TEST(test_memctl_fraction)
{
	double f;

	/* below M_min: under the controller's fmin, proportional */
	ck_assert_double_eq_tol(
			ovc_memctl_fraction(50, 100, 200, 0.8, 0.95), 0.4, 1e-12);
	ck_assert_double_eq_tol(
			ovc_memctl_fraction(100, 100, 200, 0.8, 0.95), 0.8, 1e-12);
	ck_assert_double_eq(ovc_memctl_fraction(0, 100, 200, 0.8, 0.95), 0);
	/* the ramp over fractions equals the ramp over bytes (eq. 1) */
	f = ovc_memctl_fraction(125, 100, 200, 0.8, 0.95);
	ck_assert_double_eq_tol(ovc_rsoca_ramp(f, 0.8, 0.95), 0.25, 1e-9);
	f = ovc_memctl_fraction(190, 100, 200, 0.5, 0.7);
	ck_assert_double_eq_tol(ovc_rsoca_ramp(f, 0.5, 0.7), 0.9, 1e-9);
	ck_assert_double_eq(ovc_memctl_fraction(200, 100, 200, 0.8, 0.95), 1);
	ck_assert_double_eq(ovc_memctl_fraction(1e9, 100, 200, 0.8, 0.95), 1);
	/* bad thresholds or input: no memory pressure */
	ck_assert_double_eq(ovc_memctl_fraction(150, 0, 200, 0.8, 0.95), 0);
	ck_assert_double_eq(ovc_memctl_fraction(150, 200, 200, 0.8, 0.95), 0);
	ck_assert_double_eq(ovc_memctl_fraction(NAN, 100, 200, 0.8, 0.95), 0);
}
END_TEST

Suite *make_suite_agering(void)
{
	Suite *s = suite_create("agering");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_agering_size);
	tcase_add_test(tc, test_agering_expire_order);
	tcase_add_test(tc, test_agering_compact_and_young);
	tcase_add_test(tc, test_agering_wrap_untracked);
	tcase_add_test(tc, test_agering_unfilled_slot_waits);
	tcase_add_test(tc, test_agering_concurrent);
	tcase_add_test(tc, test_memctl_age_limit);
	tcase_add_test(tc, test_memctl_thresholds);
	tcase_add_test(tc, test_memctl_fraction);
	suite_add_tcase(s, tc);
	return s;
}
