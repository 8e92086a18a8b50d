/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - acceptance rate and ARO of 001 §3.2:
 *   alpha_n  = (accepted_n - accepted_{n-k}) / (total_n - total_{n-k})  (eq. 4)
 *   f_alpha  = restrict(f_min, alpha_targ / alpha_n * f_n, 1)   (no EWMA)
 *   f_rho    = restrict(f_min, rho_targ / rho^_n * f_n, 1)      (eq. 1-3)
 *   f_{n+1}  = restrict(f_min, min(f_alpha, f_rho), 1)          (eq. 5)
 * f_n is the controller's own current fraction in both terms.
 */
#ifndef OVC_ARO_H
#define OVC_ARO_H

#include "ovc/aro-t.h"

/* Fills p with the defaults of 001 §6.5. */
void ovc_aro_defaults(struct ovc_aro_params *p);

/* Initialises s with f = 1. Returns OVC_OK or OVC_ERANGE (s untouched). */
int ovc_aro_init(struct ovc_aro *s, const struct ovc_aro_params *p);

/* One sample: cpu (fraction of capacity, as measured, bounded by
 * OVC_CPU_READING_MAX; the window's average is clamped to [0, 1]) over
 * dt_s seconds, and
 * accepted of total packets offered over the same epoch. Returns the new f
 * in [f_min, 1]. Invalid cpu/dt_s (NaN, inf, < 0, dt_s == 0) or counts
 * (NaN, inf, < 0, accepted > total) leave everything unchanged; an epoch
 * with total == 0 adds nothing to the acceptance window. */
double ovc_aro_step(struct ovc_aro *s, double cpu, double dt_s,
		double accepted, double total);

/* Initialises the acceptance-rate controller from p (k, alpha_target,
 * f_min). Returns OVC_OK or OVC_ERANGE. */
int ovc_acceptance_init(struct ovc_acceptance *s,
		const struct ovc_aro_params *p);

/* One acceptance-rate sample; returns the new f_alpha in [f_min, 1].
 * Invalid counts leave it unchanged. */
double ovc_acceptance_step(struct ovc_acceptance *s, double accepted,
		double total);

#endif
