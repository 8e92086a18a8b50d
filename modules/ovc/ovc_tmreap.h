/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - R-SOCA memory control (004 §III-D) in the module: live
 * transactions per class counted through tm callbacks (TMCB_REQUEST_IN,
 * TMCB_DESTROY) and kept in age rings; memory in use from shared memory
 * and/or live transactions x S; above M_min, a reaper process ends the
 * transactions older than T B through the tm API (INVITE, REGISTER,
 * other: 500 to the originator; in-dialog: released without reply).
 */
#ifndef OVC_TMREAP_H
#define OVC_TMREAP_H

#include <stdint.h>

#include "core/rpc.h"

#include "ovc_shm.h"

/* Binds tm (when loaded), allocates the rings and counters in shm and
 * registers TMCB_REQUEST_IN. mem_source (enum ovc_mem_source) is checked:
 * transactions as a source need tm. Call in mod_init. Returns 0 or -1. */
int ovc_tmreap_init(unsigned mem_source);

/* Extra processes the module forks for the reaper (0 or 1). */
int ovc_tmreap_procs(void);

/* Forks the reaper process (from child_init(PROC_MAIN)). Returns 0 or -1. */
int ovc_tmreap_fork(void);

/* Ticker, every epoch: records the shared memory total (bytes), measures
 * memory in use against M_min/M_max, publishes them, and returns the
 * memory occupancy for the R-SOCA controller (its fraction thresholds
 * rsoca.mmin/mmax stand for M_min/M_max); shm_used/shm_total when the
 * thresholds cannot be derived. */
double ovc_tmreap_epoch(uint64_t shm_used, uint64_t shm_total);

/* Ticker, at the end of a second: the memory figures in force then
 * (mem_in_use, mem_min, mem_max, live_transactions), into its row. */
void ovc_tmreap_snap(struct ovc_row *row);

/* Ticker, closing second sec: moves its ended-transaction counts into
 * row's reaped_* columns and clears them. */
void ovc_tmreap_row(int64_t sec, struct ovc_row *row);

/* ovc.stats: adds the "rsoca_mem" block to th. */
void ovc_tmreap_rpc_stats(rpc_t *rpc, void *th);

/* ovc.reset: zeroes the ended-transaction totals. */
void ovc_tmreap_reset(void);

/* Frees the shared state (shutdown; tm's destroy, which runs later, finds
 * the callbacks disarmed). */
void ovc_tmreap_destroy(void);

#endif
