/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the queue workers: processes forked by ovc that take INVITEs out
 * of the in-core queue and run them through request_route.
 */
#ifndef OVC_QWORKER_H
#define OVC_QWORKER_H

#include "ovc_queue.h"

/* Dequeues per burst the drain pacer grants after an idle spell. */
#define OVC_DRAIN_BURST 4

/* Longest a worker sleeps towards a paced dequeue slot, ms: pi's epoch
 * (003 §V, 10 ms), the most often its drain rate changes. */
#define OVC_DRAIN_MAX_NAP_MS 10

/* The worker's loop (never returns): waits for INVITEs without spinning,
 * paces the drain when a controller sets a rate, rejects an INVITE that
 * waited longer than queue_max_wait (and, under pi, by the acceptor), runs
 * the others through request_route. On SIGTERM/SIGINT, when another
 * worker has begun to stop, or when Kamailio's main process is gone
 * (ovc_proc.h), it stops taking INVITEs in, answers every one
 * still queued with the reject reply and exits. */
void ovc_qworker_run(int idx);

/* Shutdown in the main process: answers a queued INVITE with the reject
 * reply built from its bytes (counted rejected), or counts it dropped when
 * no reply can be built there (TCP, a non-UDP top Via). Returns 1 when the
 * reply was sent, 0 when not. */
int ovc_qworker_answer_at_stop(struct ovc_qitem *it);

#endif
