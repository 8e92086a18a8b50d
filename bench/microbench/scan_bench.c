/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - microbenchmark of the raw SIP scanner and the reply builder: ns per
 * ovc_sip_scan() and per scan + ovc_sip_build_reply() over a corpus of
 * SIPp-like INVITEs (1 to 4 Via lines, SDP body), best of several rounds.
 *
 * Usage: scan_bench [iterations per round] (default 2000000)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ovc/sipscan.h"
#include "ovc/types.h"

#define NMSG 64
#define ROUNDS 7

#include "uac_sdp.h"

/* a SIPp uac INVITE as it reaches a proxy after nvia - 1 hops */
static size_t make_invite(char *b, size_t size, int i, int nvia)
{
	size_t n = 0;
	int h;

	n += (size_t)snprintf(b + n, size - n,
			"INVITE sip:service@192.0.2.1:5060 SIP/2.0\r\n");
	for(h = nvia - 1; h >= 1; h--)
		n += (size_t)snprintf(b + n, size - n,
				"Via: SIP/2.0/UDP 10.0.%d.%d:5060;branch=z9hG4bK%08x.%d;"
				"received=10.0.%d.%d;rport=5060\r\n",
				h, i % 250 + 1, (unsigned)(i * 2654435761u), h, h,
				i % 250 + 1);
	n += (size_t)snprintf(b + n, size - n,
			"Via: SIP/2.0/UDP 192.0.2.10:5061;branch=z9hG4bK-%d-1-0%s\r\n"
			"From: sipp <sip:sipp@192.0.2.10:5061>;tag=%dSIPpTag00%d\r\n"
			"To: service <sip:service@192.0.2.1:5060>\r\n"
			"Call-ID: %d-%d@192.0.2.10\r\n"
			"CSeq: 1 INVITE\r\n"
			"Contact: sip:sipp@192.0.2.10:5061\r\n"
			"Max-Forwards: %d\r\n"
			"Subject: Performance Test\r\n"
			"Content-Type: application/sdp\r\n"
			"Content-Length: %zu\r\n"
			"\r\n%s",
			4242 + i, nvia == 1 ? ";rport" : "", 4242 + i, i, i + 1,
			4242 + i, 71 - nvia, strlen(sdp), sdp);
	return n;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	static char msg[NMSG][2048];
	size_t len[NMSG], total = 0;
	struct ovc_sip_scan s;
	struct ovc_reply_params p;
	char out[4096];
	long iters = argc > 1 ? atol(argv[1]) : 2000000;
	double t0, best_scan = 1e30, best_both = 1e30, ns;
	volatile unsigned sink = 0;
	long it;
	int i, r, round, nvia;

	for(i = 0; i < NMSG; i++) {
		len[i] = make_invite(msg[i], sizeof(msg[i]), i, 1 + i % 4);
		total += len[i];
		if(ovc_sip_scan(msg[i], len[i], &s) != OVC_SCAN_OK) {
			fprintf(stderr, "corpus message %d does not scan\n", i);
			return 1;
		}
	}
	memset(&p, 0, sizeof(p));
	p.code = 503;
	p.reason = "Service Unavailable";
	p.reason_len = strlen(p.reason);
	p.retry_after = 5;
	p.src_ip = "198.51.100.7";
	p.src_port = 40000;
	p.secret = 0x0123456789abcdefULL;

	for(round = 0; round < ROUNDS; round++) {
		t0 = now_ns();
		for(it = 0; it < iters; it++) {
			i = (int)(it & (NMSG - 1));
			r = ovc_sip_scan(msg[i], len[i], &s);
			sink += (unsigned)r + s.hdr_end;
		}
		ns = (now_ns() - t0) / (double)iters;
		if(ns < best_scan)
			best_scan = ns;

		t0 = now_ns();
		for(it = 0; it < iters; it++) {
			i = (int)(it & (NMSG - 1));
			r = ovc_sip_scan(msg[i], len[i], &s);
			r = ovc_sip_build_reply(msg[i], &s, &p, out, sizeof(out));
			sink += (unsigned)r + (unsigned char)out[r - 1];
		}
		ns = (now_ns() - t0) / (double)iters;
		if(ns < best_both)
			best_both = ns;
	}
	printf("corpus: %d SIPp-like INVITEs, 1-4 Via lines, mean %zu bytes\n",
			NMSG, total / NMSG);
	for(nvia = 1; nvia <= 4; nvia++) {
		double b = 1e30;
		for(round = 0; round < ROUNDS; round++) {
			t0 = now_ns();
			for(it = 0; it < iters / 4; it++) {
				i = (int)((it * 4 + (nvia - 1)) & (NMSG - 1));
				r = ovc_sip_scan(msg[i], len[i], &s);
				sink += (unsigned)r + s.hdr_end;
			}
			ns = (now_ns() - t0) / (double)(iters / 4);
			if(ns < b)
				b = ns;
		}
		printf("scan, %d Via: %.1f ns\n", nvia, b);
	}
	printf("scan: %.1f ns/msg\n", best_scan);
	printf("scan+build: %.1f ns/msg\n", best_both);
	printf("(best of %d rounds of %ld; sink %u)\n", ROUNDS, iters, sink);
	return 0;
}
