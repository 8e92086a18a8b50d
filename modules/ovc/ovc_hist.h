/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the per-second history (ovc.csv): a ring of finished rows in
 * shared memory, with its own lock. The ticker adds each second's row
 * when it closes, the RPC copies the newest rows and empties the ring at
 * ovc.reset.
 */
#ifndef OVC_HIST_H
#define OVC_HIST_H

#include <stdint.h>

#include "ovc/row.h"

/* mod_init, before the fork: a ring of rows rows (stats_history, >= 1).
 * Returns 0 or -1. */
int ovc_hist_init(unsigned rows);

/* Frees the ring (server shutdown; safe when ovc_hist_init() failed or
 * did not run). */
void ovc_hist_destroy(void);

/* Ticker: the row of monotonic second s, closed: kept unless s was
 * counted before the last ovc.reset (ovc_hist_reset()). */
void ovc_hist_add(int64_t s, const struct ovc_row *row);

/* Rows held now. */
int ovc_hist_count(void);

/* Copies the newest n rows (fewer when fewer are held), oldest first,
 * into rows (room for n). Returns the number copied. */
int ovc_hist_copy(struct ovc_row *rows, int n);

/* ovc.reset: empties the ring; the rows of seconds up to the current one
 * are discarded when they close. */
void ovc_hist_reset(void);

#endif
