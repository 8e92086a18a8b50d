/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - Poisson source by thinning (Lewis & Shedler).
 */
#include "source.h"

void sim_source_init(struct sim_source *s, const struct sim_profile *prof,
		double capacity, uint64_t seed)
{
	sim_rng_seed(&s->rng, seed);
	s->prof = *prof;
	s->capacity = capacity;
	s->lmax = sim_profile_max(prof) * capacity;
	s->t_end = sim_profile_end(prof);
	s->t = 0;
}

double sim_source_next(struct sim_source *s)
{
	double lam;

	if(s->lmax <= 0)
		return -1;
	for(;;) {
		s->t += sim_rng_exp(&s->rng, 1.0 / s->lmax);
		lam = sim_profile_rate(&s->prof, s->t) * s->capacity;
		if(lam >= s->lmax || sim_rng_u01(&s->rng) * s->lmax < lam)
			return s->t;
		if(s->t >= s->t_end)
			return -1;
	}
}
