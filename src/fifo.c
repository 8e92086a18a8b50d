/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - bounded FIFO of (pointer, length, enqueue time) entries in one
 * caller-allocated block: a ring of cap slots behind a lock that is either
 * the caller's (e.g. a Kamailio gen_lock_t) or an embedded spin lock.
 */
#include <sched.h>
#include <stddef.h>
#include <string.h>

#include "ovc/fifo.h"

/* Largest capacity, entries. */
#define FIFO_CAP_MAX ((size_t)1 << 24)

static void fifo_lock(struct ovc_fifo *q)
{
	unsigned spins = 0;

	if(q->lock.lock != NULL) {
		q->lock.lock(q->lock.ctx);
		return;
	}
	while(atomic_flag_test_and_set_explicit(&q->spin, memory_order_acquire)) {
		if(++spins >= 64) {
			spins = 0;
			sched_yield();
		}
	}
}

static void fifo_unlock(struct ovc_fifo *q)
{
	if(q->lock.unlock != NULL) {
		q->lock.unlock(q->lock.ctx);
		return;
	}
	atomic_flag_clear_explicit(&q->spin, memory_order_release);
}

int ovc_fifo_create(struct ovc_fifo **out, size_t cap,
		const struct ovc_fifo_alloc *a, const struct ovc_fifo_lock *lk)
{
	struct ovc_fifo *q;
	size_t size;

	if(out == NULL || a == NULL || a->alloc == NULL || a->free == NULL)
		return OVC_EINVAL;
	if(lk != NULL && ((lk->lock == NULL) != (lk->unlock == NULL)))
		return OVC_EINVAL;
	if(cap == 0 || cap > FIFO_CAP_MAX)
		return OVC_ERANGE;
	size = sizeof(*q) + cap * sizeof(q->ring[0]);
	q = a->alloc(a->ctx, size);
	if(q == NULL)
		return OVC_ENOMEM;
	memset(q, 0, size);
	q->alloc = *a;
	if(lk != NULL)
		q->lock = *lk;
	atomic_flag_clear(&q->spin);
	q->cap = cap;
	*out = q;
	return OVC_OK;
}

void ovc_fifo_destroy(struct ovc_fifo *q)
{
	struct ovc_fifo_alloc a;

	if(q == NULL)
		return;
	a = q->alloc;
	a.free(a.ctx, q);
}

int ovc_fifo_push(struct ovc_fifo *q, void *data, size_t len,
		ovc_time_ns now)
{
	struct ovc_fifo_entry *e;

	fifo_lock(q);
	if(q->len == q->cap) {
		q->refused++;
		fifo_unlock(q);
		return OVC_EFULL;
	}
	e = &q->ring[(q->head + q->len) % q->cap];
	e->data = data;
	e->len = len;
	e->t_enq = now;
	q->len++;
	q->pushed++;
	fifo_unlock(q);
	return OVC_OK;
}

int ovc_fifo_pop(struct ovc_fifo *q, struct ovc_fifo_entry *out)
{
	fifo_lock(q);
	if(q->len == 0) {
		fifo_unlock(q);
		return OVC_EEMPTY;
	}
	*out = q->ring[q->head];
	q->head = (q->head + 1) % q->cap;
	q->len--;
	q->popped++;
	fifo_unlock(q);
	return OVC_OK;
}

int ovc_fifo_peek(struct ovc_fifo *q, struct ovc_fifo_entry *out)
{
	fifo_lock(q);
	if(q->len == 0) {
		fifo_unlock(q);
		return OVC_EEMPTY;
	}
	*out = q->ring[q->head];
	fifo_unlock(q);
	return OVC_OK;
}

size_t ovc_fifo_len(struct ovc_fifo *q)
{
	size_t n;

	fifo_lock(q);
	n = q->len;
	fifo_unlock(q);
	return n;
}

size_t ovc_fifo_cap(const struct ovc_fifo *q)
{
	return q->cap;
}

void ovc_fifo_stats(struct ovc_fifo *q, uint64_t *pushed, uint64_t *popped,
		uint64_t *refused)
{
	fifo_lock(q);
	if(pushed != NULL)
		*pushed = q->pushed;
	if(popped != NULL)
		*popped = q->popped;
	if(refused != NULL)
		*refused = q->refused;
	fifo_unlock(q);
}
