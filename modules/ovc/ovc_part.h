/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - one lifecycle for the module's parts (the sampler, the overload
 * onset, the in-core queue, the receive queue, R-SOCA, the tm reaper).
 * Each part is one struct ovc_part of hooks; a NULL hook means nothing to
 * do. ovc_part.c lists the parts in order; mod_init/child_init/
 * mod_destroy, the ticker and the RPC call every part's hook through it,
 * in that order, and never a part by name.
 */
#ifndef OVC_PART_H
#define OVC_PART_H

#include <stdint.h>

#include "core/rpc.h"

#include "ovc/controller.h"
#include "ovc/types.h"

#include "ovc/row.h"

struct ovc_rxq_params;

/* What the ticker hands its parts at each wake-up (ticker process). */
struct ovc_tick
{
	ovc_time_ns now;					/* time of the wake-up, ns */
	ovc_time_ns epoch;					/* control epoch in force, ns */
	const struct ovc_rxq_params *rxq;	/* rxq.* parameters in force */
	double queue_target_s; /* in-core queueing the algorithm keeps, s */
};

struct ovc_part
{
	const char *name; /* for logs */
	/* mod_init, after the shared state and the statistics, with the
	 * configuration's parameters p: 0 or -1 (the module does not start;
	 * every part's destroy is called) */
	int (*init)(const struct ovc_params *p);
	/* processes the part forks (register_procs), 0 or more */
	int (*procs)(void);
	/* child_init(PROC_INIT) (sockets open, before the fork) and
	 * child_init(PROC_MAIN) (after the ticker is forked): 0 or -1 */
	int (*child_init)(int rank);
	/* ticker, once when it starts, after its first sample */
	void (*start)(const struct ovc_tick *t);
	/* ticker, each receive-queue sample (rxq.sample_ms, and before each
	 * epoch) */
	void (*sample)(const struct ovc_tick *t);
	/* ticker, each epoch before the controller's step: its figures into
	 * m (zeroed before the first part, but for the epoch's offered and
	 * admitted counts, already in) */
	void (*measure)(const struct ovc_tick *t, struct ovc_measure *m);
	/* ticker, each epoch after a successful step of ctl (ovc's lock
	 * held): acts on the controller's output out for measurement m */
	void (*apply)(const struct ovc_ctl *ctl, const struct ovc_measure *m,
			const struct ovc_output *out);
	/* ticker, at the end of second sec: the figures in force then into
	 * its row */
	void (*second_end)(
			const struct ovc_tick *t, int64_t sec, struct ovc_row *row);
	/* ticker, closing second sec (ended more than a second ago): its
	 * counts into row, its slots cleared */
	void (*second_close)(int64_t sec, struct ovc_row *row);
	/* ovc.stats: its block(s) added to the reply structure th */
	void (*stats)(rpc_t *rpc, void *ctx, void *th);
	/* ovc.reset: zeroes its totals */
	void (*reset)(void);
	/* mod_destroy (and a failed mod_init): frees what init made; safe
	 * when init did not run or failed */
	void (*destroy)(void);
};

/* The parts. Each is defined beside the header it serves: in its own
 * ovc_X_part.c beside ovc_X.c (queue, rxq, sampler, tmreap, and nexthop's
 * part network), or in ovc_X.c when the part is that file's job (onset,
 * rsoca, kstage, fair, fastpath). */
extern const struct ovc_part ovc_part_sampler;
extern const struct ovc_part ovc_part_memguard;
extern const struct ovc_part ovc_part_onset;
extern const struct ovc_part ovc_part_queue;
extern const struct ovc_part ovc_part_rxq;
extern const struct ovc_part ovc_part_rsoca;
extern const struct ovc_part ovc_part_tmreap;
extern const struct ovc_part ovc_part_network;
extern const struct ovc_part ovc_part_kstage;
extern const struct ovc_part ovc_part_fair;
extern const struct ovc_part ovc_part_fastpath;

/* The parts, in order, NULL-terminated (ovc_part.c). */
extern const struct ovc_part *const ovc_parts[];

/* Every part's init in order. Returns 0, or -1 after destroying them all
 * (the failing part logged why). */
int ovc_parts_init(const struct ovc_params *p);

/* Sum of every part's procs(). */
int ovc_parts_procs(void);

/* Every part's child_init(rank) in order. Returns 0 or -1 (the first
 * failure; the parts after it are not called). */
int ovc_parts_child_init(int rank);

/* The ticker's and the RPC's calls: every part's hook in order. */
void ovc_parts_start(const struct ovc_tick *t);
void ovc_parts_sample(const struct ovc_tick *t);
void ovc_parts_measure(const struct ovc_tick *t, struct ovc_measure *m);
void ovc_parts_apply(const struct ovc_ctl *ctl, const struct ovc_measure *m,
		const struct ovc_output *out);
void ovc_parts_second_end(
		const struct ovc_tick *t, int64_t sec, struct ovc_row *row);
void ovc_parts_second_close(int64_t sec, struct ovc_row *row);
void ovc_parts_stats(rpc_t *rpc, void *ctx, void *th);
void ovc_parts_reset(void);

/* Every part's destroy, in order (a part may still use one after it:
 * the queue answers its INVITEs with R-SOCA's reply). */
void ovc_parts_destroy(void);

#endif
