/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - R-SOCA memory control (004 §III-D) in the module: live
 * transactions per class counted through tm callbacks (TMCB_REQUEST_IN,
 * TMCB_DESTROY) and kept in age rings (ovc_tmreap.c); memory in use from
 * shared memory and/or live transactions x S; above M_min, a reaper
 * process ends the transactions older than T B through the tm API
 * (ovc_reaper.h; INVITE, REGISTER, other: 500 to the originator;
 * in-dialog: released without reply). Its lifecycle is the part
 * ovc_part_tmreap (ovc_tmreap_part.c). The shared state and tm's API
 * below are those three files' only; the rest of the module uses
 * ovc_tmreap_shm_bytes(), ovc_tr_ended() and ovc_tr_live_now().
 */
#ifndef OVC_TMREAP_H
#define OVC_TMREAP_H

#include <stdint.h>

#include "modules/tm/tm_load.h"

#include "ovc_shm.h"

struct ovc_agering;

/* The shared state (shm). */
struct ovc_tr_shm
{
	struct ovc_agering *ring[OVC_CLASS_COUNT];
	_Atomic int64_t live[OVC_CLASS_COUNT];		/* live transactions */
	_Atomic uint64_t created[OVC_CLASS_COUNT];	/* since start */
	_Atomic uint64_t ended[OVC_CLASS_COUNT];	/* ended by the reaper */
	_Atomic uint64_t ended_slot[OVC_SLOTS][OVC_CLASS_COUNT]; /* per s */
	_Atomic uint64_t skipped;	/* old ones found replied or gone */
	_Atomic uint64_t passes;	/* reaper passes above M_min */
	_Atomic int active;			/* last measurement >= M_min */
	_Atomic int source_used;	/* source of the last measurement */
	ovc_atomic_double in_use;	/* memory in use, bytes */
	ovc_atomic_double mmin;		/* M_min in force, bytes */
	ovc_atomic_double mmax;		/* M_max in force, bytes */
	ovc_atomic_double p_mem;	/* P^M (eq. 1) */
	_Atomic uint64_t shm_used;	/* shared memory used, bytes */
	_Atomic uint64_t shm_total; /* shared memory size, bytes */
};

extern struct ovc_tr_shm *ovc_tr; /* NULL: not initialised, or shut down */
extern struct tm_binds ovc_tr_tmb; /* tm's API, when ovc_tr_tm_ok */
extern int ovc_tr_tm_ok;		   /* 1: tm is loaded and bound */

/* One measurement of memory in use against M_min/M_max. */
struct ovc_tr_meas
{
	int ok;			/* thresholds known */
	int source;		/* enum ovc_mem_source that decided */
	double in_use;	/* bytes */
	double mmin;	/* bytes */
	double mmax;	/* bytes */
	double p_mem;	/* ramp (eq. 1) */
	double frac;	/* occupancy for the controller */
};

/* Shared memory, bytes, ovc_tmreap_init() takes at most (tm loaded). */
size_t ovc_tmreap_shm_bytes(void);

/* Binds tm (when loaded), allocates the rings and counters in shm,
 * registers the statistics and TMCB_REQUEST_IN. mem_source (enum
 * ovc_mem_source) is checked: transactions as a source need tm. Call in
 * mod_init. Returns 0 or -1. */
int ovc_tmreap_init(unsigned mem_source);

/* Frees the shared state (shutdown; tm's destroy, which runs later, finds
 * the callbacks disarmed). */
void ovc_tmreap_destroy(void);

/* Monotonic time, ms (coarse clock): the rings' time. */
int64_t ovc_tr_now_ms(void);

/* Live transactions, all classes (>= 0). */
int64_t ovc_tr_live_total(void);

/* For the rest of the module (any process, lock-free; 0 when the reaper
 * is not initialised or shut down): transactions of class c the reaper
 * ended since start, and the live transactions, all classes. */
uint64_t ovc_tr_ended(enum ovc_class c);
int64_t ovc_tr_live_now(void);

/* Copies the parameters in force (under ovc's lock). */
void ovc_tr_params(struct ovc_params *p);

/* Measures by the configured source of p (transactions need tm), into
 * *m, and publishes the result in ovc_tr. */
void ovc_tr_measure(const struct ovc_params *p, struct ovc_tr_meas *m);

#endif
