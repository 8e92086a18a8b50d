/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the fast path (ovc_fastpath.c): a UDP request decided at its
 * datagram's arrival, before Kamailio parses it, by the same sequence and
 * actor as the script's ovc_admit() (ovc_admit.h).
 */
#ifndef OVC_FASTPATH_H
#define OVC_FASTPATH_H

#include "core/events.h"

/* 1 when the script is KEMI's (set in mod_init): which requests it wants
 * to answer itself (admit_flags("noreply")) is not known before it runs,
 * so the fast path decides a request of a class only once the script has
 * called admit() without noreply for one (ovc->script_plain): until then
 * every request of the class reaches the script first. */
extern int ovc_fast_path_kemi;

/* SREV_NET_DGRAM_IN callback: scans the raw datagram and, for a request the
 * scanner fully understands, takes the same decision as ovc_admit(): a
 * rejected one is answered at once and consumed (Kamailio never parses
 * it), the ACK to one of ovc's rejects is absorbed; an admitted one goes
 * on, and the script's ovc_admit() returns that decision without counting
 * it twice. Anything else falls through untouched. Returns -1 consumed,
 * 0 continue. */
int ovc_dgram_in(sr_event_param_t *evp);

#endif
