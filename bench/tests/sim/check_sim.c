/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim tests - the runner: every suite, check's summary on stdout,
 * exit status non-zero on any failure.
 */
#include <stdlib.h>

#include "suites.h"

int main(void)
{
	SRunner *sr = srunner_create(make_suite_evq());
	int failed;

	srunner_add_suite(sr, make_suite_siptimer());
	srunner_add_suite(sr, make_suite_source());
	srunner_add_suite(sr, make_suite_profile());
	srunner_add_suite(sr, make_suite_model());
	srunner_add_suite(sr, make_suite_regress());
	srunner_add_suite(sr, make_suite_es());
	srunner_add_suite(sr, make_suite_module());
	srunner_add_suite(sr, make_suite_server());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
