/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - the runner: adds every suite, prints check's summary
 * and what was skipped (SKIPPED: ...), and exits non-zero when anything
 * failed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "suites.h"

int main(void)
{
	SRunner *sr;
	int failed;

	sr = srunner_create(make_suite_types());
	srunner_add_suite(sr, make_suite_acceptor());
	srunner_add_suite(sr, make_suite_occ());
	srunner_add_suite(sr, make_suite_params());
	srunner_add_suite(sr, make_suite_controller());
	srunner_add_suite(sr, make_suite_ewma());
	srunner_add_suite(sr, make_suite_window());
	srunner_add_suite(sr, make_suite_cpu());
	srunner_add_suite(sr, make_suite_rate());
	srunner_add_suite(sr, make_suite_fifo());
	srunner_add_suite(sr, make_suite_bbc());
	srunner_add_suite(sr, make_suite_occupancy());
	srunner_add_suite(sr, make_suite_aro());
	srunner_add_suite(sr, make_suite_sired());
	srunner_add_suite(sr, make_suite_rsoca());
	srunner_add_suite(sr, make_suite_pi());
	srunner_add_suite(sr, make_suite_pishare());
	srunner_add_suite(sr, make_suite_sipscan());
	srunner_add_suite(sr, make_suite_sipreply());
	srunner_add_suite(sr, make_suite_rejmem());
	srunner_add_suite(sr, make_suite_pacer());
	srunner_add_suite(sr, make_suite_rxq());
	srunner_add_suite(sr, make_suite_rsoca_dos());
	srunner_add_suite(sr, make_suite_emerg());
	srunner_add_suite(sr, make_suite_errmsg());
	srunner_add_suite(sr, make_suite_agering());
	srunner_add_suite(sr, make_suite_derive());
	srunner_add_suite(sr, make_suite_alg());
	srunner_add_suite(sr, make_suite_admission());
	srunner_add_suite(sr, make_suite_plan());
	srunner_add_suite(sr, make_suite_onset());
	srunner_add_suite(sr, make_suite_capest());
	srunner_add_suite(sr, make_suite_memguard());
	srunner_add_suite(sr, make_suite_csv());
	srunner_add_suite(sr, make_suite_row());
	srunner_add_suite(sr, make_suite_nexthop());
	srunner_add_suite(sr, make_suite_ocloop());
	srunner_add_suite(sr, make_suite_oc7339());
	srunner_add_suite(sr, make_suite_octoken());
	srunner_add_suite(sr, make_suite_kstage_scan());
	srunner_add_suite(sr, make_suite_kstage_seen());
	srunner_add_suite(sr, make_suite_kstage_prog());
	srunner_add_suite(sr, make_suite_ksplit());
	srunner_add_suite(sr, make_suite_fair());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	if(kstage_prog_skipped() != NULL)
		printf("SKIPPED: %s\n", kstage_prog_skipped());
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
