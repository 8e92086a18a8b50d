/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - bounded FIFO of opaque entries (pointer, length, enqueue time) for
 * the in-core INVITE queue of 003 §V. The memory comes from a caller-given
 * allocator (Kamailio shm in the module, malloc or an mmap arena in tests)
 * and one allocation holds the header and the ring, so a FIFO created
 * before fork() is shared by every child. Mutual exclusion is either the
 * caller's lock hooks or, when none are given, a spin lock embedded in the
 * FIFO (C11 atomic_flag: works across processes in shared memory). The
 * FIFO never owns or copies the payload the pointers refer to.
 */
#ifndef OVC_FIFO_H
#define OVC_FIFO_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "ovc/types.h"

struct ovc_fifo_alloc
{
	void *(*alloc)(void *ctx, size_t size); /* NULL on failure */
	void (*free)(void *ctx, void *ptr);
	void *ctx;								/* passed back to both */
};

struct ovc_fifo_lock
{
	void (*lock)(void *ctx);   /* NULL: use the embedded spin lock */
	void (*unlock)(void *ctx);
	void *ctx;				   /* passed back to both */
};

struct ovc_fifo_entry
{
	void *data;		   /* caller's payload (not owned by the FIFO) */
	size_t len;		   /* payload length, bytes */
	ovc_time_ns t_enq; /* enqueue time, ns (caller's clock) */
};

struct ovc_fifo
{
	struct ovc_fifo_alloc alloc; /* how the FIFO was allocated */
	struct ovc_fifo_lock lock;	 /* caller's lock hooks, or NULL hooks */
	atomic_flag spin;			 /* embedded lock when no hooks */
	size_t cap;					 /* capacity, entries */
	size_t head;				 /* index of the oldest entry */
	size_t len;					 /* entries held */
	uint64_t pushed;			 /* entries ever pushed */
	uint64_t popped;			 /* entries ever popped */
	uint64_t refused;			 /* pushes refused because full */
	struct ovc_fifo_entry ring[]; /* cap slots */
};

/* Creates a FIFO of cap entries (1 <= cap <= 2^24) in one allocation from
 * a (copied). lk may be NULL (embedded spin lock) and is copied. Returns
 * OVC_OK and sets *out, OVC_EINVAL (NULL a or hooks, half-given lock
 * hooks), OVC_ERANGE (cap) or OVC_ENOMEM. */
int ovc_fifo_create(struct ovc_fifo **out, size_t cap,
		const struct ovc_fifo_alloc *a, const struct ovc_fifo_lock *lk);

/* Frees q through its allocator. Entries still held are forgotten. */
void ovc_fifo_destroy(struct ovc_fifo *q);

/* Appends (data, len, now). Returns OVC_OK, or OVC_EFULL (nothing
 * changes but the refused counter). */
int ovc_fifo_push(struct ovc_fifo *q, void *data, size_t len,
		ovc_time_ns now);

/* Removes the oldest entry into *out. Returns OVC_OK or OVC_EEMPTY. */
int ovc_fifo_pop(struct ovc_fifo *q, struct ovc_fifo_entry *out);

/* Copies the oldest entry into *out without removing it. Returns OVC_OK
 * or OVC_EEMPTY. */
int ovc_fifo_peek(struct ovc_fifo *q, struct ovc_fifo_entry *out);

/* Entries held now (a snapshot, taken under the lock). */
size_t ovc_fifo_len(struct ovc_fifo *q);

/* Capacity, entries. */
size_t ovc_fifo_cap(const struct ovc_fifo *q);

/* Snapshot of the counters (any pointer may be NULL). */
void ovc_fifo_stats(struct ovc_fifo *q, uint64_t *pushed, uint64_t *popped,
		uint64_t *refused);

#endif
