/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - discrete Extremum Seeking (003 eq. 11-13).
 */
#include <math.h>
#include <string.h>

#include "es.h"

void sim_es_defaults(struct sim_es_params *p)
{
	static const double om[4] = {2.82, 2.54, 2.28, 2.06};
	int i;

	memset(p, 0, sizeof(*p));
	p->n = 4;
	for(i = 0; i < SIM_ES_MAX_DIM; i++) {
		p->gamma[i] = 10;
		p->alpha[i] = 1;
		p->omega[i] = i < 4 ? om[i] : 2.0 - 0.2 * i;
	}
	p->h = 0.5;
	p->kaw = 0.003;
}

int sim_es_init(struct sim_es *es, const struct sim_es_params *p,
		const double *theta0)
{
	int i;

	if(p->n < 1 || p->n > SIM_ES_MAX_DIM)
		return -1;
	memset(es, 0, sizeof(*es));
	es->p = *p;
	for(i = 0; i < p->n; i++) {
		es->theta[i] = theta0[i];
		es->theta_hat[i] = theta0[i] - p->alpha[i];
	}
	return 0;
}

void sim_es_update(struct sim_es *es, double j)
{
	const struct sim_es_params *p = &es->p;
	double hp, sat;
	int i;

	/* eq. 11; at k = 0 the filter starts at rest on the first J */
	if(es->k == 0)
		es->zeta = j / (1 + p->h);
	else
		es->zeta = -p->h * es->zeta + es->j_prev;
	hp = j - (1 + p->h) * es->zeta;
	for(i = 0; i < p->n; i++) {
		sat = es->theta[i] < 0 ? 0 : es->theta[i];
		es->theta_hat[i] += p->kaw * (sat - es->theta[i])
							- p->gamma[i] * p->alpha[i]
									  * cos(p->omega[i] * es->k) * hp;
	}
	es->j_prev = j;
	es->k++;
	for(i = 0; i < p->n; i++)
		es->theta[i] = es->theta_hat[i]
					   + p->alpha[i] * cos(p->omega[i] * es->k);
}
