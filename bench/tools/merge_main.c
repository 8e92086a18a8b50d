/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * ovc-merge - merge one run's SIPp statistics and ovc.csv into one
 * per-second CSV and a summary.json.
 *
 *   ovc-merge [-o merged.csv] [-j summary.json] [--t0 EPOCH]
 *       [--from EPOCH --to EPOCH] [--csv-from EPOCH --csv-to EPOCH]
 *       [--rho-m CPS] [--t1-ms 500]
 *       [--meta key=value]... [--uac STAT[,RTT]]... [--uas STAT[,RTT]]...
 *       [--ovc OVC_CSV] [--extra CSV]...
 *
 * Missing files are reported and skipped (ovc.csv does not exist for
 * runs without ovc). --csv-from/--csv-to bound the CSV (default: every
 * second seen). --extra adds the bench's own per-second samples
 * ("time,name,..."), as columns of the CSV and means in the summary.
 * --from/--to bound the summary window.
 */

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "merge.h"

#define MAX_META 32

typedef struct merge_opts
{
	const char *csv;
	const char *json;
	long t0;
	long from;
	long to;
	long csv_from;
	long csv_to;
	double rho_m;
	double t1_ms;
	const char *meta[MAX_META];
	int nmeta;
	int files;
} merge_opts_t;

static void usage(void)
{
	fprintf(stderr,
			"usage: ovc-merge [-o CSV] [-j JSON] [--t0 S] [--from S --to S]\n"
			"         [--csv-from S --csv-to S]\n"
			"         [--rho-m CPS] [--t1-ms MS] [--meta k=v]...\n"
			"         [--uac STAT[,RTT]]... [--uas STAT[,RTT]]... "
			"[--ovc FILE]\n"
			"         [--extra CSV]...\n");
}

static int add_sipp(bench_run_t *run, char *arg, int uac)
{
	char *rtt;
	FILE *f;
	double start = NAN;
	int rows;

	rtt = strchr(arg, ',');
	if(rtt)
		*rtt++ = '\0';
	f = fopen(arg, "r");
	if(f == NULL) {
		fprintf(stderr, "ovc-merge: skipping missing %s\n", arg);
		return 0;
	}
	rows = bench_add_sipp_stat(run, f, uac, &start);
	fclose(f);
	if(rows < 0) {
		fprintf(stderr, "ovc-merge: %s is not a SIPp stat file\n", arg);
		return -1;
	}
	if(rtt == NULL || *rtt == '\0')
		return 0;
	if(isnan(start)) {
		fprintf(stderr, "ovc-merge: no StartTime in %s: skipping %s\n", arg,
				rtt);
		return 0;
	}
	f = fopen(rtt, "r");
	if(f == NULL) {
		fprintf(stderr, "ovc-merge: skipping missing %s\n", rtt);
		return 0;
	}
	rows = bench_add_sipp_rtt(run, f, uac, start);
	fclose(f);
	if(rows < 0) {
		fprintf(stderr, "ovc-merge: %s is not a SIPp rtt file\n", rtt);
		return -1;
	}
	return 0;
}

static json_t *num_or_null(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *meta_value(const char *v)
{
	char *end;
	double d;

	d = strtod(v, &end);
	if(*v != '\0' && *end == '\0')
		return json_real(d);
	return json_string(v);
}

static int write_json(bench_run_t *run, merge_opts_t *o, const char *path)
{
	bench_summary_t s;
	json_t *root, *meta, *extra;
	char key[128];
	const char *eq;
	int i, rc;

	bench_summarize(run, o->from, o->to, &s);
	root = json_object();
	meta = json_object();
	for(i = 0; i < o->nmeta; i++) {
		eq = strchr(o->meta[i], '=');
		if(eq == NULL || eq == o->meta[i]
				|| (size_t)(eq - o->meta[i]) >= sizeof(key))
			continue;
		memcpy(key, o->meta[i], eq - o->meta[i]);
		key[eq - o->meta[i]] = '\0';
		json_object_set_new(meta, key, meta_value(eq + 1));
	}
	json_object_set_new(root, "meta", meta);
	json_object_set_new(root, "algorithm_reported",
			run->algorithm[0] ? json_string(run->algorithm) : json_null());
	json_object_set_new(root, "window_from", json_integer(o->from));
	json_object_set_new(root, "window_to", json_integer(o->to));
	json_object_set_new(root, "seconds", json_integer(s.seconds));
	json_object_set_new(root, "t1_ms", json_real(run->t1_ms));
	json_object_set_new(root, "target_cps", json_real(s.target_cps));
	json_object_set_new(root, "offered_cps", json_real(s.offered_cps));
	json_object_set_new(root, "goodput_cps", json_real(s.goodput_cps));
	json_object_set_new(root, "timely_cps", json_real(s.timely_cps));
	json_object_set_new(root, "rejected_cps", json_real(s.rejected_cps));
	json_object_set_new(root, "failed_cps", json_real(s.failed_cps));
	json_object_set_new(root, "retrans_per_call", json_real(s.retrans_ratio));
	json_object_set_new(root, "setup_p50_ms", num_or_null(s.setup_p50_ms));
	json_object_set_new(root, "setup_p95_ms", num_or_null(s.setup_p95_ms));
	json_object_set_new(root, "setup_mean_ms", num_or_null(s.setup_mean_ms));
	json_object_set_new(root, "cpu_mean", num_or_null(s.cpu_mean));
	json_object_set_new(root, "f_mean", num_or_null(s.f_mean));
	json_object_set_new(root, "calls_offered", json_integer(s.calls_offered));
	json_object_set_new(
			root, "calls_completed", json_integer(s.calls_completed));
	json_object_set_new(root, "calls_timely", json_integer(s.calls_timely));
	json_object_set_new(
			root, "calls_rejected", json_integer(s.calls_rejected));
	json_object_set_new(root, "calls_failed", json_integer(s.calls_failed));
	extra = json_object();
	for(i = 0; i < run->nextra; i++)
		json_object_set_new(
				extra, run->extra_name[i], num_or_null(s.extra_mean[i]));
	json_object_set_new(root, "extra_mean", extra);
	if(o->rho_m > 0) {
		json_object_set_new(root, "rho_m", json_real(o->rho_m));
		json_object_set_new(root, "r", json_real(s.offered_cps / o->rho_m));
		json_object_set_new(root, "g", json_real(s.goodput_cps / o->rho_m));
		json_object_set_new(
				root, "g_timely", json_real(s.timely_cps / o->rho_m));
	}
	rc = json_dump_file(root, path, JSON_INDENT(2) | JSON_SORT_KEYS
											| JSON_REAL_PRECISION(6));
	json_decref(root);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {{"t0", 1, NULL, 'T'},
			{"from", 1, NULL, 'F'}, {"to", 1, NULL, 'U'},
			{"rho-m", 1, NULL, 'R'}, {"t1-ms", 1, NULL, 'D'},
			{"meta", 1, NULL, 'M'}, {"uac", 1, NULL, 'C'},
			{"uas", 1, NULL, 'S'}, {"ovc", 1, NULL, 'O'},
			{"extra", 1, NULL, 'X'}, {"csv-from", 1, NULL, 'A'},
			{"csv-to", 1, NULL, 'B'}, {"help", 0, NULL, 'h'},
			{NULL, 0, NULL, 0}};
	merge_opts_t o;
	bench_run_t run;
	FILE *f;
	int c, rc = 0;

	memset(&o, 0, sizeof(o));
	o.t1_ms = 500;
	o.t0 = -1;
	/* options are read twice: settings first, then the files */
	while((c = getopt_long(argc, argv, "o:j:h", lopts, NULL)) != -1) {
		switch(c) {
			case 'o':
				o.csv = optarg;
				break;
			case 'j':
				o.json = optarg;
				break;
			case 'T':
				o.t0 = atol(optarg);
				break;
			case 'F':
				o.from = atol(optarg);
				break;
			case 'U':
				o.to = atol(optarg);
				break;
			case 'A':
				o.csv_from = atol(optarg);
				break;
			case 'B':
				o.csv_to = atol(optarg);
				break;
			case 'R':
				o.rho_m = atof(optarg);
				break;
			case 'D':
				o.t1_ms = atof(optarg);
				break;
			case 'M':
				if(o.nmeta < MAX_META)
					o.meta[o.nmeta++] = optarg;
				break;
			case 'C':
			case 'S':
			case 'O':
			case 'X':
				o.files++;
				break;
			default:
				usage();
				return 2;
		}
	}
	if(o.files == 0 || optind != argc) {
		usage();
		return 2;
	}
	bench_run_init(&run, o.t1_ms);
	optind = 1;
	while((c = getopt_long(argc, argv, "o:j:h", lopts, NULL)) != -1) {
		if(c == 'C' || c == 'S') {
			if(add_sipp(&run, optarg, c == 'C') < 0)
				rc = 1;
		} else if(c == 'X') {
			f = fopen(optarg, "r");
			if(f == NULL) {
				fprintf(stderr, "ovc-merge: skipping missing %s\n", optarg);
				continue;
			}
			if(bench_add_extra_csv(&run, f) < 0) {
				fprintf(stderr, "ovc-merge: %s has no time column\n", optarg);
				rc = 1;
			}
			fclose(f);
		} else if(c == 'O') {
			f = fopen(optarg, "r");
			if(f == NULL) {
				fprintf(stderr, "ovc-merge: no %s (run without ovc?)\n",
						optarg);
				continue;
			}
			bench_add_ovc_csv(&run, f);
			fclose(f);
		}
	}
	if(run.n == 0) {
		fprintf(stderr, "ovc-merge: no data\n");
		bench_run_free(&run);
		return 1;
	}
	if(o.t0 < 0)
		o.t0 = o.from < o.to ? o.from : run.base;
	if(o.csv) {
		f = fopen(o.csv, "w");
		if(f == NULL) {
			perror(o.csv);
			rc = 1;
		} else {
			bench_write_csv(&run, f, o.t0, o.csv_from, o.csv_to);
			if(fclose(f) != 0)
				rc = 1;
		}
	}
	if(o.json && write_json(&run, &o, o.json) != 0) {
		fprintf(stderr, "ovc-merge: cannot write %s\n", o.json);
		rc = 1;
	}
	bench_run_free(&run);
	return rc;
}
