/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the server side of RFC 7339's loss algorithm (§5.5): which share
 * a of their initial requests this server asks its clients to send, from
 * what its own controller does with what they send now. Every
 * OVC_OCLOOP_PERIOD_MS (half a second, so that two halvings fit in one):
 * while the local controller admits a fraction x < 0.95 of the initial
 * INVITEs (and overload is evident, or the loop is engaged), a shrinks
 * by half (a flood, x < 0.5: not by x, since the period an overload
 * starts admits little of what the server can carry) or by (1 + x) / 2,
 * so that what arrives approaches what is admitted; while its receive
 * queue is clogged (its age limit refuses more INVITEs than it admits:
 * what it reads is a backlog sent before the last cuts reached the
 * clients, and x measures that backlog), a falls no lower than a quarter
 * of what it was when the clog began (two halvings, 75 %), for 3 s: a
 * clog that lasts longer is the overload's own (what still arrives keeps
 * the queue clogged), and the floor falls by a quarter again. While it
 * admits (almost) all, a grows (factors per second, compounded over the
 * period): by 2 % a second while overload is still
 * evident, or by the CPU's headroom
 * target / cpu (at most 1.25) when it has some (a probe: a proxy at its
 * capacity may show overload while admitting all, and a held a would
 * ratchet down on every refusal), else by a quarter of its gap to 1
 * (within a factor 1.02-1.25 a second, or at least target / cpu, at most
 * 1.25, while the CPU is below the controller's target: a bottleneck
 * other than the CPU, e.g. a slow database, must not make it double),
 * and the loop disengages at a = 1. The reduction announced is 100 (1 - a) percent, which
 * ovc_ocloop_publish() dithers between its two nearest integers so that
 * the clients' average follows a exactly. Pure; one instance per server.
 */
#ifndef OVC_OCLOOP_H
#define OVC_OCLOOP_H

/* The smallest share the loop asks for (a flood halves a each period
 * down to 1 %; the local controller refuses the rest). */
#define OVC_OCLOOP_A_MIN 0.01

/* The loop's period, ms: ovc_ocloop_step() is called once per period (a
 * cut applies per call; growth is per second, scaled to the period). */
#define OVC_OCLOOP_PERIOD_MS 500

struct ovc_ocloop
{
	double a;	  /* share asked of the clients, [OVC_OCLOOP_A_MIN, 1] */
	int engaged;  /* 1 while a < 1 */
	double carry; /* the dither's error, percent */
	double a_clog; /* a when the current clog's floor was set; 0: not
					  clogged */
	double clog_s; /* s since then */
};

/* A disengaged loop (a = 1). */
void ovc_ocloop_init(struct ovc_ocloop *l);

/* One period of dt_s seconds (OVC_OCLOOP_PERIOD_MS): x is the fraction
 * of the initial INVITEs received that the local controller admitted
 * (admitted / offered; < 0 when none arrived), overloaded whether
 * overload is evident (ovc/onset.h), clogged whether the receive queue's
 * age limit refused more initial INVITEs than were admitted in it, cpu
 * the CPU occupancy (fraction of capacity; < 0 unknown) and target the
 * occupancy the controller aims at (fraction, (0, 1]). A period without
 * arrivals (x < 0 or NaN), or of no length (dt_s <= 0 or NaN), leaves a
 * as it was; dt_s is taken as at most 2 s. Returns the new a. */
double ovc_ocloop_step(struct ovc_ocloop *l, double x, int overloaded,
		int clogged, double cpu, double target, double dt_s);

/* ovc_ocloop_step() for a period of one second without a clog. */
double ovc_ocloop_second(struct ovc_ocloop *l, double x, int overloaded,
		double cpu, double target);

/* The x ovc_ocloop_step() takes for a period in which offered initial
 * INVITEs arrived (per second; <= 0: none, returns -1) and admitted were
 * admitted, on a server whose learned capacity is capacity INVITEs/s at
 * full CPU (<= 0: not learned yet) and whose controller aims at target:
 * admitted / offered, but never below capacity x target / offered (at
 * most 1). A burst its receive-queue age limit refuses, or the period an
 * overload starts, admits little of a load the server can mostly carry:
 * taken alone it would cut a to a few percent and the clients would
 * refuse for many seconds what the server could take. */
double ovc_ocloop_x(double offered, double admitted, double capacity,
		double target);

/* The reduction 100 (1 - a), percent, as the exact real value. */
double ovc_ocloop_exact(const struct ovc_ocloop *l);

/* The integer reduction to announce now (0-100): floor or ceil of the
 * exact one, chosen so that the announcements average it. */
unsigned ovc_ocloop_publish(struct ovc_ocloop *l);

#endif
