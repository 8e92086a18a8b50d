/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - configuration defaults, the event loop of one run, the
 * per-second and per-sample bookkeeping, and the result.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "adm.h"
#include "csv.h"
#include "ctl.h"
#include "ks.h"
#include "server.h"
#include "sip.h"

#define SAMPLE_NS (100 * OVC_NS_PER_MS) /* ES cost sampling, 003: tau 0.1 s */

void sim_cfg_defaults(struct sim_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->capacity = 160;
	c->msg_ms = 1.0;
	c->timer_ms = 0.5;
	c->reject_ms = 0.1667;
	c->buf = 1000;
	c->rej_buf = 1000;
	c->abandon_s = 10;
	c->hold_s = 0;
	c->clean_s = 5;
	sim_profile_constant(&c->prof, 1.0);
	c->duration_s = 60;
	c->warmup_s = 20;
	c->seed = 1;
	c->alg = OVC_ALG_NONE;
	ovc_params_defaults(&c->params);
	c->incore = -1;
	c->reject_at_dequeue = -1;
	c->queue_size = 1000;
	c->workers = 1;
	c->mem_txn = 100000;
	c->es_ct = 0.9;
	c->read_decide = 1;
	c->kstage = 1;
	c->kstage_budget = 20;
	c->queue_max_wait_ms = -1;
	c->quota = 0;
	c->quota_period_ms = 100;
}

void sim_cfg_paper(struct sim_cfg *c)
{
	c->read_decide = 0;
	c->kstage = 0;
	c->queue_max_wait_ms = 0;
	c->params.rxq.onset_ms = 0;
	c->params.rxq.max_age_ms = 0;
	c->params.rxq.guard_ms = 0;
}

static double call_ms(const struct sim_cfg *c)
{
	return SIM_CALL_MSGS * c->msg_ms + SIM_CALL_TIMERS * c->timer_ms;
}

static double reject_ms(const struct sim_cfg *c)
{
	return c->beta > 0 ? call_ms(c) / c->beta : c->reject_ms;
}

double sim_cfg_beta(const struct sim_cfg *c)
{
	double rj = reject_ms(c);

	return rj > 0 ? call_ms(c) / rj : INFINITY;
}

int sim_cfg_incore(const struct sim_cfg *c)
{
	if(c->incore >= 0)
		return c->incore;
	return ovc_alg_traits(c->alg)->queued;
}

double sim_g_opt(double r, double ct, double beta)
{
	if(r < ct)
		return r;
	if(r < beta * ct)
		return (ct * beta - r) / (beta - 1);
	return 0;
}

static void set_service_times(struct sim_world *w)
{
	const struct sim_cfg *c = w->cfg;
	double scale = 1e6 * (1000.0 / c->capacity) / call_ms(c); /* ns per ms */
	int t;

	for(t = 0; t <= M_T_CLEAN; t++)
		w->svc_ns[t] = (int64_t)llround(c->msg_ms * scale);
	w->svc_ns[M_REJECT] = (int64_t)llround(reject_ms(c) * scale);
	w->svc_ns[M_ABSORB] = w->svc_ns[M_REJECT];
	/* the receiver's read and hand-off of a queued INVITE: a scan and a
	 * copy, as a refusal's read */
	w->svc_ns[M_QHAND] = w->cfg->read_decide ? w->svc_ns[M_REJECT] : 0;
	for(t = M_T_INV_RTX; t <= M_T_CLEAN; t++)
		w->svc_ns[t] = (int64_t)llround(c->timer_ms * scale);
}

static void count_add(struct sim_count *a, const struct sim_count *b)
{
	int i;

	for(i = 0; i < OVC_CLASS_COUNT; i++) {
		a->offered[i] += b->offered[i];
		a->admitted[i] += b->admitted[i];
		a->rejected[i] += b->rejected[i];
		a->dropped[i] += b->dropped[i];
	}
	a->queued += b->queued;
	a->dequeued += b->dequeued;
	a->calls += b->calls;
	a->good += b->good;
	a->timely += b->timely;
	a->ks_drops += b->ks_drops;
	a->age_rej += b->age_rej;
	a->failed += b->failed;
	a->msgs_in += b->msgs_in;
	a->rtx_in += b->rtx_in;
	a->timer_msgs += b->timer_msgs;
	a->buf_drops += b->buf_drops;
	a->setup_n += b->setup_n;
	a->setup_sum_s += b->setup_sum_s;
	a->qdelay_n += b->qdelay_n;
	a->qdelay_sum_s += b->qdelay_sum_s;
	a->busy_ns += b->busy_ns;
}

static void on_second(struct sim_world *w)
{
	int64_t busy = sim_busy_total(w);
	double cpu = (double)(busy - w->sec_busy0) / 1e9;

	w->sec.busy_ns = busy - w->sec_busy0;
	if(w->cfg->csv)
		sim_csv_row(w->cfg->csv, w, (double)w->now / 1e9, cpu);
	if(w->now - OVC_NS_PER_S >= (int64_t)(w->cfg->warmup_s * 1e9))
		count_add(&w->win, &w->sec);
	memset(&w->sec, 0, sizeof(w->sec));
	w->sec_busy0 = busy;
	if(w->now + OVC_NS_PER_S <= w->end)
		sim_schedule(w, OVC_NS_PER_S, EV_SECOND, 0);
}

/* ES cost terms of 003 eq. 16-17 sampled every 100 ms. */
static void on_sample(struct sim_world *w)
{
	int64_t busy = sim_busy_total(w);
	double dt = (double)SAMPLE_NS / 1e9;
	double c = (double)(busy - w->smp_busy0) / (double)SAMPLE_NS;
	double ct = w->cfg->es_ct;

	w->riae_sum += w->smp.msgs_in
					? dt * (double)w->smp.rtx_in / (double)w->smp.msgs_in
					: 0;
	w->ciae_sum += dt * fabs(c - ct) / (1 - ct);
	memset(&w->smp, 0, sizeof(w->smp));
	w->smp_busy0 = busy;
	sim_schedule(w, SAMPLE_NS, EV_SAMPLE, 0);
}

static void on_arrival(struct sim_world *w)
{
	double t;

	sim_new_call(w);
	t = sim_source_next(&w->src);
	if(t >= 0 && t * 1e9 < (double)w->end)
		sim_evq_push(&w->q, (int64_t)(t * 1e9), EV_ARRIVAL, 0, 0);
}

static void world_free(struct sim_world *w)
{
	int p;

	sim_ctl_close(w);
	sim_adm_close(w);
	sim_ks_close(w);
	sim_evq_free(&w->q);
	for(p = 0; p < P_COUNT; p++)
		free(w->buf[p].a);
	free(w->iq.a);
	free(w->calls);
}

static void fill_result(const struct sim_world *w, struct sim_result *r)
{
	const struct sim_cfg *c = w->cfg;
	const struct sim_count *s = &w->win;
	double span = c->duration_s - c->warmup_s;
	uint64_t inv = s->offered[OVC_CLASS_INVITE];

	if(span <= 0)
		span = 1;
	r->goodput = (double)s->good / span;
	r->offered = (double)s->calls / span;
	r->g = r->goodput / c->capacity;
	r->timely_g = (double)s->timely / span / c->capacity;
	r->ks_drop_ratio = w->ks_initial ? (double)w->ks_dropped
											   / (double)w->ks_initial
									 : 0;
	r->over_share = w->over_win_ns / 1e9 / span;
	r->r = r->offered / c->capacity;
	r->cpu = (double)s->busy_ns / 1e9 / span;
	r->rtx_ratio = s->msgs_in ? (double)s->rtx_in / (double)s->msgs_in : 0;
	r->setup_ms = s->setup_n ? 1000 * s->setup_sum_s / (double)s->setup_n : 0;
	r->reject_ratio = inv ? (double)s->rejected[OVC_CLASS_INVITE]
									/ (double)inv
						  : 0;
	r->riae = w->riae_sum / c->duration_s;
	r->ciae = w->ciae_sum / c->duration_s;
	r->beta = sim_cfg_beta(c);
	r->events = w->events;
	r->calls = w->ncalls;
}

int sim_run(const struct sim_cfg *c, struct sim_result *res)
{
	struct sim_world *w;
	struct timespec t0, t1;
	struct sim_ev e;
	double t;
	int rc;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	memset(res, 0, sizeof(*res));
	w = calloc(1, sizeof(*w));
	if(!w)
		return OVC_ENOMEM;
	w->cfg = c;
	w->end = (int64_t)(c->duration_s * 1e9);
	sim_evq_init(&w->q);
	sim_rng_seed(&w->rng, c->seed ^ UINT64_C(0x5851f42d4c957f2d));
	sim_source_init(&w->src, &c->prof, c->capacity, c->seed);
	set_service_times(w);
	w->limit[P_TIMER] = 0;
	w->limit[P_REJECT] = c->rej_buf;
	w->limit[P_EXT] = c->buf;
	w->incore = sim_cfg_incore(c);
	w->at_dequeue = c->reject_at_dequeue >= 0
							? c->reject_at_dequeue
							: ovc_alg_traits(c->alg)->paces_queue;
	w->iq_cap = c->queue_size;
	if(c->quota > 0 && c->quota < 1 && c->quota_period_ms > 0) {
		w->quota = c->quota;
		w->q_period_ns = (int64_t)(c->quota_period_ms * 1e6);
	}
	w->on_read = sim_sip_read;
	w->on_served = sim_sip_serve;
	if(sim_adm_open(w) < 0 || sim_ks_open(w) < 0) {
		world_free(w);
		free(w);
		return OVC_ENOMEM;
	}
	rc = sim_ctl_open(w);
	if(rc != OVC_OK) {
		world_free(w);
		free(w);
		return rc;
	}
	if(c->csv && c->csv_header)
		sim_csv_header(c->csv);
	sim_schedule(w, OVC_NS_PER_S, EV_SECOND, 0);
	sim_schedule(w, SAMPLE_NS, EV_SAMPLE, 0);
	t = sim_source_next(&w->src);
	if(t >= 0 && t * 1e9 < (double)w->end)
		sim_evq_push(&w->q, (int64_t)(t * 1e9), EV_ARRIVAL, 0, 0);
	while(!sim_evq_pop(&w->q, &e) && e.t <= w->end) {
		w->now = e.t;
		w->events++;
		switch(e.type) {
			case EV_ARRIVAL:
				on_arrival(w);
				break;
			case EV_DONE:
				sim_proc_done(w);
				break;
			case EV_EPOCH:
				sim_ctl_epoch(w);
				if(w->incore)
					sim_drain(w);
				break;
			case EV_RXQ:
				sim_ctl_sample(w);
				break;
			case EV_SECOND:
				on_second(w);
				break;
			case EV_SAMPLE:
				on_sample(w);
				break;
			case EV_DRAIN:
				if(e.tok == w->drain_gen && w->drain_pending) {
					w->drain_pending = 0;
					sim_drain(w);
				}
				break;
			default:
				sim_sip_event(w, &e);
				break;
		}
	}
	fill_result(w, res);
	world_free(w);
	free(w);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	res->cpu_s = (double)(t1.tv_sec - t0.tv_sec)
				  + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return 0;
}
