/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - asking the admission sequence (see ovc_decide.h).
 */
#include <time.h>

#include "ovc_decide.h"
#include "ovc_fair.h"
#include "ovc_kstage.h"
#include "ovc_modparams.h"
#include "ovc_onset.h"
#include "ovc_queue.h"
#include "ovc_reply.h"
#include "ovc_rsoca.h"
#include "ovc_rxq.h"
#include "ovc_sampler.h"

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
	cfg->max_age_ms = ovc_onset_max_age_ms(cfg->overloaded);
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
	age = ovc_rxq_age_ns(fd);
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
		ovc_sampler_count_reject_ns((t1 - t0) * scale);
}
