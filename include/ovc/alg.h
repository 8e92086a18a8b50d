/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - what an algorithm is: one descriptor per algorithm, each in its
 * own file (src/alg_<name>.c), listed once in ovc/algs.def. The
 * dispatcher (ovc/controller.h) runs an algorithm only through its
 * descriptor, and the module's glue asks an algorithm's traits, never its
 * id or its private state.
 */
#ifndef OVC_ALG_H
#define OVC_ALG_H

#include "ovc/controller.h"

/* Class c's bit in ovc_alg_traits.controlled. */
#define OVC_CLASS_BIT(c) (1u << (unsigned)(c))

/* What the glue may ask of an algorithm. */
struct ovc_alg_traits
{
	/* classes (OVC_CLASS_BIT) its fraction applies to in mode multi;
	 * 0: it decides nothing (none) */
	unsigned controlled;
	/* works on the in-core INVITE queue of 003 §V: its length is the
	 * signal (bbc, sired) or its drain is paced (pi) */
	int queued;
	/* paces the in-core queue (pi): the queue is measured in messages,
	 * its fraction applies at the queue's output and at arrival only the
	 * guard's cap, and the queueing time it targets is no overload */
	int paces_queue;
	/* the receive-queue guard caps its fraction: it sees overload only
	 * once the proxy works on it (the CPU-driven ones and pi) */
	int guarded;
	/* R-SOCA's parts (004): its own reject reply (500 + Retry-After),
	 * in-dialog DoS limits and per-class burst budgets, and the
	 * transactions tm tracks for its memory control */
	int own_reply;
	int dialog_limits;
	int tracks_transactions;
};

/* One algorithm. The functions get a struct ovc_ctl whose alg and p are
 * set; they use only c->u.<own name> and c->p. */
struct ovc_alg_desc
{
	const char *name; /* user-facing name, as in ovc/algs.def */
	struct ovc_alg_traits traits;
	/* Builds the state from c->p. Returns OVC_OK or OVC_ERANGE. */
	int (*init)(struct ovc_ctl *c);
	/* n was just built by init() from new parameters: carries over from
	 * old (same algorithm, old parameters) what the algorithm allows (f,
	 * averages, windows, integrators). Returns OVC_OK or OVC_ERANGE. */
	int (*carry)(struct ovc_ctl *n, const struct ovc_ctl *old);
	/* One step over dt seconds with measurement m into *o (fully
	 * written). Returns OVC_OK, or OVC_EINVAL for an unusable m with the
	 * state untouched. */
	int (*step)(struct ovc_ctl *c, const struct ovc_measure *m, double dt,
			struct ovc_output *o);
	/* Sets f back to f after a step that lowered it, keeping what the
	 * step measured (ovc_ctl_step(), while the age limit refuses under a
	 * CPU quota); NULL: f does not come from the CPU alone, never held */
	void (*hold)(struct ovc_ctl *c, double f);
	/* Back to accepting everything (ovc_ctl_release()); NULL: nothing
	 * to release. */
	void (*release)(struct ovc_ctl *c);
	/* Epoch length, ms, from its parameters. */
	unsigned (*epoch_ms)(const struct ovc_params *p);
	/* Drain rate of the in-core queue output o asks for, INVITEs/s;
	 * NULL: as fast as possible. */
	double (*drain_rate)(const struct ovc_ctl *c, const struct ovc_output *o);
	/* Queueing time it keeps by design now, s; NULL: 0. */
	double (*queue_target_s)(const struct ovc_ctl *c);
	/* The parameter (ovc/params.h) that sets the queueing time it keeps,
	 * s, which queue_target_s() may bound; NULL: none. */
	const char *queue_target_param;
	/* The CPU occupancy it steers to with parameters p, fraction (0, 1];
	 * NULL: it steers no CPU occupancy. */
	double (*cpu_target)(const struct ovc_params *p);
	/* 1 when its output o holds down an overload that the waits no
	 * longer show (ovc_ctl_hides_overload()); NULL: never. */
	int (*hides_overload)(const struct ovc_ctl *c, const struct ovc_output *o);
	/* Takes the measured capacity, INVITEs/s at full CPU; NULL: unused. */
	void (*set_capacity)(struct ovc_ctl *c, double rho);
};

/* The descriptor of algorithm a, or NULL for an unknown a. */
const struct ovc_alg_desc *ovc_alg_desc(enum ovc_alg a);

/* The traits of algorithm a (an unknown a: those of none). */
const struct ovc_alg_traits *ovc_alg_traits(enum ovc_alg a);

/* The CPU occupancy algorithm a steers to with parameters p, fraction
 * (0, 1] (its descriptor's cpu_target); 0: a steers none (or unknown). */
double ovc_alg_cpu_target(enum ovc_alg a, const struct ovc_params *p);

/* Output of an algorithm that yields one fraction f: f, alpha = 1 - f,
 * p_reject[invite] = 1 - f, u = -1, no burst limit, the rest 0. For the
 * descriptors. */
void ovc_output_from_f(struct ovc_output *o, double f);

/* A usable measurement: finite and >= 0. For the descriptors. */
int ovc_meas_ok(double v);

/* Descriptors, one per line of ovc/algs.def. */
#define OVC_ALG_DEF(id, name, state, params) \
	extern const struct ovc_alg_desc ovc_alg_##name;
#include "ovc/algs.def"
#undef OVC_ALG_DEF

#endif
