/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - from a controller's output to what the acceptors apply: the one
 * rule the module's ticker and the simulator share, so that the
 * simulator's curves are the module's.
 */
#ifndef OVC_PLAN_H
#define OVC_PLAN_H

#include "ovc/alg.h"

/* What the acceptors and the queue's drain apply until the next plan. */
struct ovc_plan
{
	double f_accept;  /* the controller's acceptor: at arrival, or at the
						 queue's output for an algorithm that paces the
						 queue, [0, 1] */
	double f_arrival; /* the arrival acceptor in front of a paced queue
						 (the controller's arrival share, capped by the
						 guard's cap); 1 otherwise */
	double guard_cap; /* the guard's cap in force, 1: none */
	double drain;	  /* queue drain rate, INVITEs/s; -1: free */
};

/* The plan for an algorithm with traits t whose controller asks fraction
 * f and, in front of a paced queue, arrival share share (ovc_output's
 * f_arrival; both clamped to [0, 1], NaN: 1) and drain rate drain
 * (INVITEs/s, < 0: free), given the overload evidence (overloaded: 0 or
 * 1) and the receive-queue guard's cap (ovc_rxq_guard_cap(), 1: none).
 * Without overload nothing is refused and the drain is free; with it a
 * guarded algorithm's fraction is capped at arrival, and a paced queue's
 * arrivals get min(share, cap). */
void ovc_plan_make(const struct ovc_alg_traits *t, double f, double share,
		double drain, int overloaded, double guard_cap, struct ovc_plan *pl);

/* Caps the plan's admission at fraction cap (the shared-memory guard's,
 * ovc/memguard.h; clamped to [0, 1], NaN: 1), overload evident or not:
 * the front acceptor (at arrival: f_accept, or f_arrival in front of a
 * paced queue) admits at most cap of the offered calls. */
void ovc_plan_cap(const struct ovc_alg_traits *t, double cap,
		struct ovc_plan *pl);

#endif
