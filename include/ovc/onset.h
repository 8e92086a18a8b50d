/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - is the proxy overloaded? Evidence, not a CPU threshold: a proxy
 * below its capacity serves every request it reads before the next CFS
 * period (or, without a quota, at once), so in any window of two periods
 * at least one initial INVITE waited almost nothing. When even the
 * freshest INVITE of a window waited longer than onset_ms, work arrives
 * faster than it is served. Overload ends when the windows have shown no
 * such evidence for hold_s. While there is no overload ovc refuses nothing
 * (the controllers' fractions are not applied), so a busy but healthy
 * proxy loses no call.
 */
#ifndef OVC_ONSET_H
#define OVC_ONSET_H

struct ovc_onset
{
	int on;			 /* overload evident */
	double quiet_s;	 /* time since the last window with evidence, s */
	unsigned onsets; /* transitions to overload so far */
};

/* Starts with no overload. */
void ovc_onset_init(struct ovc_onset *o);

/* One window of dt_s seconds in which the least wait of any INVITE was
 * min_wait_ms (< 0 or NaN: no INVITE seen, which is no evidence). Evidence
 * when min_wait_ms > onset_ms; onset_ms <= 0 switches the test off (always
 * overloaded: the controllers act as in their papers). Returns 1 while
 * overload is evident or was within the last hold_s seconds, else 0. */
int ovc_onset_step(struct ovc_onset *o, double min_wait_ms, double onset_ms,
		double dt_s, double hold_s);

#endif
