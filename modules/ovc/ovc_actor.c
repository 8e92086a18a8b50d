/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the actor (see ovc_actor.h).
 */
#include <string.h>

#include "core/events.h"
#include "core/globals.h"
#include "core/pt.h"
#include "core/receive.h"

#include "ovc_actor.h"
#include "ovc_decide.h"
#include "ovc_nexthop.h"
#include "ovc_queue.h"
#include "ovc_reply.h"
#include "ovc_rsoca.h"
#include "ovc_shm.h"

/* The verdict taken on a message before the script runs, for the
 * script's ovc_admit(): a UDP receiver handles a datagram from its
 * arrival to the script's end, and a worker runs a dequeued INVITE
 * through the script at once, so the message is the next one the core
 * makes in this process; the record names it by the id the core gives it
 * (msg_no + 1, matched with msg->id and msg->pid), whatever a module
 * hooked on what Kamailio receives (topos) does to its bytes. */
static struct
{
	unsigned int id;  /* msg->id of the message it is for, */
	int pid;		  /* and msg->pid; 0: none */
	enum ovc_at at;	  /* OVC_AT_HANDED or OVC_AT_HANDED_DEQUEUED */
	enum ovc_sip_method m; /* the method it was taken on */
	struct ovc_adm_verdict v;
} handoff;

/* per-process memory of the last decision, for $ovc(verdict) */
static unsigned int last_msg_id;
static int last_msg_pid;
static enum ovc_outcome last_outcome;

/* Hands verdict v on q to the script's ovc_admit() on the message the
 * core makes next in this process (at: where it was taken). */
static void hand_over(const struct ovc_req *q, const struct ovc_adm_verdict *v,
		enum ovc_at at)
{
	handoff.id = msg_no + 1;
	handoff.pid = my_pid();
	handoff.at = at;
	handoff.m = q->r.m;
	handoff.v = *v;
}

void ovc_handoff_clear(void)
{
	handoff.pid = 0;
}

int ovc_handoff_take(struct sip_msg *msg, struct ovc_req *q,
		struct ovc_adm_verdict *v, enum ovc_at *at)
{
	if(handoff.pid == 0 || handoff.id != msg->id || handoff.pid != msg->pid)
		return 0;
	handoff.pid = 0;
	memset(q, 0, sizeof(*q));
	q->r.m = handoff.m;
	q->rcv = &msg->rcv;
	q->msg = msg;
	q->fd = -1;
	*v = handoff.v;
	*at = handoff.at;
	return 1;
}

/* The reply for verdict v (a reject or a cancel): 200 to a CANCEL of a
 * queued INVITE, 487 to that INVITE, else the reject reply in force: the
 * algorithm's own while it has one (R-SOCA), else the modparams'. */
static const struct ovc_reply_cfg *reply_of(const struct ovc_adm_verdict *v)
{
	static const struct ovc_reply_cfg cancel_ok = {200, {"canceling", 9}, 0};
	static const struct ovc_reply_cfg terminated = {
			487, {"Request Terminated", 18}, 0};

	if(v->act == OVC_ADM_CANCEL)
		return &cancel_ok;
	if(v->flags & OVC_ADMF_CANCELLED)
		return &terminated;
	if(ovc_traits_now()->own_reply)
		return ovc_rsoca_reply();
	return &ovc_reply;
}

/* The settings: cfg, or read into *own when the caller had none. */
static const struct ovc_adm_cfg *settings(
		const struct ovc_adm_cfg *cfg, struct ovc_adm_cfg *own)
{
	if(cfg != NULL)
		return cfg;
	ovc_admit_settings(own);
	return own;
}

/* The script's ovc_admit() on q ended in outcome o, for $ovc(verdict). */
static void remember(struct ovc_req *q, enum ovc_outcome o)
{
	last_msg_id = q->msg->id;
	last_msg_pid = q->msg->pid;
	last_outcome = o;
	if(o == OVC_OUT_ADMITTED || o == OVC_OUT_REJECTED)
		ovc_net_client(q->msg); /* a real client: does it offer oc? */
}

/* $ovc(verdict) of an admission. */
static enum ovc_outcome admitted(const struct ovc_adm_verdict *v)
{
	return v->flags & OVC_ADMF_WOULD ? OVC_OUT_WOULD_REJECT
									 : OVC_OUT_ADMITTED;
}

/* How the reject reply to a refused request went. */
enum ovc_reply_res
{
	OVC_REPLY_SENT = 0, /* answered */
	OVC_REPLY_NONE,		/* not answered here: the script does (noreply) */
	OVC_REPLY_FAILED,	/* could not be sent: counted dropped */
	OVC_REPLY_DEFERRED, /* handed to the script path, which answers
						   through sl (counts the reply event then) */
};

/* The dry run's extra column, or none. */
static int would(const struct ovc_adm_verdict *v)
{
	return v->flags & OVC_ADMF_WOULD ? OVC_V_WOULD_REJECT : -1;
}

/* Events that go with verdict v whatever became of it. */
static void flag_events(const struct ovc_adm_verdict *v)
{
	if(v->flags & OVC_ADMF_QUEUE_FULL)
		ovc_count_event(OVC_E_QUEUE_FULL);
	if(v->flags & OVC_ADMF_EXPIRED)
		ovc_count_event(OVC_E_QUEUE_EXPIRED);
	if(v->flags & OVC_ADMF_EMERGENCY)
		ovc_rsoca_count_event(OVC_RS_E_EMERG);
	if(v->flags & OVC_ADMF_SHARE)
		ovc_count_event(OVC_E_SHARE_MET);
}

/* Counts verdict v (act as carried out; OVC_ADM_QUEUE: it was queued) on
 * a request of method m that entered ovc_admit() or the datagram path:
 * offered plus exactly one verdict column, and its events. res: for a
 * reject, how its reply went (ignored otherwise). */
static void account(const struct ovc_adm_verdict *v, enum ovc_sip_method m,
		enum ovc_reply_res res)
{
	flag_events(v);
	switch(v->act) {
		case OVC_ADM_ADMIT:
			ovc_count_offered(v->c, OVC_V_ADMITTED, would(v));
			return;
		case OVC_ADM_QUEUE:
			ovc_count_offered(v->c, OVC_V_QUEUED, would(v));
			return;
		case OVC_ADM_DROP:
			ovc_count_offered(v->c, OVC_V_DROPPED, -1);
			if(v->flags & OVC_ADMF_ABSORBED)
				ovc_count_event(OVC_E_QUEUE_ABSORBED);
			if(v->flags & OVC_ADMF_OWN_ACK)
				ovc_count_event(OVC_E_ACK_ABSORBED);
			return;
		case OVC_ADM_CANCEL:
			/* accepted and answered 200 by ovc (RFC 3261 9.2) */
			ovc_count_offered(v->c, res == OVC_REPLY_FAILED
											? OVC_V_DROPPED
											: OVC_V_ADMITTED,
					-1);
			ovc_count_event(OVC_E_QUEUE_CANCELLED);
			return;
		case OVC_ADM_REJECT:
			break;
	}
	if(res == OVC_REPLY_FAILED) {
		/* refused, but no reply could be sent: honest name is dropped */
		ovc_count_offered(v->c, OVC_V_DROPPED, -1);
		return;
	}
	ovc_count_offered(v->c, OVC_V_REJECTED, -1);
	if(v->c == OVC_CLASS_INDIALOG)
		ovc_rsoca_count_dlg_reject(m); /* R-SOCA's re-INVITE limit */
	if(res == OVC_REPLY_SENT && !(v->flags & OVC_ADMF_CANCELLED))
		ovc_count_event(OVC_E_REPLY);
	if(v->flags & OVC_ADMF_AGED)
		ovc_count_event(OVC_E_AGE_REJECT);
	if(v->flags & OVC_ADMF_LATE)
		ovc_count_event(OVC_E_LATE_REJECT);
}

/* Counts verdict v (OVC_ADM_ADMIT or OVC_ADM_REJECT) on an INVITE taken
 * out of the queue: dequeued plus what became of it (it was counted
 * offered when queued). res as for account(). */
static void account_dequeued(
		const struct ovc_adm_verdict *v, enum ovc_reply_res res)
{
	flag_events(v);
	if(v->act != OVC_ADM_REJECT) {
		ovc_count_dequeued(OVC_V_ADMITTED, would(v));
		return;
	}
	if(res == OVC_REPLY_FAILED) {
		ovc_count_dequeued(OVC_V_DROPPED, -1);
		return;
	}
	ovc_count_dequeued(OVC_V_REJECTED, -1);
	if(res == OVC_REPLY_SENT && !(v->flags & OVC_ADMF_CANCELLED))
		ovc_count_event(OVC_E_REPLY);
}

/* Counts v on q where it was taken: offered plus one verdict, or for an
 * INVITE taken out of the queue dequeued plus one. */
static void count(const struct ovc_req *q, enum ovc_at at,
		const struct ovc_adm_verdict *v, enum ovc_reply_res res)
{
	if(at == OVC_AT_DEQUEUE || at == OVC_AT_STOP || at == OVC_AT_STOP_MAIN)
		account_dequeued(v, res);
	else
		account(v, q->r.m, res);
}

/* A request the fast path consumes never reaches receive_msg(): the
 * modules that watch what Kamailio receives (SREV_NET_DATA_RECV: siptrace
 * with trace_mode; SREV_NET_DATA_IN: sipdump, topos) are shown it here,
 * as receive_msg() would, once ovc is done with its bytes. */
static void show_consumed(const struct ovc_req *q)
{
	sr_event_param_t evp;
	sr_net_info_t ni;
	str inb;

	if(sr_event_enabled(SREV_NET_DATA_RECV)) {
		memset(&ni, 0, sizeof(ni));
		memset(&evp, 0, sizeof(evp));
		ni.data.s = (char *)q->r.buf;
		ni.data.len = (int)q->r.len;
		ni.rcv = q->rcv;
		evp.data = (void *)&ni;
		sr_event_exec(SREV_NET_DATA_RECV, &evp);
	}
	if(sr_event_enabled(SREV_NET_DATA_IN)) {
		memset(&evp, 0, sizeof(evp));
		inb.s = (char *)q->r.buf;
		inb.len = (int)q->r.len;
		evp.data = (void *)&inb;
		evp.rcv = q->rcv;
		sr_event_exec(SREV_NET_DATA_IN, &evp);
	}
}

/* Runs the dequeued INVITE q through Kamailio (receive_msg(),
 * request_route) with verdict v handed to its ovc_admit(). */
static void run_dequeued(struct ovc_req *q, const struct ovc_adm_verdict *v)
{
	static char buf[BUF_SIZE + 1];
	struct receive_info rcv;

	memcpy(buf, q->r.buf, q->r.len);
	buf[q->r.len] = '\0';
	rcv = *q->rcv;
	rcv.rflags |= RECV_F_INTERNAL; /* no pre-routing event a second time */
	hand_over(q, v, OVC_AT_HANDED_DEQUEUED);
	receive_msg(buf, (unsigned)q->r.len, &rcv);
	ovc_handoff_clear();
}

/* Puts q (verdict v, OVC_ADM_QUEUE) in the queue. When it cannot be, v
 * becomes what the sequence says then (ovc_adm_unqueued()). */
static void enqueue(struct ovc_req *q, const struct ovc_adm_cfg *cfg,
		struct ovc_adm_verdict *v)
{
	/* remembered first: a retransmission that races the worker must not
	 * be queued again */
	ovc_adm_queueing(ovc_admit_state(), cfg, v);
	if(ovc_queue_put(&q->r, q->rcv, v->key, (v->flags & OVC_ADMF_WOULD) != 0)
			== 0)
		return;
	ovc_adm_unqueued(ovc_admit_state(), cfg, &q->r, v);
}

/* The answer (a reject or a cancel) at arrival: from the datagram's
 * bytes; one they cannot build goes on to the script, whose ovc_admit()
 * answers it through sl and counts it. */
static enum ovc_fate answer_arrival(struct ovc_req *q,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_verdict *v)
{
	int rc = ovc_reply_raw(
			reply_of(v), q->r.buf, (int)q->r.len, q->rcv, q->r.sc);

	if(rc > 0) {
		hand_over(q, v, OVC_AT_HANDED);
		return OVC_FATE_ON;
	}
	show_consumed(q);
	count(q, OVC_AT_ARRIVAL, v, rc == 0 ? OVC_REPLY_SENT : OVC_REPLY_FAILED);
	if(rc == 0 && v->act == OVC_ADM_REJECT) {
		ovc_adm_replied(ovc_admit_state(), cfg, v);
		ovc_count_event(OVC_E_FAST_REJECT);
	}
	return OVC_FATE_TAKEN; /* answered (or not answerable): never parsed */
}

/* The answer in the script (at: OVC_AT_SCRIPT, or OVC_AT_HANDED for one
 * arrival could not answer): from the request's bytes when it was
 * scanned, else through sl; a reject is not answered with noreply. */
static enum ovc_fate answer_script(struct ovc_req *q, enum ovc_at at,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_verdict *v)
{
	struct ovc_adm_cfg own;

	if(v->act == OVC_ADM_CANCEL) {
		/* 200, whatever noreply says: it is no refusal */
		remember(q, OVC_OUT_CANCELLED);
		count(q, at, v,
				ovc_reply_msg(reply_of(v), q->msg, q->r.sc) < 0
						? OVC_REPLY_FAILED
						: OVC_REPLY_SENT);
		return OVC_FATE_TAKEN;
	}
	remember(q, OVC_OUT_REJECTED);
	if(q->noreply) {
		count(q, at, v, OVC_REPLY_NONE);
		return OVC_FATE_REFUSED;
	}
	if(ovc_reply_msg(reply_of(v), q->msg, q->r.sc) < 0) {
		count(q, at, v, OVC_REPLY_FAILED);
		remember(q, OVC_OUT_DROPPED);
		return OVC_FATE_TAKEN;
	}
	count(q, at, v, OVC_REPLY_SENT);
	ovc_adm_replied(ovc_admit_state(), settings(cfg, &own), v);
	return OVC_FATE_TAKEN;
}

/* The answer in the script to a reject taken at the queue's output whose
 * reply its bytes could not build (counted, and remembered, there):
 * through sl, unless noreply. */
static enum ovc_fate answer_dequeued(
		struct ovc_req *q, const struct ovc_adm_verdict *v)
{
	remember(q, OVC_OUT_REJECTED);
	if(q->noreply)
		return OVC_FATE_REFUSED;
	if(ovc_reply_msg(reply_of(v), q->msg, NULL) == 0
			&& !(v->flags & OVC_ADMF_CANCELLED))
		ovc_count_event(OVC_E_REPLY);
	return OVC_FATE_TAKEN;
}

/* The answer at the queue's output (a reject): from the queued bytes,
 * else (not UDP, not understood) through the script and sl, unless at
 * OVC_AT_STOP_MAIN; remembered for its retransmissions once sent or
 * handed. Returns TAKEN sent from its bytes, ON handed to the script,
 * REFUSED not answered (counted dropped). */
static enum ovc_fate answer_queued(struct ovc_req *q, enum ovc_at at,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_verdict *v)
{
	struct ovc_adm_cfg own;
	int rc = ovc_reply_raw(
			reply_of(v), q->r.buf, (int)q->r.len, q->rcv, q->r.sc);

	if(rc > 0 && at == OVC_AT_STOP_MAIN)
		rc = -1;
	count(q, at, v,
			rc == 0	  ? OVC_REPLY_SENT
			: rc > 0 ? OVC_REPLY_DEFERRED
					 : OVC_REPLY_FAILED);
	if(rc < 0)
		return OVC_FATE_REFUSED;
	ovc_adm_replied(ovc_admit_state(), settings(cfg, &own), v);
	if(rc > 0) {
		run_dequeued(q, v);
		return OVC_FATE_ON;
	}
	return OVC_FATE_TAKEN;
}

/* Answers a reject or a cancel where it was taken. */
static enum ovc_fate answer(struct ovc_req *q, enum ovc_at at,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_verdict *v)
{
	uint64_t t0;
	enum ovc_fate f;

	switch(at) {
		case OVC_AT_ARRIVAL:
			return answer_arrival(q, cfg, v);
		case OVC_AT_SCRIPT:
		case OVC_AT_HANDED:
			return answer_script(q, at, cfg, v);
		case OVC_AT_HANDED_DEQUEUED:
			return answer_dequeued(q, v);
		case OVC_AT_DEQUEUE:
			/* the CPU refusing there costs, for the controllers */
			t0 = ovc_thread_cpu_ns();
			f = answer_queued(q, at, cfg, v);
			ovc_count_refusal_cpu(t0, 1);
			return f;
		case OVC_AT_STOP:
		case OVC_AT_STOP_MAIN:
			return answer_queued(q, at, cfg, v);
		case OVC_AT_NEXT_HOP:
			break;
	}
	/* the next hop refuses: the script answers it or picks another */
	ovc_count_event(OVC_E_DST_REFUSED);
	if(v->flags & OVC_ADMF_SEND_QUEUE)
		ovc_count_event(OVC_E_DST_SENDQ);
	return OVC_FATE_REFUSED;
}

/* Lets q go on where verdict v (an admission) was taken. */
static enum ovc_fate pass(
		struct ovc_req *q, enum ovc_at at, struct ovc_adm_verdict *v)
{
	switch(at) {
		case OVC_AT_ARRIVAL:
			count(q, at, v, OVC_REPLY_NONE);
			hand_over(q, v, OVC_AT_HANDED);
			break;
		case OVC_AT_SCRIPT:
			count(q, at, v, OVC_REPLY_NONE);
			remember(q, admitted(v));
			break;
		case OVC_AT_HANDED:
		case OVC_AT_HANDED_DEQUEUED:
			remember(q, admitted(v)); /* counted where it was taken */
			break;
		case OVC_AT_DEQUEUE:
		case OVC_AT_STOP:
		case OVC_AT_STOP_MAIN:
			count(q, at, v, OVC_REPLY_NONE);
			if(q->item->would_reject)
				v->flags |= OVC_ADMF_WOULD; /* queued in a dry run as
											   would */
			run_dequeued(q, v);
			break;
		case OVC_AT_NEXT_HOP:
			ovc_count_event(OVC_E_DST_PASSED);
			break;
	}
	return OVC_FATE_ON;
}

enum ovc_fate ovc_act(struct ovc_req *q, enum ovc_at at,
		const struct ovc_adm_cfg *cfg, struct ovc_adm_verdict *v)
{
	if(at == OVC_AT_HANDED || at == OVC_AT_HANDED_DEQUEUED) {
		/* taken before the script: answered, or let go on, nothing
		 * else */
		if(v->act == OVC_ADM_REJECT || v->act == OVC_ADM_CANCEL)
			return answer(q, at, cfg, v);
		return pass(q, at, v);
	}
	if(v->act == OVC_ADM_QUEUE)
		enqueue(q, cfg, v);
	switch(v->act) {
		case OVC_ADM_REJECT:
		case OVC_ADM_CANCEL:
			return answer(q, at, cfg, v);
		case OVC_ADM_QUEUE:
			count(q, at, v, OVC_REPLY_NONE);
			if(at == OVC_AT_SCRIPT)
				remember(q, OVC_OUT_QUEUED);
			return OVC_FATE_TAKEN; /* a worker runs it later */
		case OVC_ADM_DROP:
			/* absorbed, or a DoS drop */
			count(q, at, v, OVC_REPLY_NONE);
			if(at == OVC_AT_ARRIVAL)
				show_consumed(q);
			if(at != OVC_AT_SCRIPT)
				return OVC_FATE_TAKEN;
			remember(q, OVC_OUT_DROPPED);
			/* DoS excess with noreply: the script decides */
			return (v->flags & OVC_ADMF_DOS) && q->noreply ? OVC_FATE_DROPPED
														   : OVC_FATE_TAKEN;
		case OVC_ADM_ADMIT:
			break;
	}
	return pass(q, at, v);
}

enum ovc_outcome ovc_last_outcome(struct sip_msg *msg)
{
	if(msg == NULL || msg->id != last_msg_id || msg->pid != last_msg_pid)
		return OVC_OUT_NONE;
	return last_outcome;
}

const char *ovc_outcome_name(enum ovc_outcome o)
{
	switch(o) {
		case OVC_OUT_ADMITTED:
			return "admitted";
		case OVC_OUT_REJECTED:
			return "rejected";
		case OVC_OUT_DROPPED:
			return "dropped";
		case OVC_OUT_WOULD_REJECT:
			return "would_reject";
		case OVC_OUT_QUEUED:
			return "queued";
		case OVC_OUT_CANCELLED:
			return "cancelled";
		case OVC_OUT_NONE:
			break;
	}
	return "none";
}
