/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the in-core queue's shared block: the ring, its lock and its
 * figures, seen by the queue's own files (ovc_queue.c, ovc_queue_part.c,
 * ovc_qworker.c) only; the rest of the module uses the queue through
 * ovc_queue.h. Created in shared memory at mod_init (before the fork,
 * ovc_queue_init()). The ring is under its own lock (a few instructions);
 * everything else is atomics.
 */
#ifndef OVC_QUEUE_STATE_H
#define OVC_QUEUE_STATE_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/locking.h"

#include "ovc/fifo.h"
#include "ovc/pacer.h"

#include "ovc_queue.h"
#include "ovc_shm.h"

struct ovc_queue
{
	struct ovc_fifo *fifo;		 /* the ring of struct ovc_qitem * */
	gen_lock_t lock;			 /* the ring's lock (a few instructions) */
	unsigned workers;			 /* worker processes */
	int max_wait_ms;			 /* older on dequeue: rejected (0: never,
									-1: the age limit in force) */
	_Atomic uint32_t seq;		 /* futex word, bumped by every push */
	_Atomic int sleepers;		 /* workers blocked on seq */
	_Atomic int stopping;		 /* shutdown: refuse pushes */
	uint64_t max_bytes;			 /* shared memory the queued INVITEs may
									take, bytes */
	_Atomic uint64_t bytes;		 /* shared memory they take now */
	struct ovc_pacer pacer;		 /* drain pacing for pi */
	_Atomic int64_t interval_ns; /* ns between dequeues, or OVC_DRAIN_* */
	/* waits of dequeued INVITEs: since the last epoch (controllers) ... */
	_Atomic uint64_t ep_wait_ns;
	_Atomic uint64_t ep_waits;
	/* ... and per monotonic second (the CSV row) */
	_Atomic uint64_t sec_wait_ns[OVC_SLOTS];
	_Atomic uint64_t sec_waits[OVC_SLOTS];
	_Atomic uint64_t sec_wait_max_ns[OVC_SLOTS];
	ovc_atomic_double delay_ms;		/* last closed second: mean wait, ms */
	ovc_atomic_double delay_max_ms; /* last closed second: max wait, ms */
};

/* The queue, or NULL when it is disabled (queue_size or queue_workers 0). */
extern struct ovc_queue *ovc_q;

#endif
