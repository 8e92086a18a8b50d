/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - admission: early, lock-free and stateless (000 §VI-A).
 */
#include <stdio.h>
#include <string.h>

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "core/data_lump_rpl.h"
#include "core/dprint.h"
#include "core/ip_addr.h"
#include "core/parser/parse_to.h"
#include "core/receive.h"
#include "core/udp_server.h"
#include "modules/sl/sl.h"

#include "ovc/rejmem.h"
#include "ovc/sipscan.h"

#include "ovc_admit.h"
#include "ovc_onset.h"
#include "ovc_queue.h"
#include "ovc_rxq.h"
#include "ovc_rsoca.h"

struct ovc_reply_cfg ovc_reply = {503, {"Service Unavailable", 19}, 0};

static sl_api_t slb;

/* secret of ovc's To-tags; drawn in mod_init, so every process (forked
 * later) shares it and recognises ACKs to replies sent by any process */
static uint64_t tag_secret;

/* Server header of ovc's own replies */
#define OVC_SERVER "ovc"

/* per-process memory of the last decision, for $ovc(verdict) */
static unsigned int last_msg_id;
static int last_msg_pid;
static enum ovc_outcome last_outcome;

int ovc_admit_init(void)
{
	int fd;

	if(sl_load_api(&slb) != 0) {
		LM_ERR("ovc needs the sl module: loadmodule \"sl.so\" first\n");
		return -1;
	}
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if(fd < 0 || read(fd, &tag_secret, sizeof(tag_secret))
						 != (ssize_t)sizeof(tag_secret))
		tag_secret = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	if(fd >= 0)
		close(fd);
	return 0;
}

/* Class of a request the raw scanner understood. */
static enum ovc_class class_of_scan(const struct ovc_sip_scan *sc)
{
	if(sc->totag.len > 0)
		return OVC_CLASS_INDIALOG;
	if(sc->method == OVC_M_INVITE)
		return OVC_CLASS_INVITE;
	if(sc->method == OVC_M_REGISTER)
		return OVC_CLASS_REGISTER;
	return OVC_CLASS_OTHER;
}

enum ovc_class ovc_classify(struct sip_msg *msg)
{
	int m = msg->first_line.u.request.method_value;

	if(parse_headers(msg, HDR_TO_F, 0) == 0 && msg->to != NULL
			&& parse_to_header(msg) == 0 && get_to(msg)->tag_value.len > 0)
		return OVC_CLASS_INDIALOG;
	if(m == METHOD_INVITE)
		return OVC_CLASS_INVITE;
	if(m == METHOD_REGISTER)
		return OVC_CLASS_REGISTER;
	return OVC_CLASS_OTHER;
}

/* The reject reply in force: R-SOCA's own (500 + Retry-After, 004 §III-A)
 * while it runs, else the modparams'. */
static const struct ovc_reply_cfg *reply_now(void)
{
	if(atomic_load_explicit(&ovc->alg, memory_order_relaxed)
			== OVC_ALG_RSOCA)
		return ovc_rsoca_reply();
	return &ovc_reply;
}

/* The scanner's method of a parsed request. */
static enum ovc_sip_method method_of_msg(struct sip_msg *msg)
{
	switch(msg->first_line.u.request.method_value) {
		case METHOD_INVITE:
			return OVC_M_INVITE;
		case METHOD_ACK:
			return OVC_M_ACK;
		case METHOD_CANCEL:
			return OVC_M_CANCEL;
		case METHOD_REGISTER:
			return OVC_M_REGISTER;
		case METHOD_BYE:
			return OVC_M_BYE;
		case METHOD_PRACK:
			return OVC_M_PRACK;
		case METHOD_UPDATE:
			return OVC_M_UPDATE;
		case METHOD_INFO:
			return OVC_M_INFO;
		default:
			return OVC_M_OTHER;
	}
}

/* An emergency request about to be rejected is admitted instead (004
 * §III-A): counted admitted and as an emergency pass, and remembered
 * admitted under key (0: not remembered) for its retransmissions.
 * buf/len: the raw request, uri/uri_len its Request-URI. Returns 1 when it
 * was. */
static int emergency_pass(enum ovc_class c, const char *buf, int len,
		const char *uri, int uri_len, uint64_t key)
{
	if(!ovc_rsoca_is_emergency(buf, len, uri, uri_len))
		return 0;
	if(key != 0)
		ovc_rejmem_put(ovc->rejmem, key, (uint32_t)ovc_now_sec_coarse(),
				OVC_REJMEM_ADMITTED);
	ovc_count_offered(c, OVC_V_ADMITTED, -1);
	ovc_rsoca_count_event(OVC_RS_E_EMERG);
	return 1;
}

/* Counts a request of class c and method m rejected with a reply (an
 * in-dialog one also per type: R-SOCA's re-INVITE limit). */
static void count_rejected(enum ovc_class c, enum ovc_sip_method m)
{
	ovc_count_offered(c, OVC_V_REJECTED, -1);
	if(c == OVC_CLASS_INDIALOG)
		ovc_rsoca_count_dlg_reject(m);
}

/* Is class c of this request subject to the controller's fraction?
 * ack_cancel: the request is an ACK or a CANCEL. */
static int controlled(int ack_cancel, enum ovc_class c)
{
	enum ovc_alg alg = atomic_load_explicit(&ovc->alg, memory_order_relaxed);

	if(alg == OVC_ALG_NONE)
		return 0;
	if(ack_cancel)
		return 0; /* never rejected */
	if(c == OVC_CLASS_INDIALOG)
		return 0; /* running dialogs are never rejected */
	if(atomic_load_explicit(&ovc->mode, memory_order_relaxed)
			== OVC_MODE_SINGLE)
		return 1;
	if(alg == OVC_ALG_RSOCA)
		return 1; /* invite, register, other */
	return c == OVC_CLASS_INVITE;
}

/* Sends the reject reply built straight from the raw request buf (no
 * parsing, no allocation) over UDP to where rcv says it came from.
 * Returns 0 sent, -1 send failed, 1 could not be built here (the caller
 * falls back to sl). */
static int send_fast_reject(const char *buf, struct receive_info *rcv,
		const struct ovc_sip_scan *sc)
{
	static char out[BUF_SIZE];
	const struct ovc_reply_cfg *cfg = reply_now();
	struct ovc_reply_params rp;
	struct dest_info dst;
	char *ip;
	int len;

	ip = ip_addr2a(&rcv->src_ip);
	if(ip == NULL)
		return 1;
	memset(&rp, 0, sizeof(rp));
	rp.code = cfg->code;
	rp.reason = cfg->reason.s;
	rp.reason_len = cfg->reason.len;
	rp.retry_after = cfg->retry_after;
	rp.src_ip = ip;
	rp.src_port = rcv->src_port;
	rp.server = OVC_SERVER;
	rp.secret = tag_secret;
	len = ovc_sip_build_reply(buf, sc, &rp, out, sizeof(out));
	if(len <= 0)
		return 1;
	init_dst_from_rcv(&dst, rcv);
	su_setport(&dst.to, ovc_sip_reply_port(sc, rcv->src_port));
	if(udp_send(&dst, out, (unsigned)len) < 0)
		return -1;
	return 0;
}

/* Sends the configured stateless reject: ovc's own reply when the raw
 * request was understood (UDP), else sl's. Returns 0 or -1. */
static int send_reject(struct sip_msg *msg, const struct ovc_sip_scan *sc)
{
	const struct ovc_reply_cfg *cfg;
	char hdr[64];
	int len, rc;

	if(sc != NULL) {
		rc = send_fast_reject(msg->buf, &msg->rcv, sc);
		if(rc <= 0)
			return rc;
	}
	cfg = reply_now();
	if(cfg->retry_after > 0) {
		len = snprintf(hdr, sizeof(hdr), "Retry-After: %d\r\n",
				cfg->retry_after);
		if(add_lump_rpl(msg, hdr, len, LUMP_RPL_HDR) == NULL) {
			LM_ERR("cannot add Retry-After to the reply\n");
			return -1;
		}
	}
	if(slb.sreply(msg, cfg->code, (str *)&cfg->reason) < 0)
		return -1;
	return 0;
}

static void remember(struct sip_msg *msg, enum ovc_outcome o)
{
	last_msg_id = msg->id;
	last_msg_pid = msg->pid;
	last_outcome = o;
}

/* Seconds a decision is remembered: Timer B/F, 64·T1. */
#define OVC_DECISION_TTL 32

/* Identity of a scanned request (the same for its retransmissions). */
static uint64_t request_key(const char *buf, const struct ovc_sip_scan *sc)
{
	return ovc_sip_request_key(tag_secret, buf, sc);
}

/* How long the initial INVITE this process just read from UDP socket fd
 * (-1: not UDP) waited in the kernel's receive queue, ns: its kernel
 * receive timestamp (SIOCGSTAMPNS, which reports the datagram a process
 * read from the socket last: exact with one receiver per socket, else the
 * newest datagram read by any of them, so ages come out low), else the
 * estimated wait of the queue (bytes / drain rate). -1 for TCP. Noted for
 * the overload evidence (ovc_onset.h). */
static int64_t rx_age(int fd)
{
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

/* The decision both paths share, on a classified request (sc: its raw
 * scan, or NULL; *key receives its identity for remember_reject(), 0
 * without a scan). A retransmission of a request decided within the last
 * OVC_DECISION_TTL seconds gets its original's decision: a rejected INVITE
 * is not admitted after its 503, an admitted one is not answered 503 while
 * its transaction runs, a queued one is absorbed (counted dropped). An
 * admitted initial INVITE goes to the in-core queue when it is on
 * (OVC_OUT_QUEUE; with pi every one does, pi's acceptor applies at
 * dequeue). Under rsoca an in-dialog request (m: its method) meets its
 * type's DoS limit (dropped: OVC_OUT_DROPPED with *dos set; a re-INVITE
 * OVC_OUT_REJECTED) and the controlled classes their burst budget before
 * the acceptor. An initial INVITE read from UDP socket fd that waited past
 * rxq.max_age_ms is rejected whatever the algorithm (*aged set). Returns
 * the outcome; for OVC_OUT_REJECTED and OVC_OUT_QUEUE nothing is counted
 * yet (the caller acts, then counts). Admissions, drops, absorptions and
 * dry-run verdicts are counted. */
static enum ovc_outcome decide(enum ovc_class c, enum ovc_sip_method m,
		const char *buf, const struct ovc_sip_scan *sc, uint64_t *key,
		int *would, int *dos, int fd, int *aged)
{
	uint32_t now = (uint32_t)ovc_now_sec_coarse();
	int dry = atomic_load_explicit(&ovc->dry_run, memory_order_relaxed);
	int ack_cancel = m == OVC_M_ACK || m == OVC_M_CANCEL;
	int rsoca = atomic_load_explicit(&ovc->alg, memory_order_relaxed)
				== OVC_ALG_RSOCA;
	int prev = -1, queue, ctl = controlled(ack_cancel, c), age_on;
	int64_t age = -1;
	enum ovc_rs_verdict rv;

	*key = 0;
	*would = 0;
	*dos = 0;
	*aged = 0;
	if(rsoca && c == OVC_CLASS_INDIALOG && !ack_cancel) {
		/* 004 §III-B: in-dialog excess over D_en dropped, re-INVITE
		 * excess rejected */
		rv = ovc_rsoca_indialog(m, dry);
		if(rv == OVC_RS_PASS) {
			ovc_count_offered(c, OVC_V_ADMITTED, -1);
			return OVC_OUT_ADMITTED;
		}
		if(dry) {
			*would = 1;
			ovc_count_offered(c, OVC_V_ADMITTED, OVC_V_WOULD_REJECT);
			return OVC_OUT_WOULD_REJECT;
		}
		if(rv == OVC_RS_REJECT)
			return OVC_OUT_REJECTED;
		*dos = 1;
		ovc_count_offered(c, OVC_V_DROPPED, -1);
		return OVC_OUT_DROPPED;
	}
	age_on = c == OVC_CLASS_INVITE && !ack_cancel
			 && atomic_load_explicit(&ovc->rxq_max_age_ms, memory_order_relaxed)
						> 0;
	if(!ctl && !age_on) {
		ovc_count_offered(c, OVC_V_ADMITTED, -1);
		return OVC_OUT_ADMITTED;
	}
	if(c == OVC_CLASS_INVITE && !ack_cancel)
		age = rx_age(fd);
	if(sc != NULL) {
		*key = request_key(buf, sc);
		prev = ovc_rejmem_get(ovc->rejmem, *key, now, OVC_DECISION_TTL);
	}
	if(prev == OVC_REJMEM_REJECTED && !dry)
		return OVC_OUT_REJECTED;
	if(prev == OVC_REJMEM_QUEUED) {
		/* its original waits in the queue: absorbed, not queued twice */
		ovc_count_offered(c, OVC_V_DROPPED, -1);
		ovc_count_event(OVC_E_QUEUE_ABSORBED);
		return OVC_OUT_DROPPED;
	}
	if(prev == OVC_REJMEM_ADMITTED) {
		/* its transaction runs: a stale retransmission is tm's to absorb,
		 * never answered 503 */
		ovc_count_offered(c, OVC_V_ADMITTED, -1);
		return OVC_OUT_ADMITTED;
	}
	if(age_on
			&& ovc_rxq_too_old(age,
					atomic_load_explicit(
							&ovc->rxq_max_age_ms, memory_order_relaxed))) {
		/* waited past rxq.max_age_ms before anyone could look at it: the
		 * caller has retransmitted already, answer at once */
		if(dry) {
			*would = 1;
			ovc_count_offered(c, OVC_V_ADMITTED, OVC_V_WOULD_REJECT);
			return OVC_OUT_WOULD_REJECT;
		}
		*aged = 1;
		return OVC_OUT_REJECTED;
	}
	if(!ctl) {
		/* remembered so that its stale retransmissions are admitted (to
		 * tm) rather than answered 503 */
		if(sc != NULL)
			ovc_rejmem_put(ovc->rejmem, *key, now, OVC_REJMEM_ADMITTED);
		ovc_count_offered(c, OVC_V_ADMITTED, -1);
		return OVC_OUT_ADMITTED;
	}
	queue = c == OVC_CLASS_INVITE && ovc_queue_on()
			&& ovc_traits_now()->queued;
	if(queue && ovc_queue_rejects_at_dequeue()) {
		/* the controller's fraction applies at dequeue (003 §V); at
		 * arrival only the guard's cap, so that a flood does not swamp
		 * the queue and its workers with INVITEs refused later */
		if(dry || ovc_acceptor_take(&ovc->acc_arrival))
			return OVC_OUT_QUEUE; /* counted by the caller */
		return OVC_OUT_REJECTED;
	}
	/* 004 §III-C: beyond B_en E T arrivals in the interval, rejected */
	if((!rsoca || ovc_rsoca_burst_take(c)) && ovc_acceptor_take(&ovc->acc)) {
		if(queue)
			return OVC_OUT_QUEUE;
		if(sc != NULL)
			ovc_rejmem_put(ovc->rejmem, *key, now, OVC_REJMEM_ADMITTED);
		ovc_count_offered(c, OVC_V_ADMITTED, -1);
		return OVC_OUT_ADMITTED;
	}
	if(dry) {
		*would = 1;
		if(queue)
			return OVC_OUT_QUEUE;
		ovc_count_offered(c, OVC_V_ADMITTED, OVC_V_WOULD_REJECT);
		return OVC_OUT_WOULD_REJECT;
	}
	return OVC_OUT_REJECTED;
}

/* Remembers a request just rejected (key from decide(); 0: no scan, not
 * remembered), so that its retransmissions get the same answer. */
static void remember_reject(uint64_t key)
{
	if(key != 0)
		ovc_rejmem_put(
				ovc->rejmem, key, (uint32_t)ovc_now_sec_coarse(), 1);
}

/* Puts an initial INVITE that decide() sent to the queue there (a copy of
 * buf, len bytes, received as rcv; key from decide()). Returns
 * OVC_OUT_QUEUED (counted queued); OVC_OUT_REJECTED when the queue is full
 * or out of memory (nothing counted: the caller answers, then counts);
 * OVC_OUT_WOULD_REJECT in a dry run instead (counted admitted). would: a
 * dry run's "would have been rejected", counted beside. */
static enum ovc_outcome enqueue(enum ovc_class c, const char *buf, int len,
		const struct receive_info *rcv, uint64_t key, int would)
{
	uint32_t now = (uint32_t)ovc_now_sec_coarse();

	/* remembered first: a retransmission that races the worker must not
	 * be queued again */
	if(key != 0)
		ovc_rejmem_put(ovc->rejmem, key, now, OVC_REJMEM_QUEUED);
	if(ovc_queue_put(buf, len, rcv, key, would) == 0) {
		ovc_count_offered(c, OVC_V_QUEUED, would ? OVC_V_WOULD_REJECT : -1);
		return OVC_OUT_QUEUED;
	}
	ovc_count_event(OVC_E_QUEUE_FULL);
	if(atomic_load_explicit(&ovc->dry_run, memory_order_relaxed)) {
		if(key != 0)
			ovc_rejmem_put(ovc->rejmem, key, now, OVC_REJMEM_ADMITTED);
		ovc_count_offered(c, OVC_V_ADMITTED, OVC_V_WOULD_REJECT);
		return OVC_OUT_WOULD_REJECT;
	}
	/* not queued: no stale mark that would absorb its retransmissions
	 * (they get the reject reply, even if this one cannot be sent; an
	 * emergency pass marks it admitted) */
	if(key != 0)
		ovc_rejmem_put(ovc->rejmem, key, now, OVC_REJMEM_REJECTED);
	return OVC_OUT_REJECTED;
}

/* Is the scanned request the ACK to one of ovc's own rejects? Counts it
 * (absorbed: indialog dropped) when it is. */
static int absorb_own_ack(const char *buf, const struct ovc_sip_scan *sc)
{
	if(sc->method != OVC_M_ACK || sc->totag.len == 0
			|| !ovc_sip_is_own_totag(tag_secret, buf, sc))
		return 0;
	ovc_count_offered(OVC_CLASS_INDIALOG, OVC_V_DROPPED, -1);
	ovc_count_event(OVC_E_ACK_ABSORBED);
	return 1;
}

/* Decision already taken at datagram arrival for the request this process
 * is about to run through the script (a UDP receiver handles a datagram
 * from arrival to script end, and the next datagram's arrival clears it):
 * ovc_admit() acts on it without deciding or counting again. Matched by
 * the datagram's source, not its bytes, so that a SREV_NET_DATA_IN module
 * rewriting the message (topos) cannot make it decided twice. */
static struct
{
	int set;				 /* a decision waits for ovc_admit() */
	struct ip_addr src_ip;	 /* source of that datagram */
	unsigned short src_port; /* its port */
	enum ovc_outcome outcome;
	/* a refusal whose reply could not be built from the raw bytes: sent
	 * through sl by ovc_admit(), counted then */
	enum ovc_class c;
	enum ovc_sip_method m;
	uint64_t key;
	int aged;
} fp_pending;

/* Is msg the datagram fp_pending was decided for? */
static int fp_matches(const struct sip_msg *msg)
{
	return fp_pending.set && msg->rcv.proto == PROTO_UDP
		   && msg->rcv.src_port == fp_pending.src_port
		   && ip_addr_cmp(&msg->rcv.src_ip, &fp_pending.src_ip);
}

/* ovc_admit() for a request refused at arrival whose reply could not be
 * built there: the reply through sl (or -1 with noreply), counted once. */
static int admit_pending_reject(struct sip_msg *msg, int noreply)
{
	remember(msg, OVC_OUT_REJECTED);
	if(noreply) {
		count_rejected(fp_pending.c, fp_pending.m);
		if(fp_pending.aged)
			ovc_count_event(OVC_E_AGE_REJECT);
		return -1;
	}
	if(send_reject(msg, NULL) < 0) {
		ovc_count_offered(fp_pending.c, OVC_V_DROPPED, -1);
		remember(msg, OVC_OUT_DROPPED);
		return 0;
	}
	count_rejected(fp_pending.c, fp_pending.m);
	ovc_count_event(OVC_E_REPLY);
	if(fp_pending.aged)
		ovc_count_event(OVC_E_AGE_REJECT);
	remember_reject(fp_pending.key);
	return 0;
}

int ovc_fast_path = 1;

/* The dequeued INVITE this queue worker is running through the script
 * (ovc_admit_run_dequeued): ovc_admit() admits it (or, reject set, answers
 * it) without deciding or counting again. */
static struct
{
	const char *buf;
	enum ovc_dq_run how;
} dq_running;

int ovc_admit(struct sip_msg *msg, int noreply)
{
	struct ovc_sip_scan scan, *sc = NULL;
	enum ovc_class c;
	enum ovc_outcome o;
	enum ovc_sip_method m;
	str *ruri;
	uint64_t key;
	int would, dos, aged, fd;

	if(fp_matches(msg)) {
		fp_pending.set = 0;
		if(fp_pending.outcome == OVC_OUT_REJECTED)
			return admit_pending_reject(msg, noreply);
		remember(msg, fp_pending.outcome);
		return 1;
	}
	if(dq_running.buf != NULL && dq_running.buf == msg->buf) {
		dq_running.buf = NULL;
		if(dq_running.how != OVC_DQ_REJECT) {
			remember(msg, dq_running.how == OVC_DQ_WOULD_REJECT
								  ? OVC_OUT_WOULD_REJECT
								  : OVC_OUT_ADMITTED);
			return 1;
		}
		/* counted by the worker; the reply goes through sl here */
		remember(msg, OVC_OUT_REJECTED);
		if(noreply)
			return -1;
		if(send_reject(msg, NULL) == 0)
			ovc_count_event(OVC_E_REPLY);
		return 0;
	}
	if(msg->first_line.type != SIP_REQUEST) {
		remember(msg, OVC_OUT_ADMITTED);
		return 1;
	}
	/* the raw scan classifies without Kamailio's allocating parsers and is
	 * reused to build the reply; anything it does not fully understand
	 * takes the normal path */
	if(msg->rcv.proto == PROTO_UDP
			&& ovc_sip_scan(msg->buf, msg->len, &scan) == OVC_SCAN_OK)
		sc = &scan;
	c = sc ? class_of_scan(sc) : ovc_classify(msg);
	if(sc && absorb_own_ack(msg->buf, sc)) {
		/* the ACK to one of ovc's rejects: absorbed, never routed */
		remember(msg, OVC_OUT_DROPPED);
		return 0;
	}
	m = sc ? sc->method : method_of_msg(msg);
	fd = msg->rcv.proto == PROTO_UDP && msg->rcv.bind_address != NULL
				 ? msg->rcv.bind_address->socket
				 : -1;
	o = decide(c, m, msg->buf, sc, &key, &would, &dos, fd, &aged);
	if(o == OVC_OUT_QUEUE)
		o = enqueue(c, msg->buf, (int)msg->len, &msg->rcv, key, would);
	ruri = &msg->first_line.u.request.uri;
	if(o == OVC_OUT_REJECTED
			&& emergency_pass(
					c, msg->buf, (int)msg->len, ruri->s, ruri->len, key))
		o = OVC_OUT_ADMITTED;
	remember(msg, o);
	if(o == OVC_OUT_DROPPED && dos && noreply)
		return -2; /* DoS excess: the script decides */
	if(o == OVC_OUT_QUEUED || o == OVC_OUT_DROPPED)
		return 0; /* a worker runs it later / absorbed / DoS drop */
	if(o != OVC_OUT_REJECTED)
		return 1;
	if(noreply) {
		count_rejected(c, m);
		if(aged)
			ovc_count_event(OVC_E_AGE_REJECT);
		return -1;
	}
	if(send_reject(msg, sc) < 0) {
		/* refused, but no reply could be sent: honest name is dropped */
		ovc_count_offered(c, OVC_V_DROPPED, -1);
		remember(msg, OVC_OUT_DROPPED);
		return 0;
	}
	count_rejected(c, m);
	ovc_count_event(OVC_E_REPLY);
	if(aged)
		ovc_count_event(OVC_E_AGE_REJECT);
	remember_reject(key);
	return 0;
}

/* The fast path on one datagram (ovc_dgram_in); *refused is set when it
 * was refused here (answered, dropped, or the ACK to a reject absorbed). */
static int dgram_in(sr_event_param_t *evp, int *refused)
{
	void **d = (void **)evp->data;
	char *buf = (char *)d[0];
	int len = *(int *)d[1];
	struct receive_info *rcv = (struct receive_info *)d[2];
	struct ovc_sip_scan sc;
	enum ovc_class c;
	enum ovc_outcome o;
	enum ovc_sip_method m;
	uint64_t key;
	int would, dos, aged;
	int rc;

	fp_pending.set = 0;
	ovc_rxq_count_dgram(); /* one datagram off the socket's queue */
	if(!ovc_fast_path || len <= 0)
		return 0;
	if(len >= 8 && memcmp(buf, "SIP/2.0 ", 8) == 0)
		return 0; /* a response: the normal path */
	rc = ovc_sip_scan(buf, (size_t)len, &sc);
	if(rc != OVC_SCAN_OK) {
		/* not ours to judge here: the normal path takes it */
		if(rc < 0 && -rc < OVC_SCAN_REASONS)
			atomic_fetch_add_explicit(
					&ovc->fp_fallthrough[-rc], 1, memory_order_relaxed);
		ovc_count_event(OVC_E_FAST_FALLTHROUGH);
		return 0;
	}
	if(absorb_own_ack(buf, &sc)) {
		*refused = 1;
		return -1; /* consumed */
	}
	c = class_of_scan(&sc);
	m = sc.method;
	o = decide(c, m, buf, &sc, &key, &would, &dos,
			rcv->bind_address != NULL ? rcv->bind_address->socket : -1,
			&aged);
	if(o == OVC_OUT_QUEUE)
		o = enqueue(c, buf, len, rcv, key, would);
	if(o == OVC_OUT_REJECTED
			&& emergency_pass(c, buf, len, buf + sc.ruri.off,
					(int)sc.ruri.len, key))
		o = OVC_OUT_ADMITTED;
	if(o == OVC_OUT_QUEUED || o == OVC_OUT_DROPPED) {
		*refused = o == OVC_OUT_DROPPED;
		return -1; /* consumed: a worker runs it / absorbed / DoS drop */
	}
	if(o == OVC_OUT_REJECTED) {
		*refused = 1;
		rc = send_fast_reject(buf, rcv, &sc);
		if(rc == 0) {
			count_rejected(c, m);
			ovc_count_event(OVC_E_REPLY);
			remember_reject(key);
			ovc_count_event(OVC_E_FAST_REJECT);
			if(aged)
				ovc_count_event(OVC_E_AGE_REJECT);
			return -1; /* answered: Kamailio never parses it */
		}
		if(rc < 0) {
			ovc_count_offered(c, OVC_V_DROPPED, -1);
			return -1;
		}
		/* could not build the reply here: ovc_admit() answers it through
		 * sl and counts it (decided once) */
	}
	fp_pending.set = 1;
	fp_pending.src_ip = rcv->src_ip;
	fp_pending.src_port = rcv->src_port;
	fp_pending.outcome = o;
	fp_pending.c = c;
	fp_pending.m = m;
	fp_pending.key = key;
	fp_pending.aged = aged;
	return 0;
}

/* One datagram in every OVC_REJECT_SAMPLE is timed (thread CPU time) and
 * the time of those refused is counted OVC_REJECT_SAMPLE times: an
 * unbiased measure of the CPU refusing costs, for the controllers. */
#define OVC_REJECT_SAMPLE 8

uint64_t ovc_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * OVC_NS_PER_S + (uint64_t)ts.tv_nsec;
}

void ovc_count_refusal_cpu(uint64_t t0, unsigned scale)
{
	uint64_t t1 = ovc_thread_cpu_ns();

	if(t1 > t0)
		atomic_fetch_add_explicit(&ovc->reject_cpu_ns, (t1 - t0) * scale,
				memory_order_relaxed);
}

int ovc_dgram_in(sr_event_param_t *evp)
{
	static unsigned n;
	uint64_t t0;
	int rc, refused = 0;

	if(++n % OVC_REJECT_SAMPLE != 0)
		return dgram_in(evp, &refused);
	t0 = ovc_thread_cpu_ns();
	rc = dgram_in(evp, &refused);
	if(refused)
		ovc_count_refusal_cpu(t0, OVC_REJECT_SAMPLE);
	return rc;
}

int ovc_reject_raw(const char *buf, int len, struct receive_info *rcv)
{
	struct ovc_sip_scan sc;

	if(rcv->proto != PROTO_UDP
			|| ovc_sip_scan(buf, (size_t)len, &sc) != OVC_SCAN_OK)
		return 1;
	return send_fast_reject(buf, rcv, &sc);
}

void ovc_remember_decision(uint64_t key, int decision)
{
	if(key != 0)
		ovc_rejmem_put(ovc->rejmem, key, (uint32_t)ovc_now_sec_coarse(),
				decision);
}

void ovc_admit_run_dequeued(const struct ovc_qitem *it, enum ovc_dq_run how)
{
	static char buf[BUF_SIZE + 1];
	struct receive_info rcv;

	memcpy(buf, it->buf, (size_t)it->len);
	buf[it->len] = '\0';
	rcv = it->rcv;
	rcv.rflags |= RECV_F_INTERNAL; /* no pre-routing event a second time */
	dq_running.buf = buf;
	dq_running.how = how;
	receive_msg(buf, (unsigned)it->len, &rcv);
	dq_running.buf = NULL;
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
		case OVC_OUT_QUEUE:
		case OVC_OUT_NONE:
			break;
	}
	return "none";
}
