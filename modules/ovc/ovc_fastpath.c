/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the fast path: the admission decision on a UDP datagram at its
 * arrival, before Kamailio parses it (ovc_admit.h, ovc_dgram_in()).
 */
#include <string.h>

#include <time.h>

#include "core/events.h"

#include "ovc_account.h"
#include "ovc_admit.h"
#include "ovc_fair.h"
#include "ovc_modparams.h"
#include "ovc_rxq.h"

int ovc_fast_path_kemi;

/* A datagram the fast path consumes never reaches receive_msg(): the
 * modules that watch what Kamailio receives (SREV_NET_DATA_RECV: siptrace
 * with trace_mode; SREV_NET_DATA_IN: sipdump, topos) are shown it here,
 * as receive_msg() would, once ovc is done with its bytes. */
static void show_consumed(const struct ovc_adm_req *r, struct receive_info *rcv)
{
	sr_event_param_t evp;
	sr_net_info_t ni;
	str inb;

	if(sr_event_enabled(SREV_NET_DATA_RECV)) {
		memset(&ni, 0, sizeof(ni));
		memset(&evp, 0, sizeof(evp));
		ni.data.s = (char *)r->buf;
		ni.data.len = (int)r->len;
		ni.rcv = rcv;
		evp.data = (void *)&ni;
		sr_event_exec(SREV_NET_DATA_RECV, &evp);
	}
	if(sr_event_enabled(SREV_NET_DATA_IN)) {
		memset(&evp, 0, sizeof(evp));
		inb.s = (char *)r->buf;
		inb.len = (int)r->len;
		evp.data = (void *)&inb;
		evp.rcv = rcv;
		sr_event_exec(SREV_NET_DATA_IN, &evp);
	}
}

/* The fast path acting on verdict v for the datagram r from rcv (sc: its
 * scan); *refused is set when it was refused here. Returns -1 consumed,
 * 0 continue to the script. */
static int act_arrival(const struct ovc_adm_cfg *cfg,
		const struct ovc_adm_req *r, struct receive_info *rcv,
		struct ovc_adm_verdict *v, int *refused)
{
	int rc;

	if(v->act == OVC_ADM_QUEUE)
		ovc_admit_enqueue(cfg, r, rcv, v);
	if(v->act != OVC_ADM_REJECT && v->act != OVC_ADM_CANCEL) {
		ovc_account(v, r->m, OVC_REPLY_NONE);
		if(v->act == OVC_ADM_ADMIT) {
			ovc_admit_leave(rcv, v, r->m);
			return 0;
		}
		/* queued for a worker (which hands it to receive_msg()),
		 * absorbed, or DoS drop */
		*refused = v->act == OVC_ADM_DROP;
		if(v->act != OVC_ADM_QUEUE)
			show_consumed(r, rcv);
		return -1;
	}
	*refused = v->act == OVC_ADM_REJECT;
	rc = ovc_reply_raw(ovc_admit_reply(v), r->buf, (int)r->len, rcv, r->sc);
	if(rc > 0) {
		/* no reply from these bytes: ovc_admit() answers it through sl
		 * and counts it (decided once) */
		ovc_admit_leave(rcv, v, r->m);
		return 0;
	}
	show_consumed(r, rcv);
	ovc_account(v, r->m, rc == 0 ? OVC_REPLY_SENT : OVC_REPLY_FAILED);
	if(rc == 0 && v->act == OVC_ADM_REJECT) {
		ovc_adm_replied(ovc_admit_state(), cfg, v);
		ovc_count_event(OVC_E_FAST_REJECT);
	}
	return -1; /* answered (or not answerable): Kamailio never parses it */
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
	struct ovc_adm_verdict v;
	struct ovc_adm_cfg cfg;
	struct ovc_adm_req r;
	int rc;

	ovc_admit_forget();
	ovc_rxq_count_dgram(); /* one datagram off the socket's queue */
	if(!ovc_mp.fast_path || len <= 0
			|| atomic_load_explicit(&ovc->script_replies, memory_order_relaxed))
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
	r.c = ovc_class_of_scan(&sc);
	if(ovc_fast_path_kemi
			&& !(atomic_load_explicit(&ovc->script_plain, memory_order_relaxed)
					& (1u << r.c)))
		return 0; /* the KEMI script has not shown how it admits these */
	r.m = sc.method;
	r.buf = buf;
	r.len = (size_t)len;
	r.sc = &sc;
	r.ruri = buf + sc.ruri.off;
	r.ruri_len = sc.ruri.len;
	r.src = ovc_source_id(rcv);
	r.fair_src = ovc_fair_state() != NULL ? ovc_fair_src(rcv) : 0;
	ovc_admit_settings(&cfg);
	ovc_admit_decide(&cfg, &r,
			rcv->bind_address != NULL ? rcv->bind_address->socket : -1, &v);
	return act_arrival(&cfg, &r, rcv, &v, refused);
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
