/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - pi's arrival share: the fraction of arriving INVITEs let into
 * pi's paced queue. pi refuses at the queue's output (003 §V); every
 * INVITE refused there was received, copied and queued first, about twice
 * what a refusal at arrival costs. The share lets into the queue a margin
 * more than pi admits at its output and refuses the rest at arrival:
 *   A~    = INVITEs/s admitted at the queue's output, LPF tau
 *   L~    = INVITEs/s that meet the share at arrival, LPF tau (those
 *           offered less those decided before it: refused for their age
 *           or as late, answered from the decision memory; alg_pi.c)
 *   k     = 1 + T_q / tau
 *   f_arr = min(1, max(k A~, 1 / T_q) / L~)        (L~ = 0 or tau = 0: 1)
 * The margin: in one filter time constant the excess (k - 1) A~ tau =
 * T_q A~ is a queue target's worth of INVITEs at the admitted rate, so a
 * queue run empty is back at its target within tau while pi admits A~.
 * At a stationary queue pi then refuses 1 - 1/k of its input at the
 * output (1/3 at T_q 50 ms, tau 0.1 s) and its CPU loop keeps its lever:
 * below that A grows by up to k per lag, above it A shrinks. The floor:
 * at least one INVITE per T_q (q_T >= 1 message), so that an admitted
 * rate filtered down to nothing cannot starve the queue for good.
 * Workers behind the paced drain: under a CPU quota the CPU never reads
 * above its ceiling (C_T 1), so the CPU loop cannot say when the proxy is
 * full, and the margin alone would fill the queue until it expires
 * (t_queue, 2026-11-26). What says it is the drain: pi paces the queue at
 * P = u rho_M, and workers that get the CPU take every slot of it, while
 * workers starved of it leave slots untaken. With
 *   P~    = INVITEs/s of the paced drain, LPF tau
 *   D~    = INVITEs/s that left the queue, LPF tau
 *   behind: P~ > k D~ (the drain short by more than the margin)
 *   m     = k                                       not behind
 *           min(k, max(0, 1 + (T_q / tau)(1 - q / q_T)))   behind
 *   f_arr = min(1, max(m A~, 1 / T_q) / L~)
 * Behind, the margin follows the queue: k when it is empty, 1 at its
 * target, less above it, so that the queue settles at q_T (a wait of T_q)
 * with what enters equal to what the workers drain. Keeping up, the queue
 * loop holds q at q_T whatever enters, and the full margin lets the
 * admitted rate grow until the workers fall behind (a margin that follows
 * the queue there too never grows: bench/RESULTS.md, 2026-11-26).
 * Filters: backward Euler of 1/(1 + tau s), seeded with their first
 * sample (ovc/ewma.h), as pi's own.
 */
#ifndef OVC_PISHARE_H
#define OVC_PISHARE_H

#include "ovc/ewma.h"

struct ovc_pishare
{
	struct ovc_ewma adm;   /* A~, admitted at the queue's output, INVITEs/s */
	struct ovc_ewma arr;   /* L~, met the share at arrival, INVITEs/s */
	struct ovc_ewma paced; /* P~, the paced drain, INVITEs/s */
	struct ovc_ewma out;   /* D~, left the queue, INVITEs/s */
	double margin;		   /* m in force */
	int behind;			   /* 1: the workers were behind the drain */
	double f;			   /* the share in force, [0, 1]; 1 until stepped */
};

/* What pi's queue did over a period (ovc_pishare_step()). */
struct ovc_pishare_queue
{
	double q;		/* queue length at the period's end, INVITEs (>= 0) */
	double q_t;		/* pi's target q_T, INVITEs (> 0; else no target) */
	double paced;	/* the drain pi set for the period, INVITEs (u rho_M
					   dt, >= 0) */
	double drained; /* INVITEs that left the queue in the period (>= 0) */
};

/* The margin k = 1 + tq_s / tau_s (both s, tq_s > 0); INFINITY when
 * tau_s is 0 (no margin derivable: the share stays 1), NAN for a negative
 * or non-finite input. */
double ovc_pishare_margin(double tq_s, double tau_s);

/* Initialises s: share 1, filters unprimed. */
void ovc_pishare_init(struct ovc_pishare *s);

/* The margin m for margin k, T_q tq_s and tau tau_s (s), queue length q
 * and target q_t (INVITEs), behind or not (see above); k when not behind
 * or without a target (q_t <= 0). */
double ovc_pishare_fill_margin(
		double k, double tq_s, double tau_s, double q, double q_t, int behind);

/* One period of dt_s seconds in which offered INVITEs arrived and
 * admitted were admitted at the queue's output (counts, >= 0), for
 * pi's T_q tq_s (> 0) and tau tau_s (>= 0), both s; qs what the queue did
 * (NULL, or a negative paced or drained: not known, the margin is k).
 * Returns OVC_OK (s->f updated, in [0, 1]) or OVC_EINVAL for NaN, inf,
 * negative values, dt_s <= 0 or tq_s <= 0 (nothing changes). */
int ovc_pishare_step(struct ovc_pishare *s, double dt_s, double offered,
		double admitted, const struct ovc_pishare_queue *qs, double tq_s,
		double tau_s);

#endif
