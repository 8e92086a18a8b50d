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

START_TEST(test_alg_names)
{
	const char *names[] = {
			"none", "bbc", "occ", "occupancy", "aro", "sired", "rsoca", "pi"};
	enum ovc_alg a;
	unsigned i;

	ck_assert_int_eq(OVC_ALG_COUNT, sizeof(names) / sizeof(names[0]));
	for(i = 0; i < OVC_ALG_COUNT; i++) {
		ck_assert_str_eq(ovc_alg_name((enum ovc_alg)i), names[i]);
		a = OVC_ALG_COUNT;
		ck_assert_int_eq(ovc_alg_from_name(names[i], &a), OVC_OK);
		ck_assert_int_eq(a, i);
	}
	ck_assert_ptr_null(ovc_alg_name(OVC_ALG_COUNT));
	a = OVC_ALG_PI;
	ck_assert_int_eq(ovc_alg_from_name("OCC", &a), OVC_ENOENT);
	ck_assert_int_eq(ovc_alg_from_name("", &a), OVC_ENOENT);
	ck_assert_int_eq(ovc_alg_from_name("occ ", &a), OVC_ENOENT);
	ck_assert_int_eq(ovc_alg_from_name(NULL, &a), OVC_ENOENT);
	ck_assert_int_eq(a, OVC_ALG_PI);
}
END_TEST

START_TEST(test_alg_queued)
{
	/* the queue-based algorithms of 003 §V and 001 */
	ck_assert(ovc_alg_queued(OVC_ALG_BBC));
	ck_assert(ovc_alg_queued(OVC_ALG_SIRED));
	ck_assert(ovc_alg_queued(OVC_ALG_PI));
	/* arrival-side deciders */
	ck_assert(!ovc_alg_queued(OVC_ALG_NONE));
	ck_assert(!ovc_alg_queued(OVC_ALG_OCC));
	ck_assert(!ovc_alg_queued(OVC_ALG_OCCUPANCY));
	ck_assert(!ovc_alg_queued(OVC_ALG_ARO));
	ck_assert(!ovc_alg_queued(OVC_ALG_RSOCA));
	ck_assert(!ovc_alg_queued(OVC_ALG_COUNT));
}
END_TEST

Suite *make_suite_types(void)
{
	Suite *s = suite_create("types");
	TCase *tc = tcase_create("names");

	tcase_add_test(tc, test_strerror);
	tcase_add_test(tc, test_class_names);
	tcase_add_test(tc, test_alg_names);
	tcase_add_test(tc, test_alg_queued);
	suite_add_tcase(s, tc);
	return s;
}
