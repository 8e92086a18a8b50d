/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - event queue: fixed-delay FIFO lanes plus a binary heap.
 */
#include <stdlib.h>
#include <string.h>

#include "evq.h"

static inline int ev_before(const struct sim_ev *a, const struct sim_ev *b)
{
	if(a->t != b->t)
		return a->t < b->t;
	return a->seq < b->seq;
}

int sim_evq_init(struct sim_evq *q)
{
	memset(q, 0, sizeof(*q));
	return 0;
}

void sim_evq_free(struct sim_evq *q)
{
	int i;

	free(q->h);
	for(i = 0; i < q->nlanes; i++)
		free(q->lane[i].a);
	sim_evq_init(q);
}

static int heap_push(struct sim_evq *q, const struct sim_ev *e)
{
	size_t i, p;

	if(q->n == q->cap) {
		size_t ncap = q->cap ? q->cap * 2 : 1024;
		struct sim_ev *nh = realloc(q->h, ncap * sizeof(*nh));

		if(!nh)
			return -1;
		q->h = nh;
		q->cap = ncap;
	}
	i = q->n++;
	while(i > 0) {
		p = (i - 1) / 2;
		if(!ev_before(e, &q->h[p]))
			break;
		q->h[i] = q->h[p];
		i = p;
	}
	q->h[i] = *e;
	return 0;
}

static void heap_pop(struct sim_evq *q)
{
	struct sim_ev last = q->h[--q->n];
	size_t i = 0, c;

	for(;;) {
		c = 2 * i + 1;
		if(c >= q->n)
			break;
		if(c + 1 < q->n && ev_before(&q->h[c + 1], &q->h[c]))
			c++;
		if(!ev_before(&q->h[c], &last))
			break;
		q->h[i] = q->h[c];
		i = c;
	}
	if(q->n)
		q->h[i] = last;
}

static int lane_push(struct sim_evq_lane *l, const struct sim_ev *e)
{
	if(l->n == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 64, i;
		struct sim_ev *na = malloc(ncap * sizeof(*na));

		if(!na)
			return -1;
		for(i = 0; i < l->n; i++)
			na[i] = l->a[(l->head + i) & (l->cap - 1)];
		free(l->a);
		l->a = na;
		l->cap = ncap;
		l->head = 0;
	}
	l->a[(l->head + l->n) & (l->cap - 1)] = *e;
	l->n++;
	return 0;
}

/* The lane for delay dt: existing, new, or a recycled empty one; NULL
 * when every lane is busy with other delays. */
static struct sim_evq_lane *lane_for(struct sim_evq *q, int64_t dt)
{
	int i, empty = -1;

	for(i = 0; i < q->nlanes; i++) {
		if(q->lane[i].dt == dt)
			return &q->lane[i];
		if(empty < 0 && !q->lane[i].n)
			empty = i;
	}
	if(q->nlanes < SIM_EVQ_LANES) {
		q->lane[q->nlanes].dt = dt;
		return &q->lane[q->nlanes++];
	}
	if(empty < 0)
		return NULL;
	q->lane[empty].dt = dt;
	q->lane[empty].head = 0;
	return &q->lane[empty];
}

int sim_evq_push(struct sim_evq *q, int64_t t, uint16_t type, uint32_t obj,
		uint16_t tok)
{
	struct sim_evq_lane *l;
	struct sim_ev e;

	if(t < q->now)
		return -1;
	e.t = t;
	e.seq = q->seq;
	e.obj = obj;
	e.type = type;
	e.tok = tok;
	l = lane_for(q, t - q->now);
	if(l ? lane_push(l, &e) : heap_push(q, &e))
		return -1;
	q->seq++;
	return 0;
}

/* Index of the lane with the earliest head, -1 for the heap, -2 empty. */
static int earliest(const struct sim_evq *q)
{
	const struct sim_ev *best = q->n ? &q->h[0] : NULL, *e;
	int i, who = q->n ? -1 : -2;

	for(i = 0; i < q->nlanes; i++) {
		if(!q->lane[i].n)
			continue;
		e = &q->lane[i].a[q->lane[i].head];
		if(!best || ev_before(e, best)) {
			best = e;
			who = i;
		}
	}
	return who;
}

int sim_evq_pop(struct sim_evq *q, struct sim_ev *out)
{
	struct sim_evq_lane *l;
	int who = earliest(q);

	if(who == -2)
		return -1;
	if(who == -1) {
		*out = q->h[0];
		heap_pop(q);
	} else {
		l = &q->lane[who];
		*out = l->a[l->head];
		l->head = (l->head + 1) & (l->cap - 1);
		l->n--;
	}
	q->now = out->t;
	return 0;
}

int64_t sim_evq_next_t(const struct sim_evq *q)
{
	int who = earliest(q);

	if(who == -2)
		return INT64_MAX;
	return who == -1 ? q->h[0].t : q->lane[who].a[q->lane[who].head].t;
}

size_t sim_evq_len(const struct sim_evq *q)
{
	size_t n = q->n;
	int i;

	for(i = 0; i < q->nlanes; i++)
		n += q->lane[i].n;
	return n;
}
