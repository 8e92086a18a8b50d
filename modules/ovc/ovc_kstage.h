/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the kernel stage as the module sees it (issue 21): a socket
 * filter on every UDP listening socket drops the share of initial INVITEs
 * ovc cannot afford to answer (modules/ovc/bpf/, ovc/ksplit.h). The part
 * (ovc_kstage_part.c) loads and attaches it before the fork, sets the
 * share each epoch and detaches it at exit; the admission path tells it
 * which calls it admitted, so that their retransmissions always pass. No
 * Kamailio header: the modparams' documentation tool includes it.
 */
#ifndef OVC_KSTAGE_H
#define OVC_KSTAGE_H

#include <stddef.h>
#include <stdint.h>

/* Admission path (any process), an initial INVITE admitted or queued
 * while overload is evident (the caller checks): remembers it in the
 * kernel's map of admitted calls (buf, len: the datagram), so that the
 * filter never drops its retransmissions, and marks it admitted in the
 * seen table, so that its retransmissions are never late
 * (ovc_kstage_call_age_ns()). key: its key (the hash of its Call-ID and
 * top Via, ovc/kstage_scan.h: an INVITE of the same call with a new
 * branch, a new attempt or a replay, has another) when known (from
 * ovc_kstage_call_age_ns()), else 0 and it is computed by the filter's
 * own scan. One bpf() system call; nothing when the stage is not
 * attached. */
void ovc_kstage_admitted(const char *buf, size_t len, uint64_t key);

/* How long ago, ns, the initial INVITE buf (len bytes) was first seen by
 * the stage's filter (its first transmission, whether the filter or a
 * full receive buffer dropped it then): -1 when unknown (the stage is not
 * attached, the filter could not judge the INVITE, another INVITE took
 * its slot) or when ovc admitted it before. *key: its key (the hash of
 * its Call-ID and top Via, ovc/kstage_scan.h), computed when 0 (left 0
 * when the filter cannot judge it). A read of shared memory, no system
 * call; ms resolution. */
int64_t ovc_kstage_call_age_ns(const char *buf, size_t len, uint64_t *key);

/* Initial INVITEs the kernel dropped since start or ovc.reset (0 when
 * the stage is not attached). */
unsigned long long ovc_kstage_dropped(void);

/* Initial INVITEs (retransmissions included) the stage's filter has seen
 * reach the host since it was attached, read from the kernel now (one
 * bpf() system call; the ticker only), or -1 when the stage is not
 * attached. */
long long ovc_kstage_arrivals(void);

/* The share of initial INVITEs the kernel drops now, [0, 1]. */
double ovc_kstage_share(void);

/* Does the stage hold an overload? 1 while it drops calls (share in
 * force above 0) because the last epoch's refusals exceeded what the 503
 * budget pays for (the split's target above 0): the drops empty the
 * receive queue the overload is judged by, and are its evidence then
 * (ovc_onset.h). 0 once the refusals fit the budget (the share then
 * decays and the queues decide). */
int ovc_kstage_holds(void);

#endif
