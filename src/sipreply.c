/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - stateless reply built straight from a scanned request's raw header
 * bytes (RFC 3261 8.2.6, 16.7; RFC 3581), into a caller's buffer.
 *
 * Folded header values are unfolded on the way (their CR and LF bytes are
 * dropped, the following whitespace kept), so every reply header is one
 * line. Writes are bounds-checked: nothing ever goes past outsize.
 */
#include <string.h>

#include "ovc/sipscan.h"
#include "ovc/types.h"

/* bounded writer: stops (and remembers it) at the first write that does
 * not fit */
struct wbuf
{
	char *p;	/* output buffer */
	size_t n;	/* bytes written */
	size_t cap; /* outsize */
	int over;	/* 1: something did not fit */
	int bad;	/* 1: inconsistent scan result */
};

static void put(struct wbuf *w, const char *s, size_t n)
{
	if(w->over)
		return;
	if(n > w->cap - w->n) {
		w->over = 1;
		return;
	}
	memcpy(w->p + w->n, s, n);
	w->n += n;
}

static void put_str(struct wbuf *w, const char *s)
{
	put(w, s, strlen(s));
}

/* copies buf[off, off + n) without the CR/LF bytes of line folding */
static void put_unfold(struct wbuf *w, const char *buf, size_t off, size_t n)
{
	size_t i = off, e = off + n, s;
	const char *q;

	while(i < e) {
		s = i;
		q = memchr(buf + i, '\r', e - i);
		i = q ? (size_t)(q - buf) : e;
		put(w, buf + s, i - s);
		while(i < e && (buf[i] == '\r' || buf[i] == '\n'))
			i++;
	}
}

static void put_uint(struct wbuf *w, unsigned long v)
{
	char tmp[24];
	size_t i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while(v);
	put(w, tmp + i, sizeof(tmp) - i);
}

/* 1 when s[0, n) holds only visible characters, SP, HT or UTF-8 bytes */
static int text_ok(const char *s, size_t n)
{
	size_t i;

	for(i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if((c < 0x20 && c != '\t') || c == 0x7f)
			return 0;
	}
	return 1;
}

/* source address text: IPv4 or IPv6 without brackets */
static int ip_ok(const char *ip, size_t n)
{
	size_t i;

	if(n == 0 || n > 45)
		return 0;
	for(i = 0; i < n; i++) {
		unsigned char c = (unsigned char)ip[i];
		if(!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')
				   || (c >= 'A' && c <= 'F') || c == '.' || c == ':'))
			return 0;
	}
	return 1;
}

/* 1 when the top Via's sent-by host is not literally src_ip (IPv6 compared
 * without brackets, hex digits case-insensitively) */
static int host_differs(const char *buf, const struct ovc_sip_scan *s,
		const char *ip, size_t iplen)
{
	const char *h = buf + s->via1_host.off;
	size_t n = s->via1_host.len, i;

	if(n >= 2 && h[0] == '[') {
		h++;
		n -= 2;
	}
	if(n != iplen)
		return 1;
	for(i = 0; i < n; i++) {
		unsigned char a = (unsigned char)h[i], b = (unsigned char)ip[i];
		if(a >= 'A' && a <= 'Z')
			a = (unsigned char)(a + 32);
		if(b >= 'A' && b <= 'Z')
			b = (unsigned char)(b + 32);
		if(a != b)
			return 1;
	}
	return 0;
}

/* an edit of the top Via: replace buf[off, off + del) by a parameter */
struct via_edit
{
	uint32_t off;
	uint32_t del;
	int what; /* 0: received=ip, 1: rport=port, 2: ;received=ip */
};

/* writes the top Via value with received/rport handled */
static void put_via1(struct wbuf *w, const char *buf,
		const struct ovc_sip_scan *s, const struct ovc_reply_params *p,
		size_t iplen)
{
	struct via_edit ed[2], t;
	int n = 0, i;
	uint32_t cur = s->via[0].off, end = s->via[0].off + s->via[0].len;

	/* as Kamailio's received_test(): an existing received is always
	 * rewritten with the real source */
	if(s->via1_rport || s->via1_received_param.len
			|| host_differs(buf, s, p->src_ip, iplen)) {
		if(s->via1_received_param.len) {
			ed[n].off = s->via1_received_param.off;
			ed[n].del = s->via1_received_param.len;
			ed[n++].what = 0;
		} else {
			ed[n].off = s->via1_end;
			ed[n].del = 0;
			ed[n++].what = 2;
		}
	}
	if(s->via1_rport) {
		ed[n].off = s->via1_rport_param.off;
		ed[n].del = s->via1_rport_param.len;
		ed[n++].what = 1;
	}
	if(n == 2 && ed[1].off < ed[0].off) {
		t = ed[0];
		ed[0] = ed[1];
		ed[1] = t;
	}
	for(i = 0; i < n; i++) {
		if(ed[i].off < cur || ed[i].off + ed[i].del > end) {
			w->bad = 1;
			return;
		}
		put_unfold(w, buf, cur, ed[i].off - cur);
		if(ed[i].what == 2)
			put(w, ";", 1);
		if(ed[i].what == 1) {
			put(w, "rport=", 6);
			put_uint(w, p->src_port);
		} else {
			put(w, "received=", 9);
			put(w, p->src_ip, iplen);
		}
		cur = ed[i].off + ed[i].del;
	}
	put_unfold(w, buf, cur, end - cur);
}

/* Builds a stateless reply to the scanned request, see sipscan.h. */
/* Are the request's scan s and the reply parameters p usable? Sets
 * *iplen to the length of p->src_ip. */
static int reply_args_ok(const struct ovc_sip_scan *s,
		const struct ovc_reply_params *p, size_t *iplen)
{
	if(p->code < 100 || p->code > 699 || p->src_ip == NULL)
		return 0;
	if(p->reason == NULL && p->reason_len != 0)
		return 0;
	if(p->reason && !text_ok(p->reason, p->reason_len))
		return 0;
	if(p->server && !text_ok(p->server, strlen(p->server)))
		return 0;
	*iplen = strlen(p->src_ip);
	if(!ip_ok(p->src_ip, *iplen))
		return 0;
	return s->n_via > 0 && s->n_via <= OVC_SCAN_MAX_VIA && s->from.len > 0
		   && s->to.len > 0 && s->callid.len > 0 && s->cseq.len > 0;
}

/* From, To (with ovc's tag where it has none), Call-ID and CSeq, copied
 * from the request. */
static void put_dialog_headers(struct wbuf *w, const char *buf,
		const struct ovc_sip_scan *s, const struct ovc_reply_params *p)
{
	char tag[OVC_TOTAG_LEN];

	put(w, "From: ", 6);
	put_unfold(w, buf, s->from.off, s->from.len);
	put(w, "\r\nTo: ", 6);
	put_unfold(w, buf, s->to.off, s->to.len);
	if(s->totag.len == 0 && p->code > 100) {
		ovc_sip_totag(p->secret, buf, s, tag);
		put(w, ";tag=", 5);
		put(w, tag, OVC_TOTAG_LEN);
	}
	put(w, "\r\nCall-ID: ", 11);
	put(w, buf + s->callid.off, s->callid.len);
	put(w, "\r\nCSeq: ", 8);
	put_unfold(w, buf, s->cseq.off, s->cseq.len);
	put(w, "\r\n", 2);
}

int ovc_sip_build_reply(const char *buf, const struct ovc_sip_scan *s,
		const struct ovc_reply_params *p, char *out, size_t outsize)
{
	struct wbuf w;
	size_t iplen;
	unsigned i;

	if(buf == NULL || s == NULL || p == NULL || out == NULL
			|| !reply_args_ok(s, p, &iplen))
		return OVC_EINVAL;
	w.p = out;
	w.n = 0;
	w.cap = outsize;
	w.over = 0;
	w.bad = 0;

	put(&w, "SIP/2.0 ", 8);
	put_uint(&w, (unsigned long)p->code);
	put(&w, " ", 1);
	if(p->reason)
		put(&w, p->reason, p->reason_len);
	put(&w, "\r\n", 2);
	for(i = 0; i < s->n_via; i++) {
		put(&w, "Via: ", 5);
		if(i == 0)
			put_via1(&w, buf, s, p, iplen);
		else
			put_unfold(&w, buf, s->via[i].off, s->via[i].len);
		put(&w, "\r\n", 2);
	}
	put_dialog_headers(&w, buf, s, p);
	if(p->retry_after > 0) {
		put(&w, "Retry-After: ", 13);
		put_uint(&w, (unsigned long)p->retry_after);
		put(&w, "\r\n", 2);
	}
	if(p->server) {
		put(&w, "Server: ", 8);
		put_str(&w, p->server);
		put(&w, "\r\n", 2);
	}
	put(&w, "Content-Length: 0\r\n\r\n", 21);
	if(w.bad)
		return OVC_EINVAL;
	if(w.over || w.n > 0x7fffffff)
		return OVC_ERANGE;
	return (int)w.n;
}
