/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - command line: one run (per-second CSV and a summary) or a
 * sweep of goodput against offered load.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "sweep.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: ovc-sim [options]                 one run\n"
			   "       ovc-sim --sweep ALGS [options]    goodput vs load\n"
			   "run options:\n"
			   "  --csv FILE|-       per-second rows (testbed column names)\n"
			   "sweep options:\n"
			   "  --sweep a,b,...    algorithms (columns)\n"
			   "  --loads LIST       r values: 0.5,1,2 or FROM:TO:STEP "
			   "(0.25:4:0.25)\n"
			   "  --ct C             C_T of g_opt (0.9)\n"
			   "  --metrics FILE     one line of metrics per run\n"
			   "%s",
			sim_cli_usage_text);
}

static void summary(FILE *f, const struct sim_cfg *c,
		const struct sim_result *r)
{
	char prof[128];

	sim_profile_format(&c->prof, prof, sizeof(prof));
	fprintf(f, "alg %s load %s r %.3f g %.4f goodput %.1f cps cpu %.3f "
			   "rtx_ratio %.4f setup_ms %.1f reject_ratio %.3f beta %.2f "
			   "riae %.4f ciae %.4f timely %.4f kstage_drops %.3f "
			   "overload %.2f events %llu calls %llu cpu_time %.3f s\n",
			ovc_alg_name(c->alg), prof, r->r, r->g, r->goodput, r->cpu,
			r->rtx_ratio, r->setup_ms, r->reject_ratio, r->beta, r->riae,
			r->ciae, r->timely_g, r->ks_drop_ratio, r->over_share,
			(unsigned long long)r->events,
			(unsigned long long)r->calls, r->cpu_s);
}

int main(int argc, char **argv)
{
	struct sim_cfg cfg;
	struct sim_sweep sw;
	struct sim_result res;
	const char *csv = NULL, *algs = NULL, *loads = "0.25:4:0.25";
	const char *metrics = NULL, *name, *arg;
	FILE *cf = NULL, *mf = NULL;
	int i, rc;

	sim_cfg_defaults(&cfg);
	memset(&sw, 0, sizeof(sw));
	sw.ct = 0.9;
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
		if(!strcmp(name, "csv"))
			csv = arg;
		else if(!strcmp(name, "sweep"))
			algs = arg;
		else if(!strcmp(name, "loads"))
			loads = arg;
		else if(!strcmp(name, "metrics"))
			metrics = arg;
		else if(!strcmp(name, "ct")) {
			if(sim_cli_num(arg, &sw.ct) < 0 || sw.ct <= 0 || sw.ct > 1) {
				fprintf(stderr, "ovc-sim: --ct %s: expected (0, 1]\n", arg);
				return 2;
			}
		} else {
			rc = sim_cli_apply(&cfg, name, arg);
			if(rc <= 0) {
				if(!rc)
					fprintf(stderr, "ovc-sim: unknown option --%s\n", name);
				return 2;
			}
		}
	}
	if(algs) {
		if(sim_sweep_parse_algs(&sw, algs) < 0)
			return 2;
		if(sim_sweep_parse_loads(&sw, loads) < 0) {
			fprintf(stderr, "ovc-sim: --loads %s: bad list\n", loads);
			return 2;
		}
		if(metrics && !(mf = fopen(metrics, "w"))) {
			perror(metrics);
			return 1;
		}
		rc = sim_sweep_run(&sw, &cfg, stdout, mf);
		if(mf)
			fclose(mf);
		return rc ? 1 : 0;
	}
	if(csv) {
		cf = strcmp(csv, "-") ? fopen(csv, "w") : stdout;
		if(!cf) {
			perror(csv);
			return 1;
		}
		cfg.csv = cf;
		cfg.csv_header = 1;
	}
	rc = sim_run(&cfg, &res);
	if(cf && cf != stdout)
		fclose(cf);
	if(rc) {
		fprintf(stderr, "ovc-sim: algorithm %s: %s\n",
				ovc_alg_name(cfg.alg), ovc_strerror(rc));
		return 1;
	}
	summary(cf == stdout ? stderr : stdout, &cfg, &res);
	return 0;
}
