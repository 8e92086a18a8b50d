/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - age ring: bookkeeping of live transactions of one class in the
 * order they started, so that R-SOCA's memory control (004 §III-D) finds
 * those older than T B cheaply, oldest first, without walking tm's table.
 *
 * Many writers (SIP worker processes) add and delete entries lock-free;
 * one reaper (a single process) walks from the oldest end. Each slot
 * carries a state word (position << 2 | flag) so that a delete of an
 * entry whose slot was reused, or a reaper visit of a slot a writer has
 * not yet filled, is recognised. While the reaper holds an entry (BUSY)
 * its delete waits, so the reaper may read the object the cookie names.
 *
 * Also the pure functions of the memory control: the age limit per class,
 * M_min/M_max in bytes (explicit or eq. 8-9) and the memory ramp P_mem
 * (eq. 1) mapped onto the controller's fraction thresholds.
 */
#ifndef OVC_AGERING_H
#define OVC_AGERING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "ovc/types.h"
#include "ovc/rsoca.h"

/* Slot states (low two bits of the state word). */
#define OVC_AR_DEAD 0u	  /* deleted (or never used: state 0) */
#define OVC_AR_LIVE 1u	  /* transaction alive */
#define OVC_AR_BUSY 2u	  /* reaper reads the cookie: delete waits */
#define OVC_AR_WRITING 3u /* a writer is filling the slot */

struct ovc_agering_slot
{
	_Atomic uint64_t state; /* position << 2 | flag */
	int64_t start_ms;		/* start time of the transaction, ms */
	uint64_t cookie;		/* caller's handle (e.g. the cell address) */
};

struct ovc_agering
{
	unsigned cap;			 /* slots, a power of two */
	_Atomic uint64_t head;	 /* next position to hand out */
	uint64_t tail;			 /* oldest position not yet passed (reaper) */
	uint64_t stall_pos;		 /* tail position the reaper waited at */
	unsigned stall_passes;	 /* passes it has waited there */
	_Atomic uint64_t untracked; /* adds that found their slot taken */
	struct ovc_agering_slot slot[];
};

/* Bytes needed for a ring of cap slots (cap a power of two, >= 2), or 0
 * when cap is not acceptable. */
size_t ovc_agering_size(unsigned cap);

/* Initialises r (of ovc_agering_size(cap) bytes) empty. Returns OVC_OK or
 * OVC_EINVAL. */
int ovc_agering_init(struct ovc_agering *r, unsigned cap);

/* Records a transaction that started at start_ms with handle cookie.
 * Returns the token for ovc_agering_del() (> 0), or 0 when the slot was
 * still held by an older live entry (counted in untracked). Lock-free. */
uint64_t ovc_agering_add(struct ovc_agering *r, int64_t start_ms,
		uint64_t cookie);

/* Marks the entry of token dead (the transaction is gone). Waits while the
 * reaper holds it. Token 0 or a reused slot: nothing. Lock-free. */
void ovc_agering_del(struct ovc_agering *r, uint64_t token);

/* Called by ovc_agering_expire() for each expired entry while it is held:
 * copy what is needed out of the object cookie names, quickly. */
typedef void (*ovc_agering_visit_f)(uint64_t cookie, int64_t start_ms,
		void *arg);

/* Reaper (one caller at a time): walks from the oldest entry; dead slots
 * are passed; live entries started at or before cutoff_ms are visited
 * (at most max of them) and passed; stops at the first live entry started
 * after cutoff_ms, or at a slot a writer has not yet filled (passed after
 * 4 waiting calls). A cutoff below every start time just compacts. Returns
 * the number of entries visited. */
unsigned ovc_agering_expire(struct ovc_agering *r, int64_t cutoff_ms,
		unsigned max, ovc_agering_visit_f fn, void *arg);

/* Entries between the oldest not passed and the newest (live, dead or
 * being written): an upper bound of the live ones. */
uint64_t ovc_agering_span(const struct ovc_agering *r);

/* Fills m with the defaults: shared memory as the source, S 8500 bytes,
 * T_I 10 s, T_R 4 s, T_O 1 s, B 2 (004 §IV-C), reaping on. */
void ovc_memctl_defaults(struct ovc_memctl_params *m);

/* Age limit of class c: T_c B in ms (T_I for INVITE, T_R for REGISTER,
 * T_O for in-dialog and other), or -1 for an unknown class. */
int64_t ovc_memctl_age_limit_ms(const struct ovc_memctl_params *m,
		enum ovc_class c);

/* Thresholds in bytes for one source. Explicit mmin_bytes/mmax_bytes win
 * (one alone: the other by eq. 9, M_max = B M_min). Else for OVC_MEM_SHM
 * the fractions r->mmin/r->mmax of shm_total; for OVC_MEM_TM eq. 8-9 from r's E_I, E_D, E_R, E_O and m's
 * T_I, T_R, T_O, S, B. Returns OVC_OK, OVC_EINVAL (NULL) or OVC_ERANGE
 * (thresholds not increasing, or eq. 8 gives 0); outputs only on success. */
int ovc_memctl_thresholds(const struct ovc_memctl_params *m,
		const struct ovc_rsoca_params *r, enum ovc_mem_source src,
		double shm_total, double *mmin_b, double *mmax_b);

/* The memory occupancy to hand the R-SOCA controller, whose ramp runs
 * between the fractions fmin and fmax: in_use bytes against mmin_b/mmax_b
 * mapped so that ramp(result, fmin, fmax) == ramp(in_use, mmin_b,
 * mmax_b) (eq. 1). Below M_min the result is in_use/mmin_b fmin. */
double ovc_memctl_fraction(double in_use, double mmin_b, double mmax_b,
		double fmin, double fmax);

#endif
