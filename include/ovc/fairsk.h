/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the fair share's sketch: how many initial INVITEs each source
 * sent in the last complete epoch (one second), in bounded memory, and
 * the per-call pass decision under a water level (ovc/fair.h). One
 * definition, compiled into the kernel stage's socket filter by clang
 * -target bpf and into the module and the unit tests; no includes.
 *
 * A count-min sketch: OVC_FAIR_ROWS rows of OVC_FAIR_COLS 32-bit
 * counters, a source (its key: a hash of its address, or of a trunk
 * identity) counted once in each row at a column of its own hash per
 * row; its rate m_s is the smaller of its two counters (never below its
 * true count; above it only when another source shares both columns).
 * Three copies rotate each epoch: one counts, the one before it (the
 * last complete epoch) answers m_s, the third is cleared for the next
 * epoch. Nothing a sender does grows it: 3 x 2 x 4096 x 4 bytes = 96 KiB.
 *
 * The decision (max-min, the heaviest pay first): under the water level
 * L (arrivals per epoch) a request of source s passes with probability
 * min(1, L / m_s), decided by a hash of its call, so that every
 * transmission of one call gets one verdict:
 *
 *   pass  <=>  m_s <= L  or  h(call) m_s < L 2^32   (h in [0, 2^32))
 *
 * (no division: the filter has none to spare).
 */
#ifndef OVC_FAIRSK_H
#define OVC_FAIRSK_H

#ifndef OVC_KS_INLINE
#define OVC_KS_INLINE static inline __attribute__((always_inline))
#endif

#define OVC_FAIR_ROWS 2u
#define OVC_FAIR_COL_BITS 12u
#define OVC_FAIR_COLS (1u << OVC_FAIR_COL_BITS)
#define OVC_FAIR_COPIES 3u
/* the level that cuts nothing */
#define OVC_FAIR_ALL 0xffffffffu

/* The counters: c[copy][row][column], arrivals in that copy's epoch. */
struct ovc_fair_sketch
{
	unsigned c[OVC_FAIR_COPIES][OVC_FAIR_ROWS][OVC_FAIR_COLS];
};

/* The kernel stage's sketch (map "ovc_ks_fair", ovc/kstage_abi.h),
 * memory-mapped by the module: the copy counting and the level in force
 * beside the counters, written by the ticker. */
struct ovc_ks_fair
{
	unsigned copy;	/* the copy counting now (< OVC_FAIR_COPIES) */
	unsigned level; /* L of the drop share, arrivals per epoch;
					   OVC_FAIR_ALL: the share drops calls alike
					   (ovc_ks_call_dropped()) */
	struct ovc_fair_sketch sk;
};

/* The column of source key src in row (0 or 1). */
OVC_KS_INLINE unsigned ovc_fair_col(unsigned long long src, unsigned row)
{
	unsigned long long h = src + (row ? 0x632be59bd9b4e019ULL : 0);

	h *= 0x9e3779b97f4a7c15ULL;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return (unsigned)(h >> (64u - OVC_FAIR_COL_BITS));
}

/* The copy that answers m_s while copy counts (the one before it). */
OVC_KS_INLINE unsigned ovc_fair_prev(unsigned copy)
{
	return copy == 0 ? OVC_FAIR_COPIES - 1u : copy - 1u;
}

/* Counts one arrival of source src in copy (< OVC_FAIR_COPIES). */
OVC_KS_INLINE void ovc_fair_count(
		struct ovc_fair_sketch *s, unsigned copy, unsigned long long src)
{
	if(copy >= OVC_FAIR_COPIES)
		return;
	__sync_fetch_and_add(&s->c[copy][0][ovc_fair_col(src, 0)], 1u);
	__sync_fetch_and_add(&s->c[copy][1][ovc_fair_col(src, 1)], 1u);
}

/* Source src's arrivals in copy (< OVC_FAIR_COPIES): the smaller of its
 * counters. */
OVC_KS_INLINE unsigned ovc_fair_rate(const volatile struct ovc_fair_sketch *s,
		unsigned copy, unsigned long long src)
{
	unsigned a, b;

	if(copy >= OVC_FAIR_COPIES)
		return 0;
	a = s->c[copy][0][ovc_fair_col(src, 0)];
	b = s->c[copy][1][ovc_fair_col(src, 1)];
	return a < b ? a : b;
}

/* Does a call of hash call from a source of rate m pass under level? 1
 * or 0. The call's hash is mixed apart from the kernel stage's uniform
 * drop (ovc_ks_call_dropped()). */
OVC_KS_INLINE int ovc_fair_passes(
		unsigned long long call, unsigned m, unsigned level)
{
	unsigned long long h = (call * 0xd6e8feb86659fd93ULL) >> 32;

	if(level == OVC_FAIR_ALL || m <= level)
		return 1;
	return h * (unsigned long long)m < ((unsigned long long)level << 32);
}

#endif
