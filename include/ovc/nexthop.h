/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the client side of RFC 7339 (§6): what each next hop (a
 * downstream SIP server, keyed by its address text, e.g.
 * "udp:192.0.2.7:5060") last said of its overload, and the deterministic
 * acceptor (001 §3.4) that applies its "loss" reduction to the initial
 * requests sent to it. A fixed table meant to sit in shared memory,
 * shared by every process. Lookups and every field a process may change
 * on the way of a request are lock-free (atomics; probing from a hash);
 * entries are created, evicted and reused under the table's lock, taken
 * only when a next hop's first feedback arrives and by the ticker's
 * sweep. The table is bounded: an entry idle for OVC_NH_IDLE_MS
 * is freed (ovc_nh_expire()), and a full table makes room by evicting
 * its stalest entry that is not in use (ovc_nh_in_use()), never one that
 * is. Entries are to be created only for next hops this server sent
 * requests to (ovc/octoken.h), so that no sender can fill the table.
 * Feedback is taken in oc-seq order: a value older than the one in force
 * is ignored, until that one lapses. A feedback's oc-seq and reduction
 * are one 64-bit word (ovc_nh_pack()), its reduction and expiry another,
 * each changed by one CAS: two processes taking two feedbacks of one
 * next hop at once leave the newer one in force, and a reader never
 * pairs one feedback's reduction with another's validity.
 */
#ifndef OVC_NEXTHOP_H
#define OVC_NEXTHOP_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "ovc/acceptor.h"
#include "ovc/oc7339.h"
#include "ovc/types.h"

#define OVC_NH_MAX 256	  /* next hops remembered (power of two) */
#define OVC_NH_KEY_MAX 64 /* longest key, bytes, terminator included */

/* A next hop heard from within this, ms, is in use: never evicted. */
#define OVC_NH_IN_USE_MS 10000

/* A next hop not heard from for this, ms, with no reduction in force,
 * is freed by ovc_nh_expire(). */
#define OVC_NH_IDLE_MS 120000

/* An oc-seq and a reduction (percent, 0-100) in one 64-bit word, so that
 * they are stored and read together: seq << OVC_NH_RED_BITS | reduction.
 * Every oc-seq RFC 7339 allows (12 digits of seconds, 5 decimals) fits. */
#define OVC_NH_RED_BITS 7
#define OVC_NH_SEQ_MAX (UINT64_MAX >> OVC_NH_RED_BITS)

_Static_assert(
		UINT64_C(999999999999) * OVC_OC_SEQ_FRAC + 99999 <= OVC_NH_SEQ_MAX,
		"a 12-digit oc-seq fits beside the reduction");

/* The word of oc-seq seq (at most OVC_NH_SEQ_MAX) and reduction
 * (percent, 0-100). */
static inline uint64_t ovc_nh_pack(uint64_t seq, unsigned reduction)
{
	return seq << OVC_NH_RED_BITS
		   | (uint64_t)(reduction & ((1u << OVC_NH_RED_BITS) - 1));
}

/* The oc-seq of word w (ovc_nh_pack()). */
static inline uint64_t ovc_nh_packed_seq(uint64_t w)
{
	return w >> OVC_NH_RED_BITS;
}

/* The reduction of word w, percent. */
static inline unsigned ovc_nh_packed_reduction(uint64_t w)
{
	return (unsigned)(w & ((1u << OVC_NH_RED_BITS) - 1));
}

/* Server side: the word to announce after cur (ovc_nh_pack(); 0: none
 * yet) when the clock's oc-seq is seq_now (ovc_oc_seq_from_ns()) and the
 * reduction reduction (percent, 0-100): seq_now, or cur's oc-seq + 1
 * when the clock did not move past it, so that every announcement has a
 * new, larger oc-seq (clients refresh its validity). */
uint64_t ovc_nh_announce_next(
		uint64_t cur, uint64_t seq_now, unsigned reduction);

/* One next hop. */
struct ovc_nexthop
{
	_Atomic uint32_t state;		   /* generation << 2 | 0 free, 1 being
									  claimed, 2 ready, 3 evicted */
	uint32_t key_len;			   /* bytes of key (set before ready) */
	char key[OVC_NH_KEY_MAX];	   /* its address text, terminated */
	uint64_t hash;				   /* of key */
	_Atomic uint64_t fb;		   /* the feedback in force: ovc_nh_pack(
									  oc-seq, reduction); 0: none */
	_Atomic uint64_t force;		   /* what the readers apply: that
									  feedback's reduction with its
									  expiry (nexthop.c); 0: none */
	_Atomic int64_t heard_ns;	   /* its last feedback, or its creation
									  (monotonic, ns) */
	_Atomic uint64_t feedbacks;	   /* feedback values taken */
	_Atomic uint64_t passed;	   /* requests ovc_nh_admit() let through */
	_Atomic uint64_t refused;	   /* requests it refused */
	_Atomic uint64_t refused_mark; /* refused at the last second's end */
	_Atomic uint64_t refused_1s;   /* refused in the last whole second */
	_Atomic uint64_t routed;	   /* initial requests routed to it
									  (ovc_nh_routed()) */
	_Atomic uint64_t routed_mark;  /* routed at the last second's end */
	_Atomic uint64_t routed_1s;	   /* routed in the last whole second */
	struct ovc_acceptor acc;	   /* fraction 1 - reduction */
};

struct ovc_nh_table
{
	_Atomic uint32_t lock;		  /* 1 while an entry is created or
									 evicted (a try-lock) */
	_Atomic uint64_t evicted;	  /* entries evicted or expired */
	_Atomic uint32_t used;		  /* entries in use (claimed, not
									 evicted) */
	_Atomic uint64_t routed;	  /* initial requests routed to any next
									 hop, with an entry or not */
	_Atomic uint64_t routed_mark; /* routed at the last second's end */
	_Atomic uint64_t routed_1s;	  /* routed in the last whole second */
	struct ovc_nexthop hop[OVC_NH_MAX];
};

/* The hash of next hop key (len bytes) that its entry carries (hash):
 * the same for a next hop whether it has an entry or not. */
uint64_t ovc_nh_key_hash(const char *key, size_t len);

/* Empties the table. Not concurrent with other calls. */
void ovc_nh_init(struct ovc_nh_table *t);

/* The entry of next hop key (len bytes, 1..OVC_NH_KEY_MAX-1), claimed
 * for it at now (monotonic, ns) when create and it has none: a free
 * entry of its probe sequence, or, the table full, the stalest not in use
 * at now (evicted). Returns NULL when it has none and create is 0, the
 * key is empty or too long, every entry is in use, or another process
 * held the table's lock for long (a later call creates it). Lookups
 * are lock-free; two processes creating one key get one entry. */
struct ovc_nexthop *ovc_nh_get(struct ovc_nh_table *t, const char *key,
		size_t len, int create, ovc_time_ns now);

/* Is next hop h in use at now: heard from within OVC_NH_IN_USE_MS, or a
 * reduction in force? */
int ovc_nh_in_use(const struct ovc_nexthop *h, ovc_time_ns now);

/* Frees every entry idle at now (not heard from for OVC_NH_IDLE_MS, no
 * reduction in force; ticker, each second). Returns how many; 0 also when
 * the table's lock is taken (next time). */
unsigned ovc_nh_expire(struct ovc_nh_table *t, ovc_time_ns now);

/* Takes the feedback oc of next hop h (read from a response's top Via,
 * ovc_oc_read_top_via(); its sender verified) received at now
 * (monotonic, ns, >= 0): a loss value (oc->value >= 0) whose oc-seq is
 * not older than the one in force (a larger or the same oc-seq; without
 * one, 0, only while none had one), or any once the one in force lapsed,
 * becomes the one in force for oc-validity ms (OVC_OC_VALIDITY_DEFAULT_MS
 * when absent, at most OVC_OC_VALIDITY_MAX_MS as read; 0 ends it), to
 * the ms, never longer. Returns 1 when taken, 0 when ignored (no value,
 * an algorithm other than loss, an oc-seq over OVC_NH_SEQ_MAX, or an
 * older sequence while the one in force holds). Lock-free; of feedbacks
 * taken at once by several processes the newest stays in force (without
 * oc-seq: any one of them). */
int ovc_nh_feedback(
		struct ovc_nexthop *h, const struct ovc_oc_via *oc, ovc_time_ns now);

/* Next hop h's reduction in force at now, fraction [0, 1]; 0 once its
 * validity lapsed. One atomic read. */
double ovc_nh_reduction(const struct ovc_nexthop *h, ovc_time_ns now);

/* One initial request for next hop h at now: 1 to send it, 0 to refuse
 * it (its acceptor at 1 - reduction; every request while no reduction is
 * in force). Counted in passed or refused. Lock-free. */
int ovc_nh_admit(struct ovc_nexthop *h, ovc_time_ns now);

/* Next hop h's feedback as listed (RPC). */
struct ovc_nh_view
{
	uint64_t seq;		/* oc-seq of the feedback in force; 0: none, or
						   it had none */
	unsigned reduction; /* percent in force at now; 0 once lapsed */
	int64_t left_ms;	/* its validity left at now, ms; 0 once lapsed,
						   INT64_MAX when it never lapses */
};

/* Next hop h's feedback at now into *v: the reduction with its own
 * validity; the oc-seq is the one in force, which for the instant a newer
 * feedback is being taken can lead them. */
void ovc_nh_view(
		const struct ovc_nexthop *h, ovc_time_ns now, struct ovc_nh_view *v);

/* The largest reduction in force at now among the next hops, fraction
 * [0, 1] (end-to-end: what the path asks of the requests entering it). */
double ovc_nh_max_reduction(const struct ovc_nh_table *t, ovc_time_ns now);

/* Counts one initial request routed to a next hop, h its entry (NULL: a
 * next hop that has none, which asks for no reduction). Lock-free. */
void ovc_nh_routed(struct ovc_nh_table *t, struct ovc_nexthop *h);

/* The share of the initial requests routed through this server that the
 * paths beyond it ask to refuse at now, fraction [0, 1] (end to end):
 * each next hop's reduction in force weighed by its share of the initial
 * requests routed in the last whole second (ovc_nh_routed(),
 * ovc_nh_second()), a next hop without an entry weighing with 0; the
 * largest in force (ovc_nh_max_reduction()) when none was routed then. */
double ovc_nh_path_reduction(const struct ovc_nh_table *t, ovc_time_ns now);

/* Closes a second (ticker): each next hop's refused_1s and routed_1s, and
 * the table's routed_1s, become what was counted since the last call. */
void ovc_nh_second(struct ovc_nh_table *t);

/* Zeroes every next hop's counts (passed, refused, refused_1s and its
 * mark, feedbacks; ovc.reset); what they said stays in force. */
void ovc_nh_reset_counts(struct ovc_nh_table *t);

/* Entries in use, and the i-th ready one (NULL when i is past them or
 * it is still being claimed), for listing. */
unsigned ovc_nh_count(const struct ovc_nh_table *t);
const struct ovc_nexthop *ovc_nh_at(const struct ovc_nh_table *t, unsigned i);

#endif
