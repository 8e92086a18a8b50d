/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - when did an initial INVITE's first transmission reach the host?
 * The kernel stage's socket filter notes, for every initial INVITE it
 * scans, the millisecond its key was first seen, in a table shared with
 * the module (the map "ovc_ks_seen", memory-mapped by every Kamailio
 * process). The module reads it back: an initial INVITE first seen long
 * ago is a retransmission of one that never got through (dropped by the
 * stage, or by a full receive buffer), and the caller has been waiting
 * since then.
 *
 * The key is the one of the admitted-calls map and of the drop draw
 * (ovc/kstage_scan.h): the hash of the INVITE's Call-ID and of its top
 * Via's value (branch and sent-by), i.e. its transaction, not its call.
 * So the late check holds for retransmissions (they repeat the top Via:
 * the first transmission's sight), and it cannot be turned against a
 * caller: an INVITE that reuses the caller's Call-ID with another branch
 * or sent-by (a replay) has a slot of its own, so it neither makes the
 * caller's INVITE look first seen earlier (late) nor, once admitted,
 * marks it admitted; to do either a third party would have to send the
 * caller's own Call-ID and top Via before the caller does. A new attempt
 * after a 401/407 (a new branch) is first seen when it arrives.
 *
 * The table is a set of buckets of two 64-bit slots; a key goes to the
 * bucket of its low bits. A slot holds a key's tag (31 of its bits, never
 * 0) in bits 63..33, a flag in bit 32 (the module admitted the INVITE:
 * its retransmissions are not late), and the millisecond of
 * CLOCK_MONOTONIC it was first seen, modulo 2^32, in bits 31..0. A new
 * key takes its bucket's empty slot, else the one first seen longer ago;
 * a key whose slot another takes is seen as new again (never late). One
 * definition, compiled into the socket filter by clang -target bpf and
 * into the module and the unit tests.
 */
#ifndef OVC_KSTAGE_SEEN_H
#define OVC_KSTAGE_SEEN_H

#ifndef OVC_KS_INLINE
#define OVC_KS_INLINE static inline __attribute__((always_inline))
#endif

/* Buckets of the table (2^19 of 16 bytes: 8 MiB). A 16x flood of a few
 * hundred calls/s brings ~7 000 new calls a second: a bucket sees a new
 * call every ~75 s, and a call is pushed out only by two newer ones in
 * its bucket (at 7.5 s, the 4th retransmission: ~1 in 200). */
#define OVC_KS_SEEN_BITS 19u
#define OVC_KS_SEEN_BUCKETS (1u << OVC_KS_SEEN_BITS)
#define OVC_KS_SEEN_ADMITTED (1ULL << 32)

/* One bucket: the map's value. */
struct ovc_ks_seen_bucket
{
	unsigned long long s[2];
};

/* The bucket of key (ovc/kstage_scan.h). */
OVC_KS_INLINE unsigned ovc_ks_seen_index(unsigned long long key)
{
	return (unsigned)key & (OVC_KS_SEEN_BUCKETS - 1u);
}

/* Its tag, in place (bits 63..33, never 0). */
OVC_KS_INLINE unsigned long long ovc_ks_seen_tag(unsigned long long key)
{
	return ((key >> 33) | 1ULL) << 33;
}

/* 1 when slot value e holds the call key (admitted or not). */
OVC_KS_INLINE int ovc_ks_seen_holds(
		unsigned long long e, unsigned long long key)
{
	return (e & ~((1ULL << 33) - 1ULL)) == ovc_ks_seen_tag(key);
}

/* The slot of bucket b (0 or 1) that holds the call key, or -1. */
OVC_KS_INLINE int ovc_ks_seen_find(
		const volatile struct ovc_ks_seen_bucket *b, unsigned long long key)
{
	if(ovc_ks_seen_holds(b->s[0], key))
		return 0;
	if(ovc_ks_seen_holds(b->s[1], key))
		return 1;
	return -1;
}

/* The slot of bucket b a new call takes at millisecond now_ms: an empty
 * one, else the one first seen longer ago. */
OVC_KS_INLINE int ovc_ks_seen_victim(
		const volatile struct ovc_ks_seen_bucket *b, unsigned now_ms)
{
	unsigned long long e0 = b->s[0], e1 = b->s[1];

	if(e0 == 0)
		return 0;
	if(e1 == 0)
		return 1;
	return (unsigned)(now_ms - (unsigned)e0)
						   >= (unsigned)(now_ms - (unsigned)e1)
				   ? 0
				   : 1;
}

/* The filter, on an initial INVITE of call key at millisecond now_ms:
 * notes its first sight in bucket b, unless b holds it already (its first
 * sight is kept). */
OVC_KS_INLINE void ovc_ks_seen_note(volatile struct ovc_ks_seen_bucket *b,
		unsigned long long key, unsigned now_ms)
{
	unsigned long long v = ovc_ks_seen_tag(key) | (unsigned long long)now_ms;

	if(ovc_ks_seen_find(b, key) >= 0)
		return;
	if(ovc_ks_seen_victim(b, now_ms) == 0)
		b->s[0] = v;
	else
		b->s[1] = v;
}

/* How long ago, ms, the call key was first seen, its bucket b, at
 * millisecond now_ms: -1 when b does not hold it, or it was admitted.
 * Each slot is read once: one the filter rewrites meanwhile holds
 * another call, or this one as before. */
OVC_KS_INLINE long long ovc_ks_seen_age_ms(
		const volatile struct ovc_ks_seen_bucket *b, unsigned long long key,
		unsigned now_ms)
{
	unsigned long long e0 = b->s[0], e1 = b->s[1], e;

	e = ovc_ks_seen_holds(e0, key) ? e0 : ovc_ks_seen_holds(e1, key) ? e1 : 0;
	if(e == 0 || (e & OVC_KS_SEEN_ADMITTED))
		return -1;
	return (long long)(unsigned)(now_ms - (unsigned)e);
}

/* Marks the call key admitted in bucket b at millisecond now_ms (its
 * first sight kept when b holds it, else it takes a slot as new). The
 * flag is set by one compare-and-swap of the slot as read: a slot the
 * filter gave another call meanwhile is left to that call (a plain
 * read-modify-write would write this call's tag back over it). Used by
 * the module only (not by the filter). */
OVC_KS_INLINE void ovc_ks_seen_admit(volatile struct ovc_ks_seen_bucket *b,
		unsigned long long key, unsigned now_ms)
{
	int i = ovc_ks_seen_find(b, key);
	unsigned long long e;

	if(i < 0) {
		b->s[ovc_ks_seen_victim(b, now_ms)] = ovc_ks_seen_tag(key)
											  | OVC_KS_SEEN_ADMITTED
											  | (unsigned long long)now_ms;
		return;
	}
	e = b->s[i];
	if(ovc_ks_seen_holds(e, key))
		__sync_bool_compare_and_swap(&b->s[i], e, e | OVC_KS_SEEN_ADMITTED);
}

#endif
