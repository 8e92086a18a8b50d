/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - offered-load profiles, as the testbed's campaigns (001 §6.4),
 * in normalised load r (calls/s divided by the capacity rho_M):
 *   constant:R              R from t = 0
 *   instant:R[:T0[:BASE]]   BASE (default 0.5) until T0 s (default 10), then R
 *   gradual:PEAK[:RAMP[:HOLD]]  0 -> PEAK linearly over RAMP s (default 30),
 *                           PEAK for HOLD s (default 30), back to 0 over RAMP
 *   steps:T0=R0,T1=R1,...   R_i from T_i s on (T0 must be 0), up to 16 steps
 *   bench:KIND:PEAK[:DUR[:WARM]]  exactly bench/testbed/profile.sh's per-second
 *                           rates (KIND constant, instant or gradual; DUR
 *                           default 20 s, WARM 5 s at 0.3, as bench/runners/run.sh)
 */
#ifndef SIM_PROFILE_H
#define SIM_PROFILE_H

#include <stddef.h>

#define SIM_PROF_MAX_STEPS 16

enum sim_prof_kind
{
	SIM_PROF_CONSTANT = 0,
	SIM_PROF_INSTANT,
	SIM_PROF_GRADUAL,
	SIM_PROF_STEPS,
	SIM_PROF_BENCH,
};

/* bench/testbed/profile.sh's shapes. */
enum sim_bench_kind
{
	SIM_BENCH_CONSTANT = 0,
	SIM_BENCH_INSTANT,
	SIM_BENCH_GRADUAL,
};

struct sim_profile
{
	enum sim_prof_kind kind;
	double peak;				 /* R or PEAK, normalised load */
	double base;				 /* instant: load before t_on */
	double t_on;				 /* instant: step time, s */
	double ramp;				 /* gradual: ramp duration, s */
	double hold;				 /* gradual: hold duration, s */
	enum sim_bench_kind bkind;	 /* bench: shape */
	int bdur;					 /* bench: DURATION, s */
	int bwarm;					 /* bench: WARMUP, s (at 0.3) */
	int nsteps;					 /* steps: entries used */
	double st[SIM_PROF_MAX_STEPS]; /* steps: start times, s, increasing */
	double sr[SIM_PROF_MAX_STEPS]; /* steps: loads */
};

/* Sets p to constant:r. */
void sim_profile_constant(struct sim_profile *p, double r);

/* Parses spec (syntax above) into p. Returns 0, or -1 with a message in
 * err (p then unspecified). */
int sim_profile_parse(
		struct sim_profile *p, const char *spec, char *err, size_t errlen);

/* Normalised offered load at time t (s). */
double sim_profile_rate(const struct sim_profile *p, double t);

/* Largest load the profile ever offers (bound for thinning). */
double sim_profile_max(const struct sim_profile *p);

/* Time (s) from which the load is 0 for ever, or INFINITY. */
double sim_profile_end(const struct sim_profile *p);

/* Writes the profile back in the parse syntax. */
void sim_profile_format(const struct sim_profile *p, char *buf, size_t len);

#endif
