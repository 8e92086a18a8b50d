/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - one check suite per library file; main.c runs them all.
 */
#ifndef OVC_TEST_SUITES_H
#define OVC_TEST_SUITES_H

#include <check.h>

Suite *make_suite_types(void);
Suite *make_suite_acceptor(void);
Suite *make_suite_occ(void);
Suite *make_suite_params(void);
Suite *make_suite_controller(void);
Suite *make_suite_ewma(void);
Suite *make_suite_window(void);
Suite *make_suite_cpu(void);
Suite *make_suite_rate(void);
Suite *make_suite_fifo(void);
Suite *make_suite_bbc(void);
Suite *make_suite_occupancy(void);
Suite *make_suite_aro(void);
Suite *make_suite_sired(void);
Suite *make_suite_rsoca(void);
Suite *make_suite_pi(void);
Suite *make_suite_pishare(void);
Suite *make_suite_sipscan(void);
Suite *make_suite_sipreply(void);
Suite *make_suite_rejmem(void);
Suite *make_suite_pacer(void);
Suite *make_suite_rxq(void);
Suite *make_suite_rsoca_dos(void);
Suite *make_suite_emerg(void);
Suite *make_suite_errmsg(void);
Suite *make_suite_agering(void);
Suite *make_suite_derive(void);
Suite *make_suite_onset(void);
Suite *make_suite_capest(void);
Suite *make_suite_memguard(void);
Suite *make_suite_alg(void);
Suite *make_suite_admission(void);
Suite *make_suite_plan(void);
Suite *make_suite_csv(void);
Suite *make_suite_row(void);
Suite *make_suite_nexthop(void);
Suite *make_suite_ocloop(void);
Suite *make_suite_oc7339(void);
Suite *make_suite_octoken(void);
Suite *make_suite_kstage_scan(void);
Suite *make_suite_kstage_seen(void);
Suite *make_suite_kstage_prog(void);
/* why the kstage_prog suite was skipped (its tests not run), or NULL */
const char *kstage_prog_skipped(void);
Suite *make_suite_ksplit(void);
Suite *make_suite_fair(void);

#endif
