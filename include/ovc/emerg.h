/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - emergency requests (004 §III-A: "emergency requests should not be
 * rejected"): a configurable match on the Request-URI and, optionally, the
 * Priority header. The match list is a comma-separated string:
 *   "sos"               the URI's user part is sos (sip:sos@..., tel:sos)
 *   "@sos.example.net"  the URI's host is sos.example.net
 *   "urn:service:sos"   the URI is that URI or a sub-service of it
 *                       (urn:service:sos.fire): any token with a ':'
 * Letters compare case-insensitively. Pure functions on raw text.
 */
#ifndef OVC_EMERG_H
#define OVC_EMERG_H

#include <stddef.h>

#define OVC_EMERG_MAX 16	/* tokens in the list */
#define OVC_EMERG_TOKLEN 64 /* bytes per token, NUL included */

enum ovc_emerg_kind
{
	OVC_EMERG_USER = 0, /* user part of the Request-URI */
	OVC_EMERG_HOST,		/* host of the Request-URI */
	OVC_EMERG_URI,		/* the Request-URI or a sub-service of it */
};

struct ovc_emerg
{
	unsigned n; /* tokens in use */
	struct
	{
		enum ovc_emerg_kind kind;
		unsigned len;			   /* bytes, without '@' for hosts */
		char s[OVC_EMERG_TOKLEN]; /* the token, NUL-terminated */
	} tok[OVC_EMERG_MAX];
	int priority; /* 1: "Priority: emergency" also matches */
};

/* Parses spec (comma-separated, spaces around tokens allowed; "" matches
 * no URI) into *e with the Priority switch priority (0 or 1). Returns
 * OVC_OK, or OVC_EINVAL / OVC_ERANGE with a message in err (empty token,
 * token too long, control or space characters inside, too many tokens,
 * priority not 0/1); *e is unchanged on failure. */
int ovc_emerg_parse(struct ovc_emerg *e, const char *spec, int priority,
		char *err, size_t errlen);

/* Returns 1 when the Request-URI uri (len bytes, not NUL-terminated)
 * matches one of e's tokens, else 0. */
int ovc_emerg_match_uri(const struct ovc_emerg *e, const char *uri,
		size_t len);

/* Returns 1 when the raw request buf (len bytes) has a header
 * "Priority: emergency" (name and value case-insensitive) before the end
 * of its headers, else 0. Reads only buf[0, len). */
int ovc_emerg_priority_raw(const char *buf, size_t len);

/* The whole match on a raw request: Request-URI uri (within buf) and, when
 * e->priority is set, the Priority header. Returns 1 or 0. */
int ovc_emerg_match(const struct ovc_emerg *e, const char *buf, size_t len,
		const char *uri, size_t uri_len);

#endif
