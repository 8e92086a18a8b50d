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

START_TEST(test_mode_cpu_source_names)
{
	unsigned i;

	ck_assert_str_eq(ovc_mode_name(OVC_MODE_MULTI), "multi");
	ck_assert_str_eq(ovc_mode_name(OVC_MODE_SINGLE), "single");
	ck_assert_ptr_null(ovc_mode_name(OVC_MODE_COUNT));
	ck_assert_str_eq(ovc_cpu_source_name(OVC_CPU_PROCS), "procs");
	ck_assert_str_eq(ovc_cpu_source_name(OVC_CPU_SYSTEM), "system");
	ck_assert_str_eq(ovc_cpu_source_name(OVC_CPU_CGROUP), "cgroup");
	ck_assert_str_eq(ovc_cpu_source_name(OVC_CPU_AUTO), "auto");
	ck_assert_ptr_null(ovc_cpu_source_name(OVC_CPU_SOURCE_COUNT));
	ck_assert_int_eq(ovc_names_find(&ovc_mode_names, "single"), 1);
	ck_assert_int_eq(ovc_names_find(&ovc_cpu_source_names, "cgroup"), 2);
	ck_assert_int_eq(ovc_names_find(&ovc_network_names, "e2e"), OVC_NET_E2E);
	ck_assert_int_eq(ovc_names_find(&ovc_network_names, "local"), 0);
	ck_assert_int_eq(ovc_names_find(&ovc_network_names, "hops"), -1);
	ck_assert_int_eq(ovc_names_find(&ovc_alg_names, "pi"), OVC_ALG_PI);
	ck_assert_int_eq(ovc_names_find(&ovc_mode_names, "both"), -1);
	ck_assert_int_eq(ovc_names_find(&ovc_mode_names, ""), -1);
	ck_assert_int_eq(ovc_names_find(&ovc_mode_names, NULL), -1);
	ck_assert_int_eq(ovc_names_find(NULL, "multi"), -1);
	/* the algorithm names are the descriptors' names */
	ck_assert_int_eq(ovc_alg_names.count, OVC_ALG_COUNT);
	for(i = 0; i < OVC_ALG_COUNT; i++)
		ck_assert_str_eq(
				ovc_alg_names.names[i], ovc_alg_name((enum ovc_alg)i));
}
END_TEST

START_TEST(test_names_join)
{
	char buf[64];

	ck_assert_str_eq(ovc_names_join(&ovc_alg_names, buf, sizeof(buf)),
			"none, bbc, occ, occupancy, aro, sired, rsoca, pi");
	ck_assert_str_eq(ovc_names_join(&ovc_mode_names, buf, sizeof(buf)),
			"multi, single");
	ck_assert_str_eq(ovc_names_join(&ovc_cpu_source_names, buf, sizeof(buf)),
			"procs, system, cgroup, auto");
	/* cut to the buffer, always terminated */
	ck_assert_str_eq(ovc_names_join(&ovc_mode_names, buf, 8), "multi");
	ck_assert_str_eq(ovc_names_join(&ovc_mode_names, buf, 1), "");
	ck_assert_str_eq(ovc_names_join(NULL, buf, sizeof(buf)), "");
}
END_TEST

Suite *make_suite_types(void)
{
	Suite *s = suite_create("types");
	TCase *tc = tcase_create("names");

	tcase_add_test(tc, test_strerror);
	tcase_add_test(tc, test_class_names);
	tcase_add_test(tc, test_mode_cpu_source_names);
	tcase_add_test(tc, test_names_join);
	suite_add_tcase(s, tc);
	return s;
}
