/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - sweep mode: normalised goodput against normalised offered
 * load (constant profile) for a set of algorithms, next to g_opt(r) of 003
 * Proposition 1.
 */
#ifndef SIM_SWEEP_H
#define SIM_SWEEP_H

#include <stdio.h>

#include "sim.h"

#define SIM_SWEEP_MAX 32

struct sim_sweep
{
	enum ovc_alg alg[SIM_SWEEP_MAX]; /* algorithms, columns */
	int nalg;
	double load[SIM_SWEEP_MAX]; /* normalised loads r, rows */
	int nload;
	double ct;					/* C_T for g_opt */
};

/* Parses "a,b,c" algorithm names into s. Returns 0 or -1 (unknown name,
 * message on stderr). */
int sim_sweep_parse_algs(struct sim_sweep *s, const char *list);

/* Parses "0.5,1,1.5" or "FROM:TO:STEP" into s. Returns 0 or -1. */
int sim_sweep_parse_loads(struct sim_sweep *s, const char *list);

/* Runs every (algorithm, load) pair from base (profile replaced by a
 * constant load) and prints "r,g_opt,<alg>..." rows of normalised goodput
 * to out; when lng is not NULL, one line per run with the other metrics.
 * An algorithm whose controller cannot be initialised is skipped with a
 * notice on stderr and printed as "nan". Returns 0. */
int sim_sweep_run(const struct sim_sweep *s, const struct sim_cfg *base,
		FILE *out, FILE *lng);

/* Normalised goodput of one constant-load run (NAN when alg cannot be
 * initialised); *res gets the whole result when res is not NULL. */
double sim_sweep_point(const struct sim_cfg *base, enum ovc_alg alg, double r,
		struct sim_result *res);

#endif
