/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - the controller glue, as the module does it: every epoch
 * (ovc_ctl_epoch_ms()) fill a struct ovc_measure (CPU occupancy from the
 * busy counter, the in-core queue's length and delay (or, without it,
 * the length of the processor's external message buffer),
 * per-class arrivals), call ovc_ctl_step(), and turn its output into the
 * acceptor's fraction and the queue's drain with the module's own plan
 * (ovc/plan.h: at arrival, or at the queue's output for an algorithm that
 * paces the queue); INVITEs beyond burst_limit[invite] per epoch are
 * rejected. Not modelled: the module's overload gate (the model is
 * always "overloaded", so its controllers act from the first epoch), the
 * receive-queue guard and age check (no kernel queue in the model), and
 * p_drop of in-dialog types (the model's in-dialog requests are all
 * legitimate). Only the library's public headers are used, so every
 * algorithm libovc knows runs here unchanged. CPU occupancy comes from
 * the module's meter (ovc_cpu_sample() on the processor's cumulative busy
 * time, capacity one CPU); as in the module's ticker, an epoch without a
 * CPU reading keeps the last decision.
 */
#include <stdlib.h>
#include <string.h>

#include "ovc/plan.h"

#include "world.h"

int sim_ctl_open(struct sim_world *w)
{
	const struct sim_cfg *cfg = w->cfg;
	struct ovc_params p = cfg->params;
	struct ovc_plan plan;
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
	ovc_ctl_last(w->ctl, &w->out);
	ovc_plan_make(ovc_ctl_traits(w->ctl), w->out.f, w->out.f_arrival,
			ovc_ctl_drain_rate(w->ctl, &w->out), 1, 1.0, &plan);
	ovc_acceptor_init(&w->acc, plan.f_accept);
	ovc_acceptor_init(&w->acc_arr, plan.f_arrival);
	w->drain_rate = plan.drain;
	ms = ovc_ctl_epoch_ms(w->ctl);
	w->epoch_ns = (int64_t)(ms ? ms : 1000) * OVC_NS_PER_MS;
	w->last_epoch = 0;
	if(ovc_cpu_init(&w->meter, 1.0, 0) != OVC_OK)
		return OVC_EINVAL;
	ovc_cpu_sample(&w->meter, 0, 0, &occ); /* primes: no value yet */
	return sim_schedule(w, w->epoch_ns, EV_EPOCH, 0) < 0 ? OVC_ENOMEM
														 : OVC_OK;
}

void sim_ctl_close(struct sim_world *w)
{
	free(w->ctl);
	w->ctl = NULL;
}

int sim_ctl_admit(struct sim_world *w)
{
	double lim = w->out.burst_limit[OVC_CLASS_INVITE];

	/* rsoca: arrivals beyond the epoch's burst limit are rejected */
	if(lim >= 0 && (double)w->ep.offered[OVC_CLASS_INVITE] > lim)
		return 0;
	return ovc_acceptor_take(&w->acc);
}

void sim_ctl_epoch(struct sim_world *w)
{
	struct ovc_measure m;
	struct ovc_plan plan;
	double mem, occ;
	int rc;
	int i;

	memset(&m, 0, sizeof(m));
	m.dt_s = (double)(w->now - w->last_epoch) / 1e9;
	rc = ovc_cpu_sample(
			&w->meter, (uint64_t)sim_busy_total(w), w->now, &occ);
	m.cpu = rc == OVC_OK ? occ : -1;
	mem = (double)w->active_txn / w->cfg->mem_txn;
	m.mem = mem > 1 ? 1 : mem;
	/* without the in-core queue, the processor's message buffer (000's
	 * BBC watches it, B = 1000) */
	m.queue_len = (double)(w->incore ? w->iq.n : w->buf[P_EXT].n);
	m.queue_cap = (double)(w->incore ? w->iq_cap : w->cfg->buf);
	if(w->ep.qdelay_n)
		m.queue_delay_s = w->ep.qdelay_sum_s / (double)w->ep.qdelay_n;
	else if(w->incore && w->iq.n)
		m.queue_delay_s =
				(double)(w->now - w->iq.a[w->iq.head].t) / 1e9;
	for(i = 0; i < OVC_CLASS_COUNT; i++) {
		m.offered[i] = (double)w->ep.offered[i];
		m.admitted[i] = (double)w->ep.admitted[i];
	}
	m.queue_in = w->incore ? (double)w->ep.queued : -1;
	m.queue_out = w->incore ? (double)w->ep.dequeued : -1;
	if(m.cpu >= 0 && m.dt_s > 0) {
		ovc_ctl_step(w->ctl, &m, w->now, &w->out);
		/* the module's plan, always overloaded (the model has no
		 * onset gate) and without the receive-queue guard (no kernel
		 * queue in the model) */
		ovc_plan_make(ovc_ctl_traits(w->ctl), w->out.f, w->out.f_arrival,
				ovc_ctl_drain_rate(w->ctl, &w->out), 1, 1.0, &plan);
		ovc_acceptor_set(&w->acc, plan.f_accept);
		ovc_acceptor_set(&w->acc_arr, plan.f_arrival);
		w->drain_rate = plan.drain;
	}
	memset(&w->ep, 0, sizeof(w->ep));
	w->last_epoch = w->now;
	if(w->incore)
		sim_drain(w);
	sim_schedule(w, w->epoch_ns, EV_EPOCH, 0);
}
