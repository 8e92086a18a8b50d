/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - memory of recently rejected requests (see include/ovc/rejmem.h).
 */
#include <string.h>

#include "ovc/rejmem.h"

void ovc_rejmem_init(struct ovc_rejmem *m)
{
	unsigned i;

	for(i = 0; i < OVC_REJMEM_SLOTS; i++) {
		atomic_init(&m->key[i], 0);
		atomic_init(&m->sec[i], 0);
	}
}

static uint64_t nonzero(uint64_t key)
{
	return key ? key : 1;
}

void ovc_rejmem_put(
		struct ovc_rejmem *m, uint64_t key, uint32_t now_s, int decision)
{
	unsigned i, idx, oldest = 0;
	uint32_t oldest_age = 0;

	key = nonzero(key);
	for(i = 0; i < OVC_REJMEM_PROBE; i++) {
		uint64_t k;
		uint32_t age;

		idx = (unsigned)(key + i) & (OVC_REJMEM_SLOTS - 1);
		k = atomic_load_explicit(&m->key[idx], memory_order_relaxed);
		if(k == key || k == 0) {
			oldest = idx;
			break;
		}
		age = now_s
			  - (atomic_load_explicit(&m->sec[idx], memory_order_relaxed)
					  >> 2);
		if(i == 0 || age > oldest_age) {
			oldest = idx;
			oldest_age = age;
		}
	}
	/* time first, so a reader that sees the key sees a fresh time */
	if(decision != OVC_REJMEM_ADMITTED && decision != OVC_REJMEM_QUEUED)
		decision = OVC_REJMEM_REJECTED;
	atomic_store_explicit(&m->sec[oldest], (now_s << 2) | (uint32_t)decision,
			memory_order_relaxed);
	atomic_store_explicit(&m->key[oldest], key, memory_order_release);
}

int ovc_rejmem_get(const struct ovc_rejmem *m, uint64_t key, uint32_t now_s,
		uint32_t ttl_s)
{
	unsigned i, idx;
	uint32_t v;

	key = nonzero(key);
	for(i = 0; i < OVC_REJMEM_PROBE; i++) {
		idx = (unsigned)(key + i) & (OVC_REJMEM_SLOTS - 1);
		if(atomic_load_explicit(&m->key[idx], memory_order_acquire) != key)
			continue;
		v = atomic_load_explicit(&m->sec[idx], memory_order_relaxed);
		if(now_s - (v >> 2) >= ttl_s)
			return -1;
		return (int)(v & 3u);
	}
	return -1;
}
