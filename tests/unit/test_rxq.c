/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/rxq.c: /proc/net/{udp,tcp} parsing (real lines,
 * IPv6, malformed, truncated, missing content), the wait estimator, the
 * guard's cap, the SO_RCVBUF sizing and the age test.
 */
#include <math.h>
#include <string.h>

#include "ovc/rxq.h"
#include "ovc/types.h"
#include "suites.h"

/* captured from this machine's /proc/net/udp (ports 0x4E2C = 20012,
 * 0x4E2D = 20013) */
static const char udp_text[] =
		"   sl  local_address rem_address   st tx_queue rx_queue tr tm->when "
		"retrnsmt   uid  timeout inode ref pointer drops\n"
		"  120: 0100007F:4E2C 00000000:0000 07 00000000:0007D000 00:00000000 "
		"00000000     0        0 912345 2 0000000000000000 1234\n"
		"  121: 0100007F:4E2D 00000000:0000 07 00000000:00000500 00:00000000 "
		"00000000     0        0 912346 2 0000000000000000 0\n"
		"  122: 0100007F:0035 00000000:0000 07 00000000:00001000 00:00000000 "
		"00000000   101        0 777 2 0000000000000000 5\n";

static const char udp6_line[] =
		"  10: 00000000000000000000000001000000:4E2C "
		"00000000000000000000000000000000:0000 07 00000000:00000A00 "
		"00:00000000 00000000     0        0 555 2 0000000000000000 9";

/* tcp: a listener on 5060 with 3 connections waiting to be accepted, one
 * established connection on 5060 with 0x300 unread bytes, one elsewhere */
static const char tcp_text[] =
		"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when "
		"retrnsmt   uid  timeout inode\n"
		"   0: 0100007F:13C4 00000000:0000 0A 00000000:00000003 00:00000000 "
		"00000000     0        0 4001 1 0000000000000000 100 0 0 10 0\n"
		"   1: 0100007F:13C4 0100007F:9C40 01 00000000:00000300 00:00000000 "
		"00000000     0        0 4002 1 0000000000000000 20 4 30 10 -1\n"
		"   2: 0100007F:0016 0100007F:9C41 01 00000000:00000700 00:00000000 "
		"00000000     0        0 4003 1 0000000000000000 20 4 30 10 -1\n";

START_TEST(test_rxq_parse_udp)
{
	struct ovc_rxq_sock s;
	const char *l1 = strchr(udp_text, '\n') + 1;

	ck_assert_int_eq(ovc_rxq_parse_line(l1, strcspn(l1, "\n"), &s), OVC_OK);
	ck_assert_uint_eq(s.port, 20012);
	ck_assert_uint_eq(s.state, 7);
	ck_assert_uint_eq(s.rx_queue, 0x7D000);
	ck_assert_uint_eq(s.tx_queue, 0);
	ck_assert_uint_eq(s.inode, 912345);
	ck_assert_uint_eq(s.drops, 1234);
	ck_assert_int_eq(
			ovc_rxq_parse_line(udp6_line, strlen(udp6_line), &s), OVC_OK);
	ck_assert_uint_eq(s.port, 20012);
	ck_assert_uint_eq(s.rx_queue, 0xA00);
	ck_assert_uint_eq(s.inode, 555);
	ck_assert_uint_eq(s.drops, 9);
	/* the header is not a socket */
	ck_assert_int_eq(
			ovc_rxq_parse_line(udp_text, strcspn(udp_text, "\n"), &s),
			OVC_EINVAL);
}
END_TEST

START_TEST(test_rxq_scan_udp_ports_inodes)
{
	struct ovc_rxq_sum sum;
	uint16_t ports[] = {20012, 20013};
	uint64_t inodes[] = {777};
	struct ovc_rxq_filter f = {ports, 2, NULL, 0};

	memset(&sum, 0, sizeof(sum));
	ck_assert_int_eq(
			ovc_rxq_scan(udp_text, strlen(udp_text), &f, 0, &sum), OVC_OK);
	ck_assert_uint_eq(sum.matched, 2);
	ck_assert_uint_eq(sum.rx_bytes, 0x7D000 + 0x500);
	ck_assert_uint_eq(sum.drops, 1234);
	ck_assert_uint_eq(sum.malformed, 0);
	/* by inode only: the DNS socket */
	memset(&sum, 0, sizeof(sum));
	f = (struct ovc_rxq_filter){NULL, 0, inodes, 1};
	ovc_rxq_scan(udp_text, strlen(udp_text), &f, 0, &sum);
	ck_assert_uint_eq(sum.matched, 1);
	ck_assert_uint_eq(sum.rx_bytes, 0x1000);
	ck_assert_uint_eq(sum.drops, 5);
	/* no filter entries: nothing matches */
	memset(&sum, 0, sizeof(sum));
	f = (struct ovc_rxq_filter){NULL, 0, NULL, 0};
	ovc_rxq_scan(udp_text, strlen(udp_text), &f, 0, &sum);
	ck_assert_uint_eq(sum.matched, 0);
	ck_assert_uint_eq(sum.rx_bytes, 0);
}
END_TEST

START_TEST(test_rxq_scan_tcp)
{
	struct ovc_rxq_sum sum;
	uint16_t ports[] = {5060};
	struct ovc_rxq_filter f = {ports, 1, NULL, 0};

	memset(&sum, 0, sizeof(sum));
	ck_assert_int_eq(
			ovc_rxq_scan(tcp_text, strlen(tcp_text), &f, 1, &sum), OVC_OK);
	ck_assert_uint_eq(sum.matched, 2);
	ck_assert_uint_eq(sum.backlog, 3);
	ck_assert_uint_eq(sum.rx_bytes, 0x300);
	ck_assert_uint_eq(sum.drops, 0);
	ck_assert_uint_eq(sum.malformed, 0);
}
END_TEST

/* malformed lines of every kind are skipped and counted, never matched */
static const char *bad_lines[] = {
		"",
		"garbage",
		"  0: 0100007F:4E2C",
		"  x: 0100007F:4E2C 00000000:0000 07 00000000:00000010 00:00000000 "
		"00000000 0 0 1 2 0 0",
		"  0: 0100007F4E2C 00000000:0000 07 00000000:00000010 00:00000000 "
		"00000000 0 0 1 2 0 0",
		"  0: 0100007F:4E2C 00000000:0000 07 00000000-00000010 00:00000000 "
		"00000000 0 0 1 2 0 0",
		"  0: 0100007F:4E2C 00000000:0000 07 00000000:0000001G 00:00000000 "
		"00000000 0 0 1 2 0 0",
		"  0: 0100007F:14E2C 00000000:0000 07 00000000:00000010 00:00000000 "
		"00000000 0 0 1 2 0 0",
		"  0: 0100007:4E2C 00000000:0000 07 00000000:00000010 00:00000000 "
		"00000000 0 0 1 2 0 0",
		"  0: 0100007F:4E2C 00000000:0000 07 00000000:11111111111111111 "
		"00:00000000 00000000 0 0 1 2 0 0",
		"  0: 0100007F:4E2C 00000000:0000 07 00000000:00000010 00:00000000 "
		"00000000 0 0 99999999999999999999999 2 0 0",
		"  0: 0100007F:4E2C 00000000:0000 7FF 00000000:00000010 00:00000000 "
		"00000000 0 0 1 2 0 0",
		"  0: 0100007F:4E2C 00000000:0000 07 :00000010 00:00000000 "
		"00000000 0 0 1 2 0 0",
		"  0: 0100007F:4E2C 00000000:0000 07 00000000:00000010 00:00000000 "
		"00000000 -1 0 1 2 0 0",
};

START_TEST(test_rxq_malformed)
{
	const char *l = bad_lines[_i];
	struct ovc_rxq_sock s, before;
	struct ovc_rxq_sum sum;
	uint16_t ports[] = {20012};
	struct ovc_rxq_filter f = {ports, 1, NULL, 0};

	memset(&s, 0xab, sizeof(s));
	memcpy(&before, &s, sizeof(before)); /* padding too */
	ck_assert_int_eq(ovc_rxq_parse_line(l, strlen(l), &s), OVC_EINVAL);
	ck_assert(memcmp(&s, &before, sizeof(s)) == 0);
	memset(&sum, 0, sizeof(sum));
	ck_assert_int_eq(ovc_rxq_scan(l, strlen(l), &f, 0, &sum), OVC_OK);
	ck_assert_uint_eq(sum.matched, 0);
	ck_assert_uint_eq(sum.rx_bytes, 0);
	ck_assert_uint_eq(sum.malformed, l[0] != '\0');
}
END_TEST

START_TEST(test_rxq_truncated_and_missing)
{
	struct ovc_rxq_sum sum;
	uint16_t ports[] = {20012, 20013};
	struct ovc_rxq_filter f = {ports, 2, NULL, 0};
	const char *l1 = strchr(udp_text, '\n') + 1;
	size_t cut = (size_t)(l1 - udp_text) + 40; /* mid-line */
	char bin[64];

	/* text cut in the middle of the first socket line: that line is
	 * malformed, nothing is read past len */
	memset(&sum, 0, sizeof(sum));
	ck_assert_int_eq(ovc_rxq_scan(udp_text, cut, &f, 0, &sum), OVC_OK);
	ck_assert_uint_eq(sum.matched, 0);
	ck_assert_uint_eq(sum.malformed, 1);
	/* missing file: empty content */
	memset(&sum, 0, sizeof(sum));
	ck_assert_int_eq(ovc_rxq_scan("", 0, &f, 0, &sum), OVC_OK);
	ck_assert_uint_eq(sum.matched + sum.malformed, 0);
	/* header only */
	memset(&sum, 0, sizeof(sum));
	ovc_rxq_scan(udp_text, strcspn(udp_text, "\n") + 1, &f, 0, &sum);
	ck_assert_uint_eq(sum.matched + sum.malformed, 0);
	/* last line without a newline still counts; drops column missing */
	memset(&sum, 0, sizeof(sum));
	{
		const char *t = "  0: 0100007F:4E2D 00000000:0000 07 "
						"00000000:00000010 00:00000000 00000000 0 0 42";

		ovc_rxq_scan(t, strlen(t), &f, 0, &sum);
		ck_assert_uint_eq(sum.matched, 1);
		ck_assert_uint_eq(sum.rx_bytes, 16);
		ck_assert_uint_eq(sum.drops, 0);
	}
	/* binary junk with NULs */
	memset(bin, 0, sizeof(bin));
	memcpy(bin + 10, "\xff\xfe:\n\n 1: zz", 12);
	memset(&sum, 0, sizeof(sum));
	ck_assert_int_eq(ovc_rxq_scan(bin, sizeof(bin), &f, 0, &sum), OVC_OK);
	ck_assert_uint_eq(sum.matched, 0);
	ck_assert_uint_ge(sum.malformed, 1);
	/* NULL arguments */
	ck_assert_int_eq(ovc_rxq_scan(NULL, 0, &f, 0, &sum), OVC_EINVAL);
	ck_assert_int_eq(ovc_rxq_scan("", 0, NULL, 0, &sum), OVC_EINVAL);
	ck_assert_int_eq(ovc_rxq_scan("", 0, &f, 0, NULL), OVC_EINVAL);
	ck_assert_int_eq(ovc_rxq_parse_line(NULL, 0, NULL), OVC_EINVAL);
}
END_TEST

START_TEST(test_rxq_est)
{
	struct ovc_rxq_est e, before;
	int i;

	ck_assert_int_eq(ovc_rxq_est_init(&e, 0.2), OVC_OK);
	/* empty queue: no wait, no rate learnt from what merely arrives */
	ck_assert_int_eq(ovc_rxq_est_step(&e, 0, 10, 0.02), OVC_OK);
	ck_assert(ovc_rxq_est_wait_s(&e) == 0);
	ck_assert(ovc_rxq_est_rate(&e) == 0);
	/* a backlog appears: first rate taken as is (100 msgs in 0.02 s) */
	ovc_rxq_est_step(&e, 400, 100, 0.02);
	ck_assert_double_eq_tol(ovc_rxq_est_rate(&e), 5000, 1e-9);
	ck_assert_double_eq_tol(ovc_rxq_est_wait_s(&e), 400.0 / 5000, 1e-12);
	/* backlogged at 2000/s for long: converges to 2000/s, wait q/2000 */
	for(i = 0; i < 200; i++)
		ovc_rxq_est_step(&e, 1000, 40, 0.02);
	ck_assert_double_eq_tol(ovc_rxq_est_rate(&e), 2000, 1e-3);
	ck_assert_double_eq_tol(ovc_rxq_est_wait_s(&e), 0.5, 1e-6);
	/* one step of the filter: a = 1 - exp(-dt/tau) */
	ovc_rxq_est_init(&e, 0.1);
	ovc_rxq_est_step(&e, 10, 10, 0.01); /* rate 1000 */
	ovc_rxq_est_step(&e, 10, 20, 0.01); /* sample 2000 */
	ck_assert_double_eq_tol(ovc_rxq_est_rate(&e),
			1000 + (1 - exp(-0.1)) * 1000, 1e-9);
	/* backlogged and nothing drained (descheduled): the rate falls, the
	 * wait rises */
	memcpy(&before, &e, sizeof(before)); /* padding too */
	ovc_rxq_est_step(&e, 10, 0, 0.01);
	ck_assert_double_eq_tol(
			ovc_rxq_est_rate(&e), before.rate * exp(-0.1), 1e-9);
	ck_assert_double_eq_tol(ovc_rxq_est_wait_s(&e),
			10 / (before.rate * exp(-0.1)), 1e-12);
	/* stalled before any rate was measured: the wait grows by dt */
	ovc_rxq_est_init(&e, 0.1);
	ovc_rxq_est_step(&e, 10, 0, 0.5);
	ck_assert_double_eq_tol(ovc_rxq_est_wait_s(&e), 0.5, 1e-12);
	ovc_rxq_est_step(&e, 10, 0, 0.5);
	ck_assert_double_eq_tol(ovc_rxq_est_wait_s(&e), 1.0, 1e-12);
	for(i = 0; i < 200; i++)
		ovc_rxq_est_step(&e, 10, 0, 1);
	ck_assert(ovc_rxq_est_wait_s(&e) == OVC_RXQ_WAIT_MAX_S);
	/* the queue empties: no wait */
	ovc_rxq_est_step(&e, 0, 10, 0.02);
	ck_assert(ovc_rxq_est_wait_s(&e) == 0);
	/* tau 0: no filtering */
	ovc_rxq_est_init(&e, 0);
	ovc_rxq_est_step(&e, 10, 10, 0.01);
	ovc_rxq_est_step(&e, 10, 30, 0.01);
	ck_assert_double_eq_tol(ovc_rxq_est_rate(&e), 3000, 1e-9);
	/* refusals change nothing */
	memcpy(&before, &e, sizeof(before)); /* padding too */
	ck_assert_int_eq(ovc_rxq_est_step(&e, -1, 1, 0.01), OVC_EINVAL);
	ck_assert_int_eq(ovc_rxq_est_step(&e, 1, -1, 0.01), OVC_EINVAL);
	ck_assert_int_eq(ovc_rxq_est_step(&e, 1, 1, 0), OVC_EINVAL);
	ck_assert_int_eq(ovc_rxq_est_step(&e, NAN, 1, 0.01), OVC_EINVAL);
	ck_assert_int_eq(ovc_rxq_est_step(&e, 1, INFINITY, 0.01), OVC_EINVAL);
	ck_assert_int_eq(ovc_rxq_est_step(NULL, 1, 1, 0.01), OVC_EINVAL);
	ck_assert(memcmp(&e, &before, sizeof(e)) == 0);
	ck_assert_int_eq(ovc_rxq_est_init(&e, -1), OVC_ERANGE);
	ck_assert_int_eq(ovc_rxq_est_init(&e, NAN), OVC_ERANGE);
	ck_assert(memcmp(&e, &before, sizeof(e)) == 0);
	ck_assert_int_eq(ovc_rxq_est_init(NULL, 1), OVC_EINVAL);
	ck_assert(ovc_rxq_est_wait_s(NULL) == 0 && ovc_rxq_est_rate(NULL) == 0);
}
END_TEST

START_TEST(test_rxq_guard)
{
	/* off, or under the threshold: no cap */
	ck_assert(ovc_rxq_guard_cap(1000, 0, 0.05) == 1.0);
	ck_assert(ovc_rxq_guard_cap(40, 50, 0.05) == 1.0);
	ck_assert(ovc_rxq_guard_cap(50, 50, 0.05) == 1.0);
	ck_assert(ovc_rxq_guard_cap(NAN, 50, 0.05) == 1.0);
	/* above: guard / wait */
	ck_assert_double_eq_tol(ovc_rxq_guard_cap(100, 50, 0.05), 0.5, 1e-15);
	ck_assert_double_eq_tol(ovc_rxq_guard_cap(200, 50, 0.05), 0.25, 1e-15);
	/* not below f_min */
	ck_assert_double_eq_tol(ovc_rxq_guard_cap(5000, 50, 0.05), 0.05, 1e-15);
	ck_assert(ovc_rxq_guard_cap(INFINITY, 50, 0.1) == 0.1);
	ck_assert(ovc_rxq_guard_cap(5000, 50, -1) == 0.01);
	ck_assert(ovc_rxq_guard_cap(5000, 50, 2) == 1.0);
}
END_TEST

START_TEST(test_rxq_rcvbuf_and_age)
{
	/* 16 messages of 1280 bytes: the kernel doubles 10240 to 20480 */
	ck_assert_uint_eq(ovc_rxq_rcvbuf_value(16, 1280), 10240);
	ck_assert_uint_eq(ovc_rxq_rcvbuf_value(1, 1), 1);
	ck_assert_uint_eq(ovc_rxq_rcvbuf_value(0, 1280), 0);
	ck_assert_uint_eq(ovc_rxq_rcvbuf_value(16, 0), 0);
	ck_assert_uint_eq(ovc_rxq_rcvbuf_value(4000000000u, 4000000000u),
			INT32_MAX);
	ck_assert_int_eq(ovc_rxq_too_old(101 * 1000000LL, 100), 1);
	ck_assert_int_eq(ovc_rxq_too_old(100 * 1000000LL, 100), 0);
	ck_assert_int_eq(ovc_rxq_too_old(INT64_MAX, 0), 0);
	ck_assert_int_eq(ovc_rxq_too_old(-1, 100), 0);
	ck_assert_int_eq(ovc_rxq_too_old(INT64_MAX, 60000), 1);
}
END_TEST

START_TEST(test_rxq_tcp_mss)
{
	/* rcvbuf_tcp 2 and 8: 2560 and 10240 bytes read back */
	ck_assert_uint_eq(ovc_rxq_tcp_mss(2560), 320);
	ck_assert_uint_eq(ovc_rxq_tcp_mss(10240), 1280);
	ck_assert_uint_eq(ovc_rxq_tcp_mss(0), 0);
	ck_assert_uint_eq(ovc_rxq_tcp_mss(100), 88); /* TCP_MIN_MSS */
	ck_assert_uint_eq(ovc_rxq_tcp_mss(256 * 1024 - 8), 32767);
	ck_assert_uint_eq(ovc_rxq_tcp_mss(256 * 1024), 0); /* window scales */
}
END_TEST

Suite *make_suite_rxq(void)
{
	Suite *s = suite_create("rxq");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_rxq_parse_udp);
	tcase_add_test(tc, test_rxq_scan_udp_ports_inodes);
	tcase_add_test(tc, test_rxq_scan_tcp);
	tcase_add_loop_test(tc, test_rxq_malformed, 0,
			(int)(sizeof(bad_lines) / sizeof(bad_lines[0])));
	tcase_add_test(tc, test_rxq_truncated_and_missing);
	tcase_add_test(tc, test_rxq_est);
	tcase_add_test(tc, test_rxq_guard);
	tcase_add_test(tc, test_rxq_rcvbuf_and_age);
	tcase_add_test(tc, test_rxq_tcp_mss);
	suite_add_tcase(s, tc);
	return s;
}
