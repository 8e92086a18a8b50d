/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * merge.h - per-second merge of SIPp statistics and ovc's RPC CSV.
 *
 * Inputs of one run:
 *  - SIPp 3.6 `-trace_stat` files (';' separated; the time fields hold
 *    "date<TAB>time<TAB>epoch"), one per UAC and UAS;
 *  - SIPp `-trace_rtt` files ("Date_ms;response_time_ms;rtd_no", Date_ms
 *    relative to that SIPp's StartTime): UAC rtd "setup" = INVITE->200,
 *    rtd "rejected" = INVITE->503/500; UAS rtd = INVITE->ACK (goodput);
 *  - optionally `kamcmd ovc.csv N` output (header "time,...", ','
 *    separated; columns found by name, repeated headers and repeated
 *    seconds allowed: the last row of a second wins).
 * Everything is binned by whole unix second.
 */

#ifndef BENCH_MERGE_H
#define BENCH_MERGE_H

#include <stddef.h>
#include <stdio.h>

/* ovc columns kept from ovc.csv, in output order */
enum bench_ovc_col
{
	BENCH_OVC_CPU = 0,
	BENCH_OVC_F,
	BENCH_OVC_QLEN,
	BENCH_OVC_QDELAY,
	BENCH_OVC_INV_OFFERED,
	BENCH_OVC_INV_ADMITTED,
	BENCH_OVC_INV_REJECTED,
	BENCH_OVC_INV_DROPPED,
	BENCH_OVC_NCOLS
};

/* extra per-second columns (bench's own samplers), found by name */
#define BENCH_MAX_EXTRA 8

typedef struct bench_sec
{
	long t;				 /* unix second */
	double target;		 /* sum of the UACs' target rates, calls/s */
	long offered;		 /* calls started by the UACs */
	long failed;		 /* calls failed at the UACs */
	long retrans;		 /* retransmissions sent by the UACs */
	long uas_invites;	/* new INVITEs reaching the UASs */
	long uas_retrans;	/* retransmissions sent by the UASs (200 OK) */
	long goodput;		 /* ACKs of 200 received by the UASs */
	long timely;		 /* setups (INVITE->200) under t1 at the UACs */
	long rejected;		 /* 503/500 received by the UACs */
	double *setup;		 /* setup delays completing here, ms */
	size_t nsetup;		 /* used entries of setup */
	size_t csetup;		 /* allocated entries of setup */
	int has_ovc;		 /* an ovc.csv row exists for this second */
	double ovc[BENCH_OVC_NCOLS]; /* the ovc columns, NAN if absent */
	double extra[BENCH_MAX_EXTRA]; /* extra columns, NAN if absent */
} bench_sec_t;

typedef struct bench_run
{
	bench_sec_t *secs; /* consecutive seconds from base */
	size_t n;		   /* number of seconds held */
	size_t cap;		   /* allocated */
	long base;		   /* unix second of secs[0] */
	double t1_ms;	  /* "timely" threshold for setup delay, ms */
	char algorithm[64]; /* first algorithm name seen in ovc.csv */
	char extra_name[BENCH_MAX_EXTRA][32]; /* names of the extra columns */
	int nextra;							  /* extra columns in use */
} bench_run_t;

/* headline figures over a window [from, to) */
typedef struct bench_summary
{
	long seconds;			/* seconds in the window */
	double offered_cps;		/* mean calls/s started */
	double target_cps;		/* mean target rate */
	double goodput_cps;		/* mean completed calls/s (ACK at UAS) */
	double timely_cps;		/* mean setups under t1 per second */
	double rejected_cps;	/* mean 503/500 per second */
	double failed_cps;		/* mean failed calls per second */
	double retrans_ratio;	/* UAC retransmissions per call started */
	double setup_p50_ms;	/* over every setup in the window, NAN if none */
	double setup_p95_ms;	/* idem */
	double setup_mean_ms;	/* idem: the mean */
	double cpu_mean;		/* mean ovc cpu, NAN without ovc rows */
	double f_mean;			/* mean ovc f, NAN without ovc rows */
	long calls_offered;		/* totals over the window */
	long calls_completed;
	long calls_timely;
	long calls_rejected;
	long calls_failed;
	double extra_mean[BENCH_MAX_EXTRA]; /* NAN where no value */
} bench_summary_t;

void bench_run_init(bench_run_t *run, double t1_ms);
void bench_run_free(bench_run_t *run);

/* the second t, created (zeroed) if needed; NULL on allocation failure */
bench_sec_t *bench_run_sec(bench_run_t *run, long t);

/* Parse the epoch out of a SIPp 3.6 time field ("date\ttime\tepoch") or
 * a plain number. Returns 0 and sets *out, -1 if it holds no number. */
int bench_parse_sipp_time(const char *field, double *out);

/* Add a SIPp stat file. uac != 0: counts as load generator, else as
 * receiver. *start (may be NULL) gets the file's StartTime epoch.
 * Returns the number of data rows used, -1 on a malformed header. */
int bench_add_sipp_stat(bench_run_t *run, FILE *f, int uac, double *start);

/* Add a SIPp rtt file whose Date_ms are relative to start (epoch).
 * Returns rows used, -1 on a malformed header. */
int bench_add_sipp_rtt(bench_run_t *run, FILE *f, int uac, double start);

/* Add kamcmd ovc.csv output. Returns rows used (0 if none). */
int bench_add_ovc_csv(bench_run_t *run, FILE *f);

/* Add an extra CSV ("time,name1,name2...", ',' separated, time in unix
 * seconds): its columns are appended to the merged CSV under their own
 * names. Returns rows used, -1 on a malformed header. */
int bench_add_extra_csv(bench_run_t *run, FILE *f);

/* p-th percentile (0..100) of v[0..n) by linear interpolation; sorts v.
 * NAN if n == 0. */
double bench_percentile(double *v, size_t n, double p);

/* Write the merged per-second CSV (header + one row per second of
 * [from, to), or every second if from >= to). t0: origin of the "t"
 * column. Returns rows written. */
int bench_write_csv(bench_run_t *run, FILE *out, long t0, long from, long to);

/* Headline figures over [from, to) (every second if from >= to). */
void bench_summarize(
		bench_run_t *run, long from, long to, bench_summary_t *s);

#endif /* BENCH_MERGE_H */
