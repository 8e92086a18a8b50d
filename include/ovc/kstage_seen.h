/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - when did a call's first INVITE reach the host? The kernel stage's
 * socket filter notes, for every initial INVITE it scans, the millisecond
 * its call (its Call-ID's hash, ovc/kstage_scan.h) was first seen, in a
 * table of 64-bit slots shared with the module (the map "ovc_ks_seen",
 * memory-mapped by every Kamailio process). The module reads it back: an
 * initial INVITE whose call was first seen long ago is a retransmission
 * of a call that never got through (dropped by the stage, or by a full
 * receive buffer), and the caller has been waiting since then.
 *
 * A slot holds a call's tag (31 bits of its hash, never 0) in bits
 * 63..33, a flag in bit 32 (the module admitted the call: its later
 * INVITEs, e.g. the new attempt after a 407, are not late), and the
 * millisecond of CLOCK_MONOTONIC it was first seen, modulo 2^32, in bits
 * 31..0. Direct-mapped: a call whose slot another call takes is seen as
 * new again (never late). One definition, compiled into the socket
 * filter by clang -target bpf and into the module and the unit tests.
 */
#ifndef OVC_KSTAGE_SEEN_H
#define OVC_KSTAGE_SEEN_H

#ifndef OVC_KS_INLINE
#define OVC_KS_INLINE static inline __attribute__((always_inline))
#endif

/* Slots of the table (2^19: 4 MiB; a 16x flood of a few hundred calls/s
 * keeps ~7 000 calls/s alive for Timer B's 32 s, ~220 000). */
#define OVC_KS_SEEN_BITS 19u
#define OVC_KS_SEEN_SLOTS (1u << OVC_KS_SEEN_BITS)
#define OVC_KS_SEEN_ADMITTED (1ULL << 32)

/* The slot of the call of Call-ID hash key. */
OVC_KS_INLINE unsigned ovc_ks_seen_slot(unsigned long long key)
{
	return (unsigned)key & (OVC_KS_SEEN_SLOTS - 1u);
}

/* Its tag, in place (bits 63..33, never 0). */
OVC_KS_INLINE unsigned long long ovc_ks_seen_tag(unsigned long long key)
{
	return ((key >> 33) | 1ULL) << 33;
}

/* The filter, on an initial INVITE of call key at millisecond now_ms,
 * its slot holding e: the value to store when the call is new there, 0
 * when the slot holds it already (its first sight is kept). */
OVC_KS_INLINE unsigned long long ovc_ks_seen_note(
		unsigned long long e, unsigned long long key, unsigned now_ms)
{
	unsigned long long tag = ovc_ks_seen_tag(key);

	if((e & ~((1ULL << 33) - 1ULL)) == tag)
		return 0;
	return tag | (unsigned long long)now_ms;
}

/* How long ago, ms, the call key was first seen, its slot holding e at
 * millisecond now_ms: -1 when the slot holds another call (or none) or
 * the call was admitted. */
OVC_KS_INLINE long long ovc_ks_seen_age_ms(
		unsigned long long e, unsigned long long key, unsigned now_ms)
{
	if((e & ~((1ULL << 32) - 1ULL)) != ovc_ks_seen_tag(key))
		return -1; /* another call, or admitted (bit 32 set) */
	return (long long)(unsigned)(now_ms - (unsigned)e);
}

/* The value that marks the call key admitted at millisecond now_ms, its
 * slot holding e (its first sight kept when the slot holds it). */
OVC_KS_INLINE unsigned long long ovc_ks_seen_admit(
		unsigned long long e, unsigned long long key, unsigned now_ms)
{
	unsigned long long tag = ovc_ks_seen_tag(key);

	if((e & ~((1ULL << 33) - 1ULL)) == tag)
		return e | OVC_KS_SEEN_ADMITTED;
	return tag | OVC_KS_SEEN_ADMITTED | (unsigned long long)now_ms;
}

#endif
