/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - RFC 7339 feedback taken only from the responses to requests this
 * proxy sent. When ovc offers "oc" in the top Via of a request it sends,
 * it adds a token, ";ovct=<16 hex digits>": SipHash-2-4, keyed with a
 * secret of the module (random at start, shared by its processes), of
 * that Via's branch and the address the request is sent to (the next
 * hop's key, "udp:192.0.2.7:5060"). The next hop returns that Via in its
 * responses (RFC 3261 8.2.6.2), so a response carries the token of the
 * request it answers; its feedback is taken only when the token verifies
 * against its top Via's branch and the address it came from. A sender
 * that saw none of ovc's requests cannot make a token (64 bits of a keyed
 * pseudo-random function): a forged response, or one from another source
 * than the request's destination, is ignored. Stateless: nothing is
 * stored per request. Pure; libc only.
 */
#ifndef OVC_OCTOKEN_H
#define OVC_OCTOKEN_H

#include <stddef.h>
#include <stdint.h>

#include "ovc/oc7339.h"

#define OVC_OCT_KEY_BYTES 16 /* SipHash's key */

/* The module's secret. */
struct ovc_oct_key
{
	uint8_t k[OVC_OCT_KEY_BYTES];
};

/* SipHash-2-4 of data (len bytes) with key k. */
uint64_t ovc_siphash24(const struct ovc_oct_key *k, const void *data,
		size_t len);

/* The token of a request whose top Via's branch is branch (blen bytes;
 * NULL: none) sent to dst (dlen bytes, the next hop's key). */
uint64_t ovc_oct_token(const struct ovc_oct_key *k, const char *branch,
		size_t blen, const char *dst, size_t dlen);

/* Client side: ovc_oc_announce() of request msg (len bytes) with the
 * token of its top Via's branch and dst (dlen bytes) after the offer, into
 * out (size bytes). Returns what ovc_oc_announce_extra() returns. */
int ovc_oct_announce(const struct ovc_oct_key *k, const char *dst,
		size_t dlen, const char *msg, size_t len, char *out, size_t size);

/* Does the top Via oc of a response (ovc_oc_read_top_via()) that came
 * from src (slen bytes, the next hop's key) carry the token ovc put into
 * the request it answers? 1: yes, 0: no token, or not that one. */
int ovc_oct_verify(const struct ovc_oct_key *k, const struct ovc_oc_via *oc,
		const char *src, size_t slen);

#endif
