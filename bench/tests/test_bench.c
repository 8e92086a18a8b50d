/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * test_bench.c - unit tests of the bench tools: CSV merging (SIPp 3.6
 * stat/rtt files, ovc.csv) and the goodput bound g_opt(r).
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "bound.h"
#include "merge.h"

/* A SIPp 3.6.1 stat file, trimmed to the columns the merge reads plus a
 * few others; time fields are "date<TAB>time<TAB>epoch". */
static const char *uac_stat =
		"StartTime;LastResetTime;CurrentTime;ElapsedTime(P);TargetRate;"
		"CallRate(P);IncomingCall(P);OutgoingCall(P);SuccessfulCall(P);"
		"FailedCall(P);Retransmissions(P);ResponseTimesetup(P);\n"
		"2026-11-22\t04:26:50.000000\t1000.000000;"
		"2026-11-22\t04:26:50.000000\t1000.000000;"
		"2026-11-22\t04:26:50.001000\t1000.001000;00:00:00;100;0;0;0;0;0;0;"
		"00:00:00:000000;\n"
		"2026-11-22\t04:26:50.000000\t1000.000000;"
		"2026-11-22\t04:26:50.001000\t1000.001000;"
		"2026-11-22\t04:26:51.002000\t1001.002000;00:00:01;100;99;0;99;90;"
		"2;7;00:00:00:001000;\n"
		"2026-11-22\t04:26:50.000000\t1000.000000;"
		"2026-11-22\t04:26:51.002000\t1001.002000;"
		"2026-11-22\t04:26:52.003000\t1002.003000;00:00:01;200;200;0;200;"
		"150;10;30;00:00:00:001000;\n"
		/* a row cut short by a killed writer */
		"2026-11-22\t04:26:50.000000\t1000.000000;"
		"2026-11-22\t04:26:52.003000\t1002.003000;2026";

static const char *uas_stat =
		"StartTime;LastResetTime;CurrentTime;TargetRate;IncomingCall(P);"
		"OutgoingCall(P);FailedCall(P);Retransmissions(P)\n"
		"x\tx\t999.5;x\tx\t1000.2;x\tx\t1001.2;10;95;0;0;3\n";

static const char *uac_rtt = "Date_ms;response_time_ms;rtd_no\n"
							 "500.001;10;setup\n"
							 "700;600;setup\n"
							 "900;1;rejected\n"
							 "1500;20;setup\n"
							 "1600;30;setup\n"
							 "1700;40;setup\n"
							 "1800;50;other\n";

static const char *uas_rtt = "Date_ms;response_time_ms;rtd_no\n"
							 "600;4;1\n"
							 "1400;4;1\n"
							 "1450;4;1\n";

static const char *ovc_csv =
		"time,algorithm,f,cpu,queue_len,queue_delay_ms,mem_used,"
		"invite_offered,invite_admitted,invite_rejected,invite_dropped,"
		"extra\n"
		"1000,occ,1.000,0.50,0,0,10,100,100,0,0,9\n"
		"1001,occ,0.800,0.95,2,3,10,200,160,40,0,9\n"
		/* kamcmd may repeat the header and seconds (polled twice) */
		"time,algorithm,f,cpu\n"
		"1001,occ,0.700,0.96\n";

static FILE *mem(const char *s)
{
	FILE *f = fmemopen((void *)s, strlen(s), "r");

	ck_assert_ptr_nonnull(f);
	return f;
}

static bench_sec_t *sec_at(bench_run_t *run, long t)
{
	ck_assert_int_ge(t, run->base);
	ck_assert_int_lt(t - run->base, (long)run->n);
	return &run->secs[t - run->base];
}

START_TEST(test_sipp_time)
{
	double v;

	ck_assert_int_eq(
			bench_parse_sipp_time("2026-11-22\t04:26:36.1\t17.25", &v), 0);
	ck_assert_double_eq_tol(v, 17.25, 1e-9);
	ck_assert_int_eq(bench_parse_sipp_time("42.5", &v), 0);
	ck_assert_double_eq_tol(v, 42.5, 1e-9);
	ck_assert_int_eq(bench_parse_sipp_time("2026-11-22\t04:26", &v), -1);
	ck_assert_int_eq(bench_parse_sipp_time("", &v), -1);
}
END_TEST

START_TEST(test_stat_uac)
{
	bench_run_t run;
	bench_sec_t *s;
	double start = 0;
	FILE *f = mem(uac_stat);

	bench_run_init(&run, 500);
	ck_assert_int_eq(bench_add_sipp_stat(&run, f, 1, &start), 3);
	fclose(f);
	ck_assert_double_eq_tol(start, 1000.0, 1e-9);
	/* periods binned by their middle (1000.5, 1001.5); the start-up row
	 * (no duration) does not count the target twice */
	s = sec_at(&run, 1000);
	ck_assert_int_eq(s->offered, 99);
	ck_assert_int_eq(s->failed, 2);
	ck_assert_int_eq(s->retrans, 7);
	ck_assert_double_eq_tol(s->target, 100, 1e-9);
	s = sec_at(&run, 1001);
	ck_assert_int_eq(s->offered, 200);
	ck_assert_int_eq(s->retrans, 30);
	ck_assert_int_eq(s->uas_invites, 0);
	bench_run_free(&run);
}
END_TEST

START_TEST(test_stat_bad_header)
{
	bench_run_t run;
	FILE *f = mem("Date_ms;response_time_ms;rtd_no\n1;2;3\n");

	bench_run_init(&run, 500);
	ck_assert_int_eq(bench_add_sipp_stat(&run, f, 1, NULL), -1);
	fclose(f);
	bench_run_free(&run);
}
END_TEST

START_TEST(test_rtt)
{
	bench_run_t run;
	bench_sec_t *s;
	FILE *f;

	bench_run_init(&run, 500);
	f = mem(uac_rtt);
	ck_assert_int_eq(bench_add_sipp_rtt(&run, f, 1, 1000.0), 6);
	fclose(f);
	f = mem(uas_rtt);
	ck_assert_int_eq(bench_add_sipp_rtt(&run, f, 0, 999.9), 3);
	fclose(f);
	s = sec_at(&run, 1000);
	ck_assert_int_eq(s->timely, 1); /* 600 ms is not timely */
	ck_assert_int_eq(s->nsetup, 2);
	ck_assert_int_eq(s->rejected, 1);
	ck_assert_int_eq(s->goodput, 1); /* 999.9 + 0.6 */
	s = sec_at(&run, 1001);
	ck_assert_int_eq(s->timely, 3);
	ck_assert_int_eq(s->goodput, 2); /* 1001.3, 1001.35 */
	bench_run_free(&run);
}
END_TEST

START_TEST(test_ovc_csv)
{
	bench_run_t run;
	bench_sec_t *s;
	FILE *f = mem(ovc_csv);

	bench_run_init(&run, 500);
	ck_assert_int_eq(bench_add_ovc_csv(&run, f), 3);
	fclose(f);
	ck_assert_str_eq(run.algorithm, "occ");
	s = sec_at(&run, 1000);
	ck_assert(s->has_ovc);
	ck_assert_double_eq_tol(s->ovc[BENCH_OVC_F], 1.0, 1e-9);
	ck_assert_double_eq_tol(s->ovc[BENCH_OVC_INV_ADMITTED], 100, 1e-9);
	/* the last row of a second wins, missing columns become NAN */
	s = sec_at(&run, 1001);
	ck_assert_double_eq_tol(s->ovc[BENCH_OVC_F], 0.7, 1e-9);
	ck_assert_double_eq_tol(s->ovc[BENCH_OVC_CPU], 0.96, 1e-9);
	ck_assert(isnan(s->ovc[BENCH_OVC_INV_REJECTED]));
	bench_run_free(&run);
}
END_TEST

START_TEST(test_ovc_csv_quoted_and_empty)
{
	bench_run_t run;
	FILE *f;

	bench_run_init(&run, 500);
	f = mem("");
	ck_assert_int_eq(bench_add_ovc_csv(&run, f), 0);
	fclose(f);
	f = mem("error: command not found\n");
	ck_assert_int_eq(bench_add_ovc_csv(&run, f), 0);
	fclose(f);
	ck_assert_int_eq(run.n, 0);
	f = mem("\t\"time,algorithm,f,cpu\"\n\t\"1005,none,1,0.25\"\n");
	ck_assert_int_eq(bench_add_ovc_csv(&run, f), 1);
	fclose(f);
	ck_assert_double_eq_tol(
			sec_at(&run, 1005)->ovc[BENCH_OVC_CPU], 0.25, 1e-9);
	bench_run_free(&run);
}
END_TEST

START_TEST(test_percentile)
{
	double v[] = {5, 1, 4, 2, 3};
	double one[] = {7};

	ck_assert_double_eq_tol(bench_percentile(v, 5, 50), 3, 1e-9);
	ck_assert_double_eq_tol(bench_percentile(v, 5, 95), 4.8, 1e-9);
	ck_assert_double_eq_tol(bench_percentile(v, 5, 0), 1, 1e-9);
	ck_assert_double_eq_tol(bench_percentile(v, 5, 100), 5, 1e-9);
	ck_assert_double_eq_tol(bench_percentile(one, 1, 95), 7, 1e-9);
	ck_assert(isnan(bench_percentile(NULL, 0, 50)));
}
END_TEST

START_TEST(test_seconds_grow_both_ways)
{
	bench_run_t run;

	bench_run_init(&run, 500);
	ck_assert_ptr_nonnull(bench_run_sec(&run, 100));
	ck_assert_ptr_nonnull(bench_run_sec(&run, 105));
	ck_assert_ptr_nonnull(bench_run_sec(&run, 98));
	ck_assert_int_eq(run.base, 98);
	ck_assert_int_eq(run.n, 8);
	ck_assert_int_eq(run.secs[2].t, 100);
	ck_assert_int_eq(run.secs[7].t, 105);
	/* absurd timestamps are refused, not allocated */
	ck_assert_ptr_null(bench_run_sec(&run, 100 + 10 * 86400));
	bench_run_free(&run);
}
END_TEST

/* the whole merge, written to CSV and summarized */
START_TEST(test_merge_csv_and_summary)
{
	bench_run_t run;
	bench_summary_t s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f, *out;
	double start = 0;

	bench_run_init(&run, 500);
	f = mem(uac_stat);
	bench_add_sipp_stat(&run, f, 1, &start);
	fclose(f);
	f = mem(uac_rtt);
	bench_add_sipp_rtt(&run, f, 1, start);
	fclose(f);
	f = mem(uas_stat);
	ck_assert_int_eq(bench_add_sipp_stat(&run, f, 0, NULL), 1);
	fclose(f);
	f = mem(uas_rtt);
	bench_add_sipp_rtt(&run, f, 0, 999.5);
	fclose(f);
	f = mem(ovc_csv);
	bench_add_ovc_csv(&run, f);
	fclose(f);

	out = open_memstream(&buf, &len);
	ck_assert_int_eq(bench_write_csv(&run, out, 1000, 0, 0), 2);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(buf, "time,t,target_cps,offered_cps,"));
	free(buf);
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(bench_write_csv(&run, out, 1000, 1001, 1002), 1);
	fclose(out);
	ck_assert_ptr_null(strstr(buf, "\n1000,"));
	free(buf);
	out = open_memstream(&buf, &len);
	bench_write_csv(&run, out, 1000, 0, 0);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(buf, ",cpu,f,queue_len,queue_delay_ms,"));
	/* second 1000: target 100, 99 offered, 95 at UAS, goodput 3
	 * (999.5 + 0.6/1.4/1.45), p50 of {10, 600} = 305 */
	ck_assert_ptr_nonnull(
			strstr(buf, "\n1000,0,100,99,95,3,1,1,2,7,3,305,570.5,2,0.5,1,"));
	ck_assert_ptr_nonnull(strstr(buf, "\n1001,1,200,200,0,0,3,0,10,30,0,30,"));
	free(buf);

	bench_summarize(&run, 1000, 1002, &s);
	ck_assert_int_eq(s.seconds, 2);
	ck_assert_int_eq(s.calls_offered, 299);
	ck_assert_int_eq(s.calls_completed, 3);
	ck_assert_int_eq(s.calls_timely, 4);
	ck_assert_double_eq_tol(s.offered_cps, 149.5, 1e-9);
	ck_assert_double_eq_tol(s.retrans_ratio, 37.0 / 299.0, 1e-9);
	/* setups {10, 600, 20, 30, 40}: p50 30, mean 140 */
	ck_assert_double_eq_tol(s.setup_p50_ms, 30, 1e-9);
	ck_assert_double_eq_tol(s.setup_mean_ms, 140, 1e-9);
	ck_assert_double_eq_tol(s.cpu_mean, (0.5 + 0.96) / 2, 1e-9);
	ck_assert_double_eq_tol(s.f_mean, (1.0 + 0.7) / 2, 1e-9);
	bench_run_free(&run);
}
END_TEST

START_TEST(test_summary_without_ovc)
{
	bench_run_t run;
	bench_summary_t s;
	FILE *f = mem(uac_stat);

	bench_run_init(&run, 500);
	bench_add_sipp_stat(&run, f, 1, NULL);
	fclose(f);
	bench_summarize(&run, 0, 0, &s);
	ck_assert(isnan(s.cpu_mean));
	ck_assert(isnan(s.f_mean));
	ck_assert(isnan(s.setup_p50_ms));
	ck_assert(isnan(s.setup_mean_ms));
	ck_assert_int_eq(s.calls_offered, 299);
	bench_run_free(&run);
}
END_TEST

START_TEST(test_extra_csv)
{
	bench_run_t run;
	bench_summary_t s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f, *out;

	bench_run_init(&run, 500);
	f = mem("time,proxy_cpu,sipp_cpu\n1000,0.5,0.1\n1001.9,1.0,\n");
	ck_assert_int_eq(bench_add_extra_csv(&run, f), 2);
	fclose(f);
	f = mem("nottime,x\n1,2\n");
	ck_assert_int_eq(bench_add_extra_csv(&run, f), -1);
	fclose(f);
	ck_assert_int_eq(run.nextra, 2);
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(bench_write_csv(&run, out, 1000, 0, 0), 2);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(buf, ",invite_dropped,proxy_cpu,sipp_cpu\n"));
	ck_assert_ptr_nonnull(strstr(buf, ",0.5,0.1\n"));
	ck_assert_ptr_nonnull(strstr(buf, ",1,\n"));
	free(buf);
	bench_summarize(&run, 0, 0, &s);
	ck_assert_double_eq_tol(s.extra_mean[0], 0.75, 1e-9);
	ck_assert_double_eq_tol(s.extra_mean[1], 0.1, 1e-9);
	bench_run_free(&run);
}
END_TEST

/* g_opt vectors: r, ct, beta, expected */
static const double gopt_vec[][4] = {
		{0.0, 0.9, 5.0, 0.0},
		{0.5, 0.9, 5.0, 0.5},
		{0.8999, 0.9, 5.0, 0.8999},
		{0.9, 0.9, 5.0, 0.9},	/* continuous at ct */
		{2.0, 0.9, 5.0, 0.625},   /* (4.5 - 2) / 4 */
		{4.4, 0.9, 5.0, 0.025},
		{4.5, 0.9, 5.0, 0.0},	 /* r_max = ct * beta */
		{10.0, 0.9, 5.0, 0.0},
		{1.0, 1.0, 10.0, 1.0},
		{5.5, 1.0, 10.0, 0.5},
		{2.0, 0.9, 1.0, 0.0},	 /* beta <= 1: no overload zone */
		{0.5, 0.9, 0.5, 0.5},
};

START_TEST(test_gopt_vectors)
{
	const double *v = gopt_vec[_i];

	ck_assert_double_eq_tol(bench_gopt(v[0], v[1], v[2]), v[3], 1e-9);
}
END_TEST

START_TEST(test_gopt_invalid)
{
	ck_assert(isnan(bench_gopt(-1, 0.9, 5)));
	ck_assert(isnan(bench_gopt(1, 0, 5)));
	ck_assert(isnan(bench_gopt(1, 1.5, 5)));
	ck_assert(isnan(bench_gopt(NAN, 0.9, 5)));
	ck_assert_double_eq_tol(bench_rmax(0.9, 5), 4.5, 1e-9);
	ck_assert_double_eq_tol(bench_rmax(0.9, 0.8), 0.9, 1e-9);
	ck_assert(isnan(bench_rmax(0, 5)));
}
END_TEST

START_TEST(test_gopt_monotone_in_overload)
{
	double r, prev = INFINITY, g;

	for(r = 0.9; r <= 6.0; r += 0.01) {
		g = bench_gopt(r, 0.9, 5.0);
		ck_assert(g <= prev + 1e-12);
		ck_assert(g >= 0);
		prev = g;
	}
}
END_TEST

START_TEST(test_beta)
{
	ck_assert_double_eq_tol(bench_beta(2e-3, 4e-4), 5.0, 1e-9);
	ck_assert(isnan(bench_beta(0, 1)));
	ck_assert(isnan(bench_beta(1, 0)));
	ck_assert(isnan(bench_beta(-1, 1)));
}
END_TEST

static Suite *make_suite_merge(void)
{
	Suite *s = suite_create("merge");
	TCase *tc = tcase_create("merge");

	tcase_add_test(tc, test_sipp_time);
	tcase_add_test(tc, test_stat_uac);
	tcase_add_test(tc, test_stat_bad_header);
	tcase_add_test(tc, test_rtt);
	tcase_add_test(tc, test_ovc_csv);
	tcase_add_test(tc, test_ovc_csv_quoted_and_empty);
	tcase_add_test(tc, test_percentile);
	tcase_add_test(tc, test_seconds_grow_both_ways);
	tcase_add_test(tc, test_merge_csv_and_summary);
	tcase_add_test(tc, test_summary_without_ovc);
	tcase_add_test(tc, test_extra_csv);
	suite_add_tcase(s, tc);
	return s;
}

static Suite *make_suite_bound(void)
{
	Suite *s = suite_create("bound");
	TCase *tc = tcase_create("bound");

	tcase_add_loop_test(tc, test_gopt_vectors, 0,
			(int)(sizeof(gopt_vec) / sizeof(gopt_vec[0])));
	tcase_add_test(tc, test_gopt_invalid);
	tcase_add_test(tc, test_gopt_monotone_in_overload);
	tcase_add_test(tc, test_beta);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr;
	int failed;

	sr = srunner_create(make_suite_merge());
	srunner_add_suite(sr, make_suite_bound());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
