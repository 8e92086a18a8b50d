/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - goodput against offered load.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

int sim_sweep_parse_algs(struct sim_sweep *s, const char *list)
{
	char buf[512], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	s->nalg = 0;
	for(tok = strtok_r(buf, ",", &save); tok;
			tok = strtok_r(NULL, ",", &save)) {
		if(s->nalg == SIM_SWEEP_MAX
				|| ovc_alg_from_name(tok, &s->alg[s->nalg]) != OVC_OK) {
			fprintf(stderr, "ovc-sim: unknown algorithm '%s'\n", tok);
			return -1;
		}
		s->nalg++;
	}
	return s->nalg ? 0 : -1;
}

int sim_sweep_parse_loads(struct sim_sweep *s, const char *list)
{
	double a, b, st, x;
	char *end;
	const char *p = list;

	s->nload = 0;
	if(sscanf(list, "%lf:%lf:%lf", &a, &b, &st) == 3 && st > 0 && b >= a) {
		for(x = a; x <= b + st / 1e6 && s->nload < SIM_SWEEP_MAX; x += st)
			s->load[s->nload++] = x;
		return 0;
	}
	while(*p && s->nload < SIM_SWEEP_MAX) {
		x = strtod(p, &end);
		if(end == p || x < 0)
			return -1;
		s->load[s->nload++] = x;
		p = end;
		if(*p == ',')
			p++;
		else if(*p)
			return -1;
	}
	return s->nload ? 0 : -1;
}

double sim_sweep_point(const struct sim_cfg *base, enum ovc_alg alg, double r,
		struct sim_result *res)
{
	struct sim_cfg c = *base;
	struct sim_result tmp;

	c.alg = alg;
	c.csv = NULL;
	sim_profile_constant(&c.prof, r);
	if(!res)
		res = &tmp;
	if(sim_run(&c, res) != 0)
		return NAN;
	return res->g;
}

int sim_sweep_run(const struct sim_sweep *s, const struct sim_cfg *base,
		FILE *out, FILE *lng)
{
	struct sim_cfg probe;
	struct sim_result res;
	int ok[SIM_SWEEP_MAX];
	double beta = sim_cfg_beta(base), g;
	int i, j;

	for(j = 0; j < s->nalg; j++) {
		probe = *base;
		probe.alg = s->alg[j];
		probe.duration_s = 0;
		probe.warmup_s = 0;
		ok[j] = sim_run(&probe, &res) == 0;
		if(!ok[j])
			fprintf(stderr,
					"ovc-sim: notice: algorithm %s not available in libovc "
					"(ovc_ctl_init failed): skipped\n",
					ovc_alg_name(s->alg[j]));
	}
	fprintf(out, "# capacity %g calls/s, beta %.2f, C_T %.2f, %g s runs "
				 "(warm-up %g s), seed %llu, %s\n",
			base->capacity, beta, s->ct, base->duration_s, base->warmup_s,
			(unsigned long long)base->seed, base->tcp ? "tcp" : "udp");
	fprintf(out, "r,g_opt");
	for(j = 0; j < s->nalg; j++)
		fprintf(out, ",%s", ovc_alg_name(s->alg[j]));
	fputc('\n', out);
	if(lng)
		fprintf(lng, "algorithm,r,g,offered_r,cpu,rtx_ratio,setup_ms,"
					 "reject_ratio,riae,ciae,cpu_s,timely,kstage_drops,"
					 "overload\n");
	for(i = 0; i < s->nload; i++) {
		fprintf(out, "%.3f,%.4f", s->load[i],
				sim_g_opt(s->load[i], s->ct, beta));
		for(j = 0; j < s->nalg; j++) {
			g = ok[j] ? sim_sweep_point(base, s->alg[j], s->load[i], &res)
					  : NAN;
			fprintf(out, ",%.4f", g);
			if(lng && ok[j])
				fprintf(lng, "%s,%.3f,%.4f,%.4f,%.4f,%.4f,%.1f,%.4f,%.4f,"
							 "%.4f,%.3f,%.4f,%.4f,%.3f\n",
						ovc_alg_name(s->alg[j]), s->load[i], res.g, res.r,
						res.cpu, res.rtx_ratio, res.setup_ms,
						res.reject_ratio, res.riae, res.ciae, res.cpu_s,
						res.timely_g, res.ks_drop_ratio, res.over_share);
		}
		fputc('\n', out);
		fflush(out);
	}
	return 0;
}
