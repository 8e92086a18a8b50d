/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - OCC (ovc/occ.h) as a descriptor.
 */
#include <math.h>

#include "ovc/alg.h"
#include "ovc/occ.h"

static int occ_init(struct ovc_ctl *c)
{
	return ovc_occ_init(&c->u.occ, &c->p.occ);
}

static int occ_carry(struct ovc_ctl *n, const struct ovc_ctl *old)
{
	n->u.occ = old->u.occ;
	return ovc_occ_reconfigure(&n->u.occ, &n->p.occ);
}

static int occ_step(struct ovc_ctl *c, const struct ovc_measure *m,
		double dt, struct ovc_output *o)
{
	if(!ovc_meas_ok(m->cpu))
		return OVC_EINVAL;
	ovc_output_from_f(o, ovc_occ_step(&c->u.occ, m->cpu));
	return OVC_OK;
}

static void occ_hold(struct ovc_ctl *c, double f)
{
	c->u.occ.f = f;
}

static void occ_release(struct ovc_ctl *c)
{
	c->u.occ.f = 1.0;
}

static unsigned occ_epoch_ms(const struct ovc_params *p)
{
	return p->occ.epoch_ms;
}

/* The CPU occupancy it steers to, fraction. */
static double occ_cpu_target(const struct ovc_params *p)
{
	return p->occ.target;
}

const struct ovc_alg_desc ovc_alg_occ = {
	.name = "occ",
	.traits = {.controlled = OVC_CLASS_BIT(OVC_CLASS_INVITE),
			.guarded = 1},
	.init = occ_init,
	.carry = occ_carry,
	.step = occ_step,
	.hold = occ_hold,
	.release = occ_release,
	.epoch_ms = occ_epoch_ms,
	.cpu_target = occ_cpu_target,
};
