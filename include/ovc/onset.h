/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - is the proxy overloaded? Evidence, not a CPU threshold: a proxy
 * below its capacity serves every request it reads before the next CFS
 * period (or, without a quota, at once), so in any window of two periods
 * at least one initial INVITE waited almost nothing. When even the
 * freshest INVITE of a window waited longer than onset_ms, work arrives
 * faster than it is served. Entering overload takes more: the freshest
 * INVITE waited longer than enter_ms, a backlog that would delay calls
 * towards the caller's retransmission; shorter waits are bursts (a CPU
 * quota's stall, the first wave of freed transactions) the proxy absorbs.
 * Overload ends when the windows have shown no evidence (onset_ms) for
 * hold_s; for rearm_s after that, onset_ms starts the next one (a
 * controlled overload empties the queue it is judged by, and should not
 * have to build a backlog of enter_ms again each time). While there is no overload ovc refuses nothing
 * (the controllers' fractions are not applied), so a busy but healthy
 * proxy loses no call.
 */
#ifndef OVC_ONSET_H
#define OVC_ONSET_H

#include <stdint.h>

/* Initial INVITEs reaching the host in a window, over what the capacity
 * ovc learned serves in it, past which a window whose freshest INVITE
 * waited longer than onset_ms starts an overload (a rush: see
 * ovc_onset_sign()). */
#define OVC_ONSET_RUSH 3.0

struct ovc_onset
{
	int on;			 /* overload evident */
	double quiet_s;	 /* time since the last window with evidence, s */
	unsigned onsets; /* transitions to overload so far */
};

/* The thresholds, derived by ovc_derive_rxq() and ovc_onset_tick(). */
struct ovc_onset_cfg
{
	double enter_ms; /* least receive-queue wait that starts an overload,
						ms */
	double queue_enter_ms; /* least in-core queue wait beyond its target
							  that starts one, ms (the queue expires
							  INVITEs before their wait reaches enter_ms) */
	double onset_ms; /* least wait that keeps one (<= 0: always on), ms */
	double hold_s;	 /* quiet time that ends one, s */
	double rearm_s;	 /* after an overload ended, how long a wait past
						onset_ms starts the next one, s */
};

/* Starts with no overload. */
void ovc_onset_init(struct ovc_onset *o);

/* One window of dt_s seconds in which the least wait of any INVITE in the
 * receive queue was rx_ms and in the in-core queue, beyond its target,
 * queue_ms (< 0 or NaN: no INVITE seen, which is no evidence; INFINITY:
 * evidence whatever the thresholds), ms.
 * Evidence when either wait > onset_ms in overload or within rearm_s of
 * its end, else when rx_ms > max(enter_ms, onset_ms) or queue_ms >
 * max(queue_enter_ms, onset_ms): a receive queue's burst below enter_ms
 * is absorbed whatever the algorithm. onset_ms <= 0 switches the test off
 * (always overloaded: the controllers act as in their papers). Returns 1
 * while overload is evident or was within the last hold_s seconds, else
 * 0. */
int ovc_onset_step(struct ovc_onset *o, const struct ovc_onset_cfg *c,
		double rx_ms, double queue_ms, double dt_s);

/* What a window showed besides its least waits. */
struct ovc_onset_signs
{
	int invites;	/* initial INVITEs arrived in it (any transport) */
	int kstage;		/* the kernel stage drops calls beyond the 503 budget */
	unsigned epochs; /* controller epochs noted in overload in it */
	unsigned held;	 /* of those, pi refused beyond twice its headroom */
	uint64_t refused_for_wait; /* initial INVITEs refused for their wait
								  in the receive queue in it */
	double arrived;			   /* initial INVITEs that reached the host in it,
						counted before any queue (the kernel stage's
						filter); < 0: unknown */
	double capacity; /* initial INVITEs the capacity ovc learned serves in
						it; <= 0: unknown */
};

/* Evidence of a window other than a wait above a threshold, given least_ms
 * (the larger of its two least waits, ms; < 0: no INVITE's wait measured):
 * INVITEs arrived but none had a measurable wait (TCP, TLS); or, in
 * overload only (o->on: they keep one, never start one, since each is a
 * consequence of controlling it), the kernel stage dropping calls (its
 * drops empty the receive queue), pi refusing in most epochs beyond its
 * headroom (pi holds its queue at T_q and hides the overload), INVITEs
 * refused for their wait while no wait exceeded onset_ms (the age limit
 * keeps the receive queue short enough that the freshest INVITE of a
 * window may wait less than onset_ms while older ones are refused), more
 * than OVC_ONSET_RUSH times the capacity still reaching the host in the
 * window, whatever the waits (the kernel stage drops so many that its
 * refusals fit the 503 budget, the split stops asking for drops and the
 * receive queue is short: without this sign the overload ended within a
 * flood on Kamailio 6.0.1 and a second one started a second later); or,
 * out of overload, a rush: more than OVC_ONSET_RUSH times the capacity
 * arrived in the window while even its freshest INVITE waited longer
 * than onset_ms (the backlog then grows by twice the capacity or more
 * each second; waiting until it reaches enter_ms fills the receive queue,
 * and no burst a healthy proxy absorbs brings three times its capacity
 * for a whole window).
 * Returns the reason (a static string) to pass as INFINITY to
 * ovc_onset_step(), or NULL: none. */
const char *ovc_onset_sign(const struct ovc_onset *o,
		const struct ovc_onset_cfg *c, const struct ovc_onset_signs *s,
		double least_ms);

#endif
