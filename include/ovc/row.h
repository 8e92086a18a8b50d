/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - one finished second, as shown by the module's ovc.csv: the count
 * arrays and one field per other column of ovc/columns.def. The module's
 * ticker, R-SOCA and the reaper fill it, src/csv.c prints it. And the
 * per-second column of a count kept as a running total (src/row.c).
 */
#ifndef OVC_ROW_H
#define OVC_ROW_H

#include <stdint.h>

#include "ovc/types.h"

/* Verdict columns counted per class. */
enum ovc_verdict
{
	OVC_V_OFFERED = 0,	/* entered ovc_admit() */
	OVC_V_ADMITTED,		/* continue routing */
	OVC_V_REJECTED,		/* refused, reply sent (or -1 returned for noreply) */
	OVC_V_DROPPED,		/* refused without reply (DoS drop) */
	OVC_V_QUEUED,		/* put in the INVITE queue */
	OVC_V_DEQUEUED,		/* taken out of the INVITE queue */
	OVC_V_WOULD_REJECT, /* dry run: would have been rejected, was admitted */
	OVC_V_COUNT
};

/* Events counted beside the per-class verdicts (totals and per second). */
enum ovc_event
{
	OVC_E_REPLY = 0,		/* reject reply sent */
	OVC_E_ACK_ABSORBED,		/* ACK to one of ovc's rejects absorbed */
	OVC_E_FAST_REJECT,		/* reject answered at datagram arrival */
	OVC_E_FAST_FALLTHROUGH, /* datagram left to the normal path */
	OVC_E_QUEUE_FULL,		/* INVITE refused: the queue was full */
	OVC_E_QUEUE_EXPIRED,	/* dequeued INVITE waited > queue_max_wait */
	OVC_E_QUEUE_ABSORBED,	/* retransmission of a queued INVITE absorbed */
	OVC_E_QUEUE_SHUTDOWN,	/* queued INVITE answered at shutdown */
	OVC_E_AGE_REJECT,		/* INVITE rejected: waited > rxq.max_age_ms */
	OVC_E_QUEUE_CANCELLED,	/* CANCEL of a queued INVITE answered */
	OVC_E_DST_PASSED,		/* request ovc_dst_admit() let through */
	OVC_E_DST_REFUSED,		/* request its next hop's feedback refused */
	OVC_E_OC_SENT,			/* response the reduction was written into */
	OVC_E_OC_RECEIVED,		/* feedback value taken from a next hop */
	OVC_E_DST_SENDQ,		/* of dst refused: its send queue was full */
	OVC_E_LATE_REJECT,		/* of age rejects: its call first seen earlier */
	OVC_E_SHARE_MET,		/* INVITE that met pi's arrival share */
	OVC_E_COUNT
};

/* R-SOCA: verdict columns per in-dialog type. */
enum ovc_rs_col
{
	OVC_RS_ARRIVED = 0, /* in-dialog requests of the type that arrived */
	OVC_RS_DROPPED,		/* dropped as DoS or burst excess (no reply) */
	OVC_RS_REJECTED,	/* rejected (re-INVITE: 500 + Retry-After) */
	OVC_RS_COLS
};

/* R-SOCA: events counted beside them. */
enum ovc_rs_event
{
	OVC_RS_E_INVITE_OK = 0, /* I: 2xx sent for an initial INVITE */
	OVC_RS_E_BURST,			/* refused by a burst budget */
	OVC_RS_E_EMERG,			/* emergency request admitted past a reject */
	OVC_RS_E_COUNT
};

/* C type of each column kind of ovc/columns.def */
#define OVC_COL_T_TIME int64_t
#define OVC_COL_T_ALG enum ovc_alg
#define OVC_COL_T_U64 uint64_t
#define OVC_COL_T_INT int
#define OVC_COL_T_F0 double
#define OVC_COL_T_F1 double
#define OVC_COL_T_F4 double

struct ovc_row
{
	/* counts over the second, read by the OVC_COL_ELEM columns */
	uint64_t v[OVC_CLASS_COUNT][OVC_V_COUNT]; /* per class and verdict */
	uint64_t ev[OVC_E_COUNT];				  /* events */
	uint64_t dlg[OVC_DLG_COUNT][OVC_RS_COLS]; /* R-SOCA, per in-dialog type */
	uint64_t rs_ev[OVC_RS_E_COUNT];			  /* R-SOCA's events */
	uint64_t reaped[OVC_CLASS_COUNT];		  /* over-age transactions ended */
	/* every other column: a field of its name (figures at the second's
	 * end, or over the second; see the list) */
#define OVC_COL_FIELD(name, kind, unit, doc) OVC_COL_T_##kind name;
#define OVC_COL_ELEM(name, kind, member, unit, doc)
#include "ovc/columns.def"
};

/* Seconds a per-second ring holds (the module's counting slots): a second
 * is closed (its row written) more than a second after it ended, so that
 * no writer still adds to it, and a ring of 4 leaves room for a late
 * close. */
#define OVC_ROW_SLOTS 4

/* A running total's value at the end of each of the last OVC_ROW_SLOTS
 * seconds (indexed by second % OVC_ROW_SLOTS): a second's column is what
 * the total grew by during it (the kernel's drop counters). One writer. */
struct ovc_row_delta
{
	uint64_t at[OVC_ROW_SLOTS];
};

/* Starts counting from the total v: every second's start is v. */
void ovc_row_delta_start(struct ovc_row_delta *d, uint64_t v);

/* The total was v at the end of second sec (>= 0). */
void ovc_row_delta_end(struct ovc_row_delta *d, int64_t sec, uint64_t v);

/* What the total grew by during second sec (>= 1; its end and the end of
 * sec - 1 were noted): 0 when it went back (a counter that restarted). */
uint64_t ovc_row_delta_of(const struct ovc_row_delta *d, int64_t sec);

#endif
