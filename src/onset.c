/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - overload evidence from the least wait of a window (see
 * include/ovc/onset.h).
 */
#include <math.h>
#include <string.h>

#include "ovc/onset.h"

void ovc_onset_init(struct ovc_onset *o)
{
	memset(o, 0, sizeof(*o));
}

int ovc_onset_step(struct ovc_onset *o, double min_wait_ms, double onset_ms,
		double dt_s, double hold_s)
{
	int evidence;

	if(!(onset_ms > 0)) {
		if(!o->on)
			o->onsets++;
		o->on = 1;
		o->quiet_s = 0;
		return 1;
	}
	evidence = isfinite(min_wait_ms) && min_wait_ms > onset_ms;
	if(evidence) {
		if(!o->on)
			o->onsets++;
		o->on = 1;
		o->quiet_s = 0;
		return 1;
	}
	if(isfinite(dt_s) && dt_s > 0)
		o->quiet_s += dt_s;
	if(o->on && !(o->quiet_s < hold_s))
		o->on = 0;
	return o->on;
}
