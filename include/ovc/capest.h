/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the proxy's capacity, learned from what it serves: initial INVITEs
 * admitted per second over the CPU share spent on admitted work, i.e. the
 * INVITE (call) rate the proxy would serve at 100 % of its CPU. Used as
 * pi's rho_M (003 §IV) when pi.rho_m is 0, and reported.
 */
#ifndef OVC_CAPEST_H
#define OVC_CAPEST_H

/* Least CPU share on admitted work an interval needs to be a sample: at
 * lower load the fixed costs (timers, the ticker) dominate the ratio. */
#define OVC_CAPEST_MIN_CPU 0.2

struct ovc_capest
{
	double tau_s; /* time constant of the low-pass filter, s */
	double rho;	  /* estimate, INVITEs/s at full CPU; 0: none yet */
};

/* Starts with no estimate. tau_s > 0. */
void ovc_capest_init(struct ovc_capest *e, double tau_s);

/* One interval of dt_s seconds in which served initial INVITEs were
 * admitted while the admitted work took cpu_adm of the CPU capacity
 * (fraction). Intervals with cpu_adm < OVC_CAPEST_MIN_CPU, no INVITE, or
 * bad input (negative, NaN, dt_s <= 0) leave the estimate unchanged.
 * Returns the estimate, INVITEs/s (0: none yet). */
double ovc_capest_step(
		struct ovc_capest *e, double served, double cpu_adm, double dt_s);

#endif
