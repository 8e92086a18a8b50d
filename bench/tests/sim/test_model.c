/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim tests - the model end to end: the UAC's INVITE retransmissions
 * as seen by the proxy (exact timer A schedule, none over TCP), capacity
 * scaling, determinism, and the per-second counter balance of DESIGN.md.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "suites.h"

#define MS(x) ((int64_t)(x) * 1000000)

struct trace
{
	int64_t t[64]; /* INVITE arrivals of call 0 at the proxy, ns */
	int rtx[64];
	int n;
};

static void trace_inv(void *ctx, int64_t t, uint32_t call, const char *msg,
		int rtx)
{
	struct trace *tr = ctx;

	if(call == 0 && !strcmp(msg, "INVITE") && tr->n < 64) {
		tr->t[tr->n] = t;
		tr->rtx[tr->n++] = rtx;
	}
}

/* A proxy so slow that the first INVITE is still in service when timer B
 * fires: the UAC sends it at exactly 0, .5, 1.5, 3.5, 7.5, 15.5, 31.5 s. */
static void stuck_cfg(struct sim_cfg *c, struct trace *tr)
{
	sim_cfg_defaults(c);
	c->capacity = 0.001; /* one message takes ~167 s */
	sim_profile_constant(&c->prof, 1000); /* one call per second */
	c->abandon_s = 0;
	c->duration_s = 60;
	c->warmup_s = 0;
	c->trace = trace_inv;
	c->trace_ctx = tr;
}

START_TEST(test_model_timer_a_schedule)
{
	int64_t want[] = {0, MS(500), MS(1500), MS(3500), MS(7500), MS(15500),
			MS(31500)};
	struct sim_cfg c;
	struct sim_result r;
	struct trace tr = {0};
	int i;

	stuck_cfg(&c, &tr);
	ck_assert_int_eq(sim_run(&c, &r), 0);
	ck_assert_int_eq(tr.n, 7);
	for(i = 0; i < 7; i++) {
		ck_assert_int_eq(tr.t[i] - tr.t[0], want[i]);
		ck_assert_int_eq(tr.rtx[i], i > 0);
	}
}
END_TEST

START_TEST(test_model_tcp_no_rtx)
{
	struct sim_cfg c;
	struct sim_result r;
	struct trace tr = {0};

	stuck_cfg(&c, &tr);
	c.tcp = 1;
	ck_assert_int_eq(sim_run(&c, &r), 0);
	ck_assert_int_eq(tr.n, 1);
	ck_assert_int_eq(tr.rtx[0], 0);
}
END_TEST

/* Abandonment at 10 s: no retransmission after it. */
START_TEST(test_model_abandon)
{
	struct sim_cfg c;
	struct sim_result r;
	struct trace tr = {0};

	stuck_cfg(&c, &tr);
	c.abandon_s = 10;
	ck_assert_int_eq(sim_run(&c, &r), 0);
	ck_assert_int_eq(tr.n, 5);
	ck_assert_int_eq(tr.t[4] - tr.t[0], MS(7500));
}
END_TEST

/* Under capacity: goodput = load, CPU = load (one call costs 1/rho_M),
 * no retransmission, short setup. */
START_TEST(test_model_underload)
{
	struct sim_cfg c;
	struct sim_result r;

	sim_cfg_defaults(&c);
	sim_profile_constant(&c.prof, 0.5);
	c.duration_s = 40;
	c.warmup_s = 10;
	ck_assert_int_eq(sim_run(&c, &r), 0);
	ck_assert_double_eq_tol(r.g, r.r, 0.02);
	ck_assert_double_eq_tol(r.r, 0.5, 0.03);
	ck_assert_double_eq_tol(r.cpu, r.r, 0.02);
	ck_assert_double_eq(r.rtx_ratio, 0);
	ck_assert(r.setup_ms < 50);
	ck_assert_double_eq_tol(r.beta, 6.0 / 0.1667, 0.01);
}
END_TEST

START_TEST(test_model_deterministic)
{
	struct sim_cfg c;
	struct sim_result a, b;

	sim_cfg_defaults(&c);
	c.alg = OVC_ALG_OCC;
	sim_profile_constant(&c.prof, 2);
	c.duration_s = 30;
	ck_assert_int_eq(sim_run(&c, &a), 0);
	ck_assert_int_eq(sim_run(&c, &b), 0);
	ck_assert_uint_eq(a.events, b.events);
	ck_assert_double_eq(a.goodput, b.goodput);
	ck_assert_double_eq(a.cpu, b.cpu);
	c.seed = 2;
	ck_assert_int_eq(sim_run(&c, &b), 0);
	ck_assert_uint_ne(a.events, b.events);
}
END_TEST

/* Per second: offered = admitted + rejected + dropped + queued - dequeued
 * for INVITEs, offered = admitted + dropped in dialog. */
static void check_balance(enum ovc_alg alg, double load, int at_dequeue)
{
	struct sim_cfg c;
	struct sim_result r;
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	unsigned long v[22];
	int rows = 0, rc;

	ck_assert_ptr_nonnull(f);
	sim_cfg_defaults(&c);
	c.alg = alg;
	c.reject_at_dequeue = at_dequeue;
	sim_profile_constant(&c.prof, load);
	c.duration_s = 30;
	c.csv = f;
	c.csv_header = 1;
	rc = sim_run(&c, &r);
	fclose(f);
	ck_assert_msg(rc == 0, "the simulator cannot run %s", ovc_alg_name(alg));
	line = strtok_r(buf, "\n", &save);
	ck_assert_ptr_nonnull(strstr(line, "time,algorithm,f,cpu,queue_len,"
									   "queue_delay_ms,mem_used,invite_"
									   "offered"));
	while((line = strtok_r(NULL, "\n", &save))) {
		ck_assert_int_eq(sscanf(line,
								 "%lu,%*[^,],%*f,%*f,%lu,%*f,%lu,%lu,%lu,"
								 "%lu,%lu,%lu,%lu,%lu,%lu,%lu",
								 &v[0], &v[1], &v[2], &v[7], &v[8], &v[9],
								 &v[10], &v[11], &v[12], &v[13], &v[14],
								 &v[15]),
				12);
		ck_assert_uint_eq(v[7], v[8] + v[9] + v[10] + v[11] - v[12]);
		ck_assert_uint_eq(v[13], v[14] + v[15]);
		rows++;
	}
	ck_assert_int_eq(rows, 30);
	free(buf);
}

START_TEST(test_model_balance)
{
	check_balance(OVC_ALG_NONE, 2.0, 0);
	check_balance(OVC_ALG_OCC, 3.0, 0);
	check_balance(OVC_ALG_PI, 3.0, 0);
	check_balance(OVC_ALG_PI, 3.0, 1);
	check_balance(OVC_ALG_BBC, 3.0, 0);
	check_balance(OVC_ALG_SIRED, 3.0, 0);
	check_balance(OVC_ALG_RSOCA, 3.0, 0);
}
END_TEST

START_TEST(test_g_opt)
{
	ck_assert_double_eq(sim_g_opt(0.5, 0.9, 4), 0.5);
	ck_assert_double_eq_tol(sim_g_opt(2, 0.9, 4), (3.6 - 2) / 3, 1e-12);
	ck_assert_double_eq(sim_g_opt(3.6, 0.9, 4), 0);
	ck_assert_double_eq(sim_g_opt(5, 0.9, 4), 0);
}
END_TEST

Suite *make_suite_model(void)
{
	Suite *s = suite_create("model");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_model_timer_a_schedule);
	tcase_add_test(tc, test_model_tcp_no_rtx);
	tcase_add_test(tc, test_model_abandon);
	tcase_add_test(tc, test_model_underload);
	tcase_add_test(tc, test_model_deterministic);
	tcase_add_test(tc, test_model_balance);
	tcase_add_test(tc, test_g_opt);
	suite_add_tcase(s, tc);
	return s;
}
