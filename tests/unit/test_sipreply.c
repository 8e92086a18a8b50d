/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/sipreply.c: the reply to a sample INVITE byte for
 * byte, received/rport rules (RFC 3261 18.2.1, RFC 3581), To-tag, folded
 * values, optional headers, argument checks, and every too-small output
 * size (nothing written past outsize).
 */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ovc/sipscan.h"
#include "ovc/types.h"
#include "suites.h"

static const char invite[] =
		"INVITE sip:bob@biloxi.example.com SIP/2.0\r\n"
		"Via: SIP/2.0/UDP 192.0.2.10:5062;branch=z9hG4bK74bf9;rport\r\n"
		"Via: SIP/2.0/UDP proxy.example.com;branch=z9hG4bKp1, "
		"SIP/2.0/UDP 192.0.2.77;branch=z9hG4bKp0\r\n"
		"Max-Forwards: 70\r\n"
		"From: \"Alice, A.\" <sip:alice@atlanta.example.com>;tag=9fxced76sl\r\n"
		"To: Bob <sip:bob@biloxi.example.com>\r\n"
		"Call-ID: 3848276298220188511@atlanta.example.com\r\n"
		"CSeq: 1 INVITE\r\n"
		"Contact: <sip:alice@192.0.2.10:5062>\r\n"
		"Content-Length: 0\r\n"
		"\r\n";

/* 503 to invite from 198.51.100.7:40000, secret 42, Retry-After 5. The
 * tag pins the hash: a change would break the ACK matching of replies sent
 * by a previous version during an upgrade. */
#define EXPECTED_TAG "6bca4f00f8d4e8fc"
static const char expected[] =
		"SIP/2.0 503 Service Unavailable\r\n"
		"Via: SIP/2.0/UDP 192.0.2.10:5062;branch=z9hG4bK74bf9;"
		"rport=40000;received=198.51.100.7\r\n"
		"Via: SIP/2.0/UDP proxy.example.com;branch=z9hG4bKp1, "
		"SIP/2.0/UDP 192.0.2.77;branch=z9hG4bKp0\r\n"
		"From: \"Alice, A.\" <sip:alice@atlanta.example.com>;tag=9fxced76sl\r\n"
		"To: Bob <sip:bob@biloxi.example.com>;tag=ovc" EXPECTED_TAG "\r\n"
		"Call-ID: 3848276298220188511@atlanta.example.com\r\n"
		"CSeq: 1 INVITE\r\n"
		"Retry-After: 5\r\n"
		"Server: ovc\r\n"
		"Content-Length: 0\r\n"
		"\r\n";

static struct ovc_reply_params params(const char *ip, uint16_t port)
{
	struct ovc_reply_params p;

	memset(&p, 0, sizeof(p));
	p.code = 503;
	p.reason = "Service Unavailable";
	p.reason_len = strlen(p.reason);
	p.retry_after = 5;
	p.src_ip = ip;
	p.src_port = port;
	p.server = "ovc";
	p.secret = 42;
	return p;
}

/* scans m and builds the reply into out (NUL-terminated); returns length */
static int reply(const char *m, const struct ovc_reply_params *p, char *out,
		size_t outsize)
{
	struct ovc_sip_scan s;
	int n;

	ck_assert_int_eq(ovc_sip_scan(m, strlen(m), &s), OVC_SCAN_OK);
	n = ovc_sip_build_reply(m, &s, p, out, outsize - 1);
	if(n >= 0)
		out[n] = '\0';
	return n;
}

/* the top Via line of a reply */
static const char *via_line(const char *r, char *line, size_t size)
{
	const char *v = strstr(r, "\r\nVia: "), *e;

	ck_assert_ptr_nonnull(v);
	v += 7;
	e = strstr(v, "\r\n");
	ck_assert_uint_lt((size_t)(e - v), size);
	memcpy(line, v, (size_t)(e - v));
	line[e - v] = '\0';
	return line;
}

START_TEST(test_reply_sample)
{
	struct ovc_reply_params p = params("198.51.100.7", 40000);
	char out[2048], tag[OVC_TOTAG_LEN];
	struct ovc_sip_scan s;
	int n;

	n = reply(invite, &p, out, sizeof(out));
	ck_assert_int_eq(n, (int)strlen(expected));
	ck_assert_str_eq(out, expected);
	/* the tag is ovc_sip_totag()'s */
	ck_assert_int_eq(ovc_sip_scan(invite, strlen(invite), &s), OVC_SCAN_OK);
	ovc_sip_totag(42, invite, &s, tag);
	ck_assert_ptr_nonnull(memmem(out, (size_t)n, tag, OVC_TOTAG_LEN));
	/* the reply itself is not a request */
	ck_assert_int_eq(
			ovc_sip_scan(out, (size_t)n, &s), OVC_SCAN_NOT_REQUEST);
}
END_TEST

START_TEST(test_reply_retransmission_identical)
{
	struct ovc_reply_params p = params("198.51.100.7", 40000);
	char a[2048], b[2048];

	ck_assert_int_gt(reply(invite, &p, a, sizeof(a)), 0);
	ck_assert_int_gt(reply(invite, &p, b, sizeof(b)), 0);
	ck_assert_str_eq(a, b);
}
END_TEST

#define REQ(via)                                                           \
	"INVITE sip:b@example.com SIP/2.0\r\n"                                 \
	"Via: " via "\r\n"                                                     \
	"From: <sip:a@example.com>;tag=1\r\n"                                  \
	"To: <sip:b@example.com>\r\n"                                          \
	"Call-ID: c@h\r\n"                                                     \
	"CSeq: 1 INVITE\r\n"                                                   \
	"\r\n"

START_TEST(test_reply_received_rport)
{
	static const struct
	{
		const char *req;
		const char *ip;
		const char *via;
	} t[] = {
			/* same host, no rport: untouched */
			{REQ("SIP/2.0/UDP 192.0.2.1:5060;branch=z9hG4bK1"), "192.0.2.1",
					"SIP/2.0/UDP 192.0.2.1:5060;branch=z9hG4bK1"},
			/* other host: received appended */
			{REQ("SIP/2.0/UDP 192.0.2.1:5060;branch=z9hG4bK1"), "192.0.2.2",
					"SIP/2.0/UDP 192.0.2.1:5060;branch=z9hG4bK1;"
					"received=192.0.2.2"},
			{REQ("SIP/2.0/UDP host.example.com"), "192.0.2.2",
					"SIP/2.0/UDP host.example.com;received=192.0.2.2"},
			/* empty rport: filled, and received added even when equal */
			{REQ("SIP/2.0/UDP 192.0.2.1;rport;branch=z9hG4bK1"), "192.0.2.1",
					"SIP/2.0/UDP 192.0.2.1;rport=5999;branch=z9hG4bK1;"
					"received=192.0.2.1"},
			{REQ("SIP/2.0/UDP 192.0.2.1;branch=z9hG4bK1;rport"), "192.0.2.9",
					"SIP/2.0/UDP 192.0.2.1;branch=z9hG4bK1;rport=5999;"
					"received=192.0.2.9"},
			/* LWS around the parameter */
			{REQ("SIP/2.0/UDP 192.0.2.1 ; rport ;branch=z9hG4bK1"),
					"192.0.2.1",
					"SIP/2.0/UDP 192.0.2.1 ; rport=5999 ;branch=z9hG4bK1;"
					"received=192.0.2.1"},
			/* rport with a value (a broken client): overwritten */
			{REQ("SIP/2.0/UDP 192.0.2.1;rport=1234"), "192.0.2.1",
					"SIP/2.0/UDP 192.0.2.1;rport=5999;received=192.0.2.1"},
			/* an existing received: replaced, in place */
			{REQ("SIP/2.0/UDP 192.0.2.1;received=10.0.0.1;rport;branch=z"),
					"192.0.2.3",
					"SIP/2.0/UDP 192.0.2.1;received=192.0.2.3;rport=5999;"
					"branch=z"},
			{REQ("SIP/2.0/UDP 192.0.2.1;received=10.0.0.1"), "192.0.2.1",
					"SIP/2.0/UDP 192.0.2.1;received=192.0.2.1"},
			{REQ("SIP/2.0/UDP 192.0.2.1;received=10.0.0.1;x"), "192.0.2.7",
					"SIP/2.0/UDP 192.0.2.1;received=192.0.2.7;x"},
			/* IPv6: compared without brackets, case-insensitively */
			{REQ("SIP/2.0/UDP [2001:db8::1]:5070;branch=z9hG4bK6"),
					"2001:db8::1",
					"SIP/2.0/UDP [2001:db8::1]:5070;branch=z9hG4bK6"},
			{REQ("SIP/2.0/UDP [2001:DB8::1]:5070;branch=z9hG4bK6"),
					"2001:db8::1",
					"SIP/2.0/UDP [2001:DB8::1]:5070;branch=z9hG4bK6"},
			{REQ("SIP/2.0/UDP [2001:db8::1]:5070;branch=z9hG4bK6"),
					"2001:db8::2",
					"SIP/2.0/UDP [2001:db8::1]:5070;branch=z9hG4bK6;"
					"received=2001:db8::2"},
			/* only the first value of a comma-separated line changes */
			{REQ("SIP/2.0/UDP h1;rport, SIP/2.0/UDP h2;rport"),
					"192.0.2.5",
					"SIP/2.0/UDP h1;rport=5999;received=192.0.2.5, "
					"SIP/2.0/UDP h2;rport"},
			/* folded Via: unfolded in the reply */
			{REQ("SIP/2.0/UDP\r\n 192.0.2.1\r\n\t;branch=z9hG4bK1"),
					"192.0.2.1", "SIP/2.0/UDP 192.0.2.1\t;branch=z9hG4bK1"},
	};
	struct ovc_reply_params p;
	char out[2048], line[512];
	size_t i;

	for(i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		p = params(t[i].ip, 5999);
		ck_assert_int_gt(reply(t[i].req, &p, out, sizeof(out)), 0);
		ck_assert_msg(strcmp(via_line(out, line, sizeof(line)), t[i].via)
							  == 0,
				"case %zu: '%s' != '%s'", i, line, t[i].via);
	}
}
END_TEST

START_TEST(test_reply_headers)
{
	struct ovc_reply_params p = params("192.0.2.1", 5060);
	char out[2048];
	const char *m;

	/* a To that has a tag keeps it, no second tag */
	m = "BYE sip:b@example.com SIP/2.0\r\n"
		"Via: SIP/2.0/UDP 192.0.2.1;branch=z9hG4bK1\r\n"
		"From: <sip:a@example.com>;tag=1\r\n"
		"To: \"x;tag=no\" <sip:b@example.com;tag=no>;tag=uas9\r\n"
		"Call-ID: c@h\r\n"
		"CSeq: 2 BYE\r\n"
		"\r\n";
	p.retry_after = 0;
	p.server = NULL;
	p.code = 480;
	p.reason = "Temporarily Unavailable";
	p.reason_len = strlen(p.reason);
	ck_assert_int_gt(reply(m, &p, out, sizeof(out)), 0);
	ck_assert_str_eq(out,
			"SIP/2.0 480 Temporarily Unavailable\r\n"
			"Via: SIP/2.0/UDP 192.0.2.1;branch=z9hG4bK1\r\n"
			"From: <sip:a@example.com>;tag=1\r\n"
			"To: \"x;tag=no\" <sip:b@example.com;tag=no>;tag=uas9\r\n"
			"Call-ID: c@h\r\n"
			"CSeq: 2 BYE\r\n"
			"Content-Length: 0\r\n"
			"\r\n");
	/* folded values, compact names: long names, one line each; the tag
	 * goes after the To parameters (addr-spec form) */
	m = "INVITE sip:b@example.com SIP/2.0\r\n"
		"v: SIP/2.0/UDP 192.0.2.1;branch=z9hG4bK1\r\n"
		"f: <sip:a@example.com>\r\n ;tag=1\r\n"
		"t:\r\n sip:b@example.com;user=phone\r\n"
		"i: c@h\r\n"
		"CSeq: 7 INVITE\r\n"
		"\r\n";
	ck_assert_int_gt(reply(m, &p, out, sizeof(out)), 0);
	ck_assert_ptr_nonnull(
			strstr(out, "\r\nFrom: <sip:a@example.com> ;tag=1\r\n"));
	ck_assert_ptr_nonnull(
			strstr(out, "\r\nTo: sip:b@example.com;user=phone;tag=ovc"));
	ck_assert_ptr_nonnull(
			strstr(out, "\r\nCall-ID: c@h\r\nCSeq: 7 INVITE\r\n"));
	ck_assert_ptr_null(strstr(out, "Retry-After"));
	ck_assert_ptr_null(strstr(out, "Server"));
	/* no CR or LF other than line ends */
	{
		const char *c;
		for(c = out; *c; c++) {
			if(*c == '\r')
				ck_assert_int_eq(c[1], '\n');
			if(*c == '\n')
				ck_assert_int_eq(c[-1], '\r');
		}
	}
	/* 100 Trying gets no To-tag, an empty reason is allowed */
	p.code = 100;
	p.reason = NULL;
	p.reason_len = 0;
	ck_assert_int_gt(reply(m, &p, out, sizeof(out)), 0);
	ck_assert_int_eq(strncmp(out, "SIP/2.0 100 \r\n", 14), 0);
	ck_assert_ptr_null(strstr(out, "tag=ovc"));
}
END_TEST

START_TEST(test_reply_invalid)
{
	struct ovc_reply_params p = params("192.0.2.1", 5060);
	struct ovc_sip_scan s, z;
	char out[2048];

	ck_assert_int_eq(ovc_sip_scan(invite, strlen(invite), &s), OVC_SCAN_OK);
	ck_assert_int_gt(ovc_sip_build_reply(invite, &s, &p, out, sizeof(out)),
			0);
	ck_assert_int_eq(ovc_sip_build_reply(NULL, &s, &p, out, sizeof(out)),
			OVC_EINVAL);
	ck_assert_int_eq(ovc_sip_build_reply(invite, NULL, &p, out, sizeof(out)),
			OVC_EINVAL);
	ck_assert_int_eq(ovc_sip_build_reply(invite, &s, NULL, out, sizeof(out)),
			OVC_EINVAL);
	ck_assert_int_eq(ovc_sip_build_reply(invite, &s, &p, NULL, 10),
			OVC_EINVAL);
	memset(&z, 0, sizeof(z));
	ck_assert_int_eq(ovc_sip_build_reply(invite, &z, &p, out, sizeof(out)),
			OVC_EINVAL);
	p.code = 99;
	ck_assert_int_eq(ovc_sip_build_reply(invite, &s, &p, out, sizeof(out)),
			OVC_EINVAL);
	p.code = 700;
	ck_assert_int_eq(ovc_sip_build_reply(invite, &s, &p, out, sizeof(out)),
			OVC_EINVAL);
	p = params("192.0.2.1", 5060);
	p.reason = "Bad\r\nX: injected";
	p.reason_len = strlen(p.reason);
	ck_assert_int_eq(ovc_sip_build_reply(invite, &s, &p, out, sizeof(out)),
			OVC_EINVAL);
	p = params("192.0.2.1", 5060);
	p.reason = NULL;
	ck_assert_int_eq(ovc_sip_build_reply(invite, &s, &p, out, sizeof(out)),
			OVC_EINVAL);
	p = params("192.0.2.1", 5060);
	p.server = "ovc\r\nX: y";
	ck_assert_int_eq(ovc_sip_build_reply(invite, &s, &p, out, sizeof(out)),
			OVC_EINVAL);
	p = params("192.0.2.1;x", 5060);
	ck_assert_int_eq(ovc_sip_build_reply(invite, &s, &p, out, sizeof(out)),
			OVC_EINVAL);
	p = params("", 5060);
	ck_assert_int_eq(ovc_sip_build_reply(invite, &s, &p, out, sizeof(out)),
			OVC_EINVAL);
	p = params("[::1]", 5060);
	ck_assert_int_eq(ovc_sip_build_reply(invite, &s, &p, out, sizeof(out)),
			OVC_EINVAL);
	p = params(NULL, 5060);
	ck_assert_int_eq(ovc_sip_build_reply(invite, &s, &p, out, sizeof(out)),
			OVC_EINVAL);
}
END_TEST

#define GUARD 64

START_TEST(test_reply_every_small_size)
{
	struct ovc_reply_params p = params("198.51.100.7", 40000);
	struct ovc_sip_scan s;
	char full[2048], out[2048 + GUARD];
	size_t n, k, i;
	int r;

	ck_assert_int_eq(ovc_sip_scan(invite, strlen(invite), &s), OVC_SCAN_OK);
	r = ovc_sip_build_reply(invite, &s, &p, full, sizeof(full));
	ck_assert_int_gt(r, 0);
	n = (size_t)r;
	for(k = 0; k <= n; k++) {
		memset(out, 0xa5, sizeof(out));
		r = ovc_sip_build_reply(invite, &s, &p, out, k);
		if(k < n)
			ck_assert_msg(r == OVC_ERANGE, "size %zu: %d", k, r);
		else
			ck_assert_int_eq(r, (int)n);
		for(i = k; i < k + GUARD; i++)
			ck_assert_msg((unsigned char)out[i] == 0xa5,
					"size %zu: byte %zu written", k, i);
	}
	ck_assert_int_eq(memcmp(out, full, n), 0);
}
END_TEST

/* the most Via lines the scanner keeps, copied in order */
START_TEST(test_reply_max_vias)
{
	struct ovc_reply_params p = params("192.0.2.1", 5060);
	static char m[4096], out[8192];
	const char *c;
	int i, n;

	strcpy(m, "INVITE sip:b@example.com SIP/2.0\r\n");
	for(i = 0; i < OVC_SCAN_MAX_VIA; i++)
		sprintf(m + strlen(m), "Via: SIP/2.0/UDP h%d;branch=z9hG4bK%d\r\n",
				i, i);
	strcat(m, "From: <sip:a@example.com>;tag=1\r\nTo: <sip:b@example.com>\r\n"
			  "Call-ID: c@h\r\nCSeq: 1 INVITE\r\n\r\n");
	n = reply(m, &p, out, sizeof(out));
	ck_assert_int_gt(n, 0);
	/* the Vias in order */
	c = out;
	for(i = 0; i < OVC_SCAN_MAX_VIA; i++) {
		char v[64];
		snprintf(v, sizeof(v), "\r\nVia: SIP/2.0/UDP h%d;", i);
		c = strstr(c, v);
		ck_assert_msg(c != NULL, "via %d", i);
	}
}
END_TEST

Suite *make_suite_sipreply(void)
{
	Suite *s = suite_create("sipreply");
	TCase *tc = tcase_create("reply");

	tcase_add_test(tc, test_reply_sample);
	tcase_add_test(tc, test_reply_retransmission_identical);
	tcase_add_test(tc, test_reply_received_rport);
	tcase_add_test(tc, test_reply_headers);
	tcase_add_test(tc, test_reply_invalid);
	tcase_add_test(tc, test_reply_every_small_size);
	tcase_add_test(tc, test_reply_max_vias);
	suite_add_tcase(s, tc);
	return s;
}
