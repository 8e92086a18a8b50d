/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - bang-bang on the INVITE queue (ovc/bbc.h) as a descriptor.
 */
#include <math.h>

#include "ovc/alg.h"
#include "ovc/bbc.h"

static int bbc_init(struct ovc_ctl *c)
{
	return ovc_bbc_init(&c->u.bbc, &c->p.bbc);
}

static int bbc_carry(struct ovc_ctl *n, const struct ovc_ctl *old)
{
	n->u.bbc = old->u.bbc;
	return ovc_bbc_reconfigure(&n->u.bbc, &n->p.bbc);
}

static int bbc_step(struct ovc_ctl *c, const struct ovc_measure *m,
		double dt, struct ovc_output *o)
{
	if(!ovc_meas_ok(m->queue_len))
		return OVC_EINVAL;
	ovc_output_from_f(o, ovc_bbc_step(&c->u.bbc, m->queue_len));
	return OVC_OK;
}

static void bbc_release(struct ovc_ctl *c)
{
	c->u.bbc.overload = 0;
	c->u.bbc.f = 1.0;
}

static unsigned bbc_epoch_ms(const struct ovc_params *p)
{
	return p->bbc.epoch_ms;
}

const struct ovc_alg_desc ovc_alg_bbc = {
	.name = "bbc",
	.traits = {.controlled = OVC_CLASS_BIT(OVC_CLASS_INVITE), .queued = 1},
	.init = bbc_init,
	.carry = bbc_carry,
	.step = bbc_step,
	.release = bbc_release,
	.epoch_ms = bbc_epoch_ms,
};
