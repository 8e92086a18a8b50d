/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - R-SOCA (ovc/rsoca.h) as a descriptor.
 */
#include <math.h>

#include "ovc/alg.h"
#include "ovc/rsoca.h"

static int rsoca_init(struct ovc_ctl *c)
{
	return ovc_rsoca_init(&c->u.rsoca, &c->p.rsoca);
}

/* Keeps the smoothed CPU load and reject probability. */
static int rsoca_carry(struct ovc_ctl *n, const struct ovc_ctl *old)
{
	n->u.rsoca.c_hat.v = old->u.rsoca.c_hat.v;
	n->u.rsoca.c_hat.primed = old->u.rsoca.c_hat.primed;
	n->u.rsoca.p_hat = old->u.rsoca.p_hat;
	return OVC_OK;
}

/* One reject probability for every out-of-dialog class, the DoS drop
 * probabilities of the in-dialog types and the burst limits (004). */
static int rsoca_step(struct ovc_ctl *c, const struct ovc_measure *m,
		double dt, struct ovc_output *o)
{
	const struct ovc_rsoca *s = &c->u.rsoca;
	double a;
	int i, rc;

	if(!(m->cpu >= 0.0 || m->mem >= 0.0))
		return OVC_EINVAL; /* nothing measured (or NaN) */
	rc = ovc_rsoca_step(&c->u.rsoca, m->cpu, m->mem, dt, m->dlg,
			m->invite_ok);
	if(rc != OVC_OK)
		return rc;
	a = s->p_reject;
	ovc_output_from_f(o, 1.0 - a);
	o->p_reject[OVC_CLASS_INVITE] = a;
	o->p_reject[OVC_CLASS_REGISTER] = a;
	o->p_reject[OVC_CLASS_OTHER] = a;
	o->p_reject[OVC_CLASS_INDIALOG] = 0.0;
	o->p_cpu = s->p_cpu;
	o->p_mem = s->p_mem;
	for(i = 0; i < OVC_DLG_COUNT; i++)
		o->p_drop[i] = s->p_drop[i];
	for(i = 0; i < OVC_CLASS_COUNT; i++)
		o->burst_limit[i] = ovc_rsoca_burst_limit(&c->p.rsoca,
				(enum ovc_class)i, (double)c->p.rsoca.epoch_ms / 1000.0);
	return OVC_OK;
}

static void rsoca_release(struct ovc_ctl *c)
{
	c->u.rsoca.p_hat = 0.0;
	c->u.rsoca.p_reject = 0.0;
}

static unsigned rsoca_epoch_ms(const struct ovc_params *p)
{
	return p->rsoca.epoch_ms;
}

const struct ovc_alg_desc ovc_alg_rsoca = {
	.name = "rsoca",
	.traits = {.controlled = OVC_CLASS_BIT(OVC_CLASS_INVITE)
							 | OVC_CLASS_BIT(OVC_CLASS_REGISTER)
							 | OVC_CLASS_BIT(OVC_CLASS_OTHER),
			.guarded = 1,
			.own_reply = 1,
			.dialog_limits = 1,
			.tracks_transactions = 1},
	.init = rsoca_init,
	.carry = rsoca_carry,
	.step = rsoca_step,
	.release = rsoca_release,
	.epoch_ms = rsoca_epoch_ms,
};
