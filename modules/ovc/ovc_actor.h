/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the actor: the one place a verdict of the admission sequence
 * (ovc/admission.h) is acted on, wherever it was taken (the datagram's
 * arrival, the script's ovc_admit() and ovc_dst_admit(), the queue's
 * output): it answers (through the replier, ovc_reply.h), drops, queues
 * or passes the request described by an ovc_req (ovc_request.h), and
 * counts what it did: offered plus exactly one verdict column per request
 * (dequeued plus one for a queued INVITE at the queue's output), and the
 * events beside them. A verdict taken before the script runs (at
 * arrival, or at the queue's output) and left for the script's
 * ovc_admit() goes with the message as a hand-off record keyed by the id
 * Kamailio gives that message.
 */
#ifndef OVC_ACTOR_H
#define OVC_ACTOR_H

#include "core/parser/msg_parser.h"

#include "ovc/admission.h"

#include "ovc_request.h"

/* Where the verdict is acted on. */
enum ovc_at
{
	OVC_AT_ARRIVAL = 0, /* the datagram, before Kamailio parses it */
	OVC_AT_SCRIPT,		/* the script's ovc_admit() */
	OVC_AT_HANDED,		/* the script's ovc_admit() on a verdict taken at
						   arrival (counted, unless a reject or a cancel
						   whose reply could not be built there), or on
						   a response (admitted: nothing to decide) */
	OVC_AT_HANDED_DEQUEUED, /* the same on a verdict taken at the queue's
							   output (counted there) */
	OVC_AT_DEQUEUE,	 /* a worker at the queue's output */
	OVC_AT_STOP,	 /* a worker answering what is queued at stop */
	OVC_AT_STOP_MAIN, /* the main process doing so once the workers are
						 gone: nothing can be run through the script */
	OVC_AT_NEXT_HOP, /* the script's ovc_dst_admit() */
};

/* What became of the request (the script's return convention). */
enum ovc_fate
{
	OVC_FATE_ON = 1,	   /* it goes on: to the script (with its verdict
							  handed over), routed, or sent */
	OVC_FATE_TAKEN = 0,	   /* ovc took it: answered, dropped or queued */
	OVC_FATE_REFUSED = -1, /* refused and not answered (noreply, the next
							  hop's refusal, no reply at stop) */
	OVC_FATE_DROPPED = -2, /* a DoS drop left to the script (noreply) */
};

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

/* Acts on verdict v for request q at at, with the settings cfg it was
 * taken with (NULL: read here when needed): queues it (v becomes what the
 * sequence says when it cannot be), answers a reject or a cancel, drops,
 * or lets it go on (at arrival and at the queue's output, with v handed
 * to the script's ovc_admit()), and counts it once. Returns its fate. */
enum ovc_fate ovc_act(struct ovc_req *q, enum ovc_at at,
		const struct ovc_adm_cfg *cfg, struct ovc_adm_verdict *v);

/* The verdict handed to the script for msg (at arrival, or at the
 * queue's output), taken: into *v, where it was taken (OVC_AT_HANDED or
 * OVC_AT_HANDED_DEQUEUED) into *at, and msg as the actor needs it then
 * into *q (its method; not scanned: an answer goes through sl). Returns
 * 1, or 0 when none was handed for msg. */
int ovc_handoff_take(struct sip_msg *msg, struct ovc_req *q,
		struct ovc_adm_verdict *v, enum ovc_at *at);

/* A new datagram arrives: a verdict handed for a message the core never
 * made of the last one is void. */
void ovc_handoff_clear(void);

/* Outcome of the last ovc_admit() for msg in this process. */
enum ovc_outcome ovc_last_outcome(struct sip_msg *msg);

/* "admitted", "rejected", "dropped", "would_reject", "queued",
 * "cancelled" or "none". */
const char *ovc_outcome_name(enum ovc_outcome o);

#endif
