/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * bound.c - g_opt(r) of paper 003 Proposition 1, and beta.
 */

#include <math.h>

#include "bound.h"

double bench_gopt(double r, double ct, double beta)
{
	if(isnan(r) || isnan(ct) || isnan(beta) || r < 0 || ct <= 0 || ct > 1)
		return NAN;
	if(r < ct)
		return r;
	if(beta <= 1)
		return 0;
	if(r < beta * ct)
		return (ct * beta - r) / (beta - 1);
	return 0;
}

double bench_rmax(double ct, double beta)
{
	if(isnan(ct) || isnan(beta) || ct <= 0 || ct > 1)
		return NAN;
	return beta <= 1 ? ct : ct * beta;
}

double bench_beta(double cpu_per_forward, double cpu_per_reject)
{
	if(!(cpu_per_forward > 0) || !(cpu_per_reject > 0))
		return NAN;
	return cpu_per_forward / cpu_per_reject;
}
