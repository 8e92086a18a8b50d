/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-es-tune - tunes controller gains with the Extremum Seeking of 003
 * §VI on the simulator (or the testbed through --testbed), printing one
 * line per iteration and the best point found.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "es.h"
#include "escost.h"

static void usage(FILE *f)
{
	fprintf(f,
			"usage: ovc-es-tune [options]\n"
			"  --init a,b,c,d     theta(0) (003 Table I run 1: 12,12,20,130)\n"
			"  --names n1,n2,..   parameters (pi.kpc,pi.kic,pi.kpq,pi.kiq)\n"
			"  --iters N          ES iterations (100)\n"
			"  --loads LIST       step loads R_l (1.58,2.10,2.37,2.63)\n"
			"  --tf S             experiment length (120)\n"
			"  --reps M           repetitions (seeds) per load (1)\n"
			"  --eta X --xi Y     cost weights (1, 2)\n"
			"  --gamma G[,G..]    integrator steps, one or per parameter (10)\n"
			"  --amp A[,A..]      perturbation amplitudes (1)\n"
			"  --omega W[,W..]    pulsations (2.82,2.54,2.28,2.06)\n"
			"  --h H --kaw K      high-pass pole (0.5), anti-windup gain "
			"(0.003)\n"
			"  --testbed CMD      measure on the testbed (see escost.c)\n"
			"%s",
			sim_cli_usage_text);
}

static int parse_list(const char *s, double *v, int max)
{
	char *end;
	int n = 0;

	while(*s && n < max) {
		v[n] = strtod(s, &end);
		if(end == s)
			return -1;
		n++;
		s = end;
		if(*s == ',')
			s++;
		else if(*s)
			return -1;
	}
	return n;
}

int main(int argc, char **argv)
{
	struct sim_cfg cfg;
	struct sim_esc esc;
	struct sim_es_params ep;
	struct sim_es es;
	double th0[SIM_ES_MAX_DIM] = {12, 12, 20, 130}, best[SIM_ES_MAX_DIM];
	double lst[SIM_ES_MAX_DIM], j, g, jbest = INFINITY;
	char names[256] = "";
	const char *name = "init", *arg;
	int iters = 100, i, k, n, rc;

	sim_cfg_defaults(&cfg);
	cfg.alg = OVC_ALG_PI;
	sim_es_defaults(&ep);
	sim_esc_defaults(&esc, &cfg);
	for(i = 1; i < argc; i++) {
		if(!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
		if(strncmp(argv[i], "--", 2) || i + 1 >= argc) {
			usage(stderr);
			return 2;
		}
		name = argv[i] + 2;
		arg = argv[++i];
		if(!strcmp(name, "init")) {
			if(parse_list(arg, th0, SIM_ES_MAX_DIM) < 1)
				goto bad;
		} else if(!strcmp(name, "names")) {
			char *tok, *save = NULL;

			snprintf(names, sizeof(names), "%s", arg);
			esc.n = 0;
			for(tok = strtok_r(names, ",", &save); tok;
					tok = strtok_r(NULL, ",", &save)) {
				if(esc.n == SIM_ESC_MAX_PARAMS || !ovc_param_find(tok))
					goto bad;
				esc.name[esc.n++] = tok;
			}
		} else if(!strcmp(name, "iters")) {
			iters = atoi(arg);
		} else if(!strcmp(name, "loads")) {
			n = parse_list(arg, esc.load, SIM_ESC_MAX_LOADS);
			if(n < 1)
				goto bad;
			esc.nload = n;
		} else if(!strcmp(name, "tf")) {
			if(sim_cli_num(arg, &esc.tf) < 0 || esc.tf <= 0)
				goto bad;
		} else if(!strcmp(name, "reps")) {
			esc.m = atoi(arg);
			if(esc.m < 1)
				goto bad;
		} else if(!strcmp(name, "eta")) {
			if(sim_cli_num(arg, &esc.eta) < 0)
				goto bad;
		} else if(!strcmp(name, "xi")) {
			if(sim_cli_num(arg, &esc.xi) < 0)
				goto bad;
		} else if(!strcmp(name, "gamma") || !strcmp(name, "amp")
				  || !strcmp(name, "omega")) {
			double *dst = name[0] == 'g'   ? ep.gamma
						  : name[0] == 'a' ? ep.alpha
										   : ep.omega;

			n = parse_list(arg, lst, SIM_ES_MAX_DIM);
			if(n < 1)
				goto bad;
			for(k = 0; k < SIM_ES_MAX_DIM; k++)
				dst[k] = lst[k < n ? k : n - 1];
		} else if(!strcmp(name, "h")) {
			if(sim_cli_num(arg, &ep.h) < 0 || ep.h >= 1)
				goto bad;
		} else if(!strcmp(name, "kaw")) {
			if(sim_cli_num(arg, &ep.kaw) < 0)
				goto bad;
		} else if(!strcmp(name, "testbed")) {
			esc.testbed = arg;
		} else {
			rc = sim_cli_apply(&cfg, name, arg);
			if(rc <= 0) {
				if(!rc)
					fprintf(stderr, "ovc-es-tune: unknown option --%s\n",
							name);
				return 2;
			}
		}
	}
	esc.base = cfg;
	ep.n = esc.n;
	if(sim_es_init(&es, &ep, th0) < 0)
		goto bad;
	printf("# ES of 003 §VI-A: alg %s, capacity %g, beta %.2f, tf %g s, "
		   "loads",
			ovc_alg_name(cfg.alg), cfg.capacity, sim_cfg_beta(&cfg), esc.tf);
	for(i = 0; i < esc.nload; i++)
		printf(" %g", esc.load[i]);
	printf(", m %d, eta %g, xi %g, %s\n# k,J,G", esc.m, esc.eta, esc.xi,
			esc.testbed ? "testbed" : "simulator");
	for(i = 0; i < esc.n; i++)
		printf(",%s", esc.name[i]);
	putchar('\n');
	for(k = 0; k < iters; k++) {
		j = sim_esc_eval(&esc, es.theta, &g);
		if(j != j) {
			fprintf(stderr, "ovc-es-tune: run failed at k=%d (is %s in "
							"libovc?)\n",
					k, ovc_alg_name(cfg.alg));
			return 1;
		}
		printf("%d,%.4f,%.4f", k, j, g);
		for(i = 0; i < esc.n; i++)
			printf(",%.3f", es.theta[i]);
		putchar('\n');
		fflush(stdout);
		if(j < jbest) {
			jbest = j;
			memcpy(best, es.theta, sizeof(best));
		}
		sim_es_update(&es, j);
	}
	printf("# best J %.4f at", jbest);
	for(i = 0; i < esc.n; i++)
		printf(" %s=%.3f", esc.name[i], best[i]);
	printf("\n# final theta^");
	for(i = 0; i < esc.n; i++)
		printf(" %s=%.3f", esc.name[i], es.theta_hat[i]);
	putchar('\n');
	return 0;
bad:
	fprintf(stderr, "ovc-es-tune: bad value for --%s\n", name);
	return 2;
}
