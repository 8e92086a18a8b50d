/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - R-SOCA's protection against in-dialog floods and bursts (004
 * §III-B, §III-C), the parts the module applies per request:
 *   - the per-interval plan: for each in-dialog type t with D_t arrivals
 *     over the last interval, D_en,t = max(E_I T, I) B_en (x N_r for
 *     re-INVITE; eq. 5-6) and the drop probability
 *     p_t = min((D_t - D_en,t) / D_t, p_pass^(1/n)) when D_t > D_en,t
 *     (eq. 3-4), turned into an acceptance fraction 1 - p_t for a
 *     deterministic acceptor per type;
 *   - the burst budget: at most floor(B_en E_c T) requests of class c are
 *     taken per interval T, the excess is rejected (§III-C), counted by a
 *     lock-free counter that many processes share;
 *   - the in-dialog type of a request method.
 */
#ifndef OVC_RSOCA_DOS_H
#define OVC_RSOCA_DOS_H

#include <stdatomic.h>
#include <stdint.h>

#include "ovc/types.h"
#include "ovc/agering.h"
#include "ovc/rsoca.h"
#include "ovc/sipscan.h"

/* The decision for the next interval. */
struct ovc_dos_plan
{
	double i_used;				 /* max(E_I T, I): sessions the interval
									explains, requests */
	double d_en[OVC_DLG_COUNT];	 /* expected arrivals per type (eq. 5-6) */
	double p_drop[OVC_DLG_COUNT]; /* drop (re-INVITE: reject) probability */
	double accept[OVC_DLG_COUNT]; /* 1 - p_drop: the acceptor's fraction */
	double cap;					 /* p_pass^(1/n), largest p_drop (eq. 4) */
};

/* Eq. 3-6 over one interval of dt_s seconds: d holds the arrivals per
 * in-dialog type (OVC_DLG_COUNT values), invite_ok the successful
 * session-initiating INVITEs (I) of the interval. Returns OVC_OK, or
 * OVC_EINVAL (NULL, NaN/inf or negative count, dt_s <= 0: *out
 * untouched). */
int ovc_rsoca_dos_plan(const struct ovc_rsoca_params *p, const double *d,
		double invite_ok, double dt_s, struct ovc_dos_plan *out);

/* In-dialog type of a request method (enum ovc_sip_method); ACK and
 * CANCEL, which are never controlled, map to OVC_DLG_COUNT. */
enum ovc_dlg ovc_dlg_of_method(enum ovc_sip_method m);

/* Burst budget of one class for the running interval (§III-C). */
struct ovc_burst
{
	_Atomic uint64_t count; /* arrivals taken in this interval */
	_Atomic int64_t limit;	/* floor(B_en E T), requests; < 0: no limit */
};

/* Sets the budget for a new interval: count back to 0, limit from
 * ovc_rsoca_burst_limit() (< 0 or NaN: no limit). Safe concurrently with
 * take (a take racing the reset counts in either interval). */
void ovc_burst_reset(struct ovc_burst *b, double limit);

/* Counts one arrival. Returns 1 when it is within the budget, 0 when it
 * is excess (to be rejected). Lock-free; safe from many processes. */
int ovc_burst_take(struct ovc_burst *b);

/* Engineered transactions in flight, the bracket of eq. 8:
 * E_I T_I + (E_D + E_O) T_O + E_R T_R (requests; rates from p, lifetimes
 * T from m, ms). */
double ovc_rsoca_engineered_txn(
		const struct ovc_rsoca_params *p, const struct ovc_memctl_params *m);

#endif
