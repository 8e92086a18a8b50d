/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - scanner for raw SIP requests (fast-path classification and the
 * input of the stateless reply builder), the deterministic To-tag and the
 * UDP reply port.
 *
 * One pass over [buf, buf + len), every read bounds-checked, no allocation.
 * Strict on purpose: what the scanner does not fully understand makes it
 * return a reason and the caller falls back to Kamailio's parser. Choices:
 * - request line exactly "METHOD SP Request-URI SP SIP/2.0 CRLF";
 * - a bare LF (without CR) anywhere in the headers: OVC_SCAN_UNSUPPORTED;
 *   a CR not followed by LF: OVC_SCAN_MALFORMED;
 * - raw control bytes (other than HT) or DEL in a header line:
 *   OVC_SCAN_UNSUPPORTED (legal inside quoted strings, but never seen in
 *   real traffic and not worth copying into a reply);
 * - Content-Length (l) optional; when present: one, 1*DIGIT, and not more
 *   than the bytes after the headers, else MALFORMED/DUPLICATE;
 * - the top Via must be SIP/2.0/UDP (case-insensitive), else
 *   OVC_SCAN_UNSUPPORTED; every Via value of every line is checked (any
 *   transport), only the first value of the first line is recorded; each
 *   Via line is kept as one span.
 */
#include <string.h>

#include "ascii.h"
#include "ovc/hash.h"
#include "siplex.h"
#include "ovc/sipscan.h"

#define MAX_MSG 65536u /* bytes of the whole message */
#define MAX_LINE 8192u /* bytes of one (possibly folded) header line */

/* Character classes, one byte per character: C_TOKEN (RFC 3261 token:
 * alphanum and -.!%*_+`'~), C_TEXT (may appear in a header value as is: HT,
 * visible ASCII, SP, UTF-8 bytes; not CR, LF, other controls or DEL),
 * C_URI (Request-URI: visible ASCII except <>"{}|\^ and backquote). */
#define C_TOKEN 1
#define C_TEXT 2
#define C_URI 4
static const unsigned char cclass[256] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		2, 7, 2, 6, 6, 7, 6, 7, 6, 6, 7, 7, 6, 7, 7, 6,
		7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 6, 2, 6, 2, 6,
		6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
		7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 2, 6, 2, 7,
		3, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
		7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 2, 2, 2, 7, 0,
		2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
		2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
		2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
		2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
		2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
		2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
		2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
		2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};

static int is_token(unsigned char c)
{
	return cclass[c] & C_TOKEN;
}

static int is_alpha(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int is_hex(unsigned char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

#define is_ws ovc_is_ws
#define is_lws ovc_is_lws

static int is_uri_char(unsigned char c)
{
	return cclass[c] & C_URI;
}

/* case-insensitive compare of buf[off, off + n) with a lower-case word */
static int span_ieq(const char *buf, uint32_t off, uint32_t n, const char *w)
{
	uint32_t i;

	for(i = 0; i < n; i++) {
		if(w[i] == '\0' || ovc_lower((unsigned char)buf[off + i]) != w[i])
			return 0;
	}
	return w[n] == '\0';
}

static struct ovc_span mkspan(size_t a, size_t b)
{
	struct ovc_span s;

	s.off = (uint32_t)a;
	s.len = (uint32_t)(b - a);
	return s;
}

#define skip_lws ovc_skip_lws

static size_t skip_token(const char *buf, size_t p, size_t e)
{
	while(p < e && is_token((unsigned char)buf[p]))
		p++;
	return p;
}

#define skip_quoted ovc_skip_quoted

static const struct
{
	const char *name;
	uint32_t len;
	enum ovc_sip_method m;
} methods[] = {
		{"INVITE", 6, OVC_M_INVITE},
		{"ACK", 3, OVC_M_ACK},
		{"CANCEL", 6, OVC_M_CANCEL},
		{"REGISTER", 8, OVC_M_REGISTER},
		{"BYE", 3, OVC_M_BYE},
		{"PRACK", 5, OVC_M_PRACK},
		{"UPDATE", 6, OVC_M_UPDATE},
		{"INFO", 4, OVC_M_INFO},
		{"OPTIONS", 7, OVC_M_OPTIONS},
		{"SUBSCRIBE", 9, OVC_M_SUBSCRIBE},
		{"NOTIFY", 6, OVC_M_NOTIFY},
		{"MESSAGE", 7, OVC_M_MESSAGE},
		{"REFER", 5, OVC_M_REFER},
		{"PUBLISH", 7, OVC_M_PUBLISH},
};

/* Method names are case-sensitive in RFC 3261 (7.1), but Kamailio's
 * parser matches the methods it knows in any case ("invite" is an INVITE
 * transaction to it, and relayed as one): ovc classes a request as the
 * server will act on it, so the match ignores case too. */
static enum ovc_sip_method method_of(const char *buf, struct ovc_span s)
{
	size_t i;

	for(i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		if(methods[i].len == s.len
				&& ovc_ieq(buf + s.off, methods[i].name, s.len))
			return methods[i].m;
	}
	return OVC_M_OTHER;
}

/* Parses a decimal port of 1..65535 at buf[p, e); returns the offset past
 * it or 0 on error. */
static size_t parse_port(const char *buf, size_t p, size_t e, uint16_t *port)
{
	uint32_t v = 0;
	size_t s = p;

	while(p < e && is_digit((unsigned char)buf[p])) {
		v = v * 10 + (uint32_t)(buf[p] - '0');
		if(v > 65535)
			return 0;
		p++;
	}
	if(p == s || v == 0)
		return 0;
	*port = (uint16_t)v;
	return p;
}

/* Generic parameter value: quoted string, or token characters plus the
 * ':', '[' and ']' of IPv6 references. Returns the end offset, or 0 when
 * empty or unterminated. */
static size_t skip_param_value(const char *buf, size_t p, size_t e)
{
	size_t s = p;

	if(p < e && buf[p] == '"')
		return skip_quoted(buf, p, e);
	while(p < e
			&& (is_token((unsigned char)buf[p]) || buf[p] == ':'
					|| buf[p] == '[' || buf[p] == ']'))
		p++;
	return p == s ? 0 : p;
}

/* One ";name[=value]" parameter after its ';' (LWS allowed around '=').
 * Fills name and value spans, returns the end offset or 0. */
static size_t parse_param(const char *buf, size_t p, size_t e,
		struct ovc_span *name, struct ovc_span *val)
{
	size_t q, ns, ne;

	ns = skip_lws(buf, p, e);
	ne = skip_token(buf, ns, e);
	if(ne == ns)
		return 0;
	*name = mkspan(ns, ne);
	val->off = (uint32_t)ne;
	val->len = 0;
	q = skip_lws(buf, ne, e);
	if(q < e && buf[q] == '=') {
		q = skip_lws(buf, q + 1, e);
		p = skip_param_value(buf, q, e);
		if(p == 0)
			return 0;
		*val = mkspan(q, p);
		return p;
	}
	return ne;
}

/* The sent-protocol of a Via value starting at s (SIP / 2.0 / transport,
 * LWS allowed around '/'); with top set the transport must be UDP. Sets
 * *after to where the sent-by starts. Returns 0 or a negative reason. */
static int parse_sent_protocol(
		const char *buf, size_t s, size_t e, int top, size_t *after)
{
	int bad = top ? OVC_SCAN_UNSUPPORTED : OVC_SCAN_MALFORMED;
	size_t p, q;

	p = skip_lws(buf, s, e);
	q = skip_token(buf, p, e);
	if(!span_ieq(buf, (uint32_t)p, (uint32_t)(q - p), "sip"))
		return bad;
	p = skip_lws(buf, q, e);
	if(p >= e || buf[p] != '/')
		return OVC_SCAN_MALFORMED;
	p = skip_lws(buf, p + 1, e);
	q = skip_token(buf, p, e);
	if(!span_ieq(buf, (uint32_t)p, (uint32_t)(q - p), "2.0"))
		return bad;
	p = skip_lws(buf, q, e);
	if(p >= e || buf[p] != '/')
		return OVC_SCAN_MALFORMED;
	p = skip_lws(buf, p + 1, e);
	q = skip_token(buf, p, e);
	if(q == p)
		return OVC_SCAN_MALFORMED;
	if(top && !span_ieq(buf, (uint32_t)p, (uint32_t)(q - p), "udp"))
		return OVC_SCAN_UNSUPPORTED;
	p = skip_lws(buf, q, e);
	if(p == q || p >= e)
		return OVC_SCAN_MALFORMED;
	*after = p;
	return 0;
}

/* The sent-by at p ([IPv6], IPv4 or hostname, optional :port) into *host
 * and *port (0: none); *last: where it ends. Returns 0 or
 * OVC_SCAN_MALFORMED. */
static int parse_sent_by(const char *buf, size_t p, size_t e,
		struct ovc_span *host, uint16_t *port, size_t *last)
{
	size_t q = p;

	if(buf[p] == '[') {
		p++;
		while(p < e && (is_hex((unsigned char)buf[p]) || buf[p] == ':'
							   || buf[p] == '.'))
			p++;
		if(p >= e || buf[p] != ']' || p - q < 3)
			return OVC_SCAN_MALFORMED;
		p++;
	} else {
		while(p < e && (is_alpha((unsigned char)buf[p])
							   || is_digit((unsigned char)buf[p])
							   || buf[p] == '-' || buf[p] == '.'))
			p++;
		if(p == q)
			return OVC_SCAN_MALFORMED;
	}
	*host = mkspan(q, p);
	*last = p;
	*port = 0;
	q = skip_lws(buf, p, e);
	if(q < e && buf[q] == ':') {
		p = parse_port(buf, skip_lws(buf, q + 1, e), e, port);
		if(p == 0)
			return OVC_SCAN_MALFORMED;
		*last = p;
	}
	return 0;
}

/* Which via-params were seen (each at most once). */
struct via_seen
{
	int branch, rport, rcvd;
};

/* One via-param name[=val] spanning [q, p): rport, received and branch
 * checked (and, with top set, kept in out). Returns 0 or
 * OVC_SCAN_MALFORMED. */
static int take_via_param(const char *buf, struct ovc_span name,
		struct ovc_span val, size_t q, size_t p, int top,
		struct via_seen *vs, struct ovc_sip_scan *out)
{
	uint16_t port;

	if(span_ieq(buf, name.off, name.len, "rport")) {
		if(vs->rport++)
			return OVC_SCAN_MALFORMED;
		if(val.len
				&& parse_port(buf, val.off, val.off + val.len, &port)
						   != val.off + val.len)
			return OVC_SCAN_MALFORMED;
		if(top) {
			out->via1_rport = 1;
			out->via1_rport_val = val;
			out->via1_rport_param = mkspan(q, p);
		}
	} else if(span_ieq(buf, name.off, name.len, "received")) {
		if(vs->rcvd++ || val.len == 0 || buf[val.off] == '"')
			return OVC_SCAN_MALFORMED;
		if(top) {
			out->via1_received = val;
			out->via1_received_param = mkspan(q, p);
		}
	} else if(span_ieq(buf, name.off, name.len, "branch")) {
		if(vs->branch++ || val.len == 0 || buf[val.off] == '"')
			return OVC_SCAN_MALFORMED;
		if(top)
			out->via1_branch = val;
	}
	return 0;
}

/* Parses one Via value (via-parm) starting at s, up to e or the next
 * top-level ','. With top set, the value is the top Via: it must be UDP and
 * its fields go to out; otherwise it is only checked (Kamailio parses every
 * Via body it meets and drops the message on a syntax error). Sets *next
 * to the ',' or e. */
static int parse_via_value(const char *buf, size_t s, size_t e, int top,
		struct ovc_sip_scan *out, size_t *next)
{
	struct ovc_span name, val, host;
	struct via_seen vs = {0, 0, 0};
	size_t p, q, last, after;
	uint16_t port;
	int r;

	r = parse_sent_protocol(buf, s, e, top, &p);
	if(r < 0)
		return r;
	if(parse_sent_by(buf, p, e, &host, &port, &last) < 0)
		return OVC_SCAN_MALFORMED;
	if(top) {
		out->via1_host = host;
		out->via1_port = port;
	}
	/* via-params until the end of the value or the next Via value */
	for(;;) {
		p = skip_lws(buf, last, e);
		if(p >= e || buf[p] == ',')
			break;
		if(buf[p] != ';')
			return OVC_SCAN_MALFORMED;
		q = skip_lws(buf, p + 1, e);
		p = parse_param(buf, q, e, &name, &val);
		if(p == 0)
			return OVC_SCAN_MALFORMED;
		if(val.len == 0 && p < e && is_lws((unsigned char)buf[p])) {
			after = skip_lws(buf, p, e);
			if(after < e && buf[after] == ',')
				return OVC_SCAN_UNSUPPORTED; /* Kamailio refuses "name ," */
		}
		last = p;
		if(take_via_param(buf, name, val, q, p, top, &vs, out) < 0)
			return OVC_SCAN_MALFORMED;
	}
	if(top)
		out->via1_end = (uint32_t)last;
	*next = p;
	return OVC_SCAN_OK;
}

/* Parses a whole Via header value [s, e): one or more comma-separated
 * values, the first one being the top Via when top is set. */
static int parse_via_line(const char *buf, size_t s, size_t e, int top,
		struct ovc_sip_scan *out)
{
	size_t p = s;
	int r;

	for(;;) {
		r = parse_via_value(buf, p, e, top, out, &p);
		if(r < 0)
			return r;
		if(p >= e)
			return OVC_SCAN_OK;
		/* at ',': another value must follow */
		p = skip_lws(buf, p + 1, e);
		if(p >= e)
			return OVC_SCAN_MALFORMED;
		top = 0;
	}
}

/* Does [s, e) hold LWS between two non-LWS bytes? */
static int has_inner_lws(const char *buf, size_t s, size_t e)
{
	while(e > s && is_lws((unsigned char)buf[e - 1]))
		e--;
	for(; s < e; s++) {
		if(is_lws((unsigned char)buf[s]))
			return 1;
	}
	return 0;
}

/* Does [s, e) hold a line folding (CR or LF)? */
static int has_fold(const char *buf, size_t s, size_t e)
{
	for(; s < e; s++) {
		if(buf[s] == '\r' || buf[s] == '\n')
			return 1;
	}
	return 0;
}

/* Parses a From/To value [s, e): name-addr or addr-spec, then header
 * parameters; sets *tag to the tag parameter's value (len 0 if none). A
 * ";tag=" inside the display name or inside <URI> is not the tag. */
static int parse_nameaddr(
		const char *buf, size_t s, size_t e, struct ovc_span *tag)
{
	size_t p = s, q;
	int quoted = 0, angle = 0;
	struct ovc_span name, val;

	tag->off = (uint32_t)s;
	tag->len = 0;
	/* find where the header parameters start */
	while(p < e) {
		unsigned char c = (unsigned char)buf[p];
		if(c == '"') {
			p = skip_quoted(buf, p, e);
			if(p == 0)
				return OVC_SCAN_MALFORMED;
			quoted = 1;
			continue;
		}
		if(c == '<') {
			q = p + 1;
			while(q < e && buf[q] != '>')
				q++;
			if(q >= e || q == p + 1)
				return OVC_SCAN_MALFORMED;
			p = q + 1;
			quoted = 0;
			angle = 1;
			break;
		}
		if(c == ';' || c == ',' || c == '>')
			break;
		p++;
	}
	if(quoted || p == s)
		return OVC_SCAN_MALFORMED; /* display name without <URI> */
	if(!angle && has_inner_lws(buf, s, p))
		return OVC_SCAN_MALFORMED; /* an addr-spec is one word */
	for(;;) {
		p = skip_lws(buf, p, e);
		if(p >= e)
			break;
		if(buf[p] != ';')
			return OVC_SCAN_MALFORMED;
		p = parse_param(buf, p + 1, e, &name, &val);
		if(p == 0)
			return OVC_SCAN_MALFORMED;
		if(span_ieq(buf, name.off, name.len, "tag")) {
			if(tag->len || val.len == 0)
				return OVC_SCAN_MALFORMED;
			if(skip_token(buf, val.off, val.off + val.len)
					!= val.off + val.len)
				return OVC_SCAN_MALFORMED;
			*tag = val;
		}
	}
	return OVC_SCAN_OK;
}

/* Largest CSeq number and Content-Length the scanner takes: 2^31 - 1
 * (RFC 3261 §8.1.1.5 bounds CSeq below 2^31). */
#define OVC_SCAN_NUM_MAX 0x7fffffffu

/* Reads the digits at buf[*p..e) into *v, checked before each step so
 * that no value wraps. Returns 0, or -1 when the number exceeds
 * OVC_SCAN_NUM_MAX; *p is left after the last digit. */
static int parse_num(const char *buf, size_t *p, size_t e, uint32_t *v)
{
	uint32_t d;

	*v = 0;
	while(*p < e && is_digit((unsigned char)buf[*p])) {
		d = (uint32_t)(buf[*p] - '0');
		if(*v > (OVC_SCAN_NUM_MAX - d) / 10)
			return -1;
		*v = *v * 10 + d;
		(*p)++;
	}
	return 0;
}

/* CSeq value [s, e): 1*DIGIT LWS Method, number < 2^31 */
static int parse_cseq(
		const char *buf, size_t s, size_t e, struct ovc_sip_scan *out)
{
	size_t p = s, q;
	uint32_t v;

	if(parse_num(buf, &p, e, &v) != 0 || p == s)
		return OVC_SCAN_MALFORMED;
	q = skip_lws(buf, p, e);
	if(q == p || q >= e)
		return OVC_SCAN_MALFORMED;
	p = skip_token(buf, q, e);
	if(p != e)
		return OVC_SCAN_MALFORMED;
	out->cseq_num = v;
	out->cseq_method = method_of(buf, mkspan(q, p));
	return OVC_SCAN_OK;
}

/* Content-Length value [s, e): 1*DIGIT, below 2^31 */
static int parse_clen(const char *buf, size_t s, size_t e, uint32_t *clen)
{
	size_t p = s;
	uint32_t v;

	if(parse_num(buf, &p, e, &v) != 0 || p == s || p != e)
		return OVC_SCAN_MALFORMED;
	*clen = v;
	return OVC_SCAN_OK;
}

enum hdr_kind
{
	H_OTHER = 0,
	H_VIA,
	H_FROM,
	H_TO,
	H_CALLID,
	H_CSEQ,
	H_CLEN,
	H_MAXFWD
};

static enum hdr_kind header_kind(const char *buf, size_t s, size_t e)
{
	uint32_t n = (uint32_t)(e - s);

	if(n == 1) {
		switch(ovc_lower((unsigned char)buf[s])) {
			case 'v':
				return H_VIA;
			case 'f':
				return H_FROM;
			case 't':
				return H_TO;
			case 'i':
				return H_CALLID;
			case 'l':
				return H_CLEN;
		}
		return H_OTHER;
	}
	switch(ovc_lower((unsigned char)buf[s])) {
		case 'v':
			return span_ieq(buf, (uint32_t)s, n, "via") ? H_VIA : H_OTHER;
		case 'f':
			return span_ieq(buf, (uint32_t)s, n, "from") ? H_FROM : H_OTHER;
		case 't':
			return span_ieq(buf, (uint32_t)s, n, "to") ? H_TO : H_OTHER;
		case 'c':
			if(span_ieq(buf, (uint32_t)s, n, "call-id"))
				return H_CALLID;
			if(span_ieq(buf, (uint32_t)s, n, "content-length"))
				return H_CLEN;
			return span_ieq(buf, (uint32_t)s, n, "cseq") ? H_CSEQ : H_OTHER;
		case 'm':
			return span_ieq(buf, (uint32_t)s, n, "max-forwards") ? H_MAXFWD
																	: H_OTHER;
	}
	return H_OTHER;
}

/* Request line; sets *pos past its CRLF. */
static int scan_request_line(
		const char *buf, size_t len, struct ovc_sip_scan *out, size_t *pos)
{
	size_t p = 0, u, v, sc;

	if(len >= 4 && memcmp(buf, "SIP/", 4) == 0)
		return OVC_SCAN_NOT_REQUEST;
	p = skip_token(buf, 0, len);
	if(p == 0)
		return len == 0 ? OVC_SCAN_TRUNCATED : OVC_SCAN_NOT_REQUEST;
	if(p >= len)
		return p > MAX_LINE ? OVC_SCAN_TOO_LONG : OVC_SCAN_TRUNCATED;
	if(buf[p] != ' ')
		return OVC_SCAN_MALFORMED;
	out->method_name = mkspan(0, p);
	u = ++p;
	while(p < len && is_uri_char((unsigned char)buf[p]))
		p++;
	if(p > MAX_LINE)
		return OVC_SCAN_TOO_LONG;
	if(p >= len)
		return OVC_SCAN_TRUNCATED;
	if(p == u || buf[p] != ' ')
		return OVC_SCAN_MALFORMED;
	/* scheme ":" */
	sc = u;
	if(!is_alpha((unsigned char)buf[sc]))
		return OVC_SCAN_MALFORMED;
	while(sc < p
			&& (is_alpha((unsigned char)buf[sc])
					|| is_digit((unsigned char)buf[sc]) || buf[sc] == '+'
					|| buf[sc] == '-' || buf[sc] == '.'))
		sc++;
	if(sc >= p || buf[sc] != ':')
		return OVC_SCAN_MALFORMED;
	out->ruri = mkspan(u, p);
	v = ++p;
	while(p < len && buf[p] != '\r' && buf[p] != '\n' && p - v < 16)
		p++;
	if(p - v >= 16)
		return buf[v] == 'S' ? OVC_SCAN_NOT_REQUEST : OVC_SCAN_MALFORMED;
	if(p >= len)
		return OVC_SCAN_TRUNCATED;
	if(p - v != 7 || memcmp(buf + v, "SIP/2.0", 7) != 0)
		return (p - v >= 4 && memcmp(buf + v, "SIP/", 4) == 0)
					   ? OVC_SCAN_NOT_REQUEST
					   : OVC_SCAN_MALFORMED;
	if(buf[p] == '\n')
		return OVC_SCAN_UNSUPPORTED;
	if(p + 1 >= len)
		return OVC_SCAN_TRUNCATED;
	if(buf[p + 1] != '\n')
		return OVC_SCAN_MALFORMED;
	out->method = method_of(buf, out->method_name);
	*pos = p + 2;
	return OVC_SCAN_OK;
}

/* Finds the end of a header line starting at ls whose value starts at p:
 * sets *ve to the CR ending the logical (unfolded) line. */
static int scan_line_end(
		const char *buf, size_t len, size_t ls, size_t p, size_t *ve)
{
	unsigned char c;

	for(;;) {
		while(p < len && (cclass[(unsigned char)buf[p]] & C_TEXT))
			p++;
		if(p - ls > MAX_LINE)
			return OVC_SCAN_TOO_LONG;
		if(p >= len)
			return OVC_SCAN_TRUNCATED;
		c = (unsigned char)buf[p];
		if(c == '\r') {
			if(p + 1 >= len)
				return OVC_SCAN_TRUNCATED;
			if(buf[p + 1] != '\n')
				return OVC_SCAN_MALFORMED;
			if(p + 2 >= len)
				return OVC_SCAN_TRUNCATED;
			if(is_ws((unsigned char)buf[p + 2])) {
				p += 3;
				continue;
			}
			*ve = p;
			return OVC_SCAN_OK;
		}
		if(c == '\n')
			return OVC_SCAN_UNSUPPORTED;
		if((c < 0x20 && c != '\t') || c == 0x7f)
			return OVC_SCAN_UNSUPPORTED;
		p++;
	}
}

/* A From or To header with value [vs, ve): allowed once (*seen counts
 * it), its value and its tag stored. Returns 0 or a scan reason. */
static int take_nameaddr(const char *buf, size_t vs, size_t ve, int *seen,
		struct ovc_span *value, struct ovc_span *tag)
{
	if((*seen)++)
		return OVC_SCAN_DUPLICATE;
	*value = mkspan(vs, ve);
	return parse_nameaddr(buf, vs, ve, tag);
}

/* Scans a raw SIP request, see sipscan.h. */
/* Headers seen once at most, and the body length announced. */
struct seen
{
	int from, to, callid, cseq, clen, maxfwd;
	uint32_t clen_v; /* Content-Length value */
};

/* Is the header name [s, e) made of letters, digits, '-', '.' and '_'
 * only (the token characters Kamailio's header parser accepts)? */
static int plain_name(const char *buf, size_t s, size_t e)
{
	unsigned char c;

	for(; s < e; s++) {
		c = (unsigned char)buf[s];
		if(!is_alpha(c) && !is_digit(c) && c != '-' && c != '.' && c != '_')
			return 0;
	}
	return 1;
}

/* One header line starting at p (not the blank line): its name [*ls,
 * *ne), its value [*vs, *ve) without surrounding LWS, and where the next
 * line starts (*next). Returns 0 or a negative OVC_SCAN_* reason. */
static int scan_header_line(const char *buf, size_t len, size_t p, size_t *ls,
		size_t *ne, size_t *vs, size_t *ve, size_t *next)
{
	int r;

	if(buf[p] == '\n')
		return OVC_SCAN_UNSUPPORTED;
	*ls = p;
	*ne = skip_token(buf, p, len);
	if(*ne == *ls)
		return OVC_SCAN_MALFORMED; /* also: leading LWS */
	if(!plain_name(buf, *ls, *ne))
		return OVC_SCAN_UNSUPPORTED; /* Kamailio refuses such names */
	p = *ne;
	while(p < len && is_ws((unsigned char)buf[p]))
		p++;
	if(p - *ls > MAX_LINE)
		return OVC_SCAN_TOO_LONG;
	if(p >= len)
		return OVC_SCAN_TRUNCATED;
	if(buf[p] != ':')
		return OVC_SCAN_MALFORMED;
	r = scan_line_end(buf, len, *ls, p + 1, ve);
	if(r < 0)
		return r;
	*next = *ve + 2;
	*vs = skip_lws(buf, p + 1, *ve);
	while(*ve > *vs && is_lws((unsigned char)buf[*ve - 1]))
		(*ve)--;
	return 0;
}

/* The Call-ID value [vs, ve): one token, no LWS inside. */
static int take_callid(const char *buf, size_t vs, size_t ve, struct seen *sn,
		struct ovc_sip_scan *out)
{
	size_t p;

	if(sn->callid++)
		return OVC_SCAN_DUPLICATE;
	if(vs == ve)
		return OVC_SCAN_MALFORMED;
	for(p = vs; p < ve; p++) {
		if(is_lws((unsigned char)buf[p]))
			return OVC_SCAN_MALFORMED;
	}
	out->callid = mkspan(vs, ve);
	return 0;
}

/* Takes the value [vs, ve) of a header of kind k into out. Returns 0 or a
 * negative OVC_SCAN_* reason. */
static int take_header(const char *buf, enum hdr_kind k, size_t vs,
		size_t ve, struct seen *sn, struct ovc_sip_scan *out)
{
	switch(k) {
		case H_VIA:
			if(vs == ve)
				return OVC_SCAN_MALFORMED;
			if(out->n_via >= OVC_SCAN_MAX_VIA)
				return OVC_SCAN_TOO_MANY_VIA;
			out->via[out->n_via++] = mkspan(vs, ve);
			return parse_via_line(buf, vs, ve, out->n_via == 1, out);
		case H_FROM:
			return take_nameaddr(
					buf, vs, ve, &sn->from, &out->from, &out->fromtag);
		case H_TO:
			return take_nameaddr(buf, vs, ve, &sn->to, &out->to, &out->totag);
		case H_CALLID:
			return take_callid(buf, vs, ve, sn, out);
		case H_CSEQ:
			if(sn->cseq++)
				return OVC_SCAN_DUPLICATE;
			if(has_fold(buf, vs, ve))
				return OVC_SCAN_UNSUPPORTED; /* Kamailio drops it */
			out->cseq = mkspan(vs, ve);
			return parse_cseq(buf, vs, ve, out);
		case H_CLEN:
			if(sn->clen++)
				return OVC_SCAN_DUPLICATE;
			return parse_clen(buf, vs, ve, &sn->clen_v);
		case H_MAXFWD:
			/* Kamailio refuses a second one: its request, not ours */
			return sn->maxfwd++ ? OVC_SCAN_UNSUPPORTED : 0;
		default:
			return 0;
	}
}

int ovc_sip_scan(const char *buf, size_t len, struct ovc_sip_scan *out)
{
	size_t p, ls, ne, vs, ve, next;
	struct seen sn;
	int r;

	if(out == NULL)
		return OVC_SCAN_MALFORMED;
	memset(out, 0, sizeof(*out));
	memset(&sn, 0, sizeof(sn));
	if(buf == NULL)
		return OVC_SCAN_MALFORMED;
	if(len > MAX_MSG)
		return OVC_SCAN_TOO_LONG;
	r = scan_request_line(buf, len, out, &p);
	if(r < 0)
		return r;
	for(;;) {
		if(p >= len)
			return OVC_SCAN_TRUNCATED;
		if(buf[p] == '\r') {
			if(p + 1 >= len)
				return OVC_SCAN_TRUNCATED;
			if(buf[p + 1] != '\n')
				return OVC_SCAN_MALFORMED;
			out->hdr_end = (uint32_t)(p + 2);
			break;
		}
		r = scan_header_line(buf, len, p, &ls, &ne, &vs, &ve, &next);
		if(r < 0)
			return r;
		r = take_header(buf, header_kind(buf, ls, ne), vs, ve, &sn, out);
		if(r < 0)
			return r;
		p = next;
	}
	if(out->n_via == 0 || !sn.from || !sn.to || !sn.callid || !sn.cseq)
		return OVC_SCAN_MISSING;
	/* a datagram ending before the announced body is an error (RFC 3261
	 * 18.3); extra bytes after it are ignored */
	if(sn.clen && sn.clen_v > len - out->hdr_end)
		return OVC_SCAN_MALFORMED;
	out->msg_end = sn.clen ? out->hdr_end + sn.clen_v : (uint32_t)len;
	return OVC_SCAN_OK;
}

/* Short name of a scan reason. */
const char *ovc_scan_reason_name(int reason)
{
	switch(reason) {
		case OVC_SCAN_OK:
			return "ok";
		case OVC_SCAN_NOT_REQUEST:
			return "not_request";
		case OVC_SCAN_TRUNCATED:
			return "truncated";
		case OVC_SCAN_MALFORMED:
			return "malformed";
		case OVC_SCAN_MISSING:
			return "missing";
		case OVC_SCAN_DUPLICATE:
			return "duplicate";
		case OVC_SCAN_TOO_MANY_VIA:
			return "too_many_via";
		case OVC_SCAN_TOO_LONG:
			return "too_long";
		case OVC_SCAN_UNSUPPORTED:
			return "unsupported";
	}
	return "unknown";
}

/* hash of (secret, Call-ID, From tag or, without one, the From value) */
static uint64_t totag_hash(
		uint64_t secret, const char *buf, const struct ovc_sip_scan *s)
{
	unsigned char sec[8], sep = 0xff;
	const struct ovc_span *f;
	uint64_t h;
	int i;

	for(i = 0; i < 8; i++)
		sec[i] = (unsigned char)(secret >> (8 * i));
	f = s->fromtag.len ? &s->fromtag : &s->from;
	h = ovc_fnv1a(OVC_FNV_OFFSET, sec, sizeof(sec));
	h = ovc_fnv1a(h, (const unsigned char *)buf + s->callid.off, s->callid.len);
	h = ovc_fnv1a(h, &sep, 1);
	h = ovc_fnv1a(h, (const unsigned char *)buf + f->off, f->len);
	return ovc_mix64(h ^ secret);
}

/* Writes ovc's deterministic To-tag for the scanned request. */
int ovc_sip_totag(uint64_t secret, const char *buf,
		const struct ovc_sip_scan *s, char *out)
{
	static const char hex[] = "0123456789abcdef";
	uint64_t h = totag_hash(secret, buf, s);
	int i;

	out[0] = 'o';
	out[1] = 'v';
	out[2] = 'c';
	for(i = 0; i < 16; i++)
		out[3 + i] = hex[(h >> (60 - 4 * i)) & 0xf];
	return OVC_TOTAG_LEN;
}

/* The method whose transaction a request belongs to for the key: a
 * CANCEL and the ACK to a non-2xx reply carry their INVITE's branch (RFC
 * 3261 9.1, 17.1.1.3) and are keyed as it. */
static enum ovc_sip_method key_method(enum ovc_sip_method m)
{
	return m == OVC_M_CANCEL || m == OVC_M_ACK ? OVC_M_INVITE : m;
}

uint64_t ovc_sip_request_key(uint64_t secret, const char *buf,
		const struct ovc_sip_scan *s, uint64_t src)
{
	unsigned char w[8 + 2 + 1], sep = 0xff;
	uint64_t h;
	int i;

	h = totag_hash(secret, buf, s) ^ (uint64_t)s->cseq_num;
	/* the transaction (RFC 3261 17.2.3): top Via branch and sent-by,
	 * method; and the transport source it came from */
	h = ovc_fnv1a(h, (const unsigned char *)buf + s->via1_branch.off,
			s->via1_branch.len);
	h = ovc_fnv1a(h, &sep, 1);
	h = ovc_fnv1a(h, (const unsigned char *)buf + s->via1_host.off,
			s->via1_host.len);
	for(i = 0; i < 8; i++)
		w[i] = (unsigned char)(src >> (8 * i));
	w[8] = (unsigned char)(s->via1_port >> 8);
	w[9] = (unsigned char)s->via1_port;
	w[10] = (unsigned char)key_method(s->method);
	h = ovc_fnv1a(h, w, sizeof(w));
	return ovc_mix64(h ^ secret);
}

/* 1 when the request's To-tag is the one ovc would give it. */
int ovc_sip_is_own_totag(
		uint64_t secret, const char *buf, const struct ovc_sip_scan *s)
{
	char tag[OVC_TOTAG_LEN];

	if(s->totag.len != OVC_TOTAG_LEN || buf[s->totag.off] != 'o')
		return 0;
	ovc_sip_totag(secret, buf, s, tag);
	return memcmp(buf + s->totag.off, tag, OVC_TOTAG_LEN) == 0;
}

/* UDP port of the reply (RFC 3261 18.2.2, RFC 3581). */
uint16_t ovc_sip_reply_port(const struct ovc_sip_scan *s, uint16_t src_port)
{
	if(s->via1_rport)
		return src_port;
	return s->via1_port ? s->via1_port : 5060;
}
