/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - EWMA v = (1 - w) v + w x (001 eq. 2, 7; 004 eq. 2, 7) and the
 * backward-Euler low-pass filter v += dt / (tau + dt) (x - v), the
 * discrete form of 1 / (1 + tau s) used by 003 eq. 7-8.
 */
#include <math.h>
#include <stddef.h>

#include "ovc/ewma.h"
#include "ovc/types.h"

int ovc_ewma_init(struct ovc_ewma *e, double w, double v0, int seed)
{
	if(e == NULL)
		return OVC_EINVAL;
	if(!isfinite(w) || w <= 0.0 || w > 1.0 || !isfinite(v0))
		return OVC_ERANGE;
	e->w = w;
	e->v = v0;
	e->primed = seed ? 0 : 1;
	return OVC_OK;
}

int ovc_ewma_update(struct ovc_ewma *e, double x)
{
	if(!isfinite(x))
		return OVC_EINVAL;
	if(!e->primed) {
		e->v = x;
		e->primed = 1;
		return OVC_OK;
	}
	e->v = (1.0 - e->w) * e->v + e->w * x;
	return OVC_OK;
}

int ovc_ewma_update_dt(struct ovc_ewma *e, double x, double dt_s,
		double tau_s)
{
	if(!isfinite(x) || !isfinite(dt_s) || dt_s <= 0.0 || !isfinite(tau_s)
			|| tau_s < 0.0)
		return OVC_EINVAL;
	if(!e->primed) {
		e->v = x;
		e->primed = 1;
		return OVC_OK;
	}
	e->v += dt_s / (tau_s + dt_s) * (x - e->v);
	return OVC_OK;
}

double ovc_ewma_value(const struct ovc_ewma *e)
{
	return e->v;
}
