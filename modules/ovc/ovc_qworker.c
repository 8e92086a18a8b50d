/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - queue workers (see ovc_qworker.h).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/cfg/cfg_struct.h"
#include "core/dprint.h"

#include "ovc_actor.h"
#include "ovc_decide.h"
#include "ovc_proc.h"
#include "ovc_queue_state.h"
#include "ovc_qworker.h"
#include "ovc_request.h"

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	stop_requested = 1;
}

/* Sleeps ns (a signal cuts it short). */
static void nap(ovc_time_ns ns)
{
	struct timespec ts;

	ts.tv_sec = ns / OVC_NS_PER_S;
	ts.tv_nsec = ns % OVC_NS_PER_S;
	nanosleep(&ts, NULL);
}

/* One dequeued INVITE, taken at now: the admission sequence's decision at
 * the queue's output (too old, or refused by pi's acceptor there: rejected;
 * a dry run only counts would_reject), acted on. */
static void handle(struct ovc_qitem *it, ovc_time_ns now)
{
	ovc_time_ns max_wait = (ovc_time_ns)ovc_queue_max_wait_ms() * OVC_NS_PER_MS;
	struct ovc_adm_verdict v;
	struct ovc_adm_cfg cfg;
	struct ovc_req q;

	ovc_req_item(&q, it);
	ovc_admit_settings(&cfg);
	ovc_adm_dequeue(ovc_admit_state(), &cfg, &q.r, it->key, now - it->t_enq,
			max_wait, &v);
	ovc_act(&q, OVC_AT_DEQUEUE, &cfg, &v);
}

/* The reject reply to a queued INVITE at stop; may_run: a worker, which
 * can hand what the raw builder cannot answer (TCP, a non-UDP top Via) to
 * the script path and sl. Returns 0 sent from its bytes, 1 handed to the
 * script path, -1 not answered. */
static int answer_at_stop(struct ovc_qitem *it, int may_run)
{
	struct ovc_adm_verdict v;
	struct ovc_adm_cfg cfg;
	struct ovc_req q;

	ovc_count_event(OVC_E_QUEUE_SHUTDOWN);
	ovc_req_item(&q, it);
	memset(&v, 0, sizeof(v));
	v.act = OVC_ADM_REJECT;
	v.c = OVC_CLASS_INVITE;
	v.key = it->key;
	ovc_admit_settings(&cfg);
	return ovc_act(&q, may_run ? OVC_AT_STOP : OVC_AT_STOP_MAIN, &cfg, &v);
}

int ovc_qworker_answer_at_stop(struct ovc_qitem *it)
{
	return answer_at_stop(it, 0) == 0;
}

/* Should the worker stop: signalled, or the shutdown begun without it (a
 * SIGTERM it missed: on the testbed, 2026-11-27, a worker of a proxy
 * stopped right after its start looped on, and outlived the main process
 * that waited for it)? */
static int stopping(void)
{
	return stop_requested || atomic_load(&ovc_q->stopping);
}

/* Waits for the next dequeue slot when the drain is paced. Returns 1 when
 * the caller may dequeue now, 0 when it should look again (paused, the
 * next slot further than OVC_DRAIN_MAX_NAP_MS away, or woken by a
 * signal): a worker never sleeps towards a slot of a rate pi has changed
 * since. */
static int drain_slot(void)
{
	const ovc_time_ns max_nap = OVC_DRAIN_MAX_NAP_MS * OVC_NS_PER_MS;
	int64_t iv = ovc_queue_interval();
	ovc_time_ns wait;

	if(iv == OVC_DRAIN_FREE)
		return 1;
	if(iv == OVC_DRAIN_PAUSE) {
		nap(5 * OVC_NS_PER_MS); /* pi's next epoch may release it */
		return 0;
	}
	wait = ovc_pacer_take(
			&ovc_q->pacer, ovc_now_ns(), iv, OVC_DRAIN_BURST, max_nap);
	if(wait > max_nap) {
		nap(max_nap); /* no slot taken: the rate is read again */
		return 0;
	}
	if(wait > 0)
		nap(wait);
	return !stopping();
}

void ovc_qworker_run(int idx)
{
	struct sigaction sa;
	struct ovc_qitem *it;
	unsigned n = 0, sl = 0, lost = 0;
	int rc;

	memset(&sa, 0, sizeof(sa));
	/* SA_RESTART: the modules this worker runs request_route through (tm,
	 * a database, DNS) must not see EINTR; the worker's own waits end
	 * within their 1 s timeout (nanosleep is never restarted) */
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if(ovc_proc_must_stop())
		stop_requested = 1;
	LM_DBG("ovc queue worker %d ready\n", idx);

	while(!stopping()) {
		uint32_t seen = ovc_queue_seq();

		cfg_update();
		if(ovc_queue_len() == 0) {
			ovc_queue_wait(seen, 1000);
			continue;
		}
		if(!drain_slot())
			continue;
		it = ovc_queue_pop(ovc_now_ns());
		if(it == NULL)
			continue; /* another worker was first */
		handle(it, ovc_now_ns());
		ovc_queue_free(it);
	}
	/* stopping: receivers route INVITEs directly from now on; what is
	 * still queued is answered, not lost */
	atomic_store(&ovc_q->stopping, 1);
	while((it = ovc_queue_pop(ovc_now_ns())) != NULL) {
		rc = answer_at_stop(it, 1);
		ovc_queue_free(it);
		if(rc == 0)
			n++;
		else if(rc > 0)
			sl++;
		else
			lost++;
	}
	if(n > 0)
		LM_NOTICE("queue worker %d answered %u queued INVITEs at stop\n", idx,
				n);
	if(sl > 0)
		LM_NOTICE("queue worker %d handed %u queued INVITEs to the script at"
				  " stop, to be answered through sl (TCP or a non-UDP top"
				  " Via: no reply from their bytes)\n",
				idx, sl);
	if(lost > 0)
		LM_NOTICE("queue worker %d could not answer %u queued INVITEs at"
				  " stop (no reply could be sent), counted dropped\n",
				idx, lost);
	exit(0);
}
