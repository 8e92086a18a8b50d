/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - asking the admission sequence (ovc/admission.h): its shared
 * state, the settings in force for one request, and the verdict sources
 * outside the library (the receive queue's age, the kernel stage's call
 * age, R-SOCA's dialog limits and burst budgets), for every place a
 * request meets it (ovc_admit.h, ovc_qworker.h).
 */
#ifndef OVC_DECIDE_H
#define OVC_DECIDE_H

#include <stdint.h>

#include "ovc/admission.h"

/* The admission sequence's shared state, and the settings in force now,
 * for every place that asks it. */
const struct ovc_adm_state *ovc_admit_state(void);
void ovc_admit_settings(struct ovc_adm_cfg *cfg);

/* Asks the admission sequence about r, read from UDP socket fd (-1: not
 * UDP), with the settings cfg, into *v (the fast path and ovc_admit()). */
void ovc_admit_decide(const struct ovc_adm_cfg *cfg,
		const struct ovc_adm_req *r, int fd, struct ovc_adm_verdict *v);

/* CPU time this thread has used, ns (CLOCK_THREAD_CPUTIME_ID). */
uint64_t ovc_thread_cpu_ns(void);

/* Counts the CPU this thread spent refusing since t0 (from
 * ovc_thread_cpu_ns()), times scale (the sampling ratio), as the share
 * the CPU-driven controllers leave out of the load they see. */
void ovc_count_refusal_cpu(uint64_t t0, unsigned scale);

#endif
