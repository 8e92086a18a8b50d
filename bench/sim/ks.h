/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - the kernel stage (docs/algorithms.md, "The kernel stage"): a
 * filter in front of the receive queue that drops a share of initial
 * INVITEs, every transmission of one alike (ovc_ks_call_dropped() on the
 * INVITE's key), spares those admitted in overload, and notes when each
 * call was first seen (ovc/kstage_seen.h, whose age the admission
 * sequence reads as call_age_ns); and, each epoch, the split of
 * ovc/ksplit.h that sets the share from what refusing cost. The same
 * library code and settings as modules/ovc/ovc_kstage.c.
 */
#ifndef SIM_KS_H
#define SIM_KS_H

#include "world.h"

/* Allocates the stage when cfg->kstage. Returns 0 or -1 (no memory). */
int sim_ks_open(struct sim_world *w);
void sim_ks_close(struct sim_world *w);

/* The key the filter computes for the initial INVITE buf (len bytes):
 * its Call-ID's and top Via's hash; 0 when the filter would not judge
 * it. */
uint64_t sim_ks_key(const char *buf, size_t len);

/* An initial INVITE (or its retransmission) of call id reaches the host:
 * noted, counted, and judged. Returns 1 when it passes on to the receive
 * queue, 0 when the filter drops it. */
int sim_ks_filter(struct sim_world *w, uint32_t id);

/* The call id was admitted (or queued) in overload: spared from now on. */
void sim_ks_admitted(struct sim_world *w, uint32_t id);

/* How long ago call id's INVITE was first seen, ns; -1: unknown, no
 * stage, or admitted. */
int64_t sim_ks_call_age_ns(struct sim_world *w, uint32_t id);

/* The epoch's split (m: the controller's measurement of it, refused: the
 * INVITEs ovc refused in it), as the module's ks_apply(). */
void sim_ks_epoch(struct sim_world *w, const struct ovc_measure *m,
		uint64_t refused);

/* 1 while the stage drops calls beyond the 503 budget (evidence of
 * overload, ovc_onset_sign()). */
int sim_ks_holds(const struct sim_world *w);

#endif
