/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - the fair share (ovc/fair.h, ovc/fairsk.h): the sketch,
 * the level of (1), the per-call decision, and a synthetic flood: one
 * heavy source and many light ones, where the light keep their share, the
 * heavy pays and the total stays the controller's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovc/fair.h"

#include "suites.h"

static struct ovc_fair *fr;
static struct ovc_fair_sorted *so;

static void setup(void)
{
	fr = malloc(sizeof(*fr));
	so = malloc(sizeof(*so));
	ck_assert_ptr_nonnull(fr);
	ck_assert_ptr_nonnull(so);
	ovc_fair_init(fr);
}

static void teardown(void)
{
	free(fr);
	free(so);
}

static uint64_t src_of(unsigned i)
{
	return ovc_fair_key(&i, sizeof(i));
}

/* A call hash as a proxy sees them: one per distinct call. */
static uint64_t call_of(unsigned s, unsigned i)
{
	uint64_t id = ((uint64_t)s << 32) | i;

	return ovc_fair_key(&id, sizeof(id));
}

/* The sketch counts a source in the counting copy; after a rotation the
 * copy answers its rate, and two more rotations clear it. */
START_TEST(test_sketch_rotates)
{
	uint64_t a = src_of(1), b = src_of(2);
	unsigned i, c0 = atomic_load(&fr->copy);

	for(i = 0; i < 300; i++)
		ovc_fair_count(&fr->sk, c0, a);
	for(i = 0; i < 7; i++)
		ovc_fair_count(&fr->sk, c0, b);
	ck_assert_uint_eq(ovc_fair_rate(&fr->sk, c0, a), 300);
	ck_assert_uint_eq(ovc_fair_rate(&fr->sk, c0, b), 7);
	ovc_fair_rotate(fr);
	ck_assert_uint_ne(atomic_load(&fr->copy), c0);
	ck_assert_uint_eq(ovc_fair_prev(atomic_load(&fr->copy)), c0);
	ck_assert_uint_eq(
			ovc_fair_rate(&fr->sk, ovc_fair_prev(fr->copy), a), 300);
	ovc_fair_rotate(fr);
	ovc_fair_rotate(fr); /* back to c0: cleared before it counts */
	ck_assert_uint_eq(atomic_load(&fr->copy), c0);
	ck_assert_uint_eq(ovc_fair_rate(&fr->sk, c0, a), 0);
	ck_assert_uint_eq(ovc_fair_col(a, 0) < OVC_FAIR_COLS, 1);
}
END_TEST

/* (1) solved exactly on a small set, and (2) at that level. */
START_TEST(test_level_exact)
{
	static unsigned row[OVC_FAIR_COLS];
	double pass;

	memset(row, 0, sizeof(row));
	row[5] = 100;
	row[900] = 50;
	row[4000] = 10;
	ovc_fair_sort(row, so);
	ck_assert_uint_eq(so->n, 3);
	ck_assert_uint_eq(so->total, 160);
	ck_assert_uint_eq(so->c[0], 100);
	ck_assert_uint_eq(so->c[2], 10);
	/* D = 0.5: 80 refused, 65 + 15 above L = 35 */
	ck_assert_uint_eq(ovc_fair_level(so, 0.5, &pass), 35);
	ck_assert_double_eq_tol(pass, 0.5, 1e-9);
	/* D = 0.25: 40 refused, all from the heaviest: L = 60 */
	ck_assert_uint_eq(ovc_fair_level(so, 0.25, &pass), 60);
	ck_assert_double_eq_tol(pass, 0.75, 1e-9);
	/* D = 0.9: 144 refused, L = 16 / 3 = 5.33, rounded to 5 */
	ck_assert_uint_eq(ovc_fair_level(so, 0.9, &pass), 5);
	ck_assert_double_eq_tol(pass, 15.0 / 160, 1e-9);
	/* nothing to refuse, everything to refuse */
	ck_assert_uint_eq(ovc_fair_level(so, 0, &pass), OVC_FAIR_ALL);
	ck_assert_double_eq(pass, 1.0);
	ck_assert_uint_eq(ovc_fair_level(so, 1, &pass), 0);
	ck_assert_double_eq(pass, 0.0);
	/* no counts: no cut */
	memset(row, 0, sizeof(row));
	ovc_fair_sort(row, so);
	ck_assert_uint_eq(ovc_fair_level(so, 0.5, &pass), OVC_FAIR_ALL);
	ck_assert_double_eq(pass, 1.0);
	/* one source: its fair share is the proportional one, which the
	 * acceptor gives exactly; no cut, whatever the share */
	row[77] = 3000;
	ovc_fair_sort(row, so);
	ck_assert_uint_eq(ovc_fair_level(so, 0.5, &pass), OVC_FAIR_ALL);
	ck_assert_double_eq(pass, 1.0);
	ck_assert_uint_eq(ovc_fair_level(so, 1, &pass), OVC_FAIR_ALL);
	ck_assert_double_eq(pass, 1.0);
}
END_TEST

/* The per-call decision: a source at or below the level always passes,
 * one at 4x passes a quarter of its calls, and a call's verdict does not
 * change between its transmissions. */
START_TEST(test_passes)
{
	unsigned i, n = 0;

	ck_assert_int_eq(ovc_fair_passes(123, 50, 50), 1);
	ck_assert_int_eq(ovc_fair_passes(123, 0, 0), 1);
	ck_assert_int_eq(ovc_fair_passes(123, 50, OVC_FAIR_ALL), 1);
	for(i = 0; i < 40000; i++)
		n += ovc_fair_passes(call_of(9, i), 400, 100);
	ck_assert_uint_ge(n, 9700);
	ck_assert_uint_le(n, 10300);
	for(i = 0; i < 100; i++)
		ck_assert_int_eq(ovc_fair_passes(call_of(9, i), 400, 100),
				ovc_fair_passes(call_of(9, i), 400, 100));
	/* level 0 cuts every source that sent anything */
	ck_assert_int_eq(ovc_fair_passes(0, 1, 0), 0);
}
END_TEST

#define LIGHT 10
#define LIGHT_N 500	  /* each light source's calls per epoch */
#define HEAVY_N 80000 /* the heavy source's: 8x capacity */
#define EVERY (HEAVY_N / (LIGHT * LIGHT_N)) /* a light call every 16 */
#define CAPACITY 10000

/* One verdict: 1 when the call passes the cut and the acceptor acc
 * (NULL: none). */
static int admit(struct ovc_acceptor *acc, unsigned s, unsigned i)
{
	enum ovc_fair_verdict v =
			ovc_fair_judge(fr, src_of(s), call_of(s, i), NULL, NULL);

	if(v == OVC_FAIR_UNDER)
		ck_assert_uint_ne(s, 0); /* only the light are under the level */
	return (v == OVC_FAIR_PASS || v == OVC_FAIR_UNDER)
		   && (acc == NULL || ovc_acceptor_take(acc));
}

/* One epoch of the flood (calls round * HEAVY_N on) through the cut and
 * the acceptor acc: admitted per source into adm[0] (the heavy one),
 * adm[1..LIGHT]. The light calls are spread among the heavy's. */
static void epoch(struct ovc_acceptor *acc, unsigned *adm, unsigned round)
{
	unsigned i, s;

	memset(adm, 0, sizeof(unsigned) * (LIGHT + 1));
	for(i = 0; i < HEAVY_N; i++) {
		if(i % EVERY == 0) {
			s = 1 + (i / EVERY) % LIGHT;
			adm[s] += admit(acc, s, round * HEAVY_N + i);
		}
		adm[0] += admit(acc, 0, round * HEAVY_N + i);
	}
}

/* One source at 8x capacity, ten at 0.05x each (0.5x in all); the
 * controller admits 0.9 of capacity. The light keep everything, the heavy
 * gets the rest, and the total is f N. */
START_TEST(test_flood_light_keep_share)
{
	unsigned adm[LIGHT + 1], light = 0, total, s;
	double n = HEAVY_N + LIGHT * LIGHT_N, f, fa;
	struct ovc_acceptor acc;

	ovc_acceptor_init(&acc, 1.0);
	epoch(NULL, adm, 0); /* the first epoch: counted, no cut */
	for(s = 1; s <= LIGHT; s++)
		light += adm[s];
	ck_assert_uint_eq(adm[0], HEAVY_N);
	ck_assert_uint_eq(light, LIGHT * LIGHT_N);
	ovc_fair_rotate(fr);
	ovc_fair_sort_last(fr, so);
	ck_assert_uint_eq(so->total, (uint64_t)n);
	f = 0.9 * CAPACITY / n;
	fa = ovc_fair_apply(fr, so, f, NULL);
	ovc_acceptor_set(&acc, fa);
	/* the level: 0.9 capacity less what the light offer */
	ck_assert_uint_le(atomic_load(&fr->level), 0.9 * CAPACITY - light + 1);
	ck_assert_uint_ge(atomic_load(&fr->level), 0.9 * CAPACITY - light - 1);
	ck_assert_double_ge(fa, 0.99);
	ck_assert_double_eq_tol(ovc_acceptor_get(&fr->prop), f, 1e-6);
	epoch(&acc, adm, 1);
	for(s = 1, light = 0; s <= LIGHT; s++) {
		/* each light source keeps what it offers */
		ck_assert_uint_ge(adm[s], 0.99 * LIGHT_N);
		light += adm[s];
	}
	total = light + adm[0];
	/* the heavy pays: it keeps about L of its 80000 */
	ck_assert_uint_le(adm[0], 0.9 * CAPACITY - light + 0.03 * CAPACITY);
	/* the total is the controller's f N, within the hash's spread */
	ck_assert_double_le(total, f * n * 1.02);
	ck_assert_double_ge(total, f * n * 0.98);
	ck_assert_uint_ge(atomic_load(&fr->cut), HEAVY_N - adm[0] - 1);
}
END_TEST

/* Source-blind, the same flood costs the light sources what it costs the
 * heavy one (the acceptor alone at f): the test above would fail. */
START_TEST(test_flood_blind_acceptor)
{
	unsigned adm[LIGHT + 1], light = 0, s;
	double n = HEAVY_N + LIGHT * LIGHT_N, f;
	struct ovc_acceptor acc;

	f = 0.9 * CAPACITY / n;
	ovc_acceptor_init(&acc, f);
	epoch(&acc, adm, 0); /* no counts before: no cut */
	for(s = 1; s <= LIGHT; s++)
		light += adm[s];
	ck_assert_uint_le(light, 0.2 * LIGHT * LIGHT_N);
}
END_TEST

/* With no counts the cut passes everything and the acceptor runs at f. */
START_TEST(test_no_counts_no_cut)
{
	ovc_fair_sort_last(fr, so);
	ck_assert_double_eq_tol(ovc_fair_apply(fr, so, 0.3, NULL), 0.3, 1e-12);
	ck_assert_uint_eq(atomic_load(&fr->level), OVC_FAIR_ALL);
	ck_assert_int_eq(ovc_fair_judge(fr, src_of(1), 5, NULL, NULL),
			OVC_FAIR_PASS);
	/* f = 1: no cut */
	ck_assert_double_eq(ovc_fair_apply(fr, so, 1.0, NULL), 1.0);
	ck_assert_uint_eq(atomic_load(&fr->level), OVC_FAIR_ALL);
}
END_TEST

/* The age limit refused most of a flood before the acceptor, so the
 * acceptor's counts make the flood look light: 120 of the heavy source's
 * 2000 arrivals reached it, beside two light sources' 54 each. Only the
 * spare level, solved on the arrivals for what reached the acceptor (3),
 * tells the light ones under their share; the heavy one is not, and a
 * spare level is set only while more arrived than reached. */
START_TEST(test_spare_level_arrivals)
{
	uint64_t h = src_of(1), la = src_of(2), lb = src_of(3);
	unsigned i, c0 = atomic_load(&fr->copy);
	struct ovc_fair_sorted *ar = malloc(sizeof(*ar));
	uint32_t S;

	ck_assert_ptr_nonnull(ar);
	for(i = 0; i < 2000; i++)
		ovc_fair_arrive(fr, h);
	for(i = 0; i < 54; i++) {
		ovc_fair_arrive(fr, la);
		ovc_fair_arrive(fr, lb);
	}
	for(i = 0; i < 120; i++)
		ovc_fair_count(&fr->sk, c0, h);
	for(i = 0; i < 54; i++) {
		ovc_fair_count(&fr->sk, c0, la);
		ovc_fair_count(&fr->sk, c0, lb);
	}
	ovc_fair_rotate(fr);
	ovc_fair_sort_last(fr, so);
	ovc_fair_sort_arrivals(fr, ar);
	ck_assert_uint_eq(ar->total, 2108);
	ck_assert_uint_eq(so->total, 228);
	/* no spare level yet: nobody is under anything */
	ck_assert_int_eq(ovc_fair_under(fr, la), 0);
	/* (3): 54 + 54 + S = 228 */
	S = ovc_fair_spare_update(fr, ar, so->total);
	ck_assert_uint_eq(S, 120);
	ck_assert_int_eq(ovc_fair_under(fr, la), 1);
	ck_assert_int_eq(ovc_fair_under(fr, lb), 1);
	ck_assert_int_eq(ovc_fair_under(fr, h), 0);
	/* a cut level of the acceptor's counts below the light ones' rate
	 * (the flood's INVITEs aged out, its count there is small) does not
	 * cut them: their arrivals are under S */
	atomic_store(&fr->level, 40);
	for(i = 0; i < 200; i++)
		ck_assert_int_eq(ovc_fair_judge(fr, la, call_of(2, i), NULL, NULL),
				OVC_FAIR_UNDER);
	/* everything that arrived reached the acceptor: no spare level */
	ck_assert_uint_eq(ovc_fair_spare_update(fr, ar, ar->total), OVC_FAIR_ALL);
	atomic_store(&fr->level, OVC_FAIR_ALL);
	ck_assert_int_eq(ovc_fair_under(fr, la), 0);
	free(ar);
}
END_TEST

static const char *oc_msg = "INVITE sip:b@example.com SIP/2.0\r\n"
							"Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK1;"
							"OC;rport\r\n"
							"From: <sip:a@example.com>;tag=1\r\n"
							"To: <sip:b@example.com>\r\n"
							"Call-ID: c1@x\r\n"
							"CSeq: 1 INVITE\r\n"
							"Content-Length: 0\r\n\r\n";

/* A source that offers oc is not cut (exempt), the others are. */
START_TEST(test_oc_source_exempt)
{
	struct ovc_sip_scan sc;
	unsigned i, copy = atomic_load(&fr->copy), ex = 0, cut = 0;

	ck_assert_int_eq(ovc_sip_scan(oc_msg, strlen(oc_msg), &sc), OVC_SCAN_OK);
	ck_assert_int_eq(ovc_fair_via_oc(oc_msg, &sc), 1);
	for(i = 0; i < 1000; i++)
		ovc_fair_count(&fr->sk, copy, src_of(3));
	ovc_fair_rotate(fr);
	atomic_store(&fr->level, 10);
	for(i = 0; i < 200; i++) {
		enum ovc_fair_verdict v = ovc_fair_judge(
				fr, src_of(3), call_of(3, i), oc_msg, &sc);
		ck_assert_int_ne(v, OVC_FAIR_CUT);
		ex += v == OVC_FAIR_EXEMPT;
		v = ovc_fair_judge(fr, src_of(3), call_of(3, i), NULL, NULL);
		cut += v == OVC_FAIR_CUT;
	}
	ck_assert_uint_ge(ex, 190);
	ck_assert_uint_eq(ex, cut);
	ck_assert_uint_eq(atomic_load(&fr->exempt), ex);
}
END_TEST

/* oc is a parameter of the top Via's first value only, by name. */
START_TEST(test_via_oc_parse)
{
	static const char *const yes[] = {
			"SIP/2.0/UDP h;oc", "SIP/2.0/UDP h;branch=z9;oc=20",
			"SIP/2.0/UDP h:5060 ; oc ;rport", "SIP/2.0/UDP h;Oc,SIP/2.0/UDP g"};
	static const char *const no[] = {"SIP/2.0/UDP h;branch=oc",
			"SIP/2.0/UDP h;occ=1", "SIP/2.0/UDP h;rport,SIP/2.0/UDP g;oc",
			"SIP/2.0/UDP oc.example.com;rport"};
	char msg[512];
	struct ovc_sip_scan sc;
	unsigned i;

	for(i = 0; i < 8; i++) {
		const char *via = i < 4 ? yes[i] : no[i - 4];

		snprintf(msg, sizeof(msg),
				"INVITE sip:b@e SIP/2.0\r\nVia: %s\r\nFrom: <sip:a@e>;tag=1"
				"\r\nTo: <sip:b@e>\r\nCall-ID: c\r\nCSeq: 1 INVITE\r\n"
				"Content-Length: 0\r\n\r\n",
				via);
		ck_assert_int_eq(ovc_sip_scan(msg, strlen(msg), &sc), OVC_SCAN_OK);
		ck_assert_msg(ovc_fair_via_oc(msg, &sc) == (i < 4), "%s", via);
	}
}
END_TEST

/* The call hash depends on the Call-ID and the secret only. */
START_TEST(test_call_hash)
{
	struct ovc_sip_scan sc;
	uint64_t a, b;

	ck_assert_int_eq(ovc_sip_scan(oc_msg, strlen(oc_msg), &sc), OVC_SCAN_OK);
	a = ovc_fair_call(1, oc_msg, &sc);
	b = ovc_fair_call(2, oc_msg, &sc);
	ck_assert(a != b);
	ck_assert(a == ovc_fair_call(1, oc_msg, &sc));
	ck_assert(ovc_fair_key("x", 1) != 0);
}
END_TEST

Suite *make_suite_fair(void)
{
	Suite *s = suite_create("fair");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_sketch_rotates);
	tcase_add_test(tc, test_level_exact);
	tcase_add_test(tc, test_passes);
	tcase_add_test(tc, test_flood_light_keep_share);
	tcase_add_test(tc, test_flood_blind_acceptor);
	tcase_add_test(tc, test_no_counts_no_cut);
	tcase_add_test(tc, test_spare_level_arrivals);
	tcase_add_test(tc, test_oc_source_exempt);
	tcase_add_test(tc, test_via_oc_parse);
	tcase_add_test(tc, test_call_hash);
	suite_add_tcase(s, tc);
	return s;
}
