/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - bang-bang control (BBC) of 000 §VI-B, Ohta's algorithm in 003 §VII:
 * two states on the INVITE queue length q.
 *   underload -> overload  when q > B_h ("exceeds the high watermark")
 *   overload  -> underload when q < B_l ("falls below the low watermark")
 * Underload accepts every INVITE (f = 1), overload rejects all (f = 0).
 * 000 uses B_h 800, B_l 600 of B = 1000; 003 uses 800 / 400.
 */
#ifndef OVC_BBC_H
#define OVC_BBC_H

#include "ovc/bbc-t.h"

/* Fills p with the defaults of 000 §VI-B. */
void ovc_bbc_defaults(struct ovc_bbc_params *p);

/* Initialises s in underload (f = 1). Returns OVC_OK or OVC_ERANGE (not
 * 0 <= low < high, non-finite, epoch_ms 0; s untouched). */
int ovc_bbc_init(struct ovc_bbc *s, const struct ovc_bbc_params *p);

/* Changes the watermarks, keeping the state. Returns as ovc_bbc_init(). */
int ovc_bbc_reconfigure(struct ovc_bbc *s, const struct ovc_bbc_params *p);

/* Examines queue length q (messages). Returns the new f, 0 or 1. NaN, inf
 * or negative q leaves the state unchanged. Cheap enough to be called at
 * every enqueue as well as on the epoch. */
double ovc_bbc_step(struct ovc_bbc *s, double q);

#endif
