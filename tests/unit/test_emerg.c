/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/emerg.c: parsing the emergency list (and refusing
 * bad ones), matching Request-URIs by user, host and URN, and the
 * Priority header in raw requests.
 */
#include <string.h>

#include "ovc/emerg.h"
#include "ovc/types.h"
#include "suites.h"

#define M(e, u) ovc_emerg_match_uri(&(e), (u), strlen(u))

START_TEST(test_default_list)
{
	struct ovc_emerg e;

	ck_assert_int_eq(
			ovc_emerg_parse(&e, "sos,911,112,urn:service:sos", 0, NULL, 0),
			OVC_OK);
	ck_assert_uint_eq(e.n, 4);
	ck_assert(M(e, "sip:sos@example.net"));
	ck_assert(M(e, "sip:SOS@example.net;user=phone"));
	ck_assert(M(e, "sips:911@10.0.0.1:5061"));
	ck_assert(M(e, "sip:112;phone-context=+49@example.net"));
	ck_assert(M(e, "tel:911"));
	ck_assert(M(e, "tel:112;phone-context=+44"));
	ck_assert(M(e, "urn:service:sos"));
	ck_assert(M(e, "URN:Service:SOS.fire"));
	ck_assert(!M(e, "urn:service:sosx"));
	ck_assert(!M(e, "urn:service:counseling"));
	ck_assert(!M(e, "sip:9110@example.net"));
	ck_assert(!M(e, "sip:service@127.0.0.1:5060"));
	ck_assert(!M(e, "sip:alice@sos"));
	ck_assert(!M(e, "sip:911"));		/* host 911, no user */
	ck_assert(!M(e, "mailto:sos@x"));
	ck_assert(!M(e, ""));
}
END_TEST

START_TEST(test_host_tokens)
{
	struct ovc_emerg e;

	ck_assert_int_eq(ovc_emerg_parse(&e, " @psap.example.net , 999 ", 0,
							 NULL, 0),
			OVC_OK);
	ck_assert_uint_eq(e.n, 2);
	ck_assert(M(e, "sip:any@PSAP.example.net:5060;transport=udp"));
	ck_assert(M(e, "sip:psap.example.net"));
	ck_assert(!M(e, "sip:any@psap.example.net.evil"));
	ck_assert(M(e, "sip:999@x"));
	ck_assert_int_eq(ovc_emerg_parse(&e, "@[::1]", 0, NULL, 0), OVC_OK);
	ck_assert(M(e, "sip:a@[::1]:5060"));
}
END_TEST

START_TEST(test_bad_lists)
{
	struct ovc_emerg e, before;
	char err[128], big[100];

	ck_assert_int_eq(ovc_emerg_parse(&e, "sos", 0, NULL, 0), OVC_OK);
	memcpy(&before, &e, sizeof(before)); /* padding too */
	ck_assert_int_eq(ovc_emerg_parse(&e, "sos,,911", 0, err, sizeof(err)),
			OVC_EINVAL);
	ck_assert(strstr(err, "empty") != NULL);
	ck_assert_int_eq(ovc_emerg_parse(&e, "sos,", 0, err, sizeof(err)),
			OVC_EINVAL);
	ck_assert_int_eq(ovc_emerg_parse(&e, "@", 0, err, sizeof(err)),
			OVC_EINVAL);
	ck_assert_int_eq(ovc_emerg_parse(&e, "s os", 0, err, sizeof(err)),
			OVC_EINVAL);
	ck_assert_int_eq(ovc_emerg_parse(&e, "so\r\ns", 0, err, sizeof(err)),
			OVC_EINVAL);
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(ovc_emerg_parse(&e, big, 0, err, sizeof(err)),
			OVC_ERANGE);
	ck_assert_int_eq(ovc_emerg_parse(&e, "1,2,3,4,5,6,7,8,9,10,11,12,13,14,"
										 "15,16,17",
							 0, err, sizeof(err)),
			OVC_ERANGE);
	ck_assert_int_eq(ovc_emerg_parse(&e, "sos", 2, err, sizeof(err)),
			OVC_ERANGE);
	ck_assert_int_eq(ovc_emerg_parse(&e, NULL, 0, err, sizeof(err)),
			OVC_EINVAL);
	ck_assert_mem_eq(&e, &before, sizeof(e));
	/* the empty list is valid and matches no URI */
	ck_assert_int_eq(ovc_emerg_parse(&e, "", 0, NULL, 0), OVC_OK);
	ck_assert_uint_eq(e.n, 0);
	ck_assert(!M(e, "sip:sos@x"));
}
END_TEST

static const char req_prio[] = "INVITE sip:bob@x SIP/2.0\r\n"
							   "Via: SIP/2.0/UDP 1.2.3.4\r\n"
							   "priority :  Emergency \r\n"
							   "\r\n";
static const char req_urgent[] = "INVITE sip:bob@x SIP/2.0\r\n"
								 "Priority: urgent\r\n"
								 "\r\n"
								 "Priority: emergency\r\n";
static const char req_prio_x[] = "INVITE sip:bob@x SIP/2.0\r\n"
								 "Priority-X: emergency\r\n"
								 "Priority: emergencyy\r\n"
								 "\r\n";

START_TEST(test_priority)
{
	struct ovc_emerg e;
	const char *uri = req_prio + 7;

	ck_assert(ovc_emerg_priority_raw(req_prio, strlen(req_prio)));
	ck_assert(!ovc_emerg_priority_raw(req_urgent, strlen(req_urgent)));
	ck_assert(!ovc_emerg_priority_raw(req_prio_x, strlen(req_prio_x)));
	/* truncated: never reads past len */
	ck_assert(!ovc_emerg_priority_raw(req_prio, 40));
	ck_assert(!ovc_emerg_priority_raw(NULL, 10));
	/* Priority counts only when switched on */
	ck_assert_int_eq(ovc_emerg_parse(&e, "sos", 0, NULL, 0), OVC_OK);
	ck_assert(!ovc_emerg_match(&e, req_prio, strlen(req_prio), uri, 9));
	ck_assert_int_eq(ovc_emerg_parse(&e, "sos", 1, NULL, 0), OVC_OK);
	ck_assert(ovc_emerg_match(&e, req_prio, strlen(req_prio), uri, 9));
	ck_assert(!ovc_emerg_match(&e, req_urgent, strlen(req_urgent), uri, 9));
}
END_TEST

Suite *make_suite_emerg(void)
{
	Suite *s = suite_create("emerg");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_default_list);
	tcase_add_test(tc, test_host_tokens);
	tcase_add_test(tc, test_bad_lists);
	tcase_add_test(tc, test_priority);
	suite_add_tcase(s, tc);
	return s;
}
