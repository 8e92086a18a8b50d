/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/types.c: error texts and name tables.
 */
#include <string.h>

#include "ovc/types.h"
#include "suites.h"

START_TEST(test_strerror)
{
	const int codes[] = {OVC_OK, OVC_EINVAL, OVC_ERANGE, OVC_ENOENT,
			OVC_ENOMEM, OVC_EFULL, OVC_EEMPTY};
	size_t i, j;

	for(i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		ck_assert_ptr_nonnull(ovc_strerror(codes[i]));
		ck_assert_str_ne(ovc_strerror(codes[i]), "unknown error");
		for(j = 0; j < i; j++)
			ck_assert_str_ne(ovc_strerror(codes[i]), ovc_strerror(codes[j]));
	}
	ck_assert_str_eq(ovc_strerror(-100), "unknown error");
	ck_assert_str_eq(ovc_strerror(7), "unknown error");
}
END_TEST

START_TEST(test_class_names)
{
	ck_assert_str_eq(ovc_class_name(OVC_CLASS_INVITE), "invite");
	ck_assert_str_eq(ovc_class_name(OVC_CLASS_INDIALOG), "indialog");
	ck_assert_str_eq(ovc_class_name(OVC_CLASS_REGISTER), "register");
	ck_assert_str_eq(ovc_class_name(OVC_CLASS_OTHER), "other");
	ck_assert_ptr_null(ovc_class_name(OVC_CLASS_COUNT));
	ck_assert_ptr_null(ovc_class_name((enum ovc_class) - 1));
	ck_assert_str_eq(ovc_dlg_name(OVC_DLG_BYE), "bye");
	ck_assert_str_eq(ovc_dlg_name(OVC_DLG_REINVITE), "reinvite");
	ck_assert_str_eq(ovc_dlg_name(OVC_DLG_INFO), "info");
	ck_assert_str_eq(ovc_dlg_name(OVC_DLG_OTHER), "other");
	ck_assert_ptr_null(ovc_dlg_name(OVC_DLG_COUNT));
}
END_TEST

Suite *make_suite_types(void)
{
	Suite *s = suite_create("types");
	TCase *tc = tcase_create("names");

	tcase_add_test(tc, test_strerror);
	tcase_add_test(tc, test_class_names);
	suite_add_tcase(s, tc);
	return s;
}
