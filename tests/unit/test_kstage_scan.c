/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - the kernel stage's scan (ovc/kstage_scan.h), compiled
 * natively: the code the socket filter runs.
 */
#include <string.h>

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

Suite *make_suite_kstage_scan(void)
{
	Suite *s = suite_create("kstage_scan");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_initial_invite);
	tcase_add_test(tc, test_passes);
	tcase_add_test(tc, test_unsure);
	suite_add_tcase(s, tc);
	return s;
}
