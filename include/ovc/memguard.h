/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the shared-memory guard: the proxy's shared memory as an overload
 * signal. Kamailio's tm keeps each transaction of an admitted call (its
 * INVITE, then its BYE) in shared memory until its wait timer ends after
 * completion, so the memory a call takes arrives over its lifetime,
 * seconds after it was admitted: a guard that waited for the memory to
 * run short would act too late for the transactions still to come.
 *
 * The guard learns k, the bytes held per admitted call/s (Little's law:
 * the memory of one call times its lifetime), as the memory held above
 * the least level seen over the admitted call rate averaged over about
 * that lifetime (window_s), and caps the fraction of the offered calls
 * admitted so that the admitted rate stays at what the budget holds:
 *
 *   rate_max = (high x total - base) / k
 *
 * Above the budget the cap falls further, linearly to 0 at hard x total,
 * for the memory still arriving for calls already admitted. With ample
 * memory rate_max is far above any rate the proxy serves and nothing is
 * refused. Pure: the caller reads the allocator and counts the calls.
 */
#ifndef OVC_MEMGUARD_H
#define OVC_MEMGUARD_H

/* Least memory held above the base, fraction of the total, for k to be
 * learned from an interval (below it the fixed costs dominate). */
#define OVC_MEMGUARD_MIN_HELD 0.02

struct ovc_memguard_params
{
	double high;	 /* budget: fraction of the shared memory the proxy
						may fill; 0: the guard is off */
	double hard;	 /* fraction at which the cap reaches 0 (> high) */
	double window_s; /* averaging time of the admitted rate, s (about a
						call's memory lifetime: tm's wait timer) */
};

struct ovc_memguard
{
	double base;	 /* least memory used seen, bytes; < 0: none yet */
	double adm;		 /* admitted calls/s, averaged over window_s */
	double off;		 /* offered calls/s, averaged over one second */
	double k;		 /* bytes held per admitted call/s; 0: not known */
	double rate_max; /* calls/s the budget holds; < 0: no limit known */
	double cap;		 /* fraction of the offered calls to admit, (0, 1];
						1: no cap */
};

/* Fills p with the defaults: high 0.9, hard 0.97, window 5 s. */
void ovc_memguard_defaults(struct ovc_memguard_params *p);

/* Starts with nothing learned and no cap. */
void ovc_memguard_init(struct ovc_memguard *g);

/* One interval of dt_s seconds at whose end used of total bytes of
 * shared memory were in use (with the allocator's overhead), while
 * admitted of offered initial INVITEs (calls) were admitted. Returns the
 * cap on the fraction of the offered calls to admit from now, in [0, 1]
 * (1: none, always with the guard off). Bad input (negative or not
 * finite, dt_s <= 0, total <= 0) changes nothing and returns the cap in
 * force. */
double ovc_memguard_step(struct ovc_memguard *g,
		const struct ovc_memguard_params *p, double used, double total,
		double admitted, double offered, double dt_s);

#endif
