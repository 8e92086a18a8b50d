/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - deterministic fractional acceptor (001 §3.4): credit += f; if
 * credit >= 1 { credit -= 1; accept }. Lock-free (C11 atomics, CAS loop on
 * one 64-bit word), so one instance placed in shared memory is exact when
 * many processes call it at once.
 */
#ifndef OVC_ACCEPTOR_H
#define OVC_ACCEPTOR_H

#include <stdatomic.h>
#include <stdint.h>

/* Fixed point: 1.0 == OVC_ACC_ONE (2^32). */
#define OVC_ACC_ONE (UINT64_C(1) << 32)

struct ovc_acceptor
{
	_Atomic uint64_t credit; /* accumulated credit, units of 2^-32 */
	_Atomic uint64_t f;		 /* acceptance fraction, units of 2^-32 */
	_Atomic uint64_t taken;	 /* decisions taken since init */
	_Atomic uint64_t accepted; /* of which accepted */
};

/* Initialises the acceptor at fraction f (clamped to [0, 1]); credit starts
 * at 0. NaN counts as 1. Not concurrent with other calls. */
void ovc_acceptor_init(struct ovc_acceptor *a, double f);

/* Sets the acceptance fraction (clamped to [0, 1]); the credit carries
 * over, so a change mid-stream keeps the count exact. Returns OVC_OK, or
 * OVC_EINVAL for NaN (nothing changes). Safe concurrently with take(). */
int ovc_acceptor_set(struct ovc_acceptor *a, double f);

/* Returns the current fraction in [0, 1]. */
double ovc_acceptor_get(const struct ovc_acceptor *a);

/* Takes one decision. Returns 1 to accept, 0 to refuse. Over N calls at a
 * constant f, floor(N*f) or that +-1 are accepted; no run of refusals is
 * longer than ceil(1/f). Lock-free; safe from many processes. */
int ovc_acceptor_take(struct ovc_acceptor *a);

#endif
