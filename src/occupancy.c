/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the occupancy controller of 001 §3.1 (Penn State thesis):
 *   rho_n   = (systemtime_n - systemtime_{n-k})
 *             / (clocktime_n - clocktime_{n-k})                  (eq. 1)
 *   rho^_n  = (1 - w) rho^_{n-1} + w rho_n                         (eq. 2)
 *   f_{n+1} = restrict(f_min, rho_thresh / rho^_n * f_n, 1)         (eq. 3)
 * Defaults of 001 §6.5: k 25, rho_targ 0.95, f_min 0.05, w 0.1.
 */
#include <math.h>
#include <stddef.h>

#include "restrict.h"
#include "ovc/occupancy.h"
#include "ovc/types.h"

/* rho^ below this counts as idle: f goes straight to 1. */
#define RHO_TINY 1e-9

void ovc_occupancy_defaults(struct ovc_occupancy_params *p)
{
	p->k = 25;
	p->target = 0.95;
	p->f_min = 0.05;
	p->w = 0.1;
	p->epoch_ms = 40;
}

static int occupancy_params_ok(const struct ovc_occupancy_params *p)
{
	return p->k >= 1 && p->k <= OVC_WINDOW_MAX && isfinite(p->target)
		   && p->target > 0.0 && p->target <= 1.0 && isfinite(p->f_min)
		   && p->f_min >= 0.0 && p->f_min < 1.0 && isfinite(p->w)
		   && p->w > 0.0 && p->w <= 1.0 && p->epoch_ms > 0;
}

int ovc_occupancy_init(
		struct ovc_occupancy *s, const struct ovc_occupancy_params *p)
{
	if(s == NULL || p == NULL)
		return OVC_EINVAL;
	if(!occupancy_params_ok(p))
		return OVC_ERANGE;
	s->p = *p;
	ovc_window_init(&s->win, p->k);
	ovc_ewma_init(&s->rho_hat, p->w, 0.0, 1);
	s->rho = 0.0;
	s->f = 1.0;
	return OVC_OK;
}

double ovc_occupancy_step(struct ovc_occupancy *s, double cpu, double dt_s)
{
	double rho, rh;

	if(!isfinite(cpu) || cpu < 0.0 || !isfinite(dt_s) || dt_s <= 0.0)
		return s->f;
	/* averaged as measured, then clamped */
	ovc_window_push(&s->win, ovc_cpu_reading(cpu) * dt_s, dt_s);
	if(ovc_window_ratio(&s->win, &rho) != OVC_OK)
		return s->f;
	if(rho > 1.0)
		rho = 1.0;
	s->rho = rho;
	ovc_ewma_update(&s->rho_hat, rho);
	rh = ovc_ewma_value(&s->rho_hat);
	if(rh < RHO_TINY)
		s->f = 1.0;
	else
		s->f = ovc_restrict(s->p.f_min, s->p.target / rh * s->f, 1.0);
	return s->f;
}
