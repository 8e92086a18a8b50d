/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - bang-bang control, 000 §VI-B (and Ohta's algorithm as used in
 * 003 §VII): "A server in underload state turns to overload state when its
 * message queue length exceeds a high watermark value B_h. Similarly, a
 * server in overload state turns to underload state when the queue length
 * falls below a low watermark value B_l." Overload rejects every new
 * INVITE (f = 0); underload accepts all (f = 1).
 */
#include <math.h>
#include <stddef.h>

#include "ovc/bbc.h"
#include "ovc/types.h"

void ovc_bbc_defaults(struct ovc_bbc_params *p)
{
	p->high = 800.0;
	p->low = 600.0;
	p->epoch_ms = 10;
}

static int bbc_params_ok(const struct ovc_bbc_params *p)
{
	return isfinite(p->high) && isfinite(p->low) && p->low >= 0.0
		   && p->low < p->high && p->epoch_ms > 0;
}

int ovc_bbc_init(struct ovc_bbc *s, const struct ovc_bbc_params *p)
{
	if(s == NULL || p == NULL)
		return OVC_EINVAL;
	if(!bbc_params_ok(p))
		return OVC_ERANGE;
	s->p = *p;
	s->overload = 0;
	s->f = 1.0;
	return OVC_OK;
}

int ovc_bbc_reconfigure(struct ovc_bbc *s, const struct ovc_bbc_params *p)
{
	if(s == NULL || p == NULL)
		return OVC_EINVAL;
	if(!bbc_params_ok(p))
		return OVC_ERANGE;
	s->p = *p;
	return OVC_OK;
}

double ovc_bbc_step(struct ovc_bbc *s, double q)
{
	if(!isfinite(q) || q < 0.0)
		return s->f;
	if(!s->overload && q > s->p.high)
		s->overload = 1;
	else if(s->overload && q < s->p.low)
		s->overload = 0;
	s->f = s->overload ? 0.0 : 1.0;
	return s->f;
}
