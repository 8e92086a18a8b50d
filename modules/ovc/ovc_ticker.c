/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - ticker process. Wakes on an absolute CLOCK_MONOTONIC schedule
 * (never a relative sleep, so it does not drift): at every controller epoch
 * and at every whole second. dt is always measured, never assumed.
 *
 * Epoch:  CPU occupancy since the last epoch, per-class offered/admitted
 *         since the last epoch, memory; one ovc_ctl_step(); the acceptor's
 *         fraction is set from its output.
 * Second: CPU occupancy over the second that just ended is stored; the
 *         counts of the second before it (ended > 1 s ago, so no writer is
 *         still adding to it) are moved into the history ring.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "core/cfg/cfg_struct.h"
#include "core/dprint.h"
#include "core/mem/shm.h"

#include "ovc/capest.h"
#include "ovc/plan.h"
#include "ovc/cpu.h"

#include "ovc_onset.h"
#include "ovc_queue.h"
#include "ovc_rxq.h"
#include "ovc_rsoca.h"
#include "ovc_sampler.h"
#include "ovc_shm.h"
#include "ovc_ticker.h"
#include "ovc_tmreap.h"

/* CPU occupancy for the controller is measured over a sliding window that
 * is a whole number of CFS periods (and of epochs), however short the
 * epoch: under a cgroup quota the kernel runs the proxy in bursts (e.g.
 * 20 ms of every 100 ms period), so a window of another length reads the
 * bursts' phase, not the load. */
#define OVC_CPU_HIST 256 /* samples kept */

struct cpu_hist
{
	ovc_time_ns t[OVC_CPU_HIST];
	uint64_t busy[OVC_CPU_HIST];
	uint64_t rej[OVC_CPU_HIST]; /* CPU spent refusing, ns (cumulative) */
	unsigned n;			/* samples stored */
	unsigned head;		/* index of the next write */
	ovc_time_ns window; /* measurement window, ns */
};

static struct cpu_hist epoch_hist;
static struct ovc_cpu_meter sec_meter;

/* Smallest whole number of CFS periods that is also (within 1 ms) a whole
 * number of epochs and fits the history. */
static ovc_time_ns cpu_window(ovc_time_ns epoch)
{
	ovc_time_ns p = ovc_sampler_cpu_period_ns(), w;
	int m;

	for(m = 1; m <= 64; m++) {
		w = m * p;
		if(w >= epoch && w % epoch < OVC_NS_PER_MS
				&& w / epoch < OVC_CPU_HIST - 1)
			return w;
	}
	return epoch > p ? epoch : p;
}

/* Adds a sample and returns the occupancy over the window ending now (from
 * the sample nearest to now - window; all the history early on); -1 when
 * unknown. *rej receives the part of it spent refusing requests (measured
 * on the fast path). A counter that went back clears the history (a
 * process restarted). */
static double hist_sample(struct cpu_hist *h, ovc_time_ns now, double *rej)
{
	uint64_t busy, rj = atomic_load(&ovc->reject_cpu_ns);
	unsigned i, idx, best;
	ovc_time_ns d, best_d;
	double dt;

	if(ovc_sampler_cpu_ns(&busy) != 0)
		return -1;
	if(h->n > 0) {
		unsigned last = (h->head + OVC_CPU_HIST - 1) % OVC_CPU_HIST;

		if(busy < h->busy[last] || now <= h->t[last])
			h->n = 0;
	}
	h->t[h->head] = now;
	h->busy[h->head] = busy;
	h->rej[h->head] = rj;
	h->head = (h->head + 1) % OVC_CPU_HIST;
	if(h->n < OVC_CPU_HIST)
		h->n++;
	if(h->n < 2)
		return -1;
	best = (h->head + OVC_CPU_HIST - h->n) % OVC_CPU_HIST; /* oldest */
	best_d = -1;
	for(i = 2; i <= h->n; i++) {
		idx = (h->head + OVC_CPU_HIST - i) % OVC_CPU_HIST;
		d = now - h->t[idx] - h->window;
		if(d < 0)
			d = -d;
		if(best_d < 0 || d < best_d) {
			best_d = d;
			best = idx;
		}
	}
	dt = (double)(now - h->t[best]);
	if(dt <= 0)
		return -1;
	*rej = rj >= h->rej[best]
				   ? (double)(rj - h->rej[best]) / (dt * ovc->cpu_capacity)
				   : 0;
	return (double)(busy - h->busy[best]) / (dt * ovc->cpu_capacity);
}

/* Reads the busy counter and feeds meter m (per-second figures). Returns
 * the occupancy since m's last sample, or -1 when there is none yet. */
static double meter_sample(struct ovc_cpu_meter *m, ovc_time_ns now)
{
	uint64_t busy;
	double occ;

	if(ovc_sampler_cpu_ns(&busy) != 0)
		return -1;
	if(ovc_cpu_sample(m, busy, now, &occ) != OVC_OK)
		return -1;
	return occ;
}

/* The row of each second, indexed by monotonic second % OVC_SLOTS: the
 * figures in force at the second's end are written into it then, its
 * counts when it closes (close_second). */
static struct ovc_row open_rows[OVC_SLOTS];
static uint64_t drops_at[OVC_SLOTS]; /* cumulative kernel drops at the
										second's end */

/* rxq.* parameters, copied under the lock at every receive-queue sample,
 * and the settings they resolve to */
static struct ovc_rxq_params rxq_p;
static struct ovc_rxq_eff rxq_eff;

/* in-core queueing the algorithm keeps by design (set with it) */
static double queue_target_s;

/* Applies the plan (ovc/plan.h) for the controller's fraction f and
 * drain rate drain: the acceptors always, the queue's drain when
 * set_drain (at each epoch; the receive-queue samples between epochs
 * re-apply the guard only). The guard's cap comes from the estimated
 * receive-queue wait (ovc_rxq_guard_cap()). */
static void apply_plan(double f, double drain, int set_drain)
{
	const struct ovc_alg_traits *t = ovc_traits_now();
	int over = ovc_overloaded();
	double cap = 1.0;
	struct ovc_plan pl;

	if(over && t->guarded)
		cap = ovc_rxq_guard_cap(ovc_dload(&ovc->rxq_wait_ms),
				rxq_eff.guard_ms, rxq_p.guard_f_min);
	ovc_plan_make(t, f, drain, over, cap, &pl);
	ovc_dstore(&ovc->rxq_guard_f, pl.guard_cap);
	ovc_acceptor_set(&ovc->acc_arrival, pl.f_arrival);
	ovc_dstore(&ovc->f_eff, pl.f_accept);
	ovc_acceptor_set(&ovc->acc, pl.f_accept);
	if(set_drain && ovc_q != NULL)
		ovc_queue_set_drain(pl.drain);
}

/* Samples the receive queues and re-applies the guard. Returns the time
 * of the next sample (rxq.sample_ms, >= 1 ms, from now). */
static ovc_time_ns rxq_tick(ovc_time_ns now)
{
	lock_get(&ovc->lock);
	rxq_p = ovc->params.rxq;
	lock_release(&ovc->lock);
	ovc_rxq_sample(now, &rxq_p);
	ovc_onset_settings(&rxq_p, &rxq_eff);
	ovc_rxq_size_udp(rxq_eff.max_age_ms);
	ovc_onset_tick(now, &rxq_eff, rxq_p.t1_ms, queue_target_s);
	apply_plan(ovc_dload(&ovc->f), -1, 0);
	return now + (ovc_time_ns)rxq_p.sample_ms * OVC_NS_PER_MS;
}

/* Shared memory size, bytes, from the last sample. */
static uint64_t mem_total;

/* Epoch state. */
static ovc_time_ns epoch_last; /* time of the last epoch, ns */
static uint64_t epoch_offered[OVC_CLASS_COUNT];
static uint64_t epoch_admitted[OVC_CLASS_COUNT];

/* The in-core queue's figures for the controllers (when it is on; else
 * the receive-queue signal set before stays). pi sees the in-core queue in
 * messages (its q_T is in messages; it paces that queue's drain). bbc and
 * sired see the fuller of the two queues an INVITE waits in, both scaled
 * so that a full queue reads as B = OVC_RXQ_SCALE (bbc.high/low mean the
 * same fractions of either): the in-core queue, and the sockets' receive
 * queue before it, which fills first when the receiving processes fall
 * behind (the other traffic they handle costs CPU too). */
static void queue_measure(struct ovc_measure *meas)
{
	double len, cap, scaled;

	if(!ovc_queue_on() || !ovc_traits_now()->queued)
		return;
	len = ovc_queue_len();
	cap = ovc_queue_cap();
	if(ovc_traits_now()->paces_queue) {
		meas->queue_len = len;
		meas->queue_cap = cap;
	} else {
		scaled = len / cap * OVC_RXQ_SCALE;
		if(meas->queue_cap <= 0 || scaled > meas->queue_len)
			meas->queue_len = scaled;
		meas->queue_cap = OVC_RXQ_SCALE;
	}
	meas->queue_delay_s = ovc_queue_epoch_wait(NULL);
}

/* Capacity learned from what the proxy serves (ticker only). */
static struct ovc_capest capest;

static void do_epoch(ovc_time_ns now)
{
	struct ovc_measure meas;
	struct ovc_output out;
	double rho, drain, rej = 0;
	uint64_t rx_limit;
	int c, rc;

	rho = hist_sample(&epoch_hist, now, &rej);
	memset(&meas, 0, sizeof(meas));
	meas.dt_s = epoch_last > 0 ? (double)(now - epoch_last) / 1e9 : 0;
	epoch_last = now;
	/* the controllers steer the work they admit: what refusing costs
	 * (beta, 003 Fig. 2) must not drive f further down */
	meas.cpu = rho >= 0 ? ovc_cpu_admitted(rho, rej) : rho;
	if(rho >= 0)
		ovc_dstore(&ovc->cpu_reject, rej);
	/* memory in use against M_min/M_max (004 §III-D), as the fraction
	 * the controller's rsoca.mmin/mmax stand for */
	meas.mem = ovc_tmreap_epoch(atomic_load(&ovc->mem_used), mem_total);
	/* no in-core queue: queue-based controllers (bbc, sired) see the
	 * sockets' receive queue (001 §4.1.1), scaled so that a full receive
	 * buffer reads as the papers' B = 1000 messages: bbc.high/low keep
	 * their meaning (80 %/60 % of the buffer) whatever its size */
	rx_limit = atomic_load(&ovc->rxq_limit);
	if(rx_limit > 0) {
		meas.queue_cap = OVC_RXQ_SCALE;
		meas.queue_len = (double)atomic_load(&ovc->rxq_bytes)
						 / (double)rx_limit * OVC_RXQ_SCALE;
	}
	meas.queue_delay_s = 0;
	queue_measure(&meas);
	for(c = 0; c < OVC_CLASS_COUNT; c++) {
		uint64_t o = atomic_load(&ovc->total.v[c][OVC_V_OFFERED]);
		uint64_t a = atomic_load(&ovc->total.v[c][OVC_V_ADMITTED]);

		/* a reset makes totals go back: count from zero then */
		meas.offered[c] = o >= epoch_offered[c] ? o - epoch_offered[c] : o;
		meas.admitted[c] = a >= epoch_admitted[c] ? a - epoch_admitted[c] : a;
		epoch_offered[c] = o;
		epoch_admitted[c] = a;
	}
	/* R-SOCA: in-dialog arrivals per type and I of the interval */
	ovc_rsoca_epoch_measure(&meas);
	if(rho >= 0)
		ovc_dstore(&ovc->cpu, rho);
	if(meas.dt_s <= 0 || rho < 0)
		return; /* first epoch or no reading: keep the last decision */

	ovc_dstore(&ovc->capacity, ovc_capest_step(&capest,
										 meas.admitted[OVC_CLASS_INVITE],
										 meas.cpu, meas.dt_s));
	lock_get(&ovc->lock);
	if(ovc_dload(&ovc->capacity) > 0)
		ovc_ctl_set_capacity(ovc->ctl, ovc_dload(&ovc->capacity));
	rc = ovc_ctl_step(ovc->ctl, &meas, now, &out);
	if(rc == OVC_OK && !ovc_overloaded()) {
		/* no overload: nothing is refused, and the controller does not
		 * carry a fraction driven down below capacity into the next one */
		ovc_ctl_release(ovc->ctl);
		ovc_ctl_last(ovc->ctl, &out);
	}
	drain = ovc_ctl_drain_rate(ovc->ctl, &out);
	if(rc == OVC_OK)
		ovc_rsoca_epoch_apply(ovc->ctl, &meas, &out);
	lock_release(&ovc->lock);
	if(rc != OVC_OK)
		return;
	if(!isfinite(out.f) || out.f < 0 || out.f > 1) {
		/* never happens (ovc_ctl_step()); the drain still follows */
		apply_plan(ovc_dload(&ovc->f), drain, 1);
		return;
	}
	ovc_dstore(&ovc->f, out.f);
	apply_plan(out.f, drain, 1);
	atomic_fetch_add(&ovc->epochs, 1);
}

/* Moves second s's counts (s ended more than a second ago) into the
 * history ring and clears its slot for reuse. */
static void close_second(int64_t s)
{
	struct ovc_counts *slot = &ovc->slot[s % OVC_SLOTS];
	uint64_t before = drops_at[(s + OVC_SLOTS - 1) % OVC_SLOTS];
	uint64_t drops = drops_at[s % OVC_SLOTS];
	struct ovc_row row = open_rows[s % OVC_SLOTS]; /* its end's figures */
	int c, v;

	row.time = s + ovc->mono_to_unix;
	row.algorithm = atomic_load(&ovc->alg);
	row.rx_drops = drops >= before ? drops - before : 0;
	row.queue_delay_ms = 0;
	row.queue_delay_max_ms = 0;
	if(ovc_q != NULL)
		ovc_queue_second_wait(
				s, &row.queue_delay_ms, &row.queue_delay_max_ms);
	for(c = 0; c < OVC_CLASS_COUNT; c++)
		for(v = 0; v < OVC_V_COUNT; v++)
			row.v[c][v] = atomic_exchange(&slot->v[c][v], 0);
	for(v = 0; v < OVC_E_COUNT; v++)
		row.ev[v] = atomic_exchange(&ovc->ev_slot[s % OVC_SLOTS][v], 0);
	ovc_rsoca_close_second(s, &row);
	ovc_tmreap_row(s, &row);
	if(s <= atomic_load(&ovc->reset_sec))
		return; /* counted before an ovc.reset */

	lock_get(&ovc->lock);
	ovc->hist[ovc->hist_next] = row;
	ovc->hist_next = (ovc->hist_next + 1) % ovc->hist_size;
	if(ovc->hist_count < ovc->hist_size)
		ovc->hist_count++;
	lock_release(&ovc->lock);
}

/* Applies a pending algorithm/parameter change. Returns the epoch, ns. */
static ovc_time_ns apply_reconfig(void)
{
	ovc_time_ns epoch;

	lock_get(&ovc->lock);
	if(atomic_exchange(&ovc->reconfig, 0)) {
		enum ovc_alg alg = atomic_load(&ovc->alg);

		if(ovc_ctl_alg(ovc->ctl) != alg) {
			if(ovc_ctl_init(ovc->ctl, alg, &ovc->params) == OVC_OK) {
				/* a new controller starts from "accept everything" */
				ovc_acceptor_set(&ovc->acc, 1.0);
				ovc_dstore(&ovc->f, 1.0);
				ovc_dstore(&ovc->f_eff, 1.0);
			} else {
				LM_ERR("cannot switch to algorithm %s\n", ovc_alg_name(alg));
			}
		} else {
			ovc_ctl_reconfigure(ovc->ctl, &ovc->params);
		}
	}
	epoch = (ovc_time_ns)ovc_ctl_epoch_ms(ovc->ctl) * OVC_NS_PER_MS;
	queue_target_s = ovc_ctl_queue_target_s(ovc->ctl);
	lock_release(&ovc->lock);
	if(epoch < 5 * OVC_NS_PER_MS)
		epoch = 5 * OVC_NS_PER_MS;
	return epoch;
}

void ovc_ticker_run(void)
{
	ovc_time_ns now, epoch, next_epoch, next_sec, next_rxq;
	int64_t done, s;

	ovc_cpu_init(&sec_meter, ovc->cpu_capacity, 10 * OVC_NS_PER_S);
	ovc_capest_init(&capest, 5.0);
	now = ovc_now_ns();
	{
		double rej;

		hist_sample(&epoch_hist, now, &rej);
	}
	meter_sample(&sec_meter, now);
	epoch_last = now;
	epoch = apply_reconfig();
	epoch_hist.window = cpu_window(epoch);
	next_epoch = now + epoch;
	next_rxq = rxq_tick(now);
	done = now / OVC_NS_PER_S - 1; /* last second closed */
	next_sec = (done + 2) * OVC_NS_PER_S;
	for(s = 0; s < OVC_SLOTS; s++) {
		open_rows[s].f = 1.0;
		open_rows[s].guard_f = 1.0;
		drops_at[s] = atomic_load(&ovc->rxq_drops); /* since start */
	}

	for(;;) {
		{
			ovc_time_ns wake = next_epoch < next_sec ? next_epoch : next_sec;

			ovc_sleep_until(next_rxq < wake ? next_rxq : wake);
		}
		cfg_update();
		now = ovc_now_ns();
		if(atomic_load(&ovc->reconfig)) {
			epoch = apply_reconfig();
			epoch_hist.window = cpu_window(epoch);
			next_epoch = now + epoch;
		}
		if(now >= next_rxq || now >= next_epoch) {
			/* the queue-based controllers read the queue of this instant */
			next_rxq = rxq_tick(now);
		}
		if(now >= next_epoch) {
			uint64_t mem_used;

			ovc_sampler_mem(&mem_used, &mem_total);
			atomic_store(&ovc->mem_used, mem_used);
			do_epoch(now);
			next_epoch += epoch;
			if(next_epoch <= now)
				next_epoch = now + epoch; /* fell behind: re-base */
		}
		if(now >= next_sec) {
			int64_t ended = now / OVC_NS_PER_S - 1; /* just ended */
			struct ovc_row *o = &open_rows[ended % OVC_SLOTS];
			double rho = meter_sample(&sec_meter, now);

			o->cpu = rho >= 0 ? rho : 0;
			o->f = ovc_dload(&ovc->f);
			o->mem_used = atomic_load(&ovc->mem_used);
			o->rx_queue_bytes = atomic_load(&ovc->rxq_bytes);
			o->rx_queue_msgs = o->rx_queue_bytes / OVC_RXQ_MSG_BYTES;
			o->queue_len = ovc_queue_len();
			o->rx_queue_wait_ms = ovc_dload(&ovc->rxq_wait_ms);
			o->rx_drain_msgs_s = ovc_dload(&ovc->rxq_drain);
			o->tcp_rx_bytes = atomic_load(&ovc->rxq_tcp_bytes);
			drops_at[ended % OVC_SLOTS] = atomic_load(&ovc->rxq_drops);
			o->guard_f = ovc_dload(&ovc->rxq_guard_f);
			o->rcvbuf_bytes = atomic_load(&ovc->rxq_limit);
			o->overload = ovc_overloaded();
			o->cpu_reject = ovc_dload(&ovc->cpu_reject);
			ovc_tmreap_snap(o);
			ovc_dstore(&ovc->cpu_1s, o->cpu);
			ovc_rsoca_second_end(o);
			/* close every second that ended more than a second ago; after
			 * a stall longer than the slot ring a slot may hold several
			 * seconds' counts: resolution is lost, counts are not */
			for(s = done + 1; s <= ended - 1; s++)
				close_second(s);
			if(ended - 1 > done)
				done = ended - 1;
			next_sec = (now / OVC_NS_PER_S + 1) * OVC_NS_PER_S;
		}
	}
}
