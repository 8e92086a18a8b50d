/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - CPU occupancy from a cumulative busy-time counter (ns, e.g. the sum
 * of utime + stime of the server's processes, or cgroup usage_usec * 1000)
 * and the caller's monotonic clock: occ = d(busy) / (d(now) * capacity).
 * Tolerates counter resets (busy goes back), a clock that stands still or
 * goes back, and long gaps: those samples re-baseline and yield no value.
 */
#ifndef OVC_CPU_H
#define OVC_CPU_H

#include <stdint.h>

#include "ovc/types.h"

struct ovc_cpu_meter
{
	double capacity;		/* CPUs' worth of capacity (e.g. 1, 2, 0.5), > 0 */
	ovc_time_ns max_gap;	/* longer intervals re-baseline, ns (0: none) */
	uint64_t last_busy;		/* busy counter at the baseline, ns */
	ovc_time_ns last_now;	/* clock at the baseline, ns */
	int primed;				/* a baseline exists */
	double last_occ;		/* last occupancy returned, [0, 1] */
};

/* Initialises m. capacity in CPUs (> 0, finite); max_gap_ns >= 0 (0: any
 * gap is accepted). Returns OVC_OK or OVC_ERANGE (m untouched). */
int ovc_cpu_init(struct ovc_cpu_meter *m, double capacity,
		ovc_time_ns max_gap_ns);

/* Feeds the cumulative busy counter busy_ns read at time now (ns). On
 * OVC_OK, *occ holds the occupancy since the previous sample as a
 * fraction of capacity, clamped to [0, 1]. Returns OVC_EEMPTY when no
 * value can be computed (first sample, counter reset, clock standing
 * still, going back or jumping beyond max_gap); the sample then becomes
 * the new baseline (standing still: the old baseline is kept). */
int ovc_cpu_sample(struct ovc_cpu_meter *m, uint64_t busy_ns,
		ovc_time_ns now, double *occ);

/* Forgets the baseline (the next sample primes). */
void ovc_cpu_reset(struct ovc_cpu_meter *m);

#endif
