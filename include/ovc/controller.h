/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - one interface over every algorithm. The module, the simulator and
 * the tests step controllers only through this: fill a measurement, call
 * ovc_ctl_step() once per epoch, apply the output.
 */
#ifndef OVC_CONTROLLER_H
#define OVC_CONTROLLER_H

#include "ovc/types.h"
#include "ovc/params.h"

/* What the caller measured over the last epoch. Fields a controller does
 * not use are ignored; unknown values are given as negative (ignored). */
struct ovc_measure
{
	double dt_s;		   /* epoch length actually elapsed, seconds (> 0) */
	double cpu;			   /* CPU occupancy over the epoch spent on
							  admitted work, fraction of capacity */
	double mem;			   /* memory occupancy, fraction of the memory budget */
	double queue_len;	   /* INVITE queue length now, messages */
	double queue_cap;	   /* INVITE queue capacity, messages (0: no queue) */
	double queue_delay_s;  /* mean queueing delay over the epoch, seconds */
	double offered[OVC_CLASS_COUNT];  /* arrivals per class over the epoch */
	double admitted[OVC_CLASS_COUNT]; /* admitted per class over the epoch */
	/* Added for rsoca (zero when not counted): */
	double dlg[OVC_DLG_COUNT]; /* in-dialog arrivals per type over the epoch */
	double invite_ok;		   /* initial INVITEs answered 2xx over the epoch */
	/* Added for pi (zero when not measured): */
	double cpu_reject; /* CPU occupancy over the epoch spent refusing,
						  fraction of capacity (not in cpu) */
	double queue_in;   /* INVITEs that entered the queue of queue_len
						  over the epoch; < 0: not counted (pi then
						  takes offered[invite]) */
	double queue_out;  /* INVITEs that left it over the epoch (taken by
						  a worker: admitted, refused or expired); < 0:
						  not counted (pi's share then keeps its
						  margin, ovc/pishare.h) */
	/* Added for the CPU-driven loops (0 when not counted): */
	double age_refused; /* initial INVITEs refused over the epoch for
						   their wait in the receive queue, under a CPU
						   quota (ovc_ctl_step() holds f then) */
	double queue_expiry_s; /* the in-core queue's expiry in force, s:
							  an INVITE that waited longer is refused at
							  dequeue; 0: none, or no queue (pi's T_q,
							  ovc_pi_tq()) */
	double stall_ms;	/* the CPU quota's stall per period, ms; 0: no quota
						(pi's C_T, ovc_pi_c_target()) */
	double share_skipped; /* of offered[invite], those decided before pi's
							 arrival share could apply (refused for their
							 age or as late, answered from the decision
							 memory as retransmissions, or routed past an
							 idle queue); 0: none, or not counted */
};

/* What a controller decided. */
struct ovc_output
{
	double f;	  /* acceptance fraction for controlled classes, [0, 1] */
	double u;	  /* queue drain rate, normalised to rho_M (pi); < 0: as
					 fast as possible */
	double alpha; /* reject ratio (pi: CPU loop), [0, 1]; f == 1 - alpha
					 there (others: 1 - f) */
	double p_reject[OVC_CLASS_COUNT]; /* per-class reject probability (rsoca;
										 others: 1 - f on controlled classes) */
	/* Added for rsoca (others: 0 and -1): */
	double p_drop[OVC_DLG_COUNT];		 /* DoS drop probability per in-dialog
											type (re-INVITE: reject instead) */
	double burst_limit[OVC_CLASS_COUNT]; /* max arrivals per class per epoch
											before the excess is rejected;
											-1: none */
	double p_cpu; /* rsoca: the CPU part of its reject probability */
	double p_mem; /* rsoca: the memory part (others: both 0) */
	double f_arrival; /* pi: share of arrivals let into its paced queue,
						 [0, 1] (ovc/pishare.h); others: 1 */
};

/* State for any controller: a tagged union of plain values, no pointers,
 * so it can be placed in shared memory by value. Fields are private. */
struct ovc_ctl
{
	enum ovc_alg alg;		 /* algorithm in force */
	struct ovc_params p;	 /* parameters in force (copy) */
	struct ovc_output last;	 /* last decision */
	ovc_time_ns last_now;	 /* time of the last step, ns */
	int stepped;			 /* last_now is valid */
	union
	{
#define OVC_ALG_DEF(id, name, state, params) state name;
#include "ovc/algs.def"
#undef OVC_ALG_DEF
	} u;					 /* per-algorithm state */
};

/* Returns sizeof(struct ovc_ctl) so callers can place it in shared memory. */
unsigned long ovc_ctl_size(void);

/* Initialises c for algorithm alg with the parameters in p (copied).
 * Returns OVC_OK, OVC_EINVAL or OVC_ERANGE (c untouched on failure). */
int ovc_ctl_init(struct ovc_ctl *c, enum ovc_alg alg,
		const struct ovc_params *p);

/* Re-reads parameters without resetting the controller's state where the
 * algorithm allows it. Returns as ovc_ctl_init(). */
int ovc_ctl_reconfigure(struct ovc_ctl *c, const struct ovc_params *p);

/* Epoch length (ms) the algorithm wants by its paper or its parameter. */
unsigned ovc_ctl_epoch_ms(const struct ovc_ctl *c);

/* Returns the algorithm c runs. */
enum ovc_alg ovc_ctl_alg(const struct ovc_ctl *c);

struct ovc_alg_traits;

/* The traits (ovc/alg.h) of the algorithm c runs. */
const struct ovc_alg_traits *ovc_ctl_traits(const struct ovc_ctl *c);

/* One control step at time now with measurement m; fills *out. Returns
 * OVC_OK, or OVC_EINVAL when m is unusable (out then repeats the last
 * decision). Never puts NaN or inf into *out. An algorithm whose f comes
 * from the CPU alone (occ, occupancy, aro: a hold in its descriptor) does
 * not lower f in an epoch with m->age_refused > 0 (its measurements go
 * on; f may rise): under a CPU quota the
 * CPU reads full whenever work waits at a period's start, so the loop
 * would go on lowering f while the age limit already refuses the excess
 * at the same cost, and a lower f empties the queue the proxy works from
 * (each call then costs more: bench/RESULTS.md). */
int ovc_ctl_step(struct ovc_ctl *c, const struct ovc_measure *m,
		ovc_time_ns now, struct ovc_output *out);

/* Gives c the capacity the proxy was measured to have (rho, INVITEs/s
 * at full CPU; ovc/capest.h): pi uses it as rho_M when pi.rho_m is 0. */
void ovc_ctl_set_capacity(struct ovc_ctl *c, double rho);

/* Drain rate of the in-core queue that output o of c asks for, INVITEs/s
 * (pi: u rho_M); -1: as fast as possible (every other algorithm). */
double ovc_ctl_drain_rate(const struct ovc_ctl *c, const struct ovc_output *o);

/* Queueing time, s, c keeps in the in-core queue by design (pi: T_q in
 * force, ovc_pi_tq()),
 * which is therefore no evidence of overload; 0 for the others. */
double ovc_ctl_queue_target_s(const struct ovc_ctl *c);

/* 1 when c's output o holds down an overload that the proxy's waits no
 * longer show, else 0. pi keeps its queue at T_q by design, so once it
 * controls an overload no wait exceeds its target: its refusals are then
 * the evidence, while it refuses, at arrival and at the queue's output
 * together, more than twice the CPU headroom it keeps (1 - f_arrival
 * (1 - alpha) > 2 (1 - C_T): the offered work exceeds the whole CPU by
 * that headroom again). The others: 0. */
/* The queueing time, s, c's parameters in force ask it to keep (the
 * value of the parameter its descriptor names, e.g. pi.tq), which
 * ovc_ctl_queue_target_s() may bound below it; *param (if not NULL) gets
 * that parameter's name. 0 and NULL when c keeps no queueing target. */
double ovc_ctl_queue_target_asked_s(const struct ovc_ctl *c, const char **param);

int ovc_ctl_hides_overload(const struct ovc_ctl *c, const struct ovc_output *o);

/* Releases c's decision while the proxy shows no overload (ovc/onset.h):
 * the acceptance fraction goes back to 1 and what would drive it down
 * again at once is cleared (occ/occupancy/aro f, bbc's overload state,
 * rsoca's smoothed P, pi's CPU-loop integrator and alpha), while the
 * measurements' filters and windows, pi's queue loop and rsoca's DoS
 * state are kept. sired's f is a function of its averaged queue and is
 * left as it is. */
void ovc_ctl_release(struct ovc_ctl *c);

/* Last output without stepping. */
void ovc_ctl_last(const struct ovc_ctl *c, struct ovc_output *out);

#endif
