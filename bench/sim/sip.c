/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - the SIP side: UAC, stateful proxy and UAS state machines
 * (RFC 3261 §17 over UDP, or TCP without hop-by-hop retransmissions), the
 * kernel stage's filter in front of the receive queue, the admission
 * sequence's verdicts acted on (adm.h: at the read, or at arrival in
 * 000's model) and the in-core INVITE queue of 003 §V.
 * Timers are cancelled lazily: a timer event checks the state it was
 * armed for (states only move forward).
 */
#include <stdlib.h>

#include "adm.h"
#include "ks.h"
#include "server.h"
#include "sip.h"
#include "siptimer.h"

#define CLS_INV OVC_CLASS_INVITE
#define CLS_DLG OVC_CLASS_INDIALOG

static void px_receive(struct sim_world *w, int type, uint32_t id, int rtx);

static inline struct sim_call *call_of(struct sim_world *w, uint32_t id)
{
	return &w->calls[id];
}

static int64_t rtx_iv(enum sim_rtx_kind k, int n)
{
	return sim_rtx_interval(k, n, SIM_T1_NS, SIM_T2_NS);
}

/* Arms the next retransmission n of a transaction started at t_start, or,
 * when it would come at or after 64*T1, the transaction's timeout event
 * at exactly t_start + 64*T1 (so no long-lived timeout event is queued
 * for every transaction). Over TCP (hop-by-hop kinds) only the timeout. */
static void arm(struct sim_world *w, uint32_t id, enum sim_rtx_kind k, int n,
		int64_t t_start, int ev_rtx, int ev_timeout, int reliable)
{
	int64_t end = t_start + SIM_TIMEOUT_NS;
	int64_t next = w->now + rtx_iv(k, n);

	if(!reliable && next < end)
		sim_schedule(w, next - w->now, ev_rtx, id);
	else if(w->now < end)
		sim_schedule(w, end - w->now, ev_timeout, id);
}

/* ---- UAS (infinitely fast, answers at once) ---- */

static void uas_invite(struct sim_world *w, uint32_t id)
{
	struct sim_call *c = call_of(w, id);

	if(c->uas == UAS_NONE) {
		c->uas = UAS_WAIT_ACK;
		arm(w, id, SIM_RTX_2XX, 0, w->now, EV_UAS_G, EV_UAS_H, 0);
		px_receive(w, M_200INV, id, 0);
	} else if(c->uas == UAS_WAIT_ACK) {
		/* as SIPp: a retransmitted INVITE gets the last message again */
		px_receive(w, M_200INV, id, 1);
	}
}

static void uas_ack(struct sim_world *w, uint32_t id)
{
	struct sim_call *c = call_of(w, id);

	if(c->uas != UAS_WAIT_ACK)
		return;
	c->uas = UAS_CONFIRMED;
	if(!c->late) {
		SIM_INC(w, good);
		if(c->timely)
			SIM_INC(w, timely);
	}
}

static void uas_bye(struct sim_world *w, uint32_t id, int rtx)
{
	px_receive(w, M_200BYE, id, rtx);
}

/* ---- UAC ---- */

static void uac_provisional(struct sim_world *w, uint32_t id)
{
	struct sim_call *c = call_of(w, id);

	if(c->uac == UAC_CALLING)
		c->uac = UAC_PROCEEDING;
}

static void uac_fail(struct sim_world *w, struct sim_call *c)
{
	if(c->uac == UAC_CALLING || c->uac == UAC_PROCEEDING) {
		c->uac = UAC_FAILED;
		SIM_INC(w, failed);
	}
}

static void uac_200(struct sim_world *w, uint32_t id)
{
	struct sim_call *c = call_of(w, id);
	double d;

	switch(c->uac) {
		case UAC_CALLING:
		case UAC_PROCEEDING:
			c->uac = UAC_CONFIRMED;
			c->timely = w->now - c->t0 < SIM_TIMELY_NS;
			d = (double)(w->now - c->t0) / 1e9;
			w->sec.setup_sum_s += d;
			w->sec.setup_n++;
			px_receive(w, M_ACK, id, 0);
			sim_schedule(w,
					(int64_t)(sim_rng_exp(&w->rng, w->cfg->hold_s) * 1e9),
					EV_UAC_BYE, id);
			break;
		case UAC_CONFIRMED:
			if(c->bye != BYE_DONE)
				px_receive(w, M_ACK, id, 1);
			break;
		default:
			/* 200 after abandonment or a 503 race: ACK and hang up */
			c->late = 1;
			c->uac = UAC_CONFIRMED;
			px_receive(w, M_ACK, id, 0);
			sim_schedule(w, 0, EV_UAC_BYE, id);
			break;
	}
}

static void uac_bye200(struct sim_world *w, uint32_t id)
{
	struct sim_call *c = call_of(w, id);

	if(c->bye == BYE_SENT)
		c->bye = BYE_DONE;
}

void sim_new_call(struct sim_world *w)
{
	struct sim_call *c;
	uint32_t id;

	if(w->ncalls == w->capcalls) {
		size_t ncap = w->capcalls ? w->capcalls * 2 : 4096;
		struct sim_call *nc;

		if(ncap > UINT32_MAX)
			return;
		nc = realloc(w->calls, ncap * sizeof(*nc));
		if(!nc)
			return;
		w->calls = nc;
		w->capcalls = ncap;
	}
	id = (uint32_t)w->ncalls++;
	c = call_of(w, id);
	*c = (struct sim_call){0};
	c->t0 = w->now;
	c->uac = UAC_CALLING;
	sim_adm_new_call(w, id);
	SIM_INC(w, calls);
	arm(w, id, SIM_RTX_INVITE, 0, c->t0, EV_UAC_A, EV_UAC_B, w->cfg->tcp);
	if(w->cfg->abandon_s > 0)
		sim_schedule(w, (int64_t)(w->cfg->abandon_s * 1e9), EV_UAC_ABANDON,
				id);
	px_receive(w, M_INVITE, id, 0);
}

/* ---- proxy ---- */

/* The admission sequence on call id's INVITE (age_ns: its wait in the
 * receive queue, -1 decided at arrival; unkeyed: without the decision
 * memory), its verdict acted on: queued
 * (and counted so), remembered replied. Returns the message the processor
 * serves for it: M_INVITE_FWD (routed), M_REJECT (503), M_ABSORB (a
 * queued INVITE's retransmission) or M_QHAND (put in the in-core
 * queue); count_verdict() counts the others once they are served. */
static int px_decide(struct sim_world *w, uint32_t id, int rtx, int64_t age_ns,
		int unkeyed)
{
	struct sim_call *c = call_of(w, id);
	struct ovc_adm_verdict v;
	struct sim_msg m;

	SIM_INC(w, offered[CLS_INV]);
	sim_adm_decide(w, id, age_ns, unkeyed, &v);
	if(v.act == OVC_ADM_QUEUE) {
		m.t = w->now;
		m.call = id;
		m.type = M_INVITE_W;
		m.rtx = (uint8_t)rtx;
		if(sim_adm_enqueue(w, &v, w->iq.n < w->iq_cap)
				&& sim_fifo_push(&w->iq, &m) == 0) {
			c->px_inv = PX_QUEUED;
			SIM_INC(w, queued);
			return M_QHAND;
		}
	}
	switch(v.act) {
		case OVC_ADM_ADMIT:
			if(c->px_inv == PX_NONE)
				c->px_inv = PX_INBUF;
			return M_INVITE_FWD;
		case OVC_ADM_DROP:
			return M_ABSORB;
		default:
			sim_adm_replied(w, &v);
			return M_REJECT;
	}
}

/* Counts the verdict an INVITE's message type carries (px_decide()). */
static void count_verdict(struct sim_world *w, int type)
{
	if(type == M_INVITE_FWD)
		SIM_INC(w, admitted[CLS_INV]);
	else if(type == M_REJECT)
		SIM_INC(w, rejected[CLS_INV]);
	else if(type == M_ABSORB)
		SIM_INC(w, dropped[CLS_INV]);
}

/* 000's model: the decision at arrival, a reject in its own priority
 * (answered even while the message buffer is full). An INVITE the
 * sequence admits while the message buffer is full is lost: so that its
 * retransmission is decided anew (000), a new call's INVITE is then
 * decided without the decision memory, and one of a call admitted before
 * is lost undecided. A reject that finds its own buffer full is counted
 * dropped (its decision stays remembered, as the module's when a reply
 * cannot be sent). */
static void px_invite_arrival(struct sim_world *w, uint32_t id, int rtx)
{
	int full = !sim_proc_room(w, P_EXT);
	int type;

	if(full && call_of(w, id)->px_inv != PX_NONE) {
		SIM_INC(w, offered[CLS_INV]);
		SIM_INC(w, dropped[CLS_INV]);
		SIM_INC(w, buf_drops);
		return;
	}
	type = px_decide(w, id, rtx, -1, full);
	if(type == M_QHAND) {
		sim_drain(w);
		return;
	}
	if(sim_proc_enqueue(w, type == M_INVITE_FWD ? P_EXT : P_REJECT, type,
			   id, rtx, 0)) {
		count_verdict(w, type);
		return;
	}
	if(type == M_INVITE_FWD)
		call_of(w, id)->px_inv = PX_NONE;
	SIM_INC(w, dropped[CLS_INV]);
	if(type != M_ABSORB)
		SIM_INC(w, buf_drops);
}

/* An INVITE reaches the host: the kernel stage's filter, then the
 * receive queue (decided when read), or 000's decision at arrival. */
static void px_invite(struct sim_world *w, uint32_t id, int rtx)
{
	if(!sim_ks_filter(w, id))
		return;
	if(!w->cfg->read_decide) {
		px_invite_arrival(w, id, rtx);
		return;
	}
	if(!sim_proc_enqueue(w, P_EXT, M_INVITE, id, rtx, 0))
		SIM_INC(w, buf_drops);
}

void sim_sip_read(struct sim_world *w, struct sim_msg *m)
{
	if(m->type != M_INVITE)
		return;
	m->type = (uint8_t)px_decide(w, m->call, m->rtx, w->now - m->t, 0);
	count_verdict(w, m->type);
}

/* A message from a UA reaches the proxy's socket. */
static void px_receive(struct sim_world *w, int type, uint32_t id, int rtx)
{
	static const char *names[] = {[M_INVITE] = "INVITE", [M_200INV] = "200",
			[M_ACK] = "ACK", [M_BYE] = "BYE", [M_200BYE] = "200-BYE"};
	int dlg = type == M_ACK || type == M_BYE;

	if(w->cfg->trace)
		w->cfg->trace(w->cfg->trace_ctx, w->now, id, names[type], rtx);
	SIM_INC(w, msgs_in);
	if(rtx)
		SIM_INC(w, rtx_in);
	if(type == M_INVITE) {
		px_invite(w, id, rtx);
		return;
	}
	if(dlg)
		SIM_INC(w, offered[CLS_DLG]);
	if(sim_proc_enqueue(w, P_EXT, type, id, rtx, 0)) {
		if(dlg)
			SIM_INC(w, admitted[CLS_DLG]);
		return;
	}
	if(dlg)
		SIM_INC(w, dropped[CLS_DLG]);
	SIM_INC(w, buf_drops);
}

/* Forwards an admitted INVITE: server and client transactions. */
static void px_forward(struct sim_world *w, uint32_t id)
{
	struct sim_call *c = call_of(w, id);

	c->px_inv = PX_FWD;
	c->t_fwd = w->now;
	w->active_txn++;
	uac_provisional(w, id); /* 100 Trying */
	arm(w, id, SIM_RTX_INVITE, 0, c->t_fwd, EV_PX_A, EV_PX_B, w->cfg->tcp);
	uas_invite(w, id);
}

static void px_clean_later(struct sim_world *w, uint32_t id)
{
	sim_schedule(w, (int64_t)(w->cfg->clean_s * 1e9), EV_PX_CLEAN, id);
}

void sim_sip_serve(struct sim_world *w, const struct sim_msg *m)
{
	struct sim_call *c = call_of(w, m->call);
	uint32_t id = m->call;

	switch(m->type) {
		case M_INVITE_FWD:
			if(c->px_inv == PX_INBUF)
				px_forward(w, id);
			else if(c->px_inv == PX_FWD)
				uac_provisional(w, id); /* 100 again */
			break;
		case M_QHAND:
			sim_drain(w);
			break;
		case M_INVITE_W:
			w->inflight--;
			if(c->px_inv == PX_INBUF)
				px_forward(w, id);
			sim_drain(w);
			break;
		case M_REJECT:
			uac_fail(w, c); /* 503 */
			break;
		case M_INVITE:
		case M_ABSORB:
			break;
		case M_200INV:
			if(c->px_inv == PX_FWD) {
				c->px_inv = PX_DONE;
				px_clean_later(w, id);
			}
			uac_200(w, id);
			break;
		case M_ACK:
			uas_ack(w, id);
			break;
		case M_BYE:
			if(c->px_bye == PX_NONE) {
				c->px_bye = PX_FWD;
				c->t_pxbye = w->now;
				w->active_txn++;
				arm(w, id, SIM_RTX_NONINVITE, 0, c->t_pxbye, EV_PX_E, EV_PX_F,
						w->cfg->tcp);
				uas_bye(w, id, 0);
			} else if(c->px_bye == PX_DONE) {
				uac_bye200(w, id); /* stateful: final response again */
			}
			break;
		case M_200BYE:
			if(c->px_bye == PX_FWD) {
				c->px_bye = PX_DONE;
				px_clean_later(w, id);
			}
			uac_bye200(w, id);
			break;
		case M_T_INV_RTX:
			if(c->px_inv == PX_FWD)
				uas_invite(w, id);
			break;
		case M_T_INV_TIMEOUT:
			if(c->px_inv == PX_FWD) {
				c->px_inv = PX_DONE;
				px_clean_later(w, id);
				uac_fail(w, c); /* 408 */
			}
			break;
		case M_T_BYE_RTX:
			if(c->px_bye == PX_FWD)
				uas_bye(w, id, 1);
			break;
		case M_T_BYE_TIMEOUT:
			if(c->px_bye == PX_FWD) {
				c->px_bye = PX_DONE;
				px_clean_later(w, id);
			}
			break;
		case M_T_CLEAN:
			w->active_txn--;
			break;
	}
}

/* Timer message into the processor (unbounded priority 1). */
static void px_timer(struct sim_world *w, int type, uint32_t id)
{
	sim_proc_enqueue(w, P_TIMER, type, id, 0, 1);
}

void sim_sip_event(struct sim_world *w, const struct sim_ev *e)
{
	struct sim_call *c = call_of(w, e->obj);
	uint32_t id = e->obj;

	switch(e->type) {
		case EV_UAC_A:
			if(c->uac != UAC_CALLING)
				break;
			c->n_uac_a++;
			arm(w, id, SIM_RTX_INVITE, c->n_uac_a, c->t0, EV_UAC_A, EV_UAC_B,
					0);
			px_receive(w, M_INVITE, id, 1);
			break;
		case EV_UAC_B:
			if(c->uac == UAC_CALLING)
				uac_fail(w, c);
			break;
		case EV_UAC_ABANDON:
			if(c->uac == UAC_CALLING || c->uac == UAC_PROCEEDING) {
				c->uac = UAC_ABANDONED;
				SIM_INC(w, failed);
			}
			break;
		case EV_UAC_BYE:
			if(c->bye != BYE_NONE)
				break;
			c->bye = BYE_SENT;
			c->t_bye = w->now;
			arm(w, id, SIM_RTX_NONINVITE, 0, c->t_bye, EV_UAC_E, EV_UAC_F,
					w->cfg->tcp);
			px_receive(w, M_BYE, id, 0);
			break;
		case EV_UAC_E:
			if(c->bye != BYE_SENT)
				break;
			c->n_uac_e++;
			arm(w, id, SIM_RTX_NONINVITE, c->n_uac_e, c->t_bye, EV_UAC_E,
					EV_UAC_F, 0);
			px_receive(w, M_BYE, id, 1);
			break;
		case EV_UAC_F:
			if(c->bye == BYE_SENT)
				c->bye = BYE_DONE;
			break;
		case EV_PX_A:
			if(c->px_inv != PX_FWD)
				break;
			c->n_px_a++;
			arm(w, id, SIM_RTX_INVITE, c->n_px_a, c->t_fwd, EV_PX_A, EV_PX_B,
					0);
			px_timer(w, M_T_INV_RTX, id);
			break;
		case EV_PX_B:
			if(c->px_inv == PX_FWD)
				px_timer(w, M_T_INV_TIMEOUT, id);
			break;
		case EV_PX_E:
			if(c->px_bye != PX_FWD)
				break;
			c->n_px_e++;
			arm(w, id, SIM_RTX_NONINVITE, c->n_px_e, c->t_pxbye, EV_PX_E,
					EV_PX_F, 0);
			px_timer(w, M_T_BYE_RTX, id);
			break;
		case EV_PX_F:
			if(c->px_bye == PX_FWD)
				px_timer(w, M_T_BYE_TIMEOUT, id);
			break;
		case EV_PX_CLEAN:
			px_timer(w, M_T_CLEAN, id);
			break;
		case EV_UAS_G:
			if(c->uas != UAS_WAIT_ACK)
				break;
			c->n_uas_g++;
			arm(w, id, SIM_RTX_2XX, c->n_uas_g, c->t_fwd, EV_UAS_G, EV_UAS_H,
					0);
			px_receive(w, M_200INV, id, 1);
			break;
		case EV_UAS_H:
			if(c->uas == UAS_WAIT_ACK)
				c->uas = UAS_GAVE_UP;
			break;
	}
}

/* Moves INVITEs from the in-core queue to the processor: at most
 * cfg->workers in service, paced at the plan's drain rate (u rho_M per
 * second) when it is >= 0. */
void sim_drain(struct sim_world *w)
{
	double rate = w->drain_rate;
	struct ovc_adm_verdict v;
	struct sim_msg m;
	int64_t due;
	double ms;

	if(rate >= 0) {
		w->tokens += rate * (double)(w->now - w->tok_t) / 1e9;
		if(w->tokens > 1)
			w->tokens = 1;
	}
	w->tok_t = w->now;
	while(w->iq.n && w->inflight < w->cfg->workers) {
		if(rate >= 0) {
			if(w->tokens < 1) {
				if(rate <= 0)
					return;
				due = w->now + (int64_t)((1 - w->tokens) / rate * 1e9) + 1;
				if(!w->drain_pending || due < w->drain_due) {
					w->drain_gen++;
					w->drain_due = due;
					w->drain_pending = 1;
					sim_evq_push(&w->q, due, EV_DRAIN, 0, w->drain_gen);
				}
				return;
			}
			w->tokens -= 1;
		}
		sim_fifo_pop(&w->iq, &m);
		SIM_INC(w, dequeued);
		SIM_INC(w, qdelay_n);
		w->sec.qdelay_sum_s += (double)(w->now - m.t) / 1e9;
		w->ep.qdelay_sum_s += (double)(w->now - m.t) / 1e9;
		ms = (double)(w->now - m.t) / 1e6;
		if(w->win_q_ms < 0 || ms < w->win_q_ms)
			w->win_q_ms = ms;
		sim_adm_dequeue(w, m.call, w->now - m.t, &v);
		if(v.act != OVC_ADM_ADMIT) {
			/* too old, or 003's alpha on the drained flow: the worker
			 * answers 503 (an early reject's cost) */
			call_of(w, m.call)->px_inv = PX_NONE;
			SIM_INC(w, rejected[CLS_INV]);
			sim_adm_replied(w, &v);
			sim_proc_enqueue(w, P_REJECT, M_REJECT, m.call, m.rtx, 1);
			continue;
		}
		call_of(w, m.call)->px_inv = PX_INBUF;
		w->inflight++;
		SIM_INC(w, admitted[CLS_INV]); /* the worker processes it now */
		/* the worker's work: over the receive queue in the module's
		 * model (a process of its own the scheduler runs), behind it in
		 * 000's (one buffer) */
		sim_proc_enqueue(w, w->cfg->read_decide ? P_REJECT : P_EXT,
				M_INVITE_W, m.call, m.rtx, 1);
	}
}
