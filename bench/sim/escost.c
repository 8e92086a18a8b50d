/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - ES cost on simulator runs, or on a testbed command.
 *
 * Testbed command contract: run through /bin/sh once per (load, repetition)
 * with the environment OVC_ES_R (normalised load), OVC_ES_TF (seconds),
 * OVC_ES_REP (repetition index) and OVC_ES_PARAMS ("name=value ..."); its
 * last line on stdout must hold "riae=<x> ciae=<y>" and may hold
 * "g=<normalised goodput>".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovc/pi.h"

#include "escost.h"

void sim_esc_defaults(struct sim_esc *c, const struct sim_cfg *base)
{
	static const double loads[] = {1.58, 2.10, 2.37, 2.63};
	int i;

	memset(c, 0, sizeof(*c));
	c->base = *base;
	c->n = 4;
	c->name[0] = "pi.kpc";
	c->name[1] = "pi.kic";
	c->name[2] = "pi.kpq";
	c->name[3] = "pi.kiq";
	for(i = 0; i < 4; i++)
		c->load[i] = loads[i];
	c->nload = 4;
	c->m = 1;
	c->tf = 120;
	c->eta = 1;
	c->xi = 2;
}

/* Sets the parameters of theta, clamped to the table's ranges. */
static int set_theta(const struct sim_esc *c, struct ovc_params *p,
		const double *theta, char *list, size_t len)
{
	const struct ovc_param_def *d;
	char v[64];
	size_t o = 0;
	double x;
	int i;

	for(i = 0; i < c->n; i++) {
		d = ovc_param_find(c->name[i]);
		if(!d)
			return -1;
		x = theta[i] < d->min ? d->min : theta[i] > d->max ? d->max : theta[i];
		snprintf(v, sizeof(v), "%.9g", x);
		if(ovc_param_set(p, c->name[i], v, NULL, 0) != OVC_OK)
			return -1;
		if(list && o < len)
			o += (size_t)snprintf(list + o, len - o, "%s%s=%s", i ? " " : "",
					c->name[i], v);
	}
	return 0;
}

static int run_testbed(const struct sim_esc *c, const char *params, double r,
		int rep, double *riae, double *ciae, double *g)
{
	char buf[64], line[512], last[512] = "";
	const char *p;
	FILE *f;

	snprintf(buf, sizeof(buf), "%g", r);
	setenv("OVC_ES_R", buf, 1);
	snprintf(buf, sizeof(buf), "%g", c->tf);
	setenv("OVC_ES_TF", buf, 1);
	snprintf(buf, sizeof(buf), "%d", rep);
	setenv("OVC_ES_REP", buf, 1);
	setenv("OVC_ES_PARAMS", params, 1);
	f = popen(c->testbed, "r");
	if(!f)
		return -1;
	while(fgets(line, sizeof(line), f))
		if(strstr(line, "riae="))
			snprintf(last, sizeof(last), "%s", line);
	if(pclose(f) != 0 || !(p = strstr(last, "riae=")))
		return -1;
	*riae = atof(p + 5);
	if(!(p = strstr(last, "ciae=")))
		return -1;
	*ciae = atof(p + 5);
	*g = (p = strstr(last, "g=")) ? atof(p + 2) : NAN;
	return 0;
}

double sim_esc_eval(const struct sim_esc *c, const double *theta, double *g)
{
	struct sim_cfg cfg = c->base;
	struct sim_result res;
	char list[512];
	double j = 0, gs = 0, riae, ciae, gg;
	int l, i;

	if(set_theta(c, &cfg.params, theta, list, sizeof(list)) < 0)
		return NAN;
	cfg.duration_s = c->tf;
	cfg.warmup_s = 0;
	cfg.csv = NULL;
	cfg.es_ct = ovc_pi_c_target(&cfg.params.pi, 0); /* no quota here */
	for(l = 0; l < c->nload; l++) {
		for(i = 0; i < c->m; i++) {
			if(c->testbed) {
				if(run_testbed(c, list, c->load[l], i, &riae, &ciae, &gg) < 0)
					return NAN;
			} else {
				sim_profile_constant(&cfg.prof, c->load[l]);
				cfg.seed = c->base.seed + (uint64_t)i;
				if(sim_run(&cfg, &res) != 0)
					return NAN;
				riae = res.riae;
				ciae = res.ciae;
				gg = res.g;
			}
			j += c->eta * riae + c->xi * ciae;
			gs += gg * c->load[l];
		}
	}
	if(g)
		*g = -gs / c->m;
	return j / c->m;
}
