/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the fair share as the module sees it (issue 38, ovc/fair.h):
 * the heaviest sources are refused first. The part (ovc_fair.c)
 * keeps the shared sketch, rotates it each second and, at each
 * application of the controller's fraction, solves the water level and
 * scales the acceptor behind the cut. No Kamailio header: the modparams'
 * documentation tool includes it.
 */
#ifndef OVC_FAIR_MOD_H
#define OVC_FAIR_MOD_H

#include <stdint.h>

struct ovc_fair;
struct ovc_plan;
struct ovc_alg_traits;
struct receive_info;
struct sip_msg;

/* The shared state, NULL when fair_key is off (or before mod_init). */
struct ovc_fair *ovc_fair_state(void);

/* The fair-share key of the source a datagram came from (rcv): a hash of
 * its address (not its port). Never 0. */
uint64_t ovc_fair_src(const struct receive_info *rcv);

/* The fair-share key of msg in the script (ovc_admit()): the
 * pseudo-variable format of fair_key evaluated on msg when one is set
 * (an empty or failed evaluation: its source address), else its source
 * address. 0 when the fair share is off. */
uint64_t ovc_fair_msg_key(struct sip_msg *msg);

/* Ticker: the controller's fraction of the acceptor in front (f_accept,
 * or f_arrival for an algorithm that paces its queue) goes through the
 * cut: the level is solved for it and that fraction in *pl is scaled to
 * what the acceptor behind the cut runs at (ovc/fair.h, (2)). Nothing
 * when the fair share is off. */
void ovc_fair_plan(const struct ovc_alg_traits *t, struct ovc_plan *pl);

#endif
