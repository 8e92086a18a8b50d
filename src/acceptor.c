/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - deterministic fractional acceptor of 001 §3.4:
 *   r := r + f; if r >= 1 { r := r - 1; accept } else reject.
 * r and f are 32.32 fixed point. f is rounded up to the next 2^-32 so that
 * the acceptor never accepts less than f asks: over N decisions at a
 * constant f it accepts floor(N f) or floor(N f) + 1 (N < 2^32), and a run
 * of refusals is at most ceil(1/f) - 1 long. One CAS on the credit word per
 * decision makes concurrent callers (threads or processes sharing the
 * struct in shared memory) behave as one sequence.
 */
#include <math.h>

#include "ovc/acceptor.h"
#include "ovc/types.h"

/* f in [0, 1] to fixed point, rounded up. */
static uint64_t frac_to_fixed(double f)
{
	double x;
	uint64_t v;

	if(isnan(f) || f >= 1.0)
		return OVC_ACC_ONE;
	if(f <= 0.0)
		return 0;
	x = f * (double)OVC_ACC_ONE; /* exact: scaling by a power of two */
	v = (uint64_t)x;
	if((double)v < x)
		v++;
	return v;
}

void ovc_acceptor_init(struct ovc_acceptor *a, double f)
{
	atomic_init(&a->credit, 0);
	atomic_init(&a->f, frac_to_fixed(f));
	atomic_init(&a->taken, 0);
	atomic_init(&a->accepted, 0);
}

int ovc_acceptor_set(struct ovc_acceptor *a, double f)
{
	if(isnan(f))
		return OVC_EINVAL;
	atomic_store_explicit(&a->f, frac_to_fixed(f), memory_order_relaxed);
	return OVC_OK;
}

double ovc_acceptor_get(const struct ovc_acceptor *a)
{
	uint64_t v;

	v = atomic_load_explicit(
			(_Atomic uint64_t *)&a->f, memory_order_relaxed);
	return (double)v / (double)OVC_ACC_ONE;
}

int ovc_acceptor_take(struct ovc_acceptor *a)
{
	uint64_t c, n, f;
	int acc;

	f = atomic_load_explicit(&a->f, memory_order_relaxed);
	c = atomic_load_explicit(&a->credit, memory_order_relaxed);
	do {
		n = c + f; /* c < 2^32, f <= 2^32: no overflow */
		acc = 0;
		if(n >= OVC_ACC_ONE) {
			n -= OVC_ACC_ONE;
			acc = 1;
		}
	} while(!atomic_compare_exchange_weak_explicit(&a->credit, &c, n,
			memory_order_relaxed, memory_order_relaxed));
	atomic_fetch_add_explicit(&a->taken, 1, memory_order_relaxed);
	if(acc)
		atomic_fetch_add_explicit(&a->accepted, 1, memory_order_relaxed);
	return acc;
}
