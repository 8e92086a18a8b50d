/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the dual PI queue/CPU controller (ovc/pi.h) as a descriptor.
 */
#include <math.h>

#include "ovc/alg.h"

static int pi_init(struct ovc_ctl *c)
{
	int rc = ovc_pi_init(&c->u.pi, &c->p.pi);

	c->last.u = 0.0; /* the queue waits for pi's first drain rate */
	return rc;
}

static int pi_carry(struct ovc_ctl *n, const struct ovc_ctl *old)
{
	n->u.pi = old->u.pi;
	return ovc_pi_reconfigure(&n->u.pi, &n->p.pi);
}

static int pi_step(struct ovc_ctl *c, const struct ovc_measure *m,
		double dt, struct ovc_output *o)
{
	int rc;

	if(!ovc_meas_ok(m->cpu) || !ovc_meas_ok(m->queue_len)
			|| !ovc_meas_ok(m->offered[OVC_CLASS_INVITE]))
		return OVC_EINVAL;
	rc = ovc_pi_step(&c->u.pi, dt, m->cpu, m->queue_len,
			m->offered[OVC_CLASS_INVITE]);
	if(rc != OVC_OK)
		return rc;
	ovc_output_from_f(o, 1.0 - c->u.pi.alpha);
	o->alpha = c->u.pi.alpha;
	o->u = c->u.pi.u;
	return OVC_OK;
}

/* The CPU loop lets go; the queue loop (the drain rate) is kept. */
static void pi_release(struct ovc_ctl *c)
{
	c->u.pi.ic = 0.0;
	c->u.pi.alpha = 0.0;
}

static unsigned pi_epoch_ms(const struct ovc_params *p)
{
	return p->pi.epoch_ms;
}

static double pi_drain_rate(const struct ovc_ctl *c, const struct ovc_output *o)
{
	if(!isfinite(o->u) || o->u < 0)
		return -1.0;
	return o->u * c->u.pi.rho_m;
}

static double pi_queue_target_s(const struct ovc_params *p)
{
	return p->pi.tq;
}

static void pi_set_capacity(struct ovc_ctl *c, double rho)
{
	ovc_pi_set_capacity(&c->u.pi, rho);
}

const struct ovc_alg_desc ovc_alg_pi = {
	.name = "pi",
	.traits = {.controlled = OVC_CLASS_BIT(OVC_CLASS_INVITE),
			.queued = 1,
			.paces_queue = 1,
			.guarded = 1},
	.init = pi_init,
	.carry = pi_carry,
	.step = pi_step,
	.release = pi_release,
	.epoch_ms = pi_epoch_ms,
	.drain_rate = pi_drain_rate,
	.queue_target_s = pi_queue_target_s,
	.set_capacity = pi_set_capacity,
};
