/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - ovc's shared memory against Kamailio's (see ovc_shm_fit.h).
 */
#include "core/dprint.h"

#include "ovc/rejmem.h"

#include "ovc/row.h"
#include "ovc_shm.h"
#include "ovc_shm_fit.h"
#include "ovc_tmreap.h"

#define MB (1024.0 * 1024.0)
/* the parts' other state (controller, R-SOCA, next hops, kernel stage,
 * queue head), rounded up */
#define OTHER_BYTES (128u * 1024u)

int ovc_shm_fit(uint64_t shm_total, unsigned hist_rows, int queue_on,
		uint64_t queue_max_bytes)
{
	uint64_t rej = sizeof(struct ovc_rejmem);
	uint64_t tr = ovc_tmreap_shm_bytes();
	uint64_t hist = (uint64_t)hist_rows * sizeof(struct ovc_row);
	uint64_t fixed = rej + tr + hist + sizeof(struct ovc_shm) + OTHER_BYTES;
	uint64_t q = !queue_on ? 0 : queue_max_bytes ? queue_max_bytes
												 : shm_total / 8;
	double min;

	if(fixed + q <= shm_total / 2) {
		LM_NOTICE("ovc: shared memory: %.1f MB at start (decision memory"
				" %.1f MB, tm reaper %.1f MB, history %.2f MB for"
				" stats_history %u) and the queue up to %.1f MB"
				" (queue_max_bytes), of Kamailio's %.0f MB (-m)\n",
				fixed / MB, rej / MB, tr / MB, hist / MB, hist_rows, q / MB,
				shm_total / MB);
		return 0;
	}
	/* the smallest -m that holds twice the need; the automatic queue
	 * budget grows with it: fixed + m / 8 <= m / 2 */
	if(queue_on && queue_max_bytes == 0)
		min = 8.0 / 3.0 * (double)fixed;
	else
		min = 2.0 * (double)(fixed + q);
	LM_ERR("ovc needs %.1f MB of shared memory (decision memory %.1f MB,"
		   " tm reaper %.1f MB, history %.2f MB for stats_history %u, the"
		   " queue up to %.1f MB for queue_max_bytes), more than half of"
		   " Kamailio's %.0f MB (-m): the rest holds the proxy's own"
		   " transactions, which pile up under overload. Start Kamailio"
		   " with -m %.0f or more (SHM_MEMORY in /etc/default/kamailio),"
		   " or lower stats_history or queue_max_bytes\n",
			(fixed + q) / MB, rej / MB, tr / MB, hist / MB, hist_rows,
			q / MB, shm_total / MB, min / MB + 0.5);
	return -1;
}
