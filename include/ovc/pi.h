/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the dual PI controller of 003 §IV, discretised for a period T
 * (003 §V: 10 ms) with clamping anti-windup.
 * Queue loop (eq. 7): r~ = LPF_tau(r), r = arrivals / (T rho_M),
 *   q_T = T_q rho_M r~,  e_q = q - q_T  (the sign that drains a queue
 *   above its target; 003 writes q_T - q for the same loop),
 *   u = (K_pq e_q + K_iq sum(e_q T)) / rho_M, saturated to [0, u_max].
 * CPU loop (eq. 8): C~ = LPF_tau_c(C), e_c = C~ - C_T,
 *   alpha = K_pc e_c + K_ic sum(e_c T), saturated to [0, 1].
 * While an output is saturated its integrator moves only as far as puts
 * the output exactly on the limit, never further out, and it is itself
 * bounded by the output range (no windup).
 * LPF: backward Euler of 1/(1 + tau s); both filters are seeded with their
 * first sample.
 */
#ifndef OVC_PI_H
#define OVC_PI_H

#include "ovc/pi-t.h"

/* rho_M a learned pi starts from, INVITEs/s. */
#define OVC_PI_RHO_M_START 1000.0

/* C_T of 003 (a dedicated CPU), and the derived one without a quota. */
#define OVC_PI_C_TARGET 0.9

/* C_T in force for parameters p, fraction: p->c_target when > 0; else 1
 * when the proxy's CPU is capped by a quota (quota != 0: the cgroup is the
 * ceiling, and a proxy held below its quota is never throttled, so it
 * wakes for each datagram and serves fewer calls than at its quota,
 * bench/RESULTS.md), OVC_PI_C_TARGET without one. */
double ovc_pi_c_target(const struct ovc_pi_params *p, int quota);

/* Sets the C_T in force from whether a CPU quota caps the proxy (quota
 * != 0; ovc_pi_c_target()). */
void ovc_pi_set_quota(struct ovc_pi *s, int quota);

/* Sets the learned capacity rho (INVITEs/s at full CPU, > 0) as rho_M
 * when pi.rho_m is 0; a configured rho_M stays. The queue integrator is
 * kept within its new range. Returns OVC_OK or OVC_EINVAL (s unchanged). */
int ovc_pi_set_capacity(struct ovc_pi *s, double rho);

/* Share of the queue's expiry the wait pi keeps may take at most: pi
 * holds the wait near T_q on average, its peaks about twice that
 * (bench/RESULTS.md, "pi's target wait and the queue's expiry"). */
#define OVC_PI_TQ_OF_EXPIRY 0.5

/* T_q in force for parameters p and the in-core queue's expiry expiry_s
 * (s; <= 0 or not finite: none), s: p->tq, at most OVC_PI_TQ_OF_EXPIRY of
 * the expiry, so that the wait pi keeps is not the wait at which the
 * queue refuses what it kept (pi.tq 0.2 s against an expiry of 180 ms set
 * up 6 calls/s in time at 8x). */
double ovc_pi_tq(const struct ovc_pi_params *p, double expiry_s);

/* Sets the in-core queue's expiry in force (s; <= 0 or not finite: none)
 * and with it the T_q in force (ovc_pi_tq_now()). */
void ovc_pi_set_queue_expiry(struct ovc_pi *s, double expiry_s);

/* The T_q in force for s, s: ovc_pi_tq() of its parameters and the
 * queue's expiry it was last given. */
double ovc_pi_tq_now(const struct ovc_pi *s);

/* Fills p with 003's tuned gains and §IV-V constants. */
void ovc_pi_defaults(struct ovc_pi_params *p);

/* Initialises s with u = 0, alpha = 0, empty integrators and an arrival
 * share of 1. Returns OVC_OK or OVC_ERANGE. */
int ovc_pi_init(struct ovc_pi *s, const struct ovc_pi_params *p);

/* Changes gains and targets keeping filters and integrators (clamped to
 * the new ranges). Returns as ovc_pi_init(). */
int ovc_pi_reconfigure(struct ovc_pi *s, const struct ovc_pi_params *p);

/* One period of dt_s seconds: cpu (fraction of capacity, as measured: may
 * exceed 1 over a short window; bounded by OVC_CPU_READING_MAX, filtered,
 * then clamped to [0, 1]), queue
 * length q (messages, >= 0) now, arrivals INVITEs that entered the queue
 * in the period (003: r, the queue's incoming rate).
 * Returns OVC_OK (s->u and s->alpha updated) or OVC_EINVAL for NaN, inf,
 * negative values or dt_s <= 0 (nothing changes). */
int ovc_pi_step(struct ovc_pi *s, double dt_s, double cpu, double q,
		double arrivals);

#endif
