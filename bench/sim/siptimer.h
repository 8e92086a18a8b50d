/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - RFC 3261 retransmission schedules (§17.1.1.2, §17.1.2.2,
 * §13.3.1.4): timer A doubles from T1 without a cap (INVITE), timer E
 * doubles and is capped at T2 (non-INVITE), the UAS's 2xx retransmission
 * doubles and is capped at T2; all stop at 64*T1 (timer B, F, or the 2xx
 * give-up).
 */
#ifndef SIM_SIPTIMER_H
#define SIM_SIPTIMER_H

#include <stdint.h>

#define SIM_T1_NS (INT64_C(500) * 1000000)	/* RFC 3261 T1: 500 ms */
#define SIM_T2_NS (INT64_C(4000) * 1000000) /* RFC 3261 T2: 4 s */
#define SIM_TIMEOUT_NS (64 * SIM_T1_NS)		/* timer B/F: 32 s */

enum sim_rtx_kind
{
	SIM_RTX_INVITE = 0, /* timer A: T1, 2T1, 4T1, ... (no cap) */
	SIM_RTX_NONINVITE,	/* timer E: min(2^n T1, T2) */
	SIM_RTX_2XX,		/* UAS 200 OK: min(2^n T1, T2) */
};

/* Interval in ns between transmission n (0 = the original) and n + 1, for
 * the given kind and T1/T2 (ns). n < 0 counts as 0. */
int64_t sim_rtx_interval(enum sim_rtx_kind k, int n, int64_t t1, int64_t t2);

/* Fills out[] with the send times (ns, relative to the original at 0) of
 * every transmission sent strictly before timeout, at most max of them.
 * Returns how many were written. */
int sim_rtx_schedule(enum sim_rtx_kind k, int64_t t1, int64_t t2,
		int64_t timeout, int64_t *out, int max);

#endif
