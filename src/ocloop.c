/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the server's RFC 7339 loss loop (see include/ovc/ocloop.h). Every
 * period of dt seconds (OVC_OCLOOP_PERIOD_MS), with x the share of the
 * arrivals the local controller admitted:
 *   x < 0.5, overloaded or a < 1: a := a / 2            (a flood)
 *   0.5 <= x < 0.95, the same:   a := a (1 + x) / 2
 *   x >= 0.95, overloaded:       a := a max(1.02, min(target / cpu, 1.25))^dt
 *                                (a probe, faster with CPU to spare)
 *   x >= 0.95, not overloaded:   a := a g^dt, g = (a + (1 - a) / 4) / a
 *                                clamped to [1.02, 1.25], raised to
 *                                min(target / cpu, 1.25) while cpu < target
 *   no arrivals (x < 0, NaN):    a held
 * then a is clamped to [OVC_OCLOOP_A_MIN, 1], and while the receive queue
 * is clogged a cut stops at a quarter of a at the clog's start. Since
 * arrivals are a times
 * what the clients offer, a x would bring the next period's arrivals to
 * what was admitted, and (1 + x) / 2 halves the excess: arrivals come down
 * to within 1 / 0.95 of what is admitted and are never cut below it. A
 * flood is cut by a half, not by x: in the period an overload starts (and
 * while a burst clogs the receive queue) the server admits far less than
 * it can carry, x is then no measure of its capacity, and a cut to a x
 * would leave it idle for the seconds a takes to climb back (at most 1.25x
 * a second); halvings reach a share s within log2(1 / s) periods (1.5 s
 * at 8x), the local controller refusing the excess meanwhile. A period is
 * half a second so that the two halvings 4x needs take one second, not
 * two, after the overload is evident (the clients' refusal then matches
 * the reduction needed within 2 s). While the queue is clogged (its age limit
 * refuses more than the server admits) the INVITEs read were sent before
 * the last cuts reached the clients: the periods of a clog would go on
 * halving a on a backlog (1-2.5 s of it after a step to 4x on the
 * testbed: six halvings at two a second), so a clog allows two halvings
 * and the rest waits for arrivals that show the cuts, for at most 3 s: a
 * clog that lasts longer is kept up by what still arrives (at 16x, a
 * quarter is still 4x the capacity, and its age limit refuses more than
 * it admits for as long as that lasts), and two more halvings follow.
 * The announcement is dithered by error diffusion: carry holds what the integers published so far owe to
 * the exact reduction (|carry| < 0.5), so their sum over n announcements
 * is within 1 of n times it.
 */
#include <math.h>

#include "ovc/ocloop.h"

#define OCLOOP_X_FLOOD 0.5	 /* x below: a flood, a := a CUT_FLOOD */
#define OCLOOP_CUT_FLOOD 0.5 /* a flood's cut: the most a falls a second */
#define OCLOOP_X_HOLD 0.95	 /* x at or above: a grows */
#define OCLOOP_GAP 0.25		 /* share of its gap to 1 a grows by */
#define OCLOOP_G_MIN 1.02	 /* least growth a second (factor) */
#define OCLOOP_G_MAX 1.25	 /* most growth a second (factor) ... */
#define OCLOOP_G_CPU_MAX 1.25 /* ... also with CPU to spare */
/* a clog cuts a down to this times a at its start, no lower (two
 * halvings) */
#define OCLOOP_CLOG_DEPTH 0.25
/* how long a clog's floor holds, s: longer than the backlog a step leaves
 * (1-2.5 s on the testbed); a clog that outlasts it is kept up by what
 * still arrives (16x cut by three quarters is still 4x), and the floor is
 * set again from a then */
#define OCLOOP_CLOG_HOLD_S 3.0
#define OCLOOP_DT_MAX 2.0 /* longest period taken, s */

/* a within [OVC_OCLOOP_A_MIN, 1]; NaN counts as 1. */
static double ocloop_clamp(double a)
{
	if(isnan(a) || a > 1.0)
		return 1.0;
	return a < OVC_OCLOOP_A_MIN ? OVC_OCLOOP_A_MIN : a;
}

void ovc_ocloop_init(struct ovc_ocloop *l)
{
	l->a = 1.0;
	l->engaged = 0;
	l->carry = 0.0;
	l->a_clog = 0.0;
	l->clog_s = 0.0;
}

/* Growth factor of a probe while overload is still evident: G_MIN, or
 * the CPU's headroom target / cpu (at most G_MAX) when it has one. */
static double ocloop_probe(double cpu, double target)
{
	double c;

	if(!(cpu > 0.0) || !(target > 0.0) || cpu >= target)
		return OCLOOP_G_MIN;
	c = target / cpu;
	return c > OCLOOP_G_MAX ? OCLOOP_G_MAX : c;
}

/* Growth factor of a (in [A_MIN, 1)) for one second without overload. */
static double ocloop_growth(double a, double cpu, double target)
{
	double g, c;

	g = (a + (1.0 - a) * OCLOOP_GAP) / a;
	if(g < OCLOOP_G_MIN)
		g = OCLOOP_G_MIN;
	else if(g > OCLOOP_G_MAX)
		g = OCLOOP_G_MAX;
	if(!(cpu >= 0.0) || !(target > 0.0)) /* unknown, NaN */
		return g;
	if(target > 1.0)
		target = 1.0;
	if(cpu < target) {
		c = cpu > 0.0 ? target / cpu : OCLOOP_G_CPU_MAX;
		if(c > OCLOOP_G_CPU_MAX)
			c = OCLOOP_G_CPU_MAX;
		if(c > g)
			g = c;
	}
	return g;
}

double ovc_ocloop_step(struct ovc_ocloop *l, double x, int overloaded,
		int clogged, double cpu, double target, double dt_s)
{
	double a = ocloop_clamp(l->a), floor_a = 0.0;

	if(!clogged) {
		l->a_clog = 0.0;
		l->clog_s = 0.0;
	} else if(!(l->a_clog > 0.0 && l->a_clog <= 1.0)) {
		/* it begins (or NaN) */
		l->a_clog = a;
		l->clog_s = 0.0;
	} else {
		if(dt_s > 0.0 && isfinite(l->clog_s))
			l->clog_s += dt_s < OCLOOP_DT_MAX ? dt_s : OCLOOP_DT_MAX;
		if(!(l->clog_s < OCLOOP_CLOG_HOLD_S)) { /* outlasts a backlog */
			l->a_clog = a;
			l->clog_s = 0.0;
		}
	}
	if(clogged)
		floor_a = l->a_clog * OCLOOP_CLOG_DEPTH;
	if(!(dt_s > 0.0)) {
		/* no time has passed (or NaN): nothing to judge */
	} else if(isnan(x) || x < 0.0) {
		/* no arrivals: nothing to judge */
	} else if(x < OCLOOP_X_HOLD && (overloaded || a < 1.0)) {
		/* the local controller still refuses: what arrives is more
		 * than it admits; a clog's backlog cuts no further than floor_a */
		double cut =
				a * (x < OCLOOP_X_FLOOD ? OCLOOP_CUT_FLOOD : (1.0 + x) / 2.0);

		if(cut < floor_a)
			cut = floor_a < a ? floor_a : a;
		a = cut;
	} else if(a < 1.0) {
		/* (almost) all admitted: probe upwards, slowly while overload
		 * is still evident (a proxy at its capacity may show it while
		 * admitting all), else by the gap; per second, over dt_s */
		double g = overloaded ? ocloop_probe(cpu, target)
							  : ocloop_growth(a, cpu, target);

		a *= pow(g, dt_s < OCLOOP_DT_MAX ? dt_s : OCLOOP_DT_MAX);
	}
	a = ocloop_clamp(a);
	l->a = a;
	l->engaged = a < 1.0;
	if(!l->engaged)
		l->carry = 0.0;
	return a;
}

double ovc_ocloop_second(struct ovc_ocloop *l, double x, int overloaded,
		double cpu, double target)
{
	return ovc_ocloop_step(l, x, overloaded, 0, cpu, target, 1.0);
}

double ovc_ocloop_x(
		double offered, double admitted, double capacity, double target)
{
	double x, floor_x = 0.0;

	if(!(offered > 0.0))
		return -1.0;
	x = admitted > 0.0 ? admitted / offered : 0.0;
	if(capacity > 0.0 && target > 0.0 && target <= 1.0)
		floor_x = capacity * target / offered;
	if(floor_x > x)
		x = floor_x;
	return x > 1.0 ? 1.0 : x;
}

double ovc_ocloop_exact(const struct ovc_ocloop *l)
{
	return 100.0 * (1.0 - l->a);
}

unsigned ovc_ocloop_publish(struct ovc_ocloop *l)
{
	double e = ovc_ocloop_exact(l), v, lo, hi, p;

	if(!(e > 0.0)) /* disengaged (or NaN) */
		return 0;
	if(e > 100.0)
		e = 100.0;
	if(!(fabs(l->carry) < 1.0)) /* NaN, or set from outside */
		l->carry = 0.0;
	lo = floor(e);
	hi = ceil(e);
	v = e + l->carry;
	p = floor(v + 0.5);
	if(p < lo)
		p = lo;
	else if(p > hi)
		p = hi;
	l->carry = v - p;
	return (unsigned)p;
}
