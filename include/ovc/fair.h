/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - a fair share under a flood (issue 38): when ovc must refuse a
 * fraction D of the initial INVITEs, the heaviest sources pay first
 * (max-min), so that a flood from one source does not lower the admission
 * of the others.
 *
 * Each source s (ovc/fairsk.h: its key, its rate m_s over the last
 * complete epoch of one second, from a count-min sketch in bounded shared
 * memory) is given the water level L, solved once per change of D from
 * the last complete epoch's counters c_b (one row of the sketch, N their
 * sum; a column stands for its source, or for the few that share it):
 *
 *   sum_b max(0, c_b - L) = D N                                      (1)
 *
 * A request from s passes the cut with probability min(1, L / m_s)
 * (decided by a hash of its call: a call's retransmissions get one
 * verdict), so a source below L keeps everything it offers and one above
 * it keeps L. The predicted pass fraction is
 *
 *   P = (1/N) sum_b min(c_b, L)   (= 1 - D when (1) is solved exactly)  (2)
 *
 * and the source-blind acceptor behind the cut runs at min(1, f / P): the
 * total admitted stays f N while the refusals land on the heavy sources.
 * With no counts yet (N = 0) there is no cut (L = all, P = 1) and the
 * acceptor runs at f, as without fairness.
 *
 * Counted where the acceptor is met, the flood's INVITEs that the age
 * limit refused before it are not in c_b: a second sketch a_b counts every
 * new initial INVITE as it arrives, and once a second the spare level S
 * is solved on it for what reached the acceptor, R = N:
 *
 *   sum_b min(a_b, S) = R                                              (3)
 *
 * (max-min of the work the proxy did among the sources as they offered
 * it). A source whose arrivals are at or under S is under its share
 * whatever refused the others: it passes the cut and is spared the age
 * limit (OVC_FAIR_SPARE_NS), so that a flood that fills the receive queue
 * is refused its own calls, not the light sources'. S is set only while
 * more arrived than reached the acceptor (a_b sum above R); it never
 * refuses anything itself.
 *
 * A source that offers RFC 7339 `oc` in its top Via is a proxy that
 * throttles itself: it is not cut, and what the cut would refuse of it
 * meets an acceptor at f instead (its proportional share).
 *
 * Pure: no clock, no I/O; the state is atomics shared by every process.
 */
#ifndef OVC_FAIR_H
#define OVC_FAIR_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "ovc/acceptor.h"
#include "ovc/fairsk.h"
#include "ovc/sipscan.h"

/* The longest wait, ns, an INVITE of a source under the level is spared
 * the age limit for (T1/2: past it the caller's setup cannot be timely
 * once forwarded, and forwarding it would only spend a call's work). */
#define OVC_FAIR_SPARE_NS (250LL * 1000000LL)

/* The shared state (one per proxy, in shared memory). */
struct ovc_fair
{
	struct ovc_fair_sketch sk; /* requests meeting the acceptor per
								  source, 3 rotating copies */
	struct ovc_fair_sketch arr; /* new initial INVITEs as they arrive */
	_Atomic uint32_t copy;	   /* the copy counting now (both sketches) */
	_Atomic uint32_t level;	   /* L, arrivals per epoch; OVC_FAIR_ALL: no
								  cut */
	_Atomic uint32_t spare;	   /* S of (3), arrivals per epoch;
								  OVC_FAIR_ALL: none set */
	struct ovc_acceptor prop;  /* at f: what the cut would refuse of a
								  source that offers oc */
	_Atomic uint64_t cut;	   /* requests refused by the cut, since init */
	_Atomic uint64_t exempt;   /* requests spared as oc sources */
};

/* The last complete epoch's counters of one row, sorted for (1) (the
 * ticker's own memory). */
struct ovc_fair_sorted
{
	uint32_t n;						/* non-zero counters */
	uint64_t total;					/* N, their sum */
	uint32_t c[OVC_FAIR_COLS];		/* descending */
	uint64_t pre[OVC_FAIR_COLS + 1]; /* pre[k]: sum of the k largest */
};

/* What the cut says of one request. */
enum ovc_fair_verdict
{
	OVC_FAIR_PASS = 0, /* on to the acceptor (no level, or a call of a
						  source above it in its share) */
	OVC_FAIR_UNDER,	   /* its source is at or under the level: on to the
						  acceptor, spared the age limit */
	OVC_FAIR_CUT,	   /* refused by the cut */
	OVC_FAIR_EXEMPT,   /* an oc source the cut would refuse: on to the
						  proportional acceptor (fr->prop) */
};

/* Zeroes fr: no counts, no cut, the proportional acceptor at 1. */
void ovc_fair_init(struct ovc_fair *fr);

/* Judges one initial INVITE of source key src (!= 0) and call hash call
 * (ovc_fair_call()), the request buf scanned as *sc (both NULL: not
 * known, never spared as an oc source). Counts it in the epoch's copy.
 * Lock-free; any process. */
enum ovc_fair_verdict ovc_fair_judge(struct ovc_fair *fr, uint64_t src,
		uint64_t call, const char *buf, const struct ovc_sip_scan *sc);

/* Counts one new initial INVITE of source src (!= 0) as it arrives, before
 * anything refuses it (the sketch of (3)). Lock-free; any process. */
void ovc_fair_arrive(struct ovc_fair *fr, uint64_t src);

/* Is source src at or under its share now: its arrivals at or under the
 * spare level S (one set), or its rate at the acceptor m_s at or under the
 * level L (one set)? 1 or 0. Reads only (counts nothing). */
int ovc_fair_under(const struct ovc_fair *fr, uint64_t src);

/* Solves (3) on the last complete epoch's arrivals a (sorted) for reached,
 * the requests that met the acceptor in it (the total of c_b), and sets
 * fr's spare level: OVC_FAIR_ALL when no more arrived than reached, or
 * one source (or none) arrived. Returns S. */
uint32_t ovc_fair_spare_update(struct ovc_fair *fr,
		const struct ovc_fair_sorted *a, uint64_t reached);

/* Sorts the last complete epoch of fr's arrivals (row 0) into *s (after
 * ovc_fair_rotate()). */
void ovc_fair_sort_arrivals(
		const struct ovc_fair *fr, struct ovc_fair_sorted *s);

/* The epoch ends (once a second, one process): the copy that counted
 * answers from now on, the next one (cleared first) counts, in both
 * sketches. */
void ovc_fair_rotate(struct ovc_fair *fr);

/* Sorts one row of counters (OVC_FAIR_COLS of them) into *s. */
void ovc_fair_sort(const unsigned *row, struct ovc_fair_sorted *s);

/* Solves (1) on s for the share drop (D, [0, 1]). Returns L (arrivals per
 * epoch; OVC_FAIR_ALL when drop <= 0 or s is empty) and sets *pass to
 * (2) at that L ([0, 1]; 1 with no cut). */
uint32_t ovc_fair_level(
		const struct ovc_fair_sorted *s, double drop, double *pass);

/* Applies the controller's fraction f ([0, 1]) through the cut: solves
 * (1) on s for D = 1 - f, sets fr's level and its proportional acceptor
 * to f; *pass (when not NULL) receives (2). Returns the fraction for the
 * acceptor behind the cut, min(1, f / P). */
double ovc_fair_apply(struct ovc_fair *fr, const struct ovc_fair_sorted *s,
		double f, double *pass);

/* Sorts the last complete epoch of fr (its row 0) into *s (after
 * ovc_fair_rotate()). */
void ovc_fair_sort_last(const struct ovc_fair *fr, struct ovc_fair_sorted *s);

/* A source key from n bytes of identity (an address, a trunk name):
 * never 0. */
uint64_t ovc_fair_key(const void *id, size_t n);

/* The call hash of the request buf scanned as *sc: its Call-ID, keyed by
 * secret (a sender cannot choose Call-IDs that pass). */
uint64_t ovc_fair_call(uint64_t secret, const char *buf,
		const struct ovc_sip_scan *sc);

/* Does the top Via of the request buf scanned as *sc carry the RFC 7339
 * parameter oc (with or without a value)? 1 or 0. */
int ovc_fair_via_oc(const char *buf, const struct ovc_sip_scan *sc);

#endif
