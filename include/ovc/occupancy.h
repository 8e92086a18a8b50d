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

#include "ovc/ewma.h"
#include "ovc/window.h"

struct ovc_occupancy_params
{
	unsigned k;		   /* window, samples; 001 §6.5: 25 */
	double target;	   /* rho_thresh (rho_targ), fraction; 001: 0.95 */
	double f_min;	   /* lower bound of f; 001: 0.05 */
	double w;		   /* EWMA weight of a new sample; 001: 0.1 */
	unsigned epoch_ms; /* sampling period, ms; 40 (001 samples every 125
						  packets, about 40 ms at its rates) */
};

struct ovc_occupancy
{
	struct ovc_occupancy_params p; /* parameters in force */
	struct ovc_window win;		   /* (busy s, elapsed s) increments */
	struct ovc_ewma rho_hat;	   /* rho^ */
	double rho;					   /* last windowed rho_n */
	double f;					   /* current f in [f_min, 1] */
};

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
