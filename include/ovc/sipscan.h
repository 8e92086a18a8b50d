/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - a minimal, bounds-checked scanner for raw SIP requests and a
 * builder for stateless reject replies made directly from the raw headers.
 *
 * Used where Kamailio's full parser would cost too much: at script level
 * to build ovc's 503 without allocations, and at datagram arrival (fast
 * path). The scanner only claims what it fully understands; anything else
 * makes it return a negative reason, and the caller falls back to the
 * normal path. It never reads outside [buf, buf + len).
 */
#ifndef OVC_SIPSCAN_H
#define OVC_SIPSCAN_H

#include <stddef.h>
#include <stdint.h>

/* A slice of the scanned buffer: offset and length, bytes. */
struct ovc_span
{
	uint32_t off;
	uint32_t len;
};

enum ovc_sip_method
{
	OVC_M_OTHER = 0,
	OVC_M_INVITE,
	OVC_M_ACK,
	OVC_M_CANCEL,
	OVC_M_REGISTER,
	OVC_M_BYE,
	OVC_M_PRACK,
	OVC_M_UPDATE,
	OVC_M_INFO,
	OVC_M_OPTIONS,
	OVC_M_SUBSCRIBE,
	OVC_M_NOTIFY,
	OVC_M_MESSAGE,
	OVC_M_REFER,
	OVC_M_PUBLISH,
};

#define OVC_SCAN_MAX_VIA 16 /* Via header lines kept; more: fall through */

/* Reasons the scanner gives up (negative returns of ovc_sip_scan). */
enum ovc_scan_reason
{
	OVC_SCAN_OK = 0,
	OVC_SCAN_NOT_REQUEST = -1, /* a response, or no SIP/2.0 request line */
	OVC_SCAN_TRUNCATED = -2,   /* no end of headers (CRLFCRLF) in buffer */
	OVC_SCAN_MALFORMED = -3,   /* syntax the scanner does not accept */
	OVC_SCAN_MISSING = -4,	   /* a required header is absent */
	OVC_SCAN_DUPLICATE = -5,   /* To/From/Call-ID/CSeq more than once */
	OVC_SCAN_TOO_MANY_VIA = -6,
	OVC_SCAN_TOO_LONG = -7,	   /* header line or message beyond limits */
	OVC_SCAN_UNSUPPORTED = -8, /* e.g. non-UDP top Via, unusual encoding */
	OVC_SCAN_REASONS = 9	   /* number of reasons, for counters */
};

/* What the scanner found. Spans point into the scanned buffer. */
struct ovc_sip_scan
{
	enum ovc_sip_method method;
	struct ovc_span method_name; /* request line method token */
	struct ovc_span ruri;		 /* Request-URI */
	struct ovc_span via[OVC_SCAN_MAX_VIA]; /* each Via header's value
											  (comma-separated values of
											  one line stay one span) */
	unsigned n_via;
	struct ovc_span from;	/* From header value */
	struct ovc_span to;		/* To header value */
	struct ovc_span totag;	/* To tag value; len 0: no tag */
	struct ovc_span callid; /* Call-ID value */
	struct ovc_span cseq;	/* CSeq value */
	uint32_t cseq_num;
	enum ovc_sip_method cseq_method;
	/* top Via (first value of via[0]) */
	struct ovc_span via1_host;	   /* sent-by host (IPv6 with brackets) */
	uint16_t via1_port;			   /* sent-by port, 0 when absent */
	int via1_rport;				   /* 1: rport parameter present */
	struct ovc_span via1_rport_val; /* its value, len 0 if none */
	struct ovc_span via1_received; /* received parameter value, or len 0 */
	struct ovc_span via1_branch;   /* branch parameter value, or len 0 */
	uint32_t hdr_end;			   /* offset just past the CRLFCRLF */
	/* added for the reply builder (after the original fields) */
	struct ovc_span fromtag;		/* From tag value; len 0: no tag */
	uint32_t via1_end; /* offset just past the top Via's first value (its
						  last parameter, or host/port), before LWS/',' */
	struct ovc_span via1_rport_param;	 /* "rport[=val]" incl. LWS, or 0 */
	struct ovc_span via1_received_param; /* "received=val", or len 0 */
	uint32_t msg_end; /* offset past the body: hdr_end + Content-Length, or
						 the buffer's length without Content-Length */
};

/* Scans a raw request. Returns OVC_SCAN_OK and fills *out, or a negative
 * enum ovc_scan_reason (out's content then unspecified). Pure; reads only
 * buf[0, len). Header names are matched case-insensitively, compact forms
 * (v, f, t, i) accepted, folded (LWS-continued) lines accepted. A bare LF
 * line ending (or any raw control byte in a header) gives
 * OVC_SCAN_UNSUPPORTED, a CR without LF OVC_SCAN_MALFORMED. */
int ovc_sip_scan(const char *buf, size_t len, struct ovc_sip_scan *out);

/* Short name of a scan reason ("truncated", ...). */
const char *ovc_scan_reason_name(int reason);

/* Writes the deterministic To-tag ovc uses for its own rejects: a fixed
 * prefix "ovc" then 16 hex digits of a 64-bit hash of (secret, Call-ID,
 * From tag-less value). The same request (and its retransmissions) always
 * get the same tag. out must hold OVC_TOTAG_LEN bytes (no NUL written).
 * Returns OVC_TOTAG_LEN. */
#define OVC_TOTAG_LEN 19
int ovc_sip_totag(uint64_t secret, const char *buf,
		const struct ovc_sip_scan *s, char *out);

/* Returns 1 when the scanned request carries a To-tag that ovc_sip_totag()
 * would produce for it (e.g. the ACK to one of ovc's rejects), else 0. */
int ovc_sip_is_own_totag(
		uint64_t secret, const char *buf, const struct ovc_sip_scan *s);

/* A 64-bit identity of the scanned request for ovc's memory of decisions:
 * a hash of (secret, Call-ID, From tag, CSeq number, top Via branch and
 * sent-by, method, and src: the caller's identity of the transport source
 * the request came from, e.g. a hash of protocol, address and port; 0 when
 * unknown). A retransmission is the same transaction (RFC 3261 17.2.3)
 * from the same source and gets the same key; a request that reuses
 * another's Call-ID, From tag and CSeq with a new branch, or from another
 * source, is a new request with a key of its own. A CANCEL and the ACK to
 * a non-2xx reply get their INVITE's key. */
uint64_t ovc_sip_request_key(uint64_t secret, const char *buf,
		const struct ovc_sip_scan *s, uint64_t src);

/* Reply parameters. */
struct ovc_reply_params
{
	int code;			/* 100..699 */
	const char *reason; /* reason phrase, no CR/LF */
	size_t reason_len;
	int retry_after;	/* seconds; 0: no Retry-After */
	const char *src_ip; /* source address of the request, text (IPv6 raw,
						   without brackets) */
	uint16_t src_port;	/* source port */
	const char *server; /* Server header value, or NULL */
	uint64_t secret;	/* for the To-tag */
};

/* Builds a stateless reply to the scanned request into out (RFC 3261
 * 8.2.6 / 16.7): status line, every Via in order with received= added to
 * the top one when its sent-by host differs from src_ip and rport=<port>
 * filled when requested (RFC 3581), From, To (with ovc's tag added when it
 * had none), Call-ID, CSeq, optional Retry-After and Server,
 * Content-Length: 0. Returns the length written, or OVC_EINVAL/OVC_ERANGE
 * (out too small); nothing is written past outsize. received is also
 * added (RFC 3581) when the top Via has rport, and an existing received is
 * rewritten with src_ip (as Kamailio does); folded values are unfolded. */
int ovc_sip_build_reply(const char *buf, const struct ovc_sip_scan *s,
		const struct ovc_reply_params *p, char *out, size_t outsize);

/* Where a reply to the scanned request goes over UDP: the port per RFC
 * 3261 18.2.2 / RFC 3581 (rport: the source port; else the sent-by port,
 * default 5060). The address is always the source address. */
uint16_t ovc_sip_reply_port(const struct ovc_sip_scan *s, uint16_t src_port);

#endif
