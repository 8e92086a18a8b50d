/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the token that ties RFC 7339 feedback to the requests ovc sent
 * (see ovc/octoken.h). SipHash-2-4 (Aumasson and Bernstein, 2012) over
 * the branch's length (8 bytes, little-endian), the branch and the
 * destination's key: the length keeps ("ab", "c:...") and ("a",
 * "bc:...") apart.
 */
#include <string.h>

#include "ovc/octoken.h"
#include "ovc/types.h"

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

/* SipHash's state while it absorbs bytes. */
struct sip
{
	uint64_t v0, v1, v2, v3;
	uint8_t tail[8]; /* bytes not yet absorbed */
	size_t ntail;
	uint64_t total; /* bytes taken */
};

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for(i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void round_(struct sip *s)
{
	s->v0 += s->v1;
	s->v1 = ROTL(s->v1, 13);
	s->v1 ^= s->v0;
	s->v0 = ROTL(s->v0, 32);
	s->v2 += s->v3;
	s->v3 = ROTL(s->v3, 16);
	s->v3 ^= s->v2;
	s->v0 += s->v3;
	s->v3 = ROTL(s->v3, 21);
	s->v3 ^= s->v0;
	s->v2 += s->v1;
	s->v1 = ROTL(s->v1, 17);
	s->v1 ^= s->v2;
	s->v2 = ROTL(s->v2, 32);
}

static void block(struct sip *s, uint64_t m)
{
	s->v3 ^= m;
	round_(s);
	round_(s);
	s->v0 ^= m;
}

static void sip_init(struct sip *s, const struct ovc_oct_key *k)
{
	uint64_t k0 = le64(k->k), k1 = le64(k->k + 8);

	s->v0 = k0 ^ UINT64_C(0x736f6d6570736575);
	s->v1 = k1 ^ UINT64_C(0x646f72616e646f6d);
	s->v2 = k0 ^ UINT64_C(0x6c7967656e657261);
	s->v3 = k1 ^ UINT64_C(0x7465646279746573);
	s->ntail = 0;
	s->total = 0;
}

static void sip_add(struct sip *s, const void *data, size_t len)
{
	const uint8_t *p = data;

	s->total += len;
	while(len > 0) {
		s->tail[s->ntail++] = *p++;
		len--;
		if(s->ntail == 8) {
			block(s, le64(s->tail));
			s->ntail = 0;
		}
	}
}

static uint64_t sip_end(struct sip *s)
{
	uint64_t b = (s->total & 0xff) << 56;
	size_t i;

	for(i = 0; i < s->ntail; i++)
		b |= (uint64_t)s->tail[i] << (8 * i);
	block(s, b);
	s->v2 ^= 0xff;
	round_(s);
	round_(s);
	round_(s);
	round_(s);
	return s->v0 ^ s->v1 ^ s->v2 ^ s->v3;
}

uint64_t ovc_siphash24(const struct ovc_oct_key *k, const void *data,
		size_t len)
{
	struct sip s;

	sip_init(&s, k);
	sip_add(&s, data, len);
	return sip_end(&s);
}

uint64_t ovc_oct_token(const struct ovc_oct_key *k, const char *branch,
		size_t blen, const char *dst, size_t dlen)
{
	uint8_t n[8];
	struct sip s;
	int i;

	if(branch == NULL)
		blen = 0;
	if(dst == NULL)
		dlen = 0;
	for(i = 0; i < 8; i++)
		n[i] = (uint8_t)((uint64_t)blen >> (8 * i));
	sip_init(&s, k);
	sip_add(&s, n, sizeof(n));
	sip_add(&s, branch, blen);
	sip_add(&s, dst, dlen);
	return sip_end(&s);
}

int ovc_oct_announce(const struct ovc_oct_key *k, const char *dst,
		size_t dlen, const char *msg, size_t len, char *out, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	static const char name[] = ";" OVC_OC_TOKEN_PARAM "=";
	char extra[sizeof(name) - 1 + 16];
	const char *branch;
	uint64_t tok;
	size_t blen;
	int i;

	if(k == NULL || !ovc_oc_top_branch(msg, len, &branch, &blen))
		return OVC_EINVAL;
	tok = ovc_oct_token(k, branch, blen, dst, dlen);
	memcpy(extra, name, sizeof(name) - 1);
	for(i = 0; i < 16; i++)
		extra[sizeof(name) - 1 + i] = hex[(tok >> (60 - 4 * i)) & 0xf];
	return ovc_oc_announce_extra(msg, len, extra, sizeof(extra), out, size);
}

int ovc_oct_verify(const struct ovc_oct_key *k, const struct ovc_oc_via *oc,
		const char *src, size_t slen)
{
	if(k == NULL || oc == NULL || !oc->has_token)
		return 0;
	return ovc_oct_token(k, oc->branch, oc->branch_len, src, slen)
		   == oc->token;
}
