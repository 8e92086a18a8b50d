/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - Kamailio statistics of group "ovc" (kamcmd stats.get_statistics
 * ovc:, xhttp_prom, SNMP): the counters and gauges of ovc_stats.def, each
 * read directly from the shared state when asked.
 */
#ifndef OVC_STATS_H
#define OVC_STATS_H

/* Registers every statistic of ovc_stats.def (mod_init, before the fork;
 * the values read 0 until the state they read exists). Returns 0 or -1. */
int ovc_stats_register(void);

#endif
