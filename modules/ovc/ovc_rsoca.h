/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - R-SOCA in the module (004 §III-A..C): per in-dialog type arrival
 * counters and deterministic acceptors (DoS drop, eq. 3-6), per-class burst
 * budgets (§III-C), I measured from tm's replies (2xx to initial INVITEs),
 * the emergency match, R-SOCA's reject reply (500 + Retry-After), and the
 * figures for ovc.stats and ovc.csv. Shared state in shm; the hot path uses
 * atomics only; the ticker process plans each interval.
 */
#ifndef OVC_RSOCA_MOD_H
#define OVC_RSOCA_MOD_H

#include <stdint.h>

#include "core/rpc.h"

#include "ovc/controller.h"
#include "ovc/sipscan.h"

struct ovc_reply_cfg;

/* Per-type verdict columns. */
enum ovc_rs_col
{
	OVC_RS_ARRIVED = 0, /* in-dialog requests of the type that arrived */
	OVC_RS_DROPPED,		/* dropped as DoS or burst excess (no reply) */
	OVC_RS_REJECTED,	/* rejected (re-INVITE: 500 + Retry-After) */
	OVC_RS_COLS
};

/* Events counted beside them. */
enum ovc_rs_event
{
	OVC_RS_E_INVITE_OK = 0, /* I: 2xx sent for an initial INVITE */
	OVC_RS_E_BURST,			/* refused by a burst budget */
	OVC_RS_E_EMERG,			/* emergency request admitted past a reject */
	OVC_RS_E_COUNT
};

/* One finished second of R-SOCA figures (a row of ovc.csv). */
struct ovc_rsoca_row
{
	uint64_t dlg[OVC_DLG_COUNT][OVC_RS_COLS]; /* counts over the second */
	uint64_t ev[OVC_RS_E_COUNT];			  /* events over the second */
	double d_en;  /* D_en of eq. 5 in force at the second's end, per T */
	double p;	  /* P^ applied to new requests at the second's end */
	double p_cpu; /* its CPU component P^C */
	double p_mem; /* its memory component P^M */
};

/* Verdict of R-SOCA on an in-dialog request. */
enum ovc_rs_verdict
{
	OVC_RS_PASS = 0, /* forward it */
	OVC_RS_DROP,	 /* drop it silently */
	OVC_RS_REJECT,	 /* reject it (re-INVITE): R-SOCA's reply */
};

/* Parses and stores the emergency list (modparam "emergency", before the
 * fork). Returns 0 or -1 (message logged, naming the parameter). */
int ovc_rsoca_set_emergency(const char *spec);

/* Sets emergency_priority (0 or 1). Returns 0 or -1 (logged). */
int ovc_rsoca_set_emergency_priority(int on);

/* Allocates the shared state and, when tm is loaded, hooks its callbacks
 * to count I. p: the parameters in force. Returns 0 or -1. */
int ovc_rs_init(const struct ovc_params *p);

/* Frees the shared state. */
void ovc_rs_destroy(void);

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

/* Ticker, each epoch before the step: the in-dialog arrivals per type
 * and I since the last call, into m->dlg and m->invite_ok. */
void ovc_rsoca_epoch_measure(struct ovc_measure *m);

/* Ticker, each epoch after a successful step of controller ctl (lock
 * held): plans the next interval (acceptors, burst budgets, figures)
 * from m and the controller's output out. */
void ovc_rsoca_epoch_apply(const struct ovc_ctl *ctl,
		const struct ovc_measure *m, const struct ovc_output *out);

/* Ticker: remembers the figures in force at the end of second s. */
void ovc_rsoca_second_end(int64_t s);

/* Ticker: moves second s's counts into *row and clears its slot. */
void ovc_rsoca_close_second(int64_t s, struct ovc_rsoca_row *row);

/* Zeroes the totals (ovc.reset). */
void ovc_rsoca_reset(void);

/* ovc.csv: appends R-SOCA's column names / a row's values (each with a
 * leading comma) to buf of size bytes. Return as snprintf(). */
int ovc_rsoca_csv_header(char *buf, int size);
int ovc_rsoca_csv_row(const struct ovc_rsoca_row *r, char *buf, int size);

/* ovc.stats: adds the "rsoca" block to the reply structure th. */
void ovc_rsoca_rpc_stats(rpc_t *rpc, void *th);

#endif
