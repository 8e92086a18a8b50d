/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - memory of recent decisions, so that a retransmission gets the same
 * answer as its original instead of a new decision: a rejected INVITE is
 * not admitted after its 503 was sent, an admitted one is not answered 503
 * while its transaction runs, a queued one is not queued twice. A fixed table of 64-bit keys with their time
 * and verdict, lock-free (C11 atomics), meant to sit in shared memory.
 * Best effort by design: when the few slots a key may use are all taken
 * by live entries, the oldest is overwritten.
 */
#ifndef OVC_REJMEM_H
#define OVC_REJMEM_H

#include <stdatomic.h>
#include <stdint.h>

#define OVC_REJMEM_SLOTS 8192 /* power of two */
#define OVC_REJMEM_PROBE 4	  /* slots a key may use */

struct ovc_rejmem
{
	_Atomic uint64_t key[OVC_REJMEM_SLOTS]; /* 0: empty */
	_Atomic uint32_t sec[OVC_REJMEM_SLOTS]; /* (time stored, s) << 2 |
											   decision (enum below) */
};

/* Decisions remembered. */
enum ovc_rejmem_decision
{
	OVC_REJMEM_ADMITTED = 0, /* routed (its transaction handles repeats) */
	OVC_REJMEM_REJECTED = 1, /* answered with the reject reply */
	OVC_REJMEM_QUEUED = 2,	 /* waiting in the in-core INVITE queue */
};

/* Empties the table. Not concurrent with other calls. */
void ovc_rejmem_init(struct ovc_rejmem *m);

/* Remembers the decision on key (0 is mapped to 1) taken at now_s (seconds
 * of any monotonic clock, < 2^30): an enum ovc_rejmem_decision (other
 * values store OVC_REJMEM_REJECTED). Lock-free. */
void ovc_rejmem_put(
		struct ovc_rejmem *m, uint64_t key, uint32_t now_s, int decision);

/* Returns the decision stored for key less than ttl_s seconds before
 * now_s (an enum ovc_rejmem_decision), or -1 when there is none.
 * Lock-free. */
int ovc_rejmem_get(const struct ovc_rejmem *m, uint64_t key, uint32_t now_s,
		uint32_t ttl_s);

#endif
