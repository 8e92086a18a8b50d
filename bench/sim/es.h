/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - the discrete Extremum Seeking algorithm of 003 §VI-A
 * (eq. 11-13) with the static anti-windup back-calculation of [36]:
 *   zeta(k)        = -h zeta(k-1) + J(theta(k-1))
 *   theta^_i(k+1)  = k_aw (sat(theta_i(k), 0) - theta_i(k)) + theta^_i(k)
 *                    - gamma_i alpha_i cos(omega_i k)
 *                      (J(theta(k)) - (1+h) zeta(k))
 *   theta_i(k+1)   = theta^_i(k+1) + alpha_i cos(omega_i (k+1))
 * Pure: the caller measures J(theta(k)) and feeds it back.
 */
#ifndef SIM_ES_H
#define SIM_ES_H

#define SIM_ES_MAX_DIM 8

struct sim_es_params
{
	int n;						   /* dimension of theta, 1..SIM_ES_MAX_DIM */
	double gamma[SIM_ES_MAX_DIM];  /* integrator step sizes; 003: 10 */
	double alpha[SIM_ES_MAX_DIM];  /* perturbation amplitudes; 003: 1 */
	double omega[SIM_ES_MAX_DIM];  /* perturbation pulsations, rad/iteration */
	double h;					   /* high-pass filter pole; 003: 0.5 */
	double kaw;					   /* anti-windup gain; 003: 0.003 */
};

struct sim_es
{
	struct sim_es_params p;			  /* parameters in force */
	double theta_hat[SIM_ES_MAX_DIM]; /* estimate theta^(k) */
	double theta[SIM_ES_MAX_DIM];	  /* theta(k): evaluate J here next */
	double zeta;					  /* high-pass filter state */
	double j_prev;					  /* J(theta(k-1)) */
	int k;							  /* iteration */
};

/* Fills p with 003 §VI-C for n = 4: gamma 10, alpha 1,
 * omega (2.82, 2.54, 2.28, 2.06), h 0.5, k_aw 0.003. */
void sim_es_defaults(struct sim_es_params *p);

/* Starts at theta(0) = theta0 (theta^(0) = theta0 - alpha). Returns 0, or
 * -1 for a bad dimension. */
int sim_es_init(struct sim_es *es, const struct sim_es_params *p,
		const double *theta0);

/* Feeds J(theta(k)); advances to k + 1 and leaves theta(k+1) in
 * es->theta. */
void sim_es_update(struct sim_es *es, double j);

#endif
