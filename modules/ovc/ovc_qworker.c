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

#include "ovc/rejmem.h"

#include "ovc_admit.h"
#include "ovc_qworker.h"
#include "ovc_rsoca.h"

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

/* Answers it with the reject reply: from its bytes, else (not UDP, not
 * understood) through the script path and sl, when may_run. Counts it
 * dequeued + rejected (or dropped when no reply could be sent) and
 * remembers the rejection for its retransmissions. */
static void reject_item(struct ovc_qitem *it, int may_run)
{
	int rc = ovc_reject_raw(it->buf, it->len, &it->rcv);

	if(rc == 0) {
		ovc_count_dequeued(OVC_V_REJECTED, -1);
		ovc_count_event(OVC_E_REPLY);
		ovc_remember_decision(it->key, OVC_REJMEM_REJECTED);
		return;
	}
	if(rc > 0 && may_run) {
		ovc_count_dequeued(OVC_V_REJECTED, -1);
		ovc_remember_decision(it->key, OVC_REJMEM_REJECTED);
		ovc_admit_run_dequeued(it, OVC_DQ_REJECT);
		return;
	}
	ovc_count_dequeued(OVC_V_DROPPED, -1);
}

/* One dequeued INVITE, taken at now: too old, or refused by pi's acceptor
 * at dequeue, it is rejected (a dry run only counts would_reject);
 * otherwise it runs through request_route. */
static void handle(struct ovc_qitem *it, ovc_time_ns now)
{
	int dry = atomic_load_explicit(&ovc->dry_run, memory_order_relaxed);
	ovc_time_ns max_wait = (ovc_time_ns)ovc_queue_max_wait_ms() * OVC_NS_PER_MS;
	int refuse = 0;

	if(max_wait > 0 && now - it->t_enq > max_wait) {
		refuse = 1;
		ovc_count_event(OVC_E_QUEUE_EXPIRED);
	} else if(ovc_queue_rejects_at_dequeue()
			  && !ovc_acceptor_take(&ovc->acc)) {
		refuse = 1;
	}
	if(refuse && !dry && ovc_rsoca_is_emergency_raw(it->buf, it->len)) {
		/* never rejected (004 §III-A): it runs, late or not */
		refuse = 0;
		ovc_rsoca_count_event(OVC_RS_E_EMERG);
	}
	if(refuse && !dry) {
		uint64_t t0 = ovc_thread_cpu_ns();

		reject_item(it, 1);
		ovc_count_refusal_cpu(t0, 1);
		return;
	}
	ovc_remember_decision(it->key, OVC_REJMEM_ADMITTED);
	ovc_count_dequeued(OVC_V_ADMITTED, refuse ? OVC_V_WOULD_REJECT : -1);
	ovc_admit_run_dequeued(it, refuse || it->would_reject
									   ? OVC_DQ_WOULD_REJECT
									   : OVC_DQ_ADMIT);
}

void ovc_qworker_answer_at_stop(struct ovc_qitem *it)
{
	ovc_count_event(OVC_E_QUEUE_SHUTDOWN);
	reject_item(it, 0);
}

/* Waits for the next dequeue slot when the drain is paced. Returns 1 when
 * the caller may dequeue now, 0 when it should look again (paused, or
 * woken by a signal). */
static int drain_slot(void)
{
	int64_t iv = ovc_queue_interval();
	ovc_time_ns wait;

	if(iv == OVC_DRAIN_FREE)
		return 1;
	if(iv == OVC_DRAIN_PAUSE) {
		nap(5 * OVC_NS_PER_MS); /* pi's next epoch may release it */
		return 0;
	}
	wait = ovc_pacer_take(&ovc_q->pacer, ovc_now_ns(), iv, OVC_DRAIN_BURST);
	if(wait > 0)
		nap(wait);
	return !stop_requested;
}

void ovc_qworker_run(int idx)
{
	struct sigaction sa;
	struct ovc_qitem *it;
	unsigned n = 0;

	memset(&sa, 0, sizeof(sa));
	/* SA_RESTART: the modules this worker runs request_route through (tm,
	 * a database, DNS) must not see EINTR; the worker's own waits end
	 * within their 1 s timeout (nanosleep is never restarted) */
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	LM_DBG("ovc queue worker %d ready\n", idx);

	while(!stop_requested) {
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
		ovc_qworker_answer_at_stop(it);
		ovc_queue_free(it);
		n++;
	}
	if(n > 0)
		LM_NOTICE("queue worker %d answered %u queued INVITEs at stop\n", idx,
				n);
	exit(0);
}
