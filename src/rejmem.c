/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - memory of recently rejected requests (see include/ovc/rejmem.h).
 */
#include <string.h>

#include "ovc/rejmem.h"

/* Bits of a slot: the tag above, the stored second, the decision. */
#define TAG_SHIFT 24
#define SEC_BITS 22
#define SEC_MASK ((1u << SEC_BITS) - 1)

void ovc_rejmem_init(struct ovc_rejmem *m)
{
	unsigned i;

	for(i = 0; i < OVC_REJMEM_SLOTS; i++)
		atomic_init(&m->slot[i], 0);
}

/* splitmix64's finaliser: every bit of key reaches the tag and the index */
static uint64_t mix(uint64_t key)
{
	key ^= key >> 30;
	key *= 0xbf58476d1ce4e5b9ULL;
	key ^= key >> 27;
	key *= 0x94d049bb133111ebULL;
	key ^= key >> 31;
	return key;
}

/* The tag of a mixed key, never 0 (an empty slot). */
static uint64_t tag_of(uint64_t h)
{
	uint64_t t = h >> TAG_SHIFT;

	return t ? t : 1;
}

unsigned ovc_rejmem_home(uint64_t key)
{
	return (unsigned)mix(key) & (OVC_REJMEM_SLOTS - 1);
}

/* Seconds since the second stored in slot value v, at now_s. */
static uint32_t age_of(uint64_t v, uint32_t now_s)
{
	return (now_s - (uint32_t)(v >> 2)) & SEC_MASK;
}

/* Slot value for tag at now_s with decision d (other values: REJECTED). */
static uint64_t slot_value(uint64_t tag, uint32_t now_s, int d)
{
	if(d != OVC_REJMEM_ADMITTED && d != OVC_REJMEM_QUEUED
			&& d != OVC_REJMEM_CANCELLED)
		d = OVC_REJMEM_REJECTED;
	return tag << TAG_SHIFT | (uint64_t)(now_s & SEC_MASK) << 2
		   | (uint64_t)d;
}

void ovc_rejmem_put(
		struct ovc_rejmem *m, uint64_t key, uint32_t now_s, int decision)
{
	uint64_t h = mix(key), tag = tag_of(h), v;
	unsigned i, idx, oldest = 0;
	uint32_t age, oldest_age = 0;

	for(i = 0; i < OVC_REJMEM_PROBE; i++) {
		idx = (unsigned)(h + i) & (OVC_REJMEM_SLOTS - 1);
		v = atomic_load_explicit(&m->slot[idx], memory_order_relaxed);
		if(v == 0 || v >> TAG_SHIFT == tag) {
			oldest = idx;
			break;
		}
		age = age_of(v, now_s);
		if(i == 0 || age > oldest_age) {
			oldest = idx;
			oldest_age = age;
		}
	}
	atomic_store_explicit(&m->slot[oldest], slot_value(tag, now_s, decision),
			memory_order_release);
}

/* The slot holding key (its first in probe order), with key's tag in
 * *tag and the slot's value in *v; -1 when none does. */
static int slot_of(
		const struct ovc_rejmem *m, uint64_t key, uint64_t *tag, uint64_t *v)
{
	uint64_t h = mix(key);
	unsigned i, idx;

	*tag = tag_of(h);
	for(i = 0; i < OVC_REJMEM_PROBE; i++) {
		idx = (unsigned)(h + i) & (OVC_REJMEM_SLOTS - 1);
		*v = atomic_load_explicit(&m->slot[idx], memory_order_acquire);
		if(*v != 0 && *v >> TAG_SHIFT == *tag)
			return (int)idx;
	}
	return -1;
}

int ovc_rejmem_cas(struct ovc_rejmem *m, uint64_t key, uint32_t now_s,
		uint32_t ttl_s, int from, int to, int *found)
{
	uint64_t tag, v;
	int idx = slot_of(m, key, &tag, &v);

	if(idx < 0)
		return -1;
	/* retried while others change it; a failed CAS reloads v */
	for(;;) {
		if(v >> TAG_SHIFT != tag || age_of(v, now_s) >= ttl_s)
			return -1; /* overwritten by another key, or expired */
		if((int)(v & 3u) != from) {
			if(found != NULL)
				*found = (int)(v & 3u);
			return 0;
		}
		if(atomic_compare_exchange_weak_explicit(&m->slot[idx], &v,
				   slot_value(tag, now_s, to), memory_order_acq_rel,
				   memory_order_acquire))
			return 1;
	}
}

int ovc_rejmem_get(const struct ovc_rejmem *m, uint64_t key, uint32_t now_s,
		uint32_t ttl_s)
{
	uint64_t tag, v;

	if(slot_of(m, key, &tag, &v) < 0 || age_of(v, now_s) >= ttl_s)
		return -1;
	return (int)(v & 3u);
}
