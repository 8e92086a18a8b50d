/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - sliding-period event rate after HAProxy's freq_ctr: curr counts
 * the current period, prev the one before, and a read weighs prev by the
 * part of it still inside a one-period window ending now.
 */
#include <stddef.h>

#include "ovc/rate.h"

int ovc_rate_init(struct ovc_rate *r, ovc_time_ns period_ns)
{
	if(r == NULL)
		return OVC_EINVAL;
	if(period_ns <= 0)
		return OVC_ERANGE;
	r->period = period_ns;
	r->curr_start = 0;
	r->curr = 0;
	r->prev = 0;
	r->started = 0;
	return OVC_OK;
}

/* Moves the current period forward so that it contains now. */
static void rate_rotate(struct ovc_rate *r, ovc_time_ns now)
{
	ovc_time_ns elapsed;

	if(!r->started) {
		r->curr_start = now;
		r->started = 1;
		return;
	}
	if(now < r->curr_start)
		return; /* clock went back: stay in the current period */
	elapsed = now - r->curr_start;
	if(elapsed < r->period)
		return;
	if(elapsed < 2 * r->period)
		r->prev = r->curr;
	else
		r->prev = 0; /* a whole period or more without events */
	r->curr = 0;
	r->curr_start = now - elapsed % r->period;
}

void ovc_rate_add(struct ovc_rate *r, ovc_time_ns now, uint64_t n)
{
	rate_rotate(r, now);
	r->curr += n;
}

double ovc_rate_read(struct ovc_rate *r, ovc_time_ns now)
{
	ovc_time_ns elapsed;

	rate_rotate(r, now);
	elapsed = now - r->curr_start;
	if(elapsed < 0)
		elapsed = 0;
	return (double)r->curr
		   + (double)r->prev * (double)(r->period - elapsed)
					 / (double)r->period;
}

double ovc_rate_per_s(struct ovc_rate *r, ovc_time_ns now)
{
	return ovc_rate_read(r, now) * (double)OVC_NS_PER_S / (double)r->period;
}
