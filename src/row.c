/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the per-second column of a running total (see ovc/row.h).
 */
#include "ovc/row.h"

void ovc_row_delta_start(struct ovc_row_delta *d, uint64_t v)
{
	int s;

	for(s = 0; s < OVC_ROW_SLOTS; s++)
		d->at[s] = v;
}

void ovc_row_delta_end(struct ovc_row_delta *d, int64_t sec, uint64_t v)
{
	d->at[sec % OVC_ROW_SLOTS] = v;
}

uint64_t ovc_row_delta_of(const struct ovc_row_delta *d, int64_t sec)
{
	uint64_t before = d->at[(sec + OVC_ROW_SLOTS - 1) % OVC_ROW_SLOTS];
	uint64_t now = d->at[sec % OVC_ROW_SLOTS];

	return now >= before ? now - before : 0;
}
