/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the occupancy controller of 001 §3.1:
 *   rho_n     = (busy_n - busy_{n-k}) / (clock_n - clock_{n-k})   (eq. 1)
 *   rho^_n    = (1 - w) rho^_{n-1} + w rho_n                       (eq. 2)
 *   f_{n+1}   = restrict(f_min, rho_thresh / rho^_n * f_n, 1)       (eq. 3)
 * restrict(a, x, b) = max(a, min(x, b)). The window holds the last k
 * per-epoch increments; the EWMA is seeded with the first rho.
 */
#ifndef OVC_OCCUPANCY_H
#define OVC_OCCUPANCY_H

#include "ovc/occupancy-t.h"

/* Fills p with the defaults of 001 §6.5. */
void ovc_occupancy_defaults(struct ovc_occupancy_params *p);

/* Initialises s with f = 1 and an empty window. Returns OVC_OK or
 * OVC_ERANGE (s untouched). */
int ovc_occupancy_init(struct ovc_occupancy *s,
		const struct ovc_occupancy_params *p);

/* One sample: cpu is the occupancy over the last dt_s seconds (fraction
 * of capacity, as measured, bounded by OVC_CPU_READING_MAX; the window's
 * average is clamped to [0, 1]). Returns the new f in [f_min, 1]; NaN,
 * inf, negative cpu or dt_s <= 0 leave the state and f unchanged. */
double ovc_occupancy_step(struct ovc_occupancy *s, double cpu, double dt_s);

#endif
