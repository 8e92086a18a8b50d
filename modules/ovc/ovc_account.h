/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - counting a verdict once it has been acted on: the per-class
 * verdict columns and the events beside them, in one place for every
 * path (arrival, script, queue output).
 */
#ifndef OVC_ACCOUNT_H
#define OVC_ACCOUNT_H

#include "ovc/admission.h"

/* How the reject reply to a refused request went. */
enum ovc_reply_res
{
	OVC_REPLY_SENT = 0, /* answered */
	OVC_REPLY_NONE,		/* not answered here: the script does (noreply) */
	OVC_REPLY_FAILED,	/* could not be sent: counted dropped */
	OVC_REPLY_DEFERRED, /* handed to the script path, which answers
						   through sl (counts the reply event then) */
};

/* Counts verdict v (act as carried out; OVC_ADM_QUEUE: it was queued) on
 * a request of method m that entered ovc_admit() or the datagram path:
 * offered plus exactly one verdict column, and its events. res: for a
 * reject, how its reply went (ignored otherwise). */
void ovc_account(const struct ovc_adm_verdict *v, enum ovc_sip_method m,
		enum ovc_reply_res res);

/* Counts verdict v (OVC_ADM_ADMIT or OVC_ADM_REJECT) on an INVITE taken
 * out of the queue: dequeued plus what became of it (it was counted
 * offered when queued). res as for ovc_account(). */
void ovc_account_dequeued(
		const struct ovc_adm_verdict *v, enum ovc_reply_res res);

#endif
