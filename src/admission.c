/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the admission sequence (ovc/admission.h).
 */
#include <string.h>

#include "ovc/admission.h"
#include "ovc/rxq.h"

int ovc_adm_controlled(const struct ovc_alg_traits *t, int single,
		int ack_cancel, enum ovc_class c)
{
	if(t->controlled == 0 || ack_cancel)
		return 0; /* none decides nothing; ACK, CANCEL never refused */
	if(c == OVC_CLASS_INDIALOG)
		return 0; /* running dialogs are never refused */
	if(single)
		return 1;
	return (t->controlled & OVC_CLASS_BIT(c)) != 0;
}

static void verdict(struct ovc_adm_verdict *v, enum ovc_adm_act act,
		unsigned flags)
{
	v->act = act;
	v->flags |= flags;
}

/* Remembers decision d (enum ovc_rejmem_decision) under v's key. */
static void remember(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_verdict *v,
		int d)
{
	if(v->key != 0)
		ovc_rejmem_put(st->mem, v->key, cfg->now_s, d);
}

static int is_emergency(
		const struct ovc_adm_state *st, const struct ovc_adm_req *r)
{
	if(st->emerg == NULL || r->buf == NULL || r->len == 0
			|| r->ruri == NULL)
		return 0;
	return ovc_emerg_match(st->emerg, r->buf, r->len, r->ruri, r->ruri_len);
}

/* A refusal: an emergency call is admitted instead (004 §III-A) and
 * remembered so; anything else is rejected. */
static void refuse(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_req *r,
		struct ovc_adm_verdict *v, unsigned flags)
{
	if(is_emergency(st, r)) {
		remember(st, cfg, v, OVC_REJMEM_ADMITTED);
		verdict(v, OVC_ADM_ADMIT, OVC_ADMF_EMERGENCY);
		return;
	}
	verdict(v, OVC_ADM_REJECT, flags);
}

/* The ACK to one of ovc's own rejects (its To-tag is ovc's). */
static int own_ack(const struct ovc_adm_state *st, const struct ovc_adm_req *r)
{
	const struct ovc_sip_scan *sc = r->sc;

	return sc != NULL && sc->method == OVC_M_ACK && sc->totag.len > 0
		   && ovc_sip_is_own_totag(st->secret, r->buf, sc);
}

/* Takes the INVITE remembered QUEUED under v's key out of that state
 * (to: what it becomes), atomically against a CANCEL doing the same.
 * Returns 1 when taken (it is to now), -1 when a CANCEL took it first (it
 * is CANCELLED), 0 when it is not remembered as queued. */
static int unqueue(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_verdict *v,
		int to)
{
	int prev = -1, rc;

	if(v->key == 0)
		return 0;
	rc = ovc_rejmem_cas(st->mem, v->key, cfg->now_s, OVC_ADM_MEMORY_S,
			OVC_REJMEM_QUEUED, to, &prev);
	if(rc == 1)
		return 1;
	return rc == 0 && prev == OVC_REJMEM_CANCELLED ? -1 : 0;
}

/* A CANCEL (RFC 3261 9.2) of an INVITE that waits in the in-core queue
 * (its identity is the INVITE's: Call-ID, From tag, CSeq number): the
 * INVITE goes from QUEUED to CANCELLED in one step, which its dequeue and
 * its retransmissions find; once a worker has taken the INVITE, the
 * CANCEL is not this and goes to tm like any other. A retransmitted
 * CANCEL is answered again. Returns 1 (v set) or 0 (not such a CANCEL). */
static int cancel_queued(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_req *r,
		struct ovc_adm_verdict *v)
{
	int prev = -1, rc;

	if(r->m != OVC_M_CANCEL || r->sc == NULL || !cfg->queue_on)
		return 0;
	v->key = ovc_sip_request_key(st->secret, r->buf, r->sc, r->src);
	rc = ovc_rejmem_cas(st->mem, v->key, cfg->now_s, OVC_ADM_MEMORY_S,
			OVC_REJMEM_QUEUED, OVC_REJMEM_CANCELLED, &prev);
	if(rc == 0 && prev == OVC_REJMEM_CANCELLED) {
		remember(st, cfg, v, OVC_REJMEM_CANCELLED);
	} else if(rc != 1) {
		v->key = 0;
		return 0;
	}
	verdict(v, OVC_ADM_CANCEL, 0);
	return 1;
}

/* R-SOCA's in-dialog limit (004 §III-B): excess over D_en dropped,
 * re-INVITE excess rejected. */
static void dialog_limit(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_sources *src,
		const struct ovc_adm_req *r, struct ovc_adm_verdict *v)
{
	enum ovc_adm_dialog d = OVC_ADM_DIALOG_PASS;

	if(src->dialog != NULL)
		d = src->dialog(src->ctx, r->m, cfg->dry_run);
	if(d == OVC_ADM_DIALOG_PASS)
		verdict(v, OVC_ADM_ADMIT, 0);
	else if(cfg->dry_run)
		verdict(v, OVC_ADM_ADMIT, OVC_ADMF_WOULD);
	else if(d == OVC_ADM_DIALOG_REJECT)
		refuse(st, cfg, r, v, 0);
	else
		verdict(v, OVC_ADM_DROP, OVC_ADMF_DOS);
}

/* The answer the memory holds for a retransmission of a request decided
 * within OVC_ADM_MEMORY_S: 1 (v set) or 0 (nothing remembered, or a
 * remembered reject in a dry run). A rejected INVITE is not admitted after
 * its 503, an admitted one is not answered 503 while its transaction
 * runs (tm absorbs it), a queued one is absorbed. */
static int remembered(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_req *r,
		struct ovc_adm_verdict *v)
{
	int prev;

	if(v->key == 0)
		return 0;
	prev = ovc_rejmem_get(st->mem, v->key, cfg->now_s, OVC_ADM_MEMORY_S);
	if(prev == OVC_REJMEM_REJECTED && !cfg->dry_run) {
		refuse(st, cfg, r, v, 0);
		return 1;
	}
	if(prev == OVC_REJMEM_QUEUED) {
		verdict(v, OVC_ADM_DROP, OVC_ADMF_ABSORBED);
		return 1;
	}
	if(prev == OVC_REJMEM_CANCELLED) {
		/* its caller gave up: 487 again, never routed */
		verdict(v, OVC_ADM_REJECT, OVC_ADMF_CANCELLED);
		return 1;
	}
	if(prev == OVC_REJMEM_ADMITTED) {
		verdict(v, OVC_ADM_ADMIT, 0);
		return 1;
	}
	return 0;
}

/* Is r what the fair share counts: a new call's INVITE from a known
 * source, with the fair share on? */
static int fair_counted(
		const struct ovc_adm_state *st, const struct ovc_adm_req *r)
{
	return st->fair != NULL && r->fair_src != 0 && ovc_adm_new_invite(r);
}

/* The fair share's verdict (ovc/fair.h) on a new call's INVITE r from a
 * known source, counted once; anything else passes. */
static enum ovc_fair_verdict fair_judge(
		const struct ovc_adm_state *st, const struct ovc_adm_req *r)
{
	if(!fair_counted(st, r) || r->sc == NULL)
		return OVC_FAIR_PASS;
	return ovc_fair_judge(st->fair, r->fair_src,
			ovc_fair_call(st->secret, r->buf, r->sc), r->buf, r->sc);
}

/* Counts a new call's INVITE r from a known source as it arrives (the
 * spare level of ovc/fair.h, before anything refuses it). */
static void fair_arrive(
		const struct ovc_adm_state *st, const struct ovc_adm_req *r)
{
	if(fair_counted(st, r))
		ovc_fair_arrive(st->fair, r->fair_src);
}

/* Is an INVITE r that waited age_ns (past the age limit) spared it? Only
 * from a source under the fair share's level, and only while a setup can
 * still be timely (OVC_FAIR_SPARE_NS). */
static int fair_spared(const struct ovc_adm_state *st,
		const struct ovc_adm_req *r, int64_t age_ns)
{
	return fair_counted(st, r) && age_ns >= 0 && age_ns < OVC_FAIR_SPARE_NS
		   && ovc_fair_under(st->fair, r->fair_src);
}

/* The acceptor a request of fair verdict fv meets in front of acceptor
 * acc: acc, the proportional one (an oc source the cut would refuse), or
 * NULL when the cut refuses it. */
static struct ovc_acceptor *fair_share(const struct ovc_adm_state *st,
		enum ovc_fair_verdict fv, struct ovc_acceptor *acc)
{
	if(fv == OVC_FAIR_EXEMPT)
		return &st->fair->prop;
	return fv == OVC_FAIR_CUT ? NULL : acc;
}

/* The controller's fraction on a controlled request. For an INVITE bound
 * for a paced queue only the guard's cap applies here (the fraction
 * applies at the queue's output, 003 §V), so that a flood does not swamp
 * the queue and its workers with INVITEs refused later. 004 §III-C: beyond
 * the class's burst budget, rejected. Out of overload an INVITE skips an
 * empty queue (cfg->queue_idle): nothing is refused then, and near its
 * capacity a proxy under a CPU quota cannot spare the hand-off to a worker
 * (pi refused 12 % of the calls at 0.9x with it; bench/RESULTS.md). */
static void accept_or_refuse(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_sources *src,
		const struct ovc_adm_req *r, enum ovc_fair_verdict fv,
		struct ovc_adm_verdict *v)
{
	int queue = r->c == OVC_CLASS_INVITE && cfg->queue_on && cfg->t->queued
				&& (cfg->overloaded || !cfg->queue_idle);
	struct ovc_acceptor *acc;
	int within = 1;

	if(queue && cfg->t->paces_queue) {
		acc = fair_share(st, fv, st->acc_arrival);
		if(cfg->dry_run || (acc != NULL && ovc_acceptor_take(acc)))
			verdict(v, OVC_ADM_QUEUE, 0);
		else
			refuse(st, cfg, r, v, acc == NULL ? OVC_ADMF_FAIR : 0);
		v->flags |= OVC_ADMF_SHARE;
		return;
	}
	if(cfg->t->dialog_limits && src->burst != NULL)
		within = src->burst(src->ctx, r->c);
	acc = within ? fair_share(st, fv, st->acc) : st->acc;
	if(within && acc != NULL && ovc_acceptor_take(acc)) {
		if(!queue)
			remember(st, cfg, v, OVC_REJMEM_ADMITTED);
		verdict(v, queue ? OVC_ADM_QUEUE : OVC_ADM_ADMIT, 0);
	} else if(cfg->dry_run) {
		verdict(v, queue ? OVC_ADM_QUEUE : OVC_ADM_ADMIT, OVC_ADMF_WOULD);
	} else {
		refuse(st, cfg, r, v, acc == NULL ? OVC_ADMF_FAIR : 0);
	}
}

void ovc_adm_decide(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_sources *src,
		const struct ovc_adm_req *r, struct ovc_adm_verdict *v)
{
	int ack_cancel = r->m == OVC_M_ACK || r->m == OVC_M_CANCEL;
	int initial = r->c == OVC_CLASS_INVITE && !ack_cancel;
	int ctl, aged, late = 0, age_on;
	int64_t call_age;
	int64_t age = -1;

	memset(v, 0, sizeof(*v));
	v->c = r->c;
	if(own_ack(st, r)) {
		v->c = OVC_CLASS_INDIALOG;
		verdict(v, OVC_ADM_DROP, OVC_ADMF_OWN_ACK);
		return;
	}
	if(cancel_queued(st, cfg, r, v))
		return;
	if(cfg->t->dialog_limits && r->c == OVC_CLASS_INDIALOG && !ack_cancel) {
		dialog_limit(st, cfg, src, r, v);
		return;
	}
	ctl = ovc_adm_controlled(cfg->t, cfg->single, ack_cancel, r->c);
	/* the age is read wherever an age limit is in force: it is also the
	 * overload evidence (ovc_onset.h) */
	age_on = initial && cfg->max_age_ms > 0;
	if(!ctl && !age_on) {
		verdict(v, OVC_ADM_ADMIT, 0);
		return;
	}
	if(initial && src->age_ns != NULL)
		age = src->age_ns(src->ctx);
	if(r->sc != NULL)
		v->key = ovc_sip_request_key(st->secret, r->buf, r->sc, r->src);
	if(remembered(st, cfg, r, v))
		return;
	if(ctl)
		fair_arrive(st, r);
	/* below capacity a wait is a burst the proxy absorbs, not a loss:
	 * every algorithm, pi included, applies the age limit only while the
	 * overload is evident (a wait past T1/2 makes it so, ovc_onset.h) */
	/* the heaviest sources first (ovc/fair.h): one under the fair share's
	 * level keeps its calls, even those that waited in a receive queue the
	 * flood of others filled (the age limit refuses the others') */
	aged = age_on && cfg->overloaded && ovc_rxq_too_old(age, cfg->max_age_ms)
		   && !(ctl && fair_spared(st, r, age));
	/* a call whose first INVITE was dropped unseen (by the kernel stage,
	 * or by a full receive buffer) comes back on a retransmission T1 or
	 * more later: its caller has waited that long, admitting it now
	 * spends a call's work on a setup that cannot be timely */
	if(!aged && age_on && cfg->overloaded && src->call_age_ns != NULL) {
		call_age = src->call_age_ns(src->ctx);
		late = ovc_rxq_too_old(call_age, cfg->max_age_ms)
			   && !(ctl && fair_spared(st, r, call_age));
	}
	if(aged || late) {
		/* waited past max_age_ms before anyone could look at it: the
		 * caller has retransmitted already, answer at once */
		if(cfg->dry_run)
			verdict(v, OVC_ADM_ADMIT, OVC_ADMF_WOULD);
		else
			refuse(st, cfg, r, v,
					OVC_ADMF_AGED | (late ? OVC_ADMF_LATE : 0));
		return;
	}
	if(!ctl) {
		/* remembered so that its stale retransmissions are admitted (to
		 * tm) rather than answered 503 */
		remember(st, cfg, v, OVC_REJMEM_ADMITTED);
		verdict(v, OVC_ADM_ADMIT, 0);
		return;
	}
	/* counted and cut where the acceptor is met: its fraction is of
	 * what reaches it */
	accept_or_refuse(st, cfg, src, r, fair_judge(st, r), v);
}

void ovc_adm_queueing(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_verdict *v)
{
	remember(st, cfg, v, OVC_REJMEM_QUEUED);
}

void ovc_adm_unqueued(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_req *r,
		struct ovc_adm_verdict *v)
{
	v->flags |= OVC_ADMF_QUEUE_FULL;
	if(unqueue(st, cfg, v, OVC_REJMEM_ADMITTED) < 0) {
		/* CANCELled between its queueing and the queue's refusal */
		verdict(v, OVC_ADM_REJECT, OVC_ADMF_CANCELLED);
		return;
	}
	if(cfg->dry_run) {
		remember(st, cfg, v, OVC_REJMEM_ADMITTED);
		verdict(v, OVC_ADM_ADMIT, OVC_ADMF_WOULD);
		return;
	}
	/* no stale mark that would absorb its retransmissions: they get the
	 * reject reply, even if this one cannot be sent (an emergency pass
	 * marks it admitted) */
	remember(st, cfg, v, OVC_REJMEM_REJECTED);
	refuse(st, cfg, r, v, 0);
}

void ovc_adm_replied(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_verdict *v)
{
	remember(st, cfg, v,
			v->flags & OVC_ADMF_CANCELLED ? OVC_REJMEM_CANCELLED
										 : OVC_REJMEM_REJECTED);
}

void ovc_adm_dequeue(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_req *r,
		uint64_t key, int64_t waited_ns, int64_t max_wait_ns,
		struct ovc_adm_verdict *v)
{
	int no = 0, taken;

	memset(v, 0, sizeof(*v));
	v->c = OVC_CLASS_INVITE;
	v->key = key;
	/* taken from the queue's state first: a CANCEL after this goes to tm
	 * (a refusal below overwrites it when its reply is sent) */
	taken = unqueue(st, cfg, v, OVC_REJMEM_ADMITTED);
	if(taken < 0) {
		verdict(v, OVC_ADM_REJECT, OVC_ADMF_CANCELLED);
		return;
	}
	if(max_wait_ns > 0 && waited_ns > max_wait_ns) {
		no = 1;
		v->flags |= OVC_ADMF_EXPIRED;
	} else if(cfg->t->paces_queue && !ovc_acceptor_take(st->acc)) {
		no = 1;
	}
	if(no && !cfg->dry_run) {
		/* an emergency call runs, late or not (004 §III-A) */
		refuse(st, cfg, r, v, 0);
		return;
	}
	if(!taken) /* not remembered queued: remembered now */
		remember(st, cfg, v, OVC_REJMEM_ADMITTED);
	verdict(v, OVC_ADM_ADMIT, no ? OVC_ADMF_WOULD : 0);
}

/* A request's identity for one next hop (id: its ovc_nh_key_hash()): the
 * same request sent to two destinations (a failover) is two decisions. */
static uint64_t hop_key(uint64_t key, uint64_t id)
{
	uint64_t k = key ^ (id * UINT64_C(0x9e3779b97f4a7c15));

	return k != 0 ? k : 1;
}

/* Why the next hop refuses r now (OVC_ADMF_*), 0: it does not. sf: smart
 * forwarding applies, fb: its feedback does. */
static unsigned hop_refusal(const struct ovc_adm_cfg *cfg,
		const struct ovc_adm_hop *hop, int sf, int fb, ovc_time_ns now)
{
	if(sf && hop->sendq > cfg->sendq_max)
		return OVC_ADMF_NEXT_HOP | OVC_ADMF_SEND_QUEUE;
	if(fb && !ovc_nh_admit(hop->fb, now))
		return OVC_ADMF_NEXT_HOP;
	return 0;
}

void ovc_adm_next_hop(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_req *r,
		const struct ovc_adm_hop *hop, ovc_time_ns now,
		struct ovc_adm_verdict *v)
{
	int ack_cancel = r->m == OVC_M_ACK || r->m == OVC_M_CANCEL;
	uint64_t id;
	unsigned why;
	int sf, fb, prev;

	memset(v, 0, sizeof(*v));
	v->c = r->c;
	verdict(v, OVC_ADM_ADMIT, 0);
	if(hop == NULL || ack_cancel || r->c == OVC_CLASS_INDIALOG)
		return;
	/* 002 §6.3: only INVITEs are held back; the rest is always sent */
	sf = ovc_adm_new_invite(r) && cfg->sendq_max >= 0 && hop->sendq >= 0;
	fb = hop->fb != NULL && (r->c == OVC_CLASS_INVITE || cfg->single);
	if(!sf && !fb)
		return;
	id = hop->fb != NULL ? hop->fb->hash : hop->id;
	if(r->sc != NULL && id != 0)
		v->key = hop_key(ovc_sip_request_key(st->secret, r->buf, r->sc, r->src), id);
	prev = -1;
	if(v->key != 0)
		prev = ovc_rejmem_get(st->mem, v->key, cfg->now_s, OVC_ADM_MEMORY_S);
	if(prev == OVC_REJMEM_ADMITTED)
		return;
	if(prev == OVC_REJMEM_REJECTED && !cfg->dry_run) {
		refuse(st, cfg, r, v, OVC_ADMF_NEXT_HOP);
		return;
	}
	why = hop_refusal(cfg, hop, sf, fb, now);
	if(why == 0) {
		remember(st, cfg, v, OVC_REJMEM_ADMITTED);
		return;
	}
	if(cfg->dry_run) {
		remember(st, cfg, v, OVC_REJMEM_ADMITTED);
		verdict(v, OVC_ADM_ADMIT, OVC_ADMF_WOULD);
		return;
	}
	refuse(st, cfg, r, v, why);
	remember(st, cfg, v,
			v->act == OVC_ADM_ADMIT ? OVC_REJMEM_ADMITTED
									: OVC_REJMEM_REJECTED);
}
