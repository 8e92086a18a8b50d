/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the in-core INVITE queue (003 §V): a bounded FIFO in Kamailio
 * shared memory of admitted initial INVITEs, each a copy of the raw
 * message with its receive information, drained by ovc's own worker
 * processes (ovc_qworker.c). Producers (the receiving processes) never
 * wait for a worker; idle workers block on a futex, never spin. The drain
 * may be paced (pi's u) by a shared lock-free pacer.
 */
#ifndef OVC_QUEUE_H
#define OVC_QUEUE_H

#include <stdatomic.h>
#include <stdint.h>

#include "core/ip_addr.h"

#include "ovc/admission.h"
#include "ovc/types.h"

#include "ovc_shm.h"

/* One queued INVITE: what receive_msg() needs to run it later. */
struct ovc_qitem
{
	struct receive_info rcv; /* where it came from, which socket */
	uint64_t key;			 /* decision-memory identity; 0: none */
	int would_reject;		 /* dry run: would have been rejected */
	uint32_t ruri_off;		 /* its Request-URI: offset in buf, */
	uint32_t ruri_len;		 /* and length (0: none known) */
	ovc_time_ns t_enq;		 /* enqueue time, ns (CLOCK_MONOTONIC) */
	int len;				 /* message length, bytes */
	char buf[];				 /* the message, len bytes + NUL */
};

/* Drain states of the pacer (ovc_queue.interval_ns). */
#define OVC_DRAIN_FREE 0   /* as fast as the workers can */
#define OVC_DRAIN_PAUSE -1 /* u = 0: hold the queue */

/* Is there a queue (queue_size and queue_workers not 0; it may be
 * shutting down)? Lock-free; any process. */
int ovc_queue_exists(void);

/* Mean wait of the INVITEs dequeued in the last closed second, ms (0: no
 * queue). Lock-free; any process. */
double ovc_queue_delay_ms(void);

/* Creates the queue in shm (mod_init, before the fork): size entries,
 * workers processes, max_wait_ms (0: no limit; -1: the age limit in
 * force, ovc_queue_max_wait_ms()), at most max_bytes of shared memory
 * for the INVITEs queued (0: ovc_queue_auto_bytes()). size or workers 0:
 * no queue. Returns 0 or -1. */
int ovc_queue_init(
		unsigned size, unsigned workers, int max_wait_ms, uint64_t max_bytes);

/* The byte budget queue_max_bytes 0 (auto) stands for: an eighth of
 * Kamailio's shared memory (-m). */
uint64_t ovc_queue_auto_bytes(void);

/* The longest wait in the queue before a dequeued INVITE is rejected, ms
 * (0: none): queue_max_wait, or for -1 (auto) rxq.max_age_ms in force
 * plus the CPU quota's stall (an INVITE too old for the receive queue is
 * as old in this one; below capacity it may wait out one stall in each
 * queue), 400 ms when no age limit is in force. */
unsigned ovc_queue_max_wait_ms(void);

/* Is the queue taking INVITEs now (exists, not shutting down)? */
int ovc_queue_on(void);

/* Copies the request r (its bytes and where its Request-URI is) and rcv
 * into a new item (with key and a dry run's would_reject mark) and
 * appends it, waking a worker. Returns 0 queued, -1 queue full, -2 no
 * shared memory or message too large. Never blocks on a worker. */
int ovc_queue_put(const struct ovc_adm_req *r, const struct receive_info *rcv,
		uint64_t key, int would_reject);

/* Worker side: the oldest item, or NULL when the queue is empty. The
 * caller owns the item and frees it with ovc_queue_free(). Records the
 * item's wait (now - t_enq) for the statistics. */
struct ovc_qitem *ovc_queue_pop(ovc_time_ns now);

/* Frees an item taken with ovc_queue_pop(). */
void ovc_queue_free(struct ovc_qitem *it);

/* Blocks until a push may have happened after *seen was read, or
 * timeout_ms passes, or a signal arrives. *seen: value of seq read before
 * the caller found the queue empty (ovc_queue_seq()). */
void ovc_queue_wait(uint32_t seen, unsigned timeout_ms);

/* The futex word's value now. */
uint32_t ovc_queue_seq(void);

/* INVITEs held now (takes the ring's lock). */
unsigned ovc_queue_len(void);

/* 1 when no INVITE is queued or in a worker's hands (or there is no
 * queue), 0 otherwise: the shared-memory byte count, read without the
 * lock, for the request path. */
int ovc_queue_idle(void);

/* Capacity, INVITEs. */
unsigned ovc_queue_cap(void);

/* Mean wait of the INVITEs dequeued since the last call, s (0: none);
 * *n receives their number. Ticker only. */
double ovc_queue_epoch_wait(uint64_t *n);

/* Mean and max wait of the INVITEs dequeued in monotonic second s, ms,
 * clearing that second's slot (and keeping them for ovc.stats). Ticker
 * only. */
void ovc_queue_second_wait(int64_t s, double *mean_ms, double *max_ms);

/* Sets the drain: per_s > 0 dequeues per second; 0 holds the queue
 * (OVC_DRAIN_PAUSE); < 0 as fast as possible (OVC_DRAIN_FREE). */
void ovc_queue_set_drain(double per_s);

/* ns between dequeues, or OVC_DRAIN_FREE / OVC_DRAIN_PAUSE. */
int64_t ovc_queue_interval(void);

/* Does the controller's acceptor apply at dequeue instead of at arrival?
 * pi (003 §V: the CPU loop's reject ratio acts on the queue's output);
 * every other algorithm decides at arrival. */
int ovc_queue_rejects_at_dequeue(void);

/* Shutdown, main process, after the workers are gone: every item still
 * queued is handed to answer() (the reject reply; it returns 1 when a
 * reply went out, 0 when none could) and freed, and the log says how many
 * were answered and how many not; the queue's shared memory is
 * released. */
void ovc_queue_destroy(int (*answer)(struct ovc_qitem *it));

#endif
