/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - acceptance rate and ARO of 001 §3.2:
 *   alpha_n = (acceptedpackets_n - acceptedpackets_{n-k})
 *             / (totalpackets_n - totalpackets_{n-k})               (eq. 4)
 *   f_alpha = restrict(f_min, alpha_targ / alpha_n * f_n, 1)
 *             ("identical to the occupancy algorithm, except it uses ...
 *              alpha instead of rho and does not use an EWMA")
 *   f_rho   = restrict(f_min, rho_targ / rho^_n * f_n, 1)   (eq. 1-3)
 *   f_{n+1} = restrict(f_min, min(f_alpha, f_rho), 1)        (eq. 5)
 * Defaults of 001 §6.5: k 25, rho_targ 0.95, alpha_targ 0.95, f_min 0.05,
 * w 0.1.
 */
#include <math.h>
#include <stddef.h>

#include "restrict.h"
#include "ovc/aro.h"
#include "ovc/types.h"

/* rho^ or alpha below this: that term allows f = 1. */
#define TINY 1e-9

void ovc_aro_defaults(struct ovc_aro_params *p)
{
	p->k = 25;
	p->rho_target = 0.95;
	p->alpha_target = 0.95;
	p->f_min = 0.05;
	p->w = 0.1;
	p->epoch_ms = 40;
}

static int aro_params_ok(const struct ovc_aro_params *p)
{
	return p->k >= 1 && p->k <= OVC_WINDOW_MAX && isfinite(p->rho_target)
		   && p->rho_target > 0.0 && p->rho_target <= 1.0
		   && isfinite(p->alpha_target) && p->alpha_target > 0.0
		   && p->alpha_target <= 1.0 && isfinite(p->f_min)
		   && p->f_min >= 0.0 && p->f_min < 1.0 && isfinite(p->w)
		   && p->w > 0.0 && p->w <= 1.0 && p->epoch_ms > 0;
}

/* target / v * f, restricted; v tiny gives 1. */
static double scaled(double f_min, double target, double v, double f)
{
	if(v < TINY)
		return 1.0;
	return ovc_restrict(f_min, target / v * f, 1.0);
}

static int counts_ok(double accepted, double total)
{
	return isfinite(accepted) && isfinite(total) && accepted >= 0.0
		   && total >= 0.0 && accepted <= total;
}

int ovc_aro_init(struct ovc_aro *s, const struct ovc_aro_params *p)
{
	if(s == NULL || p == NULL)
		return OVC_EINVAL;
	if(!aro_params_ok(p))
		return OVC_ERANGE;
	s->p = *p;
	ovc_window_init(&s->rho_win, p->k);
	ovc_window_init(&s->acc_win, p->k);
	ovc_ewma_init(&s->rho_hat, p->w, 0.0, 1);
	s->rho = 0.0;
	s->alpha = 1.0;
	s->f_rho = 1.0;
	s->f_alpha = 1.0;
	s->f = 1.0;
	return OVC_OK;
}

double ovc_aro_step(struct ovc_aro *s, double cpu, double dt_s,
		double accepted, double total)
{
	double rho;

	if(!isfinite(cpu) || cpu < 0.0 || !isfinite(dt_s) || dt_s <= 0.0
			|| !counts_ok(accepted, total))
		return s->f;
	/* averaged as measured, then clamped */
	ovc_window_push(&s->rho_win, ovc_cpu_reading(cpu) * dt_s, dt_s);
	if(total > 0.0)
		ovc_window_push(&s->acc_win, accepted, total);
	if(ovc_window_ratio(&s->rho_win, &rho) == OVC_OK) {
		if(rho > 1.0)
			rho = 1.0;
		s->rho = rho;
		ovc_ewma_update(&s->rho_hat, rho);
	}
	/* alpha keeps its last value while the window holds no packet */
	ovc_window_ratio(&s->acc_win, &s->alpha);
	s->f_rho = scaled(s->p.f_min, s->p.rho_target,
			ovc_ewma_value(&s->rho_hat), s->f);
	/* An epoch without packets says nothing about acceptance: only the
	 * occupancy term acts. Otherwise alpha = alpha_target (e.g. 1 after
	 * a quiet spell with everything admitted) gives f_alpha = f and, f
	 * being the smaller of both terms, would hold f where it was for as
	 * long as the proxy stays idle. */
	s->f_alpha = total > 0.0
						 ? scaled(s->p.f_min, s->p.alpha_target, s->alpha, s->f)
						 : 1.0;
	s->f = ovc_restrict(s->p.f_min,
			s->f_alpha < s->f_rho ? s->f_alpha : s->f_rho, 1.0);
	return s->f;
}

int ovc_acceptance_init(
		struct ovc_acceptance *s, const struct ovc_aro_params *p)
{
	if(s == NULL || p == NULL)
		return OVC_EINVAL;
	if(!aro_params_ok(p))
		return OVC_ERANGE;
	s->k = p->k;
	s->target = p->alpha_target;
	s->f_min = p->f_min;
	ovc_window_init(&s->win, p->k);
	s->alpha = 1.0;
	s->f = 1.0;
	return OVC_OK;
}

double ovc_acceptance_step(
		struct ovc_acceptance *s, double accepted, double total)
{
	if(!counts_ok(accepted, total))
		return s->f;
	if(total > 0.0)
		ovc_window_push(&s->win, accepted, total);
	if(ovc_window_ratio(&s->win, &s->alpha) != OVC_OK)
		return s->f;
	s->f = scaled(s->f_min, s->target, s->alpha, s->f);
	return s->f;
}
