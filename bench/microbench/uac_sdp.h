/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc microbenchmarks - the SDP body of SIPp's uac INVITE and the
 * requests of its scenario, shared by the scanner, admission and kernel
 * stage benchmarks so that all time the same requests.
 */
#ifndef OVC_UAC_SDP_H
#define OVC_UAC_SDP_H

#include <stdio.h>
#include <string.h>

static const char sdp[] = "v=0\r\n"
						  "o=user1 53655765 2353687637 IN IP4 192.0.2.10\r\n"
						  "s=-\r\n"
						  "c=IN IP4 192.0.2.10\r\n"
						  "t=0 0\r\n"
						  "m=audio 6000 RTP/AVP 0\r\n"
						  "a=rtpmap:0 PCMU/8000\r\n";

/* One request of SIPp's uac scenario for call i: method m (INVITE, ACK
 * or BYE; the last two in the dialog, with the UAS's To-tag). */
static inline size_t uac_make_req(char *b, size_t size, int i, const char *m)
{
	int inv = strcmp(m, "INVITE") == 0;

	return (size_t)snprintf(b, size,
			"%s sip:service@192.0.2.1:5060 SIP/2.0\r\n"
			"Via: SIP/2.0/UDP 192.0.2.10:5061;branch=z9hG4bK-%d-%s\r\n"
			"From: sipp <sip:sipp@192.0.2.10:5061>;tag=4242SIPpTag00%d\r\n"
			"To: service <sip:service@192.0.2.1:5060>%s\r\n"
			"Call-ID: %d-4242@192.0.2.10\r\n"
			"CSeq: %d %s\r\n"
			"Contact: sip:sipp@192.0.2.10:5061\r\n"
			"Max-Forwards: 70\r\n"
			"Subject: Performance Test\r\n"
			"%s"
			"Content-Length: %zu\r\n"
			"\r\n%s",
			m, i, m, i, inv ? "" : ";tag=1234SIPpTag01", i,
			strcmp(m, "BYE") == 0 ? 2 : 1, m,
			inv ? "Content-Type: application/sdp\r\n" : "",
			inv ? strlen(sdp) : 0, inv ? sdp : "");
}

#endif
