/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - receive-queue settings derived from T1 and the CPU quota's stall
 * (see include/ovc/derive.h).
 */
#include <math.h>

#include "ovc/derive.h"

/* Shortest onset window, ms. */
#define ONSET_WINDOW_MIN_MS 100.0

double ovc_derive_stall_ms(double period_ms, double quota_cpus)
{
	if(!isfinite(period_ms) || !isfinite(quota_cpus) || period_ms <= 0
			|| quota_cpus <= 0 || quota_cpus >= 1)
		return 0;
	return period_ms * (1.0 - quota_cpus);
}

void ovc_derive_rxq(const struct ovc_rxq_params *p, double stall_ms,
		struct ovc_rxq_eff *out)
{
	double t1 = p->t1_ms, age;

	if(!isfinite(stall_ms) || stall_ms < 0)
		stall_ms = 0;
	if(p->max_age_ms >= 0) {
		out->max_age_ms = (unsigned)p->max_age_ms;
	} else {
		age = t1 / 5;
		if(stall_ms + t1 / 25 > age)
			age = stall_ms + t1 / 25;
		out->max_age_ms = (unsigned)ceil(age);
	}
	out->guard_ms = p->guard_ms >= 0 ? p->guard_ms : t1 / 10;
	out->onset_ms = p->onset_ms >= 0 ? p->onset_ms : t1 / 25;
	out->enter_ms = p->onset_ms >= 0 ? p->onset_ms : t1 / 2;
}

unsigned ovc_derive_age_loaded(unsigned max_age_ms, double t1_ms,
		double stall_ms, double period_ms, double need)
{
	double m, lo;

	if(max_age_ms == 0 || !isfinite(stall_ms) || stall_ms <= 0
			|| !isfinite(period_ms) || period_ms <= stall_ms
			|| !isfinite(need) || need <= 0 || need >= 1 || !isfinite(t1_ms)
			|| t1_ms <= 0)
		return max_age_ms;
	lo = t1_ms / 10;
	m = stall_ms - period_ms * (1 - need) + t1_ms / 25;
	if(m < lo)
		m = lo;
	if(m > max_age_ms)
		return max_age_ms;
	return (unsigned)ceil(m);
}

unsigned ovc_derive_rcvbuf_msgs(
		double stall_ms, unsigned max_age_ms, unsigned have_msgs)
{
	double n;

	if(!isfinite(stall_ms) || stall_ms < 0)
		stall_ms = 0;
	n = ceil((stall_ms + max_age_ms) / 1000.0
			 * OVC_DERIVE_FLOOD_DGRAMS_PER_S);
	return n > have_msgs ? (unsigned)n : have_msgs;
}

double ovc_derive_onset_window_ms(double period_ms)
{
	double w = isfinite(period_ms) && period_ms > 0 ? 2 * period_ms : 0;

	return w > ONSET_WINDOW_MIN_MS ? w : ONSET_WINDOW_MIN_MS;
}
