/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - internal: restrict(a, x, b) = max(a, min(x, b)) of 001 eq. 3,
 * shared by the controllers that bound f between f_min and 1.
 */
#ifndef OVC_RESTRICT_H
#define OVC_RESTRICT_H

/* Returns x clamped to [a, b] (a <= b). */
static inline double ovc_restrict(double a, double x, double b)
{
	if(x > b)
		x = b;
	if(x < a)
		x = a;
	return x;
}

#endif
