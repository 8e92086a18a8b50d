/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the ticker: the one process that samples, steps the controller
 * once per epoch for the whole server and closes per-second rows.
 */
#ifndef OVC_TICKER_H
#define OVC_TICKER_H

/* Runs forever in the forked ticker process. */
void ovc_ticker_run(void);

#endif
