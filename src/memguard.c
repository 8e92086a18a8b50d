/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the shared-memory guard (ovc/memguard.h).
 */
#include <math.h>

#include "ovc/memguard.h"

void ovc_memguard_defaults(struct ovc_memguard_params *p)
{
	p->high = 0.9;
	p->hard = 0.97;
	p->window_s = 5.0;
}

void ovc_memguard_init(struct ovc_memguard *g)
{
	g->base = -1.0;
	g->adm = 0.0;
	g->off = 0.0;
	g->k = 0.0;
	g->rate_max = -1.0;
	g->cap = 1.0;
}

/* v low-passed towards x over dt_s with time constant tau_s. */
static double lowpass(double v, double x, double dt_s, double tau_s)
{
	if(!(tau_s > 0))
		return x;
	return v + (1.0 - exp(-dt_s / tau_s)) * (x - v);
}

static int bad(double v)
{
	return !isfinite(v) || v < 0;
}

double ovc_memguard_step(struct ovc_memguard *g,
		const struct ovc_memguard_params *p, double used, double total,
		double admitted, double offered, double dt_s)
{
	double held, room, u, level, cap = 1.0;

	if(!(p->high > 0) || !(p->high < 1)) {
		g->cap = 1.0;
		return 1.0;
	}
	if(bad(used) || bad(admitted) || bad(offered) || !(dt_s > 0)
			|| !(p->window_s > 0)
			|| !isfinite(dt_s) || !(total > 0) || !isfinite(total))
		return g->cap;
	if(g->base < 0) { /* the first interval: the rates as they are */
		g->adm = admitted / dt_s;
		g->off = offered / dt_s;
	}
	if(g->base < 0 || used < g->base)
		g->base = used;
	g->adm = lowpass(g->adm, admitted / dt_s, dt_s, p->window_s);
	g->off = lowpass(g->off, offered / dt_s, dt_s, 1.0);
	held = used - g->base;
	/* Little: what the calls admitted over the last lifetime hold, per
	 * call/s admitted over it */
	if(held >= OVC_MEMGUARD_MIN_HELD * total && g->adm > 0)
		g->k = held / g->adm;
	room = p->high * total - g->base;
	if(g->k > 0)
		g->rate_max = room > 0 ? room / g->k : 0.0;
	if(g->rate_max >= 0 && g->off > g->rate_max)
		cap = g->rate_max / g->off;
	/* above the budget: the calls admitted still bring memory */
	u = used / total;
	if(u > p->high) {
		level = p->hard > p->high ? (p->hard - u) / (p->hard - p->high) : 0;
		cap *= level > 0 ? level : 0.0;
	}
	g->cap = cap;
	return cap;
}
