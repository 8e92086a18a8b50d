/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - the event queue, ordered by (time, insertion sequence), so
 * that events due at the same instant run in the order they were
 * scheduled (FIFO) and every run is reproducible.
 * Most events of the model are scheduled a fixed delay ahead of "now"
 * (T1 * 2^n, 10 s abandonment, service times...): events are kept in one
 * FIFO lane per delay (sorted by construction because now never goes
 * back), the rest in a binary heap; a pop takes the smallest head. This
 * keeps the heap small and the simulator fast.
 */
#ifndef SIM_EVQ_H
#define SIM_EVQ_H

#include <stddef.h>
#include <stdint.h>

#define SIM_EVQ_LANES 32

struct sim_ev
{
	int64_t t;	   /* due time, ns of simulated time */
	uint64_t seq;  /* insertion sequence, tie-break */
	uint32_t obj;  /* object the event is about (a call index) */
	uint16_t type; /* event type, owned by the caller */
	uint16_t tok;  /* caller's token (timer generation) */
};

struct sim_evq_lane
{
	int64_t dt;		  /* delay of every event in the lane, ns */
	struct sim_ev *a; /* ring, capacity a power of two */
	size_t head, n, cap;
};

struct sim_evq
{
	struct sim_ev *h; /* heap array */
	size_t n;		  /* events in the heap */
	size_t cap;		  /* allocated heap slots */
	uint64_t seq;	  /* next insertion sequence */
	int64_t now;	  /* due time of the last event popped */
	int nlanes;		  /* lanes in use */
	struct sim_evq_lane lane[SIM_EVQ_LANES];
};

/* Initialises an empty queue at time 0. Returns 0. */
int sim_evq_init(struct sim_evq *q);

/* Frees the queue's memory; q is empty afterwards. */
void sim_evq_free(struct sim_evq *q);

/* Schedules an event at time t (ns), which must not be earlier than the
 * last event popped. Returns 0, or -1 when out of memory or t is in the
 * past (queue unchanged). */
int sim_evq_push(struct sim_evq *q, int64_t t, uint16_t type, uint32_t obj,
		uint16_t tok);

/* Removes the earliest event into *out. Returns 0, or -1 when empty. */
int sim_evq_pop(struct sim_evq *q, struct sim_ev *out);

/* Returns the due time of the earliest event, or INT64_MAX when empty. */
int64_t sim_evq_next_t(const struct sim_evq *q);

/* Events queued. */
size_t sim_evq_len(const struct sim_evq *q);

#endif
