/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the admission sequence: every decision ovc takes on a request, in
 * one order, over explicit state, for every path a request can take (the
 * datagram's arrival, the script's ovc_admit(), the queue's output):
 *
 *   the ACK to one of ovc's own rejects -> absorbed
 *   CANCEL of an INVITE in the queue    -> 200 to it, 487 to the INVITE
 *   in-dialog DoS limit (R-SOCA)        -> pass, reject or drop
 *   decision memory (retransmissions)   -> the original's decision
 *   age in the receive queue            -> reject what waited too long
 *   the fair share (ovc/fair.h)         -> the heaviest sources first
 *   the acceptor (burst budget first)   -> admit, queue or reject
 *   emergency calls                     -> a reject becomes an admission
 *
 * and, once the script has chosen where a request goes, the next hop's
 * own verdict (ovc_adm_next_hop(): the send queue of the TCP connection
 * to it, 002's smart forwarding; its RFC 7339 feedback, ovc/nexthop.h).
 *
 * It takes and returns plain values: the caller reads the settings in
 * force, acts on the verdict (route, queue, reply) and counts it. Verdict
 * sources that live outside the library (the receive-queue age, R-SOCA's
 * dialog limits and burst budgets) are asked through struct
 * ovc_adm_sources. Lock-free: the state is atomics (acceptors, the
 * decision memory) shared by every process.
 */
#ifndef OVC_ADMISSION_H
#define OVC_ADMISSION_H

#include <stddef.h>
#include <stdint.h>

#include "ovc/acceptor.h"
#include "ovc/alg.h"
#include "ovc/emerg.h"
#include "ovc/fair.h"
#include "ovc/nexthop.h"
#include "ovc/rejmem.h"
#include "ovc/sipscan.h"

/* Seconds a decision is remembered for retransmissions: Timer B/F,
 * 64 T1. */
#define OVC_ADM_MEMORY_S 32

/* One request, as the sequence sees it. */
struct ovc_adm_req
{
	enum ovc_class c;		   /* its class */
	enum ovc_sip_method m;	   /* its method */
	const char *buf;		   /* the raw request */
	size_t len;				   /* its length, bytes */
	const struct ovc_sip_scan *sc; /* its scan of buf, or NULL when not
									  understood (no decision memory) */
	const char *ruri;		   /* Request-URI (for the emergency match) */
	size_t ruri_len;		   /* its length, bytes */
	uint64_t src; /* the transport source it came from (protocol, address,
					 port) as the caller identifies it, 0: unknown; part
					 of its identity in the decision memory */
	uint64_t fair_src;		   /* its source's key for the fair share
								  (ovc_fair_key()), 0: none (not cut) */
};

/* Is r a new call's INVITE (an initial INVITE: what smart forwarding
 * holds back and what end to end weighs next hops by)? 1 or 0. */
static inline int ovc_adm_new_invite(const struct ovc_adm_req *r)
{
	return r->c == OVC_CLASS_INVITE && r->m == OVC_M_INVITE;
}

/* What the sequence consults and changes (shared by every process). */
struct ovc_adm_state
{
	struct ovc_rejmem *mem;			  /* decision memory */
	struct ovc_acceptor *acc;		  /* the controller's fraction */
	struct ovc_acceptor *acc_arrival; /* in front of a paced queue */
	const struct ovc_emerg *emerg;	  /* emergency calls (NULL: none) */
	struct ovc_fair *fair; /* the fair share in front of the acceptor
							  (ovc/fair.h), NULL: off */
	uint64_t secret;				  /* keys identities and To-tags */
};

/* The settings in force for one request (read once by the caller). */
struct ovc_adm_cfg
{
	const struct ovc_alg_traits *t; /* the algorithm in force */
	int single;			  /* mode single: every class but in-dialog,
							 ACK and CANCEL is controlled */
	int dry_run;		  /* decide and count, never refuse */
	unsigned max_age_ms;  /* rxq.max_age_ms in force, 0: no age check */
	int overloaded;		  /* overload evident (ovc_onset.h): the age
							 check applies only then */
	int queue_on;		  /* the in-core INVITE queue runs */
	int queue_idle;		  /* no INVITE is queued or being routed by a
							 worker, and the queue may be skipped
							 (queue_bypass): out of overload an INVITE
							 is then routed at once, since queueing it
							 would only add a hand-off */
	uint32_t now_s;		  /* monotonic second, for the memory */
	/* smart forwarding (002 §6.2): an initial INVITE is refused while the
	 * send queue to its next hop holds more than this, bytes; -1: off */
	int64_t sendq_max;
};

/* A request's next hop, as ovc_adm_next_hop() sees it (the caller reads
 * the connection; the library never does). */
struct ovc_adm_hop
{
	/* its RFC 7339 feedback, NULL: none known */
	struct ovc_nexthop *fb;
	/* its identity for the decision memory: ovc_nh_key_hash() of its key
	 * (fb->hash when fb is set, which then wins); 0: none */
	uint64_t id;
	/* bytes waiting to be sent to it on the TCP/TLS connection (the
	 * kernel's send queue and the server's own write queue); -1: unknown,
	 * no connection yet, or not a stream transport */
	int64_t sendq;
};

/* What an in-dialog limit says. */
enum ovc_adm_dialog
{
	OVC_ADM_DIALOG_PASS = 0,
	OVC_ADM_DIALOG_REJECT, /* over the limit, answered (re-INVITE) */
	OVC_ADM_DIALOG_DROP,   /* over the limit, dropped (DoS excess) */
};

/* Verdict sources outside the library; ctx is passed back. */
struct ovc_adm_sources
{
	void *ctx;
	/* How long this initial INVITE waited in the receive queue, ns; -1
	 * unknown (never too old). Asked once per initial INVITE the
	 * sequence controls or age-checks. NULL: unknown. */
	int64_t (*age_ns)(void *ctx);
	/* How long ago this initial INVITE's call was first seen (its first
	 * transmission: a retransmission of a call that never got through is
	 * as old as its caller's wait), ns; -1 unknown or admitted before.
	 * Asked only while overload is evident, of an INVITE neither
	 * remembered nor too old by age_ns. NULL: unknown. */
	int64_t (*call_age_ns)(void *ctx);
	/* The in-dialog limit for an in-dialog request of method m (asked
	 * when the algorithm has dialog_limits; dry: a dry run, count but do
	 * not refuse). NULL: pass. */
	enum ovc_adm_dialog (*dialog)(void *ctx, enum ovc_sip_method m, int dry);
	/* Takes one from class c's burst budget (algorithms with
	 * dialog_limits): 1 within it, 0 beyond. NULL: within. */
	int (*burst)(void *ctx, enum ovc_class c);
};

/* What to do with the request. */
enum ovc_adm_act
{
	OVC_ADM_ADMIT = 0, /* route it */
	OVC_ADM_QUEUE,	   /* put it in the in-core queue (ovc_adm_queueing()
						  first, ovc_adm_unqueued() if it cannot be) */
	OVC_ADM_REJECT,	   /* answer it with the reject reply
						  (ovc_adm_replied() once sent) */
	OVC_ADM_DROP,	   /* consume it without a reply */
	OVC_ADM_CANCEL,	   /* a CANCEL of an INVITE that waits in the in-core
						  queue: answer it 200; the INVITE is answered
						  487 when it leaves the queue (RFC 3261 9.2) */
};

/* Why, beside the act (bits of ovc_adm_verdict.flags). */
#define OVC_ADMF_WOULD 0x01u	  /* dry run: would have been refused */
#define OVC_ADMF_AGED 0x02u		  /* refused: waited past max_age_ms */
#define OVC_ADMF_DOS 0x04u		  /* dropped: in-dialog DoS excess */
#define OVC_ADMF_ABSORBED 0x08u	  /* dropped: retransmission of a queued
									 INVITE */
#define OVC_ADMF_OWN_ACK 0x10u	  /* dropped: the ACK to ovc's reject */
#define OVC_ADMF_EMERGENCY 0x20u  /* admitted: an emergency call it would
									 have refused */
#define OVC_ADMF_QUEUE_FULL 0x40u /* not queued: no room */
#define OVC_ADMF_EXPIRED 0x80u	  /* dequeued: waited past the queue's
									 max wait */
#define OVC_ADMF_CANCELLED 0x100u /* rejected: an INVITE its caller
									 CANCELled while it was queued; the
									 reply is 487 Request Terminated */
#define OVC_ADMF_NEXT_HOP 0x200u  /* refused for its next hop (its
									 reduction, its send queue, or the
									 original's refusal) */
/* with NEXT_HOP: its send queue held more than sendq_max (002's smart
 * forwarding) */
#define OVC_ADMF_SEND_QUEUE 0x400u
/* with AGED: its call was first seen past max_age_ms ago (a late
 * retransmission of a call never admitted) */
#define OVC_ADMF_LATE 0x800u
/* an initial INVITE bound for a paced queue that met the arrival share
 * (queued, or refused by it): what the share's fraction applies to */
#define OVC_ADMF_SHARE 0x1000u
/* refused by the fair share's cut (ovc/fair.h): its source sends more
 * than the level */
#define OVC_ADMF_FAIR 0x2000u

/* The verdict. */
struct ovc_adm_verdict
{
	enum ovc_adm_act act;
	unsigned flags;	  /* OVC_ADMF_* */
	enum ovc_class c; /* the class it is counted in */
	uint64_t key;	  /* identity in the decision memory, 0: none */
};

/* The sequence on request r (see the top of this file) into *v. An
 * admitted request the memory will recognise is remembered admitted; a
 * rejected one is remembered once its reply is sent (ovc_adm_replied()).
 * Never refuses in a dry run (OVC_ADMF_WOULD marks what it would have
 * refused), never an in-dialog request but by its DoS limit, never ACK
 * or CANCEL. */
void ovc_adm_decide(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_sources *src,
		const struct ovc_adm_req *r, struct ovc_adm_verdict *v);

/* Before putting r (verdict v, OVC_ADM_QUEUE) in the queue: remembers it
 * queued, so that a retransmission racing the worker is absorbed. */
void ovc_adm_queueing(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_verdict *v);

/* r (verdict v, OVC_ADM_QUEUE) could not be queued (full, no memory): v
 * becomes a reject (OVC_ADMF_QUEUE_FULL; an emergency call is admitted
 * instead), or in a dry run an admission marked OVC_ADMF_WOULD, and the
 * memory holds that. */
void ovc_adm_unqueued(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_req *r,
		struct ovc_adm_verdict *v);

/* The reject reply for verdict v was sent (or handed to the reply path):
 * its retransmissions get the same answer (503, or 487 when
 * OVC_ADMF_CANCELLED). */
void ovc_adm_replied(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_verdict *v);

/* The decision at the queue's output on an initial INVITE r (key: its
 * identity, 0: none) that waited waited_ns in the queue: refused when it
 * waited past max_wait_ns (> 0; OVC_ADMF_EXPIRED) or, for an algorithm
 * that paces the queue, when the acceptor refuses it; an emergency call
 * is never refused. One its caller CANCELled while it waited is rejected
 * with OVC_ADMF_CANCELLED (487), dry run or not. v is OVC_ADM_ADMIT
 * (remembered admitted; WOULD in a dry run that would have refused it)
 * or OVC_ADM_REJECT. */
void ovc_adm_dequeue(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_req *r,
		uint64_t key, int64_t waited_ns, int64_t max_wait_ns,
		struct ovc_adm_verdict *v);

/* The next hop's verdict on request r bound for next hop *hop at now
 * (monotonic, ns). An initial INVITE is refused while hop->sendq exceeds
 * cfg->sendq_max (both >= 0: 002's smart forwarding, OVC_ADMF_SEND_QUEUE);
 * else hop->fb's acceptor (ovc_nh_admit()) decides an initial INVITE, and
 * in mode single any request out of a dialog but ACK and CANCEL; anything
 * else passes (in-dialog requests always). A retransmission of a request
 * decided for that hop within OVC_ADM_MEMORY_S gets the same verdict; an
 * emergency call is never refused; a dry run counts what it would refuse
 * (OVC_ADMF_WOULD) and refuses nothing. v is OVC_ADM_ADMIT or
 * OVC_ADM_REJECT (OVC_ADMF_NEXT_HOP: the caller answers it or tries
 * another destination). */
void ovc_adm_next_hop(const struct ovc_adm_state *st,
		const struct ovc_adm_cfg *cfg, const struct ovc_adm_req *r,
		const struct ovc_adm_hop *hop, ovc_time_ns now,
		struct ovc_adm_verdict *v);

/* Is class c controlled by the algorithm (traits t) in the mode given
 * (single: 1)? ack_cancel: the request is an ACK or a CANCEL (never). */
int ovc_adm_controlled(const struct ovc_alg_traits *t, int single,
		int ack_cancel, enum ovc_class c);

#endif
