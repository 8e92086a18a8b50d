/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - internal: ASCII case folding for SIP tokens (RFC 3261 compares
 * methods' and headers' names, schemes and hosts case-insensitively),
 * shared by the scanner and the emergency match.
 */
#ifndef OVC_ASCII_H
#define OVC_ASCII_H

#include <stddef.h>

/* c with A-Z folded to a-z; every other byte unchanged. */
static inline unsigned char ovc_lower(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}

/* 1 when the n bytes at a and at b are equal, letters compared in any
 * case; else 0. */
static inline int ovc_ieq(const char *a, const char *b, size_t n)
{
	size_t i;

	for(i = 0; i < n; i++)
		if(ovc_lower((unsigned char)a[i]) != ovc_lower((unsigned char)b[i]))
			return 0;
	return 1;
}

#endif
