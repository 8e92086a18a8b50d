/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the admission decision taken by ovc_admit(): classify the request,
 * apply the shared acceptor to the controlled classes, reject statelessly.
 */
#ifndef OVC_ADMIT_H
#define OVC_ADMIT_H

#include "core/events.h"
#include "core/parser/msg_parser.h"
#include "core/str.h"

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
	OVC_OUT_QUEUE,		  /* internal: decided for the queue, not yet in */
};

struct ovc_qitem;

/* Reject reply settings (set from modparams before the fork). */
struct ovc_reply_cfg
{
	int code;		 /* SIP status code, 400..699 */
	str reason;		 /* reason phrase */
	int retry_after; /* seconds; 0: no Retry-After header */
};

extern struct ovc_reply_cfg ovc_reply;

/* Binds the sl API. Returns 0 or -1 (sl not loaded). */
int ovc_admit_init(void);

/* Classifies msg (a request): initial INVITE, in-dialog (has a To-tag),
 * REGISTER or other. A To header that does not parse counts as no tag. */
enum ovc_class ovc_classify(struct sip_msg *msg);

/* The decision. noreply: do not send the reject reply.
 * Returns 1 admitted; 0 rejected and replied (the script must stop);
 * -1 rejected without reply (noreply); -2 dropped (noreply). Every call
 * is counted as offered plus exactly one verdict. */
int ovc_admit(struct sip_msg *msg, int noreply);

/* 1 (default): decide UDP requests at datagram arrival (ovc_dgram_in). */
extern int ovc_fast_path;

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

/* Sends the reject reply for a raw UDP request (buf, len bytes, received
 * as rcv) built from its bytes. Returns 0 sent, -1 send failed, 1 cannot be
 * built here (not UDP, or not understood: use ovc_admit_run_dequeued()
 * with reject set, which answers through sl). */
int ovc_reject_raw(const char *buf, int len, struct receive_info *rcv);

/* Remembers the decision on a queued request (key from its item; 0: not
 * remembered), an enum ovc_rejmem_decision, for its retransmissions. */
void ovc_remember_decision(uint64_t key, int decision);

/* What ovc_admit() does with a dequeued INVITE a worker runs. */
enum ovc_dq_run
{
	OVC_DQ_ADMIT = 0,	  /* returns 1, $ovc(verdict) "admitted" */
	OVC_DQ_REJECT,		  /* answers through sl, returns 0 */
	OVC_DQ_WOULD_REJECT, /* dry run: returns 1, verdict "would_reject" */
};

/* Queue worker: runs a dequeued INVITE through Kamailio (receive_msg(),
 * request_route), where ovc_admit() treats it as how says, without
 * deciding or counting it again. The caller counts. */
void ovc_admit_run_dequeued(const struct ovc_qitem *it, enum ovc_dq_run how);

/* "admitted", "rejected", "dropped", "would_reject", "queued" or
 * "none". */
const char *ovc_outcome_name(enum ovc_outcome o);

/* CPU time this thread has used, ns (CLOCK_THREAD_CPUTIME_ID). */
uint64_t ovc_thread_cpu_ns(void);

/* Counts the CPU this thread spent refusing since t0 (from
 * ovc_thread_cpu_ns()), times scale (the sampling ratio), as the share
 * the CPU-driven controllers leave out of the load they see. */
void ovc_count_refusal_cpu(uint64_t t0, unsigned scale);

#endif
