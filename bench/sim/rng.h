/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - deterministic pseudo-random numbers: xoshiro256** seeded by
 * splitmix64. Never rand(): a run is a pure function of its seed.
 */
#ifndef SIM_RNG_H
#define SIM_RNG_H

#include <stdint.h>

struct sim_rng
{
	uint64_t s[4]; /* xoshiro256** state, never all zero */
};

/* Seeds r from one 64-bit value (any value, 0 included). */
void sim_rng_seed(struct sim_rng *r, uint64_t seed);

/* Returns the next 64 random bits. */
uint64_t sim_rng_next(struct sim_rng *r);

/* Returns a uniform double in the open interval (0, 1). */
double sim_rng_u01(struct sim_rng *r);

/* Returns an exponential variate of the given mean (mean <= 0: 0). */
double sim_rng_exp(struct sim_rng *r, double mean);

#endif
