/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - drain pacer (see include/ovc/pacer.h).
 */
#include "ovc/pacer.h"

/* last: no slot granted yet (or forgotten) */
#define NONE INT64_MIN

void ovc_pacer_init(struct ovc_pacer *p)
{
	atomic_init(&p->last, NONE);
}

ovc_time_ns ovc_pacer_take(struct ovc_pacer *p, ovc_time_ns now,
		ovc_time_ns interval_ns, unsigned burst, ovc_time_ns max_wait_ns)
{
	int64_t t, start, tol;

	if(interval_ns <= 0) {
		atomic_store_explicit(&p->last, NONE, memory_order_relaxed);
		return 0;
	}
	if(burst < 1)
		burst = 1;
	if(max_wait_ns < 0)
		max_wait_ns = 0;
	/* slots older than the burst tolerance are lost, not saved up */
	tol = (int64_t)(burst - 1) * interval_ns;
	t = atomic_load_explicit(&p->last, memory_order_relaxed);
	do {
		/* the next slot at the interval in force now */
		start = t == NONE ? now - tol : t + interval_ns;
		if(start < now - tol)
			start = now - tol;
		if(start - now > max_wait_ns)
			return start - now; /* too far: nothing reserved */
	} while(!atomic_compare_exchange_weak_explicit(
			&p->last, &t, start, memory_order_relaxed, memory_order_relaxed));
	return start > now ? start - now : 0;
}
