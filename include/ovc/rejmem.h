/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - memory of recent decisions, so that a retransmission gets the same
 * answer as its original instead of a new decision: a rejected INVITE is
 * not admitted after its 503 was sent, an admitted one is not answered 503
 * while its transaction runs, a queued one is not queued twice. A fixed
 * table of 64-bit slots, each holding a request's tag (40 bits of a hash
 * of its key), the second it was stored (22 bits, modulo 2^22 s: 48 days)
 * and the verdict (2 bits) in one word, so that a reader never pairs one
 * request's key with another's time; lock-free (C11 atomics), meant to sit
 * in shared memory. 2^19 slots (4 MB) hold a 32 s memory (Timer B) of
 * 8000 INVITEs/s at half load. Best effort by design: when the few
 * slots a key may use are all taken by live entries, the oldest is
 * overwritten.
 */
#ifndef OVC_REJMEM_H
#define OVC_REJMEM_H

#include <stdatomic.h>
#include <stdint.h>

#define OVC_REJMEM_SLOTS (1u << 19) /* power of two */
#define OVC_REJMEM_PROBE 16			/* slots a key may use (2 cache lines) */

struct ovc_rejmem
{
	_Atomic uint64_t slot[OVC_REJMEM_SLOTS]; /* tag << 24 | (second mod
												 2^22) << 2 | decision;
												 0: empty */
};

/* Decisions remembered. */
enum ovc_rejmem_decision
{
	OVC_REJMEM_ADMITTED = 0, /* routed (its transaction handles repeats) */
	OVC_REJMEM_REJECTED = 1, /* answered with the reject reply */
	OVC_REJMEM_QUEUED = 2,	 /* waiting in the in-core INVITE queue */
	OVC_REJMEM_CANCELLED = 3, /* CANCELled while it waited there */
};

/* Empties the table. Not concurrent with other calls. */
void ovc_rejmem_init(struct ovc_rejmem *m);

/* Remembers the decision on key taken at now_s (seconds of any monotonic
 * clock; only now_s mod 2^22 is kept, so differences up to 2^22 s are
 * exact): an enum ovc_rejmem_decision (other values store
 * OVC_REJMEM_REJECTED). Lock-free: one atomic store. */
void ovc_rejmem_put(
		struct ovc_rejmem *m, uint64_t key, uint32_t now_s, int decision);

/* Changes the decision stored for key less than ttl_s seconds before now_s
 * from from to to (enum ovc_rejmem_decision), stamped now_s, in one atomic
 * compare-and-swap: of processes changing the same decision at once,
 * exactly one succeeds (a CANCEL and the queue's worker both taking a
 * queued INVITE). Returns 1 when it changed; 0 when key holds another
 * decision, stored into *found (when found is not NULL); -1 when nothing
 * is stored for key (never stored, expired or overwritten). Lock-free. */
int ovc_rejmem_cas(struct ovc_rejmem *m, uint64_t key, uint32_t now_s,
		uint32_t ttl_s, int from, int to, int *found);

/* The first slot key probes (keys with the same one compete for the same
 * OVC_REJMEM_PROBE slots); for tests and diagnostics. */
unsigned ovc_rejmem_home(uint64_t key);

/* Returns the decision stored for key less than ttl_s seconds before
 * now_s (an enum ovc_rejmem_decision), or -1 when there is none.
 * Lock-free. */
int ovc_rejmem_get(const struct ovc_rejmem *m, uint64_t key, uint32_t now_s,
		uint32_t ttl_s);

#endif
