/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - where requests meet the admission sequence (ovc/admission.h) on
 * their way in: at the datagram's arrival (the fast path, ovc_fastpath.h),
 * in the script's ovc_admit() and, once the script has chosen where a
 * request goes, ovc_dst_admit(). Each describes the request once
 * (ovc_request.h), asks the sequence (ovc_decide.h) and hands the verdict
 * to the one actor (ovc_actor.h), as the queue's output does
 * (ovc_qworker.h).
 */
#ifndef OVC_ADMIT_H
#define OVC_ADMIT_H

#include "core/events.h"
#include "core/parser/msg_parser.h"

#include "ovc/admission.h"

#include "ovc_classify.h"
#include "ovc_reply.h"
#include "ovc_shm.h"

/* Binds the replier (sl, the To-tag secret). Returns 0 or -1. */
int ovc_admit_init(void);

/* The decision on msg in the script, or the one taken for it before
 * (the fast path, the queue's output), acted on (ovc_act()). noreply: do
 * not send the reject reply. Returns 1 admitted; 0 rejected and replied
 * (the script must stop); -1 rejected without reply (noreply); -2 dropped
 * (noreply). Every request is counted as offered plus exactly one
 * verdict, once. */
int ovc_admit(struct sip_msg *msg, int noreply);

/* ovc_dst_admit(): request msg is bound for uri (NULL: its destination,
 * $du or the Request-URI); the next hop's verdict (ovc_adm_next_hop():
 * its RFC 7339 feedback, smart forwarding's send queue) acted on.
 * Returns 1 to send it, -1 when its next hop refuses it (the script
 * answers it or picks another destination). Counted in dst_passed or
 * dst_refused (unless neither oc nor smart forwarding is at work). */
int ovc_dst_admit(struct sip_msg *msg, str *uri);

#endif
