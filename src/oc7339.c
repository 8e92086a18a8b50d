/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - RFC 7339's Via parameters read from and written into raw SIP
 * messages (see ovc/oc7339.h).
 *
 * One bounded pass finds the top Via: the start line (leading empty lines
 * skipped), then header lines (CRLF or a bare LF; a line end followed by SP
 * or HT folds) up to the first Via or v header, whose first via-parm is
 * read as sent-protocol LWS sent-by *(SEMI via-params), with LWS wherever
 * RFC 3261 allows it (around "/", ":", ";", "=" and ","). A value is a
 * quoted-string (escapes honoured, a comma inside does not end the
 * via-parm) or a run of bytes up to a delimiter. Anything else in that
 * via-parm, or a Via line whose end is not in the buffer (a truncated
 * datagram), makes the Via unreadable. Nothing is allocated; nothing at or
 * past len is read.
 */
#include <limits.h>
#include <string.h>

#include "ascii.h"
#include "siplex.h"
#include "ovc/oc7339.h"
#include "ovc/types.h"

#define KIND_ANY 0	/* a request or a response */
#define KIND_REQ 1	/* a request line */
#define KIND_RESP 2 /* a status line ("SIP/2.0 ") */

#define SEQ_SEC_MAX UINT64_C(999999999999) /* 12 digits of seconds */

/* The top via-parm of a message (offsets into it). */
struct top_via
{
	size_t sb_end; /* past its sent-by: its parameters follow */
	size_t end;	   /* past its last parameter (or its sent-by) */
};

/* One via-param (offsets into the message). */
struct param
{
	size_t start; /* end of what precedes it: the LWS and ";" are its own */
	size_t name;  /* its name, nlen bytes */
	size_t nlen;
	int has_val; /* 1: "=" value follows (val, vlen bytes, maybe 0) */
	size_t val;
	size_t vlen;
	size_t end; /* past its name or value */
};

/* An output buffer, or none (buf NULL) to count the bytes only. */
struct out
{
	char *buf;
	size_t n; /* bytes put */
};

#define is_ws ovc_is_ws
#define is_lws ovc_is_lws

static int is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* RFC 3261 token: alphanum and -.!%*_+`'~ */
static int is_token(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c)
		   || (c != 0 && strchr("-.!%*_+`'~", c) != NULL);
}

/* ends an unquoted via-param value */
static int is_delim(unsigned char c)
{
	return is_lws(c) || c == ';' || c == ',' || c == '"';
}

#define skip_lws ovc_skip_lws

static size_t skip_token(const char *m, size_t p, size_t e)
{
	while(p < e && is_token((unsigned char)m[p]))
		p++;
	return p;
}

#define skip_quoted ovc_skip_quoted

/* 1 when s (n bytes) is the lower-case word w, case-insensitively */
static int ieq(const char *s, size_t n, const char *w)
{
	size_t i;

	for(i = 0; i < n; i++) {
		if(w[i] == '\0' || ovc_lower((unsigned char)s[i]) != w[i])
			return 0;
	}
	return w[n] == '\0';
}

/* The LF that ends the header line starting at p (a line end followed by
 * SP or HT folds into the next line), or len when the buffer ends
 * first. */
static size_t line_end(const char *m, size_t p, size_t len)
{
	const char *lf;

	for(;;) {
		lf = memchr(m + p, '\n', len - p);
		if(lf == NULL)
			return len;
		p = (size_t)(lf - m) + 1;
		if(p >= len || !is_ws((unsigned char)m[p]))
			return p - 1;
	}
}

/* KIND_RESP for a status line, KIND_REQ for what may be a request line,
 * 0 for neither (empty, binary, "SIP/2.0" without SP). */
static int start_kind(const char *m, size_t n)
{
	if(n >= 8 && ieq(m, 8, "sip/2.0 "))
		return KIND_RESP;
	if(n >= 7 && ieq(m, 7, "sip/2.0"))
		return 0;
	return n > 0 && is_token((unsigned char)m[0]) ? KIND_REQ : 0;
}

/* The via-param that follows p (before e) into *pr. Returns 1, 0 when the
 * via-parm ends at p (LWS, then e or a comma), -1 when malformed. */
static int next_param(const char *m, size_t p, size_t e, struct param *pr)
{
	size_t q = skip_lws(m, p, e);

	if(q == e || m[q] == ',')
		return 0;
	if(m[q] != ';')
		return -1;
	pr->start = p;
	pr->name = skip_lws(m, q + 1, e);
	q = skip_token(m, pr->name, e);
	pr->nlen = q - pr->name;
	if(pr->nlen == 0)
		return -1;
	pr->end = q;
	pr->has_val = 0;
	pr->val = q;
	pr->vlen = 0;
	q = skip_lws(m, q, e);
	if(q == e || m[q] != '=')
		return 1;
	q = skip_lws(m, q + 1, e);
	pr->has_val = 1;
	pr->val = q;
	if(q < e && m[q] == '"') {
		q = skip_quoted(m, q, e);
		if(q == 0)
			return -1;
	} else {
		while(q < e && !is_delim((unsigned char)m[q]))
			q++;
	}
	pr->vlen = q - pr->val;
	pr->end = q;
	return 1;
}

/* Past sent-by (host [":" port], host an IPv6 reference or a token) at p,
 * or 0. */
static size_t skip_sent_by(const char *m, size_t p, size_t e)
{
	size_t q = p, d;

	if(q < e && m[q] == '[') {
		while(++q < e && (m[q] == ':' || m[q] == '.' || is_token(m[q])))
			;
		if(q == e || m[q] != ']' || q == p + 1)
			return 0;
		q++;
	} else {
		q = skip_token(m, p, e);
		if(q == p)
			return 0;
	}
	d = skip_lws(m, q, e);
	if(d == e || m[d] != ':')
		return q;
	p = d = skip_lws(m, d + 1, e);
	while(d < e && d - p < 5 && is_digit(m[d]))
		d++;
	return d > p && (d == e || !is_digit(m[d])) ? d : 0;
}

/* Reads the via-parm that starts the Via value [p, e) into *t. Returns 1,
 * or 0 when it is not sent-protocol LWS sent-by *(SEMI via-params). */
static int parse_top(const char *m, size_t p, size_t e, struct top_via *t)
{
	struct param pr;
	size_t q;
	int i, r;

	p = skip_lws(m, p, e);
	for(i = 0; i < 3; i++) { /* name SWS "/" SWS version SWS "/" ... */
		if(i > 0) {
			p = skip_lws(m, p, e);
			if(p == e || m[p] != '/')
				return 0;
			p = skip_lws(m, p + 1, e);
		}
		q = skip_token(m, p, e);
		if(q == p)
			return 0;
		p = q;
	}
	q = skip_lws(m, p, e);
	if(q == p)
		return 0;
	p = skip_sent_by(m, q, e);
	if(p == 0)
		return 0;
	t->sb_end = p;
	while((r = next_param(m, p, e, &pr)) > 0)
		p = pr.end;
	t->end = p;
	return r == 0;
}

/* Finds the top Via of msg, a message of kind (KIND_*). Returns 1, or 0
 * when msg is not of that kind, has no Via header before the end of its
 * headers, or the first one is cut short or unreadable. */
static int find_top_via(const char *m, size_t len, int kind, struct top_via *t)
{
	size_t p = 0, le, n, vs, ve;
	int k;

	if(m == NULL)
		return 0;
	while(p < len && (m[p] == '\r' || m[p] == '\n'))
		p++;
	le = line_end(m, p, len);
	k = start_kind(m + p, le - p);
	if(k == 0 || (kind != KIND_ANY && k != kind))
		return 0;
	for(p = le + 1; p < len; p = le + 1) {
		le = line_end(m, p, len);
		if(m[p] == '\r' || m[p] == '\n')
			return 0; /* the empty line: end of the headers */
		n = skip_token(m, p, le) - p;
		vs = p + n;
		while(vs < le && is_ws((unsigned char)m[vs]))
			vs++;
		if(vs == le || m[vs] != ':'
				|| !(ieq(m + p, n, "via") || ieq(m + p, n, "v")))
			continue;
		if(le + 1 >= len)
			return 0; /* cut short: whether it folds is unknown */
		ve = m[le - 1] == '\r' ? le - 1 : le;
		return parse_top(m, vs + 1, ve, t);
	}
	return 0;
}

/* 1 "oc", 2 "oc-algo", 3 "oc-validity", 4 "oc-seq", 5 ovc's token
 * (OVC_OC_TOKEN_PARAM), 0 another name */
static int oc_name(const char *s, size_t n)
{
	static const char *const names[] = {
			"oc", "oc-algo", "oc-validity", "oc-seq", OVC_OC_TOKEN_PARAM};
	int i;

	for(i = 0; i < 5; i++) {
		if(ieq(s, n, names[i]))
			return i + 1;
	}
	return 0;
}

/* 1*DIGIT [s, s + n) into *v, saturating at max. Returns 1, or 0 when not
 * all digits or empty. */
static int digits(const char *s, size_t n, uint64_t max, uint64_t *v)
{
	size_t i;

	*v = 0;
	for(i = 0; i < n; i++) {
		if(!is_digit(s[i]))
			return 0;
		*v = *v * 10 + (uint64_t)(s[i] - '0');
		if(*v > max)
			*v = max;
	}
	return n > 0;
}

/* oc-seq's text: 1*12DIGIT "." 1*5DIGIT, or 1*12DIGIT (whole seconds),
 * in OVC_OC_SEQ_FRAC units; 0 when malformed. */
static uint64_t parse_seq(const char *s, size_t n)
{
	const char *dot = n > 0 ? memchr(s, '.', n) : NULL;
	uint64_t sec, frac;
	size_t a, b;

	if(dot == NULL) /* an integer: whole seconds */
		return n >= 1 && n <= 12 && digits(s, n, SEQ_SEC_MAX, &sec)
					   ? sec * OVC_OC_SEQ_FRAC
					   : 0;
	a = (size_t)(dot - s);
	b = n - a - 1;
	if(a < 1 || a > 12 || b < 1 || b > 5 || !digits(s, a, SEQ_SEC_MAX, &sec)
			|| !digits(dot + 1, b, 99999, &frac))
		return 0;
	for(; b < 5; b++)
		frac *= 10;
	return sec * OVC_OC_SEQ_FRAC + frac;
}

/* oc-algo's quoted list into OVC_OC_ALGO_* bits; 0 when malformed (not
 * quoted, or an element that is not a token). Empty elements are
 * skipped. */
static unsigned parse_algos(const char *s, size_t n)
{
	unsigned bits = 0;
	size_t p, a, z;

	if(n < 2 || s[0] != '"' || s[n - 1] != '"')
		return 0;
	for(p = 1; p < n - 1; p = z + 1) {
		a = skip_lws(s, p, n - 1);
		z = skip_token(s, a, n - 1);
		if(z > a)
			bits |= ieq(s + a, z - a, "loss") ? OVC_OC_ALGO_LOSS
											  : OVC_OC_ALGO_OTHER;
		z = skip_lws(s, z, n - 1);
		if(z < n - 1 && s[z] != ',')
			return 0;
	}
	return bits;
}

void ovc_oc_via_clear(struct ovc_oc_via *oc)
{
	oc->oc = 0;
	oc->value = -1;
	oc->algos = 0;
	oc->validity_ms = -1;
	oc->seq = 0;
	oc->branch = NULL;
	oc->branch_len = 0;
	oc->has_token = 0;
	oc->token = 0;
}

int ovc_oc_param(const char *name, size_t nlen, const char *val, size_t vlen,
		struct ovc_oc_via *oc)
{
	uint64_t v;
	int which;

	if(name == NULL || oc == NULL)
		return 0;
	which = oc_name(name, nlen);
	if(which > 4)
		return 0; /* ovc's token: not one of RFC 7339's */
	if(val == NULL)
		vlen = 0;
	switch(which) {
		case 1:
			oc->oc = 1;
			oc->value = val != NULL && digits(val, vlen, 101, &v) && v <= 100
								? (int)v
								: -1;
			break;
		case 2:
			oc->algos = val != NULL ? parse_algos(val, vlen) : 0;
			break;
		case 3:
			oc->validity_ms =
					val != NULL && digits(val, vlen, OVC_OC_VALIDITY_MAX_MS, &v)
							? (int64_t)v
							: -1;
			break;
		case 4:
			oc->seq = val != NULL ? parse_seq(val, vlen) : 0;
			break;
	}
	return which != 0;
}

/* OVC_OC_TOKEN_PARAM's value: 16 hexadecimal digits into *v. Returns 1,
 * or 0 when malformed. */
static int parse_token(const char *s, size_t n, uint64_t *v)
{
	unsigned char c;
	size_t i;

	*v = 0;
	if(n != 16)
		return 0;
	for(i = 0; i < n; i++) {
		c = ovc_lower((unsigned char)s[i]);
		if(is_digit(c))
			*v = *v << 4 | (uint64_t)(c - '0');
		else if(c >= 'a' && c <= 'f')
			*v = *v << 4 | (uint64_t)(c - 'a' + 10);
		else
			return 0;
	}
	return 1;
}

/* Reads the RFC 7339 parameters of the top via-parm t into *oc, with its
 * branch and ovc's token (the first of each). */
static void read_params(
		const char *m, const struct top_via *t, struct ovc_oc_via *oc)
{
	const char *val;
	struct param pr;
	size_t p = t->sb_end;

	ovc_oc_via_clear(oc);
	while(next_param(m, p, t->end, &pr) > 0) {
		val = pr.has_val ? m + pr.val : NULL;
		if(!ovc_oc_param(m + pr.name, pr.nlen, val, pr.vlen, oc)) {
			if(oc->branch == NULL && val != NULL
					&& ieq(m + pr.name, pr.nlen, "branch")) {
				oc->branch = val;
				oc->branch_len = pr.vlen;
			} else if(!oc->has_token && val != NULL
					  && ieq(m + pr.name, pr.nlen, OVC_OC_TOKEN_PARAM)) {
				oc->has_token = parse_token(val, pr.vlen, &oc->token);
			}
		}
		p = pr.end;
	}
}

int ovc_oc_read_top_via(const char *msg, size_t len, struct ovc_oc_via *oc)
{
	struct ovc_oc_via tmp;
	struct top_via t;

	if(oc == NULL)
		oc = &tmp;
	if(!find_top_via(msg, len, KIND_ANY, &t)) {
		ovc_oc_via_clear(oc);
		return 0;
	}
	read_params(msg, &t, oc);
	if(!oc->oc)
		ovc_oc_via_clear(oc);
	return oc->oc;
}

static void put(struct out *o, const char *s, size_t k)
{
	if(o->buf != NULL && k > 0)
		memcpy(o->buf + o->n, s, k);
	o->n += k;
}

/* msg with the RFC 7339 parameters of its top via-parm t removed (and
 * ovc's token, with the offer: not at_oc) and ins (ilen bytes) put where
 * its first "oc" was (at_oc) or at its end. A response keeps the token:
 * its client reads it. */
static void rewrite(const char *m, size_t len, const struct top_via *t,
		const char *ins, size_t ilen, int at_oc, struct out *o)
{
	struct param pr;
	size_t p = t->sb_end, cur = 0;
	int done = 0, which;

	while(next_param(m, p, t->end, &pr) > 0) {
		p = pr.end;
		which = oc_name(m + pr.name, pr.nlen);
		if(which == 0 || (which == 5 && at_oc))
			continue;
		put(o, m + cur, pr.start - cur);
		cur = pr.end;
		if(at_oc && !done && which == 1) {
			put(o, ins, ilen);
			done = 1;
		}
	}
	if(!done) {
		put(o, m + cur, t->end - cur);
		cur = t->end;
		put(o, ins, ilen);
	}
	put(o, m + cur, len - cur);
}

/* rewrite() into out (size bytes): its length, or OVC_EFULL (out
 * untouched). */
static int emit(const char *m, size_t len, const struct top_via *t,
		const char *ins, size_t ilen, int at_oc, char *out, size_t size)
{
	struct out o = {NULL, 0};

	rewrite(m, len, t, ins, ilen, at_oc, &o);
	if(o.n > size || o.n > INT_MAX)
		return o.n > size ? OVC_EFULL : OVC_EINVAL;
	o.buf = out;
	o.n = 0;
	rewrite(m, len, t, ins, ilen, at_oc, &o);
	return (int)o.n;
}

/* v in decimal at buf (room for 20 digits). Returns the digits
 * written. */
static size_t put_u64(char *buf, uint64_t v)
{
	char tmp[20];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while(v > 0);
	for(i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

/* fb's parameters as text at buf (OVC_OC_GROWTH bytes). Returns their
 * length. */
static size_t fb_text(const struct ovc_oc_fb *fb, char *buf)
{
	static const char algo[] = ";oc-algo=\"loss\";oc-validity=";
	size_t n;

	memcpy(buf, ";oc=", 4);
	n = 4 + put_u64(buf + 4, fb->reduction);
	memcpy(buf + n, algo, sizeof(algo) - 1);
	n += sizeof(algo) - 1;
	n += put_u64(buf + n, fb->validity_ms);
	memcpy(buf + n, ";oc-seq=", 8);
	n += 8;
	return n + ovc_oc_seq_print(fb->seq, buf + n, OVC_OC_GROWTH - n);
}

int ovc_oc_feedback(const char *msg, size_t len, const struct ovc_oc_fb *fb,
		char *out, size_t size)
{
	char ins[OVC_OC_GROWTH];
	struct ovc_oc_via oc;
	struct top_via t;

	if(fb == NULL || fb->reduction > 100 || fb->seq == 0
			|| fb->seq / OVC_OC_SEQ_FRAC > SEQ_SEC_MAX
			|| (out == NULL && size > 0)
			|| !find_top_via(msg, len, KIND_RESP, &t))
		return OVC_EINVAL;
	read_params(msg, &t, &oc);
	if(!oc.oc || (oc.algos != 0 && !(oc.algos & OVC_OC_ALGO_LOSS)))
		return 0;
	return emit(msg, len, &t, ins, fb_text(fb, ins), 1, out, size);
}

int ovc_oc_announce_extra(const char *msg, size_t len, const char *extra,
		size_t elen, char *out, size_t size)
{
	static const char offer[] = ";oc;oc-algo=\"loss\"";
	char ins[sizeof(offer) - 1 + OVC_OC_EXTRA_MAX];
	struct ovc_oc_via oc;
	struct top_via t;

	if(extra == NULL)
		elen = 0;
	if((out == NULL && size > 0) || elen > OVC_OC_EXTRA_MAX
			|| !find_top_via(msg, len, KIND_REQ, &t))
		return OVC_EINVAL;
	read_params(msg, &t, &oc);
	if(oc.oc)
		return 0;
	memcpy(ins, offer, sizeof(offer) - 1);
	if(elen > 0)
		memcpy(ins + sizeof(offer) - 1, extra, elen);
	return emit(msg, len, &t, ins, sizeof(offer) - 1 + elen, 0, out, size);
}

int ovc_oc_announce(const char *msg, size_t len, char *out, size_t size)
{
	return ovc_oc_announce_extra(msg, len, NULL, 0, out, size);
}

int ovc_oc_top_branch(
		const char *msg, size_t len, const char **branch, size_t *blen)
{
	struct ovc_oc_via oc;
	struct top_via t;

	*branch = NULL;
	*blen = 0;
	if(!find_top_via(msg, len, KIND_ANY, &t))
		return 0;
	read_params(msg, &t, &oc);
	*branch = oc.branch;
	*blen = oc.branch_len;
	return 1;
}

uint64_t ovc_oc_seq_from_ns(int64_t t_ns)
{
	if(t_ns <= 0)
		return 0;
	return (uint64_t)(t_ns / OVC_NS_PER_S) * OVC_OC_SEQ_FRAC
		   + (uint64_t)(t_ns % OVC_NS_PER_S) / 10000;
}

size_t ovc_oc_seq_print(uint64_t seq, char *buf, size_t size)
{
	char tmp[32];
	uint64_t frac = seq % OVC_OC_SEQ_FRAC;
	size_t n, i;

	n = put_u64(tmp, seq / OVC_OC_SEQ_FRAC);
	tmp[n++] = '.';
	for(i = 5; i > 0; i--) {
		tmp[n + i - 1] = (char)('0' + frac % 10);
		frac /= 10;
	}
	n += 5;
	if(buf == NULL || n >= size)
		return 0;
	memcpy(buf, tmp, n);
	buf[n] = '\0';
	return n;
}
