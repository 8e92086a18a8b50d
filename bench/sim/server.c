/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - the proxy's processor (000 §IV-A, Fig. 3): one server, a
 * non-preemptive priority buffer (timers, early rejects, external
 * messages: the receive queue), FIFO within a priority, deterministic
 * service times. A message leaving the receive queue goes through the
 * on_read hook first (the module's fast path decides there), so that its
 * service time is its verdict's.
 */
#include <math.h>
#include <stdlib.h>

#include "server.h"

int sim_fifo_push(struct sim_fifo *f, const struct sim_msg *m)
{
	if(f->n == f->cap) {
		size_t ncap = f->cap ? f->cap * 2 : 256;
		struct sim_msg *na = malloc(ncap * sizeof(*na));
		size_t i;

		if(!na)
			return -1;
		for(i = 0; i < f->n; i++)
			na[i] = f->a[(f->head + i) % f->cap];
		free(f->a);
		f->a = na;
		f->cap = ncap;
		f->head = 0;
	}
	f->a[(f->head + f->n) % f->cap] = *m;
	f->n++;
	return 0;
}

int sim_fifo_pop(struct sim_fifo *f, struct sim_msg *m)
{
	if(!f->n)
		return -1;
	*m = f->a[f->head];
	f->head = (f->head + 1) % f->cap;
	f->n--;
	return 0;
}

int64_t sim_busy_total(const struct sim_world *w)
{
	int64_t run = w->busy_end - w->busy_start;

	if(!w->busy)
		return w->busy_acc;
	/* the service in progress, in proportion of its span (a quota's
	 * stall inside it spreads it) */
	return w->busy_acc
		   + (run > 0 ? (int64_t)((double)w->cur_svc
								  * (double)(w->now - w->busy_start)
								  / (double)run)
					  : 0);
}

/* When a service of svc ns of CPU started now ends: at once without a
 * quota; under one, run at 1/quota the speed within each period's budget
 * (q_period_ns of occupancy), stalled from its exhaustion to the period's
 * end (CFS throttling). Updates the budget to the service's end. */
static int64_t finish(struct sim_world *w, int64_t svc)
{
	int64_t t = w->now, rem = svc, use, room;

	if(w->q_period_ns <= 0)
		return t + svc;
	while(rem > 0) {
		if(t >= w->q_end) {
			w->q_end = (t / w->q_period_ns + 1) * w->q_period_ns;
			w->q_budget = w->q_period_ns;
		}
		if(w->q_budget <= 0) {
			t = w->q_end; /* throttled */
			continue;
		}
		room = (int64_t)((double)(w->q_end - t) / w->quota);
		use = rem < w->q_budget ? rem : w->q_budget;
		if(use > room)
			use = room > 0 ? room : 1;
		t += (int64_t)llround((double)use * w->quota);
		rem -= use;
		w->q_budget -= use;
	}
	return t;
}

static int refusal(int type)
{
	return type == M_REJECT || type == M_ABSORB;
}

int64_t sim_reject_busy_total(const struct sim_world *w)
{
	int64_t run = w->busy_end - w->busy_start;

	if(!w->busy || !refusal(w->cur.type) || run <= 0)
		return w->rej_acc;
	return w->rej_acc
		   + (int64_t)((double)w->cur_svc * (double)(w->now - w->busy_start)
					   / (double)run);
}

int sim_schedule(struct sim_world *w, int64_t dt, int type, uint32_t call)
{
	return sim_evq_push(&w->q, w->now + dt, (uint16_t)type, call, 0);
}

/* Starts serving the highest-priority waiting message, if any. */
static void proc_start(struct sim_world *w)
{
	int p;

	if(w->busy)
		return;
	for(p = 0; p < P_COUNT; p++)
		if(!sim_fifo_pop(&w->buf[p], &w->cur))
			break;
	if(p == P_COUNT)
		return;
	if(p == P_EXT) {
		w->ext_read++;
		if(w->on_read)
			w->on_read(w, &w->cur);
	}
	w->busy = 1;
	w->busy_start = w->now;
	w->cur_svc = w->svc_ns[w->cur.type];
	w->busy_end = finish(w, w->cur_svc);
	sim_schedule(w, w->busy_end - w->now, EV_DONE, w->cur.call);
}

int sim_proc_room(const struct sim_world *w, int prio)
{
	return !w->limit[prio] || w->buf[prio].n < w->limit[prio];
}

int sim_proc_enqueue(
		struct sim_world *w, int prio, int type, uint32_t call, int rtx,
		int force)
{
	struct sim_msg m;

	if(!force && !sim_proc_room(w, prio))
		return 0;
	m.t = w->now;
	m.call = call;
	m.type = (uint8_t)type;
	m.rtx = (uint8_t)rtx;
	if(sim_fifo_push(&w->buf[prio], &m) < 0)
		return 0;
	proc_start(w);
	return 1;
}

void sim_proc_done(struct sim_world *w)
{
	struct sim_msg m = w->cur;

	w->busy = 0;
	w->busy_acc += w->cur_svc;
	if(refusal(m.type))
		w->rej_acc += w->cur_svc;
	if(m.type >= M_T_INV_RTX)
		SIM_INC(w, timer_msgs);
	if(w->on_served)
		w->on_served(w, &m);
	proc_start(w);
}
