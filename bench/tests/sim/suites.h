/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim tests - one suite per simulator file, run by check_sim.c.
 */
#ifndef SIM_TEST_SUITES_H
#define SIM_TEST_SUITES_H

#include <check.h>

Suite *make_suite_evq(void);
Suite *make_suite_siptimer(void);
Suite *make_suite_source(void);
Suite *make_suite_profile(void);
Suite *make_suite_model(void);
Suite *make_suite_regress(void);
Suite *make_suite_es(void);
Suite *make_suite_module(void);
Suite *make_suite_server(void);

#endif
