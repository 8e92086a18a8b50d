/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the next-hop table of RFC 7339's client side (see
 * include/ovc/nexthop.h). Open addressing with linear probing from
 * hash & (OVC_NH_MAX - 1); an entry is claimed once (state 0 -> 1 by CAS),
 * its key written, then published (state 2, release) and never freed, so
 * a probe sequence only ever grows. Two creators of one key walk the same
 * sequence; at the first slot either claims, the other finds it claimed
 * (state 1), waits for it to be ready and compares keys: both get it.
 */
#include <limits.h>
#include <sched.h>
#include <string.h>

#include "ovc/nexthop.h"

#define NH_MASK (OVC_NH_MAX - 1)

#define NH_FREE 0u
#define NH_CLAIMING 1u
#define NH_READY 2u

/* Waiting for a claimed entry to be ready: busy polls, then yields. A
 * claimer writes a few dozen bytes between its CAS and its release; only a
 * claimer descheduled (or dead) in between makes a reader yield, and one
 * stuck past the yields makes ovc_nh_get() give up (NULL) rather than
 * guess. */
#define NH_SPIN 1024
#define NH_YIELDS 100000

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

static void nh_clear(struct ovc_nexthop *h)
{
	atomic_init(&h->seq, 0);
	atomic_init(&h->reduction, 0);
	atomic_init(&h->expires_ns, 0);
	atomic_init(&h->heard_ns, 0);
	atomic_init(&h->feedbacks, 0);
	atomic_init(&h->passed, 0);
	atomic_init(&h->refused, 0);
	atomic_init(&h->refused_mark, 0);
	atomic_init(&h->refused_1s, 0);
	ovc_acceptor_init(&h->acc, 1.0);
}

void ovc_nh_init(struct ovc_nh_table *t)
{
	unsigned i;

	memset(t, 0, sizeof(*t));
	atomic_init(&t->used, 0);
	for(i = 0; i < OVC_NH_MAX; i++) {
		atomic_init(&t->hop[i].state, NH_FREE);
		nh_clear(&t->hop[i]);
	}
}

/* The state of e once it is no longer being claimed (acquire), or
 * NH_CLAIMING when its claimer did not finish in time. */
static uint32_t nh_wait_ready(struct ovc_nexthop *e)
{
	uint32_t s;
	unsigned i;

	for(i = 0; i < NH_SPIN + NH_YIELDS; i++) {
		s = atomic_load_explicit(&e->state, memory_order_acquire);
		if(s != NH_CLAIMING)
			return s;
		if(i >= NH_SPIN)
			sched_yield();
	}
	return NH_CLAIMING;
}

/* Writes key into the entry e just claimed and publishes it. */
static void nh_fill(struct ovc_nh_table *t, struct ovc_nexthop *e,
		const char *key, size_t len, uint64_t hash)
{
	memcpy(e->key, key, len);
	e->key[len] = '\0';
	e->key_len = (uint32_t)len;
	e->hash = hash; /* its other fields are as ovc_nh_init() left them */
	atomic_store_explicit(&e->state, NH_READY, memory_order_release);
	atomic_fetch_add_explicit(&t->used, 1, memory_order_relaxed);
}

struct ovc_nexthop *ovc_nh_get(
		struct ovc_nh_table *t, const char *key, size_t len, int create)
{
	struct ovc_nexthop *e;
	uint64_t hash;
	uint32_t s;
	unsigned i, n;

	if(t == NULL || key == NULL || len == 0 || len >= OVC_NH_KEY_MAX)
		return NULL;
	hash = nh_hash(key, len);
	for(n = 0; n < OVC_NH_MAX; n++) {
		i = (unsigned)(hash + n) & NH_MASK;
		e = &t->hop[i];
		s = atomic_load_explicit(&e->state, memory_order_acquire);
		if(s == NH_FREE) {
			if(!create)
				return NULL; /* the key would be here or before */
			if(atomic_compare_exchange_strong_explicit(&e->state, &s,
					   NH_CLAIMING, memory_order_acquire,
					   memory_order_acquire)) {
				nh_fill(t, e, key, len, hash);
				return e;
			}
			/* another claimed it first: s is what it saw */
		}
		if(s == NH_CLAIMING) {
			s = nh_wait_ready(e);
			if(s != NH_READY)
				return NULL;
		}
		if(e->hash == hash && e->key_len == len
				&& memcmp(e->key, key, len) == 0)
			return e;
	}
	return NULL;
}

/* expires_ns for a value heard at now that holds validity_ms (< 0:
 * absent), saturated. */
static int64_t nh_expiry(ovc_time_ns now, int64_t validity_ms)
{
	if(validity_ms < 0)
		validity_ms = OVC_OC_VALIDITY_DEFAULT_MS;
	if(validity_ms > (INT64_MAX - (now > 0 ? now : 0)) / OVC_NS_PER_MS)
		return INT64_MAX;
	return now + validity_ms * OVC_NS_PER_MS;
}

int ovc_nh_feedback(
		struct ovc_nexthop *h, const struct ovc_oc_via *oc, ovc_time_ns now)
{
	uint64_t cur;

	if(h == NULL || oc == NULL || oc->value < 0 || oc->value > 100)
		return 0;
	if(oc->algos != 0 && !(oc->algos & OVC_OC_ALGO_LOSS))
		return 0;
	/* take oc->seq when it is newer: larger, or both absent */
	cur = atomic_load_explicit(&h->seq, memory_order_relaxed);
	do {
		if(!(oc->seq > cur || (oc->seq == 0 && cur == 0)))
			return 0;
	} while(!atomic_compare_exchange_weak_explicit(&h->seq, &cur, oc->seq,
			memory_order_acq_rel, memory_order_relaxed));
	/* the acceptor first: an admit that sees the new value in force
	 * applies its fraction */
	ovc_acceptor_set(&h->acc, 1.0 - (double)oc->value / 100.0);
	atomic_store_explicit(
			&h->reduction, (uint32_t)oc->value, memory_order_relaxed);
	atomic_store_explicit(&h->expires_ns, nh_expiry(now, oc->validity_ms),
			memory_order_release);
	atomic_store_explicit(&h->heard_ns, now, memory_order_relaxed);
	atomic_fetch_add_explicit(&h->feedbacks, 1, memory_order_relaxed);
	return 1;
}

/* Next hop h's reduction in force at now, percent (0 when none). */
static uint32_t nh_in_force(const struct ovc_nexthop *h, ovc_time_ns now)
{
	struct ovc_nexthop *m = (struct ovc_nexthop *)h;
	int64_t exp;

	exp = atomic_load_explicit(&m->expires_ns, memory_order_acquire);
	if(now >= exp)
		return 0;
	return atomic_load_explicit(&m->reduction, memory_order_relaxed);
}

double ovc_nh_reduction(const struct ovc_nexthop *h, ovc_time_ns now)
{
	if(h == NULL)
		return 0.0;
	return (double)nh_in_force(h, now) / 100.0;
}

int ovc_nh_admit(struct ovc_nexthop *h, ovc_time_ns now)
{
	int ok = 1;

	if(h == NULL)
		return 1;
	if(nh_in_force(h, now) > 0)
		ok = ovc_acceptor_take(&h->acc);
	atomic_fetch_add_explicit(
			ok ? &h->passed : &h->refused, 1, memory_order_relaxed);
	return ok;
}

/* Entry i when it is ready (acquire), else NULL. */
static struct ovc_nexthop *nh_ready(const struct ovc_nh_table *t, unsigned i)
{
	struct ovc_nexthop *e = (struct ovc_nexthop *)&t->hop[i];

	if(atomic_load_explicit(&e->state, memory_order_acquire) != NH_READY)
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

void ovc_nh_second(struct ovc_nh_table *t)
{
	struct ovc_nexthop *e;
	uint64_t r, m;
	unsigned i;

	if(t == NULL)
		return;
	for(i = 0; i < OVC_NH_MAX; i++) {
		if((e = nh_ready(t, i)) == NULL)
			continue;
		r = atomic_load_explicit(&e->refused, memory_order_relaxed);
		m = atomic_load_explicit(&e->refused_mark, memory_order_relaxed);
		atomic_store_explicit(&e->refused_1s, r - m, memory_order_relaxed);
		atomic_store_explicit(&e->refused_mark, r, memory_order_relaxed);
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
		s = atomic_load_explicit(&e->state, memory_order_acquire);
		if(s == NH_FREE)
			continue;
		if(n++ == i)
			return s == NH_READY ? e : NULL;
	}
	return NULL;
}
