/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - is the proxy overloaded? The request path notes how long each
 * initial INVITE waited (in the socket's receive queue, and in the in-core
 * queue); the ticker takes the least wait of every window of two CFS
 * periods and runs libovc's onset test (ovc/onset.h). Only while overload
 * is evident do the controllers' fractions and the guard apply.
 */
#ifndef OVC_ONSET_MOD_H
#define OVC_ONSET_MOD_H

#include <stdint.h>

#include "ovc/derive.h"
#include "ovc/types.h"

/* Notes that an initial INVITE waited wait_ns in the socket's receive
 * queue (negative: unknown, ignored). Lock-free; any process. */
void ovc_onset_note_rx(int64_t wait_ns);

/* Notes that an initial INVITE waited wait_ns in the in-core queue.
 * Lock-free; any process. */
void ovc_onset_note_queue(uint64_t wait_ns);

/* Ticker, at each controller epoch in overload: held is 1 when the
 * controller's output holds down an overload the waits no longer show
 * (ovc_ctl_hides_overload(): pi). A window in which most epochs did is
 * evidence: the overload lasts while pi refuses beyond twice its CPU
 * headroom (it never starts one). */
void ovc_onset_note_held(int held);

/* Ticker: resolves the rxq settings p in force for the detected quota
 * into *eff and publishes them (the age limit for the request path; the
 * derived age limit is off under algorithm none, which decides nothing). */
void ovc_onset_settings(
		const struct ovc_rxq_params *p, struct ovc_rxq_eff *eff);

/* Ticker: closes the window when it has elapsed at now and updates the
 * overload state; queue_target_s is the in-core queueing the algorithm
 * keeps by design (ovc_ctl_queue_target_s). Returns 1 while overload is
 * evident (or within 2 T1 of the last evidence), else 0. */
int ovc_onset_tick(ovc_time_ns now, const struct ovc_rxq_eff *eff,
		unsigned t1_ms, double queue_target_s);

/* 1 when nothing can be refused (an algorithm controlling no class and
 * no age limit in force): ovc only observes, and reports no overload. */
int ovc_onset_observing(void);

/* Is overload evident now? */
int ovc_overloaded(void);

/* What a stage in front of the receive queue tells the overload test
 * (the kernel stage, ovc_kstage.h, gives its own at mod_init). */
struct ovc_onset_feed
{
	/* initial INVITEs that reached the host so far (retransmissions
	 * included; ticker only, may make a system call), -1: unknown */
	long long (*arrivals)(void);
	/* 1 while the stage holds an overload: it drops calls, which empties
	 * the receive queue the overload is judged by, so that its drops are
	 * the evidence then; else 0 */
	int (*holds)(void);
};

/* mod_init, before the fork: f (kept, not copied) feeds the overload
 * test from now on; NULL: no stage (arrivals unknown, holds nothing). */
void ovc_onset_set_feed(const struct ovc_onset_feed *f);

#endif
