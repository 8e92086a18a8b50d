/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the dispatcher: one init/step interface over every controller.
 * It turns a struct ovc_measure into each algorithm's inputs, refuses
 * unusable measurements (repeating the last decision) and fills a struct
 * ovc_output that never holds NaN or inf.
 */
#include <math.h>
#include <string.h>

#include "ovc/controller.h"

/* Epoch of the baseline when nothing is controlled, ms. */
#define NONE_EPOCH_MS 1000

unsigned long ovc_ctl_size(void)
{
	return sizeof(struct ovc_ctl);
}

/* Output of a controller that yields one fraction f for the controlled
 * classes (INVITE in the default multi mode). */
static void output_from_f(struct ovc_output *o, double f)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->f = f;
	o->u = -1.0;
	o->alpha = 1.0 - f;
	o->p_reject[OVC_CLASS_INVITE] = 1.0 - f;
	for(i = 0; i < OVC_CLASS_COUNT; i++)
		o->burst_limit[i] = -1.0;
}

/* Builds the state of alg in *c from p. */
static int ctl_build(struct ovc_ctl *c, enum ovc_alg alg,
		const struct ovc_params *p)
{
	int rc;

	memset(c, 0, sizeof(*c));
	c->alg = alg;
	c->p = *p;
	switch(alg) {
		case OVC_ALG_NONE:
			rc = OVC_OK;
			break;
		case OVC_ALG_OCC:
			rc = ovc_occ_init(&c->u.occ, &p->occ);
			break;
		default:
			return OVC_EINVAL;
	}
	if(rc != OVC_OK)
		return rc;
	output_from_f(&c->last, 1.0);
	return OVC_OK;
}

int ovc_ctl_init(struct ovc_ctl *c, enum ovc_alg alg,
		const struct ovc_params *p)
{
	struct ovc_ctl tmp;
	int rc;

	if(c == NULL || p == NULL || (unsigned)alg >= OVC_ALG_COUNT)
		return OVC_EINVAL;
	rc = ctl_build(&tmp, alg, p);
	if(rc != OVC_OK)
		return rc;
	*c = tmp;
	return OVC_OK;
}

int ovc_ctl_reconfigure(struct ovc_ctl *c, const struct ovc_params *p)
{
	int rc;

	if(c == NULL || p == NULL)
		return OVC_EINVAL;
	switch(c->alg) {
		case OVC_ALG_NONE:
			c->p = *p;
			return OVC_OK;
		case OVC_ALG_OCC:
			rc = ovc_occ_reconfigure(&c->u.occ, &p->occ);
			break;
		default:
			return OVC_EINVAL;
	}
	if(rc == OVC_OK)
		c->p = *p;
	return rc;
}

unsigned ovc_ctl_epoch_ms(const struct ovc_ctl *c)
{
	switch(c->alg) {
		case OVC_ALG_BBC:
			return c->p.bbc.epoch_ms;
		case OVC_ALG_OCC:
			return c->p.occ.epoch_ms;
		case OVC_ALG_OCCUPANCY:
			return c->p.occupancy.epoch_ms;
		case OVC_ALG_ARO:
			return c->p.aro.epoch_ms;
		case OVC_ALG_SIRED:
			return c->p.sired.epoch_ms;
		case OVC_ALG_RSOCA:
			return c->p.rsoca.epoch_ms;
		case OVC_ALG_PI:
			return c->p.pi.epoch_ms;
		default:
			return NONE_EPOCH_MS;
	}
}

enum ovc_alg ovc_ctl_alg(const struct ovc_ctl *c)
{
	return c->alg;
}

void ovc_ctl_last(const struct ovc_ctl *c, struct ovc_output *out)
{
	*out = c->last;
}

/* A usable fraction measurement: finite and >= 0. */
static int meas_ok(double v)
{
	return isfinite(v) && v >= 0.0;
}

int ovc_ctl_step(struct ovc_ctl *c, const struct ovc_measure *m,
		ovc_time_ns now, struct ovc_output *out)
{
	struct ovc_output o;
	double dt;

	if(c == NULL || out == NULL)
		return OVC_EINVAL;
	if(m == NULL) {
		*out = c->last;
		return OVC_EINVAL;
	}
	dt = m->dt_s;
	if(!isfinite(dt) || dt <= 0.0) {
		if(!c->stepped || now <= c->last_now) {
			*out = c->last;
			return OVC_EINVAL;
		}
		dt = (double)(now - c->last_now) / (double)OVC_NS_PER_S;
	}
	(void)dt;
	switch(c->alg) {
		case OVC_ALG_NONE:
			output_from_f(&o, 1.0);
			break;
		case OVC_ALG_OCC:
			if(!meas_ok(m->cpu)) {
				*out = c->last;
				return OVC_EINVAL;
			}
			output_from_f(&o, ovc_occ_step(&c->u.occ, m->cpu));
			break;
		default:
			*out = c->last;
			return OVC_EINVAL;
	}
	c->last = o;
	c->last_now = now;
	c->stepped = 1;
	*out = o;
	return OVC_OK;
}
