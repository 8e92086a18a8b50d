/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc microbenchmarks - the SDP body of SIPp's uac INVITE, shared by the
 * scanner and admission benchmarks so that both time the same request.
 */
#ifndef OVC_UAC_SDP_H
#define OVC_UAC_SDP_H

static const char sdp[] = "v=0\r\n"
						  "o=user1 53655765 2353687637 IN IP4 192.0.2.10\r\n"
						  "s=-\r\n"
						  "c=IN IP4 192.0.2.10\r\n"
						  "t=0 0\r\n"
						  "m=audio 6000 RTP/AVP 0\r\n"
						  "a=rtpmap:0 PCMU/8000\r\n";

#endif
