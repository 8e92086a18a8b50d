/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - binary heap event queue.
 */
#include <stdlib.h>

#include "evq.h"

static inline int ev_before(const struct sim_ev *a, const struct sim_ev *b)
{
	if(a->t != b->t)
		return a->t < b->t;
	return a->seq < b->seq;
}

int sim_evq_init(struct sim_evq *q)
{
	q->h = NULL;
	q->n = 0;
	q->cap = 0;
	q->seq = 0;
	return 0;
}

void sim_evq_free(struct sim_evq *q)
{
	free(q->h);
	sim_evq_init(q);
}

int sim_evq_push(struct sim_evq *q, int64_t t, uint16_t type, uint32_t obj,
		uint16_t tok)
{
	struct sim_ev e;
	size_t i, p;

	if(q->n == q->cap) {
		size_t ncap = q->cap ? q->cap * 2 : 1024;
		struct sim_ev *nh = realloc(q->h, ncap * sizeof(*nh));

		if(!nh)
			return -1;
		q->h = nh;
		q->cap = ncap;
	}
	e.t = t;
	e.seq = q->seq++;
	e.obj = obj;
	e.type = type;
	e.tok = tok;
	i = q->n++;
	while(i > 0) {
		p = (i - 1) / 2;
		if(!ev_before(&e, &q->h[p]))
			break;
		q->h[i] = q->h[p];
		i = p;
	}
	q->h[i] = e;
	return 0;
}

int sim_evq_pop(struct sim_evq *q, struct sim_ev *out)
{
	struct sim_ev last;
	size_t i, c;

	if(!q->n)
		return -1;
	*out = q->h[0];
	last = q->h[--q->n];
	i = 0;
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
	return 0;
}

int64_t sim_evq_next_t(const struct sim_evq *q)
{
	return q->n ? q->h[0].t : INT64_MAX;
}
