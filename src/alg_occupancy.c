/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the occupancy controller (ovc/occupancy.h) as a descriptor.
 */
#include <math.h>

#include "ovc/alg.h"
#include "ovc/occupancy.h"

static int occupancy_init(struct ovc_ctl *c)
{
	return ovc_occupancy_init(&c->u.occupancy, &c->p.occupancy);
}

/* Keeps the window when k is the same, the average, rho and f (within
 * the new f_min). */
static int occupancy_carry(struct ovc_ctl *n, const struct ovc_ctl *old)
{
	const struct ovc_occupancy *o = &old->u.occupancy;
	struct ovc_occupancy *s = &n->u.occupancy;

	if(n->p.occupancy.k == old->p.occupancy.k)
		s->win = o->win;
	s->rho_hat.v = o->rho_hat.v;
	s->rho_hat.primed = o->rho_hat.primed;
	s->rho = o->rho;
	s->f = o->f < n->p.occupancy.f_min ? n->p.occupancy.f_min : o->f;
	return OVC_OK;
}

static int occupancy_step(struct ovc_ctl *c, const struct ovc_measure *m,
		double dt, struct ovc_output *o)
{
	if(!ovc_meas_ok(m->cpu))
		return OVC_EINVAL;
	ovc_output_from_f(o, ovc_occupancy_step(&c->u.occupancy, m->cpu, dt));
	return OVC_OK;
}

static void occupancy_hold(struct ovc_ctl *c, double f)
{
	c->u.occupancy.f = f;
}

static void occupancy_release(struct ovc_ctl *c)
{
	c->u.occupancy.f = 1.0;
}

static unsigned occupancy_epoch_ms(const struct ovc_params *p)
{
	return p->occupancy.epoch_ms;
}

/* The CPU occupancy it steers to, fraction. */
static double occupancy_cpu_target(const struct ovc_params *p)
{
	return p->occupancy.target;
}

const struct ovc_alg_desc ovc_alg_occupancy = {
	.name = "occupancy",
	.traits = {.controlled = OVC_CLASS_BIT(OVC_CLASS_INVITE),
			.guarded = 1},
	.init = occupancy_init,
	.carry = occupancy_carry,
	.step = occupancy_step,
	.hold = occupancy_hold,
	.release = occupancy_release,
	.epoch_ms = occupancy_epoch_ms,
	.cpu_target = occupancy_cpu_target,
};
