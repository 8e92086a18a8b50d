/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the fast path (ovc_fastpath.c): a UDP request decided at its
 * datagram's arrival, before Kamailio parses it, by the same sequence and
 * actor as the script's ovc_admit() (ovc_admit.h).
 */
#ifndef OVC_FASTPATH_H
#define OVC_FASTPATH_H

#include <stdint.h>

#include "core/events.h"

#include "ovc/types.h"

/* 1 when the script is KEMI's (set in mod_init): which requests it wants
 * to answer itself (admit_flags("noreply")) is not known before it runs,
 * so the fast path decides a request of a class only once the script has
 * called admit() without noreply for one (ovc_fastpath_script_plain()):
 * until then every request of the class reaches the script first. */
extern int ovc_fast_path_kemi;

/* SREV_NET_DGRAM_IN callback: scans the raw datagram and, for a request the
 * scanner fully understands, takes the same decision as ovc_admit(): a
 * rejected one is answered at once and consumed (Kamailio never parses
 * it), the ACK to one of ovc's rejects is absorbed; an admitted one goes
 * on, and the script's ovc_admit() returns that decision without counting
 * it twice. Anything else falls through untouched. Returns -1 consumed,
 * 0 continue. */
int ovc_dgram_in(sr_event_param_t *evp);

/* A KEMI script asked for noreply: from now on the fast path leaves every
 * request to the script. Returns 1 the first time, else 0. Lock-free; any
 * process. */
int ovc_fastpath_leave_all(void);

/* A KEMI script passed a request of class c to admit() without noreply:
 * the fast path decides that class from now on. Lock-free; any process. */
void ovc_fastpath_script_plain(enum ovc_class c);

/* Requests left to the normal path for scan reason -reason (reason in
 * 1..OVC_SCAN_REASONS-1) since start or ovc.reset. */
uint64_t ovc_fastpath_fallthrough(int reason);

#endif
