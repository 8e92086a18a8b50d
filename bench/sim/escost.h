/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - the ES cost of 003 §VI-B over step experiments R(t) = R_l 1(t):
 *   J = 1/m sum_i sum_l (eta RIAE_i + xi CIAE_i)            (eq. 15)
 *   RIAE = 1/t_f int |retransmission ratio| dt              (eq. 16)
 *   CIAE = 1/((1 - C_T) t_f) int |C~ - C_T| dt               (eq. 17)
 * and the goodput functional G = -1/m sum_i sum_l g R_l (eq. 14), measured
 * on the simulator or, through a command, on the testbed.
 */
#ifndef SIM_ESCOST_H
#define SIM_ESCOST_H

#include "sim.h"

#define SIM_ESC_MAX_LOADS 8
#define SIM_ESC_MAX_PARAMS 8

struct sim_esc
{
	struct sim_cfg base;		  /* model (algorithm, capacity, beta...) */
	int n;						  /* parameters tuned */
	const char *name[SIM_ESC_MAX_PARAMS]; /* libovc names, "pi.kpc", ... */
	double load[SIM_ESC_MAX_LOADS]; /* R_l; 003: 1.58, 2.10, 2.37, 2.63 */
	int nload;
	int m;						  /* repetitions (seeds) per load */
	double tf;					  /* experiment length, s; 003: 120 */
	double eta, xi;				  /* weights; 003: 1, 2 */
	const char *testbed;		  /* shell command instead of the simulator */
};

/* Fills c for 003's PI tuning on base. */
void sim_esc_defaults(struct sim_esc *c, const struct sim_cfg *base);

/* Measures J at theta (values are clamped into each parameter's range of
 * the libovc table, as the anti-windup's sat() does for 0). Returns J,
 * and G in *g when g is not NULL; NAN when a run fails. */
double sim_esc_eval(const struct sim_esc *c, const double *theta, double *g);

#endif
