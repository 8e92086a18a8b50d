/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim tests - placeholder until es.c lands.
 */
#include "suites.h"

Suite *make_suite_es(void)
{
	return suite_create("es");
}
