/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - emergency match on the Request-URI and the Priority header
 * (004 §III-A: emergency requests are never rejected).
 */
#include <stdio.h>
#include <string.h>

#include "ascii.h"
#include "ovc/emerg.h"
#include "ovc/errmsg.h"
#include "ovc/types.h"

int ovc_emerg_parse(struct ovc_emerg *e, const char *spec, int priority,
		char *err, size_t errlen)
{
	struct ovc_emerg r;
	const char *p, *b, *end;
	size_t n, i;

	if(e == NULL || spec == NULL) {
		ovc_set_err(err, errlen, "no emergency list");
		return OVC_EINVAL;
	}
	if(priority != 0 && priority != 1) {
		ovc_set_err(err, errlen, "emergency_priority: %d is not 0 or 1",
				priority);
		return OVC_ERANGE;
	}
	memset(&r, 0, sizeof(r));
	r.priority = priority;
	p = spec;
	while(*p == ' ' || *p == '\t')
		p++;
	if(*p == '\0') {
		*e = r;
		return OVC_OK;
	}
	for(;;) {
		while(*p == ' ' || *p == '\t')
			p++;
		b = p;
		while(*p != '\0' && *p != ',')
			p++;
		end = p;
		while(end > b && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		n = (size_t)(end - b);
		if(n == 0 || (n == 1 && b[0] == '@')) {
			ovc_set_err(err, errlen, "emergency: empty entry in '%s'", spec);
			return OVC_EINVAL;
		}
		if(r.n >= OVC_EMERG_MAX) {
			ovc_set_err(err, errlen, "emergency: more than %d entries",
					OVC_EMERG_MAX);
			return OVC_ERANGE;
		}
		if(n >= OVC_EMERG_TOKLEN) {
			ovc_set_err(err, errlen, "emergency: entry '%.*s' longer than %d",
					(int)n, b, OVC_EMERG_TOKLEN - 1);
			return OVC_ERANGE;
		}
		for(i = 0; i < n; i++) {
			unsigned char c = (unsigned char)b[i];

			if(c <= ' ' || c == 0x7f || c == '"' || c == '<' || c == '>') {
				ovc_set_err(err, errlen,
						"emergency: entry '%.*s' has a space, quote,"
						" bracket or control character",
						(int)n, b);
				return OVC_EINVAL;
			}
		}
		if(b[0] == '@') {
			r.tok[r.n].kind = OVC_EMERG_HOST;
			b++;
			n--;
		} else if(memchr(b, ':', n) != NULL) {
			r.tok[r.n].kind = OVC_EMERG_URI;
		} else {
			r.tok[r.n].kind = OVC_EMERG_USER;
		}
		memcpy(r.tok[r.n].s, b, n);
		r.tok[r.n].s[n] = '\0';
		r.tok[r.n].len = (unsigned)n;
		r.n++;
		if(*p == '\0')
			break;
		p++; /* ',' */
	}
	*e = r;
	return OVC_OK;
}

/* User and host of a sip:/sips:/tel: URI (spans into uri; len 0 when
 * absent). Returns 0, or -1 for another scheme. */
static int uri_parts(const char *uri, size_t len, const char **user,
		size_t *ulen, const char **host, size_t *hlen)
{
	size_t i, s, stop, at;

	*ulen = *hlen = 0;
	*user = *host = uri;
	if(len >= 4 && ovc_ieq(uri, "sip:", 4))
		s = 4;
	else if(len >= 5 && ovc_ieq(uri, "sips:", 5))
		s = 5;
	else if(len >= 4 && ovc_ieq(uri, "tel:", 4)) {
		for(i = 4; i < len && uri[i] != ';' && uri[i] != '?'; i++)
			;
		*user = uri + 4;
		*ulen = i - 4;
		return 0;
	} else
		return -1;
	/* the user part may hold ';' and '?': find '@' first */
	at = len;
	for(i = s; i < len && uri[i] != '>'; i++)
		if(uri[i] == '@') {
			at = i;
			break;
		}
	if(at < len) {
		for(i = s; i < at && uri[i] != ':' && uri[i] != ';'; i++)
			;
		*user = uri + s;
		*ulen = i - s;
		s = at + 1;
	}
	stop = s;
	if(stop < len && uri[stop] == '[') {
		while(stop < len && uri[stop] != ']')
			stop++;
		if(stop < len)
			stop++;
	} else {
		while(stop < len && uri[stop] != ':' && uri[stop] != ';'
				&& uri[stop] != '?' && uri[stop] != '>')
			stop++;
	}
	*host = uri + s;
	*hlen = stop - s;
	return 0;
}

int ovc_emerg_match_uri(const struct ovc_emerg *e, const char *uri,
		size_t len)
{
	const char *user, *host;
	size_t ulen, hlen, tl;
	unsigned i;
	int parts;

	if(e == NULL || uri == NULL || e->n == 0)
		return 0;
	parts = uri_parts(uri, len, &user, &ulen, &host, &hlen);
	for(i = 0; i < e->n; i++) {
		tl = e->tok[i].len;
		switch(e->tok[i].kind) {
			case OVC_EMERG_USER:
				if(parts == 0 && ulen == tl && ovc_ieq(user, e->tok[i].s, tl))
					return 1;
				break;
			case OVC_EMERG_HOST:
				if(parts == 0 && hlen == tl && ovc_ieq(host, e->tok[i].s, tl))
					return 1;
				break;
			case OVC_EMERG_URI:
				if(len >= tl && ovc_ieq(uri, e->tok[i].s, tl)
						&& (len == tl || uri[tl] == '.' || uri[tl] == ';'
								|| uri[tl] == '?'))
					return 1;
				break;
		}
	}
	return 0;
}

int ovc_emerg_priority_raw(const char *buf, size_t len)
{
	size_t i = 0, ls, le, v, ve;

	if(buf == NULL)
		return 0;
	/* skip the request line */
	while(i < len && buf[i] != '\n')
		i++;
	i++;
	while(i < len) {
		ls = i;
		while(i < len && buf[i] != '\n')
			i++;
		le = i; /* at '\n' or len */
		i++;
		if(le > ls && buf[le - 1] == '\r')
			le--;
		if(le == ls)
			return 0; /* end of headers */
		if(le - ls < 9 || !ovc_ieq(buf + ls, "priority", 8))
			continue;
		v = ls + 8;
		while(v < le && (buf[v] == ' ' || buf[v] == '\t'))
			v++;
		if(v >= le || buf[v] != ':')
			continue;
		v++;
		while(v < le && (buf[v] == ' ' || buf[v] == '\t'))
			v++;
		ve = le;
		while(ve > v && (buf[ve - 1] == ' ' || buf[ve - 1] == '\t'))
			ve--;
		if(ve - v == 9 && ovc_ieq(buf + v, "emergency", 9))
			return 1;
	}
	return 0;
}

int ovc_emerg_match(const struct ovc_emerg *e, const char *buf, size_t len,
		const char *uri, size_t uri_len)
{
	if(e == NULL)
		return 0;
	if(ovc_emerg_match_uri(e, uri, uri_len))
		return 1;
	return e->priority && ovc_emerg_priority_raw(buf, len);
}
