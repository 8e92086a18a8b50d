/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - the module's ticker (modules/ovc/ovc_ticker.c and the parts
 * it calls), on the model:
 *
 * Sample (every rxq.sample_ms): the receive queue's wait estimate
 *   (ovc_rxq_est_step() on the processor's external buffer: messages
 *   waiting, messages read since the last sample); every onset window
 *   (ovc_derive_onset_window_ms()) the overload gate (ovc_onset_sign(),
 *   ovc_onset_step() on the least wait of the initial INVITEs read in it,
 *   in the receive queue and, past the controller's target, in the
 *   in-core queue); the guard's cap re-applied.
 * Epoch (every ovc_ctl_epoch_ms()): struct ovc_measure (CPU occupancy
 *   from ovc_cpu_sample() on the processor's busy time, the part spent
 *   refusing taken out as the module's sampler does, the in-core queue or
 *   the message buffer, per-class arrivals), the capacity learned
 *   (ovc_capest_step()), ovc_ctl_step(), the controller released while
 *   no overload is evident, the kernel stage's split (ks.h), and the plan
 *   (ovc_plan_make() with the gate's state and the guard's cap) into the
 *   acceptors and the queue's drain. An epoch without a CPU reading keeps
 *   the last decision, as the module's ticker.
 *
 * Under a CPU quota (server.c) the settings derive from its stall as the
 * module's (ovc_derive_rxq(), ovc_derive_age_loaded() each epoch, the
 * onset window of two periods, the queue's expiry), and the measurement
 * carries the stall and the INVITEs refused for their wait.
 * Left out: epochs following the samples while calm, R-SOCA's in-dialog
 * counts and memory control, the fair share.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ovc/plan.h"

#include "ctl.h"
#include "ks.h"
#include "server.h"

/* The queue's expiry without an age limit (OVC_QUEUE_MAX_WAIT_NO_AGE). */
#define QUEUE_MAX_WAIT_NO_AGE_MS 400u

/* Applies the plan for the controller's fraction f and drain rate drain
 * (the drain only when set_drain), as apply_plan() of the ticker. */
static void apply_plan(struct sim_world *w, double f, double drain,
		int set_drain)
{
	double cap = 1.0;
	struct ovc_plan pl;

	if(w->over && w->traits.guarded)
		cap = ovc_rxq_guard_cap(w->rxq_wait_ms, w->eff.guard_ms,
				w->cfg->params.rxq.guard_f_min);
	ovc_plan_make(&w->traits, f, w->share_now, drain, w->over, cap, &pl);
	w->guard_cap = pl.guard_cap;
	ovc_acceptor_set(&w->acc_arr, pl.f_arrival);
	ovc_acceptor_set(&w->acc, pl.f_accept);
	if(set_drain)
		w->drain_rate = pl.drain;
}

/* Nothing can be refused: an algorithm that controls nothing and no age
 * limit (ovc_onset_observing()). */
static int observing(const struct sim_world *w)
{
	return w->traits.controlled == 0 && w->max_age_ms == 0;
}

/* The receive-queue settings in force (ovc_onset_settings()). */
static void settings(struct sim_world *w, const struct ovc_params *p)
{
	const struct sim_cfg *cfg = w->cfg;

	w->period_ms = w->q_period_ns > 0 ? (double)w->q_period_ns / 1e6 : 0;
	w->stall_ms = ovc_derive_stall_ms(w->period_ms, w->quota);
	ovc_derive_rxq(&p->rxq, w->stall_ms, &w->eff);
	if(p->rxq.max_age_ms < 0 && w->traits.controlled == 0)
		w->eff.max_age_ms = 0;
	w->max_age_ms = w->eff.max_age_ms;
	w->age_loaded_ms = w->eff.max_age_ms;
	if(cfg->queue_max_wait_ms >= 0)
		w->queue_wait_ms = (unsigned)cfg->queue_max_wait_ms;
	else if(w->max_age_ms == 0)
		w->queue_wait_ms = QUEUE_MAX_WAIT_NO_AGE_MS;
	else
		w->queue_wait_ms = w->max_age_ms + (unsigned)w->stall_ms;
}

int sim_ctl_open(struct sim_world *w)
{
	const struct sim_cfg *cfg = w->cfg;
	struct ovc_params p = cfg->params;
	unsigned ms;
	double occ;
	int rc;

	if(!cfg->pi_rho_m_set)
		p.pi.rho_m = cfg->capacity;
	w->ctl = malloc(ovc_ctl_size());
	if(!w->ctl)
		return OVC_ENOMEM;
	rc = ovc_ctl_init(w->ctl, cfg->alg, &p);
	if(rc != OVC_OK) {
		free(w->ctl);
		w->ctl = NULL;
		return rc;
	}
	w->traits = *ovc_ctl_traits(w->ctl);
	w->traits.queued = w->incore;
	w->traits.paces_queue = w->incore && w->at_dequeue;
	settings(w, &p);
	ovc_onset_init(&w->onset);
	/* rxq.onset_ms 0: always overloaded (the papers' behaviour) */
	w->over = w->eff.onset_ms <= 0 && !observing(w);
	w->win_rx_ms = w->win_q_ms = -1;
	w->win_start = 0;
	if(ovc_rxq_est_init(&w->est, p.rxq.tau_ms / 1000.0) != OVC_OK)
		return OVC_EINVAL;
	ovc_capest_init(&w->capest, 5.0);
	w->share_now = 1.0;
	ovc_ctl_last(w->ctl, &w->out);
	ovc_acceptor_init(&w->acc, 1.0);
	ovc_acceptor_init(&w->acc_arr, 1.0);
	apply_plan(w, w->out.f, ovc_ctl_drain_rate(w->ctl, &w->out), 1);
	ms = ovc_ctl_epoch_ms(w->ctl);
	w->epoch_ns = (int64_t)(ms ? ms : 1000) * OVC_NS_PER_MS;
	w->last_epoch = 0;
	if(ovc_cpu_init(&w->meter, 1.0, 0) != OVC_OK)
		return OVC_EINVAL;
	ovc_cpu_sample(&w->meter, 0, 0, &occ); /* primes: no value yet */
	if(sim_schedule(w, (int64_t)(p.rxq.sample_ms ? p.rxq.sample_ms : 20)
								* OVC_NS_PER_MS,
			   EV_RXQ, 0)
			< 0)
		return OVC_ENOMEM;
	return sim_schedule(w, w->epoch_ns, EV_EPOCH, 0) < 0 ? OVC_ENOMEM
														 : OVC_OK;
}

void sim_ctl_close(struct sim_world *w)
{
	free(w->ctl);
	w->ctl = NULL;
}

/* The overload gate on the window ending now (ovc_onset_tick()). */
static void onset_window(struct sim_world *w)
{
	const struct ovc_rxq_params *rp = &w->cfg->params.rxq;
	double win_ms = ovc_derive_onset_window_ms(w->period_ms);
	double rx, q, least, win_s;
	struct ovc_onset_signs sg;
	struct ovc_onset_cfg oc;
	const char *why;
	int on;

	if((double)(w->now - w->win_start) < win_ms * 1e6)
		return;
	win_s = (double)(w->now - w->win_start) / 1e9;
	rx = w->win_rx_ms;
	q = w->win_q_ms;
	if(q >= 0)
		q = fmax(q - ovc_ctl_queue_target_s(w->ctl) * 1000.0, 0.0);
	least = fmax(rx, q);
	oc.enter_ms = w->eff.enter_ms;
	oc.queue_enter_ms = w->eff.onset_ms;
	oc.onset_ms = w->eff.onset_ms;
	oc.hold_s = 2.0 * rp->t1_ms / 1000.0;
	oc.rearm_s = 64.0 * rp->t1_ms / 1000.0;
	sg.invites = w->inv_decided > w->win_invites;
	sg.kstage = sim_ks_holds(w);
	sg.epochs = w->win_epochs;
	sg.held = w->win_held;
	sg.refused_for_wait = w->age_refused - w->win_waited;
	sg.arrived = w->seen ? (double)(w->ks_initial - w->win_arrived) : -1;
	sg.capacity = w->capest.rho * win_s;
	why = ovc_onset_sign(&w->onset, &oc, &sg, least);
	on = ovc_onset_step(&w->onset, &oc, why ? INFINITY : rx, q, win_s);
	if(observing(w))
		on = 0;
	w->over = on;
	w->win_start = w->now;
	w->win_rx_ms = w->win_q_ms = -1;
	w->win_invites = w->inv_decided;
	w->win_waited = w->age_refused;
	w->win_arrived = w->ks_initial;
	w->win_epochs = w->win_held = 0;
}

void sim_ctl_sample(struct sim_world *w)
{
	unsigned ms = w->cfg->params.rxq.sample_ms;
	double dt = (double)(w->now - w->rxq_t) / 1e9;

	if(dt > 0
			&& ovc_rxq_est_step(&w->est, (double)w->buf[P_EXT].n,
					   (double)(w->ext_read - w->rxq_read0), dt)
					   == OVC_OK)
		w->rxq_wait_ms = ovc_rxq_est_wait_s(&w->est) * 1000.0;
	if(w->over && w->now > (int64_t)(w->cfg->warmup_s * 1e9))
		w->over_win_ns += w->now - w->rxq_t;
	w->rxq_t = w->now;
	w->rxq_read0 = w->ext_read;
	onset_window(w);
	apply_plan(w, w->out.f, -1, 0);
	sim_schedule(w, (int64_t)(ms ? ms : 20) * OVC_NS_PER_MS, EV_RXQ, 0);
}

/* The measurement of the epoch ending now (rho: the CPU occupancy read,
 * rej: of the capacity, the part spent refusing). */
static void measure(struct sim_world *w, struct ovc_measure *m, double rho,
		double rej)
{
	double mem;
	int i;

	if(w->cfg->read_decide) {
		/* the module's sampler: what refusing costs is not load */
		m->cpu = ovc_cpu_admitted(rho, rej);
		m->cpu_reject = rho - m->cpu;
	} else {
		m->cpu = rho; /* 000's measure: the CPU whole */
	}
	mem = (double)w->active_txn / w->cfg->mem_txn;
	m->mem = mem > 1 ? 1 : mem;
	/* without the in-core queue, the processor's message buffer (000's
	 * BBC watches it, B = 1000) */
	m->queue_len = (double)(w->incore ? w->iq.n : w->buf[P_EXT].n);
	m->queue_cap = (double)(w->incore ? w->iq_cap : w->cfg->buf);
	if(w->ep.qdelay_n)
		m->queue_delay_s = w->ep.qdelay_sum_s / (double)w->ep.qdelay_n;
	else if(w->incore && w->iq.n)
		m->queue_delay_s = (double)(w->now - w->iq.a[w->iq.head].t) / 1e9;
	for(i = 0; i < OVC_CLASS_COUNT; i++) {
		m->offered[i] = (double)w->ep.offered[i];
		m->admitted[i] = (double)w->ep.admitted[i];
	}
	m->queue_in = w->incore ? (double)w->ep.queued : -1;
	m->queue_out = w->incore ? (double)w->ep.dequeued : -1;
	if(w->incore)
		m->queue_expiry_s = (double)w->queue_wait_ms / 1000.0;
	m->stall_ms = w->stall_ms;
	/* under a quota the CPU-driven loops hold f while the age limit
	 * refuses (ovc_onset.c's onset_measure()) */
	if(w->stall_ms > 0)
		m->age_refused = (double)(w->age_refused - w->ep_age0);
}

/* The age limit in overload for the epoch m (onset_apply()): derived
 * from the share of the offered initial INVITEs the capacity learned
 * serves, when rxq.max_age_ms is auto. */
static void age_loaded(struct sim_world *w, const struct ovc_measure *m)
{
	const struct ovc_rxq_params *rp = &w->cfg->params.rxq;
	double need = 0;

	if(rp->max_age_ms >= 0) {
		w->age_loaded_ms = w->max_age_ms;
		return;
	}
	if(m->dt_s > 0 && m->offered[OVC_CLASS_INVITE] > 0 && w->capest.rho > 0)
		need = w->capest.rho * m->dt_s / m->offered[OVC_CLASS_INVITE];
	w->age_loaded_ms = ovc_derive_age_loaded(
			w->max_age_ms, rp->t1_ms, w->stall_ms, w->period_ms, need);
}

void sim_ctl_epoch(struct sim_world *w)
{
	int64_t rej_ns = sim_reject_busy_total(w);
	struct ovc_measure m;
	struct ovc_output out;
	double occ, drain;
	int rc;

	memset(&m, 0, sizeof(m));
	m.dt_s = (double)(w->now - w->last_epoch) / 1e9;
	rc = ovc_cpu_sample(
			&w->meter, (uint64_t)sim_busy_total(w), w->now, &occ);
	if(rc == OVC_OK && m.dt_s > 0) {
		measure(w, &m, occ,
				(double)(rej_ns - w->ep_rej0) / 1e9 / m.dt_s);
		ovc_capest_step(&w->capest, m.admitted[OVC_CLASS_INVITE], m.cpu,
				m.dt_s);
		if(w->capest.rho > 0)
			ovc_ctl_set_capacity(w->ctl, w->capest.rho);
		rc = ovc_ctl_step(w->ctl, &m, w->now, &out);
		if(rc == OVC_OK && w->over) {
			w->win_epochs++;
			w->win_held += ovc_ctl_hides_overload(w->ctl, &out) != 0;
		}
		if(rc == OVC_OK && !w->over) {
			/* no overload: nothing is refused, and the controller does
			 * not carry a fraction driven down into the next one */
			ovc_ctl_release(w->ctl);
			ovc_ctl_last(w->ctl, &out);
		}
		if(rc == OVC_OK) {
			drain = ovc_ctl_drain_rate(w->ctl, &out);
			sim_ks_epoch(w, &m, w->ep.rejected[OVC_CLASS_INVITE]);
			age_loaded(w, &m);
			w->out = out;
			w->share_now = out.f_arrival;
			apply_plan(w, out.f, drain, 1);
		}
	}
	memset(&w->ep, 0, sizeof(w->ep));
	w->ep_rej0 = rej_ns;
	w->ep_age0 = w->age_refused;
	w->last_epoch = w->now;
	sim_schedule(w, w->epoch_ns, EV_EPOCH, 0);
}
