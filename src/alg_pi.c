/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the dual PI queue/CPU controller (ovc/pi.h) as a descriptor.
 */
#include <math.h>

#include "ovc/alg.h"
#include "ovc/pi.h"

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

/* The CPU pi's CPU loop holds at C_T, fraction of capacity: all of it,
 * refusing included (003 eq. 1: C = u (1 - alpha) + u alpha / beta).
 * Left out, the refusals at the queue's output and its expiries take the
 * CPU beyond its capacity while the loop sees its target met: the workers
 * fall behind and the queue sits at its expiry (t_queue, 2026-11-25). */
static double pi_cpu(const struct ovc_measure *m)
{
	return m->cpu + (ovc_meas_ok(m->cpu_reject) ? m->cpu_reject : 0.0);
}

/* The queue loop's r is the rate into the queue (003 eq. 7: q_T = T_q
 * rho_M r~): with the arrival share below 1 fewer INVITEs enter it than
 * arrive, and a target sized for all of them would make the wait T_q /
 * f_arr (bench/RESULTS.md, "at arrival vs at dequeue"). Not counted (no
 * in-core queue): all arrivals. */
static double pi_queue_in(const struct ovc_measure *m)
{
	return ovc_meas_ok(m->queue_in) ? m->queue_in
									: m->offered[OVC_CLASS_INVITE];
}

/* The INVITEs pi's arrival share applies to: those offered, less those
 * decided before it. Its fraction is of these, so that what it lets in is
 * its margin times what pi admits, whatever was refused before it: at 16x
 * under -x tlsf (2026-11-27) three in four arrivals were retransmissions
 * of calls the kernel stage had dropped, refused as late before the
 * share, and a share of all arrivals let in a quarter of its margin: pi's
 * admitted rate fell to 5 calls/s with the CPU half idle. */
static double pi_share_offered(const struct ovc_measure *m)
{
	double o = m->offered[OVC_CLASS_INVITE];
	double s = ovc_meas_ok(m->share_skipped) ? m->share_skipped : 0.0;

	return o > s ? o - s : 0.0;
}

static int pi_step(struct ovc_ctl *c, const struct ovc_measure *m,
		double dt, struct ovc_output *o)
{
	struct ovc_pi *pi = &c->u.pi;
	double adm = m->admitted[OVC_CLASS_INVITE];
	struct ovc_pishare_queue qs;
	int rc;

	if(!ovc_meas_ok(m->cpu) || !ovc_meas_ok(m->queue_len)
			|| !ovc_meas_ok(m->offered[OVC_CLASS_INVITE]))
		return OVC_EINVAL;
	ovc_pi_set_quota(pi, m->stall_ms > 0);
	ovc_pi_set_queue_expiry(pi, m->queue_expiry_s);
	/* the drain in force over the period: the last step's */
	qs.paced = pi->drain >= 0 ? pi->drain * dt : -1.0;
	qs.drained = ovc_meas_ok(m->queue_out) ? m->queue_out : -1.0;
	rc = ovc_pi_step(pi, dt, pi_cpu(m), m->queue_len, pi_queue_in(m));
	if(rc != OVC_OK)
		return rc;
	qs.q = m->queue_len;
	qs.q_t = pi->q_t;
	ovc_pishare_step(&pi->share, dt, pi_share_offered(m),
			ovc_meas_ok(adm) ? adm : 0.0, &qs, ovc_pi_tq_now(pi), pi->p.tau);
	ovc_output_from_f(o, 1.0 - pi->alpha);
	o->alpha = pi->alpha;
	o->u = pi->u;
	o->f_arrival = pi->share.f;
	return OVC_OK;
}

/* The CPU loop lets go; the queue loop (the drain rate) is kept. */
static void pi_release(struct ovc_ctl *c)
{
	c->u.pi.ic = 0.0;
	c->u.pi.alpha = 0.0;
	c->u.pi.drain = -1.0; /* the queue drains freely until the next step */
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

static double pi_queue_target_s(const struct ovc_ctl *c)
{
	return ovc_pi_tq_now(&c->u.pi);
}

/* It refuses, at arrival (the share) and at the queue's output (alpha)
 * together, more than twice the CPU headroom it keeps (1 - f_arr (1 -
 * alpha) > 2 (1 - C_T), C_T in force): the offered work exceeds the whole
 * CPU by the headroom again (C_T / (1 - 2 (1 - C_T)), 1.125 at C_T 0.9),
 * beyond what the noise of a proxy at its capacity (a refused share about
 * 1 - C_T) reaches; under a quota (C_T 1), any refusal. */
static int pi_hides_overload(
		const struct ovc_ctl *c, const struct ovc_output *o)
{
	double refused = 1.0 - o->f_arrival * (1.0 - o->alpha);

	return isfinite(refused) && refused > 2.0 * (1.0 - c->u.pi.c_t);
}

static void pi_set_capacity(struct ovc_ctl *c, double rho)
{
	ovc_pi_set_capacity(&c->u.pi, rho);
}

/* The CPU occupancy it steers to, fraction: C_T of a dedicated CPU
 * (under a quota the C_T in force is 1, ovc_pi_c_target()). */
static double pi_cpu_target(const struct ovc_params *p)
{
	return ovc_pi_c_target(&p->pi, 0);
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
	.cpu_target = pi_cpu_target,
	.drain_rate = pi_drain_rate,
	.queue_target_s = pi_queue_target_s,
	.queue_target_param = "pi.tq",
	.hides_overload = pi_hides_overload,
	.set_capacity = pi_set_capacity,
};
