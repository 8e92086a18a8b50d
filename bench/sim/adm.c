/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - the admission sequence as the module drives it (adm.h).
 */
#include <stdlib.h>
#include <string.h>

#include "adm.h"
#include "ks.h"

#define SECRET UINT64_C(0x6f76632d73696d21) /* keys identities */
#define SOURCE 1 /* every caller is one SIPp: one transport source */

/* The synthetic INVITE (a SIPp uac.xml INVITE); its call's id goes into
 * the ID_DIGITS-digit fields marked by "%s" (branch, From tag, Call-ID). */
static const char *const tmpl[] = {
		"INVITE sip:service@10.0.0.2:5060 SIP/2.0\r\n"
		"Via: SIP/2.0/UDP 10.0.0.1:5061;branch=z9hG4bK-",
		"\r\nFrom: sipp <sip:sipp@10.0.0.1:5061>;tag=",
		"\r\nTo: service <sip:service@10.0.0.2:5060>\r\nCall-ID: ",
		"@10.0.0.1\r\nCSeq: 1 INVITE\r\n"
		"Contact: sip:sipp@10.0.0.1:5061\r\nMax-Forwards: 70\r\n"
		"Content-Length: 0\r\n\r\n"};
#define ID_DIGITS 10
#define ID_FIELDS 3

/* Builds the template with id 0 and notes where the ids go. */
static void template(struct sim_world *w)
{
	size_t i, n, len = 0;

	for(i = 0; i < sizeof(tmpl) / sizeof(tmpl[0]); i++) {
		n = strlen(tmpl[i]);
		memcpy(w->req + len, tmpl[i], n);
		len += n;
		if(i < ID_FIELDS) {
			w->req_id[i] = len;
			memset(w->req + len, '0', ID_DIGITS);
			len += ID_DIGITS;
		}
	}
	w->req[len] = '\0';
	w->req_len = (int)len;
}

/* Writes call id into the request's fields (fixed width: the scan's
 * offsets hold for every id). */
static void request(struct sim_world *w, uint32_t id)
{
	char d[ID_DIGITS];
	int i, f;

	for(i = ID_DIGITS - 1; i >= 0; i--, id /= 10)
		d[i] = (char)('0' + id % 10);
	for(f = 0; f < ID_FIELDS; f++)
		memcpy(w->req + w->req_id[f], d, ID_DIGITS);
}

int sim_adm_open(struct sim_world *w)
{
	w->mem = calloc(1, sizeof(*w->mem));
	if(w->mem == NULL)
		return -1;
	ovc_rejmem_init(w->mem);
	memset(&w->adm, 0, sizeof(w->adm));
	w->adm.mem = w->mem;
	w->adm.acc = &w->acc;
	w->adm.acc_arrival = &w->acc_arr;
	w->adm.secret = SECRET;
	/* the scan's offsets hold for every id (fixed width) */
	template(w);
	if(ovc_sip_scan(w->req, (size_t)w->req_len, &w->req_sc) != OVC_SCAN_OK)
		return -1;
	return 0;
}

void sim_adm_close(struct sim_world *w)
{
	free(w->mem);
	w->mem = NULL;
}

void sim_adm_new_call(struct sim_world *w, uint32_t id)
{
	if(!w->cfg->kstage)
		return; /* no stage: no key */
	request(w, id);
	w->calls[id].kskey = sim_ks_key(w->req, (size_t)w->req_len);
}

/* The settings in force, as ovc_admit_settings(). */
static void settings(const struct sim_world *w, struct ovc_adm_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->t = &w->traits;
	cfg->overloaded = w->over;
	cfg->max_age_ms = w->over ? w->age_loaded_ms : w->max_age_ms;
	cfg->queue_on = w->incore;
	/* queue_bypass 1 (the module's default) */
	cfg->queue_idle = w->incore && w->traits.queued && w->iq.n == 0
					  && w->inflight == 0;
	cfg->now_s = (uint32_t)(w->now / OVC_NS_PER_S);
	cfg->sendq_max = -1;
}

static void req_of(struct sim_world *w, uint32_t id, struct ovc_adm_req *r)
{
	request(w, id);
	memset(r, 0, sizeof(*r));
	r->c = OVC_CLASS_INVITE;
	r->m = OVC_M_INVITE;
	r->buf = w->req;
	r->len = (size_t)w->req_len;
	r->sc = &w->req_sc;
	r->ruri = w->req + w->req_sc.ruri.off;
	r->ruri_len = w->req_sc.ruri.len;
	r->src = SOURCE;
}

/* What the sources see of the INVITE being decided. */
struct src_ctx
{
	struct sim_world *w;
	uint32_t id;
	int64_t age_ns;
};

/* Its wait in the receive queue, noted for the gate (src_age()). */
static int64_t src_age(void *ctx)
{
	struct src_ctx *c = ctx;
	double ms = (double)c->age_ns / 1e6;

	if(c->age_ns >= 0 && (c->w->win_rx_ms < 0 || ms < c->w->win_rx_ms))
		c->w->win_rx_ms = ms;
	return c->age_ns;
}

static int64_t src_call_age(void *ctx)
{
	struct src_ctx *c = ctx;

	return sim_ks_call_age_ns(c->w, c->id);
}

/* R-SOCA's burst budget: INVITEs beyond burst_limit in an epoch. */
static int src_burst(void *ctx, enum ovc_class cls)
{
	struct src_ctx *c = ctx;
	double lim = c->w->out.burst_limit[cls];

	return !(lim >= 0 && (double)c->w->ep.offered[cls] > lim);
}

void sim_adm_decide(struct sim_world *w, uint32_t id, int64_t age_ns,
		int unkeyed, struct ovc_adm_verdict *v)
{
	struct src_ctx c = {w, id, age_ns};
	struct ovc_adm_sources src = {&c, src_age, src_call_age, NULL, src_burst};
	struct ovc_adm_cfg cfg;
	struct ovc_adm_req r;

	settings(w, &cfg);
	req_of(w, id, &r);
	if(unkeyed)
		r.sc = NULL; /* not understood: no decision memory */
	ovc_adm_decide(&w->adm, &cfg, &src, &r, v);
	w->inv_decided++;
	if(v->flags & OVC_ADMF_AGED) {
		SIM_INC(w, age_rej);
		if(!(v->flags & OVC_ADMF_LATE))
			w->age_refused++;
	}
	/* a call admitted under overload: the kernel stage spares it */
	if(cfg.overloaded && (v->act == OVC_ADM_ADMIT || v->act == OVC_ADM_QUEUE))
		sim_ks_admitted(w, id);
}

int sim_adm_enqueue(struct sim_world *w, struct ovc_adm_verdict *v, int room)
{
	struct ovc_adm_cfg cfg;
	struct ovc_adm_req r;

	settings(w, &cfg);
	ovc_adm_queueing(&w->adm, &cfg, v);
	if(room)
		return 1;
	/* the request is only read for an emergency match (none here) */
	memset(&r, 0, sizeof(r));
	r.c = OVC_CLASS_INVITE;
	r.m = OVC_M_INVITE;
	ovc_adm_unqueued(&w->adm, &cfg, &r, v);
	return 0;
}

void sim_adm_replied(struct sim_world *w, const struct ovc_adm_verdict *v)
{
	struct ovc_adm_cfg cfg;

	settings(w, &cfg);
	ovc_adm_replied(&w->adm, &cfg, v);
}

void sim_adm_dequeue(struct sim_world *w, uint32_t id, int64_t waited_ns,
		struct ovc_adm_verdict *v)
{
	struct ovc_adm_cfg cfg;
	struct ovc_adm_req r;
	uint64_t key;

	settings(w, &cfg);
	req_of(w, id, &r);
	key = ovc_sip_request_key(w->adm.secret, r.buf, r.sc, r.src);
	ovc_adm_dequeue(&w->adm, &cfg, &r, key, waited_ns,
			(int64_t)w->queue_wait_ms * OVC_NS_PER_MS, v);
}
