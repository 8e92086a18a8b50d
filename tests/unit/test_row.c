/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/row.c: the per-second column of a running total.
 */
#include "ovc/row.h"
#include "suites.h"

START_TEST(test_row_delta_seconds)
{
	struct ovc_row_delta d;

	ovc_row_delta_start(&d, 100);
	/* nothing noted yet for 10: the start holds */
	ovc_row_delta_end(&d, 10, 107);
	ck_assert_uint_eq(ovc_row_delta_of(&d, 10), 7);
	ovc_row_delta_end(&d, 11, 107);
	ck_assert_uint_eq(ovc_row_delta_of(&d, 11), 0);
	ovc_row_delta_end(&d, 12, 130);
	/* a second closes more than a second after its end: 11 after 12's end */
	ck_assert_uint_eq(ovc_row_delta_of(&d, 11), 0);
	ck_assert_uint_eq(ovc_row_delta_of(&d, 12), 23);
	/* the ring wraps: 13 to 16 reuse 9 to 12's slots */
	ovc_row_delta_end(&d, 13, 131);
	ovc_row_delta_end(&d, 14, 140);
	ovc_row_delta_end(&d, 15, 140);
	ovc_row_delta_end(&d, 16, 150);
	ck_assert_uint_eq(ovc_row_delta_of(&d, 14), 9);
	ck_assert_uint_eq(ovc_row_delta_of(&d, 15), 0);
	ck_assert_uint_eq(ovc_row_delta_of(&d, 16), 10);
}
END_TEST

START_TEST(test_row_delta_goes_back)
{
	struct ovc_row_delta d;

	ovc_row_delta_start(&d, 50);
	ovc_row_delta_end(&d, 1, 60);
	ovc_row_delta_end(&d, 2, 5); /* the counter restarted */
	ck_assert_uint_eq(ovc_row_delta_of(&d, 1), 10);
	ck_assert_uint_eq(ovc_row_delta_of(&d, 2), 0);
	ovc_row_delta_end(&d, 3, 8);
	ck_assert_uint_eq(ovc_row_delta_of(&d, 3), 3);
}
END_TEST

Suite *make_suite_row(void)
{
	Suite *s = suite_create("row");
	TCase *tc = tcase_create("delta");

	tcase_add_test(tc, test_row_delta_seconds);
	tcase_add_test(tc, test_row_delta_goes_back);
	suite_add_tcase(s, tc);
	return s;
}
