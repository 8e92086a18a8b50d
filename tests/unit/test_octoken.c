/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/octoken.c: SipHash-2-4 against its paper's
 * vector, the token a request's offer carries and that its response
 * returns (through the next hop's own feedback rewrite), and what does
 * not verify: no token, another source, another branch, another key, a
 * malformed token.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovc/oc7339.h"
#include "ovc/octoken.h"
#include "ovc/types.h"
#include "suites.h"

#define HOP "udp:192.0.2.7:5060"

static const struct ovc_oct_key key = {{0x00, 0x01, 0x02, 0x03, 0x04, 0x05,
		0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f}};

static const char request[] =
		"INVITE sip:bob@192.0.2.7 SIP/2.0\r\n"
		"Via: SIP/2.0/UDP 192.0.2.1:5060;branch=z9hG4bKedge.1;rport\r\n"
		"Via: SIP/2.0/UDP 192.0.2.10:5062;branch=z9hG4bK74bf9\r\n"
		"From: <sip:alice@example.com>;tag=9fxced76sl\r\n"
		"To: <sip:bob@example.com>\r\n"
		"Call-ID: c1\r\n"
		"CSeq: 1 INVITE\r\n"
		"Content-Length: 0\r\n"
		"\r\n";

static char out[4096], resp[4096], fb_out[4096];

/* The top Via line of msg (up to its CRLF) into buf. */
static void top_via(const char *msg, char *buf, size_t size)
{
	const char *v = strstr(msg, "\r\nVia: ");
	const char *e;

	ck_assert_ptr_nonnull(v);
	v += 2;
	e = strstr(v, "\r\n");
	ck_assert((size_t)(e - v) < size);
	memcpy(buf, v, (size_t)(e - v));
	buf[e - v] = '\0';
}

/* The response msg's next hop answers with: its status line and the
 * request's Via lines (RFC 3261 8.2.6.2), oc values as given in top
 * (NULL: as they were). */
static size_t answer(const char *req, const char *extra)
{
	char via[1024];
	int n;

	top_via(req, via, sizeof(via));
	n = snprintf(resp, sizeof(resp),
			"SIP/2.0 180 Ringing\r\n%s%s\r\n"
			"Via: SIP/2.0/UDP 192.0.2.10:5062;branch=z9hG4bK74bf9\r\n"
			"Content-Length: 0\r\n\r\n",
			via, extra ? extra : "");
	ck_assert(n > 0 && (size_t)n < sizeof(resp));
	return (size_t)n;
}

START_TEST(test_siphash_vector)
{
	uint8_t m[15];
	unsigned i;

	/* SipHash-2-4, key 00..0f, message 00..0e (the paper's appendix) */
	for(i = 0; i < sizeof(m); i++)
		m[i] = (uint8_t)i;
	ck_assert_uint_eq(
			ovc_siphash24(&key, m, sizeof(m)), UINT64_C(0xa129ca6149be45e5));
	/* the empty message (the reference implementation's first vector) */
	ck_assert_uint_eq(ovc_siphash24(&key, m, 0), UINT64_C(0x726fdb47dd0e0e31));
}
END_TEST

START_TEST(test_token_inputs)
{
	struct ovc_oct_key k2 = key;
	uint64_t t = ovc_oct_token(&key, "z9hG4bK1", 8, HOP, strlen(HOP));

	k2.k[15] ^= 1;
	ck_assert_uint_eq(t, ovc_oct_token(&key, "z9hG4bK1", 8, HOP, strlen(HOP)));
	ck_assert_uint_ne(t, ovc_oct_token(&k2, "z9hG4bK1", 8, HOP, strlen(HOP)));
	ck_assert_uint_ne(t, ovc_oct_token(&key, "z9hG4bK2", 8, HOP, strlen(HOP)));
	ck_assert_uint_ne(t, ovc_oct_token(&key, "z9hG4bK1", 8,
								 "udp:192.0.2.7:5061", strlen(HOP)));
	/* the branch's length keeps the two inputs apart */
	ck_assert_uint_ne(ovc_oct_token(&key, "ab", 2, "c", 1),
			ovc_oct_token(&key, "a", 1, "bc", 2));
	/* no branch: the destination alone */
	ck_assert_uint_eq(ovc_oct_token(&key, NULL, 5, HOP, strlen(HOP)),
			ovc_oct_token(&key, "", 0, HOP, strlen(HOP)));
}
END_TEST

/* The offer carries the token; the next hop's response returns it; it
 * verifies from the destination and from nowhere else. */
START_TEST(test_round_trip)
{
	static const struct ovc_oc_fb fb = {
			35, 2000, UINT64_C(1282321615) * OVC_OC_SEQ_FRAC};
	struct ovc_oc_via oc;
	char via[1024], want[64];
	size_t n;
	int r;

	r = ovc_oct_announce(&key, HOP, strlen(HOP), request, strlen(request),
			out, sizeof(out));
	ck_assert_int_gt(r, 0);
	out[r] = '\0';
	top_via(out, via, sizeof(via));
	snprintf(want, sizeof(want), ";oc;oc-algo=\"loss\";ovct=%016llx",
			(unsigned long long)ovc_oct_token(
					&key, "z9hG4bKedge.1", 13, HOP, strlen(HOP)));
	ck_assert_msg(strstr(via, want) != NULL, "%s", via);
	/* only the top Via changed */
	ck_assert_int_eq(r, (int)(strlen(request) + strlen(want)));
	/* the next hop (an ovc server) writes its values into that Via: the
	 * token stays */
	n = answer(out, NULL);
	r = ovc_oc_feedback(resp, n, &fb, fb_out, sizeof(fb_out));
	ck_assert_int_gt(r, 0);
	ck_assert_int_eq(ovc_oc_read_top_via(fb_out, (size_t)r, &oc), 1);
	ck_assert_int_eq(oc.value, 35);
	ck_assert_int_eq(oc.has_token, 1);
	ck_assert_uint_eq(oc.branch_len, 13);
	ck_assert(memcmp(oc.branch, "z9hG4bKedge.1", 13) == 0);
	ck_assert_int_eq(ovc_oct_verify(&key, &oc, HOP, strlen(HOP)), 1);
	/* from another port, address or transport: not ours */
	ck_assert_int_eq(ovc_oct_verify(&key, &oc, "udp:192.0.2.7:5061", 18), 0);
	ck_assert_int_eq(ovc_oct_verify(&key, &oc, "udp:192.0.2.8:5060", 18), 0);
	ck_assert_int_eq(ovc_oct_verify(&key, &oc, "tcp:192.0.2.7:5060", 18), 0);
	ck_assert_int_eq(ovc_oct_verify(NULL, &oc, HOP, strlen(HOP)), 0);
	ck_assert_int_eq(ovc_oct_verify(&key, NULL, HOP, strlen(HOP)), 0);
	/* a request whose Via has oc already is left as it is */
	ck_assert_int_eq(ovc_oct_announce(&key, HOP, strlen(HOP), out,
							 strlen(out), fb_out, sizeof(fb_out)),
			0);
	/* not a request */
	ck_assert_int_eq(ovc_oct_announce(&key, HOP, strlen(HOP), resp, n, fb_out,
							 sizeof(fb_out)),
			OVC_EINVAL);
	ck_assert_int_eq(ovc_oct_announce(NULL, HOP, strlen(HOP), request,
							 strlen(request), fb_out, sizeof(fb_out)),
			OVC_EINVAL);
}
END_TEST

/* Forged responses: what an attacker who saw none of the requests can
 * send does not verify. */
START_TEST(test_forged)
{
	static const char *const vias[] = {
			/* no token at all */
			"Via: SIP/2.0/UDP 192.0.2.1:5060;branch=z9hG4bKedge.1;oc=100;"
			"oc-validity=999999999999;oc-seq=999999999999.99999",
			/* a guessed one */
			"Via: SIP/2.0/UDP 192.0.2.1:5060;branch=z9hG4bKedge.1;oc=100;"
			"ovct=0123456789abcdef",
			/* malformed ones */
			"Via: SIP/2.0/UDP 192.0.2.1:5060;branch=z9hG4bKedge.1;oc=100;"
			"ovct=0123456789abcde",
			"Via: SIP/2.0/UDP 192.0.2.1:5060;branch=z9hG4bKedge.1;oc=100;"
			"ovct=0123456789abcdefg",
			"Via: SIP/2.0/UDP 192.0.2.1:5060;branch=z9hG4bKedge.1;oc=100;"
			"ovct",
			"Via: SIP/2.0/UDP 192.0.2.1:5060;branch=z9hG4bKedge.1;oc=100;"
			"ovct=\"0123456789abcdef\"",
	};
	struct ovc_oc_via oc;
	char msg[1024];
	unsigned i;
	int n;

	for(i = 0; i < sizeof(vias) / sizeof(vias[0]); i++) {
		n = snprintf(msg, sizeof(msg), "SIP/2.0 200 OK\r\n%s\r\n\r\n", vias[i]);
		ck_assert_int_eq(ovc_oc_read_top_via(msg, (size_t)n, &oc), 1);
		ck_assert_int_eq(oc.value, 100);
		ck_assert_int_eq(ovc_oct_verify(&key, &oc, HOP, strlen(HOP)), 0);
	}
	/* the right token on another branch (a response to another request,
	 * or one whose branch was changed) */
	n = snprintf(msg, sizeof(msg),
			"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP 192.0.2.1:5060;"
			"branch=z9hG4bKedge.2;oc=100;ovct=%016llx\r\n\r\n",
			(unsigned long long)ovc_oct_token(
					&key, "z9hG4bKedge.1", 13, HOP, strlen(HOP)));
	ck_assert_int_eq(ovc_oc_read_top_via(msg, (size_t)n, &oc), 1);
	ck_assert_int_eq(ovc_oct_verify(&key, &oc, HOP, strlen(HOP)), 0);
	/* the same in upper case, on its own branch: it verifies (hex digits
	 * are read case-insensitively) */
	n = snprintf(msg, sizeof(msg),
			"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP 192.0.2.1:5060;"
			"branch=z9hG4bKedge.1;oc=100;OVCT=%016llX\r\n\r\n",
			(unsigned long long)ovc_oct_token(
					&key, "z9hG4bKedge.1", 13, HOP, strlen(HOP)));
	ck_assert_int_eq(ovc_oc_read_top_via(msg, (size_t)n, &oc), 1);
	ck_assert_int_eq(ovc_oct_verify(&key, &oc, HOP, strlen(HOP)), 1);
	/* a token in a lower Via is not the top Via's */
	n = snprintf(msg, sizeof(msg),
			"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP 192.0.2.1:5060;"
			"branch=z9hG4bKedge.1;oc=100\r\nVia: SIP/2.0/UDP x;"
			"branch=z9hG4bKedge.1;ovct=%016llx\r\n\r\n",
			(unsigned long long)ovc_oct_token(
					&key, "z9hG4bKedge.1", 13, HOP, strlen(HOP)));
	ck_assert_int_eq(ovc_oc_read_top_via(msg, (size_t)n, &oc), 1);
	ck_assert_int_eq(ovc_oct_verify(&key, &oc, HOP, strlen(HOP)), 0);
}
END_TEST

/* The offer drops a stray token the Via had; extra is bounded. */
START_TEST(test_announce_extra)
{
	static const char stray[] =
			"OPTIONS sip:b@h SIP/2.0\r\n"
			"Via: SIP/2.0/UDP a;branch=z9hG4bK1;ovct=0000000000000000;"
			"rport\r\n\r\n";
	static const char want[] =
			"OPTIONS sip:b@h SIP/2.0\r\n"
			"Via: SIP/2.0/UDP a;branch=z9hG4bK1;rport;oc;oc-algo=\"loss\";x=1"
			"\r\n\r\n";
	char big[OVC_OC_EXTRA_MAX + 1];
	int r;

	r = ovc_oc_announce_extra(
			stray, strlen(stray), ";x=1", 4, out, sizeof(out));
	ck_assert_int_eq(r, (int)strlen(want));
	ck_assert(memcmp(out, want, (size_t)r) == 0);
	memset(big, 'x', sizeof(big));
	ck_assert_int_eq(ovc_oc_announce_extra(stray, strlen(stray), big,
							 sizeof(big), out, sizeof(out)),
			OVC_EINVAL);
	ck_assert_int_gt(ovc_oc_announce_extra(stray, strlen(stray), big,
							 OVC_OC_EXTRA_MAX, out, sizeof(out)),
			0);
	/* too small: OVC_EFULL */
	ck_assert_int_eq(
			ovc_oc_announce_extra(stray, strlen(stray), ";x=1", 4, out, 10),
			OVC_EFULL);
}
END_TEST

Suite *make_suite_octoken(void)
{
	Suite *s = suite_create("octoken");
	TCase *tc = tcase_create("token");

	tcase_add_test(tc, test_siphash_vector);
	tcase_add_test(tc, test_token_inputs);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_forged);
	tcase_add_test(tc, test_announce_extra);
	suite_add_tcase(s, tc);
	return s;
}
