/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - the module's ovc.csv text (src/csv.c, made
 * from ovc/columns.def) against golden files written by the code that
 * printed it by hand before: the header byte for byte, and three rows
 * (zeros, small values, values at the edge of their types) with every
 * number formatted as before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "ovc/csv.h"
#include "suites.h"

#define GOLD_HEADER "tests/data/ovc_csv_header.txt"
#define GOLD_ROWS "tests/data/ovc_csv_rows.txt"

/* bytes per message behind rx_queue_msgs (OVC_RXQ_MSG_BYTES) */
#define MSG_BYTES 1280

/* Reads line no (0 first) of path, without its newline, into buf. */
static void gold_line(const char *path, int no, char *buf, int size)
{
	FILE *f = fopen(path, "r");
	int i;

	ck_assert_msg(
			f != NULL, "cannot open %s (run from the top directory)", path);
	for(i = 0; i <= no; i++)
		ck_assert_ptr_nonnull(fgets(buf, size, f));
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* The golden rows' values: seed 0 all zero, 1 small numbers whose
 * fractions round, 2 counts near UINT64_MAX and large doubles; each field
 * in the order the generator filled them. */
static void fill(struct ovc_row *r, int seed)
{
	uint64_t k = 1;
	double d = 0.0;
	int c, v;

#define U() \
	(seed == 2 ? 18446744073709551615ULL - k++ : seed * 1000003ULL * k++)
#define D() (d += seed * 0.987654321, seed == 2 ? d * 1e7 + 0.05 : d + 0.00005)
	memset(r, 0, sizeof(*r));
	if(seed == 0)
		return;
	r->time = 1764000000 + seed;
	r->algorithm = seed % OVC_ALG_COUNT;
	r->f = D();
	r->cpu = D();
	r->queue_len = D();
	r->queue_delay_ms = D();
	r->queue_delay_max_ms = D();
	r->mem_used = U();
	r->rx_queue_bytes = U();
	r->rx_queue_msgs = r->rx_queue_bytes / MSG_BYTES;
	r->rx_queue_wait_ms = D();
	r->rx_drain_msgs_s = D();
	r->tcp_rx_bytes = U();
	r->rx_drops = U();
	r->guard_f = D();
	r->rcvbuf_bytes = U();
	r->overload = seed;
	r->cpu_reject = D();
	for(c = 0; c < OVC_CLASS_COUNT; c++)
		for(v = 0; v < OVC_V_COUNT; v++)
			r->v[c][v] = U();
	for(v = 0; v < OVC_E_DST_PASSED; v++)
		r->ev[v] = U();
	for(c = 0; c < OVC_DLG_COUNT; c++)
		for(v = 0; v < OVC_RS_COLS; v++)
			r->dlg[c][v] = U();
	for(v = 0; v < OVC_RS_E_COUNT; v++)
		r->rs_ev[v] = U();
	r->rsoca_d_en = D();
	r->rsoca_p = D();
	r->rsoca_p_cpu = D();
	r->rsoca_p_mem = D();
	r->mem_in_use = D();
	r->mem_min = D();
	r->mem_max = D();
	r->live_transactions = U();
	for(c = 0; c < OVC_CLASS_COUNT; c++)
		r->reaped[c] = U();
	/* the network columns, appended after the others */
	for(v = OVC_E_DST_PASSED; v <= OVC_E_OC_RECEIVED; v++)
		r->ev[v] = U();
	r->oc_reduction = D();
	r->dst_reduction_max = D();
	/* the kernel stage's columns, appended after them */
	r->kstage_share = D();
	r->kstage_drops = U();
	r->ev[OVC_E_DST_SENDQ] = U();
	r->ev[OVC_E_LATE_REJECT] = U();
	r->ev[OVC_E_SHARE_MET] = U();
#undef U
#undef D
}

START_TEST(test_header_golden)
{
	char want[4096], got[4096];
	int n;

	gold_line(GOLD_HEADER, 0, want, sizeof(want));
	n = ovc_csv_header(got, sizeof(got));
	ck_assert_int_eq(n, (int)strlen(want));
	ck_assert_str_eq(got, want);
}
END_TEST

START_TEST(test_rows_golden)
{
	char want[4096], got[4096];
	struct ovc_row r;
	int n;

	fill(&r, _i);
	gold_line(GOLD_ROWS, _i, want, sizeof(want));
	n = ovc_csv_line(&r, got, sizeof(got));
	ck_assert_int_eq(n, (int)strlen(want));
	ck_assert_str_eq(got, want);
}
END_TEST

/* Same number of values as names; names unique and documented. */
START_TEST(test_columns_table)
{
	char h[4096], l[4096];
	int i, j, commas_h = 0, commas_l = 0;
	struct ovc_row r;

	fill(&r, 1);
	ovc_csv_header(h, sizeof(h));
	ovc_csv_line(&r, l, sizeof(l));
	for(i = 0; h[i]; i++)
		commas_h += h[i] == ',';
	for(i = 0; l[i]; i++)
		commas_l += l[i] == ',';
	ck_assert_int_eq(commas_h, commas_l);
	ck_assert_int_eq(commas_h + 1, ovc_csv_columns());
	for(i = 0; i < ovc_csv_columns(); i++) {
		const struct ovc_csv_col *c = ovc_csv_column(i);

		ck_assert_ptr_nonnull(c);
		ck_assert(c->unit[0] != '\0' && c->doc[0] != '\0');
		for(j = 0; j < i; j++)
			ck_assert_str_ne(c->name, ovc_csv_column(j)->name);
	}
	ck_assert_ptr_null(ovc_csv_column(ovc_csv_columns()));
	ck_assert_ptr_null(ovc_csv_column(-1));
}
END_TEST

/* A short buffer: truncated like snprintf, the full length returned. */
START_TEST(test_truncation)
{
	char full[4096], small[40];
	struct ovc_row r;
	int n, m;

	fill(&r, 2);
	n = ovc_csv_line(&r, full, sizeof(full));
	m = ovc_csv_line(&r, small, sizeof(small));
	ck_assert_int_eq(m, n);
	ck_assert_uint_eq(strlen(small), sizeof(small) - 1);
	ck_assert(strncmp(small, full, sizeof(small) - 1) == 0);
	ck_assert_int_eq(ovc_csv_header(NULL, 0), ovc_csv_header(full, 4096));
}
END_TEST

Suite *make_suite_csv(void)
{
	Suite *s = suite_create("csv");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_header_golden);
	tcase_add_loop_test(tc, test_rows_golden, 0, 3);
	tcase_add_test(tc, test_columns_table);
	tcase_add_test(tc, test_truncation);
	suite_add_tcase(s, tc);
	return s;
}
