/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - SiRED of 001 §3.3: queue occupancy q = length / capacity,
 *   q^_n = (1 - w) q^_{n-1} + w q_n                          (eq. 6-7)
 *   f    = restrict(f_min, (Q_max - q^) / (Q_max - Q_min), 1)  (eq. 8)
 * (eq. 6 and 7 are the same EWMA written twice; one is applied.)
 * q^ starts at 0 (empty queue).
 */
#ifndef OVC_SIRED_H
#define OVC_SIRED_H

#include "ovc/sired-t.h"

/* Fills p with the defaults of 001 §6.5. */
void ovc_sired_defaults(struct ovc_sired_params *p);

/* Initialises s with q^ = 0, f = 1. Returns OVC_OK or OVC_ERANGE. */
int ovc_sired_init(struct ovc_sired *s, const struct ovc_sired_params *p);

/* f of eq. 8 for a given q^ (pure function of the parameters). */
double ovc_sired_f_of(const struct ovc_sired_params *p, double q_hat);

/* One sample of queue occupancy q (fraction, clamped to [0, 1]). Returns
 * the new f in [f_min, 1]; NaN, inf or negative q changes nothing. */
double ovc_sired_step(struct ovc_sired *s, double q);

#endif
