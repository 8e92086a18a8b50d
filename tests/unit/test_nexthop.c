/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/nexthop.c: entries found and claimed once per key,
 * the table's limits, feedback taken in oc-seq order for its validity,
 * the acceptor's exact share, the per-second refusals, the packed
 * (oc-seq, reduction) word and the server's announcements, the listing
 * view, one oc-seq ordering values only while it holds, a full table
 * evicting its stalest entry not in use, idle entries expiring, keys
 * coming and going against a model, and threads creating and admitting
 * at once, and taking feedback while others read it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovc/nexthop.h"
#include "ovc/types.h"
#include "suites.h"

#define MS OVC_NS_PER_MS
#define T0 (1000 * OVC_NS_PER_S) /* an arbitrary monotonic start */

static struct ovc_nh_table *table_new(void)
{
	struct ovc_nh_table *t = malloc(sizeof(*t));

	ck_assert_ptr_nonnull(t);
	ovc_nh_init(t);
	return t;
}

static struct ovc_nexthop *get(struct ovc_nh_table *t, const char *k, int c)
{
	return ovc_nh_get(t, k, strlen(k), c, T0);
}

/* A loss value as ovc_oc_read_top_via() leaves it (validity_ms -1:
 * absent; seq 0: absent). */
static struct ovc_oc_via loss(int value, int64_t validity_ms, uint64_t seq)
{
	struct ovc_oc_via oc;

	oc.oc = 1;
	oc.value = value;
	oc.algos = OVC_OC_ALGO_LOSS;
	oc.validity_ms = validity_ms;
	oc.seq = seq;
	return oc;
}

static int feed(struct ovc_nexthop *h, int value, int64_t validity_ms,
		uint64_t seq, ovc_time_ns now)
{
	struct ovc_oc_via oc = loss(value, validity_ms, seq);

	return ovc_nh_feedback(h, &oc, now);
}

START_TEST(test_create_find)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *a, *b;

	ck_assert_uint_eq(ovc_nh_count(t), 0);
	ck_assert_ptr_null(get(t, "udp:192.0.2.7:5060", 0));
	a = get(t, "udp:192.0.2.7:5060", 1);
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a->key, "udp:192.0.2.7:5060");
	ck_assert_uint_eq(a->key_len, 18);
	ck_assert_ptr_eq(get(t, "udp:192.0.2.7:5060", 0), a);
	ck_assert_ptr_eq(get(t, "udp:192.0.2.7:5060", 1), a);
	b = get(t, "udp:192.0.2.8:5060", 1);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_ne(a, b);
	ck_assert_uint_eq(ovc_nh_count(t), 2);
	/* a prefix is another key */
	ck_assert_ptr_null(get(t, "udp:192.0.2.7:506", 0));
	/* a fresh entry: nothing heard, nothing in force, everything passes */
	ck_assert_uint_eq(ovc_nh_packed_seq(atomic_load(&a->fb)), 0);
	ck_assert_int_eq(atomic_load(&a->heard_ns), T0); /* its creation */
	ck_assert_double_eq(ovc_nh_reduction(a, T0), 0.0);
	ck_assert_int_eq(ovc_nh_admit(a, T0), 1);
	ck_assert_uint_eq(atomic_load(&a->passed), 1);
	/* listing: both, in some order */
	ck_assert(ovc_nh_at(t, 0) == a || ovc_nh_at(t, 0) == b);
	ck_assert(ovc_nh_at(t, 1) == a || ovc_nh_at(t, 1) == b);
	ck_assert_ptr_ne(ovc_nh_at(t, 0), ovc_nh_at(t, 1));
	ck_assert_ptr_null(ovc_nh_at(t, 2));
	free(t);
}
END_TEST

START_TEST(test_key_limits)
{
	struct ovc_nh_table *t = table_new();
	char key[OVC_NH_KEY_MAX + 1];
	struct ovc_nexthop *h;

	memset(key, 'k', sizeof(key));
	ck_assert_ptr_null(ovc_nh_get(t, key, 0, 1, T0));
	ck_assert_ptr_null(ovc_nh_get(t, NULL, 3, 1, T0));
	ck_assert_ptr_null(ovc_nh_get(NULL, key, 3, 1, T0));
	ck_assert_ptr_null(ovc_nh_get(t, key, OVC_NH_KEY_MAX, 1, T0));
	ck_assert_ptr_null(ovc_nh_get(t, key, OVC_NH_KEY_MAX + 1, 1, T0));
	ck_assert_uint_eq(ovc_nh_count(t), 0);
	h = ovc_nh_get(t, key, OVC_NH_KEY_MAX - 1, 1, T0);
	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(h->key_len, OVC_NH_KEY_MAX - 1);
	ck_assert_uint_eq(strlen(h->key), OVC_NH_KEY_MAX - 1);
	ck_assert_ptr_eq(ovc_nh_get(t, key, OVC_NH_KEY_MAX - 1, 0, T0), h);
	free(t);
}
END_TEST

START_TEST(test_full)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *h[OVC_NH_MAX];
	char k[32];
	unsigned i, j;

	for(i = 0; i < OVC_NH_MAX; i++) {
		snprintf(k, sizeof(k), "udp:10.0.%u.%u:5060", i / 256, i % 256);
		h[i] = get(t, k, 1);
		ck_assert_ptr_nonnull(h[i]);
		for(j = 0; j < i; j++)
			ck_assert_ptr_ne(h[i], h[j]);
	}
	ck_assert_uint_eq(ovc_nh_count(t), OVC_NH_MAX);
	ck_assert_ptr_null(get(t, "udp:192.0.2.1:5060", 1));
	ck_assert_ptr_null(get(t, "udp:192.0.2.1:5060", 0));
	ck_assert_uint_eq(ovc_nh_count(t), OVC_NH_MAX);
	for(i = 0; i < OVC_NH_MAX; i++) {
		snprintf(k, sizeof(k), "udp:10.0.%u.%u:5060", i / 256, i % 256);
		ck_assert_ptr_eq(get(t, k, 0), h[i]);
		ck_assert_ptr_eq(get(t, k, 1), h[i]);
		ck_assert_ptr_nonnull(ovc_nh_at(t, i));
	}
	ck_assert_ptr_null(ovc_nh_at(t, OVC_NH_MAX));
	free(t);
}
END_TEST

START_TEST(test_feedback_order)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *h = get(t, "udp:192.0.2.7:5060", 1);
	ovc_time_ns now = T0;

	ck_assert_int_eq(feed(h, 20, 1000, 500, now), 1);
	ck_assert_double_eq_tol(ovc_nh_reduction(h, now), 0.20, 1e-12);
	ck_assert_uint_eq(ovc_nh_packed_seq(atomic_load(&h->fb)), 500);
	ck_assert_int_eq(atomic_load(&h->heard_ns), now);
	/* an older sequence is ignored */
	ck_assert_int_eq(feed(h, 50, 1000, 499, now + MS), 0);
	ck_assert_double_eq_tol(ovc_nh_reduction(h, now + MS), 0.20, 1e-12);
	ck_assert_int_eq(atomic_load(&h->heard_ns), now);
	/* a value without oc-seq once one had it: older */
	ck_assert_int_eq(feed(h, 50, 1000, 0, now + MS), 0);
	/* the same sequence is taken: a repeat refreshes the validity, a
	 * server counting whole seconds announces several values with one */
	ck_assert_int_eq(feed(h, 20, 1000, 500, now + MS), 1);
	ck_assert_int_eq(atomic_load(&h->heard_ns), now + MS);
	ck_assert_double_eq_tol(
			ovc_nh_reduction(h, now + 1000 * MS), 0.20, 1e-12);
	/* newer is taken */
	ck_assert_int_eq(feed(h, 50, 1000, 501, now + 2 * MS), 1);
	ck_assert_double_eq_tol(ovc_nh_reduction(h, now + 2 * MS), 0.5, 1e-12);
	ck_assert_uint_eq(atomic_load(&h->feedbacks), 3);
	ck_assert_int_eq(atomic_load(&h->heard_ns), now + 2 * MS);
	ck_assert_double_eq_tol(ovc_acceptor_get(&h->acc), 0.5, 1e-9);
	free(t);
}
END_TEST

START_TEST(test_feedback_no_seq)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *h = get(t, "a", 1);

	/* neither has a sequence: every value is taken */
	ck_assert_int_eq(feed(h, 10, -1, 0, T0), 1);
	ck_assert_int_eq(feed(h, 40, -1, 0, T0 + MS), 1);
	ck_assert_double_eq_tol(ovc_nh_reduction(h, T0 + MS), 0.4, 1e-12);
	/* then one with a sequence, after which seq-less ones are older */
	ck_assert_int_eq(feed(h, 30, -1, 7, T0 + 2 * MS), 1);
	ck_assert_int_eq(feed(h, 60, -1, 0, T0 + 3 * MS), 0);
	ck_assert_double_eq_tol(ovc_nh_reduction(h, T0 + 3 * MS), 0.3, 1e-12);
	free(t);
}
END_TEST

START_TEST(test_feedback_ignored)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *h = get(t, "a", 1);
	struct ovc_oc_via oc;

	/* an offer (no value), a malformed one, another algorithm */
	ck_assert_int_eq(feed(h, -1, 1000, 1, T0), 0);
	ck_assert_int_eq(feed(h, 101, 1000, 1, T0), 0);
	oc = loss(30, 1000, 1);
	oc.algos = OVC_OC_ALGO_OTHER;
	ck_assert_int_eq(ovc_nh_feedback(h, &oc, T0), 0);
	ck_assert_int_eq(ovc_nh_feedback(h, NULL, T0), 0);
	ck_assert_int_eq(ovc_nh_feedback(NULL, &oc, T0), 0);
	ck_assert_uint_eq(ovc_nh_packed_seq(atomic_load(&h->fb)), 0);
	ck_assert_uint_eq(atomic_load(&h->feedbacks), 0);
	ck_assert_double_eq(ovc_nh_reduction(h, T0), 0.0);
	/* oc-algo absent: loss, the mandatory one */
	oc.algos = 0;
	ck_assert_int_eq(ovc_nh_feedback(h, &oc, T0), 1);
	ck_assert_double_eq_tol(ovc_nh_reduction(h, T0), 0.3, 1e-12);
	free(t);
}
END_TEST

START_TEST(test_validity)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *h = get(t, "a", 1);
	ovc_time_ns end;

	/* 800 ms: in force until then, lapsed at it */
	ck_assert_int_eq(feed(h, 25, 800, 1, T0), 1);
	ck_assert_double_eq_tol(
			ovc_nh_reduction(h, T0 + 800 * MS - 1), 0.25, 1e-12);
	ck_assert_double_eq(ovc_nh_reduction(h, T0 + 800 * MS), 0.0);
	ck_assert_int_eq(ovc_nh_admit(h, T0 + 800 * MS), 1);
	/* absent: OVC_OC_VALIDITY_DEFAULT_MS */
	ck_assert_int_eq(feed(h, 25, -1, 2, T0 + OVC_NS_PER_S), 1);
	end = T0 + OVC_NS_PER_S + OVC_OC_VALIDITY_DEFAULT_MS * MS;
	ck_assert_double_eq_tol(ovc_nh_reduction(h, end - 1), 0.25, 1e-12);
	ck_assert_double_eq(ovc_nh_reduction(h, end), 0.0);
	/* 0 ends it at once, even one that had long to run */
	ck_assert_int_eq(feed(h, 40, 60000, 3, T0 + 2 * OVC_NS_PER_S), 1);
	ck_assert_double_eq_tol(
			ovc_nh_reduction(h, T0 + 2 * OVC_NS_PER_S), 0.4, 1e-12);
	ck_assert_int_eq(feed(h, 40, 0, 4, T0 + 2 * OVC_NS_PER_S + MS), 1);
	ck_assert_double_eq(ovc_nh_reduction(h, T0 + 2 * OVC_NS_PER_S + MS), 0.0);
	ck_assert_int_eq(ovc_nh_admit(h, T0 + 2 * OVC_NS_PER_S + MS), 1);
	/* a huge validity holds OVC_OC_VALIDITY_MAX_MS, no longer */
	ck_assert_int_eq(feed(h, 10, INT64_MAX, 5, T0), 1);
	end = T0 + OVC_OC_VALIDITY_MAX_MS * MS;
	ck_assert_double_eq_tol(ovc_nh_reduction(h, end - 1), 0.1, 1e-12);
	ck_assert_double_eq(ovc_nh_reduction(h, end), 0.0);
	free(t);
}
END_TEST

START_TEST(test_admit_exact)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *h = get(t, "a", 1);
	unsigned i, pass = 0;

	ck_assert_int_eq(feed(h, 30, 10000, 1, T0), 1);
	for(i = 0; i < 1000; i++)
		pass += (unsigned)ovc_nh_admit(h, T0 + i * MS);
	ck_assert_msg(pass >= 699 && pass <= 701, "%u passed", pass);
	ck_assert_uint_eq(atomic_load(&h->passed), pass);
	ck_assert_uint_eq(atomic_load(&h->refused), 1000 - pass);
	/* reduction 100 refuses everything, 0 nothing */
	ck_assert_int_eq(feed(h, 100, 10000, 2, T0), 1);
	for(i = 0; i < 100; i++)
		ck_assert_int_eq(ovc_nh_admit(h, T0), 0);
	ck_assert_int_eq(feed(h, 0, 10000, 3, T0), 1);
	for(i = 0; i < 100; i++)
		ck_assert_int_eq(ovc_nh_admit(h, T0), 1);
	ck_assert_int_eq(ovc_nh_admit(NULL, T0), 1);
	free(t);
}
END_TEST

START_TEST(test_max_reduction)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *a = get(t, "a", 1), *b = get(t, "b", 1);
	struct ovc_nexthop *c = get(t, "c", 1);

	ck_assert_double_eq(ovc_nh_max_reduction(t, T0), 0.0);
	ck_assert_int_eq(feed(a, 70, 100, 1, T0), 1); /* lapses first */
	ck_assert_int_eq(feed(b, 40, 1000, 1, T0), 1);
	ck_assert_int_eq(feed(c, 20, 1000, 1, T0), 1);
	ck_assert_double_eq_tol(ovc_nh_max_reduction(t, T0), 0.7, 1e-12);
	ck_assert_double_eq_tol(ovc_nh_max_reduction(t, T0 + 100 * MS), 0.4, 1e-12);
	ck_assert_double_eq(ovc_nh_max_reduction(t, T0 + 1000 * MS), 0.0);
	ck_assert_double_eq(ovc_nh_max_reduction(NULL, T0), 0.0);
	free(t);
}
END_TEST

/* n initial requests routed to h (NULL: a next hop without an entry) */
static void route(struct ovc_nh_table *t, struct ovc_nexthop *h, unsigned n)
{
	while(n-- > 0)
		ovc_nh_routed(t, h);
}

START_TEST(test_path_reduction)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *a = get(t, "a", 1), *b = get(t, "b", 1);

	ck_assert_int_eq(feed(a, 60, 1000, 1, T0), 1);
	ck_assert_int_eq(feed(b, 0, 1000, 1, T0), 1);
	/* nothing routed yet: the largest in force */
	ck_assert_double_eq_tol(ovc_nh_path_reduction(t, T0), 0.6, 1e-12);
	/* a quarter of the calls to a (60 %), the rest to b (0 %) */
	route(t, a, 25);
	route(t, b, 75);
	ck_assert_double_eq_tol(ovc_nh_path_reduction(t, T0), 0.6, 1e-12);
	ovc_nh_second(t);
	ck_assert_uint_eq(atomic_load(&t->routed_1s), 100);
	ck_assert_uint_eq(atomic_load(&a->routed_1s), 25);
	ck_assert_double_eq_tol(ovc_nh_path_reduction(t, T0), 0.15, 1e-12);
	/* a next hop without an entry weighs with 0 */
	route(t, a, 25);
	route(t, b, 25);
	route(t, NULL, 50);
	ovc_nh_second(t);
	ck_assert_double_eq_tol(ovc_nh_path_reduction(t, T0), 0.15, 1e-12);
	/* all to a: its reduction; once it lapses, none */
	route(t, a, 10);
	ovc_nh_second(t);
	ck_assert_double_eq_tol(ovc_nh_path_reduction(t, T0), 0.6, 1e-12);
	ck_assert_double_eq(ovc_nh_path_reduction(t, T0 + 1000 * MS), 0.0);
	/* a second with nothing routed: the largest in force again */
	ovc_nh_second(t);
	ck_assert_uint_eq(atomic_load(&t->routed_1s), 0);
	ck_assert_double_eq_tol(ovc_nh_path_reduction(t, T0), 0.6, 1e-12);
	/* an entry counted ahead of the table: at most 100 % */
	ck_assert_int_eq(feed(a, 100, 1000, 2, T0), 1);
	route(t, a, 3);
	atomic_store(&t->routed, atomic_load(&t->routed) - 2);
	ovc_nh_second(t);
	ck_assert_double_eq(ovc_nh_path_reduction(t, T0), 1.0);
	ck_assert_double_eq(ovc_nh_path_reduction(NULL, T0), 0.0);
	ovc_nh_routed(NULL, a); /* ignored */
	free(t);
}
END_TEST

START_TEST(test_second)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *h = get(t, "a", 1), *g = get(t, "b", 1);
	unsigned i;

	ck_assert_int_eq(feed(h, 100, 60000, 1, T0), 1);
	for(i = 0; i < 37; i++)
		ovc_nh_admit(h, T0);
	ovc_nh_second(t);
	ck_assert_uint_eq(atomic_load(&h->refused_1s), 37);
	ck_assert_uint_eq(atomic_load(&g->refused_1s), 0);
	for(i = 0; i < 5; i++)
		ovc_nh_admit(h, T0 + OVC_NS_PER_S);
	ovc_nh_second(t);
	ck_assert_uint_eq(atomic_load(&h->refused_1s), 5);
	ovc_nh_second(t);
	ck_assert_uint_eq(atomic_load(&h->refused_1s), 0);
	ck_assert_uint_eq(atomic_load(&h->refused), 42);
	free(t);
}
END_TEST

/* oc-seq and reduction in one word, both ways, to the largest oc-seq. */
START_TEST(test_pack)
{
	uint64_t big = UINT64_C(999999999999) * OVC_OC_SEQ_FRAC + 99999;
	uint64_t w;
	unsigned r;

	ck_assert_uint_eq(ovc_nh_pack(0, 0), 0);
	for(r = 0; r <= 100; r++) {
		w = ovc_nh_pack(big, r);
		ck_assert_uint_eq(ovc_nh_packed_seq(w), big);
		ck_assert_uint_eq(ovc_nh_packed_reduction(w), r);
		w = ovc_nh_pack(1282321615ULL * OVC_OC_SEQ_FRAC + 78200, r);
		ck_assert_uint_eq(
				ovc_nh_packed_seq(w), 1282321615ULL * OVC_OC_SEQ_FRAC + 78200);
		ck_assert_uint_eq(ovc_nh_packed_reduction(w), r);
	}
	w = ovc_nh_pack(OVC_NH_SEQ_MAX, 100);
	ck_assert_uint_eq(ovc_nh_packed_seq(w), OVC_NH_SEQ_MAX);
	ck_assert_uint_eq(ovc_nh_packed_reduction(w), 100);
	/* a larger seq orders the words the same way */
	ck_assert(ovc_nh_pack(8, 0) > ovc_nh_pack(7, 100));
}
END_TEST

/* The server's next announcement: the clock's oc-seq, or one past the
 * last when the clock did not move past it; the reduction with it. */
START_TEST(test_announce_next)
{
	uint64_t w;

	w = ovc_nh_announce_next(0, 500, 30);
	ck_assert_uint_eq(ovc_nh_packed_seq(w), 500);
	ck_assert_uint_eq(ovc_nh_packed_reduction(w), 30);
	w = ovc_nh_announce_next(w, 900, 45);
	ck_assert_uint_eq(ovc_nh_packed_seq(w), 900);
	ck_assert_uint_eq(ovc_nh_packed_reduction(w), 45);
	/* the same instant, or a clock stepped back: still newer */
	w = ovc_nh_announce_next(w, 900, 45);
	ck_assert_uint_eq(ovc_nh_packed_seq(w), 901);
	w = ovc_nh_announce_next(w, 100, 0);
	ck_assert_uint_eq(ovc_nh_packed_seq(w), 902);
	ck_assert_uint_eq(ovc_nh_packed_reduction(w), 0);
	/* over 100 is 100 */
	w = ovc_nh_announce_next(w, 1000, 130);
	ck_assert_uint_eq(ovc_nh_packed_reduction(w), 100);
	/* the end of the range stays there */
	w = ovc_nh_announce_next(ovc_nh_pack(OVC_NH_SEQ_MAX, 3), 5, 4);
	ck_assert_uint_eq(ovc_nh_packed_seq(w), OVC_NH_SEQ_MAX);
	ck_assert_uint_eq(ovc_nh_packed_reduction(w), 4);
}
END_TEST

/* An oc-seq past what the packed word holds is ignored, the largest one
 * is taken; a newer feedback heard earlier (another process's clock read
 * first) leaves heard_ns at the latest. */
START_TEST(test_feedback_seq_range)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *h = get(t, "a", 1);

	ck_assert_int_eq(feed(h, 30, 1000, OVC_NH_SEQ_MAX + 1, T0), 0);
	ck_assert_uint_eq(atomic_load(&h->fb), 0);
	ck_assert_int_eq(feed(h, 30, 1000, 5, T0 + 10 * MS), 1);
	ck_assert_int_eq(feed(h, 35, 1000, 6, T0 + 5 * MS), 1);
	ck_assert_int_eq(atomic_load(&h->heard_ns), T0 + 10 * MS);
	/* its validity from its own time */
	ck_assert_double_eq_tol(
			ovc_nh_reduction(h, T0 + 1005 * MS - 1), 0.35, 1e-12);
	ck_assert_double_eq(ovc_nh_reduction(h, T0 + 1005 * MS), 0.0);
	ck_assert_int_eq(feed(h, 40, 1000, OVC_NH_SEQ_MAX, T0), 1);
	ck_assert_uint_eq(ovc_nh_packed_seq(atomic_load(&h->fb)), OVC_NH_SEQ_MAX);
	ck_assert_uint_eq(ovc_nh_packed_reduction(atomic_load(&h->fb)), 40);
	free(t);
}
END_TEST

/* Validity to the ms, never longer: heard mid-millisecond, a value lapses
 * at most 1 ms early. */
START_TEST(test_validity_ms)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *h = get(t, "a", 1);
	ovc_time_ns at = T0 + MS / 2;

	ck_assert_int_eq(feed(h, 25, 800, 1, at), 1);
	ck_assert_double_eq_tol(
			ovc_nh_reduction(h, T0 + 800 * MS - 1), 0.25, 1e-12);
	ck_assert_double_eq(ovc_nh_reduction(h, T0 + 800 * MS), 0.0);
	/* validity 0 mid-millisecond ends it at once too */
	ck_assert_int_eq(feed(h, 25, 800, 2, at), 1);
	ck_assert_int_eq(feed(h, 25, 0, 3, at + 1), 1);
	ck_assert_double_eq(ovc_nh_reduction(h, at + 1), 0.0);
	free(t);
}
END_TEST

/* One oc-seq, however large (a forged or a restarted server's), orders
 * the next hop's values only while its own holds: at most
 * OVC_OC_VALIDITY_MAX_MS, after which any sequence is taken. */
START_TEST(test_seq_lapse)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *h = get(t, "udp:192.0.2.7:5060", 1);
	const uint64_t huge = UINT64_C(99999999999999999);
	const ovc_time_ns end = T0 + OVC_OC_VALIDITY_MAX_MS * MS;

	ck_assert_int_eq(feed(h, 100, INT64_MAX, huge, T0), 1);
	ck_assert_int_eq(ovc_nh_admit(h, T0 + MS), 0);
	/* the hop's genuine value, a smaller oc-seq: ignored while it holds */
	ck_assert_int_eq(feed(h, 0, 2000, 1000, end - MS), 0);
	ck_assert_double_eq(ovc_nh_reduction(h, end - MS), 1.0);
	/* lapsed: taken, and it orders the next ones */
	ck_assert_double_eq(ovc_nh_reduction(h, end), 0.0);
	ck_assert_int_eq(feed(h, 10, 2000, 1000, end), 1);
	ck_assert_double_eq_tol(ovc_nh_reduction(h, end), 0.1, 1e-12);
	ck_assert_uint_eq(ovc_nh_packed_seq(atomic_load(&h->fb)), 1000);
	ck_assert_int_eq(feed(h, 30, 2000, 999, end + MS), 0);
	ck_assert_int_eq(feed(h, 30, 2000, 1001, end + MS), 1);
	ck_assert_double_eq_tol(ovc_nh_reduction(h, end + MS), 0.3, 1e-12);
	/* oc-validity=0 ends it: the next value is taken whatever its seq */
	ck_assert_int_eq(feed(h, 30, 0, 1002, end + 2 * MS), 1);
	ck_assert_int_eq(feed(h, 40, 2000, 5, end + 3 * MS), 1);
	ck_assert_double_eq_tol(ovc_nh_reduction(h, end + 3 * MS), 0.4, 1e-12);
	free(t);
}
END_TEST

static void key_of(char *k, size_t size, unsigned i)
{
	snprintf(k, size, "udp:10.%u.%u.%u:5060", i >> 16 & 255, i >> 8 & 255,
			i & 255);
}

/* A full table makes room by evicting its stalest entry not in use; an
 * entry in use (heard from lately, or a reduction in force) never goes;
 * every other key is still found afterwards. */
START_TEST(test_full_evicts)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *h[OVC_NH_MAX], *a, *n;
	const ovc_time_ns busy = OVC_NH_IN_USE_MS * MS;
	char k[32];
	unsigned i, gone = 0;

	for(i = 0; i < OVC_NH_MAX; i++) {
		key_of(k, sizeof(k), i);
		h[i] = get(t, k, 1);
		ck_assert_ptr_nonnull(h[i]);
	}
	/* 0: the oldest, but a reduction in force for a minute; 1: the
	 * stalest without one; the others heard later */
	ck_assert_int_eq(feed(h[0], 50, 60000, 1, T0), 1);
	for(i = 2; i < OVC_NH_MAX; i++)
		ck_assert_int_eq(feed(h[i], 0, 500, 1, T0 + i * MS), 1);
	/* everything in use: no room */
	ck_assert_ptr_null(get(t, "udp:192.0.2.1:5060", 1));
	ck_assert_uint_eq(ovc_nh_count(t), OVC_NH_MAX);
	ck_assert(ovc_nh_in_use(h[1], T0 + busy - 1));
	ck_assert(!ovc_nh_in_use(h[1], T0 + busy));
	ck_assert(ovc_nh_in_use(h[0], T0 + busy + OVC_NS_PER_S));
	/* past the busy time: 1 makes room, then 2, 3... never 0 */
	for(i = 1; i < 4; i++) {
		snprintf(k, sizeof(k), "udp:192.0.2.%u:5060", i);
		n = ovc_nh_get(t, k, strlen(k), 1, T0 + busy + 5 * MS);
		ck_assert_ptr_nonnull(n);
		ck_assert_ptr_eq(n, h[i]);
		ck_assert_str_eq(n->key, k);
		ck_assert_double_eq(ovc_nh_reduction(n, T0 + busy + 5 * MS), 0.0);
		ck_assert_int_eq(ovc_nh_admit(n, T0 + busy + 5 * MS), 1);
		ck_assert_uint_eq(atomic_load(&n->feedbacks), 0);
		ck_assert(ovc_nh_in_use(n, T0 + busy + 5 * MS));
	}
	ck_assert_uint_eq(ovc_nh_count(t), OVC_NH_MAX);
	ck_assert_uint_eq(atomic_load(&t->evicted), 3);
	/* the evicted keys are gone, every other one is where it was */
	for(i = 0; i < OVC_NH_MAX; i++) {
		key_of(k, sizeof(k), i);
		a = get(t, k, 0);
		if(i >= 1 && i < 4) {
			ck_assert_ptr_null(a);
			gone++;
		} else {
			ck_assert_ptr_eq(a, h[i]);
		}
	}
	ck_assert_uint_eq(gone, 3);
	a = get(t, "udp:192.0.2.2:5060", 0);
	ck_assert_ptr_nonnull(a);
	ck_assert_double_eq_tol(
			ovc_nh_reduction(h[0], T0 + busy + MS), 0.5, 1e-12);
	free(t);
}
END_TEST

/* Entries idle for OVC_NH_IDLE_MS are freed; the table is as new. */
START_TEST(test_expire)
{
	struct ovc_nh_table *t = table_new();
	const ovc_time_ns idle = OVC_NH_IDLE_MS * MS;
	struct ovc_nexthop *a;
	char k[32];
	unsigned i;

	for(i = 0; i < OVC_NH_MAX; i++) {
		key_of(k, sizeof(k), i);
		ck_assert_ptr_nonnull(get(t, k, 1));
	}
	a = get(t, "udp:10.0.0.7:5060", 0);
	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(feed(a, 40, 60000, 1, T0 + idle - OVC_NS_PER_S), 1);
	ck_assert_uint_eq(ovc_nh_expire(t, T0 + idle - 1), 0);
	ck_assert_uint_eq(ovc_nh_expire(t, T0 + idle), OVC_NH_MAX - 1);
	ck_assert_uint_eq(ovc_nh_count(t), 1);
	ck_assert_ptr_eq(get(t, "udp:10.0.0.7:5060", 0), a);
	ck_assert_ptr_null(get(t, "udp:10.0.0.8:5060", 0));
	ck_assert_ptr_eq(ovc_nh_at(t, 0), a);
	ck_assert_ptr_null(ovc_nh_at(t, 1));
	/* its reduction lapses, then it idles out too */
	ck_assert_uint_eq(ovc_nh_expire(t, T0 + 2 * idle - OVC_NS_PER_S - 1), 0);
	ck_assert_uint_eq(ovc_nh_expire(t, T0 + 2 * idle), 1);
	ck_assert_uint_eq(ovc_nh_count(t), 0);
	/* every slot free again: the table fills as new */
	for(i = 0; i < OVC_NH_MAX; i++)
		ck_assert_uint_eq(atomic_load(&t->hop[i].state) & 3u, 0);
	for(i = 0; i < OVC_NH_MAX; i++) {
		key_of(k, sizeof(k), i + 1000);
		ck_assert_ptr_nonnull(ovc_nh_get(t, k, strlen(k), 1, T0 + 3 * idle));
	}
	ck_assert_uint_eq(ovc_nh_count(t), OVC_NH_MAX);
	/* the lock taken by another: the sweep tries again later */
	atomic_store(&t->lock, 1);
	ck_assert_uint_eq(ovc_nh_expire(t, T0 + 5 * idle), 0);
	atomic_store(&t->lock, 0);
	ck_assert_uint_eq(ovc_nh_expire(t, T0 + 5 * idle), OVC_NH_MAX);
	free(t);
}
END_TEST

/* Many keys come and go (creation with eviction, sweeps), checked against
 * a model: a key the model holds is found, at an entry with its key; one
 * it does not hold is not; the count agrees. */
#define CH_KEYS 600
#define CH_STEPS 40000

START_TEST(test_churn)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop **at = calloc(CH_KEYS, sizeof(*at));
	const ovc_time_ns step = 50 * MS;
	struct ovc_nexthop *e;
	unsigned i, j, held;
	uint64_t rnd = 88172645463325252u;
	ovc_time_ns now = T0;
	char k[32];

	ck_assert_ptr_nonnull(at);
	for(i = 0; i < CH_STEPS; i++) {
		rnd ^= rnd << 13;
		rnd ^= rnd >> 7;
		rnd ^= rnd << 17;
		j = (unsigned)(rnd % CH_KEYS);
		now += step;
		key_of(k, sizeof(k), j);
		e = get(t, k, 0);
		ck_assert_ptr_eq(e, at[j]);
		e = ovc_nh_get(t, k, strlen(k), 1, now);
		if(e != NULL) {
			ck_assert_str_eq(e->key, k);
			(void)feed(e, (int)(rnd >> 40) % 50, 200, 0, now);
		}
		at[j] = e;
		/* whoever held the entry e took is gone */
		for(held = 0; held < CH_KEYS; held++) {
			if(held != j && at[held] != NULL && at[held] == e)
				at[held] = NULL;
		}
		if(i % 997 == 0 && ovc_nh_expire(t, now) > 0) {
			for(held = 0; held < CH_KEYS; held++) {
				key_of(k, sizeof(k), held);
				at[held] = get(t, k, 0) != NULL ? at[held] : NULL;
			}
		}
	}
	for(i = 0, held = 0; i < CH_KEYS; i++) {
		key_of(k, sizeof(k), i);
		ck_assert_ptr_eq(get(t, k, 0), at[i]);
		held += at[i] != NULL;
	}
	ck_assert_uint_eq(ovc_nh_count(t), held);
	ck_assert_uint_gt(atomic_load(&t->evicted), 0);
	free(at);
	free(t);
}
END_TEST

/* The listing view: oc-seq, the reduction with its validity left. */
START_TEST(test_view)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *h = get(t, "a", 1);
	struct ovc_nh_view v;

	ovc_nh_view(h, T0, &v);
	ck_assert_uint_eq(v.seq, 0);
	ck_assert_uint_eq(v.reduction, 0);
	ck_assert_int_eq(v.left_ms, 0);
	ck_assert_int_eq(feed(h, 20, 1500, 777, T0), 1);
	ovc_nh_view(h, T0 + 500 * MS, &v);
	ck_assert_uint_eq(v.seq, 777);
	ck_assert_uint_eq(v.reduction, 20);
	ck_assert_int_eq(v.left_ms, 1000);
	ovc_nh_view(h, T0 + 1500 * MS, &v);
	ck_assert_uint_eq(v.seq, 777);
	ck_assert_uint_eq(v.reduction, 0);
	ck_assert_int_eq(v.left_ms, 0);
	ck_assert_int_eq(feed(h, 60, INT64_MAX, 778, T0), 1);
	ovc_nh_view(h, T0 + 1000 * MS, &v);
	ck_assert_uint_eq(v.reduction, 60);
	ck_assert_int_eq(v.left_ms, OVC_OC_VALIDITY_MAX_MS - 1000);
	ovc_nh_view(NULL, T0, &v);
	ck_assert_uint_eq(v.seq, 0);
	ck_assert_uint_eq(v.reduction, 0);
	free(t);
}
END_TEST

/* A feedback overtaken after installing its value may set the acceptor
 * last: the admissions put it back at the reduction in force. */
START_TEST(test_acceptor_follows)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *h = get(t, "a", 1);
	unsigned i, pass = 0;

	ck_assert_int_eq(feed(h, 30, 10000, 2, T0), 1);
	ovc_acceptor_set(&h->acc, 0.9); /* an older feedback's, late */
	for(i = 0; i < 1000; i++)
		pass += (unsigned)ovc_nh_admit(h, T0);
	ck_assert_msg(pass >= 699 && pass <= 701, "%u passed", pass);
	ck_assert_double_eq_tol(ovc_acceptor_get(&h->acc), 0.7, 1e-9);
	free(t);
}
END_TEST

/* ovc.reset's counts: every next hop's, wherever its entry sits; what
 * they said stays in force. */
START_TEST(test_reset_counts)
{
	struct ovc_nh_table *t = table_new();
	struct ovc_nexthop *h[20];
	char k[32];
	unsigned i, j;

	for(i = 0; i < 20; i++) {
		snprintf(k, sizeof(k), "udp:192.0.2.%u:5060", i);
		h[i] = get(t, k, 1);
		ck_assert_int_eq(feed(h[i], 100, 60000, 1, T0), 1);
		for(j = 0; j < 3; j++)
			ovc_nh_admit(h[i], T0);
	}
	ovc_nh_second(t);
	ovc_nh_reset_counts(t);
	for(i = 0; i < 20; i++) {
		ck_assert_uint_eq(atomic_load(&h[i]->passed), 0);
		ck_assert_uint_eq(atomic_load(&h[i]->refused), 0);
		ck_assert_uint_eq(atomic_load(&h[i]->refused_1s), 0);
		ck_assert_uint_eq(atomic_load(&h[i]->refused_mark), 0);
		ck_assert_uint_eq(atomic_load(&h[i]->feedbacks), 0);
		ck_assert_double_eq_tol(ovc_nh_reduction(h[i], T0), 1.0, 1e-12);
	}
	ovc_nh_reset_counts(NULL);
	free(t);
}
END_TEST

/* Threads taking feedback of one next hop at once, oc-seqs interleaved
 * and stale ones among them, while others read it: a reader only ever
 * sees an oc-seq with its own reduction, a reduction with its own
 * validity, and oc-seqs that never go back; after each round (the
 * writers released together by a barrier) the newest feedback is in
 * force, whole. Feedback s: reduction 1 + s % 100, validity
 * 1000 + 7 * reduction ms, all heard at T0 and read at T0. */
#define FB_WRITERS 3
#define FB_READERS 2
#define FB_ROUNDS 1000
#define FB_PER_ROUND 100 /* feedbacks per writer and round */

struct fbmt
{
	struct ovc_nexthop *h;
	pthread_barrier_t round;
	_Atomic int writing;
	unsigned taken[FB_WRITERS];
	unsigned bad_final; /* rounds that ended without the newest whole */
	unsigned bad_pair[FB_READERS];
	unsigned bad_validity[FB_READERS];
	unsigned back[FB_READERS];
	unsigned reads[FB_READERS];
};

struct fbmt_arg
{
	struct fbmt *m;
	unsigned id;
};

static unsigned fb_red(uint64_t s)
{
	return 1 + (unsigned)(s % 100);
}

static int64_t fb_validity(uint64_t s)
{
	return 1000 + 7 * (int64_t)fb_red(s);
}

/* Is the feedback of oc-seq s in force in h, whole? */
static int fb_whole(struct ovc_nexthop *h, uint64_t s)
{
	struct ovc_nh_view v;

	ovc_nh_view(h, T0, &v);
	return v.seq == s && v.reduction == fb_red(s) && v.left_ms == fb_validity(s)
		   && ovc_nh_packed_reduction(atomic_load(&h->fb)) == fb_red(s);
}

static void *fb_writer(void *p)
{
	struct fbmt_arg *a = p;
	struct fbmt *m = a->m;
	uint64_t s, old;
	unsigned i, k;

	for(k = 0; k < FB_ROUNDS; k++) {
		pthread_barrier_wait(&m->round);
		for(i = 0; i < FB_PER_ROUND; i++) {
			s = 1 + ((uint64_t)k * FB_PER_ROUND + i) * FB_WRITERS + a->id;
			m->taken[a->id] +=
					(unsigned)feed(m->h, (int)fb_red(s), fb_validity(s), s, T0);
			old = s - 2 * FB_WRITERS;
			if(i % 5 == 2 && s > 2 * FB_WRITERS) /* a late, older one */
				m->taken[a->id] += (unsigned)feed(
						m->h, (int)fb_red(old), fb_validity(old), old, T0);
		}
		pthread_barrier_wait(&m->round);
		if(a->id == 0
				&& !fb_whole(
						m->h, (uint64_t)(k + 1) * FB_PER_ROUND * FB_WRITERS))
			m->bad_final++;
	}
	atomic_fetch_sub(&m->writing, 1);
	return NULL;
}

static void *fb_reader(void *p)
{
	struct fbmt_arg *a = p;
	struct fbmt *m = a->m;
	struct ovc_nh_view v;
	uint64_t w, last = 0;
	unsigned id = a->id;

	while(atomic_load(&m->writing) > 0) {
		w = atomic_load(&m->h->fb);
		if(ovc_nh_packed_seq(w) != 0
				&& ovc_nh_packed_reduction(w) != fb_red(ovc_nh_packed_seq(w)))
			m->bad_pair[id]++;
		if(ovc_nh_packed_seq(w) < last)
			m->back[id]++;
		last = ovc_nh_packed_seq(w);
		ovc_nh_view(m->h, T0, &v);
		if(v.reduction != 0 && v.left_ms != 1000 + 7 * (int64_t)v.reduction)
			m->bad_validity[id]++;
		(void)ovc_nh_admit(m->h, T0);
		m->reads[id]++;
	}
	return NULL;
}

START_TEST(test_feedback_threads)
{
	struct ovc_nh_table *t = table_new();
	struct fbmt *m = calloc(1, sizeof(*m));
	struct fbmt_arg wa[FB_WRITERS], ra[FB_READERS];
	pthread_t wt[FB_WRITERS], rt[FB_READERS];
	uint64_t last = (uint64_t)FB_ROUNDS * FB_PER_ROUND * FB_WRITERS;
	unsigned i, taken = 0;

	ck_assert_ptr_nonnull(m);
	m->h = get(t, "udp:192.0.2.9:5060", 1);
	atomic_init(&m->writing, FB_WRITERS);
	ck_assert_int_eq(pthread_barrier_init(&m->round, NULL, FB_WRITERS), 0);
	for(i = 0; i < FB_READERS; i++) {
		ra[i].m = m;
		ra[i].id = i;
		ck_assert_int_eq(pthread_create(&rt[i], NULL, fb_reader, &ra[i]), 0);
	}
	for(i = 0; i < FB_WRITERS; i++) {
		wa[i].m = m;
		wa[i].id = i;
		ck_assert_int_eq(pthread_create(&wt[i], NULL, fb_writer, &wa[i]), 0);
	}
	for(i = 0; i < FB_WRITERS; i++)
		ck_assert_int_eq(pthread_join(wt[i], NULL), 0);
	for(i = 0; i < FB_READERS; i++)
		ck_assert_int_eq(pthread_join(rt[i], NULL), 0);
	pthread_barrier_destroy(&m->round);
	for(i = 0; i < FB_READERS; i++) {
		ck_assert_msg(m->bad_pair[i] == 0, "reader %u: %u seq/reduction", i,
				m->bad_pair[i]);
		ck_assert_msg(m->bad_validity[i] == 0,
				"reader %u: %u reduction/validity of %u reads", i,
				m->bad_validity[i], m->reads[i]);
		ck_assert_msg(m->back[i] == 0, "reader %u: seq back %u", i, m->back[i]);
	}
	ck_assert_msg(m->bad_final == 0, "%u of %u rounds ended stale",
			m->bad_final, FB_ROUNDS);
	for(i = 0; i < FB_WRITERS; i++)
		taken += m->taken[i];
	ck_assert_uint_eq(taken, atomic_load(&m->h->feedbacks));
	ck_assert_uint_ge(taken, FB_ROUNDS);
	ck_assert_uint_le(taken, last);
	ck_assert(fb_whole(m->h, last));
	(void)ovc_nh_admit(m->h, T0);
	ck_assert_double_eq_tol(
			ovc_acceptor_get(&m->h->acc), 1.0 - fb_red(last) / 100.0, 1e-9);
	free(m);
	free(t);
}
END_TEST

/* Threads creating the same keys at once, answering the same feedback at
 * once, then admitting through the entries they got. */
#define MT_THREADS 4
#define MT_KEYS 50
#define MT_ADMITS 100000

struct mt
{
	struct ovc_nh_table *t;
	pthread_barrier_t go;
	struct ovc_nexthop *got[MT_THREADS][MT_KEYS];
	unsigned taken[MT_THREADS];
	unsigned passed[MT_THREADS];
	unsigned refused[MT_THREADS];
	unsigned bad[MT_THREADS];
};

struct mt_arg
{
	struct mt *m;
	unsigned id;
};

static void mt_key(char *k, size_t size, unsigned i)
{
	snprintf(k, size, "tcp:198.51.100.%u:5060", i);
}

static void *mt_run(void *p)
{
	struct mt_arg *arg = p;
	struct mt *m = arg->m;
	struct ovc_nexthop *h;
	unsigned id = arg->id, i;
	char k[32];

	pthread_barrier_wait(&m->go);
	for(i = 0; i < MT_KEYS; i++) {
		mt_key(k, sizeof(k), i);
		m->got[id][i] = get(m->t, k, 1);
	}
	pthread_barrier_wait(&m->go);
	for(i = 0; i < MT_KEYS; i++)
		m->taken[id] += (unsigned)feed(m->got[id][i], 30, 60000, 9, T0);
	pthread_barrier_wait(&m->go);
	for(i = 0; i < MT_ADMITS; i++) {
		mt_key(k, sizeof(k), i % MT_KEYS);
		h = get(m->t, k, (int)(i & 1));
		if(h != m->got[id][i % MT_KEYS])
			m->bad[id]++;
		if(ovc_nh_admit(h, T0 + MS))
			m->passed[id]++;
		else
			m->refused[id]++;
	}
	return NULL;
}

START_TEST(test_threads)
{
	struct mt *m = calloc(1, sizeof(*m));
	struct mt_arg args[MT_THREADS];
	pthread_t th[MT_THREADS];
	uint64_t passed = 0, refused = 0, each, p;
	unsigned i, j, taken = 0;

	ck_assert_ptr_nonnull(m);
	m->t = table_new();
	ck_assert_int_eq(pthread_barrier_init(&m->go, NULL, MT_THREADS), 0);
	for(i = 0; i < MT_THREADS; i++) {
		args[i].m = m;
		args[i].id = i;
		ck_assert_int_eq(pthread_create(&th[i], NULL, mt_run, &args[i]), 0);
	}
	for(i = 0; i < MT_THREADS; i++)
		ck_assert_int_eq(pthread_join(th[i], NULL), 0);
	pthread_barrier_destroy(&m->go);

	/* one entry per key, the same one for every thread */
	ck_assert_uint_eq(ovc_nh_count(m->t), MT_KEYS);
	for(j = 0; j < MT_KEYS; j++) {
		ck_assert_ptr_nonnull(m->got[0][j]);
		for(i = 1; i < MT_THREADS; i++)
			ck_assert_ptr_eq(m->got[i][j], m->got[0][j]);
		for(i = 0; i < j; i++)
			ck_assert_ptr_ne(m->got[0][i], m->got[0][j]);
	}
	for(i = 0; i < MT_THREADS; i++) {
		ck_assert_uint_eq(m->bad[i], 0);
		taken += m->taken[i];
		passed += m->passed[i];
		refused += m->refused[i];
	}
	/* every thread's feedback taken (one oc-seq: each a repeat) */
	ck_assert_uint_eq(taken, MT_KEYS * MT_THREADS);
	ck_assert_uint_eq(passed + refused, (uint64_t)MT_THREADS * MT_ADMITS);
	/* each key's acceptor exact over the requests of every thread */
	each = (uint64_t)MT_THREADS * MT_ADMITS / MT_KEYS;
	for(j = 0; j < MT_KEYS; j++) {
		struct ovc_nexthop *h = m->got[0][j];

		ck_assert_uint_eq(atomic_load(&h->feedbacks), MT_THREADS);
		p = atomic_load(&h->passed);
		ck_assert_uint_eq(p + atomic_load(&h->refused), each);
		ck_assert_msg(p >= each * 7 / 10 && p <= each * 7 / 10 + 1,
				"key %u: %llu of %llu passed", j, (unsigned long long)p,
				(unsigned long long)each);
	}
	p = (uint64_t)MT_THREADS * MT_ADMITS * 7 / 10;
	ck_assert_msg(passed + MT_THREADS >= p && passed <= p + MT_THREADS,
			"%llu passed, %llu expected", (unsigned long long)passed,
			(unsigned long long)p);
	free(m->t);
	free(m);
}
END_TEST

Suite *make_suite_nexthop(void)
{
	Suite *s = suite_create("nexthop");
	TCase *tc = tcase_create("table");
	TCase *mt = tcase_create("threads");

	tcase_add_test(tc, test_create_find);
	tcase_add_test(tc, test_key_limits);
	tcase_add_test(tc, test_full);
	tcase_add_test(tc, test_feedback_order);
	tcase_add_test(tc, test_feedback_no_seq);
	tcase_add_test(tc, test_feedback_ignored);
	tcase_add_test(tc, test_validity);
	tcase_add_test(tc, test_admit_exact);
	tcase_add_test(tc, test_max_reduction);
	tcase_add_test(tc, test_path_reduction);
	tcase_add_test(tc, test_second);
	tcase_add_test(tc, test_pack);
	tcase_add_test(tc, test_announce_next);
	tcase_add_test(tc, test_feedback_seq_range);
	tcase_add_test(tc, test_validity_ms);
	tcase_add_test(tc, test_view);
	tcase_add_test(tc, test_acceptor_follows);
	tcase_add_test(tc, test_reset_counts);
	tcase_add_test(tc, test_seq_lapse);
	tcase_add_test(tc, test_full_evicts);
	tcase_add_test(tc, test_expire);
	tcase_add_test(tc, test_churn);
	suite_add_tcase(s, tc);
	tcase_add_test(mt, test_threads);
	tcase_add_test(mt, test_feedback_threads);
	tcase_set_timeout(mt, 60);
	suite_add_tcase(s, mt);
	return s;
}
