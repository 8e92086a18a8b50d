/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the split between 503s and kernel drops (see ovc/ksplit.h).
 */
#include <math.h>
#include <string.h>

#include "ovc/ksplit.h"

void ovc_ksplit_init(struct ovc_ksplit *s)
{
	memset(s, 0, sizeof(*s));
}

int ovc_ksplit_check(const struct ovc_ksplit_params *p)
{
	if(!(p->budget > 0 && p->budget <= 1) || !(p->weight > 0 && p->weight <= 1)
			|| !(p->max >= 0 && p->max < 1)
			|| !(isfinite(p->window_s) && p->window_s >= 0))
		return -1;
	return 0;
}

/* The cost per refusal from this epoch, when it refused enough. */
static void cost_update(struct ovc_ksplit *s, const struct ovc_ksplit_params *p,
		const struct ovc_ksplit_in *in)
{
	double c;

	if(in->refused == 0 || in->refused < p->min_refusals
			|| !(in->cpu_reject > 0) || !isfinite(in->cpu_reject))
		return;
	c = in->cpu_reject * in->dt_s / (double)in->refused;
	s->cost = s->cost > 0 ? s->cost + p->weight * (c - s->cost) : c;
}

/* Adds the epoch in to the window s->acc. Returns 1 when the window
 * spans window_s: *sum is then the window's epochs as one (cpu_reject
 * its mean) and s->acc is empty again; 0 otherwise. An epoch with no
 * CPU reading (cpu_reject not finite or < 0) is left out whole: its
 * refusals without their CPU would lower the window's cost per refusal
 * and let through more 503s than the budget pays for. */
static int window_add(struct ovc_ksplit *s, const struct ovc_ksplit_params *p,
		const struct ovc_ksplit_in *in, struct ovc_ksplit_in *sum)
{
	struct ovc_ksplit_in *a = &s->acc;

	if(!(in->cpu_reject >= 0) || !isfinite(in->cpu_reject))
		return 0;
	a->dt_s += in->dt_s;
	a->offered += in->offered;
	a->admitted += in->admitted;
	a->refused += in->refused;
	a->cpu_reject += in->cpu_reject * in->dt_s;
	if(a->dt_s < p->window_s)
		return 0;
	*sum = *a;
	sum->cpu_reject = a->cpu_reject / a->dt_s;
	sum->may_act = 1;
	memset(a, 0, sizeof(*a));
	return 1;
}

double ovc_ksplit_step(struct ovc_ksplit *s, const struct ovc_ksplit_params *p,
		const struct ovc_ksplit_in *epoch)
{
	struct ovc_ksplit_in sum, *in = &sum;
	double arrivals, fwd, refused, t;

	if(!epoch->may_act) {
		s->share = 0;
		s->target = 0;
		memset(&s->acc, 0, sizeof(s->acc));
		return 0;
	}
	if(!(epoch->dt_s > 0) || !window_add(s, p, epoch, &sum))
		return s->share;
	if(in->offered == 0 && s->share == 0)
		return 0; /* nothing offered, nothing dropped */
	if(in->offered > 0) {
		cost_update(s, p, in);
		if(!(s->cost > 0))
			return s->share; /* no refusal measured yet: nothing to weigh */
		s->affordable = p->budget / s->cost;
		/* the calls reaching the filter: ovc saw 1 - share of them */
		arrivals = (double)in->offered / in->dt_s / (1.0 - s->share);
		fwd = (double)in->admitted / in->dt_s;
		refused = arrivals > fwd ? arrivals - fwd : 0;
		t = (refused - s->affordable) / arrivals;
		t = t < 0 ? 0 : t > p->max ? p->max : t;
	} else {
		t = 0; /* share < max < 1 passes some of every call: none came */
	}
	s->target = t;
	s->share += p->weight * (t - s->share);
	if(s->share < 1e-6)
		s->share = 0; /* decayed: the filter drops nothing again */
	return s->share;
}
