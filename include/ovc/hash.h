/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the hashes ovc keys its tables with (the decision memory and the
 * request's source in it, the fair share's sketch): 64-bit FNV-1a over
 * bytes, and splitmix64's finaliser to spread every bit of its state.
 */
#ifndef OVC_HASH_H
#define OVC_HASH_H

#include <stddef.h>
#include <stdint.h>

#define OVC_FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define OVC_FNV_PRIME UINT64_C(0x100000001b3)

/* FNV-1a of the n bytes at p, continuing from state h (OVC_FNV_OFFSET to
 * start). */
static inline uint64_t ovc_fnv1a(uint64_t h, const unsigned char *p, size_t n)
{
	size_t i;

	for(i = 0; i < n; i++) {
		h ^= p[i];
		h *= OVC_FNV_PRIME;
	}
	return h;
}

/* splitmix64's finaliser: full avalanche of z. */
static inline uint64_t ovc_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

#endif
