/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - windowed ratio over the last k samples (001 eq. 1 and 4): a ring
 * of k (numerator, denominator) increments, e.g. (busy s, elapsed s) for
 * occupancy or (admitted, offered) for the acceptance rate. The ratio is
 * sum(num) / sum(den) over the window, i.e. (X_n - X_{n-k}) /
 * (Y_n - Y_{n-k}) for cumulative counters X and Y. Fixed size, no
 * pointers: placeable in shared memory by value.
 */
#ifndef OVC_WINDOW_H
#define OVC_WINDOW_H

#define OVC_WINDOW_MAX 256 /* largest k */

struct ovc_window
{
	unsigned k;					/* window length, samples, 1..OVC_WINDOW_MAX */
	unsigned n;					/* samples held, <= k */
	unsigned head;				/* index of the next slot to write */
	double num[OVC_WINDOW_MAX]; /* numerator increments */
	double den[OVC_WINDOW_MAX]; /* denominator increments */
};

/* Initialises an empty window of k samples. Returns OVC_OK or OVC_ERANGE
 * (k == 0 or k > OVC_WINDOW_MAX; w untouched). */
int ovc_window_init(struct ovc_window *w, unsigned k);

/* Adds one sample, dropping the oldest when k are held. Returns OVC_OK, or
 * OVC_EINVAL when num or den is negative or not finite (no change). */
int ovc_window_push(struct ovc_window *w, double num, double den);

/* Stores sum(num) / sum(den) over the held samples in *out. Returns
 * OVC_OK, OVC_EEMPTY (no sample) or OVC_ERANGE (sum(den) == 0); *out is
 * written only on OVC_OK. */
int ovc_window_ratio(const struct ovc_window *w, double *out);

/* Sums over the held samples (0 when empty). */
double ovc_window_sum_num(const struct ovc_window *w);
double ovc_window_sum_den(const struct ovc_window *w);

/* Number of samples held, 0..k. */
unsigned ovc_window_count(const struct ovc_window *w);

#endif
