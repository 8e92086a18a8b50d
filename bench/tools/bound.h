/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * bound.h - the best goodput any local overload controller can reach
 * (paper 003, Proposition 1, eq. 2-5), and beta from measured CPU costs.
 */

#ifndef BENCH_BOUND_H
#define BENCH_BOUND_H

/* g_opt(r) for normalized load r = R / rho_M, CPU target ct (0..1] and
 * beta = cost(forward) / cost(reject):
 *   r               for r < ct
 *   (ct*beta - r) / (beta - 1)   for ct <= r < beta*ct
 *   0               beyond.
 * beta <= 1 (rejecting no cheaper than forwarding) leaves no overload
 * zone: 0 for r >= ct. NAN for a negative r or ct outside (0, 1]. */
double bench_gopt(double r, double ct, double beta);

/* r_max = ct * beta: the highest load at which CPU can stay at ct */
double bench_rmax(double ct, double beta);

/* beta from the CPU seconds spent per forwarded call and per rejected
 * call (paper 003 Fig. 2: ratio of the slopes). NAN if either is <= 0. */
double bench_beta(double cpu_per_forward, double cpu_per_reject);

#endif /* BENCH_BOUND_H */
