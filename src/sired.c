/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - SiRED of 001 §3.3, derived from RED:
 *   q^ = (1 - w) q^_{n-1} + w q                              (eq. 6-7)
 *   f  = restrict(f_min, (Q_max - q^) / (Q_max - Q_min), 1)    (eq. 8)
 * q is the queue length over its capacity. Defaults of 001 §6.5: Q_min
 * 0.7, Q_max 0.9, f_min 0.05, w 0.05.
 */
#include <math.h>
#include <stddef.h>

#include "ovc/sired.h"
#include "ovc/types.h"

void ovc_sired_defaults(struct ovc_sired_params *p)
{
	p->qmin = 0.7;
	p->qmax = 0.9;
	p->f_min = 0.05;
	p->w = 0.05;
	p->epoch_ms = 40;
}

static int sired_params_ok(const struct ovc_sired_params *p)
{
	return isfinite(p->qmin) && isfinite(p->qmax) && p->qmin >= 0.0
		   && p->qmin < p->qmax && p->qmax <= 1.0 && isfinite(p->f_min)
		   && p->f_min >= 0.0 && p->f_min < 1.0 && isfinite(p->w)
		   && p->w > 0.0 && p->w <= 1.0 && p->epoch_ms > 0;
}

int ovc_sired_init(struct ovc_sired *s, const struct ovc_sired_params *p)
{
	if(s == NULL || p == NULL)
		return OVC_EINVAL;
	if(!sired_params_ok(p))
		return OVC_ERANGE;
	s->p = *p;
	ovc_ewma_init(&s->q_hat, p->w, 0.0, 0);
	s->f = 1.0;
	return OVC_OK;
}

double ovc_sired_f_of(const struct ovc_sired_params *p, double q_hat)
{
	double x = (p->qmax - q_hat) / (p->qmax - p->qmin);

	if(x > 1.0)
		x = 1.0;
	if(x < p->f_min)
		x = p->f_min;
	return x;
}

double ovc_sired_step(struct ovc_sired *s, double q)
{
	if(!isfinite(q) || q < 0.0)
		return s->f;
	if(q > 1.0)
		q = 1.0;
	ovc_ewma_update(&s->q_hat, q);
	s->f = ovc_sired_f_of(&s->p, ovc_ewma_value(&s->q_hat));
	return s->f;
}
