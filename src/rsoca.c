/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - R-SOCA, Sisalem & Floroiu (004 §III):
 *   C^_T  = C^_{T-1} (1 - sigma) + C_T sigma                         (eq. 7)
 *   P^R_T = 0 | (R_T - R_min) / (R_max - R_min) | 1                  (eq. 1)
 *   P_T   = max_R P^R_T;  P^_T = P^_{T-1} (1 - sigma) + P_T sigma     (eq. 2)
 *   P^_T <= 0.05: not overloaded (no rejection); any P^R_T = 1: P^_T = 1.
 *   p^n < p_pass  =>  p < p_pass^(1/n)                            (eq. 3-4)
 *   D_en = max(E_I, I) B_en            (BYE, UPDATE, ...)           (eq. 5)
 *   D_en = max(E_I, I) B_en N_r        (re-INVITE)                  (eq. 6)
 *   drop probability of a type with D > D_en: (D - D_en) / D      (§III-B)
 *   burst: more than B_en E arrivals of a class per interval are
 *   rejected                                                      (§III-C)
 *   M_min = S (E_I T_I + E_D T_O + E_O T_O + E_R T_R), M_max = M_min B
 *                                                                (eq. 8-9)
 * Defaults from 004 §III-IV: C_min 0.2, C_max 0.4, sigma 0.6, dead zone
 * 0.05, E_I 1000/s, B_en 1.7, p_pass 0.1, n 10.
 */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "ovc/rsoca.h"

void ovc_rsoca_defaults(struct ovc_rsoca_params *p)
{
	p->cmin = 0.2;
	p->cmax = 0.4;
	p->mmin = 0.8;
	p->mmax = 0.95;
	p->sigma = 0.6;
	p->sigma_c = 0.6;
	p->dead = 0.05;
	p->ei = 1000.0;
	p->ed = 0.0;
	p->er = 0.0;
	p->eo = 0.0;
	p->ben = 1.7;
	p->nr = 1.0;
	p->ppass = 0.1;
	p->nretx = 10;
	p->epoch_ms = 1000;
	p->reject_code = 500;
	p->tretry = 5;
}

static int fin_ge(double v, double lo)
{
	return isfinite(v) && v >= lo;
}

static int rsoca_params_ok(const struct ovc_rsoca_params *p)
{
	return fin_ge(p->cmin, 0.0) && isfinite(p->cmax) && p->cmin < p->cmax
		   && fin_ge(p->mmin, 0.0) && isfinite(p->mmax) && p->mmin < p->mmax
		   && isfinite(p->sigma) && p->sigma > 0.0 && p->sigma <= 1.0
		   && isfinite(p->sigma_c) && p->sigma_c > 0.0 && p->sigma_c <= 1.0
		   && fin_ge(p->dead, 0.0) && p->dead < 1.0 && fin_ge(p->ei, 0.0)
		   && fin_ge(p->ed, 0.0) && fin_ge(p->er, 0.0) && fin_ge(p->eo, 0.0)
		   && fin_ge(p->ben, 1.0) && fin_ge(p->nr, 0.0)
		   && fin_ge(p->ppass, 0.0) && p->ppass <= 1.0 && p->nretx >= 1
		   && p->epoch_ms > 0
		   && (p->reject_code == 500 || p->reject_code == 503);
}

int ovc_rsoca_init(struct ovc_rsoca *s, const struct ovc_rsoca_params *p)
{
	if(s == NULL || p == NULL)
		return OVC_EINVAL;
	if(!rsoca_params_ok(p))
		return OVC_ERANGE;
	memset(s, 0, sizeof(*s));
	s->p = *p;
	ovc_ewma_init(&s->c_hat, p->sigma_c, 0.0, 1);
	return OVC_OK;
}

double ovc_rsoca_ramp(double x, double rmin, double rmax)
{
	if(!(x > rmin))
		return 0.0;
	if(x >= rmax)
		return 1.0;
	return (x - rmin) / (rmax - rmin);
}

/* x^(1/n) for x in [0, 1], n >= 1, by bisection (libc only). */
static double nth_root(double x, unsigned n)
{
	double lo = 0.0, hi = 1.0, mid, pw;
	unsigned i, j;

	if(x <= 0.0)
		return 0.0;
	if(x >= 1.0 || n == 1)
		return x >= 1.0 ? 1.0 : x;
	for(i = 0; i < 60; i++) {
		mid = 0.5 * (lo + hi);
		pw = 1.0;
		for(j = 0; j < n; j++)
			pw *= mid;
		if(pw < x)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

double ovc_rsoca_drop_cap(const struct ovc_rsoca_params *p)
{
	return nth_root(p->ppass, p->nretx);
}

double ovc_rsoca_d_en(const struct ovc_rsoca_params *p, enum ovc_dlg t,
		double invite_ok, double dt_s)
{
	double base = p->ei * dt_s;

	if(invite_ok > base)
		base = invite_ok;
	base *= p->ben;
	return t == OVC_DLG_REINVITE ? base * p->nr : base;
}

double ovc_rsoca_dos_drop(const struct ovc_rsoca_params *p, enum ovc_dlg t,
		double d, double invite_ok, double dt_s)
{
	double den, drop, cap;

	if((unsigned)t >= OVC_DLG_COUNT || !isfinite(d) || d <= 0.0
			|| !isfinite(invite_ok) || invite_ok < 0.0 || !isfinite(dt_s)
			|| dt_s <= 0.0)
		return 0.0;
	den = ovc_rsoca_d_en(p, t, invite_ok, dt_s);
	if(d <= den)
		return 0.0;
	drop = (d - den) / d;
	cap = nth_root(p->ppass, p->nretx);
	return drop < cap ? drop : cap;
}

double ovc_rsoca_burst_limit(const struct ovc_rsoca_params *p,
		enum ovc_class c, double dt_s)
{
	double e;

	switch(c) {
		case OVC_CLASS_INVITE:
			e = p->ei;
			break;
		case OVC_CLASS_INDIALOG:
			e = p->ed;
			break;
		case OVC_CLASS_REGISTER:
			e = p->er;
			break;
		case OVC_CLASS_OTHER:
			e = p->eo;
			break;
		default:
			return -1.0;
	}
	if(e <= 0.0 || !isfinite(dt_s) || dt_s <= 0.0)
		return -1.0;
	return floor(p->ben * e * dt_s);
}

int ovc_rsoca_mem_thresholds(const struct ovc_rsoca_mem_model *m,
		double *mmin_bytes, double *mmax_bytes)
{
	double v;

	if(m == NULL)
		return OVC_EINVAL;
	if(!fin_ge(m->ei, 0.0) || !fin_ge(m->ed, 0.0) || !fin_ge(m->er, 0.0)
			|| !fin_ge(m->eo, 0.0) || !fin_ge(m->ti, 0.0)
			|| !fin_ge(m->to, 0.0) || !fin_ge(m->tr, 0.0)
			|| !fin_ge(m->s, 0.0) || !isfinite(m->b) || m->b <= 1.0)
		return OVC_ERANGE;
	v = m->s
		* (m->ei * m->ti + m->ed * m->to + m->eo * m->to + m->er * m->tr);
	if(!isfinite(v) || !isfinite(v * m->b))
		return OVC_ERANGE;
	if(mmin_bytes != NULL)
		*mmin_bytes = v;
	if(mmax_bytes != NULL)
		*mmax_bytes = v * m->b;
	return OVC_OK;
}

int ovc_rsoca_step(struct ovc_rsoca *s, double cpu, double mem, double dt_s,
		const double *dlg, double invite_ok)
{
	double pc = 0.0, pm = 0.0, pt, ph;
	int i, severe = 0;

	if(isnan(cpu) || isinf(cpu) || isnan(mem) || isinf(mem)
			|| !isfinite(dt_s) || dt_s <= 0.0 || !isfinite(invite_ok)
			|| invite_ok < 0.0)
		return OVC_EINVAL;
	if(dlg != NULL) {
		for(i = 0; i < OVC_DLG_COUNT; i++)
			if(!isfinite(dlg[i]) || dlg[i] < 0.0)
				return OVC_EINVAL;
	}
	if(cpu >= 0.0) {
		/* averaged as measured; the ramp clamps */
		ovc_ewma_update(&s->c_hat, ovc_cpu_reading(cpu));
		pc = ovc_rsoca_ramp(ovc_ewma_value(&s->c_hat), s->p.cmin, s->p.cmax);
		severe |= pc >= 1.0;
	}
	if(mem >= 0.0) {
		pm = ovc_rsoca_ramp(mem > 1.0 ? 1.0 : mem, s->p.mmin, s->p.mmax);
		severe |= pm >= 1.0;
	}
	pt = pc > pm ? pc : pm;
	ph = s->p_hat * (1.0 - s->p.sigma) + pt * s->p.sigma;
	if(severe)
		ph = 1.0;
	if(ph > 1.0)
		ph = 1.0;
	s->p_cpu = pc;
	s->p_mem = pm;
	s->p_hat = ph;
	s->severe = severe;
	s->p_reject = ph <= s->p.dead ? 0.0 : ph;
	for(i = 0; i < OVC_DLG_COUNT; i++)
		s->p_drop[i] = dlg == NULL ? 0.0
								   : ovc_rsoca_dos_drop(&s->p,
										   (enum ovc_dlg)i, dlg[i],
										   invite_ok, dt_s);
	return OVC_OK;
}
