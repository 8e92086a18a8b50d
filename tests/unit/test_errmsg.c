/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/errmsg.c: formatting, truncation, absent buffers.
 */
#include <string.h>

#include "ovc/errmsg.h"
#include "suites.h"

START_TEST(test_formats)
{
	char buf[64];

	ovc_set_err(buf, sizeof(buf), "%s: %d is outside [%d, %d]", "x", 7, 0, 5);
	ck_assert_str_eq(buf, "x: 7 is outside [0, 5]");
}
END_TEST

START_TEST(test_truncates)
{
	char buf[8];

	memset(buf, 'z', sizeof(buf));
	ovc_set_err(buf, sizeof(buf), "%s", "0123456789");
	ck_assert_str_eq(buf, "0123456");
}
END_TEST

START_TEST(test_absent_buffer)
{
	char buf[4] = "abc";

	ovc_set_err(NULL, 16, "%s", "ignored");
	ovc_set_err(buf, 0, "%s", "ignored");
	ck_assert_str_eq(buf, "abc");
}
END_TEST

Suite *make_suite_errmsg(void)
{
	Suite *s = suite_create("errmsg");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_formats);
	tcase_add_test(tc, test_truncates);
	tcase_add_test(tc, test_absent_buffer);
	suite_add_tcase(s, tc);
	return s;
}
