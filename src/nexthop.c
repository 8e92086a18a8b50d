/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the next-hop table of RFC 7339's client side (see
 * include/ovc/nexthop.h). Open addressing with linear probing from
 * hash & (OVC_NH_MAX - 1). Each entry's state word holds its state (free,
 * being claimed, ready, or a tombstone: evicted, still part of the probe
 * sequences that pass it) and a generation, + 1 at each change. Readers
 * take no lock: a probe skips what is not ready and stops at a free
 * entry; it reads the state word before and after comparing a key, and
 * looks again when it changed (the entry was reused meanwhile). Entries
 * are claimed, evicted and reused under the table's lock, which no
 * request waits for: creators (a next hop's first feedback) wait a
 * bounded while, the ticker's sweep only tries it. A full table's
 * creator reuses the entry it evicts at once; the sweep's tombstones go
 * back to free once no probe sequence to a ready entry passes them, so
 * that lookups of absent keys stay short. A process that found an entry
 * just before it was evicted and reused may count one request or
 * feedback on its new next hop; only an entry not in use
 * (ovc_nh_in_use()) is ever evicted, so this needs its
 * next hop silent for OVC_NH_IN_USE_MS and a process stalled in between.
 *
 * A feedback in force is two words. fb, ovc_nh_pack(oc-seq, reduction),
 * orders the feedbacks: one CAS takes a newer one, so of two processes
 * taking feedbacks of one next hop at once the newer always wins, and an
 * older one can no more be stored over it. force, what the readers
 * apply, holds the reduction with its expiry and a generation:
 *
 *   bits 63..23  expiry, ms of the monotonic clock (FORCE_EXP_NEVER: none)
 *   bits 22..16  reduction, percent
 *   bits 15..0   generation, + 1 at each store (a CAS that read the
 *                word fails after any store but the 65536th)
 *
 * so that one atomic read gives a reduction with its own validity. The
 * process that took fb installs its force by CAS, and keeps trying for as
 * long as fb is still its own; one whose fb was overtaken stops (the newer
 * one installs its own). A CAS of an overtaken process that lands first is
 * overwritten by the owner's, one that comes later fails (the generation
 * moved), so force always ends as the newest fb's.
 */
#include <limits.h>
#include <sched.h>
#include <string.h>

#include "ovc/nexthop.h"

#define NH_MASK (OVC_NH_MAX - 1)

/* an entry's state word: generation << 2 | state */
#define NH_FREE 0u
#define NH_CLAIMING 1u
#define NH_READY 2u
#define NH_TOMB 3u
#define NH_ST(w) ((w) & 3u)
#define NH_NEXT(w, st) ((((w) >> 2) + 1) << 2 | (st))

/* a reader's looks at one entry that keeps changing under it */
#define NH_REREADS 8

/* waiting for the table's lock: busy polls, then yields */
#define NH_SPIN 1024
#define NH_YIELDS 10000

#define FORCE_GEN_BITS 16
#define FORCE_RED_SHIFT FORCE_GEN_BITS
#define FORCE_EXP_SHIFT (FORCE_RED_SHIFT + OVC_NH_RED_BITS)
#define FORCE_EXP_NEVER (UINT64_MAX >> FORCE_EXP_SHIFT) /* 69 years */
#define FORCE_GEN_MASK ((UINT64_C(1) << FORCE_GEN_BITS) - 1)
#define FORCE_RED_MASK ((UINT64_C(1) << OVC_NH_RED_BITS) - 1)

/* ovc_nh_view()'s rereads while a feedback is being installed */
#define NH_VIEW_TRIES 64

_Static_assert((OVC_NH_MAX & NH_MASK) == 0, "OVC_NH_MAX: a power of two");

/* FNV-1a, 64 bits. */
static uint64_t nh_hash(const char *key, size_t len)
{
	uint64_t h = UINT64_C(14695981039346656037);
	size_t i;

	for(i = 0; i < len; i++) {
		h ^= (unsigned char)key[i];
		h *= UINT64_C(1099511628211);
	}
	return h;
}

uint64_t ovc_nh_key_hash(const char *key, size_t len)
{
	return nh_hash(key, len);
}

uint64_t ovc_nh_announce_next(
		uint64_t cur, uint64_t seq_now, unsigned reduction)
{
	uint64_t prev = ovc_nh_packed_seq(cur);
	uint64_t seq = seq_now > prev ? seq_now : prev + 1;

	if(seq > OVC_NH_SEQ_MAX)
		seq = OVC_NH_SEQ_MAX; /* 45,000 years past 1970 */
	return ovc_nh_pack(seq, reduction > 100 ? 100 : reduction);
}

static uint64_t force_pack(uint64_t exp_ms, unsigned red, uint64_t gen)
{
	return exp_ms << FORCE_EXP_SHIFT | (uint64_t)red << FORCE_RED_SHIFT
		   | (gen & FORCE_GEN_MASK);
}

static uint64_t force_exp(uint64_t f)
{
	return f >> FORCE_EXP_SHIFT;
}

static unsigned force_red(uint64_t f)
{
	return (unsigned)(f >> FORCE_RED_SHIFT & FORCE_RED_MASK);
}

/* Does force word f still apply at now? */
static int force_live(uint64_t f, ovc_time_ns now)
{
	uint64_t exp = force_exp(f);

	if(exp == FORCE_EXP_NEVER)
		return 1;
	/* exp < 2^41: exp * 10^6 fits */
	return now < (int64_t)exp * OVC_NS_PER_MS;
}

static void nh_clear(struct ovc_nexthop *h)
{
	atomic_init(&h->fb, 0);
	atomic_init(&h->force, 0);
	atomic_init(&h->heard_ns, 0);
	atomic_init(&h->feedbacks, 0);
	atomic_init(&h->passed, 0);
	atomic_init(&h->refused, 0);
	atomic_init(&h->refused_mark, 0);
	atomic_init(&h->refused_1s, 0);
	atomic_init(&h->routed, 0);
	atomic_init(&h->routed_mark, 0);
	atomic_init(&h->routed_1s, 0);
	ovc_acceptor_init(&h->acc, 1.0);
}

void ovc_nh_init(struct ovc_nh_table *t)
{
	unsigned i;

	memset(t, 0, sizeof(*t));
	atomic_init(&t->lock, 0);
	atomic_init(&t->evicted, 0);
	atomic_init(&t->used, 0);
	atomic_init(&t->routed, 0);
	atomic_init(&t->routed_mark, 0);
	atomic_init(&t->routed_1s, 0);
	for(i = 0; i < OVC_NH_MAX; i++) {
		atomic_init(&t->hop[i].state, NH_FREE);
		nh_clear(&t->hop[i]);
	}
}

static int nh_trylock(struct ovc_nh_table *t)
{
	uint32_t free_ = 0;

	return atomic_compare_exchange_strong_explicit(
			&t->lock, &free_, 1, memory_order_acquire, memory_order_relaxed);
}

/* The lock, waited for a while (its holders do a few microseconds of
 * work, no system call): busy polls, then yields. 0 when it stayed taken
 * (its holder descheduled for long, or dead): the caller gives up rather
 * than wait for good. */
static int nh_lock(struct ovc_nh_table *t)
{
	unsigned i;

	for(i = 0; i < NH_SPIN + NH_YIELDS; i++) {
		if(atomic_load_explicit(&t->lock, memory_order_relaxed) == 0
				&& nh_trylock(t))
			return 1;
		if(i >= NH_SPIN)
			sched_yield();
	}
	return 0;
}

static void nh_unlock(struct ovc_nh_table *t)
{
	atomic_store_explicit(&t->lock, 0, memory_order_release);
}

static uint32_t nh_state(const struct ovc_nexthop *e)
{
	return atomic_load_explicit(
			(_Atomic uint32_t *)&e->state, memory_order_acquire);
}

/* Does ready entry e (state word w) hold key (len bytes, hash)? -1 when
 * it changed while it was being compared. */
static int nh_match(const struct ovc_nexthop *e, uint32_t w, const char *key,
		size_t len, uint64_t hash)
{
	int eq = e->hash == hash && e->key_len == len
			 && memcmp(e->key, key, len) == 0;

	atomic_thread_fence(memory_order_acquire);
	if(atomic_load_explicit((_Atomic uint32_t *)&e->state,
			   memory_order_relaxed)
			!= w)
		return -1;
	return eq;
}

/* The ready entry of key, or NULL. Lock-free. */
static struct ovc_nexthop *nh_find(
		struct ovc_nh_table *t, const char *key, size_t len, uint64_t hash)
{
	struct ovc_nexthop *e;
	unsigned n, k;
	uint32_t w;
	int m;

	for(n = 0; n < OVC_NH_MAX; n++) {
		e = &t->hop[(unsigned)(hash + n) & NH_MASK];
		for(k = 0; k < NH_REREADS; k++) {
			w = nh_state(e);
			if(NH_ST(w) == NH_FREE)
				return NULL; /* the key would be here or before */
			if(NH_ST(w) != NH_READY)
				break;
			m = nh_match(e, w, key, len, hash);
			if(m == 1)
				return e;
			if(m == 0)
				break;
		}
	}
	return NULL;
}

int ovc_nh_in_use(const struct ovc_nexthop *h, ovc_time_ns now)
{
	int64_t heard;

	if(h == NULL)
		return 0;
	heard = atomic_load_explicit(
			(_Atomic int64_t *)&h->heard_ns, memory_order_relaxed);
	if(heard > 0 && now - heard < (int64_t)OVC_NH_IN_USE_MS * OVC_NS_PER_MS)
		return 1;
	return ovc_nh_reduction(h, now) > 0.0;
}

/* Slot i's entry evicted: a tombstone, which probes pass (nh_compact()
 * frees it). Under the lock. */
static void nh_evict(struct ovc_nh_table *t, unsigned i)
{
	struct ovc_nexthop *e = &t->hop[i];
	uint32_t w = nh_state(e);

	atomic_store_explicit(&e->state, NH_NEXT(w, NH_TOMB), memory_order_release);
	atomic_fetch_sub_explicit(&t->used, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&t->evicted, 1, memory_order_relaxed);
}

/* Frees every tombstone that no probe sequence to a ready entry passes
 * (outside each one's run from its hash's slot to its own), so that
 * lookups of absent keys stop early again. Under the lock. */
static void nh_compact(struct ovc_nh_table *t)
{
	unsigned char kept[OVC_NH_MAX];
	unsigned i, k;
	uint32_t w;

	memset(kept, 0, sizeof(kept));
	for(i = 0; i < OVC_NH_MAX; i++) {
		if(NH_ST(nh_state(&t->hop[i])) != NH_READY)
			continue;
		for(k = (unsigned)t->hop[i].hash & NH_MASK; k != i;
				k = (k + 1) & NH_MASK)
			kept[k] = 1;
	}
	for(i = 0; i < OVC_NH_MAX; i++) {
		w = nh_state(&t->hop[i]);
		if(NH_ST(w) == NH_TOMB && !kept[i])
			atomic_store_explicit(&t->hop[i].state, NH_NEXT(w, NH_FREE),
					memory_order_release);
	}
}

/* The stalest entry that is not in use at now (the oldest feedback), or
 * -1. Under the lock. */
static int nh_stalest(struct ovc_nh_table *t, ovc_time_ns now)
{
	int64_t heard, best = INT64_MAX;
	unsigned i;
	int v = -1;

	for(i = 0; i < OVC_NH_MAX; i++) {
		if(NH_ST(nh_state(&t->hop[i])) != NH_READY
				|| ovc_nh_in_use(&t->hop[i], now))
			continue;
		heard = atomic_load_explicit(&t->hop[i].heard_ns, memory_order_relaxed);
		if(heard < best) {
			best = heard;
			v = (int)i;
		}
	}
	return v;
}

/* Claims slot i (free or a tombstone) for key, heard at now. Under the
 * lock. */
static struct ovc_nexthop *nh_claim(struct ovc_nh_table *t, unsigned i,
		const char *key, size_t len, uint64_t hash, ovc_time_ns now)
{
	struct ovc_nexthop *e = &t->hop[i];
	uint32_t w = nh_state(e);

	w = NH_NEXT(w, NH_CLAIMING);
	atomic_store_explicit(&e->state, w, memory_order_relaxed);
	atomic_thread_fence(memory_order_release); /* before the key changes */
	nh_clear(e);
	memcpy(e->key, key, len);
	e->key[len] = '\0';
	e->key_len = (uint32_t)len;
	e->hash = hash;
	atomic_store_explicit(&e->heard_ns, now, memory_order_relaxed);
	atomic_store_explicit(
			&e->state, NH_NEXT(w, NH_READY), memory_order_release);
	atomic_fetch_add_explicit(&t->used, 1, memory_order_relaxed);
	return e;
}

/* The entry of key, created under the lock when it has none. */
static struct ovc_nexthop *nh_create(struct ovc_nh_table *t, const char *key,
		size_t len, uint64_t hash, ovc_time_ns now)
{
	struct ovc_nexthop *e = NULL;
	unsigned n, i;
	int slot = -1;
	uint32_t st;

	if(!nh_lock(t))
		return NULL;
	for(n = 0; n < OVC_NH_MAX; n++) {
		i = (unsigned)(hash + n) & NH_MASK;
		st = NH_ST(nh_state(&t->hop[i]));
		if(st == NH_READY && t->hop[i].hash == hash
				&& t->hop[i].key_len == len
				&& memcmp(t->hop[i].key, key, len) == 0) {
			e = &t->hop[i]; /* created meanwhile */
			goto out;
		}
		if(st == NH_TOMB && slot < 0)
			slot = (int)i;
		if(st == NH_FREE) {
			if(slot < 0)
				slot = (int)i;
			break;
		}
	}
	if(slot < 0) {
		/* every entry ready (the whole table is key's probe sequence):
		 * the stalest not in use makes room */
		slot = nh_stalest(t, now);
		if(slot < 0)
			goto out;
		nh_evict(t, (unsigned)slot);
	}
	e = nh_claim(t, (unsigned)slot, key, len, hash, now);
out:
	nh_unlock(t);
	return e;
}

struct ovc_nexthop *ovc_nh_get(struct ovc_nh_table *t, const char *key,
		size_t len, int create, ovc_time_ns now)
{
	struct ovc_nexthop *e;
	uint64_t hash;

	if(t == NULL || key == NULL || len == 0 || len >= OVC_NH_KEY_MAX)
		return NULL;
	hash = nh_hash(key, len);
	e = nh_find(t, key, len, hash);
	if(e != NULL || !create)
		return e;
	return nh_create(t, key, len, hash, now);
}

unsigned ovc_nh_expire(struct ovc_nh_table *t, ovc_time_ns now)
{
	const int64_t idle = (int64_t)OVC_NH_IDLE_MS * OVC_NS_PER_MS;
	struct ovc_nexthop *e;
	unsigned i, n = 0;

	if(t == NULL || !nh_trylock(t))
		return 0;
	for(i = 0; i < OVC_NH_MAX; i++) {
		e = &t->hop[i];
		if(NH_ST(nh_state(e)) != NH_READY || ovc_nh_in_use(e, now)
				|| now - atomic_load_explicit(&e->heard_ns,
								 memory_order_relaxed)
						   < idle)
			continue;
		nh_evict(t, i);
		n++;
	}
	if(n > 0)
		nh_compact(t);
	nh_unlock(t);
	return n;
}

/* The expiry (force word) of a value heard at now that holds
 * validity_ms (< 0: absent; at most OVC_OC_VALIDITY_MAX_MS), ms, rounded
 * down, saturated at FORCE_EXP_NEVER. */
static uint64_t nh_expiry_ms(ovc_time_ns now, int64_t validity_ms)
{
	uint64_t base = now > 0 ? (uint64_t)(now / OVC_NS_PER_MS) : 0;

	if(validity_ms < 0)
		validity_ms = OVC_OC_VALIDITY_DEFAULT_MS;
	if(validity_ms > OVC_OC_VALIDITY_MAX_MS)
		validity_ms = OVC_OC_VALIDITY_MAX_MS;
	if(base >= FORCE_EXP_NEVER
			|| (uint64_t)validity_ms >= FORCE_EXP_NEVER - base)
		return FORCE_EXP_NEVER;
	return base + (uint64_t)validity_ms;
}

/* Is a feedback of oc-seq seq to be taken over the one in force, of cur
 * (lapsed: its validity ended)? A newer or the same sequence (a repeat
 * refreshes its validity; servers that send whole seconds announce
 * several values with one); any once the one in force lapsed, so that
 * no sequence, however large, orders a next hop's later values for
 * longer than its bounded validity (OVC_OC_VALIDITY_MAX_MS). */
static int nh_newer(uint64_t seq, uint64_t cur, int lapsed)
{
	return seq >= cur || lapsed;
}

/* Keeps heard_ns at the latest of the feedbacks taken. */
static void nh_heard(struct ovc_nexthop *h, ovc_time_ns now)
{
	int64_t cur = atomic_load_explicit(&h->heard_ns, memory_order_relaxed);

	while(now > cur
			&& !atomic_compare_exchange_weak_explicit(&h->heard_ns, &cur, now,
					memory_order_relaxed, memory_order_relaxed))
		;
}

int ovc_nh_feedback(
		struct ovc_nexthop *h, const struct ovc_oc_via *oc, ovc_time_ns now)
{
	uint64_t cur, mine, f, exp;
	unsigned red;
	int lapsed;

	if(h == NULL || oc == NULL || oc->value < 0 || oc->value > 100
			|| oc->seq > OVC_NH_SEQ_MAX)
		return 0;
	if(oc->algos != 0 && !(oc->algos & OVC_OC_ALGO_LOSS))
		return 0;
	red = (unsigned)oc->value;
	/* take the order: oc->seq with its reduction, when it is newer */
	mine = ovc_nh_pack(oc->seq, red);
	cur = atomic_load_explicit(&h->fb, memory_order_acquire);
	lapsed = !force_live(atomic_load_explicit(&h->force, memory_order_acquire),
			now);
	do {
		if(!nh_newer(oc->seq, ovc_nh_packed_seq(cur), lapsed))
			return 0;
	} while(!atomic_compare_exchange_weak_explicit(
			&h->fb, &cur, mine, memory_order_acq_rel, memory_order_acquire));
	/* install its force while fb is still this feedback's */
	exp = nh_expiry_ms(now, oc->validity_ms);
	f = atomic_load_explicit(&h->force, memory_order_acquire);
	while(atomic_load_explicit(&h->fb, memory_order_acquire) == mine) {
		if(atomic_compare_exchange_weak_explicit(&h->force, &f,
				   force_pack(exp, red, f + 1), memory_order_acq_rel,
				   memory_order_acquire)) {
			/* the acceptor's fraction follows (ovc_nh_admit() puts it
			 * back in step when an overtaken feedback set it last) */
			ovc_acceptor_set(&h->acc, 1.0 - (double)red / 100.0);
			break;
		}
	}
	nh_heard(h, now);
	atomic_fetch_add_explicit(&h->feedbacks, 1, memory_order_relaxed);
	return 1;
}

/* Next hop h's reduction in force at now, percent (0 when none): one read
 * of its force word. */
static uint32_t nh_in_force(const struct ovc_nexthop *h, ovc_time_ns now)
{
	struct ovc_nexthop *m = (struct ovc_nexthop *)h;
	uint64_t f = atomic_load_explicit(&m->force, memory_order_acquire);

	return force_live(f, now) ? force_red(f) : 0;
}

double ovc_nh_reduction(const struct ovc_nexthop *h, ovc_time_ns now)
{
	if(h == NULL)
		return 0.0;
	return (double)nh_in_force(h, now) / 100.0;
}

/* Puts next hop h's acceptor at the fraction of reduction red (percent)
 * unless it is there: a feedback overtaken between installing its force
 * and setting the acceptor may have left its own. */
static void nh_acc_follow(struct ovc_nexthop *h, uint32_t red)
{
	double f = 1.0 - (double)red / 100.0;
	struct ovc_acceptor want;

	ovc_acceptor_init(&want, f); /* the fixed point set() would store */
	if(ovc_acceptor_get(&h->acc) != ovc_acceptor_get(&want))
		ovc_acceptor_set(&h->acc, f);
}

int ovc_nh_admit(struct ovc_nexthop *h, ovc_time_ns now)
{
	uint32_t red;
	int ok = 1;

	if(h == NULL)
		return 1;
	red = nh_in_force(h, now);
	if(red > 0) {
		nh_acc_follow(h, red);
		ok = ovc_acceptor_take(&h->acc);
	}
	atomic_fetch_add_explicit(
			ok ? &h->passed : &h->refused, 1, memory_order_relaxed);
	return ok;
}

void ovc_nh_view(
		const struct ovc_nexthop *h, ovc_time_ns now, struct ovc_nh_view *v)
{
	struct ovc_nexthop *m = (struct ovc_nexthop *)h;
	uint64_t w, w2, f, exp;
	unsigned i;

	v->seq = 0;
	v->reduction = 0;
	v->left_ms = 0;
	if(h == NULL)
		return;
	/* fb, then its force: reread while they disagree (a feedback being
	 * installed), a few times */
	for(i = 0;; i++) {
		w = atomic_load_explicit(&m->fb, memory_order_acquire);
		f = atomic_load_explicit(&m->force, memory_order_acquire);
		w2 = atomic_load_explicit(&m->fb, memory_order_acquire);
		if(i + 1 >= NH_VIEW_TRIES
				|| (w == w2 && ovc_nh_packed_reduction(w) == force_red(f)))
			break;
	}
	v->seq = ovc_nh_packed_seq(w);
	if(!force_live(f, now))
		return;
	v->reduction = force_red(f);
	exp = force_exp(f);
	if(exp == FORCE_EXP_NEVER)
		v->left_ms = INT64_MAX;
	else
		v->left_ms = ((int64_t)exp * OVC_NS_PER_MS - now) / OVC_NS_PER_MS;
}

/* Entry i when it is ready (acquire), else NULL. */
static struct ovc_nexthop *nh_ready(const struct ovc_nh_table *t, unsigned i)
{
	struct ovc_nexthop *e = (struct ovc_nexthop *)&t->hop[i];

	if(NH_ST(nh_state(e)) != NH_READY)
		return NULL;
	return e;
}

double ovc_nh_max_reduction(const struct ovc_nh_table *t, ovc_time_ns now)
{
	const struct ovc_nexthop *e;
	uint32_t r, max = 0;
	unsigned i;

	if(t == NULL)
		return 0.0;
	for(i = 0; i < OVC_NH_MAX; i++) {
		if((e = nh_ready(t, i)) == NULL)
			continue;
		r = nh_in_force(e, now);
		if(r > max)
			max = r;
	}
	return (double)max / 100.0;
}

void ovc_nh_routed(struct ovc_nh_table *t, struct ovc_nexthop *h)
{
	if(t == NULL)
		return;
	atomic_fetch_add_explicit(&t->routed, 1, memory_order_relaxed);
	if(h != NULL)
		atomic_fetch_add_explicit(&h->routed, 1, memory_order_relaxed);
}

double ovc_nh_path_reduction(const struct ovc_nh_table *t, ovc_time_ns now)
{
	const struct ovc_nexthop *e;
	uint64_t all, n, sum = 0;
	unsigned i;

	if(t == NULL)
		return 0.0;
	all = atomic_load_explicit(&t->routed_1s, memory_order_relaxed);
	if(all == 0)
		return ovc_nh_max_reduction(t, now);
	for(i = 0; i < OVC_NH_MAX; i++) {
		if((e = nh_ready(t, i)) == NULL)
			continue;
		n = atomic_load_explicit(&e->routed_1s, memory_order_relaxed);
		sum += n * nh_in_force(e, now);
	}
	/* an entry's count may run ahead of the table's (counted between
	 * the two reads of a second's end): at most 100 % */
	return sum >= all * 100 ? 1.0 : (double)sum / (double)all / 100.0;
}

/* Counter v's count since the last call into *last (mark: v then). */
static void nh_roll(
		_Atomic uint64_t *v, _Atomic uint64_t *mark, _Atomic uint64_t *last)
{
	uint64_t now = atomic_load_explicit(v, memory_order_relaxed);
	uint64_t then = atomic_load_explicit(mark, memory_order_relaxed);

	atomic_store_explicit(last, now - then, memory_order_relaxed);
	atomic_store_explicit(mark, now, memory_order_relaxed);
}

void ovc_nh_second(struct ovc_nh_table *t)
{
	struct ovc_nexthop *e;
	unsigned i;

	if(t == NULL)
		return;
	for(i = 0; i < OVC_NH_MAX; i++) {
		if((e = nh_ready(t, i)) == NULL)
			continue;
		nh_roll(&e->refused, &e->refused_mark, &e->refused_1s);
		nh_roll(&e->routed, &e->routed_mark, &e->routed_1s);
	}
	nh_roll(&t->routed, &t->routed_mark, &t->routed_1s);
}

void ovc_nh_reset_counts(struct ovc_nh_table *t)
{
	struct ovc_nexthop *e;
	unsigned i;

	if(t == NULL)
		return;
	for(i = 0; i < OVC_NH_MAX; i++) {
		if((e = nh_ready(t, i)) == NULL)
			continue;
		atomic_store_explicit(&e->passed, 0, memory_order_relaxed);
		atomic_store_explicit(&e->refused, 0, memory_order_relaxed);
		atomic_store_explicit(&e->refused_mark, 0, memory_order_relaxed);
		atomic_store_explicit(&e->refused_1s, 0, memory_order_relaxed);
		atomic_store_explicit(&e->feedbacks, 0, memory_order_relaxed);
	}
}

unsigned ovc_nh_count(const struct ovc_nh_table *t)
{
	if(t == NULL)
		return 0;
	return atomic_load_explicit(
			(_Atomic uint32_t *)&t->used, memory_order_relaxed);
}

const struct ovc_nexthop *ovc_nh_at(const struct ovc_nh_table *t, unsigned i)
{
	struct ovc_nexthop *e;
	uint32_t s;
	unsigned k, n = 0;

	if(t == NULL)
		return NULL;
	for(k = 0; k < OVC_NH_MAX; k++) {
		e = (struct ovc_nexthop *)&t->hop[k];
		s = NH_ST(nh_state(e));
		if(s != NH_READY && s != NH_CLAIMING)
			continue;
		if(n++ == i)
			return s == NH_READY ? e : NULL;
	}
	return NULL;
}
