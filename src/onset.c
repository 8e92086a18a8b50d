/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - overload evidence from the least wait of a window (see
 * include/ovc/onset.h).
 */
#include <math.h>
#include <string.h>

#include "ovc/onset.h"

/* a constant's value as text, for the reasons returned */
#define TEXT_OF_(x) #x
#define TEXT_OF(x) TEXT_OF_(x)

void ovc_onset_init(struct ovc_onset *o)
{
	memset(o, 0, sizeof(*o));
}

/* Did an overload end less than rearm_s ago? */
static int rearmed(const struct ovc_onset *o, const struct ovc_onset_cfg *c)
{
	return o->onsets > 0 && o->quiet_s < c->hold_s + c->rearm_s;
}

/* wait_ms > least, where NaN and negative waits (none seen) are no
 * evidence and INFINITY is (a wait that cannot be measured, a
 * controller's refusals: ovc_onset_tick()) */
static int above(double wait_ms, double least)
{
	return !isnan(wait_ms) && wait_ms > least;
}

int ovc_onset_step(struct ovc_onset *o, const struct ovc_onset_cfg *c,
		double rx_ms, double queue_ms, double dt_s)
{
	double rx_least = c->onset_ms, q_least = c->onset_ms;
	int evidence;

	if(!(c->onset_ms > 0)) {
		if(!o->on)
			o->onsets++;
		o->on = 1;
		o->quiet_s = 0;
		return 1;
	}
	if(!o->on && !rearmed(o, c)) {
		rx_least = fmax(c->enter_ms, c->onset_ms);
		q_least = fmax(c->queue_enter_ms, c->onset_ms);
	}
	evidence = above(rx_ms, rx_least) || above(queue_ms, q_least);
	if(evidence) {
		if(!o->on)
			o->onsets++;
		o->on = 1;
		o->quiet_s = 0;
		return 1;
	}
	if(isfinite(dt_s) && dt_s > 0)
		o->quiet_s += dt_s;
	if(o->on && !(o->quiet_s < c->hold_s))
		o->on = 0;
	return o->on;
}

/* More than OVC_ONSET_RUSH times the capacity reached the host in the
 * window (both known)? */
static int past_rush(const struct ovc_onset_signs *s)
{
	return s->arrived >= 0 && s->capacity > 0
		   && s->arrived > OVC_ONSET_RUSH * s->capacity;
}

const char *ovc_onset_sign(const struct ovc_onset *o,
		const struct ovc_onset_cfg *c, const struct ovc_onset_signs *s,
		double least_ms)
{
	if(o->on && s->epochs > 0 && 2 * s->held > s->epochs)
		return "held down by pi's refusals";
	if(o->on && s->kstage)
		return "the kernel stage drops calls";
	if(o->on && past_rush(s))
		return "INVITEs still arrive past " TEXT_OF(OVC_ONSET_RUSH)
			   "x the capacity";
	if(o->on && s->refused_for_wait > 0 && !above(least_ms, c->onset_ms))
		return "INVITEs refused for their wait";
	if(!(least_ms >= 0) && s->invites)
		return "unmeasured (TCP, TLS)";
	if(!o->on && past_rush(s) && above(least_ms, c->onset_ms))
		return "a rush of INVITEs past " TEXT_OF(OVC_ONSET_RUSH)
			   "x the capacity";
	return NULL;
}
