/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the plan: controller output to acceptor fractions (ovc/plan.h).
 */
#include <math.h>

#include "ovc/plan.h"

/* v within [0, 1]; NaN: 1 (accept). */
static double unit(double v)
{
	if(!(v >= 0.0))
		return isnan(v) ? 1.0 : 0.0;
	return v > 1.0 ? 1.0 : v;
}

void ovc_plan_make(const struct ovc_alg_traits *t, double f, double share,
		double drain, int overloaded, double guard_cap, struct ovc_plan *pl)
{
	double cap = 1.0;

	f = unit(f);
	share = unit(share);
	if(!overloaded)
		f = share = 1.0;
	else if(t->guarded)
		cap = unit(guard_cap);
	pl->guard_cap = cap;
	pl->drain = overloaded && isfinite(drain) && drain >= 0 ? drain : -1.0;
	if(t->paces_queue) {
		pl->f_arrival = share < cap ? share : cap;
		pl->f_accept = f;
	} else {
		pl->f_arrival = 1.0;
		pl->f_accept = f < cap ? f : cap;
	}
}

void ovc_plan_cap(const struct ovc_alg_traits *t, double cap,
		struct ovc_plan *pl)
{
	double *front = t->paces_queue ? &pl->f_arrival : &pl->f_accept;

	cap = unit(cap);
	if(cap < *front)
		*front = cap;
}
