/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - does ovc's shared memory fit Kamailio's (-m)? Checked in
 * mod_init before anything is allocated, so that a Kamailio started with
 * little shared memory (Debian's unit: 64 MB) is told at start what ovc
 * needs instead of running out of it under load.
 */
#ifndef OVC_SHM_FIT_H
#define OVC_SHM_FIT_H

#include <stdint.h>

/* What ovc takes of shm_total bytes of shared memory: its fixed state
 * with hist_rows rows of history (stats_history), plus, when queue_on,
 * the in-core queue's budget queue_max_bytes (bytes; 0: automatic, an
 * eighth of shm_total). Returns 0 when it is at most half of shm_total
 * (the rest holds the proxy's transactions), logging the figures (NOTICE);
 * else -1 after logging (ERROR) what it needs, why, the -m it needs, and
 * the parameters that lower it. */
int ovc_shm_fit(uint64_t shm_total, unsigned hist_rows, int queue_on,
		uint64_t queue_max_bytes);

#endif
