/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the kernel stage as the module sees it (issue 21): a socket
 * filter on every UDP listening socket drops the share of initial INVITEs
 * ovc cannot afford to answer (kstage/, ovc/ksplit.h). The part
 * (ovc_kstage.c) loads and attaches it before the fork, sets the
 * share each epoch and detaches it at exit, and feeds the overload test
 * (ovc_onset.h: the arrivals it counts, whether it holds an overload);
 * the admission path tells it which calls it admitted, so that their retransmissions always pass. No
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

/* The share of initial INVITEs the kernel drops now, [0, 1]. */
double ovc_kstage_share(void);

#endif
