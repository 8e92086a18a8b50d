/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/controller.c: the dispatcher over every algorithm:
 * init errors without side effects, measurement refusal, output sanity.
 */
#include <math.h>
#include <string.h>

#include "ovc/alg.h"
#include "ovc/controller.h"
#include "ovc/bbc.h"
#include "ovc/occ.h"
#include "ovc/occupancy.h"
#include "ovc/aro.h"
#include "ovc/sired.h"
#include "ovc/rsoca.h"
#include "ovc/pi.h"
#include "suites.h"

#define MS OVC_NS_PER_MS

static void measure_init(struct ovc_measure *m, double dt, double cpu)
{
	int i;

	memset(m, 0, sizeof(*m));
	m->dt_s = dt;
	m->cpu = cpu;
	m->mem = -1.0;
	m->queue_len = 0.0;
	m->queue_cap = 0.0;
	m->queue_delay_s = -1.0;
	m->queue_in = -1.0; /* not counted: pi takes offered */
	m->queue_out = -1.0;
	for(i = 0; i < OVC_CLASS_COUNT; i++)
		m->offered[i] = m->admitted[i] = 0.0;
}

static void assert_output_sane(const struct ovc_output *o)
{
	int i;

	ck_assert(isfinite(o->f) && o->f >= 0.0 && o->f <= 1.0);
	ck_assert(isfinite(o->alpha) && o->alpha >= 0.0 && o->alpha <= 1.0);
	ck_assert(isfinite(o->u));
	for(i = 0; i < OVC_CLASS_COUNT; i++) {
		ck_assert(isfinite(o->p_reject[i]));
		ck_assert(o->p_reject[i] >= 0.0 && o->p_reject[i] <= 1.0);
		ck_assert(isfinite(o->burst_limit[i]));
	}
	ck_assert(o->p_reject[OVC_CLASS_INDIALOG] == 0.0);
	for(i = 0; i < OVC_DLG_COUNT; i++)
		ck_assert(o->p_drop[i] >= 0.0 && o->p_drop[i] <= 1.0);
}

START_TEST(test_size_and_bad_init)
{
	struct ovc_params p;
	struct ovc_ctl c, before;

	ck_assert_uint_eq(ovc_ctl_size(), sizeof(struct ovc_ctl));
	ovc_params_defaults(&p);
	ck_assert_int_eq(ovc_ctl_init(&c, OVC_ALG_NONE, &p), OVC_OK);
	memcpy(&before, &c, sizeof(before)); /* padding too */
	ck_assert_int_eq(ovc_ctl_init(&c, OVC_ALG_COUNT, &p), OVC_EINVAL);
	ck_assert_int_eq(ovc_ctl_init(&c, (enum ovc_alg) - 1, &p), OVC_EINVAL);
	ck_assert_int_eq(ovc_ctl_init(&c, OVC_ALG_OCC, NULL), OVC_EINVAL);
	p.occ.target = 0.0;
	ck_assert_int_eq(ovc_ctl_init(&c, OVC_ALG_OCC, &p), OVC_ERANGE);
	ck_assert(memcmp(&c, &before, sizeof(c)) == 0);
	ck_assert_int_eq(ovc_ctl_alg(&c), OVC_ALG_NONE);
}
END_TEST

START_TEST(test_none)
{
	struct ovc_params p;
	struct ovc_ctl c;
	struct ovc_measure m;
	struct ovc_output o;
	int t;

	ovc_params_defaults(&p);
	ck_assert_int_eq(ovc_ctl_init(&c, OVC_ALG_NONE, &p), OVC_OK);
	ck_assert_uint_eq(ovc_ctl_epoch_ms(&c), 1000);
	ovc_ctl_last(&c, &o);
	ck_assert(o.f == 1.0);
	for(t = 1; t <= 10; t++) {
		measure_init(&m, 1.0, 1.0);
		ck_assert_int_eq(ovc_ctl_step(&c, &m, t * 1000 * MS, &o), OVC_OK);
		ck_assert(o.f == 1.0 && o.alpha == 0.0);
		ck_assert(o.p_reject[OVC_CLASS_INVITE] == 0.0);
		assert_output_sane(&o);
	}
}
END_TEST

START_TEST(test_occ_matches_direct)
{
	const double rhos[] = {1.0, 1.0, 0.95, 0.7, 0.2, 1.0, 0.0, 0.99, 0.5};
	struct ovc_params p;
	struct ovc_ctl c;
	struct ovc_occ d;
	struct ovc_measure m;
	struct ovc_output o, l;
	size_t i;

	ovc_params_defaults(&p);
	ck_assert_int_eq(ovc_ctl_init(&c, OVC_ALG_OCC, &p), OVC_OK);
	ck_assert_int_eq(ovc_ctl_alg(&c), OVC_ALG_OCC);
	ck_assert_uint_eq(ovc_ctl_epoch_ms(&c), 1000);
	ovc_occ_init(&d, &p.occ);
	for(i = 0; i < sizeof(rhos) / sizeof(rhos[0]); i++) {
		measure_init(&m, 1.0, rhos[i]);
		ck_assert_int_eq(
				ovc_ctl_step(&c, &m, (ovc_time_ns)(i + 1) * 1000 * MS, &o),
				OVC_OK);
		ck_assert_double_eq_tol(o.f, ovc_occ_step(&d, rhos[i]), 1e-15);
		ck_assert_double_eq_tol(
				o.p_reject[OVC_CLASS_INVITE], 1.0 - o.f, 1e-15);
		assert_output_sane(&o);
		ovc_ctl_last(&c, &l);
		ck_assert(memcmp(&o, &l, sizeof(o)) == 0);
	}
}
END_TEST

START_TEST(test_bad_measure_repeats_last)
{
	const double bad[] = {NAN, INFINITY, -INFINITY, -0.5};
	struct ovc_params p;
	struct ovc_ctl c, before;
	struct ovc_measure m;
	struct ovc_output o, last;
	size_t i;

	ovc_params_defaults(&p);
	ovc_ctl_init(&c, OVC_ALG_OCC, &p);
	measure_init(&m, 1.0, 1.0);
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 1000 * MS, &last), OVC_OK);
	ck_assert_double_eq_tol(last.f, 0.9, 1e-12);
	memcpy(&before, &c, sizeof(before)); /* padding too */
	for(i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		measure_init(&m, 1.0, bad[i]);
		ck_assert_int_eq(ovc_ctl_step(&c, &m, 2000 * MS, &o), OVC_EINVAL);
		ck_assert(memcmp(&o, &last, sizeof(o)) == 0);
		ck_assert(memcmp(&c, &before, sizeof(c)) == 0);
	}
	ck_assert_int_eq(ovc_ctl_step(&c, NULL, 2000 * MS, &o), OVC_EINVAL);
	ck_assert(memcmp(&o, &last, sizeof(o)) == 0);
}
END_TEST

START_TEST(test_dt_from_clock)
{
	struct ovc_params p;
	struct ovc_ctl c;
	struct ovc_measure m;
	struct ovc_output o;

	ovc_params_defaults(&p);
	ovc_ctl_init(&c, OVC_ALG_OCC, &p);
	/* no dt and no previous step: refused */
	measure_init(&m, 0.0, 1.0);
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 5 * MS, &o), OVC_EINVAL);
	measure_init(&m, NAN, 1.0);
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 5 * MS, &o), OVC_EINVAL);
	ck_assert(o.f == 1.0);
	measure_init(&m, 1.0, 1.0);
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 1000 * MS, &o), OVC_OK);
	/* then the clock gives dt; a clock standing still does not */
	measure_init(&m, -1.0, 1.0);
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 2000 * MS, &o), OVC_OK);
	ck_assert_double_eq_tol(o.f, 0.81, 1e-12);
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 2000 * MS, &o), OVC_EINVAL);
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 1500 * MS, &o), OVC_EINVAL);
	ck_assert_double_eq_tol(o.f, 0.81, 1e-12);
}
END_TEST

START_TEST(test_reconfigure_occ)
{
	struct ovc_params p;
	struct ovc_ctl c, before;
	struct ovc_measure m;
	struct ovc_output o;

	ovc_params_defaults(&p);
	ovc_ctl_init(&c, OVC_ALG_OCC, &p);
	measure_init(&m, 1.0, 1.0);
	ovc_ctl_step(&c, &m, 1000 * MS, &o);
	ovc_ctl_step(&c, &m, 2000 * MS, &o);
	ck_assert_double_eq_tol(o.f, 0.81, 1e-12);
	p.occ.target = 0.5;
	p.occ.epoch_ms = 200;
	ck_assert_int_eq(ovc_ctl_reconfigure(&c, &p), OVC_OK);
	ck_assert_uint_eq(ovc_ctl_epoch_ms(&c), 200);
	ovc_ctl_step(&c, &m, 3000 * MS, &o);
	ck_assert_double_eq_tol(o.f, 0.405, 1e-12);
	memcpy(&before, &c, sizeof(before)); /* padding too */
	p.occ.phi_max = 0.0;
	ck_assert_int_eq(ovc_ctl_reconfigure(&c, &p), OVC_ERANGE);
	ck_assert(memcmp(&c, &before, sizeof(c)) == 0);
}
END_TEST

/* A plausible measurement for every algorithm. */
static void measure_full(struct ovc_measure *m, double cpu, double q)
{
	measure_init(m, 0.1, cpu);
	m->mem = 0.5;
	m->queue_len = q;
	m->queue_cap = 1000.0;
	m->queue_delay_s = 0.01;
	m->offered[OVC_CLASS_INVITE] = 100.0;
	m->admitted[OVC_CLASS_INVITE] = 80.0;
	m->offered[OVC_CLASS_INDIALOG] = 200.0;
	m->admitted[OVC_CLASS_INDIALOG] = 200.0;
	m->dlg[OVC_DLG_BYE] = 90.0;
	m->invite_ok = 70.0;
}

START_TEST(test_every_alg_matches_direct)
{
	struct ovc_params p;
	struct ovc_ctl c;
	struct ovc_measure m;
	struct ovc_output o;
	struct ovc_bbc bbc;
	struct ovc_occupancy occu;
	struct ovc_aro aro;
	struct ovc_sired sired;
	struct ovc_rsoca rs;
	struct ovc_pi pi;
	enum ovc_alg a;
	double f = 1.0, cpu, q;
	int t;

	ovc_params_defaults(&p);
	for(a = OVC_ALG_BBC; a < OVC_ALG_COUNT; a++) {
		if(a == OVC_ALG_OCC)
			continue; /* test_occ_matches_direct */
		ck_assert_int_eq(ovc_ctl_init(&c, a, &p), OVC_OK);
		ovc_bbc_init(&bbc, &p.bbc);
		ovc_occupancy_init(&occu, &p.occupancy);
		ovc_aro_init(&aro, &p.aro);
		ovc_sired_init(&sired, &p.sired);
		ovc_rsoca_init(&rs, &p.rsoca);
		ovc_pi_init(&pi, &p.pi);
		for(t = 0; t < 300; t++) {
			cpu = 0.5 + 0.5 * ((t / 20) % 2);
			q = (double)((t * 37) % 1000);
			measure_full(&m, cpu, q);
			ck_assert_int_eq(ovc_ctl_step(&c, &m, (t + 1) * 100 * MS, &o),
					OVC_OK);
			assert_output_sane(&o);
			switch(a) {
				case OVC_ALG_BBC:
					f = ovc_bbc_step(&bbc, q);
					break;
				case OVC_ALG_OCCUPANCY:
					f = ovc_occupancy_step(&occu, cpu, 0.1);
					break;
				case OVC_ALG_ARO:
					f = ovc_aro_step(&aro, cpu, 0.1, 280.0, 300.0);
					break;
				case OVC_ALG_SIRED:
					f = ovc_sired_step(&sired, q / 1000.0);
					break;
				case OVC_ALG_RSOCA:
					ovc_rsoca_step(&rs, cpu, 0.5, 0.1, m.dlg, 70.0);
					f = 1.0 - rs.p_reject;
					break;
				case OVC_ALG_PI:
					ovc_pi_step(&pi, 0.1, cpu, q, 100.0);
					f = 1.0 - pi.alpha;
					ck_assert(o.u == pi.u);
					break;
				default:
					break;
			}
			ck_assert_msg(o.f == f, "%s step %d: %g != %g", ovc_alg_name(a),
					t, o.f, f);
		}
	}
}
END_TEST

START_TEST(test_epochs)
{
	struct ovc_params p;
	struct ovc_ctl c;

	ovc_params_defaults(&p);
	ovc_ctl_init(&c, OVC_ALG_BBC, &p);
	ck_assert_uint_eq(ovc_ctl_epoch_ms(&c), 10);
	ovc_ctl_init(&c, OVC_ALG_OCCUPANCY, &p);
	ck_assert_uint_eq(ovc_ctl_epoch_ms(&c), 40);
	ovc_ctl_init(&c, OVC_ALG_ARO, &p);
	ck_assert_uint_eq(ovc_ctl_epoch_ms(&c), 40);
	ovc_ctl_init(&c, OVC_ALG_SIRED, &p);
	ck_assert_uint_eq(ovc_ctl_epoch_ms(&c), 40);
	ovc_ctl_init(&c, OVC_ALG_RSOCA, &p);
	ck_assert_uint_eq(ovc_ctl_epoch_ms(&c), 1000);
	ovc_ctl_init(&c, OVC_ALG_PI, &p);
	ck_assert_uint_eq(ovc_ctl_epoch_ms(&c), 10);
}
END_TEST

START_TEST(test_rsoca_output)
{
	struct ovc_params p;
	struct ovc_ctl c;
	struct ovc_measure m;
	struct ovc_output o;

	ovc_params_defaults(&p);
	ovc_ctl_init(&c, OVC_ALG_RSOCA, &p);
	measure_full(&m, 0.3, 0.0);
	m.dt_s = 1.0;
	m.mem = -1.0;
	m.dlg[OVC_DLG_BYE] = 3400.0;
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 1000 * MS, &o), OVC_OK);
	ck_assert_double_eq_tol(o.p_reject[OVC_CLASS_INVITE], 0.3, 1e-12);
	ck_assert_double_eq_tol(o.p_reject[OVC_CLASS_REGISTER], 0.3, 1e-12);
	ck_assert_double_eq_tol(o.p_reject[OVC_CLASS_OTHER], 0.3, 1e-12);
	ck_assert(o.p_reject[OVC_CLASS_INDIALOG] == 0.0);
	ck_assert_double_eq_tol(o.f, 0.7, 1e-12);
	ck_assert_double_eq_tol(o.p_drop[OVC_DLG_BYE], 0.5, 1e-12);
	ck_assert(o.burst_limit[OVC_CLASS_INVITE] == 1700.0);
	ck_assert(o.burst_limit[OVC_CLASS_REGISTER] == -1.0);
	/* severe overload: everything out of dialog rejected, in-dialog never */
	measure_full(&m, 0.9, 0.0);
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 2000 * MS, &o), OVC_OK);
	ck_assert(o.p_reject[OVC_CLASS_INVITE] == 1.0 && o.f == 0.0);
	ck_assert(o.p_reject[OVC_CLASS_INDIALOG] == 0.0);
	/* nothing measured: refused */
	measure_full(&m, -1.0, 0.0);
	m.mem = -1.0;
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 3000 * MS, &o), OVC_EINVAL);
	ck_assert(o.f == 0.0);
}
END_TEST

START_TEST(test_sired_needs_capacity)
{
	struct ovc_params p;
	struct ovc_ctl c;
	struct ovc_measure m;
	struct ovc_output o;

	ovc_params_defaults(&p);
	ovc_ctl_init(&c, OVC_ALG_SIRED, &p);
	measure_full(&m, 0.5, 900.0);
	m.queue_cap = 0.0;
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 100 * MS, &o), OVC_EINVAL);
	m.queue_cap = NAN;
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 100 * MS, &o), OVC_EINVAL);
	m.queue_cap = 1000.0;
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 100 * MS, &o), OVC_OK);
	ck_assert_double_eq_tol(c.u.sired.q_hat.v, 0.045, 1e-12);
}
END_TEST

/* Random, often broken measurements: every algorithm either steps with a
 * sane output or refuses with the last output and its state untouched. */
START_TEST(test_fuzz_every_alg)
{
	const double vals[] = {NAN, INFINITY, -INFINITY, -1.0, 0.0, 0.3, 0.95,
			1.0, 7.0, 500.0, 1e12};
	const int nv = sizeof(vals) / sizeof(vals[0]);
	struct ovc_params p;
	struct ovc_ctl c, before;
	struct ovc_measure m;
	struct ovc_output o;
	unsigned seed = 99;
	enum ovc_alg a;
	int t, i, rc, bad = 0, ok = 0;

#define PICK() (seed = seed * 1103515245u + 12345u, vals[(seed >> 16) % nv])
	ovc_params_defaults(&p);
	for(a = OVC_ALG_NONE; a < OVC_ALG_COUNT; a++) {
		ovc_ctl_init(&c, a, &p);
		for(t = 0; t < 2000; t++) {
			measure_full(&m, 0.5, 10.0);
			m.dt_s = (seed & 1) ? 0.04 : PICK();
			m.cpu = PICK();
			m.mem = PICK();
			m.queue_len = PICK();
			if((seed >> 3) & 1)
				m.queue_cap = PICK();
			for(i = 0; i < OVC_CLASS_COUNT; i++) {
				if((seed >> (i + 4)) & 1)
					m.offered[i] = PICK();
				if((seed >> (i + 8)) & 1)
					m.admitted[i] = PICK();
			}
			if((seed >> 12) & 1) {
				i = (int)(seed % OVC_DLG_COUNT);
				m.dlg[i] = PICK();
			}
			if((seed >> 13) & 1)
				m.invite_ok = PICK();
			memcpy(&before, &c, sizeof(before)); /* padding too */
			rc = ovc_ctl_step(&c, &m, (ovc_time_ns)(t + 1) * 40 * MS, &o);
			if(rc == OVC_OK) {
				ok++;
			} else if(rc != OVC_EINVAL
					  || memcmp(&o, &before.last, sizeof(o)) != 0
					  || memcmp(&c, &before, sizeof(c)) != 0) {
				bad++;
			}
			/* the checks of assert_output_sane, without ck_assert cost */
			if(!(isfinite(o.f) && o.f >= 0.0 && o.f <= 1.0
					   && isfinite(o.alpha) && o.alpha >= 0.0
					   && o.alpha <= 1.0 && isfinite(o.u)
					   && o.p_reject[OVC_CLASS_INDIALOG] == 0.0))
				bad++;
			for(i = 0; i < OVC_CLASS_COUNT; i++)
				if(!(o.p_reject[i] >= 0.0 && o.p_reject[i] <= 1.0))
					bad++;
			for(i = 0; i < OVC_DLG_COUNT; i++)
				if(!(o.p_drop[i] >= 0.0 && o.p_drop[i] <= 1.0))
					bad++;
		}
		ck_assert_msg(bad == 0, "%s: %d bad outputs", ovc_alg_name(a), bad);
	}
#undef PICK
	ck_assert_int_gt(ok, 1000);
}
END_TEST

START_TEST(test_reconfigure_keeps_state)
{
	struct ovc_params p;
	struct ovc_ctl c, before;
	struct ovc_measure m;
	struct ovc_output o;
	double qh, f;
	int t;

	ovc_params_defaults(&p);
	/* sired: q^ carried, f recomputed from the new thresholds */
	ovc_ctl_init(&c, OVC_ALG_SIRED, &p);
	for(t = 0; t < 100; t++) {
		measure_full(&m, 0.5, 800.0);
		ovc_ctl_step(&c, &m, (t + 1) * 40 * MS, &o);
	}
	qh = c.u.sired.q_hat.v;
	p.sired.qmin = 0.5;
	ck_assert_int_eq(ovc_ctl_reconfigure(&c, &p), OVC_OK);
	ck_assert(c.u.sired.q_hat.v == qh);
	ck_assert_double_eq_tol(c.u.sired.f, (0.9 - qh) / 0.4, 1e-12);
	/* occupancy: f and rho^ kept; a new k restarts the window only */
	ovc_params_defaults(&p);
	ovc_ctl_init(&c, OVC_ALG_OCCUPANCY, &p);
	for(t = 0; t < 30; t++) {
		measure_full(&m, 1.0, 0.0);
		ovc_ctl_step(&c, &m, (t + 1) * 40 * MS, &o);
	}
	f = c.u.occupancy.f;
	ck_assert_double_lt(f, 1.0);
	p.occupancy.k = 10;
	ck_assert_int_eq(ovc_ctl_reconfigure(&c, &p), OVC_OK);
	ck_assert(c.u.occupancy.f == f);
	ck_assert_uint_eq(ovc_window_count(&c.u.occupancy.win), 0);
	ck_assert_uint_eq(c.u.occupancy.win.k, 10);
	/* pi: integrators kept */
	ovc_params_defaults(&p);
	ovc_ctl_init(&c, OVC_ALG_PI, &p);
	for(t = 0; t < 30; t++) {
		measure_full(&m, 1.0, 300.0);
		ovc_ctl_step(&c, &m, (t + 1) * 10 * MS, &o);
	}
	memcpy(&before, &c, sizeof(before)); /* padding too */
	p.pi.kpc = 1.0;
	ck_assert_int_eq(ovc_ctl_reconfigure(&c, &p), OVC_OK);
	ck_assert(c.u.pi.ic == before.u.pi.ic && c.u.pi.iq == before.u.pi.iq);
	/* refused: untouched */
	memcpy(&before, &c, sizeof(before)); /* padding too */
	p.pi.rho_m = -1.0;
	ck_assert_int_eq(ovc_ctl_reconfigure(&c, &p), OVC_ERANGE);
	ck_assert(memcmp(&c, &before, sizeof(c)) == 0);
}
END_TEST


/* Released, a controller driven down by an overload accepts everything
 * again, keeps pi's drain rate, and drives f down from 1 on the next
 * overloaded epoch. */
START_TEST(test_release_every_alg)
{
	struct ovc_params p;
	struct ovc_ctl c;
	struct ovc_measure m;
	struct ovc_output o;
	enum ovc_alg alg = (enum ovc_alg)_i;
	double u;
	int k;

	ovc_params_defaults(&p);
	ck_assert_int_eq(ovc_ctl_init(&c, alg, &p), OVC_OK);
	measure_init(&m, 0.04, 1.0);
	m.mem = 0.99;
	m.queue_len = 1000;
	m.queue_cap = 1000;
	m.offered[OVC_CLASS_INVITE] = 1000;
	m.admitted[OVC_CLASS_INVITE] = 1000;
	for(k = 1; k <= 200; k++)
		ck_assert_int_eq(ovc_ctl_step(&c, &m, k * 40 * MS, &o), OVC_OK);
	if(alg != OVC_ALG_NONE)
		ck_assert(o.f < 0.999); /* every one refuses something */
	u = c.last.u;
	ovc_ctl_release(&c);
	ovc_ctl_last(&c, &o);
	if(alg == OVC_ALG_SIRED) {
		ck_assert(o.f < 0.999); /* follows its averaged queue */
		return;
	}
	ck_assert(o.f == 1.0);
	ck_assert(o.alpha == 0.0);
	ck_assert(o.p_reject[OVC_CLASS_INVITE] == 0.0);
	ck_assert(o.u == u);
	assert_output_sane(&o);
	/* the next overloaded epoch starts from 1 */
	ck_assert_int_eq(ovc_ctl_step(&c, &m, 201 * 40 * MS, &o), OVC_OK);
	assert_output_sane(&o);
	if(alg == OVC_ALG_OCC)
		ck_assert_double_eq_tol(o.f, 0.9, 1e-12); /* phi = 0.9 / 1 */
	if(alg == OVC_ALG_OCCUPANCY || alg == OVC_ALG_ARO)
		ck_assert(o.f > 0.5); /* one multiplicative step from 1 */
}
END_TEST

/* Two pi controllers in the same state, rho_M 500 INVITEs/s. */
static void pi_pair(struct ovc_ctl *a, struct ovc_ctl *b)
{
	struct ovc_params p;

	ovc_params_defaults(&p);
	p.pi.rho_m = 500;
	ck_assert_int_eq(ovc_ctl_init(a, OVC_ALG_PI, &p), OVC_OK);
	*b = *a; /* plain values: a copy is the same controller */
}

/* pi's CPU loop holds all the CPU at C_T, refusing included (003 eq. 1):
 * the admitted work at 0.85 plus 0.1 spent refusing is above its 0.9.
 * With the refusals left out (t_queue, 2026-11-25) the loop saw its target
 * met while the proxy ran at its capacity and its queue sat at expiry. */
START_TEST(test_pi_cpu_counts_refusals)
{
	struct ovc_ctl with, without;
	struct ovc_measure m;
	struct ovc_output o1, o2;
	int k;

	pi_pair(&with, &without);
	for(k = 1; k <= 100; k++) {
		measure_init(&m, 0.01, 0.85);
		m.queue_len = 25;
		m.offered[OVC_CLASS_INVITE] = 15;
		ck_assert_int_eq(ovc_ctl_step(&without, &m, k * 10 * MS, &o2), OVC_OK);
		m.cpu_reject = 0.1;
		ck_assert_int_eq(ovc_ctl_step(&with, &m, k * 10 * MS, &o1), OVC_OK);
	}
	ck_assert(o2.alpha == 0.0); /* 0.85 < C_T: nothing refused */
	ck_assert(o1.alpha > 0.2);	/* 0.95 > C_T: its integrator climbs */
	/* an unknown refusal share (negative) counts as none */
	measure_init(&m, 0.01, 0.85);
	m.cpu_reject = -1;
	ck_assert_int_eq(ovc_ctl_step(&without, &m, 101 * 10 * MS, &o2), OVC_OK);
	ck_assert(o2.alpha == 0.0);
}
END_TEST

/* pi hides the overload it controls (its queue at T_q, no wait beyond
 * it): it says so while it refuses beyond twice its CPU headroom (alpha >
 * 2 (1 - C_T)), so that the module does not release it (t_queue, 2026-11-25:
 * released every 2 s, flooded, and controlled again from alpha = 0). No
 * other algorithm hides one. */
START_TEST(test_hides_overload)
{
	struct ovc_params p;
	struct ovc_ctl c;
	struct ovc_measure m;
	struct ovc_output o;
	enum ovc_alg a;
	int k;

	ovc_params_defaults(&p);
	p.pi.rho_m = 500;
	for(a = OVC_ALG_NONE; a < OVC_ALG_COUNT; a++) {
		ck_assert_int_eq(ovc_ctl_init(&c, a, &p), OVC_OK);
		measure_init(&m, 0.01, 1.0);
		m.queue_len = 25;
		m.queue_cap = 1000;
		m.offered[OVC_CLASS_INVITE] = 15;
		m.admitted[OVC_CLASS_INVITE] = 15;
		for(k = 1; k <= 300; k++)
			ck_assert_int_eq(
					ovc_ctl_step(&c, &m, k * ovc_ctl_epoch_ms(&c) * MS, &o),
					OVC_OK);
		if(a != OVC_ALG_PI) {
			ck_assert_int_eq(ovc_ctl_hides_overload(&c, &o), 0);
			continue;
		}
		ck_assert(o.alpha > 2.0 * (1.0 - OVC_PI_C_TARGET)); /* no quota */
		ck_assert_int_eq(ovc_ctl_hides_overload(&c, &o), 1);
		/* at the capacity's edge (alpha about 1 - C_T, up to twice that
		 * in its noise) it hides nothing */
		o.alpha = 2.0 * (1.0 - OVC_PI_C_TARGET);
		ck_assert_int_eq(ovc_ctl_hides_overload(&c, &o), 0);
		ovc_ctl_release(&c);
		ovc_ctl_last(&c, &o);
		ck_assert_int_eq(ovc_ctl_hides_overload(&c, &o), 0);
		ck_assert_int_eq(ovc_ctl_hides_overload(&c, NULL), 0);
	}
}
END_TEST

/* pi's C_T comes from the measurement: with a quota's stall (stall_ms >
 * 0) a CPU held at 0.95 is no excess and pi refuses nothing; without one
 * its CPU loop refuses. */
START_TEST(test_pi_quota_target)
{
	struct ovc_params p;
	struct ovc_ctl q, nq;
	struct ovc_measure m;
	struct ovc_output oq, onq;
	int k;

	ovc_params_defaults(&p);
	ck_assert_int_eq(ovc_ctl_init(&q, OVC_ALG_PI, &p), OVC_OK);
	nq = q;
	measure_init(&m, 0.01, 0.95);
	m.queue_len = 10;
	m.offered[OVC_CLASS_INVITE] = m.admitted[OVC_CLASS_INVITE] = 5;
	for(k = 1; k <= 300; k++) {
		m.stall_ms = 80;
		ck_assert_int_eq(ovc_ctl_step(&q, &m, k * 10 * MS, &oq), OVC_OK);
		m.stall_ms = 0;
		ck_assert_int_eq(ovc_ctl_step(&nq, &m, k * 10 * MS, &onq), OVC_OK);
	}
	ck_assert_double_eq(oq.alpha, 0.0);
	ck_assert_double_eq(oq.f, 1.0);
	ck_assert(onq.alpha > 0.1);
}
END_TEST

/* pi's arrival share is a fraction of the INVITEs it applies to: the
 * offered less those decided before it (share_skipped). With three in
 * four arrivals refused before it, the share is four times what a
 * fraction of all arrivals would be, so that the same number of INVITEs
 * gets in (16x under -x tlsf, 2026-11-27: pi admitted 5 calls/s). */
START_TEST(test_pi_share_of_what_meets_it)
{
	struct ovc_ctl all, met;
	struct ovc_measure m;
	struct ovc_output oa, om;
	int k;

	pi_pair(&all, &met);
	for(k = 1; k <= 200; k++) {
		measure_init(&m, 0.01, 0.5);
		m.queue_len = 5;
		m.offered[OVC_CLASS_INVITE] = 12; /* 1200/s */
		m.admitted[OVC_CLASS_INVITE] = 0.5;
		ck_assert_int_eq(ovc_ctl_step(&all, &m, k * 10 * MS, &oa), OVC_OK);
		m.share_skipped = 9; /* 900/s refused before the share */
		ck_assert_int_eq(ovc_ctl_step(&met, &m, k * 10 * MS, &om), OVC_OK);
	}
	ck_assert(oa.f_arrival > 0.0 && oa.f_arrival < 0.1);
	ck_assert_double_eq_tol(om.f_arrival / oa.f_arrival, 4.0, 1e-6);
	/* all skipped: the share has nothing to apply to, and lets in all */
	for(k = 201; k <= 400; k++) {
		measure_init(&m, 0.01, 0.5);
		m.offered[OVC_CLASS_INVITE] = 12;
		m.share_skipped = 15; /* more than offered: counted apart */
		ck_assert_int_eq(ovc_ctl_step(&met, &m, k * 10 * MS, &om), OVC_OK);
	}
	ck_assert_double_eq(om.f_arrival, 1.0);
}
END_TEST

/* Under a CPU quota, while the age limit refuses INVITEs, the loops whose f
 * comes from the CPU alone do not lower it (the excess is refused already;
 * the CPU reads full whenever work waits); their measurements go on, and f
 * may rise. Every other algorithm steps as if nothing were counted. */
START_TEST(test_age_refusals_hold_f)
{
	enum ovc_alg alg = (enum ovc_alg)_i;
	struct ovc_params p;
	struct ovc_ctl c, plain;
	struct ovc_measure m;
	struct ovc_output o, o2;
	ovc_time_ns t = 0;
	double f1;
	int k, holds;

	ovc_params_defaults(&p);
	ck_assert_int_eq(ovc_ctl_init(&c, alg, &p), OVC_OK);
	holds = ovc_alg_desc(alg)->hold != NULL;
	ck_assert_int_eq(holds,
			alg == OVC_ALG_OCC || alg == OVC_ALG_OCCUPANCY
					|| alg == OVC_ALG_ARO);
	measure_init(&m, 0.1, 1.0);
	m.offered[OVC_CLASS_INVITE] = m.admitted[OVC_CLASS_INVITE] = 100;
	m.queue_len = 50;
	m.queue_cap = 1000;
	plain = c;
	if(!holds) {
		for(k = 0; k < 50; k++) {
			t += 100 * MS;
			m.age_refused = 0;
			ck_assert_int_eq(ovc_ctl_step(&plain, &m, t, &o2), OVC_OK);
			m.age_refused = 30;
			ck_assert_int_eq(ovc_ctl_step(&c, &m, t, &o), OVC_OK);
			ck_assert(memcmp(&o, &o2, sizeof(o)) == 0);
		}
		return;
	}
	/* the CPU full, nothing refused for age: f falls */
	for(k = 0; k < 10; k++) {
		t += 100 * MS;
		ck_assert_int_eq(ovc_ctl_step(&c, &m, t, &o), OVC_OK);
	}
	f1 = o.f;
	ck_assert(f1 < 0.999);
	/* the same with INVITEs refused for their wait: f holds */
	m.age_refused = 30;
	for(k = 0; k < 20; k++) {
		t += 100 * MS;
		ck_assert_int_eq(ovc_ctl_step(&c, &m, t, &o), OVC_OK);
		ck_assert(o.f == f1);
		ck_assert(c.last.f == f1);
	}
	/* the CPU low: f may rise even so */
	measure_init(&m, 0.1, 0.2);
	m.offered[OVC_CLASS_INVITE] = m.admitted[OVC_CLASS_INVITE] = 100;
	m.age_refused = 30;
	for(k = 0; k < 100; k++) {
		t += 100 * MS;
		m.admitted[OVC_CLASS_INVITE] = 100 * c.last.f; /* aro's alpha */
		ck_assert_int_eq(ovc_ctl_step(&c, &m, t, &o), OVC_OK);
		assert_output_sane(&o);
	}
	ck_assert(o.f > f1);
	/* the age refusals over, the CPU full: f falls again */
	f1 = o.f;
	m.cpu = 1.0;
	m.age_refused = 0;
	for(k = 0; k < 100; k++) {
		t += 100 * MS;
		ck_assert_int_eq(ovc_ctl_step(&c, &m, t, &o), OVC_OK);
	}
	ck_assert(o.f < f1);
}
END_TEST

/* occ with f_min 0 (allowed): an hour at full CPU takes f to 0 (or a
 * denormal); once the load is gone f is back to 1 within a few epochs
 * (it took 430 epochs of 1 s from 1e-300, and never left 0). */
START_TEST(test_occ_fmin0_recovers)
{
	struct ovc_params p;
	struct ovc_ctl c;
	struct ovc_measure m;
	struct ovc_output o;
	ovc_time_ns t = 0;
	int k;

	ovc_params_defaults(&p);
	p.occ.f_min = 0.0;
	ck_assert_int_eq(ovc_ctl_init(&c, OVC_ALG_OCC, &p), OVC_OK);
	measure_init(&m, 1.0, 1.0);
	for(k = 0; k < 3600 * 3; k++) {
		t += 1000 * MS;
		ck_assert_int_eq(ovc_ctl_step(&c, &m, t, &o), OVC_OK);
	}
	ck_assert(o.f < 1e-300);
	m.cpu = 0.1;
	for(k = 0; k < 4; k++) {
		t += 1000 * MS;
		ck_assert_int_eq(ovc_ctl_step(&c, &m, t, &o), OVC_OK);
	}
	ck_assert_msg(o.f == 1.0, "f %g after 4 epochs", o.f);
	/* near the target it rises gently (phi 0.9 / 0.8), not in one jump */
	for(k = 0; k < 3600; k++) {
		t += 1000 * MS;
		m.cpu = 1.0;
		ovc_ctl_step(&c, &m, t, &o);
	}
	m.cpu = 0.8;
	t += 1000 * MS;
	ck_assert_int_eq(ovc_ctl_step(&c, &m, t, &o), OVC_OK);
	ck_assert_double_eq_tol(o.f, 0.02 * 0.9 / 0.8, 1e-12);
	/* and with the default f_min eq. 1 is the paper's */
	ovc_params_defaults(&p);
	ovc_ctl_init(&c, OVC_ALG_OCC, &p);
	m.cpu = 1.0;
	for(k = 0; k < 100; k++) {
		t += 1000 * MS;
		ovc_ctl_step(&c, &m, t, &o);
	}
	ck_assert(o.f == 0.02);
	m.cpu = 0.6;
	t += 1000 * MS;
	ovc_ctl_step(&c, &m, t, &o);
	ck_assert_double_eq_tol(o.f, 0.03, 1e-12);
}
END_TEST

Suite *make_suite_controller(void)
{
	Suite *s = suite_create("controller");
	TCase *tc = tcase_create("dispatch");
	TCase *all = tcase_create("every algorithm");

	tcase_add_test(tc, test_size_and_bad_init);
	tcase_add_test(tc, test_none);
	tcase_add_test(tc, test_occ_matches_direct);
	tcase_add_test(tc, test_bad_measure_repeats_last);
	tcase_add_test(tc, test_dt_from_clock);
	tcase_add_test(tc, test_reconfigure_occ);
	tcase_add_test(tc, test_occ_fmin0_recovers);
	suite_add_tcase(s, tc);
	tcase_add_test(all, test_every_alg_matches_direct);
	tcase_add_test(all, test_epochs);
	tcase_add_test(all, test_rsoca_output);
	tcase_add_test(all, test_sired_needs_capacity);
	tcase_add_test(all, test_fuzz_every_alg);
	tcase_add_test(all, test_reconfigure_keeps_state);
	tcase_add_test(all, test_pi_cpu_counts_refusals);
	tcase_add_test(all, test_hides_overload);
	tcase_add_test(all, test_pi_quota_target);
	tcase_add_test(all, test_pi_share_of_what_meets_it);
	tcase_add_loop_test(all, test_release_every_alg, 0, OVC_ALG_COUNT);
	tcase_add_loop_test(all, test_age_refusals_hold_f, 0, OVC_ALG_COUNT);
	suite_add_tcase(s, all);
	return s;
}
