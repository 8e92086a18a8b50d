/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - ARO (ovc/aro.h) as a descriptor.
 */
#include <math.h>

#include "ovc/alg.h"
#include "ovc/aro.h"

static int aro_init(struct ovc_ctl *c)
{
	return ovc_aro_init(&c->u.aro, &c->p.aro);
}

/* Keeps the windows when k is the same, the average, rho, alpha and f
 * (within the new f_min). */
static int aro_carry(struct ovc_ctl *n, const struct ovc_ctl *old)
{
	const struct ovc_aro *o = &old->u.aro;
	struct ovc_aro *s = &n->u.aro;

	if(n->p.aro.k == old->p.aro.k) {
		s->rho_win = o->rho_win;
		s->acc_win = o->acc_win;
	}
	s->rho_hat.v = o->rho_hat.v;
	s->rho_hat.primed = o->rho_hat.primed;
	s->rho = o->rho;
	s->alpha = o->alpha;
	s->f = o->f < n->p.aro.f_min ? n->p.aro.f_min : o->f;
	return OVC_OK;
}

/* Sums of admitted and offered over every class (001 eq. 4 counts all
 * packets). admitted may exceed offered in an epoch (dequeued INVITEs are
 * admitted later): accepted is capped at total. */
static int acceptance_counts(
		const struct ovc_measure *m, double *accepted, double *total)
{
	double a = 0.0, t = 0.0;
	int i;

	for(i = 0; i < OVC_CLASS_COUNT; i++) {
		if(!ovc_meas_ok(m->admitted[i]) || !ovc_meas_ok(m->offered[i]))
			return 0;
		a += m->admitted[i];
		t += m->offered[i];
	}
	*accepted = a > t ? t : a;
	*total = t;
	return 1;
}

static int aro_step(struct ovc_ctl *c, const struct ovc_measure *m,
		double dt, struct ovc_output *o)
{
	double a, t;

	if(!ovc_meas_ok(m->cpu) || !acceptance_counts(m, &a, &t))
		return OVC_EINVAL;
	ovc_output_from_f(o, ovc_aro_step(&c->u.aro, m->cpu, dt, a, t));
	return OVC_OK;
}

static void aro_hold(struct ovc_ctl *c, double f)
{
	c->u.aro.f = f;
}

static void aro_release(struct ovc_ctl *c)
{
	c->u.aro.f = 1.0;
	c->u.aro.f_rho = 1.0;
	c->u.aro.f_alpha = 1.0;
}

static unsigned aro_epoch_ms(const struct ovc_params *p)
{
	return p->aro.epoch_ms;
}

/* The CPU occupancy it steers to, fraction. */
static double aro_cpu_target(const struct ovc_params *p)
{
	return p->aro.rho_target;
}

const struct ovc_alg_desc ovc_alg_aro = {
	.name = "aro",
	.traits = {.controlled = OVC_CLASS_BIT(OVC_CLASS_INVITE),
			.guarded = 1},
	.init = aro_init,
	.carry = aro_carry,
	.step = aro_step,
	.hold = aro_hold,
	.release = aro_release,
	.epoch_ms = aro_epoch_ms,
	.cpu_target = aro_cpu_target,
};
