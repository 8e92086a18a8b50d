/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * ovc-bound - print g_opt(r) (paper 003 Proposition 1) for plots, or
 * beta from measured CPU costs.
 *
 *   ovc-bound curve CT BETA RMAX   "r g" corners of the curve, 0..RMAX
 *   ovc-bound at CT BETA R              g_opt(R)
 *   ovc-bound beta CPU_FWD CPU_REJ      cost(forward) / cost(reject)
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bound.h"

static void usage(void)
{
	fprintf(stderr, "usage: ovc-bound curve CT BETA RMAX\n"
					"       ovc-bound at CT BETA R\n"
					"       ovc-bound beta CPU_PER_FORWARD CPU_PER_REJECT\n");
}

int main(int argc, char **argv)
{
	double ct, beta, rmax, r, v;

	if(argc == 5 && strcmp(argv[1], "curve") == 0) {
		ct = atof(argv[2]);
		beta = atof(argv[3]);
		rmax = atof(argv[4]);
		if(isnan(bench_gopt(0, ct, beta)) || !(rmax > 0)) {
			usage();
			return 2;
		}
		/* piecewise linear: its corners are the exact curve */
		printf("0 0\n");
		r = ct < rmax ? ct : rmax;
		printf("%.4f %.4f\n", r, bench_gopt(r, ct, beta));
		r = bench_rmax(ct, beta);
		if(r > ct && r < rmax)
			printf("%.4f %.4f\n", r, bench_gopt(r, ct, beta));
		if(rmax > ct)
			printf("%.4f %.4f\n", rmax, bench_gopt(rmax, ct, beta));
		return 0;
	}
	if(argc == 5 && strcmp(argv[1], "at") == 0) {
		v = bench_gopt(atof(argv[4]), atof(argv[2]), atof(argv[3]));
		if(isnan(v))
			return 1;
		printf("%.4f\n", v);
		return 0;
	}
	if(argc == 4 && strcmp(argv[1], "beta") == 0) {
		v = bench_beta(atof(argv[2]), atof(argv[3]));
		if(isnan(v))
			return 1;
		printf("%.3f\n", v);
		return 0;
	}
	usage();
	return 2;
}
