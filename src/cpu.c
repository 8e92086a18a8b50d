/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - CPU occupancy from a cumulative busy-time counter, 001 eq. 1 over
 * one interval: rho = (busy_n - busy_{n-1}) / ((t_n - t_{n-1}) capacity).
 * Every doubtful interval (first sample, counter reset, clock standing
 * still, going back or jumping beyond max_gap) yields no value instead of
 * a wrong one.
 */
#include <math.h>
#include <stddef.h>

#include "ovc/cpu.h"

int ovc_cpu_init(struct ovc_cpu_meter *m, double capacity,
		ovc_time_ns max_gap_ns)
{
	if(m == NULL)
		return OVC_EINVAL;
	if(!isfinite(capacity) || capacity <= 0.0 || max_gap_ns < 0)
		return OVC_ERANGE;
	m->capacity = capacity;
	m->max_gap = max_gap_ns;
	m->last_busy = 0;
	m->last_now = 0;
	m->primed = 0;
	m->last_occ = 0.0;
	return OVC_OK;
}

void ovc_cpu_reset(struct ovc_cpu_meter *m)
{
	m->primed = 0;
}

int ovc_cpu_sample(struct ovc_cpu_meter *m, uint64_t busy_ns,
		ovc_time_ns now, double *occ)
{
	ovc_time_ns dt;
	double v;

	if(!m->primed || busy_ns < m->last_busy || now < m->last_now
			|| (m->max_gap > 0 && now - m->last_now > m->max_gap)) {
		/* no baseline, counter reset, clock back or jump: re-baseline */
		m->last_busy = busy_ns;
		m->last_now = now;
		m->primed = 1;
		return OVC_EEMPTY;
	}
	dt = now - m->last_now;
	if(dt == 0)
		return OVC_EEMPTY; /* clock standing still: keep the baseline */
	v = (double)(busy_ns - m->last_busy) / ((double)dt * m->capacity);
	if(v > 1.0)
		v = 1.0;
	m->last_busy = busy_ns;
	m->last_now = now;
	m->last_occ = v;
	if(occ != NULL)
		*occ = v;
	return OVC_OK;
}
