/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the shared-memory guard as the rest of the module sees it: its
 * cap on the admission (ovc/memguard.h; the part, its shared block and
 * its "mem_guard" block of ovc.stats: ovc_memguard_part.c).
 */
#ifndef OVC_MEMGUARD_MOD_H
#define OVC_MEMGUARD_MOD_H

/* The guard's cap on the admitted fraction in force, (0, 1]: 1 when it
 * does not hold (it is off, or the part is not initialised). Any
 * process; lock-free. */
double ovc_memguard_cap(void);

#endif
