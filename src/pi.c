/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the dual PI overload controller of 003 §IV (queue and CPU loops),
 * discretised for a period T as 003 §V does (T_c = T_m = 10 ms) and given
 * clamping anti-windup.
 *   queue loop, eq. 7:  u(t) = (K_pq e_q(t) + K_iq int e_q) / rho_M,
 *     q_T(t) = T_q rho_M r~(t), r~ = r filtered by 1/(1 + tau s),
 *     e_q = q - q_T (003 prints q_T - q; with u the drain rate of
 *     dq/dt = rho_M (r - u) only q - q_T gives a stable loop)
 *   CPU loop, eq. 8:    alpha(t) = K_pc e_c(t) + K_ic int e_c,
 *     e_c = C~ - C_T, C~ = C filtered by 1/(1 + tau_c s)
 * Tuned gains of 003 §VI-C: K_pc 3.5, K_ic 10.3, K_pq 19.2, K_iq 130.5;
 * T_q 50 ms, tau = tau_c = 0.1 s.
 */
#include <math.h>
#include <stddef.h>

#include "ovc/pi.h"
#include "ovc/types.h"

void ovc_pi_defaults(struct ovc_pi_params *p)
{
	p->kpc = 3.5;
	p->kic = 10.3;
	p->kpq = 19.2;
	p->kiq = 130.5;
	p->tq = 0.05;
	p->tau = 0.1;
	p->tau_c = 0.1;
	p->c_target = -1.0; /* derived: ovc_pi_c_target() */
	p->rho_m = 0.0; /* learned */
	p->u_max = 5.0;
	p->epoch_ms = 10;
}

static int nonneg(double v)
{
	return isfinite(v) && v >= 0.0;
}

static int pi_params_ok(const struct ovc_pi_params *p)
{
	return nonneg(p->kpc) && nonneg(p->kic) && nonneg(p->kpq) && nonneg(p->kiq)
		   && isfinite(p->tq) && p->tq > 0.0 && nonneg(p->tau)
		   && nonneg(p->tau_c) && isfinite(p->c_target) && p->c_target <= 1.0
		   && isfinite(p->rho_m) && p->rho_m >= 0.0 && isfinite(p->u_max)
		   && p->u_max > 0.0 && p->epoch_ms > 0;
}

static double clamp(double x, double lo, double hi)
{
	if(x < lo)
		return lo;
	if(x > hi)
		return hi;
	return x;
}

int ovc_pi_init(struct ovc_pi *s, const struct ovc_pi_params *p)
{
	if(s == NULL || p == NULL)
		return OVC_EINVAL;
	if(!pi_params_ok(p))
		return OVC_ERANGE;
	s->p = *p;
	ovc_ewma_init(&s->r_f, 1.0, 0.0, 1);
	ovc_ewma_init(&s->c_f, 1.0, 0.0, 1);
	s->iq = 0.0;
	s->ic = 0.0;
	s->q_t = 0.0;
	s->u = 0.0;
	s->alpha = 0.0;
	s->rho_m = p->rho_m > 0 ? p->rho_m : OVC_PI_RHO_M_START;
	s->c_t = ovc_pi_c_target(p, 0);
	s->expiry_s = 0.0;
	s->drain = -1.0;
	ovc_pishare_init(&s->share);
	return OVC_OK;
}

double ovc_pi_c_target(const struct ovc_pi_params *p, int quota)
{
	if(p->c_target > 0)
		return p->c_target;
	return quota ? 1.0 : OVC_PI_C_TARGET;
}

void ovc_pi_set_quota(struct ovc_pi *s, int quota)
{
	s->c_t = ovc_pi_c_target(&s->p, quota);
}

int ovc_pi_set_capacity(struct ovc_pi *s, double rho)
{
	if(s == NULL || !isfinite(rho) || rho <= 0.0)
		return OVC_EINVAL;
	if(s->p.rho_m > 0)
		return OVC_OK; /* configured */
	s->u = s->u * s->rho_m / rho; /* the same drain in INVITEs/s */
	s->rho_m = rho;
	s->iq = clamp(s->iq, 0.0, s->p.u_max * rho);
	s->u = clamp(s->u, 0.0, s->p.u_max);
	return OVC_OK;
}

int ovc_pi_reconfigure(struct ovc_pi *s, const struct ovc_pi_params *p)
{
	if(s == NULL || p == NULL)
		return OVC_EINVAL;
	if(!pi_params_ok(p))
		return OVC_ERANGE;
	s->p = *p;
	if(p->rho_m > 0)
		s->rho_m = p->rho_m;
	if(p->c_target > 0)
		s->c_t = p->c_target; /* else the derived one stays */
	s->iq = clamp(s->iq, 0.0, p->u_max * s->rho_m);
	s->u = clamp(s->u, 0.0, p->u_max);
	return OVC_OK;
}

double ovc_pi_tq(const struct ovc_pi_params *p, double expiry_s)
{
	double most;

	if(!isfinite(expiry_s) || expiry_s <= 0.0)
		return p->tq;
	most = OVC_PI_TQ_OF_EXPIRY * expiry_s;
	return p->tq < most ? p->tq : most;
}

void ovc_pi_set_queue_expiry(struct ovc_pi *s, double expiry_s)
{
	s->expiry_s = isfinite(expiry_s) && expiry_s > 0.0 ? expiry_s : 0.0;
}

double ovc_pi_tq_now(const struct ovc_pi *s)
{
	return ovc_pi_tq(&s->p, s->expiry_s);
}

/* One PI step with output range [lo, hi] and clamping anti-windup: the
 * integrator advances by ki dt e but, while the output is saturated, only
 * as far as needed to put the output exactly on the limit (never further
 * out than it already was), and it stays within [lo, hi]. Returns the
 * saturated output. */
static double pi_update(double *integ, double kp, double ki, double e,
		double dt, double lo, double hi)
{
	double i_new, edge;

	i_new = *integ + ki * dt * e;
	edge = hi - kp * e; /* integrator value that puts the output on hi */
	if(i_new > edge)
		i_new = *integ > edge ? (i_new < *integ ? i_new : *integ) : edge;
	edge = lo - kp * e; /* ... on lo */
	if(i_new < edge)
		i_new = *integ < edge ? (i_new > *integ ? i_new : *integ) : edge;
	i_new = clamp(i_new, lo, hi);
	*integ = i_new;
	return clamp(kp * e + i_new, lo, hi);
}

int ovc_pi_step(struct ovc_pi *s, double dt_s, double cpu, double q,
		double arrivals)
{
	double r, eq, ec, uq;

	if(!isfinite(dt_s) || dt_s <= 0.0 || !isfinite(cpu) || cpu < 0.0
			|| !isfinite(q) || q < 0.0 || !isfinite(arrivals)
			|| arrivals < 0.0)
		return OVC_EINVAL;
	r = arrivals / dt_s / s->rho_m;
	ovc_ewma_update_dt(&s->r_f, r, dt_s, s->p.tau);
	/* filtered as measured, clamped after the filter */
	ovc_ewma_update_dt(&s->c_f, ovc_cpu_reading(cpu), dt_s, s->p.tau_c);
	/* queue loop (eq. 7), in INVITEs/s, then normalised by rho_M */
	s->q_t = ovc_pi_tq_now(s) * s->rho_m * ovc_ewma_value(&s->r_f);
	eq = q - s->q_t;
	uq = pi_update(&s->iq, s->p.kpq, s->p.kiq, eq, dt_s, 0.0,
			s->p.u_max * s->rho_m);
	s->u = uq / s->rho_m;
	s->drain = uq;
	/* CPU loop (eq. 8) */
	ec = clamp(ovc_ewma_value(&s->c_f), 0.0, 1.0) - s->c_t;
	s->alpha = pi_update(&s->ic, s->p.kpc, s->p.kic, ec, dt_s, 0.0, 1.0);
	return OVC_OK;
}
