/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim tests - the exact RFC 3261 retransmission schedules: INVITE
 * (timer A, 7 transmissions before timer B), non-INVITE (timer E capped at
 * T2, 11 transmissions before timer F), 2xx (capped at T2), as 000 §II
 * counts them.
 */
#include "siptimer.h"
#include "suites.h"

#define MS(x) ((int64_t)(x) * 1000000)

START_TEST(test_invite_schedule)
{
	int64_t want[] = {0, MS(500), MS(1500), MS(3500), MS(7500), MS(15500),
			MS(31500)};
	int64_t got[32];
	int i, n;

	n = sim_rtx_schedule(SIM_RTX_INVITE, SIM_T1_NS, SIM_T2_NS,
			SIM_TIMEOUT_NS, got, 32);
	ck_assert_int_eq(n, 7);
	for(i = 0; i < n; i++)
		ck_assert_int_eq(got[i], want[i]);
}
END_TEST

START_TEST(test_noninvite_schedule)
{
	int64_t want[] = {0, MS(500), MS(1500), MS(3500), MS(7500), MS(11500),
			MS(15500), MS(19500), MS(23500), MS(27500), MS(31500)};
	int64_t got[32];
	int i, n;

	n = sim_rtx_schedule(SIM_RTX_NONINVITE, SIM_T1_NS, SIM_T2_NS,
			SIM_TIMEOUT_NS, got, 32);
	ck_assert_int_eq(n, 11);
	for(i = 0; i < n; i++)
		ck_assert_int_eq(got[i], want[i]);
	n = sim_rtx_schedule(SIM_RTX_2XX, SIM_T1_NS, SIM_T2_NS, SIM_TIMEOUT_NS,
			got, 32);
	ck_assert_int_eq(n, 11);
	for(i = 0; i < n; i++)
		ck_assert_int_eq(got[i], want[i]);
}
END_TEST

START_TEST(test_intervals)
{
	ck_assert_int_eq(sim_rtx_interval(SIM_RTX_INVITE, 0, SIM_T1_NS,
							 SIM_T2_NS),
			MS(500));
	ck_assert_int_eq(sim_rtx_interval(SIM_RTX_INVITE, 5, SIM_T1_NS,
							 SIM_T2_NS),
			MS(16000));
	ck_assert_int_eq(sim_rtx_interval(SIM_RTX_INVITE, 6, SIM_T1_NS,
							 SIM_T2_NS),
			MS(32000));
	ck_assert_int_eq(sim_rtx_interval(SIM_RTX_NONINVITE, 3, SIM_T1_NS,
							 SIM_T2_NS),
			MS(4000));
	ck_assert_int_eq(sim_rtx_interval(SIM_RTX_NONINVITE, 40, SIM_T1_NS,
							 SIM_T2_NS),
			MS(4000));
	ck_assert_int_eq(sim_rtx_interval(SIM_RTX_2XX, -1, SIM_T1_NS,
							 SIM_T2_NS),
			MS(500));
	/* never overflows */
	ck_assert(sim_rtx_interval(SIM_RTX_INVITE, 200, SIM_T1_NS, SIM_T2_NS)
			> 0);
}
END_TEST

START_TEST(test_schedule_max)
{
	int64_t got[3];

	ck_assert_int_eq(sim_rtx_schedule(SIM_RTX_INVITE, SIM_T1_NS, SIM_T2_NS,
							 SIM_TIMEOUT_NS, got, 3),
			3);
	ck_assert_int_eq(got[2], MS(1500));
}
END_TEST

Suite *make_suite_siptimer(void)
{
	Suite *s = suite_create("siptimer");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_invite_schedule);
	tcase_add_test(tc, test_noninvite_schedule);
	tcase_add_test(tc, test_intervals);
	tcase_add_test(tc, test_schedule_max);
	suite_add_tcase(s, tc);
	return s;
}
