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

/* Classifies the n bytes msg (NUL bytes allowed). */
static int classify_n(const char *msg, size_t n)
{
	memset(&w, 0xaa, sizeof(w)); /* stale bytes past n, as in the map */
	if(n > OVC_KS_SCAN)
		n = OVC_KS_SCAN;
	memcpy(w.b, msg, n);
	return ovc_ks_classify(&w, (unsigned)n);
}

static int classify(const char *msg)
{
	return classify_n(msg, strlen(msg));
}

static unsigned long long fnv_more(unsigned long long h, const char *s)
{
	for(; *s; s++)
		h = (h ^ (unsigned char)*s) * OVC_KS_FNV_PRIME;
	return h;
}

/* The key of an initial INVITE: the hash of its Call-ID, a LF and its
 * top Via header's value. */
static unsigned long long txkey(const char *cid, const char *via)
{
	return fnv_more(fnv_more(fnv_more(OVC_KS_FNV_OFFSET, cid), "\n"), via);
}

#define VIA1 "SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK776"
#define HEAD                                 \
	"INVITE sip:bob@example.com SIP/2.0\r\n" \
	"Via: " VIA1 "\r\n"

START_TEST(test_initial_invite)
{
	ck_assert_int_eq(classify(HEAD "To: <sip:bob@example.com>\r\n"
								   "From: <sip:a@b>;tag=1\r\n"
								   "Call-ID: a84b4c76e66710@pc33\r\n"
								   "CSeq: 1 INVITE\r\n\r\nv=0\r\n"),
			OVC_KS_INVITE);
	ck_assert(w.key == txkey("a84b4c76e66710@pc33", VIA1));
	/* compact forms, any case, blanks after the colon */
	ck_assert_int_eq(classify(HEAD "t:   <sip:bob@example.com>\r\n"
								   "I:\tabc\r\nf: <sip:a@b>;tag=1\r\n\r\n"),
			OVC_KS_INVITE);
	ck_assert(w.key == txkey("abc", VIA1));
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
				"X-Pad: %.*s\r\nVia: " VIA1 "\r\nTo: <sip:b@x>\r\n"
				"Call-ID: c1\r\n\r\n",
				pad, "0123456789abcdef");
		ck_assert_int_eq(classify(msg), OVC_KS_INVITE);
		ck_assert(w.key == txkey("c1", VIA1));
		snprintf(msg, sizeof(msg),
				"INVITE sip:bob@example.com SIP/2.0\r\n"
				"X-Pad: %.*s\r\nv: " VIA1 "\r\nTo: <sip:b@x>;Tag=7\r\n"
				"i: c1\r\n\r\n",
				pad, "0123456789abcdef");
		ck_assert_int_eq(classify(msg), OVC_KS_OTHER);
	}
}
END_TEST

/* Bounds: a Call-ID of OVC_KS_CALLID_MAX bytes is hashed, one more is
 * unsure; headers that end past the scanned bytes are unsure, and so are
 * more than OVC_KS_LINES header lines. */
START_TEST(test_bounds)
{
	char msg[2048], cid[OVC_KS_CALLID_MAX + 2];
	unsigned i;

	memset(cid, 'c', sizeof(cid));
	cid[OVC_KS_CALLID_MAX] = '\0';
	snprintf(
			msg, sizeof(msg), HEAD "To: <sip:b@x>\r\nCall-ID: %s\r\n\r\n", cid);
	ck_assert_int_eq(classify(msg), OVC_KS_INVITE);
	ck_assert(w.key == txkey(cid, VIA1));
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
	/* OVC_KS_LINES header lines are judged, one more is unsure */
	snprintf(msg, sizeof(msg), HEAD "To: <sip:b@x>\r\n");
	for(i = 0; i < OVC_KS_LINES - 3; i++)
		strcat(msg, "a:1\r\n");
	strcat(msg, "Call-ID: c1\r\n\r\n");
	ck_assert_int_eq(classify(msg), OVC_KS_INVITE);
	snprintf(msg, sizeof(msg), HEAD "To: <sip:b@x>\r\na:1\r\n");
	for(i = 0; i < OVC_KS_LINES - 3; i++)
		strcat(msg, "a:1\r\n");
	strcat(msg, "Call-ID: c1\r\n\r\n");
	ck_assert_int_eq(classify(msg), OVC_KS_UNSURE);
}
END_TEST

/* Kamailio takes the method in any case, after any CR, LF, NUL, SP or HT
 * (parse_msg(), parse_first_line()): so does the scan, with the same key;
 * the method must be followed by one SP, as Kamailio requires. */
START_TEST(test_method_case)
{
	static const char *const m[] = {"invite", "Invite", "INVITe", "iNvItE"};
	static const char *const lead[] = {"\r\n", "\r\n\r\n", " ", "\t\r\n"};
	static const char tail[] = " sip:bob@example.com SIP/2.0\r\n"
							   "Via: " VIA1 "\r\nTo: <sip:b@x>\r\n"
							   "Call-ID: c1\r\n\r\n";
	char msg[512];
	size_t i, n;

	for(i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		snprintf(msg, sizeof(msg), "%s%s", m[i], tail);
		ck_assert_msg(classify(msg) == OVC_KS_INVITE, "%s", m[i]);
		ck_assert(w.key == txkey("c1", VIA1));
		/* in-dialog in any case, emergency URNs in any case */
		snprintf(msg, sizeof(msg),
				"%s sip:b@x SIP/2.0\r\nVia: " VIA1 "\r\n"
				"To: <sip:b@x>;tag=9\r\nCall-ID: c1\r\n\r\n",
				m[i]);
		ck_assert_int_eq(classify(msg), OVC_KS_OTHER);
		snprintf(msg, sizeof(msg),
				"%s URN:service:sos SIP/2.0\r\nVia: " VIA1 "\r\n"
				"To: <urn:service:sos>\r\nCall-ID: c1\r\n\r\n",
				m[i]);
		ck_assert_int_eq(classify(msg), OVC_KS_OTHER);
	}
	for(i = 0; i < sizeof(lead) / sizeof(lead[0]); i++) {
		snprintf(msg, sizeof(msg), "%sINVITE%s", lead[i], tail);
		ck_assert_msg(classify(msg) == OVC_KS_INVITE, "lead %zu", i);
		ck_assert(w.key == txkey("c1", VIA1));
	}
	/* a NUL before it; OVC_KS_LEAD_MAX blanks, then one more (unsure) */
	n = (size_t)snprintf(msg, sizeof(msg), "%c%cinvite%s", '\0', '\n', tail);
	ck_assert_int_eq(classify_n(msg, n), OVC_KS_INVITE);
	memset(msg, ' ', OVC_KS_LEAD_MAX);
	snprintf(msg + OVC_KS_LEAD_MAX, sizeof(msg) - OVC_KS_LEAD_MAX, "INVITE%s",
			tail);
	ck_assert_int_eq(classify(msg), OVC_KS_INVITE);
	memset(msg, ' ', OVC_KS_LEAD_MAX + 1);
	snprintf(msg + OVC_KS_LEAD_MAX + 1, sizeof(msg) - OVC_KS_LEAD_MAX - 1,
			"INVITE%s", tail);
	ck_assert_int_eq(classify(msg), OVC_KS_UNSURE);
	/* what Kamailio does not take for an INVITE: another method, the
	 * method followed by HT, a longer or shorter token */
	ck_assert_int_eq(classify("INVITE\tsip:b@x SIP/2.0\r\nVia: " VIA1
							  "\r\nTo: <sip:b@x>\r\nCall-ID: c1\r\n\r\n"),
			OVC_KS_OTHER);
	ck_assert_int_eq(classify("INVITES sip:b@x SIP/2.0\r\nVia: " VIA1
							  "\r\nTo: <sip:b@x>\r\nCall-ID: c1\r\n\r\n"),
			OVC_KS_OTHER);
	ck_assert_int_eq(classify("INVIT sip:b@x SIP/2.0\r\nVia: " VIA1
							  "\r\nTo: <sip:b@x>\r\nCall-ID: c1\r\n\r\n"),
			OVC_KS_OTHER);
	ck_assert_int_eq(classify("\r\n\r\nOPTIONS sip:b@x SIP/2.0\r\nVia: " VIA1
							  "\r\nTo: <sip:b@x>\r\nCall-ID: c1\r\n\r\n"),
			OVC_KS_OTHER);
	/* lines ended by LF alone: "tag" in a later header is no To-tag */
	ck_assert_int_eq(classify("invite sip:b@x SIP/2.0\nVia: " VIA1 "\n"
							  "To: <sip:b@x>\nFrom: <sip:a@x>;tag=1\n"
							  "Call-ID: c1\n\n"),
			OVC_KS_INVITE);
	ck_assert(w.key == txkey("c1", VIA1));
}
END_TEST

/* One initial INVITE of the transaction (Call-ID, top Via), as
 * retransmitted or replayed. */
static int invite(const char *uri, const char *via, const char *cid, int cseq)
{
	static char msg[1024];

	snprintf(msg, sizeof(msg),
			"INVITE %s SIP/2.0\r\nVia: %s\r\n"
			"Via: SIP/2.0/UDP 10.9.9.9;branch=z9hG4bKup\r\n"
			"To: <sip:b@x>\r\nFrom: <sip:a@x>;tag=1\r\nCall-ID: %s\r\n"
			"CSeq: %d INVITE\r\n\r\n",
			uri, via, cid, cseq);
	return classify(msg);
}

/* The key is the transaction's (RFC 3261 17.2.3: the top Via's branch
 * and sent-by) within the call: a retransmission has its first
 * transmission's key, an INVITE reusing an admitted call's Call-ID with a
 * new branch or another sent-by has a key of its own. */
START_TEST(test_key_transaction)
{
	static const char via2[] = "SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK777";
	static const char via3[] = "SIP/2.0/UDP 10.0.0.2:5060;branch=z9hG4bK776";
	unsigned long long k1;

	ck_assert_int_eq(invite("sip:bob@x", VIA1, "c1", 1), OVC_KS_INVITE);
	k1 = w.key;
	ck_assert(k1 == txkey("c1", VIA1));
	/* its retransmission */
	ck_assert_int_eq(invite("sip:bob@x", VIA1, "c1", 1), OVC_KS_INVITE);
	ck_assert(w.key == k1);
	/* a new branch: a new request (a replay, or a new attempt) */
	ck_assert_int_eq(invite("sip:bob@x", via2, "c1", 1), OVC_KS_INVITE);
	ck_assert(w.key != k1);
	ck_assert(w.key == txkey("c1", via2));
	/* the same branch from another sent-by */
	ck_assert_int_eq(invite("sip:bob@x", via3, "c1", 1), OVC_KS_INVITE);
	ck_assert(w.key != k1);
	/* another call with the same top Via */
	ck_assert_int_eq(invite("sip:bob@x", VIA1, "c2", 1), OVC_KS_INVITE);
	ck_assert(w.key != k1);
	/* the same Call-ID and top Via: the same transaction to tm whatever
	 * the Request-URI and CSeq (tm answers it as a retransmission) */
	ck_assert_int_eq(invite("sip:carol@y", VIA1, "c1", 2), OVC_KS_INVITE);
	ck_assert(w.key == k1);
	/* the top Via compact, or its value after blanks: the same key */
	ck_assert_int_eq(classify("INVITE sip:b@x SIP/2.0\r\nv:  " VIA1
							  "\r\nTo: <sip:b@x>\r\nCall-ID: c1\r\n\r\n"),
			OVC_KS_INVITE);
	ck_assert(w.key == k1);
	/* only the top Via counts: the ones below it do not change the key */
	ck_assert_int_eq(classify(HEAD "Via: SIP/2.0/UDP 10.9.9.9;branch=z9hG4bKx"
								   "\r\nTo: <sip:b@x>\r\nCall-ID: c1\r\n\r\n"),
			OVC_KS_INVITE);
	ck_assert(w.key == k1);
}
END_TEST

/* A top Via the scan cannot judge: the INVITE is unsure (it passes). */
START_TEST(test_via_unsure)
{
	char msg[1024], via[OVC_KS_VIA_MAX + 2];

	/* none, folded, a blank before the colon (Kamailio takes it) */
	ck_assert_int_eq(classify("INVITE sip:b@x SIP/2.0\r\nTo: <sip:b@x>\r\n"
							  "Call-ID: c1\r\n\r\n"),
			OVC_KS_UNSURE);
	ck_assert_int_eq(classify("INVITE sip:b@x SIP/2.0\r\n"
							  "Via: SIP/2.0/UDP 10.0.0.1:5060\r\n"
							  " ;branch=z9hG4bK1\r\nTo: <sip:b@x>\r\n"
							  "Call-ID: c1\r\n\r\n"),
			OVC_KS_UNSURE);
	ck_assert_int_eq(classify("INVITE sip:b@x SIP/2.0\r\nVia : SIP/2.0/UDP "
							  "h;branch=z9hG4bK1\r\n"
							  "Via: " VIA1 "\r\nTo: <sip:b@x>\r\n"
							  "Call-ID: c1\r\n\r\n"),
			OVC_KS_UNSURE);
	ck_assert_int_eq(classify("INVITE sip:b@x SIP/2.0\r\nv\t: SIP/2.0/UDP "
							  "h;branch=z9hG4bK1\r\n"
							  "Via: " VIA1 "\r\nTo: <sip:b@x>\r\n"
							  "Call-ID: c1\r\n\r\n"),
			OVC_KS_UNSURE);
	/* a blank before the colon of a To or Call-ID alike */
	ck_assert_int_eq(classify(HEAD "To: <sip:b@x>\r\nCall-ID\t: c0\r\n"
								   "Call-ID: c1\r\n\r\n"),
			OVC_KS_UNSURE);
	/* a folded Via below the top one: judged */
	ck_assert_int_eq(classify(HEAD "Via: SIP/2.0/UDP 10.9.9.9\r\n"
								   " ;branch=z9hG4bKx\r\nTo: <sip:b@x>\r\n"
								   "Call-ID: c1\r\n\r\n"),
			OVC_KS_INVITE);
	/* a top Via of OVC_KS_VIA_MAX bytes is hashed, one more is unsure */
	memset(via, 'v', sizeof(via));
	via[OVC_KS_VIA_MAX] = '\0';
	snprintf(msg, sizeof(msg),
			"INVITE sip:b@x SIP/2.0\r\nVia: %s\r\nTo: <sip:b@x>\r\n"
			"Call-ID: c1\r\n\r\n",
			via);
	ck_assert_int_eq(classify(msg), OVC_KS_INVITE);
	ck_assert(w.key == txkey("c1", via));
	via[OVC_KS_VIA_MAX] = 'v';
	via[OVC_KS_VIA_MAX + 1] = '\0';
	snprintf(msg, sizeof(msg),
			"INVITE sip:b@x SIP/2.0\r\nVia: %s\r\nTo: <sip:b@x>\r\n"
			"Call-ID: c1\r\n\r\n",
			via);
	ck_assert_int_eq(classify(msg), OVC_KS_UNSURE);
}
END_TEST

/* The byte classes the scan computes without branches, against their
 * definitions, for every byte; the filter's first look at 8 bytes. */
START_TEST(test_byte_classes)
{
	unsigned char head[8];
	unsigned c;

	for(c = 0; c < 256; c++) {
		ck_assert_uint_eq(ovc_ks_eol(c), c == '\r' || c == '\n');
		ck_assert_uint_eq(ovc_ks_lead(c),
				c == '\r' || c == '\n' || c == '\0' || c == ' ' || c == '\t');
		memcpy(head, "INVITE x", 8);
		head[0] = (unsigned char)c;
		ck_assert_int_eq(ovc_ks_may_invite(head),
				c == 'I' || c == 'i' || ovc_ks_lead(c));
	}
	ck_assert(ovc_ks_may_invite((const unsigned char *)"iNvItE s"));
	ck_assert(!ovc_ks_may_invite((const unsigned char *)"INVITE\ts"));
	ck_assert(!ovc_ks_may_invite((const unsigned char *)"INVITES "));
	ck_assert(!ovc_ks_may_invite((const unsigned char *)"BYE sip:"));
	ck_assert(!ovc_ks_may_invite((const unsigned char *)"SIP/2.0 "));
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
		key = fnv_more(OVC_KS_FNV_OFFSET, cid);
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
	tcase_add_test(tc, test_method_case);
	tcase_add_test(tc, test_key_transaction);
	tcase_add_test(tc, test_via_unsure);
	tcase_add_test(tc, test_byte_classes);
	suite_add_tcase(s, tc);
	return s;
}
