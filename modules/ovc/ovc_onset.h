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

/* Is overload evident now? 1 or 0. Lock-free; any process. */
int ovc_overloaded(void);

/* The receive-queue age limit in force, ms (0: none): while overloaded
 * when loaded is 1 (ovc_derive_age_loaded()), else below overload.
 * Lock-free; any process. */
unsigned ovc_onset_max_age_ms(int loaded);

/* rxq.guard_ms in force (derived), ms. Lock-free; any process. */
double ovc_onset_guard_ms(void);

/* The CFS stall of the detected CPU quota, ms (0: no quota). Lock-free;
 * any process. */
double ovc_onset_stall_ms(void);

/* The overload state and the receive-queue settings in force, as the
 * "rxq" block of ovc.stats shows them. */
struct ovc_onset_view
{
	int overload;			/* 1: evident */
	uint64_t onsets;		/* transitions to overload */
	unsigned max_age_ms;	/* age limit below overload, ms (0: none) */
	unsigned age_loaded_ms; /* age limit while overloaded, ms */
	double guard_ms;		/* rxq.guard_ms in force, ms */
	double onset_ms;		/* rxq.onset_ms in force, ms */
	double enter_ms;		/* wait that starts an overload, ms */
	double stall_ms;		/* CFS stall of the detected quota, ms */
};

/* Fills *v with the figures in force now (all 0 before mod_init).
 * Lock-free; any process. */
void ovc_onset_view(struct ovc_onset_view *v);

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
