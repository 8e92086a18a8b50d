/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - libFuzzer target for the raw SIP scanner and the reply builder.
 *
 * Scans the input (in an exact-size copy, so ASan sees any overread); on
 * OVC_SCAN_OK checks the spans, builds the reply into a big and a small
 * buffer with guard bytes and checks the reply's shape. Any violated
 * invariant aborts. Built and run by `make fuzz-sipscan` (tests/fuzz/fuzz.mk).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ovc/sipscan.h"
#include "ovc/types.h"

#define GUARD 32
#define SMALL 200

static void check(int cond)
{
	if(!cond)
		abort();
}

static void check_span(const struct ovc_span *sp, uint32_t end)
{
	check((uint64_t)sp->off + sp->len <= end);
}

/* every CR is followed by LF and every LF preceded by CR; the only blank
 * line is the last one */
static void check_reply(const char *r, int n, const struct ovc_sip_scan *s)
{
	unsigned vias = 0;
	int i;

	check(n > 16);
	check(memcmp(r, "SIP/2.0 503 ", 12) == 0);
	check(memcmp(r + n - 4, "\r\n\r\n", 4) == 0);
	for(i = 0; i < n; i++) {
		if(r[i] == '\r')
			check(i + 1 < n && r[i + 1] == '\n');
		if(r[i] == '\n') {
			check(i > 0 && r[i - 1] == '\r');
			if(i + 1 < n && r[i + 1] == '\r')
				check(i == n - 3);
			if(i + 5 < n && memcmp(r + i + 1, "Via: ", 5) == 0)
				vias++;
		}
	}
	check(vias == s->n_via);
}

/* The leading digits of [s, s + n) in 64 bits (saturating at
 * UINT64_MAX): an independent reading of a number the scanner parsed. */
static uint64_t dec64(const char *s, uint32_t n)
{
	uint64_t v = 0;
	uint32_t i;

	for(i = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		v = v > (UINT64_MAX - 9) / 10 ? UINT64_MAX
									 : v * 10 + (uint64_t)(s[i] - '0');
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char big[2 * 65536 + 4096], small[SMALL + GUARD],
			again[sizeof(big)];
	struct ovc_reply_params p;
	struct ovc_sip_scan s;
	char tag[OVC_TOTAG_LEN];
	char *buf;
	unsigned i;
	int r, n, m;

	buf = malloc(size ? size : 1);
	if(buf == NULL)
		return 0;
	memcpy(buf, data, size);
	r = ovc_sip_scan(buf, size, &s);
	check(r <= 0 && r > -OVC_SCAN_REASONS);
	if(r != OVC_SCAN_OK) {
		free(buf);
		return 0;
	}

	/* spans */
	check(s.hdr_end >= 4 && s.hdr_end <= size);
	check(memcmp(buf + s.hdr_end - 4, "\r\n\r\n", 4) == 0);
	check(s.n_via >= 1 && s.n_via <= OVC_SCAN_MAX_VIA);
	for(i = 0; i < s.n_via; i++)
		check_span(&s.via[i], s.hdr_end);
	check_span(&s.method_name, s.hdr_end);
	check_span(&s.ruri, s.hdr_end);
	check_span(&s.from, s.hdr_end);
	check_span(&s.to, s.hdr_end);
	check_span(&s.totag, s.hdr_end);
	check_span(&s.fromtag, s.hdr_end);
	check_span(&s.callid, s.hdr_end);
	check_span(&s.cseq, s.hdr_end);
	check_span(&s.via1_host, s.hdr_end);
	check_span(&s.via1_branch, s.hdr_end);
	check_span(&s.via1_received, s.hdr_end);
	check_span(&s.via1_rport_val, s.hdr_end);
	check_span(&s.via1_rport_param, s.hdr_end);
	check_span(&s.via1_received_param, s.hdr_end);
	check(s.via1_end >= s.via[0].off
			&& s.via1_end <= s.via[0].off + s.via[0].len);
	check(s.callid.len > 0 && s.from.len > 0 && s.to.len > 0);
	check(s.cseq_num <= 0x7fffffffu);
	/* the CSeq number read in 64 bits (the scanner's 32 must not have
	 * wrapped) */
	check(s.cseq.len > 0 && dec64(buf + s.cseq.off, s.cseq.len)
					== (uint64_t)s.cseq_num);
	check(s.via1_host.len > 0);
	if(s.via1_rport)
		check(s.via1_rport_param.len >= 5);

	/* bytes after the body play no part: the message alone scans the
	 * same */
	check(s.msg_end >= s.hdr_end && s.msg_end <= size);
	{
		struct ovc_sip_scan h;
		check(ovc_sip_scan(buf, s.msg_end, &h) == OVC_SCAN_OK);
		check(h.hdr_end == s.hdr_end && h.n_via == s.n_via
				&& h.cseq_num == s.cseq_num && h.method == s.method
				&& h.totag.off == s.totag.off && h.totag.len == s.totag.len
				&& h.via1_end == s.via1_end && h.msg_end == s.msg_end
				&& memcmp(h.via, s.via, sizeof(h.via)) == 0);
	}

	/* To-tag */
	check(ovc_sip_totag(7, buf, &s, tag) == OVC_TOTAG_LEN);
	check(memcmp(tag, "ovc", 3) == 0);
	r = ovc_sip_is_own_totag(7, buf, &s);
	check(r == (s.totag.len == OVC_TOTAG_LEN
					   && memcmp(buf + s.totag.off, tag, OVC_TOTAG_LEN) == 0));
	check(ovc_sip_reply_port(&s, 4242) != 0);

	/* reply: big buffer always fits, twice the same bytes */
	memset(&p, 0, sizeof(p));
	p.code = 503;
	p.reason = "Service Unavailable";
	p.reason_len = 19;
	p.retry_after = size % 7;
	p.src_ip = (size & 1) ? "192.0.2.1" : "2001:db8::1";
	p.src_port = (uint16_t)(5060 + size % 3);
	p.server = (size & 2) ? "ovc" : NULL;
	p.secret = 7;
	n = ovc_sip_build_reply(buf, &s, &p, big, sizeof(big));
	check(n > 0 && (size_t)n < sizeof(big));
	check_reply(big, n, &s);
	m = ovc_sip_build_reply(buf, &s, &p, again, sizeof(again));
	check(m == n && memcmp(big, again, (size_t)n) == 0);

	/* small buffer: fits or OVC_ERANGE, never past outsize */
	memset(small, 0x5a, sizeof(small));
	m = ovc_sip_build_reply(buf, &s, &p, small, SMALL);
	check(m == (n <= SMALL ? n : OVC_ERANGE));
	for(i = SMALL; i < sizeof(small); i++)
		check((unsigned char)small[i] == 0x5a);
	if(m > 0)
		check(memcmp(small, big, (size_t)n) == 0);

	free(buf);
	return 0;
}
