/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/rejmem.c: remembered decisions are found until
 * their time to live runs out, unknown keys are not, colliding keys share
 * the probe slots, a full probe run overwrites its oldest entry; a
 * decision changes by compare-and-swap, and of two threads changing the
 * same one exactly one does.
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovc/rejmem.h"
#include "ovc/sipscan.h"
#include "suites.h"

static struct ovc_rejmem *mem(void)
{
	struct ovc_rejmem *m = malloc(sizeof(*m));

	ck_assert_ptr_nonnull(m);
	ovc_rejmem_init(m);
	return m;
}

START_TEST(test_rejmem_put_has_expire)
{
	struct ovc_rejmem *m = mem();

	ck_assert_int_eq(ovc_rejmem_get(m, 42, 100, 32), -1);
	ovc_rejmem_put(m, 42, 100, 1);
	ck_assert_int_eq(ovc_rejmem_get(m, 42, 100, 32), 1);
	ck_assert_int_eq(ovc_rejmem_get(m, 42, 131, 32), 1);
	ck_assert_int_eq(ovc_rejmem_get(m, 42, 132, 32), -1); /* expired */
	ck_assert_int_eq(ovc_rejmem_get(m, 43, 100, 32), -1);
	ovc_rejmem_put(m, 42, 140, 1); /* refreshed */
	ck_assert_int_eq(ovc_rejmem_get(m, 42, 150, 32), 1);
	ovc_rejmem_put(m, 0, 10, 1); /* key 0 is usable */
	ck_assert_int_eq(ovc_rejmem_get(m, 0, 10, 32), 1);
	/* admitted decisions read back as 0, unknown keys as -1 */
	ovc_rejmem_put(m, 77, 10, 0);
	ck_assert_int_eq(ovc_rejmem_get(m, 77, 11, 32), 0);
	ck_assert_int_eq(ovc_rejmem_get(m, 78, 11, 32), -1);
	ovc_rejmem_put(m, 77, 12, 1); /* a later decision replaces it */
	ck_assert_int_eq(ovc_rejmem_get(m, 77, 12, 32), 1);
	/* queued, then admitted when dequeued; unknown values store rejected */
	ovc_rejmem_put(m, 90, 20, OVC_REJMEM_QUEUED);
	ck_assert_int_eq(ovc_rejmem_get(m, 90, 21, 32), OVC_REJMEM_QUEUED);
	ovc_rejmem_put(m, 90, 21, OVC_REJMEM_ADMITTED);
	ck_assert_int_eq(ovc_rejmem_get(m, 90, 21, 32), OVC_REJMEM_ADMITTED);
	ovc_rejmem_put(m, 91, 20, 7);
	ck_assert_int_eq(ovc_rejmem_get(m, 91, 20, 32), OVC_REJMEM_REJECTED);
	/* times up to 2^30 - 1 keep their decision */
	ovc_rejmem_put(m, 92, (1u << 30) - 1, OVC_REJMEM_QUEUED);
	ck_assert_int_eq(ovc_rejmem_get(m, 92, (1u << 30) - 1, 32),
			OVC_REJMEM_QUEUED);
	free(m);
}
END_TEST

START_TEST(test_rejmem_collisions)
{
	struct ovc_rejmem *m = mem();
	uint64_t base = 5, c, k[OVC_REJMEM_PROBE + 1];
	uint32_t t = 100, last = t + OVC_REJMEM_PROBE;
	int i;

	/* keys that all start probing at the same slot */
	k[0] = base;
	for(i = 1, c = base + 1; i <= OVC_REJMEM_PROBE; c++)
		if(ovc_rejmem_home(c) == ovc_rejmem_home(base))
			k[i++] = c;
	for(i = 0; i < OVC_REJMEM_PROBE; i++)
		ovc_rejmem_put(m, k[i], t + (uint32_t)i, 1);
	for(i = 0; i < OVC_REJMEM_PROBE; i++)
		ck_assert_int_eq(ovc_rejmem_get(m, k[i], last, 32), 1);
	/* one more: replaces the oldest (k[0]), the others stay */
	ovc_rejmem_put(m, k[OVC_REJMEM_PROBE], last, 1);
	ck_assert_int_eq(ovc_rejmem_get(m, k[OVC_REJMEM_PROBE], last, 32), 1);
	ck_assert_int_eq(ovc_rejmem_get(m, k[0], last, 32), -1);
	for(i = 1; i < OVC_REJMEM_PROBE; i++)
		ck_assert_int_eq(ovc_rejmem_get(m, k[i], last, 32), 1);
	free(m);
}
END_TEST

/* Times are kept modulo 2^22 s: ages across the wrap are exact. */
START_TEST(test_rejmem_wrap)
{
	struct ovc_rejmem *m = mem();
	uint32_t t = (1u << 22) - 3;

	ovc_rejmem_put(m, 4242, t, OVC_REJMEM_QUEUED);
	ck_assert_int_eq(ovc_rejmem_get(m, 4242, t + 10, 32), OVC_REJMEM_QUEUED);
	ck_assert_int_eq(ovc_rejmem_get(m, 4242, t + 32, 32), -1);
	/* a key that shares the slot index but not the tag is not found */
	ck_assert_int_eq(ovc_rejmem_get(m, 4243, t + 1, 32), -1);
	free(m);
}
END_TEST

/* 32 s of 8000 INVITEs/s (Timer B at a 20x flood on a proxy of 400
 * calls/s): each key is still found at the end. */
START_TEST(test_rejmem_capacity)
{
	struct ovc_rejmem *m = mem();
	uint64_t i, n = 8000 * 32, found = 0;

	for(i = 0; i < n; i++)
		ovc_rejmem_put(m, i * 0x9e3779b97f4a7c15ULL + 11, (uint32_t)(i / 8000),
				OVC_REJMEM_REJECTED);
	for(i = 0; i < n; i++)
		found += ovc_rejmem_get(m, i * 0x9e3779b97f4a7c15ULL + 11, 31, 32)
				 == OVC_REJMEM_REJECTED;
	/* at half load, 16 probes: a few evictions at most */
	ck_assert_msg(found >= n * 999 / 1000, "found %llu of %llu",
			(unsigned long long)found, (unsigned long long)n);
	free(m);
}
END_TEST

START_TEST(test_rejmem_many)
{
	struct ovc_rejmem *m = mem();
	uint64_t i, found = 0;

	/* a realistic load: 2000 rejects spread by a hash all stay found */
	for(i = 1; i <= 2000; i++)
		ovc_rejmem_put(m, i * 0x9e3779b97f4a7c15ULL, 7, 1);
	for(i = 1; i <= 2000; i++)
		found += (ovc_rejmem_get(m, i * 0x9e3779b97f4a7c15ULL, 8, 32) == 1);
	ck_assert_uint_eq(found, 2000);
	free(m);
}
END_TEST

/* The key of a request: the same for its retransmissions (same
 * transaction, same source); another for a new attempt (new branch and
 * CSeq), another call, another secret, and for a replay that reuses an
 * admitted INVITE's Call-ID, From tag and CSeq with a new branch, from
 * another source or with another sent-by (RFC 3261 17.2.3: a new request,
 * decided as one). A CANCEL of the INVITE shares its key. */
START_TEST(test_rejmem_request_key)
{
	static const char *fmt = "%s sip:b@example.com SIP/2.0\r\n"
							 "Via: SIP/2.0/UDP %s;branch=z9hG4bK%s\r\n"
							 "From: <sip:a@example.com>;tag=ft1\r\n"
							 "To: <sip:b@example.com>\r\n"
							 "Call-ID: %s\r\n"
							 "CSeq: %d %s\r\n"
							 "Content-Length: 0\r\n\r\n";
	static const struct
	{
		const char *m, *sentby, *branch, *callid;
		int cseq;
		uint64_t src;
		int same; /* 1: the key of the first */
	} v[] = {
			{"INVITE", "192.0.2.1:5060", "x1", "call-1", 1, 9, 1},
			{"INVITE", "192.0.2.1:5060", "x1", "call-1", 1, 9, 1}, /* again */
			{"CANCEL", "192.0.2.1:5060", "x1", "call-1", 1, 9, 1}, /* its CANCEL */
			{"INVITE", "192.0.2.1:5060", "x2", "call-1", 2, 9, 0}, /* new try */
			{"INVITE", "192.0.2.1:5060", "x1", "call-2", 1, 9, 0}, /* a call */
			{"INVITE", "192.0.2.1:5060", "x9", "call-1", 1, 9, 0}, /* replay */
			{"INVITE", "192.0.2.1:5060", "x1", "call-1", 1, 10, 0}, /* from
																	   elsewhere */
			{"INVITE", "192.0.2.1:5061", "x1", "call-1", 1, 9, 0}, /* sent-by */
			{"REGISTER", "192.0.2.1:5060", "x1", "call-1", 1, 9, 0},
	};
	char buf[sizeof(v) / sizeof(v[0])][512];
	struct ovc_sip_scan sc[sizeof(v) / sizeof(v[0])];
	uint64_t k0 = 0, k;
	size_t i;

	for(i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(buf[i], sizeof(buf[i]), fmt, v[i].m, v[i].sentby,
				v[i].branch, v[i].callid, v[i].cseq,
				strcmp(v[i].m, "CANCEL") == 0 ? "CANCEL" : v[i].m);
		ck_assert_int_eq(
				ovc_sip_scan(buf[i], strlen(buf[i]), &sc[i]), OVC_SCAN_OK);
		k = ovc_sip_request_key(7, buf[i], &sc[i], v[i].src);
		if(i == 0)
			k0 = k;
		ck_assert_msg((k == k0) == v[i].same, "case %zu", i);
	}
	ck_assert(ovc_sip_request_key(8, buf[0], &sc[0], 9) != k0);
}
END_TEST

START_TEST(test_rejmem_cas)
{
	struct ovc_rejmem *m = mem();
	int found = -7;

	/* nothing stored: -1, nothing written */
	ck_assert_int_eq(ovc_rejmem_cas(m, 5, 10, 32, OVC_REJMEM_QUEUED,
							 OVC_REJMEM_CANCELLED, &found),
			-1);
	ck_assert_int_eq(found, -7);
	ck_assert_int_eq(ovc_rejmem_get(m, 5, 10, 32), -1);
	ovc_rejmem_put(m, 5, 10, OVC_REJMEM_QUEUED);
	ck_assert_int_eq(ovc_rejmem_cas(m, 5, 11, 32, OVC_REJMEM_QUEUED,
							 OVC_REJMEM_CANCELLED, &found),
			1);
	ck_assert_int_eq(ovc_rejmem_get(m, 5, 11, 32), OVC_REJMEM_CANCELLED);
	/* changed already: 0 and what it holds; unchanged */
	ck_assert_int_eq(ovc_rejmem_cas(m, 5, 12, 32, OVC_REJMEM_QUEUED,
							 OVC_REJMEM_ADMITTED, &found),
			0);
	ck_assert_int_eq(found, OVC_REJMEM_CANCELLED);
	ck_assert_int_eq(ovc_rejmem_get(m, 5, 12, 32), OVC_REJMEM_CANCELLED);
	ck_assert_int_eq(ovc_rejmem_cas(m, 5, 12, 32, OVC_REJMEM_QUEUED,
							 OVC_REJMEM_ADMITTED, NULL),
			0);
	/* the change is stamped now: it lives ttl from then */
	ck_assert_int_eq(ovc_rejmem_get(m, 5, 42, 32), OVC_REJMEM_CANCELLED);
	ck_assert_int_eq(ovc_rejmem_get(m, 5, 43, 32), -1);
	/* expired: as if nothing were stored */
	ovc_rejmem_put(m, 6, 100, OVC_REJMEM_QUEUED);
	ck_assert_int_eq(ovc_rejmem_cas(m, 6, 132, 32, OVC_REJMEM_QUEUED,
							 OVC_REJMEM_ADMITTED, &found),
			-1);
	/* another key in the same slots is not touched */
	ovc_rejmem_put(m, 7, 100, OVC_REJMEM_QUEUED);
	ck_assert_int_eq(ovc_rejmem_cas(m, 8, 100, 32, OVC_REJMEM_QUEUED,
							 OVC_REJMEM_ADMITTED, &found),
			-1);
	ck_assert_int_eq(ovc_rejmem_get(m, 7, 100, 32), OVC_REJMEM_QUEUED);
	free(m);
}
END_TEST

/* Two threads take the same queued decisions at once, one towards
 * CANCELLED (a CANCEL), one towards ADMITTED (the queue's worker): per
 * key exactly one wins, and the stored decision is the winner's. */
#define RACE_KEYS 20000
struct racer
{
	struct ovc_rejmem *m;
	pthread_barrier_t *go;
	int to;
	unsigned char won[RACE_KEYS];
};

static void *race(void *arg)
{
	struct racer *r = arg;
	unsigned k;

	pthread_barrier_wait(r->go);
	for(k = 0; k < RACE_KEYS; k++)
		r->won[k] = ovc_rejmem_cas(r->m, 1000 + k, 5, 32,
							OVC_REJMEM_QUEUED, r->to, NULL)
					== 1;
	return NULL;
}

START_TEST(test_rejmem_cas_race)
{
	struct ovc_rejmem *m = mem();
	static struct racer a, b;
	pthread_barrier_t go;
	pthread_t ta, tb;
	unsigned k, wa = 0, wb = 0;

	for(k = 0; k < RACE_KEYS; k++)
		ovc_rejmem_put(m, 1000 + k, 5, OVC_REJMEM_QUEUED);
	pthread_barrier_init(&go, NULL, 2);
	a = (struct racer){.m = m, .go = &go, .to = OVC_REJMEM_CANCELLED};
	b = (struct racer){.m = m, .go = &go, .to = OVC_REJMEM_ADMITTED};
	pthread_create(&ta, NULL, race, &a);
	pthread_create(&tb, NULL, race, &b);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	pthread_barrier_destroy(&go);
	for(k = 0; k < RACE_KEYS; k++) {
		ck_assert_int_eq(a.won[k] + b.won[k], 1);
		ck_assert_int_eq(ovc_rejmem_get(m, 1000 + k, 5, 32),
				a.won[k] ? OVC_REJMEM_CANCELLED : OVC_REJMEM_ADMITTED);
		wa += a.won[k];
		wb += b.won[k];
	}
	ck_assert_uint_eq(wa + wb, RACE_KEYS);
	free(m);
}
END_TEST

Suite *make_suite_rejmem(void)
{
	Suite *s = suite_create("rejmem");
	TCase *tc = tcase_create("rejmem");

	tcase_add_test(tc, test_rejmem_put_has_expire);
	tcase_add_test(tc, test_rejmem_collisions);
	tcase_add_test(tc, test_rejmem_many);
	tcase_add_test(tc, test_rejmem_wrap);
	tcase_add_test(tc, test_rejmem_capacity);
	tcase_add_test(tc, test_rejmem_request_key);
	tcase_add_test(tc, test_rejmem_cas);
	tcase_add_test(tc, test_rejmem_cas_race);
	suite_add_tcase(s, tc);
	return s;
}
