/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - RFC 3261 retransmission intervals.
 */
#include "siptimer.h"

int64_t sim_rtx_interval(enum sim_rtx_kind k, int n, int64_t t1, int64_t t2)
{
	int64_t iv = t1;

	if(n < 0)
		n = 0;
	while(n-- > 0) {
		if(k != SIM_RTX_INVITE && iv >= t2)
			break;
		if(iv > INT64_MAX / 4)
			break;
		iv *= 2;
	}
	if(k != SIM_RTX_INVITE && iv > t2)
		iv = t2;
	return iv;
}

int sim_rtx_schedule(enum sim_rtx_kind k, int64_t t1, int64_t t2,
		int64_t timeout, int64_t *out, int max)
{
	int64_t t = 0;
	int n = 0;

	while(n < max && t < timeout) {
		out[n] = t;
		t += sim_rtx_interval(k, n, t1, t2);
		n++;
	}
	return n;
}
