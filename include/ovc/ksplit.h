/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the split of refused INVITEs between the 503s ovc answers and the
 * kernel stage's drops (issue 21). Each epoch, from what ovc measured:
 *
 *   cost per refusal  c = cpu_reject dt / refused   (capacity x s; kept
 *                                                   smoothed; unknown
 *                                                   until enough refusals)
 *   503s affordable   A = budget / c                (refusals/s)
 *   arrivals          L = O / (1 - s), O the INVITEs offered to ovc /s,
 *                     s the share in force: the calls that reach the
 *                     filter (it drops a share of calls, every
 *                     transmission of one alike, so its own drop count,
 *                     swollen by the dropped calls' retransmissions, is
 *                     not the calls it dropped)
 *   forwarded         a = INVITEs ovc admitted, /s (f = a / L)
 *   refused           R = L - a = (1 - f) L
 *
 * The kernel should drop what ovc cannot afford to answer, R - A, out of
 * every call it sees (it cannot tell those ovc would admit):
 *
 *   share = (R - A) / L = (1 - f) (1 - A / ((1 - f) L)),
 *
 * the 1 - A / ((1 - f) L) (the dropped part of the refused)
 * weighted by the refused part of the arrivals. Clamped to [0, max] and
 * smoothed; 0 at once when the stage may not act (no overload evident,
 * dry run, algorithm none, an emergency list). Pure: no clock, no I/O.
 *
 * The split steps once per window of at least window_s, on the epochs'
 * sums: the cost is a ratio of sums, not a smoothed ratio of each short
 * epoch's few sampled refusals. An epoch of 10 ms holds about 20 refusals
 * at 8x, a few of them timed; A = budget / c turned that noise into
 * shares above 0 while the refusals fitted the budget on average, and the
 * kernel dropped calls that a 503 should have answered.
 */
#ifndef OVC_KSPLIT_H
#define OVC_KSPLIT_H

#include <stdint.h>

struct ovc_ksplit_params
{
	double budget;		   /* CPU for 503s, fraction of capacity, (0, 1] */
	double weight;		   /* smoothing: weight of a new target, (0, 1] */
	double max;			   /* largest share, [0, 1) */
	uint64_t min_refusals; /* refusals a window needs to measure c */
	double window_s;	   /* shortest window the split steps on, s
							  (>= 0; 0: every epoch) */
};

/* What ovc measured over one epoch. */
struct ovc_ksplit_in
{
	double dt_s;	   /* epoch length, s (> 0) */
	uint64_t offered;  /* initial INVITEs offered to ovc */
	uint64_t admitted; /* of them forwarded (admitted, dequeued too) */
	uint64_t refused;  /* of them answered with a refusal */
	double cpu_reject; /* CPU spent refusing, fraction of capacity (not
						  finite or < 0: no reading, the epoch is
						  left out of the window whole) */
	int may_act;	   /* 1: overload evident, enforcing, no reason
						   against the stage */
};

struct ovc_ksplit
{
	double share;	   /* drop share in force, [0, max] */
	double target;	   /* last window's unsmoothed share */
	double cost;	   /* CPU per refusal, capacity x s (0: unknown) */
	double affordable; /* 503s the budget pays for, refusals/s */
	struct ovc_ksplit_in acc; /* the window's epochs so far, summed
								 (cpu_reject: x dt_s, capacity x s) */
};

/* Zeroes s: no share, cost unknown. */
void ovc_ksplit_init(struct ovc_ksplit *s);

/* Checks p. Returns 0, or -1 when a field is out of its range. */
int ovc_ksplit_check(const struct ovc_ksplit_params *p);

/* One epoch: adds in to the window; once the window spans p->window_s,
 * updates s from its sums under p (checked) and starts the next. Returns
 * the drop share in force, [0, p->max] (a fraction of initial INVITEs).
 * An epoch with dt_s <= 0 keeps the share; one that may not act sets it
 * to 0 at once and empties the window. A window in which no INVITE
 * reached ovc while the filter dropped a share below 1 saw no call at
 * all: its target is 0, and the share decays toward it. */
double ovc_ksplit_step(struct ovc_ksplit *s, const struct ovc_ksplit_params *p,
		const struct ovc_ksplit_in *in);

#endif
