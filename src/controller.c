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
		case OVC_ALG_BBC:
			rc = ovc_bbc_init(&c->u.bbc, &p->bbc);
			break;
		case OVC_ALG_OCC:
			rc = ovc_occ_init(&c->u.occ, &p->occ);
			break;
		case OVC_ALG_OCCUPANCY:
			rc = ovc_occupancy_init(&c->u.occupancy, &p->occupancy);
			break;
		case OVC_ALG_ARO:
			rc = ovc_aro_init(&c->u.aro, &p->aro);
			break;
		case OVC_ALG_SIRED:
			rc = ovc_sired_init(&c->u.sired, &p->sired);
			break;
		case OVC_ALG_RSOCA:
			rc = ovc_rsoca_init(&c->u.rsoca, &p->rsoca);
			break;
		case OVC_ALG_PI:
			rc = ovc_pi_init(&c->u.pi, &p->pi);
			break;
		default:
			return OVC_EINVAL;
	}
	if(rc != OVC_OK)
		return rc;
	output_from_f(&c->last, 1.0);
	if(alg == OVC_ALG_PI)
		c->last.u = 0.0;
	return OVC_OK;
}

/* Carries an EWMA's value over to a freshly initialised one. */
static void ewma_carry(struct ovc_ewma *to, const struct ovc_ewma *from)
{
	to->v = from->v;
	to->primed = from->primed;
}

/* f carried over a reconfiguration, within the new [f_min, 1]. */
static double f_carry(double f, double f_min)
{
	return f < f_min ? f_min : f;
}

/* Builds the new state of c's algorithm from p in *n, keeping from c what
 * the algorithm allows: f, the averages, the windows when k is the same,
 * integrators and filters. */
static int ctl_rebuild(struct ovc_ctl *n, const struct ovc_ctl *c,
		const struct ovc_params *p)
{
	int rc;

	rc = ctl_build(n, c->alg, p);
	if(rc != OVC_OK)
		return rc;
	n->last = c->last;
	n->last_now = c->last_now;
	n->stepped = c->stepped;
	switch(c->alg) {
		case OVC_ALG_BBC:
			n->u.bbc = c->u.bbc;
			return ovc_bbc_reconfigure(&n->u.bbc, &p->bbc);
		case OVC_ALG_OCC:
			n->u.occ = c->u.occ;
			return ovc_occ_reconfigure(&n->u.occ, &p->occ);
		case OVC_ALG_OCCUPANCY:
			if(p->occupancy.k == c->p.occupancy.k)
				n->u.occupancy.win = c->u.occupancy.win;
			ewma_carry(&n->u.occupancy.rho_hat, &c->u.occupancy.rho_hat);
			n->u.occupancy.rho = c->u.occupancy.rho;
			n->u.occupancy.f = f_carry(c->u.occupancy.f, p->occupancy.f_min);
			break;
		case OVC_ALG_ARO:
			if(p->aro.k == c->p.aro.k) {
				n->u.aro.rho_win = c->u.aro.rho_win;
				n->u.aro.acc_win = c->u.aro.acc_win;
			}
			ewma_carry(&n->u.aro.rho_hat, &c->u.aro.rho_hat);
			n->u.aro.rho = c->u.aro.rho;
			n->u.aro.alpha = c->u.aro.alpha;
			n->u.aro.f = f_carry(c->u.aro.f, p->aro.f_min);
			break;
		case OVC_ALG_SIRED:
			ewma_carry(&n->u.sired.q_hat, &c->u.sired.q_hat);
			n->u.sired.f = ovc_sired_f_of(
					&p->sired, ovc_ewma_value(&n->u.sired.q_hat));
			break;
		case OVC_ALG_RSOCA:
			ewma_carry(&n->u.rsoca.c_hat, &c->u.rsoca.c_hat);
			n->u.rsoca.p_hat = c->u.rsoca.p_hat;
			break;
		case OVC_ALG_PI:
			n->u.pi = c->u.pi;
			return ovc_pi_reconfigure(&n->u.pi, &p->pi);
		default:
			break;
	}
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
	struct ovc_ctl n;
	int rc;

	if(c == NULL || p == NULL)
		return OVC_EINVAL;
	rc = ctl_rebuild(&n, c, p);
	if(rc != OVC_OK)
		return rc;
	*c = n;
	return OVC_OK;
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

/* A usable measurement: finite and >= 0. */
static int meas_ok(double v)
{
	return isfinite(v) && v >= 0.0;
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
		if(!meas_ok(m->admitted[i]) || !meas_ok(m->offered[i]))
			return 0;
		a += m->admitted[i];
		t += m->offered[i];
	}
	*accepted = a > t ? t : a;
	*total = t;
	return 1;
}

/* Runs the algorithm on m over dt seconds into *o. Returns OVC_OK or
 * OVC_EINVAL (state untouched). */
static int ctl_run(struct ovc_ctl *c, const struct ovc_measure *m, double dt,
		struct ovc_output *o)
{
	double a, t, q;
	int i, rc;

	switch(c->alg) {
		case OVC_ALG_NONE:
			output_from_f(o, 1.0);
			return OVC_OK;
		case OVC_ALG_BBC:
			if(!meas_ok(m->queue_len))
				return OVC_EINVAL;
			output_from_f(o, ovc_bbc_step(&c->u.bbc, m->queue_len));
			return OVC_OK;
		case OVC_ALG_OCC:
			if(!meas_ok(m->cpu))
				return OVC_EINVAL;
			output_from_f(o, ovc_occ_step(&c->u.occ, m->cpu));
			return OVC_OK;
		case OVC_ALG_OCCUPANCY:
			if(!meas_ok(m->cpu))
				return OVC_EINVAL;
			output_from_f(
					o, ovc_occupancy_step(&c->u.occupancy, m->cpu, dt));
			return OVC_OK;
		case OVC_ALG_ARO:
			if(!meas_ok(m->cpu) || !acceptance_counts(m, &a, &t))
				return OVC_EINVAL;
			output_from_f(o, ovc_aro_step(&c->u.aro, m->cpu, dt, a, t));
			return OVC_OK;
		case OVC_ALG_SIRED:
			if(!meas_ok(m->queue_len) || !isfinite(m->queue_cap)
					|| m->queue_cap <= 0.0)
				return OVC_EINVAL;
			q = m->queue_len / m->queue_cap;
			output_from_f(o, ovc_sired_step(&c->u.sired, q));
			return OVC_OK;
		case OVC_ALG_RSOCA:
			if(!(m->cpu >= 0.0 || m->mem >= 0.0))
				return OVC_EINVAL; /* nothing measured (or NaN) */
			rc = ovc_rsoca_step(&c->u.rsoca, m->cpu, m->mem, dt, m->dlg,
					m->invite_ok);
			if(rc != OVC_OK)
				return rc;
			a = c->u.rsoca.p_reject;
			output_from_f(o, 1.0 - a);
			o->p_reject[OVC_CLASS_INVITE] = a;
			o->p_reject[OVC_CLASS_REGISTER] = a;
			o->p_reject[OVC_CLASS_OTHER] = a;
			o->p_reject[OVC_CLASS_INDIALOG] = 0.0;
			for(i = 0; i < OVC_DLG_COUNT; i++)
				o->p_drop[i] = c->u.rsoca.p_drop[i];
			for(i = 0; i < OVC_CLASS_COUNT; i++)
				o->burst_limit[i] = ovc_rsoca_burst_limit(&c->p.rsoca,
						(enum ovc_class)i,
						(double)c->p.rsoca.epoch_ms / 1000.0);
			return OVC_OK;
		case OVC_ALG_PI:
			if(!meas_ok(m->cpu) || !meas_ok(m->queue_len)
					|| !meas_ok(m->offered[OVC_CLASS_INVITE]))
				return OVC_EINVAL;
			rc = ovc_pi_step(&c->u.pi, dt, m->cpu, m->queue_len,
					m->offered[OVC_CLASS_INVITE]);
			if(rc != OVC_OK)
				return rc;
			output_from_f(o, 1.0 - c->u.pi.alpha);
			o->alpha = c->u.pi.alpha;
			o->u = c->u.pi.u;
			return OVC_OK;
		default:
			return OVC_EINVAL;
	}
}

void ovc_ctl_set_capacity(struct ovc_ctl *c, double rho)
{
	if(c->alg == OVC_ALG_PI)
		ovc_pi_set_capacity(&c->u.pi, rho);
}

double ovc_ctl_drain_rate(const struct ovc_ctl *c, const struct ovc_output *o)
{
	if(c->alg != OVC_ALG_PI || !isfinite(o->u) || o->u < 0)
		return -1.0;
	return o->u * c->u.pi.rho_m;
}

double ovc_ctl_queue_target_s(const struct ovc_ctl *c)
{
	return c->alg == OVC_ALG_PI ? c->p.pi.tq : 0.0;
}

void ovc_ctl_release(struct ovc_ctl *c)
{
	double u = c->last.u;

	switch(c->alg) {
		case OVC_ALG_BBC:
			c->u.bbc.overload = 0;
			c->u.bbc.f = 1.0;
			break;
		case OVC_ALG_OCC:
			c->u.occ.f = 1.0;
			break;
		case OVC_ALG_OCCUPANCY:
			c->u.occupancy.f = 1.0;
			break;
		case OVC_ALG_ARO:
			c->u.aro.f = 1.0;
			c->u.aro.f_rho = 1.0;
			c->u.aro.f_alpha = 1.0;
			break;
		case OVC_ALG_RSOCA:
			c->u.rsoca.p_hat = 0.0;
			c->u.rsoca.p_reject = 0.0;
			break;
		case OVC_ALG_PI:
			c->u.pi.ic = 0.0;
			c->u.pi.alpha = 0.0;
			break;
		default:
			return; /* none; sired's f is a function of its q^ */
	}
	c->last.f = 1.0;
	c->last.alpha = 0.0;
	c->last.u = u;
	c->last.p_reject[OVC_CLASS_INVITE] = 0.0;
	c->last.p_reject[OVC_CLASS_REGISTER] = 0.0;
	c->last.p_reject[OVC_CLASS_OTHER] = 0.0;
}

int ovc_ctl_step(struct ovc_ctl *c, const struct ovc_measure *m,
		ovc_time_ns now, struct ovc_output *out)
{
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
	rc = ctl_run(c, m, dt, &o);
	if(rc != OVC_OK) {
		*out = c->last;
		return rc;
	}
	c->last = o;
	c->last_now = now;
	c->stepped = 1;
	*out = o;
	return OVC_OK;
}
