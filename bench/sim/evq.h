/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - the event queue: a binary min-heap ordered by (time, insertion
 * sequence), so that events due at the same instant run in the order they
 * were scheduled (FIFO) and every run is reproducible.
 */
#ifndef SIM_EVQ_H
#define SIM_EVQ_H

#include <stddef.h>
#include <stdint.h>

struct sim_ev
{
	int64_t t;	   /* due time, ns of simulated time */
	uint64_t seq;  /* insertion sequence, tie-break */
	uint32_t obj;  /* object the event is about (a call index) */
	uint16_t type; /* event type, owned by the caller */
	uint16_t tok;  /* caller's token (timer generation) */
};

struct sim_evq
{
	struct sim_ev *h; /* heap array */
	size_t n;		  /* events queued */
	size_t cap;		  /* allocated slots */
	uint64_t seq;	  /* next insertion sequence */
};

/* Initialises an empty queue. Returns 0. */
int sim_evq_init(struct sim_evq *q);

/* Frees the queue's memory; q is empty afterwards. */
void sim_evq_free(struct sim_evq *q);

/* Schedules an event at time t (ns). Returns 0, or -1 when out of memory
 * (queue unchanged). */
int sim_evq_push(struct sim_evq *q, int64_t t, uint16_t type, uint32_t obj,
		uint16_t tok);

/* Removes the earliest event into *out. Returns 0, or -1 when empty. */
int sim_evq_pop(struct sim_evq *q, struct sim_ev *out);

/* Returns the due time of the earliest event, or INT64_MAX when empty. */
int64_t sim_evq_next_t(const struct sim_evq *q);

#endif
