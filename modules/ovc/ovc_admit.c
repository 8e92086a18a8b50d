/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - admission: early, lock-free and stateless (000 §VI-A). The
 * decision itself is the library's admission sequence; this file gives it
 * the request and the settings in force, and acts on its verdict.
 */
#include <string.h>

#include "core/receive.h"

#include "ovc_account.h"
#include "ovc_admit.h"
#include "ovc_fair.h"
#include "ovc_kstage.h"
#include "ovc_modparams.h"
#include "ovc_nexthop.h"
#include "ovc_onset.h"
#include "ovc_queue.h"
#include "ovc_rsoca.h"
#include "ovc_rxq.h"
#include "ovc_sendq.h"

/* per-process memory of the last decision, for $ovc(verdict) */
static unsigned int last_msg_id;
static int last_msg_pid;
static enum ovc_outcome last_outcome;

int ovc_admit_init(void)
{
	return ovc_reply_init();
}

const struct ovc_reply_cfg *ovc_admit_reply(const struct ovc_adm_verdict *v)
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

const struct ovc_adm_state *ovc_admit_state(void)
{
	static struct ovc_adm_state st;

	if(st.mem == NULL) {
		st.acc = &ovc->acc;
		st.acc_arrival = &ovc->acc_arrival;
		st.emerg = ovc_rsoca_emerg();
		st.secret = ovc_reply_secret();
		st.fair = ovc_fair_state();
		st.mem = ovc->rejmem;
	}
	return &st;
}

void ovc_admit_settings(struct ovc_adm_cfg *cfg)
{
	cfg->t = ovc_traits_now();
	cfg->single = atomic_load_explicit(&ovc->mode, memory_order_relaxed)
				  == OVC_MODE_SINGLE;
	cfg->dry_run = atomic_load_explicit(&ovc->dry_run, memory_order_relaxed);
	cfg->overloaded = ovc_overloaded();
	/* while overloaded, the shorter limit that still lets enough fresh
	 * INVITEs through (ovc_derive_age_loaded()) */
	cfg->max_age_ms = atomic_load_explicit(cfg->overloaded
					? &ovc->rxq_age_loaded_ms
					: &ovc->rxq_max_age_ms,
			memory_order_relaxed);
	cfg->queue_on = ovc_queue_on();
	/* read only where it matters, and without the queue's lock: this runs
	 * for every request */
	cfg->queue_idle = cfg->queue_on && cfg->t->queued && ovc_mp.queue_bypass
					  && ovc_queue_idle();
	cfg->now_s = (uint32_t)ovc_now_sec_coarse();
	cfg->sendq_max = ovc_mp.tcp_sendq_max; /* read by the next hop's verdict */
}

/* What the sources below see of the request being decided. */
struct src_ctx
{
	int fd;			  /* the UDP socket it was read from, -1: not UDP */
	const char *buf;  /* the datagram */
	size_t len;		  /* its length */
	uint64_t callkey; /* its key for the kernel stage (Call-ID and top Via),
						 0: not computed (or not an INVITE the stage
						 judges) */
};

/* How long the initial INVITE this process just read from UDP socket
 * c->fd (-1: not UDP) waited in the kernel's receive queue, ns: its
 * kernel receive timestamp (SIOCGSTAMPNS, which reports the datagram a
 * process read from the socket last: exact with one receiver per socket,
 * else the newest datagram read by any of them, so ages come out low),
 * else the estimated wait of the queue (bytes / drain rate). -1 for TCP.
 * Noted for the overload evidence (ovc_onset.h). */
static int64_t src_age(void *ctx)
{
	int fd = ((struct src_ctx *)ctx)->fd;
	int64_t age;

	if(fd < 0)
		return -1;
	age = ovc_rxq_stamp_age_ns(fd);
	if(age >= 0) {
		atomic_fetch_add_explicit(
				&ovc->rxq_age_stamped, 1, memory_order_relaxed);
	} else {
		age = (int64_t)(ovc_dload(&ovc->rxq_wait_ms) * 1e6);
		atomic_fetch_add_explicit(
				&ovc->rxq_age_estimated, 1, memory_order_relaxed);
	}
	ovc_onset_note_rx(age);
	return age;
}

/* How long ago the kernel stage first saw this INVITE's call, ns (-1:
 * unknown, or admitted before). */
static int64_t src_call_age(void *ctx)
{
	struct src_ctx *c = ctx;

	if(c->fd < 0 || c->buf == NULL)
		return -1;
	return ovc_kstage_call_age_ns(c->buf, c->len, &c->callkey);
}

/* R-SOCA's in-dialog DoS limit (004 §III-B). */
static enum ovc_adm_dialog src_dialog(void *ctx, enum ovc_sip_method m, int dry)
{
	switch(ovc_rsoca_indialog(m, dry)) {
		case OVC_RS_PASS:
			return OVC_ADM_DIALOG_PASS;
		case OVC_RS_REJECT:
			return OVC_ADM_DIALOG_REJECT;
		default:
			return OVC_ADM_DIALOG_DROP;
	}
}

/* R-SOCA's burst budget of class c (004 §III-C). */
static int src_burst(void *ctx, enum ovc_class c)
{
	return ovc_rsoca_burst_take(c);
}

void ovc_admit_decide(const struct ovc_adm_cfg *cfg,
		const struct ovc_adm_req *r, int fd, struct ovc_adm_verdict *v)
{
	struct src_ctx c = {fd, r->buf, r->len, 0};
	struct ovc_adm_sources src = {
			&c, src_age, src_call_age, src_dialog, src_burst};

	ovc_adm_decide(ovc_admit_state(), cfg, &src, r, v);
	/* a call admitted under overload: the kernel stage spares it */
	if(r->c == OVC_CLASS_INVITE && cfg->overloaded && !cfg->dry_run
			&& (v->act == OVC_ADM_ADMIT || v->act == OVC_ADM_QUEUE))
		ovc_kstage_admitted(r->buf, r->len, c.callkey);
}

void ovc_admit_enqueue(const struct ovc_adm_cfg *cfg,
		const struct ovc_adm_req *r, const struct receive_info *rcv,
		struct ovc_adm_verdict *v)
{
	/* remembered first: a retransmission that races the worker must not
	 * be queued again */
	ovc_adm_queueing(ovc_admit_state(), cfg, v);
	if(ovc_queue_put(r->buf, (int)r->len, rcv, v->key,
			   (v->flags & OVC_ADMF_WOULD) != 0)
			== 0)
		return;
	ovc_adm_unqueued(ovc_admit_state(), cfg, r, v);
}

static void remember(struct sip_msg *msg, enum ovc_outcome o)
{
	last_msg_id = msg->id;
	last_msg_pid = msg->pid;
	last_outcome = o;
	if(o == OVC_OUT_ADMITTED || o == OVC_OUT_REJECTED)
		ovc_net_client(msg); /* a real client: does it offer oc? */
}

/* $ovc(verdict) of an admission. */
static enum ovc_outcome admitted(const struct ovc_adm_verdict *v)
{
	return v->flags & OVC_ADMF_WOULD ? OVC_OUT_WOULD_REJECT
									 : OVC_OUT_ADMITTED;
}

/* The script path's reject (sc: msg's scan, or NULL: through sl; counted
 * decides whether it is counted here): answered unless noreply. Returns
 * ovc_admit()'s value. */
static int act_reject(struct sip_msg *msg, const struct ovc_sip_scan *sc,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_verdict *v,
		enum ovc_sip_method m, int noreply)
{
	remember(msg, OVC_OUT_REJECTED);
	if(noreply) {
		ovc_account(v, m, OVC_REPLY_NONE);
		return -1;
	}
	if(ovc_reply_msg(ovc_admit_reply(v), msg, sc) < 0) {
		ovc_account(v, m, OVC_REPLY_FAILED);
		remember(msg, OVC_OUT_DROPPED);
		return 0;
	}
	ovc_account(v, m, OVC_REPLY_SENT);
	ovc_adm_replied(ovc_admit_state(), cfg, v);
	return 0;
}

/* The script path's answer to a CANCEL of a queued INVITE (sc: msg's
 * scan, or NULL: through sl): 200, whatever noreply says (it is no
 * refusal). Returns ovc_admit()'s value: 0, the script stops. */
static int act_cancel(struct sip_msg *msg, const struct ovc_sip_scan *sc,
		const struct ovc_adm_verdict *v, enum ovc_sip_method m)
{
	remember(msg, OVC_OUT_CANCELLED);
	ovc_account(v, m,
			ovc_reply_msg(ovc_admit_reply(v), msg, sc) < 0 ? OVC_REPLY_FAILED
														   : OVC_REPLY_SENT);
	return 0;
}

/* Acts on verdict v for msg in the script (r: the request, sc: its scan
 * or NULL). Returns ovc_admit()'s value. */
static int act(struct sip_msg *msg, const struct ovc_adm_req *r,
		const struct ovc_sip_scan *sc, const struct ovc_adm_cfg *cfg,
		struct ovc_adm_verdict *v, int noreply)
{
	if(v->act == OVC_ADM_QUEUE)
		ovc_admit_enqueue(cfg, r, &msg->rcv, v);
	if(v->act == OVC_ADM_REJECT)
		return act_reject(msg, sc, cfg, v, r->m, noreply);
	if(v->act == OVC_ADM_CANCEL)
		return act_cancel(msg, sc, v, r->m);
	ovc_account(v, r->m, OVC_REPLY_NONE);
	switch(v->act) {
		case OVC_ADM_QUEUE:
			remember(msg, OVC_OUT_QUEUED);
			return 0; /* a worker runs it later */
		case OVC_ADM_DROP:
			remember(msg, OVC_OUT_DROPPED);
			/* DoS excess with noreply: the script decides */
			return (v->flags & OVC_ADMF_DOS) && noreply ? -2 : 0;
		default:
			remember(msg, admitted(v));
			return 1;
	}
}

/* A decision already taken for the request this process is about to run
 * through the script: at datagram arrival (a UDP receiver handles a
 * datagram from arrival to script end, and the next datagram's arrival
 * clears it; matched by the datagram's source, not its bytes, so that a
 * SREV_NET_DATA_IN module rewriting the message (topos) cannot make it
 * decided twice), or at the queue's output (matched by the buffer the
 * worker runs). ovc_admit() acts on it without deciding again. */
static struct
{
	int set;				 /* a decision waits for ovc_admit() */
	const char *buf;		 /* the worker's buffer, or NULL */
	struct ip_addr src_ip;	 /* else the datagram's source */
	unsigned short src_port; /* and port */
	struct ovc_adm_verdict v;
	enum ovc_sip_method m;
	int counted; /* v is counted already */
} decided;

/* Is msg the request decided holds a decision for? */
static int decided_for(const struct sip_msg *msg)
{
	if(!decided.set)
		return 0;
	if(decided.buf != NULL)
		return decided.buf == msg->buf;
	return msg->rcv.proto == PROTO_UDP && msg->rcv.src_port == decided.src_port
		   && ip_addr_cmp(&msg->rcv.src_ip, &decided.src_ip);
}

void ovc_admit_leave(const struct receive_info *rcv,
		const struct ovc_adm_verdict *v, enum ovc_sip_method m)
{
	decided.set = 1;
	decided.buf = NULL;
	decided.src_ip = rcv->src_ip;
	decided.src_port = rcv->src_port;
	decided.v = *v;
	decided.m = m;
	decided.counted = v->act != OVC_ADM_REJECT && v->act != OVC_ADM_CANCEL;
}

void ovc_admit_forget(void)
{
	decided.set = 0;
}

/* ovc_admit() on a request decided before (decided_for()). */
static int act_decided(struct sip_msg *msg, int noreply)
{
	struct ovc_adm_cfg cfg;

	decided.set = 0;
	if(decided.v.act == OVC_ADM_CANCEL)
		return act_cancel(msg, NULL, &decided.v, decided.m);
	if(decided.v.act != OVC_ADM_REJECT) {
		remember(msg, admitted(&decided.v));
		return 1;
	}
	if(!decided.counted) {
		/* refused at arrival, its reply could not be built there */
		ovc_admit_settings(&cfg);
		return act_reject(msg, NULL, &cfg, &decided.v, decided.m, noreply);
	}
	/* refused at the queue's output, counted by the worker */
	remember(msg, OVC_OUT_REJECTED);
	if(noreply)
		return -1;
	if(ovc_reply_msg(ovc_admit_reply(&decided.v), msg, NULL) == 0
			&& !(decided.v.flags & OVC_ADMF_CANCELLED))
		ovc_count_event(OVC_E_REPLY);
	return 0;
}

void ovc_admit_run_decided(
		const struct ovc_qitem *it, const struct ovc_adm_verdict *v)
{
	static char buf[BUF_SIZE + 1];
	struct receive_info rcv;

	memcpy(buf, it->buf, (size_t)it->len);
	buf[it->len] = '\0';
	rcv = it->rcv;
	rcv.rflags |= RECV_F_INTERNAL; /* no pre-routing event a second time */
	decided.set = 1;
	decided.buf = buf;
	decided.v = *v;
	decided.m = OVC_M_INVITE;
	decided.counted = 1;
	receive_msg(buf, (unsigned)it->len, &rcv);
	decided.set = 0;
}

/* The request as the sequence sees it: msg's bytes, its scan sc (or NULL)
 * and class c. */
static void request_of_scan(struct sip_msg *msg, const struct ovc_sip_scan *sc,
		enum ovc_class c, struct ovc_adm_req *r)
{
	r->c = c;
	r->m = sc ? sc->method : ovc_method_of_msg(msg);
	r->buf = msg->buf;
	r->len = msg->len;
	r->sc = sc;
	r->ruri = msg->first_line.u.request.uri.s;
	r->ruri_len = (size_t)msg->first_line.u.request.uri.len;
	r->src = ovc_source_id(&msg->rcv);
	r->fair_src = ovc_fair_state() != NULL ? ovc_fair_src(&msg->rcv) : 0;
}

void ovc_admit_request(struct sip_msg *msg, struct ovc_sip_scan *scan,
		struct ovc_adm_req *r)
{
	const struct ovc_sip_scan *sc = NULL;

	if(ovc_sip_scan(msg->buf, msg->len, scan) == OVC_SCAN_OK)
		sc = scan;
	request_of_scan(
			msg, sc, sc ? ovc_class_of_scan(sc) : ovc_classify(msg), r);
}

int ovc_admit(struct sip_msg *msg, int noreply)
{
	struct ovc_sip_scan scan, *sc = NULL;
	struct ovc_adm_verdict v;
	struct ovc_adm_cfg cfg;
	struct ovc_adm_req r;
	int fd = -1;

	if(decided_for(msg))
		return act_decided(msg, noreply);
	if(msg->first_line.type != SIP_REQUEST) {
		remember(msg, OVC_OUT_ADMITTED);
		return 1;
	}
	/* the raw scan classifies without Kamailio's allocating parsers and is
	 * reused to build the reply; anything it does not fully understand
	 * takes the normal path */
	if(msg->rcv.proto == PROTO_UDP) {
		if(ovc_sip_scan(msg->buf, msg->len, &scan) == OVC_SCAN_OK)
			sc = &scan;
		if(msg->rcv.bind_address != NULL)
			fd = msg->rcv.bind_address->socket;
	}
	request_of_scan(
			msg, sc, sc ? ovc_class_of_scan(sc) : ovc_classify(msg), &r);
	if(ovc_fast_path_kemi && !noreply
			&& !(atomic_load_explicit(&ovc->script_plain, memory_order_relaxed)
					& (1u << r.c)))
		atomic_fetch_or(&ovc->script_plain, 1u << r.c);
	if(r.c == OVC_CLASS_INVITE)
		r.fair_src = ovc_fair_msg_key(msg); /* fair_key's trunk, if named */
	ovc_admit_settings(&cfg);
	ovc_admit_decide(&cfg, &r, fd, &v);
	return act(msg, &r, sc, &cfg, &v, noreply);
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
