/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/ocloop.c: the loop's law step by step, safe inputs,
 * the half-second period and the clogged receive queue, the dithered
 * announcement, and a closed loop of clients applying what the server
 * announces to a core of fixed capacity.
 */
#include <math.h>
#include <stdio.h>

#include "ovc/ocloop.h"
#include "suites.h"

#define TARGET 0.9

START_TEST(test_disengaged)
{
	struct ovc_ocloop l;
	unsigned i;

	ovc_ocloop_init(&l);
	ck_assert_double_eq(l.a, 1.0);
	ck_assert_int_eq(l.engaged, 0);
	ck_assert_double_eq(ovc_ocloop_exact(&l), 0.0);
	ck_assert_uint_eq(ovc_ocloop_publish(&l), 0);
	for(i = 0; i < 100; i++) {
		/* everything admitted, overloaded or not; or almost all in
		 * overload; or little admitted without overload */
		ck_assert_double_eq(ovc_ocloop_second(&l, 1.0, 0, 0.5, TARGET), 1);
		ck_assert_double_eq(ovc_ocloop_second(&l, 1.0, 1, 1.0, TARGET), 1);
		ck_assert_double_eq(ovc_ocloop_second(&l, 0.95, 1, 1.0, TARGET), 1);
		ck_assert_double_eq(ovc_ocloop_second(&l, 0.2, 0, 1.0, TARGET), 1);
		ck_assert_double_eq(ovc_ocloop_second(&l, 1.7, 1, 1.0, TARGET), 1);
		ck_assert_int_eq(l.engaged, 0);
		ck_assert_uint_eq(ovc_ocloop_publish(&l), 0);
	}
}
END_TEST

START_TEST(test_flood)
{
	struct ovc_ocloop l;
	unsigned i;

	ovc_ocloop_init(&l);
	/* a flood halves a, whatever share was admitted */
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 0.1, 1, 1.0, TARGET), 0.5, 1e-12);
	ck_assert_int_eq(l.engaged, 1);
	ck_assert_double_eq_tol(ovc_ocloop_exact(&l), 50.0, 1e-9);
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 0.49, 1, 1.0, TARGET), 0.25, 1e-12);
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 0.0, 1, 1.0, TARGET), 0.125, 1e-12);
	/* successive floods compound, down to OVC_OCLOOP_A_MIN */
	for(i = 0; i < 5; i++)
		ovc_ocloop_second(&l, 0.001, 1, 1.0, TARGET);
	ck_assert_double_eq_tol(l.a, OVC_OCLOOP_A_MIN, 1e-15);
	ck_assert_double_eq_tol(ovc_ocloop_second(&l, 0.0, 1, 1.0, TARGET),
			OVC_OCLOOP_A_MIN, 1e-15);
	ck_assert_uint_eq(ovc_ocloop_publish(&l), 99);
}
END_TEST

START_TEST(test_law)
{
	struct ovc_ocloop l;

	ovc_ocloop_init(&l);
	/* overloaded, 0.5 <= x < 0.95: by (1 + x) / 2 */
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 0.5, 1, 1.0, TARGET), 0.75, 1e-12);
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 0.9, 1, 1.0, TARGET), 0.7125, 1e-12);
	/* overloaded, x >= 0.95: a probe of 2 % (CPU at or above its target,
	 * or unknown), or by the headroom, at most 1.25 */
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 0.97, 1, 1.0, TARGET), 0.72675, 1e-12);
	l.a = 0.5;
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 1.0, 1, -1.0, TARGET), 0.51, 1e-12);
	l.a = 0.5;
	ck_assert_double_eq_tol(ovc_ocloop_second(&l, 1.0, 1, 0.8, TARGET),
			0.5 * TARGET / 0.8, 1e-12);
	l.a = 0.5;
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 1.0, 1, 0.3, TARGET), 0.625, 1e-12);
	l.a = 0.72675;
	/* engaged, x < 0.95 without overload evident: cut all the same */
	ck_assert_double_eq_tol(ovc_ocloop_second(&l, 0.9, 0, 1.0, TARGET),
			0.72675 * 0.95, 1e-12);
	/* no overload, CPU at its target: a quarter of the gap (within
	 * 1.02-1.25) */
	l.a = 0.6;
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 1.0, 0, 0.95, TARGET), 0.7, 1e-12);
	l.a = 0.1;
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 1.0, 0, 0.95, TARGET), 0.125, 1e-12);
	l.a = 0.95;
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 1.0, 0, 0.95, TARGET), 0.969, 1e-12);
	/* CPU unknown: the same */
	l.a = 0.1;
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 1.0, 0, -1.0, TARGET), 0.125, 1e-12);
	/* CPU below target: at least target / cpu, at most 1.25 (a
	 * bottleneck other than the CPU must not double a) */
	l.a = 0.7; /* the gap alone: 1.107 */
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 1.0, 0, 0.8, TARGET), 0.7875, 1e-12);
	l.a = 0.7;
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 1.0, 0, 0.3, TARGET), 0.875, 1e-12);
	l.a = 0.1;
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 1.0, 0, 0.1, TARGET), 0.125, 1e-12);
	l.a = 0.1;
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 1.0, 0, 0.0, TARGET), 0.125, 1e-12);
	/* and disengages at 1 */
	l.a = 0.99;
	ck_assert_double_eq(ovc_ocloop_second(&l, 1.0, 0, 0.95, TARGET), 1.0);
	ck_assert_int_eq(l.engaged, 0);
}
END_TEST

START_TEST(test_no_arrivals_and_nan)
{
	struct ovc_ocloop l;
	double a;

	ovc_ocloop_init(&l);
	a = ovc_ocloop_second(&l, 0.6, 1, 1.0, TARGET);
	ck_assert_double_eq_tol(a, 0.8, 1e-12);
	/* x < 0 (none arrived) or NaN: held, overloaded or not */
	ck_assert_double_eq(ovc_ocloop_second(&l, -1.0, 1, 1.0, TARGET), a);
	ck_assert_double_eq(ovc_ocloop_second(&l, -1.0, 0, 0.1, TARGET), a);
	ck_assert_double_eq(ovc_ocloop_second(&l, NAN, 1, 1.0, TARGET), a);
	ck_assert_double_eq(ovc_ocloop_second(&l, NAN, 0, 0.1, TARGET), a);
	ck_assert_int_eq(l.engaged, 1);
	/* NaN or nonsense CPU and target: the growth without them */
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 1.0, 0, NAN, TARGET), 0.85, 1e-12);
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 1.0, 0, 0.1, NAN), 0.8875, 1e-12);
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 1.0, 0, 0.1, -3.0), 0.915625, 1e-12);
	ck_assert(isfinite(l.a) && isfinite(l.carry));
	/* x above 1 counts as 1 */
	ck_assert_double_eq(ovc_ocloop_second(&l, 7.0, 1, 1.0, TARGET), l.a);
	/* a corrupted state is brought back into range */
	l.a = NAN;
	ck_assert_double_eq(ovc_ocloop_second(&l, -1.0, 0, -1.0, TARGET), 1.0);
	l.a = -5.0;
	ck_assert_double_eq(
			ovc_ocloop_second(&l, -1.0, 0, -1.0, TARGET), OVC_OCLOOP_A_MIN);
	l.carry = NAN;
	ck_assert_uint_eq(ovc_ocloop_publish(&l), 99);
	ck_assert(isfinite(l.carry));
}
END_TEST

/* Over n announcements at a, each is floor or ceil of the exact reduction
 * and their mean is within 0.5 (percent) of it; in fact their sum is
 * within 1 of n times it. */
static void check_publish(struct ovc_ocloop *l, double a, unsigned n)
{
	double e, sum = 0;
	unsigned i, p;

	l->a = a;
	l->engaged = a < 1.0;
	e = ovc_ocloop_exact(l);
	for(i = 0; i < n; i++) {
		p = ovc_ocloop_publish(l);
		ck_assert_msg(p == (unsigned)floor(e) || p == (unsigned)ceil(e),
				"a=%g: %u for %g", a, p, e);
		sum += p;
	}
	ck_assert_msg(
			fabs(sum / n - e) <= 0.5, "a=%g: mean %g for %g", a, sum / n, e);
	ck_assert_msg(fabs(sum - n * e) < 1.0 + 1e-9, "a=%g: sum %g for %g", a, sum,
			n * e);
}

START_TEST(test_publish)
{
	struct ovc_ocloop l;
	unsigned i;

	ovc_ocloop_init(&l);
	check_publish(&l, 0.3, 100);
	check_publish(&l, 0.6543, 100);
	check_publish(&l, 0.987, 100);
	check_publish(&l, 0.0625, 100);
	check_publish(&l, OVC_OCLOOP_A_MIN, 100);
	check_publish(&l, 0.5, 100);
	for(i = 1; i < 1000; i++)
		check_publish(&l,
				OVC_OCLOOP_A_MIN + (1.0 - OVC_OCLOOP_A_MIN) * i / 1000.0, 100);
	/* disengaged: 0 and the carry forgotten */
	ovc_ocloop_second(&l, 1.0, 0, 0.1, TARGET);
	ovc_ocloop_second(&l, 1.0, 0, 0.1, TARGET);
	ck_assert_int_eq(l.engaged, 0);
	ck_assert_uint_eq(ovc_ocloop_publish(&l), 0);
	ck_assert_double_eq(l.carry, 0.0);
}
END_TEST

/* The closed loop: clients offer n times the core's capacity C and apply
 * the reductions the core announces in its responses (their mean over the
 * second, SIM_ANN announcements); the core's local controller admits
 * min(1, C / arrivals), overload is evident while arrivals exceed C, and
 * its CPU is admitted / C (or unknown). */
#define SIM_C 100.0
#define SIM_ANN 100

/* What clients offering offered requests/s send once they apply the mean
 * of the next ann announcements of l (requests/s). */
static double sim_arrivals(struct ovc_ocloop *l, double offered, unsigned ann)
{
	double sum = 0;
	unsigned i;

	for(i = 0; i < ann; i++)
		sum += ovc_ocloop_publish(l);
	return offered * (1.0 - sum / ann / 100.0);
}

struct sim
{
	struct ovc_ocloop l;
	int cpu_known;
};

/* One second at offered requests/s; returns the arrivals. */
static double sim_second(struct sim *s, double offered)
{
	double arr, x, adm;

	arr = sim_arrivals(&s->l, offered, SIM_ANN);
	x = arr > 0 ? fmin(1.0, SIM_C / arr) : -1.0;
	adm = arr > 0 ? arr * x : 0;
	ovc_ocloop_second(
			&s->l, x, arr > SIM_C, s->cpu_known ? adm / SIM_C : -1, TARGET);
	return arr;
}

static void check_closed_loop(double n, int cpu_known)
{
	struct sim s;
	double arr, sum = 0, lo = INFINITY, hi = 0;
	unsigned t, off = 0;

	ovc_ocloop_init(&s.l);
	s.cpu_known = cpu_known;
	for(t = 0; t < 10; t++)
		sim_second(&s, n * SIM_C);
	for(t = 0; t < 30; t++) {
		arr = sim_second(&s, n * SIM_C);
		sum += arr;
		lo = fmin(lo, arr);
		hi = fmax(hi, arr);
	}
	ck_assert_msg(lo >= 0.9 * SIM_C && hi <= 1.25 * SIM_C,
			"N=%g cpu %d: arrivals %g-%g", n, cpu_known, lo, hi);
	ck_assert_msg(sum / 30 >= 0.95 * SIM_C && sum / 30 <= 1.2 * SIM_C,
			"N=%g cpu %d: mean arrivals %g", n, cpu_known, sum / 30);
	ck_assert_int_eq(s.l.engaged, 1);
	/* the load drops to half the capacity: disengaged within 30 s */
	for(t = 1; t <= 60 && !off; t++) {
		sim_second(&s, 0.5 * SIM_C);
		if(!s.l.engaged && s.l.a == 1.0)
			off = t;
	}
	ck_assert_msg(off > 0 && off <= 30, "N=%g cpu %d: disengaged after %u s", n,
			cpu_known, off);
	ck_assert_uint_eq(ovc_ocloop_publish(&s.l), 0);
}

/* A pessimistic core: its controller admits only up to 0.85 C and overload
 * stays evident at every load (a quota's stalls). From a ratcheted a the
 * loop climbs back and holds the arrivals near what it admits. */
START_TEST(test_closed_loop_pessimistic)
{
	struct ovc_ocloop l;
	double ce = 0.85 * SIM_C, arr = 0, sum = 0, x;
	unsigned t;

	ovc_ocloop_init(&l);
	l.a = 0.05; /* ratcheted down at 8x */
	for(t = 0; t < 90; t++) {
		arr = sim_arrivals(&l, 8 * SIM_C, SIM_ANN);
		x = fmin(1.0, ce / arr);
		ovc_ocloop_second(&l, x, 1, -1, TARGET);
		if(t >= 60)
			sum += arr;
	}
	ck_assert_msg(sum / 30 >= 0.95 * ce && sum / 30 <= 1.15 * ce,
			"mean arrivals %g for %g admitted", sum / 30, ce);
}
END_TEST

/* A step from 0.5 C to n C, as on the testbed: in the step's first burst
 * seconds the core's receive-queue age limit refuses almost everything
 * (it admits 2 %; no capacity learned yet, so ovc_ocloop_x() has no
 * floor), afterwards its controller admits min(1, C / arrivals). Taken
 * at face value those seconds cut a to a few percent, far below the
 * needed 1 / n, and the clients then refuse for many seconds what the
 * core could take (an overshoot to 98 % announced at 4x, ~10 s to climb
 * back). The loop must never leave the core with less than half its
 * capacity after the step and hold the arrivals near it from 6 s on. */
static void check_step(double n, unsigned burst)
{
	struct ovc_ocloop l;
	double arr, x, lo = INFINITY, lo_late = INFINITY, hi_late = 0;
	unsigned t;

	ovc_ocloop_init(&l);
	for(t = 0; t < 10; t++) {
		arr = 0.5 * SIM_C;
		ovc_ocloop_second(
				&l, ovc_ocloop_x(arr, arr, 0, TARGET), 0, arr / SIM_C, TARGET);
	}
	ck_assert_int_eq(l.engaged, 0);
	for(t = 0; t < 20; t++) {
		arr = sim_arrivals(&l, n * SIM_C, SIM_ANN);
		x = ovc_ocloop_x(
				arr, t < burst ? 0.02 * arr : fmin(arr, SIM_C), 0, TARGET);
		ovc_ocloop_second(&l, x, arr > SIM_C, fmin(1.0, arr / SIM_C), TARGET);
		if(t > 0)
			lo = fmin(lo, arr);
		if(t >= 6) {
			lo_late = fmin(lo_late, arr);
			hi_late = fmax(hi_late, arr);
		}
	}
	ck_assert_msg(lo >= 0.5 * SIM_C, "N=%g burst %u: arrivals down to %g", n,
			burst, lo);
	ck_assert_msg(lo_late >= 0.8 * SIM_C && hi_late <= 1.3 * SIM_C,
			"N=%g burst %u: arrivals %g-%g from 6 s", n, burst, lo_late,
			hi_late);
}

START_TEST(test_step_overshoot)
{
	static const double n[] = {4, 8};
	unsigned i, b;

	for(i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		for(b = 1; b <= 2; b++)
			check_step(n[i], b);
}
END_TEST

/* x: the admitted share, floored by what the learned capacity carries. */
START_TEST(test_x_floor)
{
	ck_assert_double_eq(ovc_ocloop_x(0, 0, 100, TARGET), -1.0);
	ck_assert_double_eq(ovc_ocloop_x(-5, 0, 100, TARGET), -1.0);
	ck_assert_double_eq_tol(ovc_ocloop_x(400, 100, 0, TARGET), 0.25, 1e-12);
	/* an age-limit burst: 15 of 662 admitted by a server of 100/s */
	ck_assert_double_eq_tol(
			ovc_ocloop_x(662, 15, 100, TARGET), 90.0 / 662, 1e-12);
	ck_assert_double_eq_tol(
			ovc_ocloop_x(662, 15, 0, TARGET), 15.0 / 662, 1e-12);
	/* at its capacity: the floor is x >= 0.9 */
	ck_assert_double_eq_tol(ovc_ocloop_x(100, 40, 100, TARGET), 0.9, 1e-12);
	ck_assert_double_eq(ovc_ocloop_x(50, 10, 100, TARGET), 1.0);
	ck_assert_double_eq(ovc_ocloop_x(50, 60, 0, TARGET), 1.0);
	/* bad target: no floor */
	ck_assert_double_eq_tol(ovc_ocloop_x(100, 40, 100, 0), 0.4, 1e-12);
	ck_assert_double_eq_tol(ovc_ocloop_x(100, 40, 100, 2), 0.4, 1e-12);
}
END_TEST

/* The period: a cut applies per step, growth is per second compounded
 * over the period; a period of no length (or NaN) changes nothing. */
START_TEST(test_period)
{
	struct ovc_ocloop l, m;
	double dt = OVC_OCLOOP_PERIOD_MS / 1000.0;

	ck_assert_double_eq_tol(dt, 0.5, 1e-12);
	ovc_ocloop_init(&l);
	/* two floods in two half-second periods: a quarter in one second */
	ovc_ocloop_step(&l, 0.1, 1, 0, 1.0, TARGET, dt);
	ck_assert_double_eq_tol(
			ovc_ocloop_step(&l, 0.1, 1, 0, 1.0, TARGET, dt), 0.25, 1e-12);
	ck_assert_double_eq_tol(
			ovc_ocloop_step(&l, 0.8, 1, 0, 1.0, TARGET, dt), 0.25 * 0.9, 1e-12);
	/* growth: two half seconds make the second's factor (the probe's
	 * and the CPU's headroom; the gap's is taken again at each step) */
	l.a = 0.5;
	m = l;
	ovc_ocloop_step(&l, 1.0, 1, 0, -1.0, TARGET, dt);
	ck_assert_double_eq_tol(
			ovc_ocloop_step(&l, 1.0, 1, 0, -1.0, TARGET, dt), 0.51, 1e-12);
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&m, 1.0, 1, -1.0, TARGET), 0.51, 1e-12);
	l.a = 0.5;
	ovc_ocloop_step(&l, 1.0, 0, 0, 0.3, TARGET, dt);
	ck_assert_double_eq_tol(
			ovc_ocloop_step(&l, 1.0, 0, 0, 0.3, TARGET, dt), 0.625, 1e-12);
	l.a = 0.1;
	ck_assert_double_eq_tol(ovc_ocloop_step(&l, 1.0, 0, 0, 0.95, TARGET, dt),
			0.1 * sqrt(1.25), 1e-12);
	/* a stalled ticker's long period counts as 2 s */
	l.a = 0.1;
	ck_assert_double_eq_tol(ovc_ocloop_step(&l, 1.0, 0, 0, 0.95, TARGET, 9.0),
			0.1 * 1.25 * 1.25, 1e-12);
	/* no length, or NaN: held, whatever x says */
	l.a = 0.4;
	ck_assert_double_eq(ovc_ocloop_step(&l, 0.1, 1, 0, 1.0, TARGET, 0), 0.4);
	ck_assert_double_eq(ovc_ocloop_step(&l, 1.0, 0, 0, 0.5, TARGET, -1), 0.4);
	ck_assert_double_eq(ovc_ocloop_step(&l, 0.1, 1, 1, 1.0, TARGET, NAN), 0.4);
	ck_assert_int_eq(l.engaged, 1);
}
END_TEST

/* A clogged receive queue: cuts stop at a quarter of a at the clog's
 * start, for 3 s (then the floor is set again from a); growth is not
 * held; the floor goes with the clog. */
START_TEST(test_clog)
{
	struct ovc_ocloop l;
	double dt = OVC_OCLOOP_PERIOD_MS / 1000.0, g = 0.25 * sqrt(1.02);
	unsigned i;

	ovc_ocloop_init(&l);
	ck_assert_double_eq_tol(
			ovc_ocloop_step(&l, 0.02, 1, 1, 1.0, TARGET, dt), 0.5, 1e-12);
	ck_assert_double_eq_tol(
			ovc_ocloop_step(&l, 0.0, 1, 1, 1.0, TARGET, dt), 0.25, 1e-12);
	for(i = 0; i < 3; i++) /* 1 to 2 s into the clog */
		ck_assert_double_eq_tol(
				ovc_ocloop_step(&l, 0.01, 1, 1, 1.0, TARGET, dt), 0.25, 1e-12);
	ck_assert_double_eq_tol(ovc_ocloop_exact(&l), 75.0, 1e-9);
	/* (1 + x) / 2 stops there too (2.5 s) */
	ck_assert_double_eq_tol(
			ovc_ocloop_step(&l, 0.6, 1, 1, 1.0, TARGET, dt), 0.25, 1e-12);
	/* it grows within a clog (x >= 0.95); 3 s: the floor is set again
	 * from a (0.25, before this period's growth) */
	ck_assert_double_eq_tol(
			ovc_ocloop_step(&l, 1.0, 1, 1, 1.0, TARGET, dt), g, 1e-12);
	ck_assert_double_eq_tol(l.a_clog, 0.25, 1e-12);
	ck_assert_double_eq_tol(l.clog_s, 0.0, 1e-12);
	ck_assert_double_eq_tol(
			ovc_ocloop_step(&l, 0.0, 1, 1, 1.0, TARGET, dt), g / 2, 1e-12);
	ck_assert_double_eq_tol(
			ovc_ocloop_step(&l, 0.0, 1, 1, 1.0, TARGET, dt), g / 4, 1e-12);
	/* the new floor: a quarter of 0.25 */
	ck_assert_double_eq_tol(
			ovc_ocloop_step(&l, 0.0, 1, 1, 1.0, TARGET, dt), 0.0625, 1e-12);
	/* the clog clears: the next flood halves again */
	ck_assert_double_eq_tol(
			ovc_ocloop_step(&l, 0.2, 1, 0, 1.0, TARGET, dt), 0.03125, 1e-12);
	ck_assert_double_eq(l.a_clog, 0.0);
	ck_assert_double_eq(l.clog_s, 0.0);
	/* a new clog: a quarter of a then (l.a 0.5 for room above A_MIN) */
	l.a = 0.5;
	ovc_ocloop_step(&l, 0.0, 1, 1, 1.0, TARGET, dt);
	ovc_ocloop_step(&l, 0.0, 1, 1, 1.0, TARGET, dt);
	ck_assert_double_eq_tol(
			ovc_ocloop_step(&l, 0.0, 1, 1, 1.0, TARGET, dt), 0.125, 1e-12);
	/* a corrupted floor (or its age) is taken afresh */
	l.a = 0.5;
	l.a_clog = NAN;
	ck_assert_double_eq_tol(
			ovc_ocloop_step(&l, 0.0, 1, 1, 1.0, TARGET, dt), 0.25, 1e-12);
	ck_assert_double_eq_tol(l.a_clog, 0.5, 1e-12);
	l.clog_s = NAN;
	ck_assert_double_eq_tol(
			ovc_ocloop_step(&l, 0.0, 1, 1, 1.0, TARGET, dt), 0.125, 1e-12);
	ck_assert_double_eq_tol(l.a_clog, 0.25, 1e-12);
	ck_assert_double_eq(l.clog_s, 0.0);
	/* the old one-second call knows no clog */
	l.a = 0.5;
	l.a_clog = 0.5;
	ck_assert_double_eq_tol(
			ovc_ocloop_second(&l, 0.0, 1, 1.0, TARGET), 0.25, 1e-12);
	ck_assert_double_eq(l.a_clog, 0.0);
}
END_TEST

/* A step from 0.5 C to n C with the half-second period, as on the
 * testbed: for clog periods after the step the receive queue holds a
 * backlog its age limit refuses (the core admits 2 % of what it reads),
 * then its controller admits min(1, C / arrivals). Two periods after
 * the step the announcement is at least 90 % of the needed 1 - 1/n (at
 * 4x) or two halvings (8x); a clog never cuts below a quarter (the
 * arrivals stay at or above min(C, n C / 4): half the capacity at 2x,
 * whose x is no better), and from 6 s on (a clog of up to 3 s, then 3 s to
 * climb back) the arrivals are held near C. */
static void check_step_period(double n, unsigned clog)
{
	struct ovc_ocloop l;
	double dt = OVC_OCLOOP_PERIOD_MS / 1000.0, arr, x;
	double lo = INFINITY, lo_late = INFINITY, hi_late = 0, need = 1 - 1 / n;
	unsigned t, ann = SIM_ANN / 2;

	ovc_ocloop_init(&l);
	for(t = 0; t < 20; t++) {
		arr = 0.5 * SIM_C;
		ovc_ocloop_step(&l, ovc_ocloop_x(arr, arr, 0, TARGET), 0, 0,
				arr / SIM_C, TARGET, dt);
	}
	ck_assert_int_eq(l.engaged, 0);
	for(t = 0; t < 40; t++) {
		arr = sim_arrivals(&l, n * SIM_C, ann);
		x = ovc_ocloop_x(
				arr, t < clog ? 0.02 * arr : fmin(arr, SIM_C), 0, TARGET);
		ovc_ocloop_step(&l, x, arr > SIM_C, t < clog, fmin(1.0, arr / SIM_C),
				TARGET, dt);
		if(t == 1)
			ck_assert_msg(ovc_ocloop_exact(&l) >= fmin(90 * need, 75) - 1e-9,
					"N=%g clog %u: %g %% after two periods", n, clog,
					ovc_ocloop_exact(&l));
		if(t > 0)
			lo = fmin(lo, arr);
		if(t >= 12) {
			lo_late = fmin(lo_late, arr);
			hi_late = fmax(hi_late, arr);
		}
	}
	ck_assert_msg(lo >= 0.98 * fmin(SIM_C, n * SIM_C / 4),
			"N=%g clog %u: arrivals down to %g", n, clog, lo);
	ck_assert_msg(lo_late >= 0.8 * SIM_C && hi_late <= 1.3 * SIM_C,
			"N=%g clog %u: arrivals %g-%g from 6 s", n, clog, lo_late, hi_late);
}

/* A clog the overload keeps up: the receive queue stays clogged while
 * more than 3 C arrive (16x cut by three quarters is still 4x). The floor
 * holds 3 s, then two more halvings follow: from 5 s on the arrivals are
 * near C, at 16x and 32x. */
static void check_step_persistent(double n)
{
	struct ovc_ocloop l;
	double dt = OVC_OCLOOP_PERIOD_MS / 1000.0, arr, x;
	double lo_late = INFINITY, hi_late = 0;
	unsigned t, ann = SIM_ANN / 2;
	int clog;

	ovc_ocloop_init(&l);
	for(t = 0; t < 40; t++) {
		arr = sim_arrivals(&l, n * SIM_C, ann);
		clog = arr > 3 * SIM_C;
		x = ovc_ocloop_x(arr, clog ? 0.02 * arr : fmin(arr, SIM_C), 0, TARGET);
		ovc_ocloop_step(
				&l, x, arr > SIM_C, clog, fmin(1.0, arr / SIM_C), TARGET, dt);
		if(t == 3) /* within the hold: two halvings, no more */
			ck_assert_double_eq_tol(l.a, 0.25, 1e-9);
		if(t >= 10) {
			lo_late = fmin(lo_late, arr);
			hi_late = fmax(hi_late, arr);
		}
	}
	ck_assert_msg(lo_late >= 0.7 * SIM_C && hi_late <= 1.3 * SIM_C,
			"N=%g: arrivals %g-%g from 5 s", n, lo_late, hi_late);
}

START_TEST(test_step_persistent)
{
	check_step_persistent(16);
	check_step_persistent(32);
}
END_TEST

START_TEST(test_step_period)
{
	static const double n[] = {2, 4, 8, 16};
	unsigned i, c;

	for(i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		for(c = 2; c <= 6; c++)
			check_step_period(n[i], c);
}
END_TEST

START_TEST(test_closed_loop)
{
	static const double n[] = {2, 4, 8, 16};
	unsigned i;

	for(i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		check_closed_loop(n[i], 1);
		check_closed_loop(n[i], 0);
	}
}
END_TEST

Suite *make_suite_ocloop(void)
{
	Suite *s = suite_create("ocloop");
	TCase *tc = tcase_create("loop");

	tcase_add_test(tc, test_disengaged);
	tcase_add_test(tc, test_flood);
	tcase_add_test(tc, test_law);
	tcase_add_test(tc, test_no_arrivals_and_nan);
	tcase_add_test(tc, test_publish);
	tcase_add_test(tc, test_closed_loop);
	tcase_add_test(tc, test_x_floor);
	tcase_add_test(tc, test_closed_loop_pessimistic);
	tcase_add_test(tc, test_step_overshoot);
	tcase_add_test(tc, test_period);
	tcase_add_test(tc, test_clog);
	tcase_add_test(tc, test_step_period);
	tcase_add_test(tc, test_step_persistent);
	suite_add_tcase(s, tc);
	return s;
}
