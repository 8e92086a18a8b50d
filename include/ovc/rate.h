/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - event rate over a sliding period in O(1) memory, after HAProxy's
 * freq_ctr: the count of the current period plus the previous period's
 * count weighted by its overlap with a sliding window of one period.
 * Single writer (the caller serialises, or keeps one per process and sums
 * the rates). Time is passed in; a clock going back counts as "now" being
 * the start of the current period.
 */
#ifndef OVC_RATE_H
#define OVC_RATE_H

#include <stdint.h>

#include "ovc/types.h"

struct ovc_rate
{
	ovc_time_ns period;		/* period length, ns (> 0; 1 s for per-second) */
	ovc_time_ns curr_start; /* start of the current period, ns */
	uint64_t curr;			/* events in the current period */
	uint64_t prev;			/* events in the previous period */
	int started;			/* curr_start is valid */
};

/* Initialises r with period_ns > 0. Returns OVC_OK or OVC_ERANGE. */
int ovc_rate_init(struct ovc_rate *r, ovc_time_ns period_ns);

/* Adds n events at time now. */
void ovc_rate_add(struct ovc_rate *r, ovc_time_ns now, uint64_t n);

/* Events per period at time now: curr + prev * (period - elapsed) / period,
 * elapsed being the time spent in the current period. */
double ovc_rate_read(struct ovc_rate *r, ovc_time_ns now);

/* Same, scaled to events per second. */
double ovc_rate_per_s(struct ovc_rate *r, ovc_time_ns now);

#endif
