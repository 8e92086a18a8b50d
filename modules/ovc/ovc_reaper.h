/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - R-SOCA memory control's reaper process (ovc_reaper.c): ends the
 * transactions older than T B while memory in use is above M_min (see
 * ovc_tmreap.h).
 */
#ifndef OVC_REAPER_H
#define OVC_REAPER_H

/* Forks the reaper process when tm is loaded (from child_init(PROC_MAIN)).
 * Returns 0 or -1. */
int ovc_reaper_fork(void);

#endif
