/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/oc7339.c: RFC 7339's own Via examples, one
 * parameter at a time (case, malformed values, the bounded validity,
 * integer oc-seq), the top Via in its forms
 * (compact, several via-parms, folded, LWS, IPv6, quoted commas), the
 * server's feedback and the client's offer byte for byte, round trips,
 * every too-small output, every truncation of several messages (each in an
 * exact-size copy, so ASan sees any read past len) and the RFC 4475
 * torture messages.
 */
#define _GNU_SOURCE /* memmem */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovc/oc7339.h"
#include "ovc/types.h"
#include "suites.h"

#define RFC4475_DIR "tests/data/rfc4475"
#define RFC4475_SHARED "../shared/rfc4475"
#define BIG 70000
#define GUARD 0x5a

/* 1282321615.782, the oc-seq of RFC 7339's examples */
#define RFC_SEQ (UINT64_C(1282321615) * OVC_OC_SEQ_FRAC + 78200)

static char out[BIG], out2[BIG];

/* the response to the request of RFC 7339 §5.2's example, its top Via
 * carrying the server's values */
static const char rfc_resp[] =
		"SIP/2.0 200 OK\r\n"
		"Via: SIP/2.0/TCP p1.example.net;branch=z9hG4bK2d4790.1;"
		"received=192.0.2.111;oc=20;oc-algo=\"loss\";oc-validity=500;"
		"oc-seq=1282321615.782\r\n"
		"Via: SIP/2.0/UDP ua.example.com;branch=z9hG4bK0\r\n"
		"From: <sip:a@example.com>;tag=1\r\n"
		"To: <sip:b@example.com>;tag=2\r\n"
		"Call-ID: c1\r\n"
		"CSeq: 1 INVITE\r\n"
		"Content-Length: 0\r\n"
		"\r\n";

/* the client's offer of RFC 7339 §5.2 (loss and another algorithm) */
static const char rfc_offer_resp[] =
		"SIP/2.0 180 Ringing\r\n"
		"Via: SIP/2.0/TCP p1.example.net;branch=z9hG4bK2d4790.1;"
		"received=192.0.2.111;oc;oc-algo=\"loss,A\"\r\n"
		"Content-Length: 0\r\n"
		"\r\n";

static const char rfc_offer_fb[] =
		"SIP/2.0 180 Ringing\r\n"
		"Via: SIP/2.0/TCP p1.example.net;branch=z9hG4bK2d4790.1;"
		"received=192.0.2.111;oc=20;oc-algo=\"loss\";oc-validity=500;"
		"oc-seq=1282321615.78200\r\n"
		"Content-Length: 0\r\n"
		"\r\n";

static const char invite[] =
		"INVITE sip:bob@example.com SIP/2.0\r\n"
		"Via: SIP/2.0/UDP 192.0.2.10:5062;branch=z9hG4bK74bf9;rport\r\n"
		"Via: SIP/2.0/UDP proxy.example.com;branch=z9hG4bKp1\r\n"
		"From: <sip:alice@example.com>;tag=9fxced76sl\r\n"
		"To: <sip:bob@example.com>\r\n"
		"Call-ID: 3848276298220188511@example.com\r\n"
		"CSeq: 1 INVITE\r\n"
		"Content-Type: application/sdp\r\n"
		"Content-Length: 33\r\n"
		"\r\n"
		"v=0\r\nVia: SIP/2.0/UDP x;oc=9\r\n\r\n";

static const char invite_oc[] =
		"INVITE sip:bob@example.com SIP/2.0\r\n"
		"Via: SIP/2.0/UDP 192.0.2.10:5062;branch=z9hG4bK74bf9;rport"
		";oc;oc-algo=\"loss\"\r\n"
		"Via: SIP/2.0/UDP proxy.example.com;branch=z9hG4bKp1\r\n"
		"From: <sip:alice@example.com>;tag=9fxced76sl\r\n"
		"To: <sip:bob@example.com>\r\n"
		"Call-ID: 3848276298220188511@example.com\r\n"
		"CSeq: 1 INVITE\r\n"
		"Content-Type: application/sdp\r\n"
		"Content-Length: 33\r\n"
		"\r\n"
		"v=0\r\nVia: SIP/2.0/UDP x;oc=9\r\n\r\n";

static const struct ovc_oc_fb fb20 = {20, 500, RFC_SEQ};

/* a malloc'd copy of exactly n bytes of s (ASan sees a read past it) */
static char *exact(const char *s, size_t n)
{
	char *b = malloc(n ? n : 1);

	ck_assert_ptr_nonnull(b);
	memcpy(b, s, n);
	return b;
}

static int read_str(const char *m, struct ovc_oc_via *oc)
{
	char *b = exact(m, strlen(m));
	int r = ovc_oc_read_top_via(b, strlen(m), oc);

	free(b);
	return r;
}

static int fb_str(const char *m, const struct ovc_oc_fb *fb)
{
	char *b = exact(m, strlen(m));
	int r;

	memset(out, GUARD, sizeof(out));
	r = ovc_oc_feedback(b, strlen(m), fb, out, sizeof(out));
	free(b);
	return r;
}

static int ann_str(const char *m)
{
	char *b = exact(m, strlen(m));
	int r;

	memset(out, GUARD, sizeof(out));
	r = ovc_oc_announce(b, strlen(m), out, sizeof(out));
	free(b);
	return r;
}

/* the output of the last call is exactly e */
static void ck_out(int n, const char *e)
{
	ck_assert_int_eq(n, (int)strlen(e));
	ck_assert_msg(
			memcmp(out, e, strlen(e)) == 0, "got\n%.*s\nwant\n%s", n, out, e);
}

static void ck_untouched(const char *b, size_t n)
{
	size_t i;

	for(i = 0; i < n; i++)
		ck_assert_int_eq((unsigned char)b[i], GUARD);
}

static void ck_via(const struct ovc_oc_via *oc, int has, int value,
		unsigned algos, int64_t validity, uint64_t seq)
{
	ck_assert_int_eq(oc->oc, has);
	ck_assert_int_eq(oc->value, value);
	ck_assert_uint_eq(oc->algos, algos);
	ck_assert_int_eq(oc->validity_ms, validity);
	ck_assert_uint_eq(oc->seq, seq);
}

START_TEST(test_rfc_examples)
{
	struct ovc_oc_via oc;

	ck_assert_int_eq(read_str(rfc_resp, &oc), 1);
	ck_via(&oc, 1, 20, OVC_OC_ALGO_LOSS, 500, RFC_SEQ);
	ck_assert_int_eq(read_str(rfc_offer_resp, &oc), 1);
	ck_via(&oc, 1, -1, OVC_OC_ALGO_LOSS | OVC_OC_ALGO_OTHER, -1, 0);
	/* the server answers the offer in place */
	ck_out(fb_str(rfc_offer_resp, &fb20), rfc_offer_fb);
	ck_assert_int_eq(ovc_oc_read_top_via(out, strlen(rfc_offer_fb), &oc), 1);
	ck_via(&oc, 1, 20, OVC_OC_ALGO_LOSS, 500, RFC_SEQ);
	/* and replaces values already there */
	ck_out(fb_str(rfc_resp, &fb20),
			"SIP/2.0 200 OK\r\n"
			"Via: SIP/2.0/TCP p1.example.net;branch=z9hG4bK2d4790.1;"
			"received=192.0.2.111;oc=20;oc-algo=\"loss\";oc-validity=500;"
			"oc-seq=1282321615.78200\r\n"
			"Via: SIP/2.0/UDP ua.example.com;branch=z9hG4bK0\r\n"
			"From: <sip:a@example.com>;tag=1\r\n"
			"To: <sip:b@example.com>;tag=2\r\n"
			"Call-ID: c1\r\n"
			"CSeq: 1 INVITE\r\n"
			"Content-Length: 0\r\n"
			"\r\n");
}
END_TEST

/* one parameter: name, value (NULL: none), expected return and fields */
struct pcase
{
	const char *name;
	const char *val;
	int ret, value;
	unsigned algos;
	int64_t validity;
	uint64_t seq;
};

static const struct pcase pcases[] = {
		{"oc", NULL, 1, -1, 0, -1, 0},
		{"OC", "20", 1, 20, 0, -1, 0},
		{"oc", "0", 1, 0, 0, -1, 0},
		{"oc", "100", 1, 100, 0, -1, 0},
		{"oc", "007", 1, 7, 0, -1, 0},
		{"oc", "101", 1, -1, 0, -1, 0},
		{"oc", "99999999999999999999999", 1, -1, 0, -1, 0},
		{"oc", "abc", 1, -1, 0, -1, 0},
		{"oc", "2a", 1, -1, 0, -1, 0},
		{"oc", "-1", 1, -1, 0, -1, 0},
		{"oc", "", 1, -1, 0, -1, 0},
		{"Oc-Algo", "\"loss\"", 1, -1, OVC_OC_ALGO_LOSS, -1, 0},
		{"oc-algo", "\"LOSS\"", 1, -1, OVC_OC_ALGO_LOSS, -1, 0},
		{"oc-algo", "\"A\"", 1, -1, OVC_OC_ALGO_OTHER, -1, 0},
		{"oc-algo", "\"rate, loss\"", 1, -1, 3, -1, 0},
		{"oc-algo", "\"loss,A\"", 1, -1, 3, -1, 0},
		{"oc-algo", "\"lossy\"", 1, -1, OVC_OC_ALGO_OTHER, -1, 0},
		{"oc-algo", "loss", 1, -1, 0, -1, 0},
		{"oc-algo", "\"loss", 1, -1, 0, -1, 0},
		{"oc-algo", "\"lo ss\"", 1, -1, 0, -1, 0},
		{"oc-algo", "\"", 1, -1, 0, -1, 0},
		{"oc-algo", NULL, 1, -1, 0, -1, 0},
		{"oc-validity", "500", 1, -1, 0, 500, 0},
		{"OC-VALIDITY", "0", 1, -1, 0, 0, 0},
		{"oc-validity", "60000", 1, -1, 0, 60000, 0},
		{"oc-validity", "60001", 1, -1, 0, OVC_OC_VALIDITY_MAX_MS, 0},
		{"oc-validity", "999999999999", 1, -1, 0, OVC_OC_VALIDITY_MAX_MS, 0},
		{"oc-validity", "999999999999999999999999", 1, -1, 0,
				OVC_OC_VALIDITY_MAX_MS, 0},
		{"oc-validity", "-5", 1, -1, 0, -1, 0},
		{"oc-validity", "5s", 1, -1, 0, -1, 0},
		{"oc-validity", NULL, 1, -1, 0, -1, 0},
		{"oc-seq", "1282321615.782", 1, -1, 0, -1, RFC_SEQ},
		{"oc-seq", "1.1", 1, -1, 0, -1, 110000},
		{"oc-seq", "1.00001", 1, -1, 0, -1, 100001},
		{"oc-seq", "999999999999.99999", 1, -1, 0, -1,
				UINT64_C(99999999999999999)},
		{"oc-seq", "1.123456", 1, -1, 0, -1, 0},
		{"oc-seq", "1234567890123.1", 1, -1, 0, -1, 0},
		{"oc-seq", "12", 1, -1, 0, -1, 1200000},
		{"oc-seq", "999999999999", 1, -1, 0, -1,
				UINT64_C(99999999999900000)},
		{"oc-seq", "1234567890123", 1, -1, 0, -1, 0},
		{"oc-seq", "", 1, -1, 0, -1, 0},
		{"oc-seq", "1a", 1, -1, 0, -1, 0},
		{"oc-seq", "12.", 1, -1, 0, -1, 0},
		{"oc-seq", ".5", 1, -1, 0, -1, 0},
		{"oc-seq", "1.2.3", 1, -1, 0, -1, 0},
		{"oc-seq", "-1.5", 1, -1, 0, -1, 0},
		{"oc-seq", NULL, 1, -1, 0, -1, 0},
		{"branch", "1", 0, 7, 7, 7, 7},
		{"ovct", "0123456789abcdef", 0, 7, 7, 7, 7},
		{"ocx", "1", 0, 7, 7, 7, 7},
		{"o", NULL, 0, 7, 7, 7, 7},
		{"oc-", NULL, 0, 7, 7, 7, 7},
		{"", NULL, 0, 7, 7, 7, 7},
};

START_TEST(test_param)
{
	const struct pcase *c = &pcases[_i];
	struct ovc_oc_via oc;
	char *n = exact(c->name, strlen(c->name));
	char *v = c->val ? exact(c->val, strlen(c->val)) : NULL;
	int r;

	oc.oc = 0;
	oc.value = -1;
	oc.algos = 0;
	oc.validity_ms = -1;
	oc.seq = 0;
	if(c->ret == 0) { /* unchanged: a marker in every field */
		oc.oc = 7;
		oc.value = 7;
		oc.algos = 7;
		oc.validity_ms = 7;
		oc.seq = 7;
	}
	r = ovc_oc_param(n, strlen(c->name), v, v ? strlen(c->val) : 0, &oc);
	ck_assert_msg(r == c->ret, "%s=%s: %d", c->name, c->val, r);
	ck_assert_msg(oc.value == c->value && oc.algos == c->algos
						  && oc.validity_ms == c->validity && oc.seq == c->seq,
			"%s=%s: value %d algos %u validity %lld seq %llu", c->name,
			c->val ? c->val : "(none)", oc.value, oc.algos,
			(long long)oc.validity_ms, (unsigned long long)oc.seq);
	if(c->ret == 1 && !strcmp(c->name, "oc"))
		ck_assert_int_eq(oc.oc, 1);
	free(n);
	free(v);
}
END_TEST

/* a response's top Via: header line(s) between the status line and the
 * rest, and what is read */
struct vcase
{
	const char *via;
	int ret, value;
	unsigned algos;
	int64_t validity;
};

static const struct vcase vcases[] = {
		{"Via: SIP/2.0/UDP h;oc=5\r\n", 1, 5, 0, -1},
		{"v: SIP/2.0/UDP h;oc=5\r\n", 1, 5, 0, -1},
		{"V:SIP/2.0/UDP h;oc=5\r\n", 1, 5, 0, -1},
		{"VIA : SIP/2.0/UDP h;OC=5;OC-ALGO=\"LOSS\"\r\n", 1, 5, 1, -1},
		{"vIa:\tSIP / 2.0 / UDP  h ; branch = z9 ; oc = 5 ; oc-validity ="
		 " 20\r\n",
				1, 5, 0, 20},
		{"Via: SIP/2.0/UDP h;branch=z9hG4bK1,\r\n SIP/2.0/UDP g;oc=3\r\n", 0,
				-1, 0, -1},
		{"Via: SIP/2.0/UDP h;branch=z9;oc=4, SIP/2.0/UDP g;oc=3\r\n", 1, 4, 0,
				-1},
		{"Via: SIP/2.0/UDP h;oc=4 , SIP/2.0/UDP g;oc=3\r\n", 1, 4, 0, -1},
		{"Via: SIP/2.0/UDP h;oc-algo=\"loss,A\", SIP/2.0/UDP g;oc=3\r\n", 0, -1,
				0, -1},
		{"Via: SIP/2.0/UDP h;oc-algo=\"A,loss\";oc=1, SIP/2.0/UDP g\r\n", 1, 1,
				3, -1},
		{"Via: SIP/2.0/UDP h;branch=1\r\nVia: SIP/2.0/UDP g;oc=3\r\n", 0, -1, 0,
				-1},
		{"Via: SIP/2.0/UDP h;branch=1\r\n\t;oc=6\r\n", 1, 6, 0, -1},
		{"Via: SIP/2.0/UDP h;branch=1\r\n ;\r\n oc\r\n =\r\n 6\r\n", 1, 6, 0,
				-1},
		{"Via:\r\n SIP/2.0/UDP h;oc=6\r\n", 1, 6, 0, -1},
		{"Via: SIP/2.0/UDP [::1]:5060;oc=7\r\n", 1, 7, 0, -1},
		{"Via: SIP/2.0/UDP [2001:db8::1];oc=7;received=2001:db8::2\r\n", 1, 7,
				0, -1},
		{"Via: SIP/2.0/UDP h : 5060 ;oc=8\r\n", 1, 8, 0, -1},
		{"Via: SIP/2.0/TLS h;x=\"a;b,c\\\"d\";oc=9\r\n", 1, 9, 0, -1},
		{"Via: SIP/2.0/UDP h;oc=10\n", 1, 10, 0, -1},
		{"From: <sip:a@b>;tag=1\r\nVia: SIP/2.0/UDP h;oc=11\r\n", 1, 11, 0, -1},
		{"Viaa: SIP/2.0/UDP h;oc=5\r\n", 0, -1, 0, -1},
		{"X-Via: SIP/2.0/UDP h;oc=5\r\n", 0, -1, 0, -1},
		{"Via: SIP/2.0/UDP h;oc-validity=5\r\n", 0, -1, 0, -1},
		{"Via: SIP/2.0/UDP h;oc=5;oc=6\r\n", 1, 6, 0, -1},
		/* unreadable */
		{"Via: SIP/2.0/UDP h;x=\"unterminated;oc=5\r\n", 0, -1, 0, -1},
		{"Via: SIP/2.0/UDP h;oc-algo=\"loss;oc=5\r\n", 0, -1, 0, -1},
		{"Via: SIP/2.0/UDP h;;oc=5\r\n", 0, -1, 0, -1},
		{"Via: SIP/2.0/UDP h;oc=5;\r\n", 0, -1, 0, -1},
		{"Via: SIP/2.0/UDP h oc=5\r\n", 0, -1, 0, -1},
		{"Via: SIP/2.0 h;oc=5\r\n", 0, -1, 0, -1},
		{"Via: SIP/2.0/UDPh;oc=5\r\n", 0, -1, 0, -1},
		{"Via: SIP/2.0/UDP h:;oc=5\r\n", 0, -1, 0, -1},
		{"Via: SIP/2.0/UDP h:123456;oc=5\r\n", 0, -1, 0, -1},
		{"Via: SIP/2.0/UDP [::1;oc=5\r\n", 0, -1, 0, -1},
		{"Via: SIP/2.0/UDP [];oc=5\r\n", 0, -1, 0, -1},
		{"Via: SIP/2.0/UDP h;oc=5\"x\"\r\n", 0, -1, 0, -1},
		{"Via: \r\n", 0, -1, 0, -1},
		{"Via: SIP/2.0/UDP h;oc=5\r\n\r\n", 1, 5, 0, -1},
		{"\r\nVia: SIP/2.0/UDP h;oc=5\r\n", 0, -1, 0, -1},
};

START_TEST(test_read_forms)
{
	const struct vcase *c = &vcases[_i];
	struct ovc_oc_via oc;
	char m[512];
	int r;

	snprintf(
			m, sizeof(m), "SIP/2.0 200 OK\r\n%sCSeq: 1 INVITE\r\n\r\n", c->via);
	r = read_str(m, &oc);
	ck_assert_msg(r == c->ret && oc.value == c->value && oc.algos == c->algos
						  && oc.validity_ms == c->validity,
			"%s: ret %d value %d algos %u validity %lld", c->via, r, oc.value,
			oc.algos, (long long)oc.validity_ms);
	/* the same Via in a request, after leading empty lines */
	snprintf(m, sizeof(m), "\r\n\r\nBYE sip:x SIP/2.0\r\n%sCSeq: 1 BYE\r\n\r\n",
			c->via);
	ck_assert_int_eq(read_str(m, &oc), c->ret);
}
END_TEST

START_TEST(test_read_none)
{
	static const char *const msgs[] = {"",
			"SIP/2.0 200 OK\r\nCSeq: 1 INVITE\r\n\r\n",
			/* a Via in the body only */
			"SIP/2.0 200 OK\r\nContent-Length: 25\r\n\r\n"
			"Via: SIP/2.0/UDP h;oc=1\r\n",
			/* the Via line cut short: folding unknown */
			"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP h;oc=1\r\n",
			"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP h;oc=1",
			"SIP/2.0/UDP h;oc=1\r\nVia: SIP/2.0/UDP h;oc=1\r\n\r\n",
			"\x01\x02\r\nVia: SIP/2.0/UDP h;oc=1\r\n\r\n", "\r\n\r\n\r\n",
			"SIP/2.0 200 OK", "\n\n\n\n", "Via"};
	struct ovc_oc_via oc;
	size_t i;

	for(i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++) {
		memset(&oc, 0x33, sizeof(oc));
		ck_assert_msg(read_str(msgs[i], &oc) == 0, "msg %zu", i);
		ck_via(&oc, 0, -1, 0, -1, 0);
		ck_assert_int_eq(ovc_oc_feedback(msgs[i], strlen(msgs[i]), &fb20, out,
								 sizeof(out)),
				OVC_EINVAL);
		ck_assert_int_eq(
				ovc_oc_announce(msgs[i], strlen(msgs[i]), out, sizeof(out)),
				OVC_EINVAL);
	}
	ck_assert_int_eq(ovc_oc_read_top_via(NULL, 10, &oc), 0);
	ck_assert_int_eq(ovc_oc_read_top_via(rfc_resp, strlen(rfc_resp), NULL), 1);
}
END_TEST

/* feedback: the response, what it becomes (NULL: returns 0) */
struct fcase
{
	const char *in;
	const char *want;
};

#define FB ";oc=20;oc-algo=\"loss\";oc-validity=500;oc-seq=1282321615.78200"

static const struct fcase fcases[] = {
		{"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP h;branch=1;oc;received=1.2.3.4;"
		 "rport=5\r\n\r\n",
				"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP h;branch=1" FB
				";received=1.2.3.4;rport=5\r\n\r\n"},
		{"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP h;oc-algo=\"A,loss\";branch=1;"
		 "oc-seq=1.5;oc=3;oc-validity=9;rport\r\n\r\n",
				"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP h;branch=1" FB
				";rport\r\n\r\n"},
		{"SIP/2.0 200 OK\r\nv: SIP/2.0/UDP h ; OC ; branch=1 , SIP/2.0/UDP "
		 "g;oc;oc-algo=\"loss\"\r\n\r\n",
				"SIP/2.0 200 OK\r\nv: SIP/2.0/UDP h" FB
				" ; branch=1 , SIP/2.0/UDP g;oc;oc-algo=\"loss\"\r\n\r\n"},
		{"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP [::1]:5060;branch=1\r\n"
		 " ;oc\r\n\r\n",
				"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP [::1]:5060;branch=1" FB
				"\r\n\r\n"},
		{"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP h;oc;oc-algo=\"loss,A\"  \r\n"
		 "Via: SIP/2.0/UDP g;oc\r\nContent-Length: 5\r\n\r\n;oc=1",
				"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP h" FB
				"  \r\nVia: SIP/2.0/UDP g;oc\r\nContent-Length: "
				"5\r\n\r\n;oc=1"},
		{"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP h;oc=50;oc-algo=\"A\"\r\n\r\n",
				NULL},
		{"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP h;branch=1\r\n\r\n", NULL},
		{"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP h;oc-algo=\"loss\"\r\n\r\n", NULL},
		{"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP h, SIP/2.0/UDP g;oc\r\n\r\n",
				NULL},
		{"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP h;oc;oc-algo=loss\r\n\r\n",
				"SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP h" FB "\r\n\r\n"},
};

START_TEST(test_feedback)
{
	const struct fcase *c = &fcases[_i];
	int r = fb_str(c->in, &fb20);

	if(c->want == NULL) {
		ck_assert_int_eq(r, 0);
		ck_untouched(out, 256);
	} else {
		ck_out(r, c->want);
		ck_untouched(out + r, 64);
	}
}
END_TEST

START_TEST(test_feedback_invalid)
{
	struct ovc_oc_fb fb = fb20;
	size_t n = strlen(rfc_resp);

	ck_assert_int_eq(fb_str(invite_oc, &fb20), OVC_EINVAL);
	ck_assert_int_eq(
			ovc_oc_feedback(rfc_resp, n, NULL, out, sizeof(out)), OVC_EINVAL);
	ck_assert_int_eq(ovc_oc_feedback(rfc_resp, n, &fb, NULL, 10), OVC_EINVAL);
	ck_assert_int_eq(ovc_oc_feedback(rfc_resp, n, &fb, NULL, 0), OVC_EFULL);
	fb.reduction = 101;
	ck_assert_int_eq(fb_str(rfc_resp, &fb), OVC_EINVAL);
	fb = fb20;
	fb.seq = 0;
	ck_assert_int_eq(fb_str(rfc_resp, &fb), OVC_EINVAL);
	fb.seq = UINT64_C(1000000000000) * OVC_OC_SEQ_FRAC;
	ck_assert_int_eq(fb_str(rfc_resp, &fb), OVC_EINVAL);
	fb.seq--;
	ck_assert_int_gt(fb_str(rfc_resp, &fb), 0);
}
END_TEST

/* announce: the request, what it becomes (NULL: returns 0) */
static const struct fcase acases[] = {
		{invite, invite_oc},
		{"OPTIONS sip:x SIP/2.0\r\nv: SIP/2.0/UDP h:5060 , SIP/2.0/UDP g\r\n"
		 "\r\n",
				"OPTIONS sip:x SIP/2.0\r\nv: SIP/2.0/UDP h:5060;oc;oc-algo="
				"\"loss\" , SIP/2.0/UDP g\r\n\r\n"},
		{"OPTIONS sip:x SIP/2.0\r\nVia: SIP/2.0/UDP h;branch=1 \t\r\n\r\n",
				"OPTIONS sip:x SIP/2.0\r\nVia: SIP/2.0/UDP h;branch=1;oc;"
				"oc-algo=\"loss\" \t\r\n\r\n"},
		{"OPTIONS sip:x SIP/2.0\r\nVia: SIP/2.0/UDP [::1]:5060;branch=1\r\n"
		 "\t;x=\"a,b\",SIP/2.0/UDP g\r\n\r\n",
				"OPTIONS sip:x SIP/2.0\r\nVia: SIP/2.0/UDP [::1]:5060;branch=1"
				"\r\n\t;x=\"a,b\";oc;oc-algo=\"loss\",SIP/2.0/UDP g\r\n\r\n"},
		{"OPTIONS sip:x SIP/2.0\nVia: SIP/2.0/UDP h;branch=1\n\n",
				"OPTIONS sip:x SIP/2.0\nVia: SIP/2.0/UDP h;branch=1;oc;"
				"oc-algo=\"loss\"\n\n"},
		/* a stray oc-algo without oc is dropped, not repeated */
		{"OPTIONS sip:x SIP/2.0\r\nVia: SIP/2.0/UDP h;oc-algo=\"A\";"
		 "branch=1\r\n\r\n",
				"OPTIONS sip:x SIP/2.0\r\nVia: SIP/2.0/UDP h;branch=1;oc;"
				"oc-algo=\"loss\"\r\n\r\n"},
		{invite_oc, NULL},
		{"OPTIONS sip:x SIP/2.0\r\nVia: SIP/2.0/UDP h;OC=5\r\n\r\n", NULL},
};

START_TEST(test_announce)
{
	const struct fcase *c = &acases[_i];
	int r = ann_str(c->in);

	if(c->want == NULL) {
		ck_assert_int_eq(r, 0);
		ck_untouched(out, 256);
	} else {
		ck_out(r, c->want);
		ck_untouched(out + r, 64);
	}
}
END_TEST

START_TEST(test_announce_invalid)
{
	ck_assert_int_eq(ann_str(rfc_resp), OVC_EINVAL);
	ck_assert_int_eq(ann_str("SIP/2.0 200 OK\r\nVia: SIP/2.0/UDP h\r\n\r\n"),
			OVC_EINVAL);
	ck_assert_int_eq(
			ovc_oc_announce(invite, strlen(invite), NULL, 1), OVC_EINVAL);
	ck_assert_int_eq(
			ovc_oc_announce(invite, strlen(invite), NULL, 0), OVC_EFULL);
}
END_TEST

/* req with its request line replaced by a status line, into buf */
static size_t as_response(const char *req, size_t n, char *buf)
{
	const char *lf = memchr(req, '\n', n);
	size_t k = (size_t)(lf - req) + 1;

	memcpy(buf, "SIP/2.0 200 OK\r\n", 16);
	memcpy(buf + 16, lf + 1, n - k);
	return 16 + n - k;
}

START_TEST(test_round_trip)
{
	static const struct ovc_oc_fb fbs[] = {{0, 0, 1}, {100, 4294967295u, 1},
			{37, 500, RFC_SEQ}, {1, 86400000, UINT64_C(99999999999999999)},
			{20, 1, 123456789}};
	static char resp[BIG];
	struct ovc_oc_via oc;
	size_t i, n, rn, pre;
	int a, f;

	a = ann_str(invite);
	ck_assert_int_eq(a, (int)strlen(invite_oc));
	ck_assert_int_eq(ovc_oc_read_top_via(out, (size_t)a, &oc), 1);
	ck_via(&oc, 1, -1, OVC_OC_ALGO_LOSS, -1, 0);
	rn = as_response(out, (size_t)a, resp);
	pre = (size_t)(strstr(resp, ";oc;") - resp);
	for(i = 0; i < sizeof(fbs) / sizeof(fbs[0]); i++) {
		f = ovc_oc_feedback(resp, rn, &fbs[i], out, sizeof(out));
		ck_assert_int_gt(f, (int)rn);
		ck_assert_int_le(f, (int)rn + OVC_OC_GROWTH);
		ck_assert_int_eq(ovc_oc_read_top_via(out, (size_t)f, &oc), 1);
		ck_via(&oc, 1, (int)fbs[i].reduction, OVC_OC_ALGO_LOSS,
				fbs[i].validity_ms > OVC_OC_VALIDITY_MAX_MS
						? OVC_OC_VALIDITY_MAX_MS
						: fbs[i].validity_ms,
				fbs[i].seq);
		/* every byte after the top Via as it was (body included) */
		n = rn - (size_t)(strstr(resp, "\r\nVia: SIP/2.0/UDP proxy") - resp);
		ck_assert(memcmp(out + f - n, resp + rn - n, n) == 0);
		ck_assert(memcmp(out, resp, pre) == 0);
		/* a second server's feedback replaces the first's in place */
		memcpy(out2, out, (size_t)f);
		ck_assert_int_eq(
				ovc_oc_feedback(out2, (size_t)f, &fb20, out, sizeof(out)),
				(int)(rn + strlen(FB) - 18));
		ck_assert_int_eq(
				ovc_oc_read_top_via(out, rn + strlen(FB) - 18, &oc), 1);
		ck_via(&oc, 1, 20, OVC_OC_ALGO_LOSS, 500, RFC_SEQ);
	}
}
END_TEST

/* every size below the need: OVC_EFULL, nothing written */
START_TEST(test_every_small_size)
{
	static const char *const msgs[] = {rfc_resp, rfc_offer_resp, invite};
	static char small[1024];
	size_t i, s, n;
	int need, r;

	for(i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++) {
		n = strlen(msgs[i]);
		need = i < 2 ? fb_str(msgs[i], &fb20) : ann_str(msgs[i]);
		ck_assert_int_gt(need, 0);
		memcpy(out2, out, (size_t)need);
		for(s = 0; s <= (size_t)need; s++) {
			memset(small, GUARD, sizeof(small));
			r = i < 2 ? ovc_oc_feedback(msgs[i], n, &fb20, small, s)
					  : ovc_oc_announce(msgs[i], n, small, s);
			if(s < (size_t)need) {
				ck_assert_int_eq(r, OVC_EFULL);
				ck_untouched(small, sizeof(small));
			} else {
				ck_assert_int_eq(r, need);
				ck_assert(memcmp(small, out2, s) == 0);
				ck_untouched(small + s, sizeof(small) - s);
			}
		}
	}
}
END_TEST

/* msg cut at every length, each in an exact-size copy: no crash, no read
 * past it, results in range, and a rewrite of a cut message still reads
 * back */
static void every_cut(const char *msg)
{
	size_t len = strlen(msg), k;
	struct ovc_oc_via oc;
	char *b;
	int r;

	for(k = 0; k <= len; k++) {
		b = exact(msg, k);
		r = ovc_oc_read_top_via(b, k, &oc);
		ck_assert(r == 0 || r == 1);
		ck_assert(r == 1 || (oc.oc == 0 && oc.value == -1));
		r = ovc_oc_feedback(b, k, &fb20, out, sizeof(out));
		ck_assert(r == 0 || r == OVC_EINVAL || r > 0);
		if(r > 0) {
			ck_assert_int_le(r, (int)k + OVC_OC_GROWTH);
			ck_assert_int_eq(ovc_oc_read_top_via(out, (size_t)r, &oc), 1);
			ck_via(&oc, 1, 20, OVC_OC_ALGO_LOSS, 500, RFC_SEQ);
		}
		r = ovc_oc_announce(b, k, out, sizeof(out));
		ck_assert(r == 0 || r == OVC_EINVAL || r > 0);
		if(r > 0) {
			ck_assert_int_le(r, (int)k + OVC_OC_GROWTH);
			ck_assert_int_eq(ovc_oc_read_top_via(out, (size_t)r, &oc), 1);
			ck_assert_uint_eq(oc.algos, OVC_OC_ALGO_LOSS);
		}
		free(b);
	}
}

START_TEST(test_every_truncation)
{
	static const char *const msgs[] = {rfc_resp, rfc_offer_resp, invite,
			invite_oc,
			"SIP/2.0 200 OK\r\nv: SIP/2.0/UDP [2001:db8::1] : 5060\r\n"
			" ; oc = 5 ;oc-algo=\"loss,A\" , SIP/2.0/UDP g\r\n\r\n",
			"OPTIONS sip:x SIP/2.0\nVIA: SIP / 2.0 / TCP h;x=\"\\\"a,b\"\n"
			"\t;branch=1\n\n"};
	size_t i;

	for(i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++)
		every_cut(msgs[i]);
}
END_TEST

/* the cut is in the top Via's line: nothing read, nothing rewritten */
START_TEST(test_truncated_via)
{
	const char *v = strstr(rfc_resp, "Via:");
	size_t k, end = (size_t)(strchr(v, '\n') - rfc_resp) + 1;
	struct ovc_oc_via oc;

	for(k = 0; k <= end; k++) {
		ck_assert_int_eq(ovc_oc_read_top_via(rfc_resp, k, &oc), 0);
		ck_assert_int_eq(ovc_oc_feedback(rfc_resp, k, &fb20, out, sizeof(out)),
				OVC_EINVAL);
	}
	ck_assert_int_eq(ovc_oc_read_top_via(rfc_resp, end + 1, &oc), 1);
	ck_via(&oc, 1, 20, OVC_OC_ALGO_LOSS, 500, RFC_SEQ);
}
END_TEST

/* reads a whole file into a malloc'd exact-size buffer; NULL: absent */
static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long sz;

	if(f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = malloc(sz > 0 ? (size_t)sz : 1);
	ck_assert_ptr_nonnull(b);
	*n = fread(b, 1, (size_t)sz, f);
	fclose(f);
	return b;
}

/* b (n bytes) with every lone LF turned into CRLF, exact size */
static char *crlf(const char *b, size_t n, size_t *m)
{
	char *c = malloc(2 * n + 1), *x;
	size_t i, k = 0;

	ck_assert_ptr_nonnull(c);
	for(i = 0; i < n; i++) {
		if(b[i] == '\n' && (i == 0 || b[i - 1] != '\r'))
			c[k++] = '\r';
		c[k++] = b[i];
	}
	*m = k;
	x = exact(c, k);
	free(c);
	return x;
}

/* the torture requests whose top Via cannot be read: badinv01's is
 * "SIP/2.0/UDP 192.0.2.15;;,;,,", test.dat has none */
static int unreadable(const char *name)
{
	return strcmp(name, "badinv01.dat") == 0 || strcmp(name, "test.dat") == 0;
}

/* one torture message: no crash, sensible results: nothing to read or
 * answer, the offer added to every request with a readable top Via.
 * Returns 1 when it was. */
static int torture(const char *name, const char *b, size_t n)
{
	struct ovc_oc_via oc;
	int r, a, resp = n >= 8 && memcmp(b, "SIP/2.0 ", 8) == 0;

	r = ovc_oc_read_top_via(b, n, &oc);
	ck_assert_msg(r == 0, "%s: oc read where there is none", name);
	ck_via(&oc, 0, -1, 0, -1, 0);
	r = ovc_oc_feedback(b, n, &fb20, out, sizeof(out));
	ck_assert_msg(r == (resp ? 0 : OVC_EINVAL) || (resp && r == OVC_EINVAL),
			"%s: feedback %d", name, r);
	a = ovc_oc_announce(b, n, out, sizeof(out));
	ck_assert_msg(resp || unreadable(name) ? a == OVC_EINVAL : a > 0,
			"%s: announce %d", name, a);
	if(a <= 0)
		return 0;
	ck_assert_int_eq(a, (int)n + 18);
	ck_assert_int_eq(ovc_oc_read_top_via(out, (size_t)a, &oc), 1);
	ck_via(&oc, 1, -1, OVC_OC_ALGO_LOSS, -1, 0);
	/* the offer went into the top Via, before its line's end */
	ck_assert_ptr_nonnull(memmem(out, (size_t)a, ";oc;oc-algo=\"loss\"", 18));
	/* and, answered, reads back */
	r = ovc_oc_feedback(out, (size_t)a, &fb20, out2, sizeof(out2));
	ck_assert_int_eq(r, OVC_EINVAL); /* still a request */
	return 1;
}

START_TEST(test_rfc4475)
{
	const char *dir = RFC4475_DIR;
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];
	size_t n, m;
	char *b, *c;
	int files = 0, offered = 0, wsinv = 0;

	if(d == NULL) {
		dir = RFC4475_SHARED;
		d = opendir(dir);
	}
	if(d == NULL) {
		printf("NOTICE: %s absent, RFC 4475 test skipped\n", RFC4475_DIR);
		return;
	}
	while((e = readdir(d)) != NULL) {
		n = strlen(e->d_name);
		if(n < 5 || strcmp(e->d_name + n - 4, ".dat") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		b = slurp(path, &n);
		ck_assert_ptr_nonnull(b);
		c = crlf(b, n, &m);
		files++;
		offered += torture(e->d_name, b, n);
		offered += torture(e->d_name, c, m);
		if(strcmp(e->d_name, "wsinv.dat") == 0)
			wsinv = ovc_oc_announce(c, m, out, sizeof(out)) > 0;
		free(b);
		free(c);
	}
	closedir(d);
	ck_assert_int_ge(files, 50);
	ck_assert_int_eq(wsinv, 1); /* its Via is folded thrice, with LWS */
	ck_assert_int_eq(offered, 2 * (files - 7)); /* 5 responses */
}
END_TEST

START_TEST(test_seq)
{
	char buf[32];
	size_t s;

	ck_assert_uint_eq(
			ovc_oc_seq_from_ns(INT64_C(1282321615782000000)), RFC_SEQ);
	ck_assert_uint_eq(
			ovc_oc_seq_from_ns(INT64_C(1282321615782019999)), RFC_SEQ + 1);
	ck_assert_uint_eq(ovc_oc_seq_from_ns(INT64_C(9999)), 0);
	ck_assert_uint_eq(ovc_oc_seq_from_ns(INT64_C(10000)), 1);
	ck_assert_uint_eq(ovc_oc_seq_from_ns(-1), 0);
	ck_assert_uint_eq(ovc_oc_seq_print(RFC_SEQ, buf, sizeof(buf)), 16);
	ck_assert_str_eq(buf, "1282321615.78200");
	ck_assert_uint_eq(ovc_oc_seq_print(1, buf, sizeof(buf)), 7);
	ck_assert_str_eq(buf, "0.00001");
	ck_assert_uint_eq(ovc_oc_seq_print(0, buf, sizeof(buf)), 7);
	ck_assert_str_eq(buf, "0.00000");
	ck_assert_uint_eq(ovc_oc_seq_print(UINT64_MAX, buf, sizeof(buf)), 21);
	ck_assert_str_eq(buf, "184467440737095.51615");
	for(s = 0; s <= 16; s++) {
		memset(buf, GUARD, sizeof(buf));
		ck_assert_uint_eq(ovc_oc_seq_print(RFC_SEQ, buf, s), 0);
		ck_untouched(buf, sizeof(buf));
	}
	ck_assert_uint_eq(ovc_oc_seq_print(RFC_SEQ, NULL, 100), 0);
}
END_TEST

Suite *make_suite_oc7339(void)
{
	Suite *s = suite_create("oc7339");
	TCase *tc = tcase_create("oc7339");

	/* every size and every cut of a message, under ASan on a loaded
	 * machine: more than check's default 4 s */
	tcase_set_timeout(tc, 60);

	tcase_add_test(tc, test_rfc_examples);
	tcase_add_loop_test(tc, test_param, 0, sizeof(pcases) / sizeof(pcases[0]));
	tcase_add_loop_test(
			tc, test_read_forms, 0, sizeof(vcases) / sizeof(vcases[0]));
	tcase_add_test(tc, test_read_none);
	tcase_add_loop_test(
			tc, test_feedback, 0, sizeof(fcases) / sizeof(fcases[0]));
	tcase_add_test(tc, test_feedback_invalid);
	tcase_add_loop_test(
			tc, test_announce, 0, sizeof(acases) / sizeof(acases[0]));
	tcase_add_test(tc, test_announce_invalid);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_every_small_size);
	tcase_add_test(tc, test_every_truncation);
	tcase_add_test(tc, test_truncated_via);
	tcase_add_test(tc, test_rfc4475);
	tcase_add_test(tc, test_seq);
	suite_add_tcase(s, tc);
	return s;
}
