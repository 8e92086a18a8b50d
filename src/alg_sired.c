/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - SiRED (ovc/sired.h) as a descriptor.
 */
#include <math.h>

#include "ovc/alg.h"
#include "ovc/sired.h"

static int sired_init(struct ovc_ctl *c)
{
	return ovc_sired_init(&c->u.sired, &c->p.sired);
}

/* Keeps the averaged queue; f follows from it under the new parameters. */
static int sired_carry(struct ovc_ctl *n, const struct ovc_ctl *old)
{
	struct ovc_sired *s = &n->u.sired;

	s->q_hat.v = old->u.sired.q_hat.v;
	s->q_hat.primed = old->u.sired.q_hat.primed;
	s->f = ovc_sired_f_of(&n->p.sired, ovc_ewma_value(&s->q_hat));
	return OVC_OK;
}

static int sired_step(struct ovc_ctl *c, const struct ovc_measure *m,
		double dt, struct ovc_output *o)
{
	if(!ovc_meas_ok(m->queue_len) || !isfinite(m->queue_cap)
			|| m->queue_cap <= 0.0)
		return OVC_EINVAL;
	ovc_output_from_f(
			o, ovc_sired_step(&c->u.sired, m->queue_len / m->queue_cap));
	return OVC_OK;
}

static unsigned sired_epoch_ms(const struct ovc_params *p)
{
	return p->sired.epoch_ms;
}

/* No release: sired's f is a function of its averaged queue. */
const struct ovc_alg_desc ovc_alg_sired = {
	.name = "sired",
	.traits = {.controlled = OVC_CLASS_BIT(OVC_CLASS_INVITE), .queued = 1},
	.init = sired_init,
	.carry = sired_carry,
	.step = sired_step,
	.epoch_ms = sired_epoch_ms,
};
