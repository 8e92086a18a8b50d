/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - internal: the lexical pieces of RFC 3261 that the scanner and the
 * RFC 7339 Via parameters share (linear white space, quoted strings).
 * Offsets are into a buffer whose readable end is e; nothing reads at or
 * past e.
 */
#ifndef OVC_SIPLEX_H
#define OVC_SIPLEX_H

#include <stddef.h>

/* SP or HT */
static inline int ovc_is_ws(unsigned char c)
{
	return c == ' ' || c == '\t';
}

/* LWS: inside a header value CR and LF only occur as line folding. */
static inline int ovc_is_lws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The first offset from p that is not LWS, or e. */
static inline size_t ovc_skip_lws(const char *buf, size_t p, size_t e)
{
	while(p < e && ovc_is_lws((unsigned char)buf[p]))
		p++;
	return p;
}

/* Past the quoted string starting at buf[p] == '"' (quoted pairs
 * included), or 0 when it is not closed before e. */
static inline size_t ovc_skip_quoted(const char *buf, size_t p, size_t e)
{
	p++;
	while(p < e) {
		if(buf[p] == '\\') {
			if(p + 1 >= e)
				return 0;
			p += 2;
			continue;
		}
		if(buf[p] == '"')
			return p + 1;
		p++;
	}
	return 0;
}

#endif
