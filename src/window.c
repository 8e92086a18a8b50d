/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - ring of the last k (numerator, denominator) increments and their
 * ratio (001 eq. 1 and 4). Sums are recomputed from the ring on demand
 * (k <= 256), so no rounding error accumulates over a long run.
 */
#include <math.h>
#include <stddef.h>

#include "ovc/types.h"
#include "ovc/window.h"

int ovc_window_init(struct ovc_window *w, unsigned k)
{
	if(w == NULL)
		return OVC_EINVAL;
	if(k == 0 || k > OVC_WINDOW_MAX)
		return OVC_ERANGE;
	w->k = k;
	w->n = 0;
	w->head = 0;
	return OVC_OK;
}

int ovc_window_push(struct ovc_window *w, double num, double den)
{
	if(!isfinite(num) || !isfinite(den) || num < 0.0 || den < 0.0)
		return OVC_EINVAL;
	w->num[w->head] = num;
	w->den[w->head] = den;
	w->head = (w->head + 1) % w->k;
	if(w->n < w->k)
		w->n++;
	return OVC_OK;
}

/* Slots in use are the n before head (mod k); when n < k they are 0..n-1. */
double ovc_window_sum_num(const struct ovc_window *w)
{
	double s = 0.0;
	unsigned i;

	for(i = 0; i < w->n; i++)
		s += w->num[i];
	return s;
}

double ovc_window_sum_den(const struct ovc_window *w)
{
	double s = 0.0;
	unsigned i;

	for(i = 0; i < w->n; i++)
		s += w->den[i];
	return s;
}

int ovc_window_ratio(const struct ovc_window *w, double *out)
{
	double d;

	if(w->n == 0)
		return OVC_EEMPTY;
	d = ovc_window_sum_den(w);
	if(d <= 0.0)
		return OVC_ERANGE;
	*out = ovc_window_sum_num(w) / d;
	return OVC_OK;
}

unsigned ovc_window_count(const struct ovc_window *w)
{
	return w->n;
}
