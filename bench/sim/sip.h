/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - the SIP state machines and the proxy's handling of what it
 * reads (sip.c), above the processor (server.h), the admission sequence
 * (adm.h) and the kernel stage (ks.h).
 */
#ifndef SIM_SIP_H
#define SIM_SIP_H

#include "world.h"

/* A new call from the source: its first INVITE is sent. */
void sim_new_call(struct sim_world *w);

/* A UA's or the proxy's timer event (EV_UAC_* .. EV_UAS_*). */
void sim_sip_event(struct sim_world *w, const struct sim_ev *e);

/* The processor's on_read hook: an undecided INVITE leaving the receive
 * queue gets the admission sequence's verdict (its type changes). */
void sim_sip_read(struct sim_world *w, struct sim_msg *m);

/* The processor's on_served hook: a message was served. */
void sim_sip_serve(struct sim_world *w, const struct sim_msg *m);

/* Moves INVITEs from the in-core queue to the processor: at most
 * cfg->workers in service, paced at the plan's drain rate when >= 0. */
void sim_drain(struct sim_world *w);

#endif
