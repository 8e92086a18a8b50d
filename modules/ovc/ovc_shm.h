/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the module's core shared state: one struct in Kamailio shared
 * memory, created in mod_init() before the fork, seen by every process.
 * It holds what is global to every part: the configuration in force (the
 * parameters, the algorithm, the mode), the controller and the plan it
 * sets (the acceptors, f), and the request counters. Each part keeps its
 * own figures in its own shared block, made by its init hook and read
 * through its header (ovc_part.h); the per-second history is
 * ovc_hist.h's.
 *
 * Hot path (ovc_admit): lock-free; atomics only (the acceptor, counters).
 * Slow path (ticker process, RPC): the embedded lock guards the
 * parameters, the controller and reconfig.
 */
#ifndef OVC_SHM_H
#define OVC_SHM_H

#include <stdatomic.h>
#include <stdint.h>

#include "ovc/types.h"
#include "ovc/acceptor.h"
#include "ovc/params.h"
#include "ovc/controller.h"
#include "ovc/alg.h"
#include "ovc/rejmem.h"

#include "core/locking.h"

#include "ovc/row.h"

/* enum ovc_mode and enum ovc_cpu_source: ovc/types.h */

/* One block of counters: [class][verdict]. */
struct ovc_counts
{
	_Atomic uint64_t v[OVC_CLASS_COUNT][OVC_V_COUNT];
};

/* Number of per-second counting slots (a ring indexed by monotonic second;
 * a slot is read and cleared > 0.5 s after its second ended). */
#define OVC_SLOTS OVC_ROW_SLOTS

/* Doubles crossing processes are stored as their bit patterns. */
typedef _Atomic uint64_t ovc_atomic_double;

struct ovc_shm
{
	gen_lock_t lock; /* guards params, ctl, reconfig */

	/* configuration (under lock; hot-path copies are atomics below) */
	struct ovc_params params; /* the parameter registry's values */
	_Atomic int alg;		  /* enum ovc_alg in force */
	_Atomic int mode;		  /* enum ovc_mode */
	_Atomic int dry_run;	  /* 1: decide and count, never reject */
	_Atomic int reconfig;	  /* 1: ticker re-inits the controller */

	/* decision state: the ticker's plan (ovc/plan.h), read by the parts */
	struct ovc_acceptor acc; /* shared deterministic acceptor */
	struct ovc_acceptor acc_arrival; /* at arrival when acc applies at
										dequeue (pi): the guard's cap */
	ovc_atomic_double f;	 /* last f set by the controller */
	ovc_atomic_double rxq_guard_f;	  /* guard's cap on f in force (1: none) */
	ovc_atomic_double f_eff;		  /* f the acceptor applies: min(f, cap) */
	_Atomic uint64_t epochs; /* controller steps taken */
	ovc_atomic_double capacity;		/* learned capacity, INVITEs/s at full
									   CPU (0: not yet; ovc/capest.h) */

	/* counters */
	struct ovc_counts total;		  /* since start or ovc.reset */
	struct ovc_counts slot[OVC_SLOTS]; /* per monotonic second */
	_Atomic uint64_t ev_total[OVC_E_COUNT];			/* events */
	_Atomic uint64_t ev_slot[OVC_SLOTS][OVC_E_COUNT]; /* per second */
	int64_t mono_to_unix;			  /* unix s - monotonic s at start */

	/* recently rejected requests: retransmissions get the same answer */
	struct ovc_rejmem *rejmem;

	/* controller (ticker process only, under lock for RPC reads) */
	struct ovc_ctl *ctl;
};

extern struct ovc_shm *ovc;

/* Allocates and initialises the shared state. Returns 0 or -1. */
int ovc_shm_init(const struct ovc_params *params, enum ovc_alg alg,
		enum ovc_mode mode, int dry_run);

/* Frees the shared state (server shutdown). */
void ovc_shm_destroy(void);

/* Stores/loads a double through its bit pattern. */
void ovc_dstore(ovc_atomic_double *a, double v);
double ovc_dload(ovc_atomic_double *a);

/* Monotonic time, ns (CLOCK_MONOTONIC). */
ovc_time_ns ovc_now_ns(void);

/* Sleeps until t (ns on ovc_now_ns()'s clock), resuming after signals. */
void ovc_sleep_until(ovc_time_ns t);

/* Monotonic second for counting slots (coarse clock, cheap). */
int64_t ovc_now_sec_coarse(void);

/* Counts one offered request of class c and its verdict v (plus, when
 * extra >= 0, the extra column extra, e.g. OVC_V_WOULD_REJECT), all in the
 * same second's slot, so every per-second row balances. Lock-free. */
void ovc_count_offered(enum ovc_class c, enum ovc_verdict v, int extra);

/* Counts one INVITE taken out of the queue (dequeued) and what became of
 * it, v (admitted, rejected or dropped; plus extra when >= 0), in the same
 * second's slot. Not offered again: it was offered when queued. */
void ovc_count_dequeued(enum ovc_verdict v, int extra);

/* Counts one event e, in the totals and in the current second. */
void ovc_count_event(enum ovc_event e);

/* Adds one to a since-start counter and to its twin in the current
 * second's slot (every per-second CSV column counts this way). */
static inline void ovc_count_pair(
		_Atomic uint64_t *total, _Atomic uint64_t *slot)
{
	atomic_fetch_add_explicit(total, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(slot, 1, memory_order_relaxed);
}

/* What a since-start total, total now, added since *last (its value at
 * the last call, which it becomes): an ovc.reset makes a total go back,
 * and it is counted from zero then. One reader per *last. */
static inline uint64_t ovc_total_since(uint64_t total, uint64_t *last)
{
	uint64_t d = total >= *last ? total - *last : total;

	*last = total;
	return d;
}

/* Lowers *m to v when v is smaller. Lock-free. */
static inline void ovc_min_store(_Atomic uint64_t *m, uint64_t v)
{
	uint64_t cur = atomic_load_explicit(m, memory_order_relaxed);

	while(v < cur
			&& !atomic_compare_exchange_weak_explicit(m, &cur, v,
					memory_order_relaxed, memory_order_relaxed))
		;
}

/* Traits of the algorithm in force (ovc/alg.h). Lock-free. */
static inline const struct ovc_alg_traits *ovc_traits_now(void)
{
	return ovc_alg_traits((enum ovc_alg)atomic_load_explicit(
			&ovc->alg, memory_order_relaxed));
}

/* Zeroes the totals (ovc.reset; the history: ovc_hist_reset()). */
void ovc_counts_reset(void);

/* Names for logs, RPC and docs. */
const char *ovc_verdict_name(enum ovc_verdict v);

#endif
