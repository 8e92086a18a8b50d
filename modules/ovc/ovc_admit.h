/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - where requests meet the admission sequence (ovc/admission.h): at
 * the datagram's arrival (the fast path), in the script's ovc_admit(), and
 * at the in-core queue's output. Each builds the request, asks the
 * sequence, acts on the verdict through the replier (ovc_reply.h) and
 * counts it (ovc_account.h).
 */
#ifndef OVC_ADMIT_H
#define OVC_ADMIT_H

#include "core/events.h"
#include "core/parser/msg_parser.h"

#include "ovc/admission.h"

#include "ovc_classify.h"
#include "ovc_reply.h"
#include "ovc_shm.h"

/* Outcome of the last ovc_admit() in this process, for $ovc(verdict). */
enum ovc_outcome
{
	OVC_OUT_NONE = 0,	  /* ovc_admit() not called for this message */
	OVC_OUT_ADMITTED,	  /* admitted */
	OVC_OUT_REJECTED,	  /* rejected (reply sent, or -1 for noreply) */
	OVC_OUT_DROPPED,	  /* dropped without reply */
	OVC_OUT_WOULD_REJECT, /* dry run: would be rejected; admitted */
	OVC_OUT_QUEUED,		  /* put in the in-core INVITE queue */
	OVC_OUT_CANCELLED,	  /* a CANCEL of a queued INVITE, answered */
};

struct ovc_qitem;

/* Binds the replier (sl, the To-tag secret). Returns 0 or -1. */
int ovc_admit_init(void);

/* The decision. noreply: do not send the reject reply.
 * Returns 1 admitted; 0 rejected and replied (the script must stop);
 * -1 rejected without reply (noreply); -2 dropped (noreply). Every call
 * is counted as offered plus exactly one verdict. */
int ovc_admit(struct sip_msg *msg, int noreply);

/* Request msg as the admission sequence sees it, into *r: scanned into
 * *scan (r->sc NULL when the scanner does not understand it), its class
 * and method. */
void ovc_admit_request(struct sip_msg *msg, struct ovc_sip_scan *scan,
		struct ovc_adm_req *r);

/* 1 when the script is KEMI's (set in mod_init): which requests it wants
 * to answer itself (admit_flags("noreply")) is not known before it runs,
 * so the fast path decides a request of a class only once the script has
 * called admit() without noreply for one (ovc->script_plain): until then
 * every request of the class reaches the script first. */
extern int ovc_fast_path_kemi;

/* SREV_NET_DGRAM_IN callback: scans the raw datagram and, for a request the
 * scanner fully understands, takes the same decision as ovc_admit(): a
 * rejected one is answered at once and consumed (Kamailio never parses
 * it), the ACK to one of ovc's rejects is absorbed; an admitted one goes
 * on, and the script's ovc_admit() returns that decision without counting
 * it twice. Anything else falls through untouched. Returns -1 consumed,
 * 0 continue. */
int ovc_dgram_in(sr_event_param_t *evp);

/* Outcome of the last ovc_admit() for msg in this process. */
enum ovc_outcome ovc_last_outcome(struct sip_msg *msg);

/* The reply for verdict v (a reject or a cancel): 200 to a CANCEL of a
 * queued INVITE, 487 to that INVITE, else the reject reply in force: the
 * algorithm's own while it has one (R-SOCA), else the modparams'. */
const struct ovc_reply_cfg *ovc_admit_reply(const struct ovc_adm_verdict *v);

/* The admission sequence's shared state, and the settings in force now,
 * for the queue's output (ovc_qworker.c). */
const struct ovc_adm_state *ovc_admit_state(void);
void ovc_admit_settings(struct ovc_adm_cfg *cfg);

/* Queue worker: runs the dequeued INVITE it through Kamailio
 * (receive_msg(), request_route) with verdict v taken and counted at the
 * queue's output: OVC_ADM_ADMIT (WOULD: $ovc(verdict) "would_reject"), or
 * OVC_ADM_REJECT for one whose reply cannot be built from its bytes, which
 * ovc_admit() answers through sl. ovc_admit() acts on v without deciding
 * or counting again. */
void ovc_admit_run_decided(
		const struct ovc_qitem *it, const struct ovc_adm_verdict *v);

/* For the fast path (ovc_fastpath.c): asks the admission sequence about
 * r, read from UDP socket fd (-1: not UDP), with the settings cfg. */
void ovc_admit_decide(const struct ovc_adm_cfg *cfg,
		const struct ovc_adm_req *r, int fd, struct ovc_adm_verdict *v);

/* Puts an INVITE with verdict v (OVC_ADM_QUEUE) in the queue: a copy of
 * r's bytes, received as rcv. When it cannot be, v becomes what the
 * sequence says then (ovc_adm_unqueued()). */
void ovc_admit_enqueue(const struct ovc_adm_cfg *cfg,
		const struct ovc_adm_req *r, const struct receive_info *rcv,
		struct ovc_adm_verdict *v);

/* Leaves verdict v (counted, except a reject or a cancel) on the datagram from rcv
 * (method m) for the script's ovc_admit(), which acts on it without
 * deciding again; ovc_admit_forget() clears it (the next datagram). */
void ovc_admit_leave(const struct receive_info *rcv,
		const struct ovc_adm_verdict *v, enum ovc_sip_method m);
void ovc_admit_forget(void);

/* "admitted", "rejected", "dropped", "would_reject", "queued",
 * "cancelled" or "none". */
const char *ovc_outcome_name(enum ovc_outcome o);

/* CPU time this thread has used, ns (CLOCK_THREAD_CPUTIME_ID). */
uint64_t ovc_thread_cpu_ns(void);

/* Counts the CPU this thread spent refusing since t0 (from
 * ovc_thread_cpu_ns()), times scale (the sampling ratio), as the share
 * the CPU-driven controllers leave out of the load they see. */
void ovc_count_refusal_cpu(uint64_t t0, unsigned scale);

#endif
