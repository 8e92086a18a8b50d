/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - OCC, the occupancy controller of paper 000 eq. 1-2:
 *   phi_t   = min(rho_target / rho_t, phi_max)
 *   f_{t+1} = restrict(f_min, phi_t * f_t, 1)
 * One step per epoch (000: 1 s).
 */
#ifndef OVC_OCC_H
#define OVC_OCC_H

#include "ovc/occ-t.h"

/* Fills p with the defaults of 000 §VI-C. */
void ovc_occ_defaults(struct ovc_occ_params *p);

/* Initialises s with f = 1. Returns OVC_OK or OVC_ERANGE for bad
 * parameters (s untouched). */
int ovc_occ_init(struct ovc_occ *s, const struct ovc_occ_params *p);

/* Changes the parameters, keeping f (raised to the new f_min if below).
 * Returns OVC_OK or OVC_ERANGE (s untouched). */
int ovc_occ_reconfigure(struct ovc_occ *s, const struct ovc_occ_params *p);

/* One epoch: rho is the occupancy measured over the epoch, as a fraction
 * of capacity (values > 1 are clamped to 1; 0 counts as a tiny positive
 * value so phi = phi_max). An increase (phi > 1) multiplies at least 0.02
 * (000's f_min), so f below that recovers in a few epochs. Returns the new
 * f in [f_min, 1]. NaN, inf or negative rho leaves f unchanged. */
double ovc_occ_step(struct ovc_occ *s, double rho);

#endif
