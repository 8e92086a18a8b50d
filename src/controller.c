/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the dispatcher: one init/step interface over every controller,
 * each run through its descriptor (ovc/alg.h). It refuses unusable
 * measurements (repeating the last decision) and hands out a struct
 * ovc_output that never holds NaN or inf.
 */
#include <math.h>
#include <string.h>

#include "ovc/alg.h"
#include "ovc/controller.h"

unsigned long ovc_ctl_size(void)
{
	return sizeof(struct ovc_ctl);
}

/* The descriptor of the algorithm c runs. */
static const struct ovc_alg_desc *desc_of(const struct ovc_ctl *c)
{
	return ovc_alg_desc(c->alg);
}

/* Builds the state of alg in *c from p. */
static int ctl_build(struct ovc_ctl *c, enum ovc_alg alg,
		const struct ovc_params *p)
{
	const struct ovc_alg_desc *d = ovc_alg_desc(alg);

	if(d == NULL)
		return OVC_EINVAL;
	memset(c, 0, sizeof(*c));
	c->alg = alg;
	c->p = *p;
	ovc_output_from_f(&c->last, 1.0);
	return d->init(c);
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
	const struct ovc_alg_desc *d;
	struct ovc_ctl n;
	int rc;

	if(c == NULL || p == NULL || (d = desc_of(c)) == NULL)
		return OVC_EINVAL;
	rc = ctl_build(&n, c->alg, p);
	if(rc != OVC_OK)
		return rc;
	n.last = c->last;
	n.last_now = c->last_now;
	n.stepped = c->stepped;
	if(d->carry != NULL && (rc = d->carry(&n, c)) != OVC_OK)
		return rc;
	*c = n;
	return OVC_OK;
}

unsigned ovc_ctl_epoch_ms(const struct ovc_ctl *c)
{
	return desc_of(c)->epoch_ms(&c->p);
}

enum ovc_alg ovc_ctl_alg(const struct ovc_ctl *c)
{
	return c->alg;
}

const struct ovc_alg_traits *ovc_ctl_traits(const struct ovc_ctl *c)
{
	return &desc_of(c)->traits;
}

void ovc_ctl_last(const struct ovc_ctl *c, struct ovc_output *out)
{
	*out = c->last;
}

void ovc_ctl_set_capacity(struct ovc_ctl *c, double rho)
{
	const struct ovc_alg_desc *d = desc_of(c);

	if(d->set_capacity != NULL)
		d->set_capacity(c, rho);
}

double ovc_ctl_drain_rate(const struct ovc_ctl *c, const struct ovc_output *o)
{
	const struct ovc_alg_desc *d = desc_of(c);

	return d->drain_rate != NULL ? d->drain_rate(c, o) : -1.0;
}

double ovc_ctl_queue_target_s(const struct ovc_ctl *c)
{
	const struct ovc_alg_desc *d = desc_of(c);

	return d->queue_target_s != NULL ? d->queue_target_s(c) : 0.0;
}

double ovc_ctl_queue_target_asked_s(const struct ovc_ctl *c, const char **param)
{
	const struct ovc_alg_desc *d = desc_of(c);
	double v = 0.0;

	if(param != NULL)
		*param = NULL;
	if(d->queue_target_param == NULL
			|| ovc_param_get(&c->p, d->queue_target_param, &v) != OVC_OK)
		return 0.0;
	if(param != NULL)
		*param = d->queue_target_param;
	return v;
}

int ovc_ctl_hides_overload(const struct ovc_ctl *c, const struct ovc_output *o)
{
	const struct ovc_alg_desc *d = desc_of(c);

	return d->hides_overload != NULL && o != NULL && d->hides_overload(c, o);
}

void ovc_ctl_release(struct ovc_ctl *c)
{
	const struct ovc_alg_desc *d = desc_of(c);

	if(d->release == NULL)
		return; /* none; sired's f is a function of its q^ */
	d->release(c);
	c->last.f = 1.0;
	c->last.alpha = 0.0;
	c->last.f_arrival = 1.0;
	c->last.p_reject[OVC_CLASS_INVITE] = 0.0;
	c->last.p_reject[OVC_CLASS_REGISTER] = 0.0;
	c->last.p_reject[OVC_CLASS_OTHER] = 0.0;
}

int ovc_ctl_step(struct ovc_ctl *c, const struct ovc_measure *m,
		ovc_time_ns now, struct ovc_output *out)
{
	const struct ovc_alg_desc *d;
	struct ovc_output o;
	double dt;
	int rc;

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
	d = desc_of(c);
	rc = d->step(c, m, dt, &o);
	if(rc != OVC_OK) {
		*out = c->last;
		return rc;
	}
	if(m->age_refused > 0 && d->hold != NULL && o.f < c->last.f) {
		d->hold(c, c->last.f); /* the age limit refuses the excess */
		ovc_output_from_f(&o, c->last.f);
	}
	c->last = o;
	c->last_now = now;
	c->stepped = 1;
	*out = o;
	return OVC_OK;
}
