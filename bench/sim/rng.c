/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - xoshiro256** (Blackman & Vigna, public domain algorithm),
 * seeded with splitmix64.
 */
#include <math.h>

#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z;

	*x += UINT64_C(0x9e3779b97f4a7c15);
	z = *x;
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void sim_rng_seed(struct sim_rng *r, uint64_t seed)
{
	int i;

	for(i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
	if(!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = 1;
}

uint64_t sim_rng_next(struct sim_rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

double sim_rng_u01(struct sim_rng *r)
{
	/* 53 random bits, shifted by half a step: never 0, never 1 */
	return ((double)(sim_rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

double sim_rng_exp(struct sim_rng *r, double mean)
{
	if(mean <= 0)
		return 0;
	return -mean * log(sim_rng_u01(r));
}
