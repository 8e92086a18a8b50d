/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - internal: ASCII case folding for SIP tokens (RFC 3261 compares
 * methods' and headers' names, schemes and hosts case-insensitively),
 * shared by the scanner and the emergency match.
 */
#ifndef OVC_ASCII_H
#define OVC_ASCII_H

/* c with A-Z folded to a-z; every other byte unchanged. */
static inline unsigned char ovc_lower(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}

#endif
