/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - the admission sequence as the module drives it
 * (modules/ovc/ovc_decide.c, ovc_actor.c, ovc_fastpath.c, ovc_qworker.c):
 * the same ovc_adm_* calls in the same order, on a synthetic INVITE per
 * call (so that the decision memory keys it as the module would), with the
 * settings in force (the gate's overload state, the age limits, the
 * in-core queue) read from the world and the verdict sources of the
 * model: the wait in the receive queue, the kernel stage's first sight,
 * R-SOCA's burst budget. No emergency list, no fair share, no in-dialog
 * limit, mode multi, no dry run.
 */
#ifndef SIM_ADM_H
#define SIM_ADM_H

#include "world.h"

/* Sets up the decision memory, the acceptors' state and the synthetic
 * request. Returns 0 or -1 (no memory). */
int sim_adm_open(struct sim_world *w);
void sim_adm_close(struct sim_world *w);

/* A new call id: its INVITE's key in the kernel stage. */
void sim_adm_new_call(struct sim_world *w, uint32_t id);

/* The sequence (ovc_adm_decide()) on call id's INVITE, which waited
 * age_ns in the receive queue (-1: not measured, decided at arrival),
 * into *v (unkeyed: without the decision memory, as a request the scan
 * does not understand), as ovc_admit_decide() does: a call admitted or
 * queued in overload is marked in the kernel stage. Counts the decision
 * for the gate (INVITEs decided, refused for their wait). */
void sim_adm_decide(struct sim_world *w, uint32_t id, int64_t age_ns,
		int unkeyed, struct ovc_adm_verdict *v);

/* A QUEUE verdict v on call id, as the module's actor queues it
 * (modules/ovc/ovc_actor.c, enqueue()): remembered queued, then put in
 * the queue when room (1: there is); when not, ovc_adm_unqueued() turns
 * v into a reject. Returns 1 queued, 0 not. */
int sim_adm_enqueue(struct sim_world *w, struct ovc_adm_verdict *v, int room);

/* The reject reply for v went out (ovc_adm_replied()). */
void sim_adm_replied(struct sim_world *w, const struct ovc_adm_verdict *v);

/* The decision at the queue's output (ovc_adm_dequeue()) on call id's
 * INVITE that waited waited_ns there, into *v. */
void sim_adm_dequeue(struct sim_world *w, uint32_t id, int64_t waited_ns,
		struct ovc_adm_verdict *v);

#endif
