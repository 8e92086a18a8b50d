/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - drain pacer: spaces the dequeues of the in-core INVITE queue at a
 * rate set by a controller (pi's u, 003 §IV), shared lock-free by several
 * worker processes. A virtual-scheduling token bucket (GCRA): each take
 * reserves the next slot, one interval after the previous slot, with the
 * interval in force at the take (a rate changed by the controller applies
 * from the next slot on, not from after a slot reserved at the old rate);
 * after an idle spell up to burst slots are granted at once. A slot is
 * reserved only within max_wait of now, so that no taker sleeps towards a
 * slot of a rate that has since changed. One 64-bit atomic, meant to sit
 * in shared memory.
 */
#ifndef OVC_PACER_H
#define OVC_PACER_H

#include <stdatomic.h>
#include <stdint.h>

#include "ovc/types.h"

struct ovc_pacer
{
	_Atomic int64_t last; /* time of the last slot granted, ns */
};

/* Starts with no debt. */
void ovc_pacer_init(struct ovc_pacer *p);

/* Reserves one slot at time now (ns, any monotonic clock) for a drain of
 * one per interval_ns (> 0) with a burst of burst (>= 1) slots, if that
 * slot is at most max_wait_ns (>= 0) away. Returns how long the caller
 * must wait before using its slot, ns (0: at once, <= max_wait_ns); a
 * return above max_wait_ns reserved nothing: the caller looks again
 * later (at most max_wait_ns later, so that a faster rate is seen).
 * Lock-free; concurrent callers get distinct slots. interval_ns <= 0:
 * unpaced, returns 0 and forgets the debt. */
ovc_time_ns ovc_pacer_take(struct ovc_pacer *p, ovc_time_ns now,
		ovc_time_ns interval_ns, unsigned burst, ovc_time_ns max_wait_ns);

#endif
