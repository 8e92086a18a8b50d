/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * merge.c - per-second merge of SIPp statistics and ovc's RPC CSV.
 * See merge.h for the input formats.
 */

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"

#define BENCH_MAX_FIELDS 1024

static const char *ovc_col_names[BENCH_OVC_NCOLS] = {"cpu", "f", "queue_len",
		"queue_delay_ms", "invite_offered", "invite_admitted",
		"invite_rejected", "invite_dropped"};

void bench_run_init(bench_run_t *run, double t1_ms)
{
	memset(run, 0, sizeof(*run));
	run->t1_ms = t1_ms;
}

void bench_run_free(bench_run_t *run)
{
	size_t i;

	for(i = 0; i < run->n; i++)
		free(run->secs[i].setup);
	free(run->secs);
	memset(run, 0, sizeof(*run));
}

static void sec_init(bench_sec_t *s, long t)
{
	int i;

	memset(s, 0, sizeof(*s));
	s->t = t;
	for(i = 0; i < BENCH_OVC_NCOLS; i++)
		s->ovc[i] = NAN;
	for(i = 0; i < BENCH_MAX_EXTRA; i++)
		s->extra[i] = NAN;
}

static int run_reserve(bench_run_t *run, size_t n)
{
	bench_sec_t *p;
	size_t cap;

	if(n <= run->cap)
		return 0;
	cap = run->cap ? run->cap : 64;
	while(cap < n)
		cap *= 2;
	p = realloc(run->secs, cap * sizeof(*p));
	if(p == NULL)
		return -1;
	run->secs = p;
	run->cap = cap;
	return 0;
}

bench_sec_t *bench_run_sec(bench_run_t *run, long t)
{
	size_t i, add;

	if(run->n == 0) {
		if(run_reserve(run, 1) < 0)
			return NULL;
		run->base = t;
		run->n = 1;
		sec_init(&run->secs[0], t);
		return &run->secs[0];
	}
	if(t < run->base) {
		/* a gap of more than a day is a broken timestamp, not data */
		if(run->base - t > 86400)
			return NULL;
		add = (size_t)(run->base - t);
		if(run_reserve(run, run->n + add) < 0)
			return NULL;
		memmove(run->secs + add, run->secs, run->n * sizeof(bench_sec_t));
		for(i = 0; i < add; i++)
			sec_init(&run->secs[i], t + (long)i);
		run->n += add;
		run->base = t;
		return &run->secs[0];
	}
	i = (size_t)(t - run->base);
	if(i >= run->n) {
		if(i - run->n > 86400)
			return NULL;
		if(run_reserve(run, i + 1) < 0)
			return NULL;
		for(; run->n <= i; run->n++)
			sec_init(&run->secs[run->n], run->base + (long)run->n);
	}
	return &run->secs[i];
}

/* split line in place on sep; strips the trailing newline. Returns the
 * number of fields. */
static int split(char *line, char sep, char **f, int max)
{
	int n = 0;
	char *p;
	size_t len;

	len = strlen(line);
	while(len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	p = line;
	while(n < max) {
		f[n++] = p;
		p = strchr(p, sep);
		if(p == NULL)
			break;
		*p++ = '\0';
	}
	return n;
}

static int find_col(char **f, int n, const char *name)
{
	int i;

	for(i = 0; i < n; i++)
		if(strcmp(f[i], name) == 0)
			return i;
	return -1;
}

static int parse_num(const char *s, double *out)
{
	char *end;
	double v;

	while(isspace((unsigned char)*s) || *s == '"')
		s++;
	if(*s == '\0')
		return -1;
	v = strtod(s, &end);
	if(end == s)
		return -1;
	while(isspace((unsigned char)*end) || *end == '"')
		end++;
	if(*end != '\0')
		return -1;
	*out = v;
	return 0;
}

int bench_parse_sipp_time(const char *field, double *out)
{
	const char *p;

	p = strrchr(field, '\t');
	return parse_num(p ? p + 1 : field, out);
}

static long num_or_zero(char **f, int n, int col)
{
	double v;

	if(col < 0 || col >= n || parse_num(f[col], &v) < 0)
		return 0;
	return (long)v;
}

int bench_add_sipp_stat(bench_run_t *run, FILE *f, int uac, double *start)
{
	char *line = NULL;
	size_t cap = 0;
	char *fld[BENCH_MAX_FIELDS];
	int n, nh, rows = 0;
	int c_start, c_last, c_cur, c_target, c_out, c_in, c_fail, c_retr;
	double t_last, t_cur, v;
	bench_sec_t *s;

	if(getline(&line, &cap, f) < 0) {
		free(line);
		return -1;
	}
	nh = split(line, ';', fld, BENCH_MAX_FIELDS);
	c_start = find_col(fld, nh, "StartTime");
	c_last = find_col(fld, nh, "LastResetTime");
	c_cur = find_col(fld, nh, "CurrentTime");
	c_target = find_col(fld, nh, "TargetRate");
	c_out = find_col(fld, nh, "OutgoingCall(P)");
	c_in = find_col(fld, nh, "IncomingCall(P)");
	c_fail = find_col(fld, nh, "FailedCall(P)");
	c_retr = find_col(fld, nh, "Retransmissions(P)");
	if(c_last < 0 || c_cur < 0) {
		free(line);
		return -1;
	}
	while(getline(&line, &cap, f) >= 0) {
		n = split(line, ';', fld, BENCH_MAX_FIELDS);
		/* a row cut short (killed writer) is ignored */
		if(n <= c_last || n <= c_cur || n <= c_retr)
			continue;
		if(bench_parse_sipp_time(fld[c_last], &t_last) < 0
				|| bench_parse_sipp_time(fld[c_cur], &t_cur) < 0)
			continue;
		if(start && rows == 0 && c_start >= 0 && c_start < n
				&& bench_parse_sipp_time(fld[c_start], &v) == 0)
			*start = v;
		/* the row written at start-up covers no time: it would count the
		 * target rate twice in its second */
		if(t_cur - t_last < 0.5) {
			rows++;
			continue;
		}
		/* the period [last, cur] belongs to the second of its middle */
		s = bench_run_sec(run, (long)floor((t_last + t_cur) / 2.0));
		if(s == NULL)
			continue;
		if(uac) {
			if(c_target >= 0 && c_target < n
					&& parse_num(fld[c_target], &v) == 0)
				s->target += v;
			s->offered += num_or_zero(fld, n, c_out);
			s->failed += num_or_zero(fld, n, c_fail);
			s->retrans += num_or_zero(fld, n, c_retr);
		} else {
			s->uas_invites += num_or_zero(fld, n, c_in);
			s->uas_retrans += num_or_zero(fld, n, c_retr);
		}
		rows++;
	}
	free(line);
	return rows;
}

static int sec_add_setup(bench_sec_t *s, double ms)
{
	double *p;
	size_t c;

	if(s->nsetup == s->csetup) {
		c = s->csetup ? 2 * s->csetup : 16;
		p = realloc(s->setup, c * sizeof(*p));
		if(p == NULL)
			return -1;
		s->setup = p;
		s->csetup = c;
	}
	s->setup[s->nsetup++] = ms;
	return 0;
}

int bench_add_sipp_rtt(bench_run_t *run, FILE *f, int uac, double start)
{
	char *line = NULL;
	size_t cap = 0;
	char *fld[8];
	int n, rows = 0;
	double date_ms, rt_ms;
	bench_sec_t *s;

	if(getline(&line, &cap, f) < 0) {
		free(line);
		return -1;
	}
	n = split(line, ';', fld, 8);
	if(n < 3 || strcmp(fld[0], "Date_ms") != 0) {
		free(line);
		return -1;
	}
	while(getline(&line, &cap, f) >= 0) {
		n = split(line, ';', fld, 8);
		if(n < 3 || parse_num(fld[0], &date_ms) < 0
				|| parse_num(fld[1], &rt_ms) < 0)
			continue;
		s = bench_run_sec(run, (long)floor(start + date_ms / 1000.0));
		if(s == NULL)
			continue;
		if(!uac) {
			s->goodput++;
		} else if(strcmp(fld[2], "setup") == 0) {
			if(rt_ms < run->t1_ms)
				s->timely++;
			if(sec_add_setup(s, rt_ms) < 0) {
				free(line);
				return -1;
			}
		} else if(strcmp(fld[2], "rejected") == 0) {
			s->rejected++;
		} else {
			continue;
		}
		rows++;
	}
	free(line);
	return rows;
}

/* kamcmd may quote or indent the lines of a string array */
static char *trim(char *p)
{
	size_t len;

	while(isspace((unsigned char)*p) || *p == '"')
		p++;
	len = strlen(p);
	while(len > 0
			&& (isspace((unsigned char)p[len - 1]) || p[len - 1] == '"'))
		p[--len] = '\0';
	return p;
}

int bench_add_ovc_csv(bench_run_t *run, FILE *f)
{
	char *line = NULL, *p;
	size_t cap = 0;
	char *fld[BENCH_MAX_FIELDS];
	int col[BENCH_OVC_NCOLS];
	int n, i, c_time = -1, c_alg = -1, rows = 0;
	double t, v;
	bench_sec_t *s;

	while(getline(&line, &cap, f) >= 0) {
		p = trim(line);
		if(strncmp(p, "time,", 5) == 0) {
			n = split(p, ',', fld, BENCH_MAX_FIELDS);
			c_time = 0;
			c_alg = find_col(fld, n, "algorithm");
			for(i = 0; i < BENCH_OVC_NCOLS; i++)
				col[i] = find_col(fld, n, ovc_col_names[i]);
			continue;
		}
		if(c_time < 0)
			continue;
		n = split(p, ',', fld, BENCH_MAX_FIELDS);
		if(n < 2 || parse_num(fld[c_time], &t) < 0)
			continue;
		s = bench_run_sec(run, (long)floor(t));
		if(s == NULL)
			continue;
		s->has_ovc = 1;
		for(i = 0; i < BENCH_OVC_NCOLS; i++) {
			if(col[i] >= 0 && col[i] < n && parse_num(fld[col[i]], &v) == 0)
				s->ovc[i] = v;
			else
				s->ovc[i] = NAN;
		}
		if(c_alg >= 0 && c_alg < n && run->algorithm[0] == '\0') {
			strncpy(run->algorithm, fld[c_alg], sizeof(run->algorithm) - 1);
			run->algorithm[sizeof(run->algorithm) - 1] = '\0';
		}
		rows++;
	}
	free(line);
	return rows;
}

static int extra_index(bench_run_t *run, const char *name)
{
	int i;

	for(i = 0; i < run->nextra; i++)
		if(strcmp(run->extra_name[i], name) == 0)
			return i;
	if(run->nextra == BENCH_MAX_EXTRA || strlen(name) == 0
			|| strlen(name) >= sizeof(run->extra_name[0]))
		return -1;
	strcpy(run->extra_name[run->nextra], name);
	return run->nextra++;
}

int bench_add_extra_csv(bench_run_t *run, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	char *fld[BENCH_MAX_FIELDS];
	int map[BENCH_MAX_FIELDS];
	int n, nh, i, rows = 0;
	double t, v;
	bench_sec_t *s;

	if(getline(&line, &cap, f) < 0) {
		free(line);
		return -1;
	}
	nh = split(line, ',', fld, BENCH_MAX_FIELDS);
	if(nh < 2 || strcmp(fld[0], "time") != 0) {
		free(line);
		return -1;
	}
	for(i = 1; i < nh; i++)
		map[i] = extra_index(run, fld[i]);
	while(getline(&line, &cap, f) >= 0) {
		n = split(line, ',', fld, BENCH_MAX_FIELDS);
		if(n < 2 || parse_num(fld[0], &t) < 0)
			continue;
		s = bench_run_sec(run, (long)floor(t));
		if(s == NULL)
			continue;
		for(i = 1; i < n && i < nh; i++)
			if(map[i] >= 0 && parse_num(fld[i], &v) == 0)
				s->extra[map[i]] = v;
		rows++;
	}
	free(line);
	return rows;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double bench_percentile(double *v, size_t n, double p)
{
	double pos, frac;
	size_t i;

	if(n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	if(p <= 0)
		return v[0];
	if(p >= 100)
		return v[n - 1];
	pos = p / 100.0 * (double)(n - 1);
	i = (size_t)pos;
	frac = pos - (double)i;
	if(i + 1 >= n)
		return v[n - 1];
	return v[i] + frac * (v[i + 1] - v[i]);
}

static void put_num(FILE *out, double v)
{
	if(isnan(v))
		fputs(",", out);
	else if(v == floor(v) && fabs(v) < 1e15)
		fprintf(out, ",%.0f", v);
	else
		fprintf(out, ",%.4g", v);
}

static void window(bench_run_t *run, long *from, long *to)
{
	if(*from >= *to) {
		*from = run->base;
		*to = run->base + (long)run->n;
	}
}

int bench_write_csv(bench_run_t *run, FILE *out, long t0, long from, long to)
{
	bench_sec_t *s;
	size_t i;
	int k, rows = 0;

	window(run, &from, &to);
	fputs("time,t,target_cps,offered_cps,uas_invites,goodput_cps,"
		  "timely_cps,rejected_cps,failed_cps,retrans,uas_retrans,"
		  "setup_p50_ms,setup_p95_ms,setup_n",
			out);
	for(k = 0; k < BENCH_OVC_NCOLS; k++)
		fprintf(out, ",%s", ovc_col_names[k]);
	for(k = 0; k < run->nextra; k++)
		fprintf(out, ",%s", run->extra_name[k]);
	fputc('\n', out);
	for(i = 0; i < run->n; i++) {
		s = &run->secs[i];
		if(s->t < from || s->t >= to)
			continue;
		fprintf(out, "%ld,%ld", s->t, s->t - t0);
		put_num(out, s->target);
		fprintf(out, ",%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld", s->offered,
				s->uas_invites, s->goodput, s->timely, s->rejected, s->failed,
				s->retrans, s->uas_retrans);
		put_num(out, bench_percentile(s->setup, s->nsetup, 50));
		put_num(out, bench_percentile(s->setup, s->nsetup, 95));
		fprintf(out, ",%zu", s->nsetup);
		for(k = 0; k < BENCH_OVC_NCOLS; k++)
			put_num(out, s->ovc[k]);
		for(k = 0; k < run->nextra; k++)
			put_num(out, s->extra[k]);
		fputc('\n', out);
		rows++;
	}
	return rows;
}

void bench_summarize(bench_run_t *run, long from, long to, bench_summary_t *sm)
{
	bench_sec_t *s;
	size_t i, nall = 0, k = 0;
	double *all;
	double target = 0, cpu = 0, f = 0;
	double xsum[BENCH_MAX_EXTRA] = {0};
	long xn[BENCH_MAX_EXTRA] = {0};
	long ncpu = 0, nf = 0, retrans = 0;
	int x;

	memset(sm, 0, sizeof(*sm));
	window(run, &from, &to);
	for(i = 0; i < run->n; i++) {
		s = &run->secs[i];
		if(s->t < from || s->t >= to)
			continue;
		nall += s->nsetup;
	}
	all = nall ? malloc(nall * sizeof(*all)) : NULL;
	for(i = 0; i < run->n; i++) {
		s = &run->secs[i];
		if(s->t < from || s->t >= to)
			continue;
		sm->calls_offered += s->offered;
		sm->calls_completed += s->goodput;
		sm->calls_timely += s->timely;
		sm->calls_rejected += s->rejected;
		sm->calls_failed += s->failed;
		retrans += s->retrans;
		target += s->target;
		if(!isnan(s->ovc[BENCH_OVC_CPU])) {
			cpu += s->ovc[BENCH_OVC_CPU];
			ncpu++;
		}
		if(!isnan(s->ovc[BENCH_OVC_F])) {
			f += s->ovc[BENCH_OVC_F];
			nf++;
		}
		for(x = 0; x < run->nextra; x++) {
			if(!isnan(s->extra[x])) {
				xsum[x] += s->extra[x];
				xn[x]++;
			}
		}
		if(all && s->nsetup) {
			memcpy(all + k, s->setup, s->nsetup * sizeof(*all));
			k += s->nsetup;
		}
	}
	sm->seconds = to - from;
	if(sm->seconds > 0) {
		sm->offered_cps = (double)sm->calls_offered / (double)sm->seconds;
		sm->target_cps = target / (double)sm->seconds;
		sm->goodput_cps = (double)sm->calls_completed / (double)sm->seconds;
		sm->timely_cps = (double)sm->calls_timely / (double)sm->seconds;
		sm->rejected_cps = (double)sm->calls_rejected / (double)sm->seconds;
		sm->failed_cps = (double)sm->calls_failed / (double)sm->seconds;
	}
	sm->retrans_ratio = sm->calls_offered
								? (double)retrans / (double)sm->calls_offered
								: 0.0;
	sm->setup_p50_ms = all ? bench_percentile(all, k, 50) : NAN;
	sm->setup_p95_ms = all ? bench_percentile(all, k, 95) : NAN;
	sm->setup_mean_ms = NAN;
	if(all && k > 0) {
		double sum = 0;

		for(i = 0; i < k; i++)
			sum += all[i];
		sm->setup_mean_ms = sum / (double)k;
	}
	sm->cpu_mean = ncpu ? cpu / (double)ncpu : NAN;
	sm->f_mean = nf ? f / (double)nf : NAN;
	for(x = 0; x < BENCH_MAX_EXTRA; x++)
		sm->extra_mean[x] = xn[x] ? xsum[x] / (double)xn[x] : NAN;
	free(all);
}
