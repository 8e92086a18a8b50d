/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - the kernel stage's scan (ovc/kstage_scan.h), compiled
 * natively: the code the socket filter runs.
 */
#include <stdio.h>
#include <string.h>

#include "ovc/kstage_abi.h"
#include "ovc/kstage_scan.h"

#include "suites.h"

static struct ovc_ks_work w;

static int classify(const char *msg)
{
	size_t n = strlen(msg);

	memset(&w, 0xaa, sizeof(w)); /* stale bytes past n, as in the map */
	if(n > OVC_KS_SCAN)
		n = OVC_KS_SCAN;
	memcpy(w.b, msg, n);
	return ovc_ks_classify(&w, (unsigned)n);
}

static unsigned long long fnv(const char *s)
{
	unsigned long long h = OVC_KS_FNV_OFFSET;

	for(; *s; s++)
		h = (h ^ (unsigned char)*s) * OVC_KS_FNV_PRIME;
	return h;
}

#define HEAD                                 \
	"INVITE sip:bob@example.com SIP/2.0\r\n" \
	"Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK776\r\n"

START_TEST(test_initial_invite)
{
	ck_assert_int_eq(classify(HEAD "To: <sip:bob@example.com>\r\n"
								   "From: <sip:a@b>;tag=1\r\n"
								   "Call-ID: a84b4c76e66710@pc33\r\n"
								   "CSeq: 1 INVITE\r\n\r\nv=0\r\n"),
			OVC_KS_INVITE);
	ck_assert(w.key == fnv("a84b4c76e66710@pc33"));
	/* compact forms, any case, blanks after the colon */
	ck_assert_int_eq(classify(HEAD "t:   <sip:bob@example.com>\r\n"
								   "I:\tabc\r\nf: <sip:a@b>;tag=1\r\n\r\n"),
			OVC_KS_INVITE);
	ck_assert(w.key == fnv("abc"));
}
END_TEST

START_TEST(test_passes)
{
	/* in-dialog (To-tag), a response, another method, an emergency URN */
	ck_assert_int_eq(classify(HEAD "To: <sip:b@x>;tag=99\r\n"
								   "Call-ID: c1\r\n\r\n"),
			OVC_KS_OTHER);
	ck_assert_int_eq(classify("SIP/2.0 200 OK\r\nTo: <sip:b@x>\r\n"
							  "Call-ID: c1\r\n\r\n"),
			OVC_KS_OTHER);
	ck_assert_int_eq(classify("BYE sip:b@x SIP/2.0\r\nTo: <sip:b@x>\r\n"
							  "Call-ID: c1\r\n\r\n"),
			OVC_KS_OTHER);
	ck_assert_int_eq(classify("INVITE urn:service:sos SIP/2.0\r\n"
							  "To: <urn:service:sos>\r\nCall-ID: c1\r\n\r\n"),
			OVC_KS_OTHER);
}
END_TEST

START_TEST(test_unsure)
{
	/* no end of headers, a folded Call-ID, two To, a blank before the
	 * colon (not recognised: no To), trailing blank in the Call-ID */
	ck_assert_int_eq(
			classify(HEAD "To: <sip:b@x>\r\nCall-ID: c1\r\n"), OVC_KS_UNSURE);
	ck_assert_int_eq(classify(HEAD "To: <sip:b@x>\r\nCall-ID: c1\r\n"
								   " more\r\n\r\n"),
			OVC_KS_UNSURE);
	ck_assert_int_eq(classify(HEAD "To: <sip:b@x>\r\nTo: <sip:c@x>\r\n"
								   "Call-ID: c1\r\n\r\n"),
			OVC_KS_UNSURE);
	ck_assert_int_eq(classify(HEAD "To : <sip:b@x>\r\nCall-ID: c1\r\n\r\n"),
			OVC_KS_UNSURE);
	ck_assert_int_eq(classify(HEAD "To: <sip:b@x>\r\nCall-ID: c1 \r\n\r\n"),
			OVC_KS_UNSURE);
}
END_TEST

/* The 8-byte steps: the same message with its lines shifted by 0-15
 * bytes, so that every LF falls at every place in a word. */
START_TEST(test_word_boundaries)
{
	char msg[512];
	int pad;

	for(pad = 0; pad < 16; pad++) {
		snprintf(msg, sizeof(msg),
				"INVITE sip:bob@example.com SIP/2.0\r\n"
				"X-Pad: %.*s\r\nTo: <sip:b@x>\r\nCall-ID: c1\r\n\r\n",
				pad, "0123456789abcdef");
		ck_assert_int_eq(classify(msg), OVC_KS_INVITE);
		ck_assert(w.key == fnv("c1"));
		snprintf(msg, sizeof(msg),
				"INVITE sip:bob@example.com SIP/2.0\r\n"
				"X-Pad: %.*s\r\nTo: <sip:b@x>;Tag=7\r\ni: c1\r\n\r\n",
				pad, "0123456789abcdef");
		ck_assert_int_eq(classify(msg), OVC_KS_OTHER);
	}
}
END_TEST

/* Bounds: a Call-ID of OVC_KS_CALLID_MAX bytes is hashed, one more is
 * unsure; headers that end past the scanned bytes are unsure. */
START_TEST(test_bounds)
{
	char msg[2048], cid[OVC_KS_CALLID_MAX + 2];

	memset(cid, 'c', sizeof(cid));
	cid[OVC_KS_CALLID_MAX] = '\0';
	snprintf(
			msg, sizeof(msg), HEAD "To: <sip:b@x>\r\nCall-ID: %s\r\n\r\n", cid);
	ck_assert_int_eq(classify(msg), OVC_KS_INVITE);
	ck_assert(w.key == fnv(cid));
	cid[OVC_KS_CALLID_MAX] = 'c';
	cid[OVC_KS_CALLID_MAX + 1] = '\0';
	snprintf(
			msg, sizeof(msg), HEAD "To: <sip:b@x>\r\nCall-ID: %s\r\n\r\n", cid);
	ck_assert_int_eq(classify(msg), OVC_KS_UNSURE);
	memset(cid, 'p', sizeof(cid));
	cid[sizeof(cid) - 1] = '\0';
	snprintf(msg, sizeof(msg),
			HEAD "To: <sip:b@x>\r\nX-1: %s\r\nX-2: %s\r\nX-3: %s\r\n"
				 "X-4: %s\r\nX-5: %s\r\nX-6: %s\r\nX-7: %s\r\n"
				 "Call-ID: c1\r\n\r\n",
			cid, cid, cid, cid, cid, cid, cid);
	ck_assert_int_eq(classify(msg), OVC_KS_UNSURE);
}
END_TEST

/* The share is of calls: none at 0, all at OVC_KS_ONE, about half of
 * 20 000 SIPp-like Call-IDs at 1/2, and a call dropped at a share is
 * dropped at every larger one (a rising share drops more calls, it does
 * not pick others). */
START_TEST(test_call_share)
{
	char cid[64];
	unsigned i, half = 0, quarter = 0;
	unsigned long long key;

	for(i = 0; i < 20000; i++) {
		snprintf(cid, sizeof(cid), "%u-4711@10.77.0.21", i + 1);
		key = fnv(cid);
		ck_assert(!ovc_ks_call_dropped(key, 0));
		ck_assert(ovc_ks_call_dropped(key, OVC_KS_ONE));
		if(ovc_ks_call_dropped(key, OVC_KS_ONE / 4)) {
			quarter++;
			ck_assert(ovc_ks_call_dropped(key, OVC_KS_ONE / 2));
		}
		half += ovc_ks_call_dropped(key, OVC_KS_ONE / 2);
	}
	ck_assert_msg(half > 9700 && half < 10300, "1/2: %u of 20000", half);
	ck_assert_msg(
			quarter > 4800 && quarter < 5200, "1/4: %u of 20000", quarter);
}
END_TEST

Suite *make_suite_kstage_scan(void)
{
	Suite *s = suite_create("kstage_scan");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_initial_invite);
	tcase_add_test(tc, test_passes);
	tcase_add_test(tc, test_unsure);
	tcase_add_test(tc, test_word_boundaries);
	tcase_add_test(tc, test_bounds);
	tcase_add_test(tc, test_call_share);
	suite_add_tcase(s, tc);
	return s;
}
