/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - ticker process. Wakes on an absolute CLOCK_MONOTONIC schedule
 * (never a relative sleep, so it does not drift): at every receive-queue
 * sample, every controller epoch and every whole second. dt is always
 * measured, never assumed. Each wake-up calls the parts' hooks in the
 * order of ovc_part.c (ovc_part.h).
 *
 * Sample: the parts sample (receive queue, overload onset); the guard is
 *         re-applied.
 * Epoch:  the parts measure (CPU, memory, queues, R-SOCA's arrivals) and
 *         the per-class offered/admitted since the last epoch are added;
 *         one ovc_ctl_step(); the acceptors' fractions are set from its
 *         output and the parts act on it. While no overload is evident,
 *         not more often than the samples (epoch_due()).
 * Second: the figures in force at the second's end go into its row; the
 *         counts of the second before it (ended > 1 s ago, so no writer is
 *         still adding to it) are moved into the history ring.
 */
#include <math.h>
#include <string.h>

#include "core/cfg/cfg_struct.h"
#include "core/dprint.h"

#include "ovc/capest.h"
#include "ovc/plan.h"
#include "ovc/rxq.h"

#include "ovc_fair.h"
#include "ovc_hist.h"
#include "ovc_memguard.h"
#include "ovc_onset.h"
#include "ovc_part.h"
#include "ovc_queue.h"
#include "ovc_rxq.h"
#include "ovc_shm.h"
#include "ovc_ticker.h"

/* The row of each second, indexed by monotonic second % OVC_SLOTS: the
 * figures in force at the second's end are written into it then, its
 * counts when it closes (close_second). */
static struct ovc_row open_rows[OVC_SLOTS];

/* rxq.* parameters, copied under the lock at every receive-queue sample */
static struct ovc_rxq_params rxq_p;

/* What the parts are handed (time, epoch, parameters, queue target). */
static struct ovc_tick tick = {.rxq = &rxq_p};

/* The controller's arrival share in front of a paced queue (its output's
 * f_arrival) at the last epoch, re-applied with the guard between epochs. */
static double share_now = 1.0;

/* Applies the plan (ovc/plan.h) for the controller's fraction f, arrival
 * share share_now and drain rate drain: the acceptors always, the queue's
 * drain when set_drain (at each epoch; the receive-queue samples between
 * epochs re-apply the guard only). The guard's cap comes from the
 * estimated receive-queue wait (ovc_rxq_guard_cap()) and the guard_ms in
 * force. */
static void apply_plan(double f, double drain, int set_drain)
{
	const struct ovc_alg_traits *t = ovc_traits_now();
	int over = ovc_overloaded();
	double cap = 1.0;
	struct ovc_plan pl;

	if(over && t->guarded)
		cap = ovc_rxq_guard_cap(ovc_rxq_wait_ms(),
				ovc_onset_guard_ms(), rxq_p.guard_f_min);
	ovc_plan_make(t, f, share_now, drain, over, cap, &pl);
	ovc_fair_plan(t, &pl); /* the heaviest sources first (ovc/fair.h) */
	/* the shared-memory guard, overload or not (ovc_memguard_part.c) */
	ovc_plan_cap(t, ovc_memguard_cap(), &pl);
	ovc_dstore(&ovc->rxq_guard_f, pl.guard_cap);
	ovc_acceptor_set(&ovc->acc_arrival, pl.f_arrival);
	ovc_dstore(&ovc->f_eff, pl.f_accept);
	ovc_acceptor_set(&ovc->acc, pl.f_accept);
	if(set_drain && ovc_queue_exists())
		ovc_queue_set_drain(pl.drain);
}

/* Receive-queue sampling period, ms, when nothing can be refused (an
 * algorithm controlling no class and no age limit): the samples then only
 * feed the statistics, and each wake-up costs the proxy CPU (about 0.2 ms
 * at rxq.sample_ms 20: 2 % of a 20 % quota; bench/RESULTS.md). */
#define OVC_OBSERVE_SAMPLE_MS 100u

/* The parts sample at now and the guard is re-applied. Returns the time
 * of the next sample (rxq.sample_ms, >= 1 ms, from now; at least
 * OVC_OBSERVE_SAMPLE_MS when nothing can be refused). */
static ovc_time_ns sample_tick(ovc_time_ns now)
{
	unsigned ms;

	lock_get(&ovc->lock);
	rxq_p = ovc->params.rxq;
	lock_release(&ovc->lock);
	tick.now = now;
	ovc_parts_sample(&tick);
	apply_plan(ovc_dload(&ovc->f), -1, 0);
	ms = rxq_p.sample_ms;
	if(ovc_onset_observing() && ms < OVC_OBSERVE_SAMPLE_MS)
		ms = OVC_OBSERVE_SAMPLE_MS;
	ovc_rxq_set_sample_ms(ms);
	return now + (ovc_time_ns)ms * OVC_NS_PER_MS;
}

/* Epoch state. */
static ovc_time_ns epoch_last; /* time of the last epoch, ns */
static uint64_t epoch_offered[OVC_CLASS_COUNT];
static uint64_t epoch_admitted[OVC_CLASS_COUNT];

/* Capacity learned from what the proxy serves (ticker only). */
static struct ovc_capest capest;

/* Offered and admitted per class since the last epoch, into m. */
static void count_measure(struct ovc_measure *m)
{
	int c;

	for(c = 0; c < OVC_CLASS_COUNT; c++) {
		m->offered[c] =
				ovc_total_since(atomic_load(&ovc->total.v[c][OVC_V_OFFERED]),
						&epoch_offered[c]);
		m->admitted[c] =
				ovc_total_since(atomic_load(&ovc->total.v[c][OVC_V_ADMITTED]),
						&epoch_admitted[c]);
	}
}

/* One controller step for measurement m (lock held). Returns its rc; *out
 * and *drain receive its output and the queue's drain rate. */
static int step(struct ovc_measure *m, struct ovc_output *out, double *drain)
{
	int rc;

	if(ovc_dload(&ovc->capacity) > 0)
		ovc_ctl_set_capacity(ovc->ctl, ovc_dload(&ovc->capacity));
	rc = ovc_ctl_step(ovc->ctl, m, tick.now, out);
	if(rc == OVC_OK && ovc_overloaded())
		ovc_onset_note_held(ovc_ctl_hides_overload(ovc->ctl, out));
	if(rc == OVC_OK && !ovc_overloaded()) {
		/* no overload: nothing is refused, and the controller does not
		 * carry a fraction driven down below capacity into the next one */
		ovc_ctl_release(ovc->ctl);
		ovc_ctl_last(ovc->ctl, out);
	}
	*drain = ovc_ctl_drain_rate(ovc->ctl, out);
	if(rc == OVC_OK)
		ovc_parts_apply(ovc->ctl, m, out);
	return rc;
}

static void do_epoch(ovc_time_ns now)
{
	struct ovc_measure meas;
	struct ovc_output out;
	double drain;
	int rc;

	memset(&meas, 0, sizeof(meas));
	meas.queue_in = -1; /* not counted unless the queue's part counts it */
	meas.queue_out = -1;
	meas.dt_s = epoch_last > 0 ? (double)(now - epoch_last) / 1e9 : 0;
	epoch_last = now;
	tick.now = now;
	count_measure(&meas); /* the parts' measure hooks may read the counts */
	ovc_parts_measure(&tick, &meas);
	if(meas.dt_s <= 0 || meas.cpu < 0)
		return; /* first epoch or no reading: keep the last decision */

	ovc_dstore(&ovc->capacity, ovc_capest_step(&capest,
										 meas.admitted[OVC_CLASS_INVITE],
										 meas.cpu, meas.dt_s));
	lock_get(&ovc->lock);
	rc = step(&meas, &out, &drain);
	lock_release(&ovc->lock);
	if(rc != OVC_OK)
		return;
	if(!isfinite(out.f) || out.f < 0 || out.f > 1) {
		/* never happens (ovc_ctl_step()); the drain still follows */
		apply_plan(ovc_dload(&ovc->f), drain, 1);
		return;
	}
	ovc_dstore(&ovc->f, out.f);
	share_now = out.f_arrival;
	apply_plan(out.f, drain, 1);
	atomic_fetch_add(&ovc->epochs, 1);
}

/* Moves second s's counts (s ended more than a second ago) into the
 * history ring and clears its slot for reuse. */
static void close_second(int64_t s)
{
	struct ovc_counts *slot = &ovc->slot[s % OVC_SLOTS];
	struct ovc_row row = open_rows[s % OVC_SLOTS]; /* its end's figures */
	int c, v;

	row.time = s + ovc->mono_to_unix;
	row.algorithm = atomic_load(&ovc->alg);
	for(c = 0; c < OVC_CLASS_COUNT; c++)
		for(v = 0; v < OVC_V_COUNT; v++)
			row.v[c][v] = atomic_exchange(&slot->v[c][v], 0);
	for(v = 0; v < OVC_E_COUNT; v++)
		row.ev[v] = atomic_exchange(&ovc->ev_slot[s % OVC_SLOTS][v], 0);
	ovc_parts_second_close(s, &row);
	ovc_hist_add(s, &row); /* not when counted before an ovc.reset */
}

/* At now, in second ended (just ended): its row takes the figures in
 * force, and every second that ended more than a second ago after done
 * (the last one closed) is closed. Returns the last second closed. After
 * a stall longer than the slot ring a slot may hold several seconds'
 * counts: resolution is lost, counts are not. */
static int64_t end_second(ovc_time_ns now, int64_t ended, int64_t done)
{
	struct ovc_row *o = &open_rows[ended % OVC_SLOTS];
	int64_t s;

	o->f = ovc_dload(&ovc->f);
	tick.now = now;
	ovc_parts_second_end(&tick, ended, o);
	for(s = done + 1; s <= ended - 1; s++)
		close_second(s);
	return ended - 1 > done ? ended - 1 : done;
}

/* Applies a pending algorithm/parameter change. Returns the epoch, ns,
 * also set in tick with the algorithm's queueing target. */
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
				share_now = 1.0;
				ovc_dstore(&ovc->f_eff, 1.0);
			} else {
				LM_ERR("cannot switch to algorithm %s\n", ovc_alg_name(alg));
			}
		} else {
			ovc_ctl_reconfigure(ovc->ctl, &ovc->params);
		}
	}
	epoch = (ovc_time_ns)ovc_ctl_epoch_ms(ovc->ctl) * OVC_NS_PER_MS;
	tick.queue_target_s = ovc_ctl_queue_target_s(ovc->ctl);
	lock_release(&ovc->lock);
	if(epoch < 5 * OVC_NS_PER_MS)
		epoch = 5 * OVC_NS_PER_MS;
	tick.epoch = epoch;
	return epoch;
}

/* While no overload is evident nothing is refused and the controller is
 * released at every epoch, so a controller whose epoch is shorter than
 * the receive-queue sample period (pi: 10 ms against 20 ms) steps with the
 * samples rather than between them: a calm proxy wakes the ticker at the
 * sample rate only (on the test machine each wake-up costs 30-120 us of
 * CPU, and pi's ticker took 12 ms/s of an idle proxy's CPU against occ's
 * 4; bench/RESULTS.md, "What an idle ovc costs"). Returns the time of the
 * next epoch: next, or the next sample next_rxq when calm and that is
 * later. */
static ovc_time_ns epoch_due(ovc_time_ns next, ovc_time_ns next_rxq)
{
	if(ovc_overloaded() || next_rxq <= next)
		return next;
	return next_rxq;
}

static ovc_time_ns min3(ovc_time_ns a, ovc_time_ns b, ovc_time_ns c)
{
	ovc_time_ns m = a < b ? a : b;

	return c < m ? c : m;
}

void ovc_ticker_run(void)
{
	ovc_time_ns now, epoch, next_epoch, next_sec, next_rxq;
	int64_t done, s;

	ovc_capest_init(&capest, 5.0);
	now = ovc_now_ns();
	epoch_last = now;
	epoch = apply_reconfig();
	next_epoch = now + epoch;
	next_rxq = sample_tick(now);
	ovc_parts_start(&tick);
	done = now / OVC_NS_PER_S - 1; /* last second closed */
	next_sec = (done + 2) * OVC_NS_PER_S;
	for(s = 0; s < OVC_SLOTS; s++) {
		open_rows[s].f = 1.0;
		open_rows[s].guard_f = 1.0;
	}

	for(;;) {
		ovc_sleep_until(min3(next_epoch, next_sec, next_rxq));
		cfg_update();
		now = ovc_now_ns();
		if(atomic_load(&ovc->reconfig)) {
			epoch = apply_reconfig();
			next_epoch = now + epoch;
		}
		/* the queue-based controllers read the queue of this instant */
		if(now >= next_rxq || now >= next_epoch)
			next_rxq = sample_tick(now);
		if(now >= next_epoch) {
			do_epoch(now);
			next_epoch += epoch;
			if(next_epoch <= now)
				next_epoch = now + epoch; /* fell behind: re-base */
			next_epoch = epoch_due(next_epoch, next_rxq);
		}
		if(now >= next_sec) {
			done = end_second(now, now / OVC_NS_PER_S - 1, done);
			next_sec = (now / OVC_NS_PER_S + 1) * OVC_NS_PER_S;
		}
	}
}
