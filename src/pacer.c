/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - drain pacer (see include/ovc/pacer.h).
 */
#include "ovc/pacer.h"

void ovc_pacer_init(struct ovc_pacer *p)
{
	atomic_init(&p->tat, 0);
}

ovc_time_ns ovc_pacer_take(struct ovc_pacer *p, ovc_time_ns now,
		ovc_time_ns interval_ns, unsigned burst)
{
	int64_t t, start, tol;

	if(interval_ns <= 0) {
		atomic_store_explicit(&p->tat, 0, memory_order_relaxed);
		return 0;
	}
	if(burst < 1)
		burst = 1;
	/* slots older than the burst tolerance are lost, not saved up */
	tol = (int64_t)(burst - 1) * interval_ns;
	t = atomic_load_explicit(&p->tat, memory_order_relaxed);
	do {
		start = t > now - tol ? t : now - tol;
	} while(!atomic_compare_exchange_weak_explicit(&p->tat, &t,
			start + interval_ns, memory_order_relaxed,
			memory_order_relaxed));
	return start > now ? start - now : 0;
}
