/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the in-core INVITE queue as a part (ovc_part.h): created in
 * mod_init, its workers forked from the main process, the queue signal
 * the controllers see at each epoch, its columns of the per-second row,
 * its block of ovc.stats, and at shutdown the reject reply to what is left.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/cfg/cfg_struct.h"
#include "core/dprint.h"
#include "core/pt.h"
#include "core/sr_module.h"

#include "ovc_modparams.h"
#include "ovc_part.h"
#include "ovc_proc.h"
#include "ovc_queue_state.h"
#include "ovc_qworker.h"
#include "ovc_rxq.h"
#include "ovc_sampler.h"

static int queue_init(const struct ovc_params *p)
{
	return ovc_queue_init((unsigned)ovc_mp.queue_size,
			(unsigned)ovc_mp.queue_workers, ovc_mp.queue_max_wait,
			(uint64_t)ovc_mp.queue_max_bytes);
}

/* The queue workers, when the queue is on. */
static int queue_procs(void)
{
	return ovc_q ? ovc_mp.queue_workers : 0;
}

/* PROC_MAIN: forks the workers. */
static int queue_child_init(int rank)
{
	int pid, i;

	for(i = 0; rank == PROC_MAIN && ovc_q != NULL && i < ovc_mp.queue_workers;
			i++) {
		/* a rank like the core's async workers: every module's child_init
		 * runs, so tm and friends work in request_route there */
		pid = ovc_proc_fork(PROC_RPC, "ovc queue worker");
		if(pid < 0)
			return -1;
		if(pid == 0) {
			if(cfg_child_init())
				return -1;
			ovc_qworker_run(i);
			exit(0); /* not reached */
		}
	}
	return 0;
}

/* INVITEs queued and dequeued, and those that met pi's arrival share,
 * since start (or ovc.reset) at the last epoch (ticker) */
static uint64_t queued_last, dequeued_last, share_last;

/* The INVITE total v (OVC_V_QUEUED, OVC_V_DEQUEUED, ...) since *last. */
static double invites_since(int v, uint64_t *last)
{
	return (double)ovc_total_since(
			atomic_load(&ovc->total.v[OVC_CLASS_INVITE][v]), last);
}

/* The queue signal for the controllers. Without the in-core queue (or for
 * an algorithm that does not use it), queue-based controllers (bbc, sired)
 * see the sockets' receive queue (001 §4.1.1), scaled so that a full
 * receive buffer reads as the papers' B = 1000 messages: bbc.high/low keep
 * their meaning (80 %/60 % of the buffer) whatever its size. With it, pi
 * sees the in-core queue in messages (its q_T is in messages; it paces
 * that queue's drain), the INVITEs that entered it (its r) and those
 * that left it (whether its workers keep up with the drain); bbc and sired see the fuller of the two queues an
 * INVITE waits in, both scaled so that a full queue reads as B =
 * OVC_RXQ_SCALE: the in-core queue, and the sockets' receive queue before
 * it, which fills first when the receiving processes fall behind (the
 * other traffic they handle costs CPU too). */
static void queue_measure(const struct ovc_tick *t, struct ovc_measure *meas)
{
	uint64_t rx_limit = ovc_rxq_limit();
	double len, cap, scaled;
	double in = invites_since(OVC_V_QUEUED, &queued_last);
	double out = invites_since(OVC_V_DEQUEUED, &dequeued_last);
	double offered = meas->offered[OVC_CLASS_INVITE];
	double met = (double)ovc_total_since(
			atomic_load(&ovc->ev_total[OVC_E_SHARE_MET]), &share_last);

	if(rx_limit > 0) {
		meas->queue_cap = OVC_RXQ_SCALE;
		meas->queue_len = (double)ovc_rxq_bytes()
						  / (double)rx_limit * OVC_RXQ_SCALE;
	}
	meas->queue_delay_s = 0;
	meas->queue_in = -1; /* not the queue of queue_len */
	meas->queue_out = -1;
	if(!ovc_queue_on() || !ovc_traits_now()->queued)
		return;
	meas->queue_expiry_s = (double)ovc_queue_max_wait_ms() / 1000.0;
	len = ovc_queue_len();
	cap = ovc_queue_cap();
	if(ovc_traits_now()->paces_queue) {
		meas->queue_len = len;
		meas->queue_cap = cap;
		meas->queue_in = in;
		meas->queue_out = out;
		meas->share_skipped = offered > met ? offered - met : 0;
	} else {
		scaled = len / cap * OVC_RXQ_SCALE;
		if(meas->queue_cap <= 0 || scaled > meas->queue_len)
			meas->queue_len = scaled;
		meas->queue_cap = OVC_RXQ_SCALE;
	}
	meas->queue_delay_s = ovc_queue_epoch_wait(NULL);
}

/* Says when the queueing time the algorithm's parameter asks for (pi's
 * pi.tq) is more than the queue's expiry allows (the target in force is
 * then half the expiry, ovc_pi_tq()): once when the bound starts to
 * apply, again only after it stopped. */
static void queue_apply(const struct ovc_ctl *ctl, const struct ovc_measure *m,
		const struct ovc_output *out)
{
	static int bounded;
	double target_ms = ovc_ctl_queue_target_s(ctl) * 1000.0;
	const char *param;
	double asked_ms = ovc_ctl_queue_target_asked_s(ctl, &param) * 1000.0;
	int now_bounded;

	if(ovc_q == NULL)
		return;
	now_bounded = param != NULL && target_ms > 0 && target_ms < asked_ms;
	if(now_bounded && !bounded)
		LM_NOTICE("%s: queueing target %.0f ms in force: %s %.0f ms is"
				  " more than half the in-core queue's expiry (%.0f ms,"
				  " queue_max_wait)\n",
				ovc_alg_name(ovc_ctl_alg(ctl)), target_ms, param, asked_ms,
				m->queue_expiry_s * 1000.0);
	bounded = now_bounded;
}

static void queue_second_end(
		const struct ovc_tick *t, int64_t sec, struct ovc_row *row)
{
	row->queue_len = ovc_queue_len();
}

static void queue_second_close(int64_t sec, struct ovc_row *row)
{
	row->queue_delay_ms = 0;
	row->queue_delay_max_ms = 0;
	if(ovc_q != NULL)
		ovc_queue_second_wait(
				sec, &row->queue_delay_ms, &row->queue_delay_max_ms);
}

/* ovc.stats "queue": configuration, state, drain and event totals. */
static void queue_stats(rpc_t *rpc, void *ctx, void *th)
{
	void *h;
	int64_t iv;
	double target_ms;
	char drain[32];

	if(rpc->struct_add(th, "{", "queue", &h) < 0)
		return;
	if(ovc_q == NULL) {
		rpc->struct_add(h, "s", "state", "off");
		return;
	}
	lock_get(&ovc->lock);
	target_ms = ovc_ctl_queue_target_s(ovc->ctl) * 1000.0;
	lock_release(&ovc->lock);
	iv = ovc_queue_interval();
	if(iv == OVC_DRAIN_FREE)
		snprintf(drain, sizeof(drain), "free");
	else if(iv == OVC_DRAIN_PAUSE)
		snprintf(drain, sizeof(drain), "paused");
	else
		snprintf(drain, sizeof(drain), "%.1f/s", 1e9 / (double)iv);
	rpc->struct_add(h, "sdddfddffsJJJJJ", "state",
			ovc_queue_on() ? "on" : "stopping", "size", (int)ovc_queue_cap(),
			"workers", (int)ovc_q->workers, "max_wait_ms",
			(int)ovc_queue_max_wait_ms(), "target_wait_ms", target_ms, "len",
			(int)ovc_queue_len(), "reject_at_dequeue",
			ovc_queue_rejects_at_dequeue(), "delay_ms",
			ovc_dload(&ovc_q->delay_ms), "delay_max_ms",
			ovc_dload(&ovc_q->delay_max_ms), "drain", drain, "full",
			(unsigned long long)atomic_load(&ovc->ev_total[OVC_E_QUEUE_FULL]),
			"expired",
			(unsigned long long)atomic_load(
					&ovc->ev_total[OVC_E_QUEUE_EXPIRED]),
			"absorbed",
			(unsigned long long)atomic_load(
					&ovc->ev_total[OVC_E_QUEUE_ABSORBED]),
			"shutdown",
			(unsigned long long)atomic_load(
					&ovc->ev_total[OVC_E_QUEUE_SHUTDOWN]),
			"cancelled",
			(unsigned long long)atomic_load(
					&ovc->ev_total[OVC_E_QUEUE_CANCELLED]));
	rpc->struct_add(h, "JJ", "bytes",
			(unsigned long long)atomic_load(&ovc_q->bytes), "max_bytes",
			(unsigned long long)ovc_q->max_bytes);
}

/* The workers are gone: answers what they left (nothing when mod_init
 * failed: nothing was queued). */
static void queue_destroy(void)
{
	ovc_queue_destroy(ovc ? ovc_qworker_answer_at_stop : NULL);
}

const struct ovc_part ovc_part_queue = {
		.name = "queue",
		.init = queue_init,
		.procs = queue_procs,
		.child_init = queue_child_init,
		.measure = queue_measure,
		.apply = queue_apply,
		.second_end = queue_second_end,
		.second_close = queue_second_close,
		.stats = queue_stats,
		.destroy = queue_destroy,
};
