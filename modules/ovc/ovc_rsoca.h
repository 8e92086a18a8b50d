/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - R-SOCA in the module (004 §III-A..C): per in-dialog type arrival
 * counters and deterministic acceptors (DoS drop, eq. 3-6), per-class burst
 * budgets (§III-C), I measured from tm's replies (2xx to initial INVITEs),
 * the emergency match, R-SOCA's reject reply (500 + Retry-After), and the
 * figures for ovc.stats and ovc.csv (columns in ovc/columns.def). Shared
 * state in shm; the hot path uses atomics only; the ticker process plans
 * each interval; its lifecycle is the part ovc_part_rsoca (ovc_part.h).
 */
#ifndef OVC_RSOCA_MOD_H
#define OVC_RSOCA_MOD_H

#include <stdint.h>

#include "ovc/controller.h"
#include "ovc/sipscan.h"

#include "ovc/row.h"

struct ovc_reply_cfg;

/* Verdict of R-SOCA on an in-dialog request. */
enum ovc_rs_verdict
{
	OVC_RS_PASS = 0, /* forward it */
	OVC_RS_DROP,	 /* drop it silently */
	OVC_RS_REJECT,	 /* reject it (re-INVITE): R-SOCA's reply */
};

/* Hot path. Counts one in-dialog request of method m (ACK/CANCEL: pass,
 * uncounted) and decides it: within the in-dialog burst budget and
 * accepted by its type's acceptor: pass; else drop (re-INVITE: reject).
 * Drops are counted per type unless dry (a dry run forwards them; the
 * caller counts "would_reject"); a reject is counted by the caller once
 * answered (ovc_rsoca_count_dlg_reject). Lock-free. */
enum ovc_rs_verdict ovc_rsoca_indialog(enum ovc_sip_method m, int dry);

/* Counts one in-dialog request of method m rejected with a reply. */
void ovc_rsoca_count_dlg_reject(enum ovc_sip_method m);

/* Hot path. Takes one request of controlled class c from its burst
 * budget. Returns 1 within it, 0 excess (counted as a burst refusal). */
int ovc_rsoca_burst_take(enum ovc_class c);

/* Counts one R-SOCA event. */
void ovc_rsoca_count_event(enum ovc_rs_event e);

/* The reply R-SOCA's rejects use: rsoca.reject_code (500 "Server Internal
 * Error" or 503 "Service Unavailable") with Retry-After rsoca.tretry. */
const struct ovc_reply_cfg *ovc_rsoca_reply(void);

struct ovc_emerg;

/* The emergency calls never refused (modparams emergency and
 * emergency_priority), for the admission sequence. */
const struct ovc_emerg *ovc_rsoca_emerg(void);

/* Takes R-SOCA's reply settings (reject code, T_retry) and figures from p
 * at once (ovc.set; the ticker also does at every interval). */
void ovc_rsoca_settings(const struct ovc_params *p);

#endif
