/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - exponentially weighted moving average (001 eq. 2 and 7, 004 eq. 2
 * and 7) and the first-order low-pass filter 1/(1 + tau s) of 003 eq. 7-8
 * discretised by backward Euler. Non-finite samples are refused.
 */
#ifndef OVC_EWMA_H
#define OVC_EWMA_H

struct ovc_ewma
{
	double w;	/* weight of a new sample, in (0, 1] */
	double v;	/* current average */
	int primed; /* 0 until the first sample when seeded by it */
};

/* Initialises e with new-sample weight w in (0, 1]. If seed is non-zero
 * the first sample becomes the average as is; otherwise the average
 * starts at v0. Returns OVC_OK or OVC_ERANGE (e untouched). */
int ovc_ewma_init(struct ovc_ewma *e, double w, double v0, int seed);

/* v = (1 - w) v + w x. Returns OVC_OK, or OVC_EINVAL for a non-finite x
 * (nothing changes). */
int ovc_ewma_update(struct ovc_ewma *e, double x);

/* Low-pass step over dt_s seconds with time constant tau_s seconds:
 * v += dt / (tau + dt) * (x - v) (tau = 0: v = x). Returns OVC_OK, or
 * OVC_EINVAL for a non-finite x, dt_s <= 0 or tau_s < 0 (no change). */
int ovc_ewma_update_dt(struct ovc_ewma *e, double x, double dt_s,
		double tau_s);

/* Returns the current average. */
double ovc_ewma_value(const struct ovc_ewma *e);

#endif
