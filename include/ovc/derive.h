/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the receive-queue settings ovc derives from what it measures when
 * the operator leaves them at "auto" (-1): RFC 3261's T1 (the caller's
 * first retransmission timer), and the CFS stall of a CPU quota (the part
 * of each period in which a quota-capped proxy cannot run at all). Pure
 * functions; the module feeds them the quota it detected.
 */
#ifndef OVC_DERIVE_H
#define OVC_DERIVE_H

#include "ovc/rxq.h"

/* Datagrams per second the derived receive buffer is sized to absorb
 * during a stall plus the age limit: a 16x flood on a proxy of a few
 * hundred calls/s, INVITEs plus the ACKs to their rejects. */
#define OVC_DERIVE_FLOOD_DGRAMS_PER_S 10000.0

/* Time, ms, in which a proxy capped to quota_cpus CPUs per CFS period of
 * period_ms cannot run: period_ms (1 - quota_cpus) for a quota below one
 * CPU, else 0 (no quota, quota_cpus <= 0, or anything not finite). */
double ovc_derive_stall_ms(double period_ms, double quota_cpus);

/* The settings in force, all in ms (0: off). */
struct ovc_rxq_eff
{
	unsigned max_age_ms; /* age limit of an initial INVITE */
	double guard_ms;	 /* wait above which the guard caps f */
	double onset_ms;	 /* least wait that is evidence of overload */
	double enter_ms;	 /* least wait that starts an overload */
};

/* Resolves p's auto (negative) values for a quota stall of stall_ms:
 *   max_age_ms = max(T1 / 5, stall + T1 / 25): a request answered after
 *                T1/5 still sets up within T1, and a proxy below capacity
 *                serves every INVITE within one stall;
 *   guard_ms   = T1 / 10;
 *   onset_ms   = T1 / 25: below capacity the freshest INVITE of a window
 *                longer than a CFS period waited less than this;
 *   enter_ms   = T1 / 2: a backlog younger than this still sets calls up
 *                before the caller's first retransmission, with the other
 *                half of T1 for the call's own path: a burst, not yet an
 *                overload (an onset_ms given sets enter_ms too).
 * A non-negative value in p is taken as given. */
void ovc_derive_rxq(const struct ovc_rxq_params *p, double stall_ms,
		struct ovc_rxq_eff *out);

/* The age limit while overload is evident, ms (rxq.max_age_ms auto):
 * the shortest that still lets through as many initial INVITEs as the
 * proxy can serve. Under a CPU quota (stall_ms > 0 of each period_ms) an
 * INVITE that arrives in a stall waits up to its end, so of the INVITEs
 * arriving only those of the stall's last m ms and of the running part
 * of the period are younger than m at the head of the queue: a share (m
 * + period - stall) / period. need: the share of the offered initial
 * INVITEs the proxy can admit (its measured capacity over their measured
 * rate). m = stall - period (1 - need) + T1/25 (the queueing within the
 * running part), within [T1/10, max_age_ms]: the whole receive queue,
 * responses too, then waits about m rather than max_age_ms, and every
 * call sets up that much sooner. max_age_ms itself without a quota, with
 * need unknown (<= 0, not finite) or >= 1, or max_age_ms 0 (off). */
unsigned ovc_derive_age_loaded(unsigned max_age_ms, double t1_ms,
		double stall_ms, double period_ms, double need);

/* Receive buffer, in messages, for rcvbuf_udp "auto": enough for
 * OVC_DERIVE_FLOOD_DGRAMS_PER_S during stall_ms + max_age_ms, and never
 * less than have_msgs (the buffer the socket already has). */
unsigned ovc_derive_rcvbuf_msgs(
		double stall_ms, unsigned max_age_ms, unsigned have_msgs);

/* Length of the window, ms, over which the least wait is taken: two CFS
 * periods (a proxy below capacity empties its queue once per period), at
 * least 100 ms. period_ms <= 0: no quota. */
double ovc_derive_onset_window_ms(double period_ms);

#endif
