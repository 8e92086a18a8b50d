/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/params.c: the table is consistent, every parameter
 * parses its default, refuses out-of-range and malformed values, and a
 * refused set leaves the parameters unchanged.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovc/params.h"
#include "ovc/types.h"
#include "ovc/bbc.h"
#include "ovc/occ.h"
#include "ovc/occupancy.h"
#include "ovc/aro.h"
#include "ovc/sired.h"
#include "ovc/rsoca.h"
#include "ovc/pi.h"
#include "ovc/agering.h"
#include "suites.h"

START_TEST(test_table_consistent)
{
	const struct ovc_param_def *d, *e;
	size_t i, j, n = ovc_param_count();

	ck_assert_uint_ge(n, 4);
	ck_assert_ptr_null(ovc_param_at(n));
	for(i = 0; i < n; i++) {
		d = ovc_param_at(i);
		ck_assert_ptr_nonnull(d);
		ck_assert_ptr_nonnull(d->name);
		ck_assert_ptr_nonnull(strchr(d->name, '.'));
		ck_assert_ptr_nonnull(d->unit);
		ck_assert_ptr_nonnull(d->doc);
		ck_assert_uint_gt(strlen(d->doc), 10);
		ck_assert_msg(d->min <= d->def && d->def <= d->max, "%s", d->name);
		ck_assert_uint_le(d->offset + (d->type == OVC_PARAM_UINT
													 ? sizeof(unsigned)
													 : sizeof(double)),
				sizeof(struct ovc_params));
		ck_assert_ptr_eq(ovc_param_find(d->name), d);
		for(j = 0; j < i; j++) {
			e = ovc_param_at(j);
			ck_assert_str_ne(d->name, e->name);
			ck_assert_uint_ne(d->offset, e->offset);
		}
	}
	ck_assert_ptr_null(ovc_param_find("occ"));
	ck_assert_ptr_null(ovc_param_find("occ.target "));
	ck_assert_ptr_null(ovc_param_find(NULL));
}
END_TEST

START_TEST(test_required_names)
{
	const char *names[] = {"occ.target", "occ.f_min", "occ.phi_max",
			"occ.epoch_ms", "bbc.high", "bbc.low", "occupancy.k",
			"occupancy.target", "occupancy.f_min", "occupancy.w",
			"aro.alpha_target", "aro.rho_target", "sired.qmin", "sired.qmax",
			"sired.f_min", "sired.w", "rsoca.cmin", "rsoca.cmax",
			"rsoca.sigma", "rsoca.dead", "rsoca.ben", "rsoca.ppass", "pi.kpc",
			"pi.kic", "pi.kpq", "pi.kiq", "pi.tq", "pi.tau", "pi.tau_c",
			"pi.epoch_ms"};
	size_t i;

	for(i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		ck_assert_msg(ovc_param_find(names[i]) != NULL, "%s", names[i]);
}
END_TEST

START_TEST(test_defaults_fill)
{
	struct ovc_params p;
	const struct ovc_param_def *d;
	double v;
	size_t i;

	ovc_params_defaults(&p);
	ck_assert_int_eq(ovc_params_validate(&p, NULL, 0), OVC_OK);
	for(i = 0; i < ovc_param_count(); i++) {
		d = ovc_param_at(i);
		ck_assert_int_eq(ovc_param_get(&p, d->name, &v), OVC_OK);
		ck_assert_msg(v == d->def, "%s: %g != %g", d->name, v, d->def);
	}
	ck_assert_int_eq(ovc_param_get(&p, "nope.x", &v), OVC_ENOENT);
	/* the occ values of 000 §VI-C */
	ck_assert(p.occ.target == 0.9 && p.occ.f_min == 0.02);
	ck_assert(p.occ.phi_max == 5.0 && p.occ.epoch_ms == 1000);
}
END_TEST

/* The table's defaults equal the controllers' own ovc_X_defaults(). */
START_TEST(test_defaults_match_controllers)
{
	struct ovc_params t, c;
	const struct ovc_param_def *d;
	double a, b;
	size_t i;

	ovc_params_defaults(&t);
	memset(&c, 0, sizeof(c));
	ovc_occ_defaults(&c.occ);
	ovc_bbc_defaults(&c.bbc);
	ovc_occupancy_defaults(&c.occupancy);
	ovc_aro_defaults(&c.aro);
	ovc_sired_defaults(&c.sired);
	ovc_rsoca_defaults(&c.rsoca);
	ovc_pi_defaults(&c.pi);
	ovc_rxq_defaults(&c.rxq);
	ovc_memctl_defaults(&c.memctl);
	ovc_memguard_defaults(&c.memguard);
	for(i = 0; i < ovc_param_count(); i++) {
		d = ovc_param_at(i);
		ovc_param_get(&t, d->name, &a);
		ovc_param_get(&c, d->name, &b);
		ck_assert_msg(a == b, "%s: table %g, controller %g", d->name, a, b);
	}
}
END_TEST

START_TEST(test_each_parses_default)
{
	const struct ovc_param_def *d = ovc_param_at((size_t)_i);
	struct ovc_params p;
	char buf[64], err[256];
	double v;

	ovc_params_defaults(&p);
	snprintf(buf, sizeof(buf), "%.17g", d->def);
	ck_assert_msg(ovc_param_set(&p, d->name, buf, err, sizeof(err))
						  == OVC_OK,
			"%s=%s: %s", d->name, buf, err);
	ovc_param_get(&p, d->name, &v);
	ck_assert(v == d->def);
	snprintf(buf, sizeof(buf), " %s = %.17g ", d->name, d->def);
	ck_assert_int_eq(ovc_param_assign(&p, buf, err, sizeof(err)), OVC_OK);
}
END_TEST

/* Sets name to text, expects refusal rc, and p unchanged. */
static void expect_refused(const char *name, const char *text, int rc)
{
	struct ovc_params p, before;
	char err[256] = "";
	int got;

	ovc_params_defaults(&p);
	memcpy(&before, &p, sizeof(before)); /* padding too */
	got = ovc_param_set(&p, name, text, err, sizeof(err));
	ck_assert_msg(got == rc, "%s='%s': got %d want %d (%s)", name, text, got,
			rc, err);
	ck_assert_msg(memcmp(&p, &before, sizeof(p)) == 0, "%s changed", name);
	ck_assert_msg(strstr(err, name) != NULL, "error '%s' lacks the name",
			err);
}

START_TEST(test_each_refuses_out_of_range)
{
	const struct ovc_param_def *d = ovc_param_at((size_t)_i);
	char buf[64], range[64];
	double step;
	struct ovc_params p;
	char err[256];

	step = d->type == OVC_PARAM_UINT ? 1.0 : fmax(fabs(d->max), 1.0) * 1e-3;
	snprintf(buf, sizeof(buf), "%.17g", d->max + step);
	expect_refused(d->name, buf, OVC_ERANGE);
	snprintf(buf, sizeof(buf), "%.17g", d->min - step);
	expect_refused(d->name, buf, OVC_ERANGE);
	/* the message gives the accepted range */
	ovc_params_defaults(&p);
	ovc_param_set(&p, d->name, "1e30", err, sizeof(err));
	snprintf(range, sizeof(range), "[%g, %g]", d->min, d->max);
	ck_assert_msg(strstr(err, range) != NULL, "'%s' lacks %s", err, range);
	/* the bounds themselves are accepted unless a cross-check refuses */
	snprintf(buf, sizeof(buf), "%.17g", d->min);
	if(ovc_param_set(&p, d->name, buf, NULL, 0) != OVC_OK)
		ck_assert_int_eq(ovc_param_set(&p, d->name, buf, NULL, 0),
				OVC_ERANGE);
}
END_TEST

START_TEST(test_each_refuses_malformed)
{
	const struct ovc_param_def *d = ovc_param_at((size_t)_i);
	const char *bad[] = {"abc", "", " ", "1e999", "-1e999", "nan", "NaN",
			"inf", "-inf", "infinity", "0.5x", "0x10", "1..2", "-", "+",
			".", "e5", "1e", "1e+", "5 5", "0,5", "--1", "1-"};
	size_t i;

	for(i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		expect_refused(d->name, bad[i], OVC_EINVAL);
	if(d->type == OVC_PARAM_UINT) {
		char buf[64];

		snprintf(buf, sizeof(buf), "%.17g", d->def + 0.5);
		expect_refused(d->name, buf, OVC_EINVAL);
	}
}
END_TEST

/* A tiny double (1e-320: a denormal strtod() flags ERANGE for; 1e-400:
 * rounds to 0) is no overflow: the range decides. */
START_TEST(test_each_tiny_by_range)
{
	const struct ovc_param_def *d = ovc_param_at((size_t)_i);
	const char *tiny[] = {"1e-320", "-1e-320", "1e-400"};
	struct ovc_params p;
	char err[256];
	double v, want;
	size_t i;
	int rc;

	for(i = 0; i < sizeof(tiny) / sizeof(tiny[0]); i++) {
		want = strtod(tiny[i], NULL);
		ovc_params_defaults(&p);
		err[0] = '\0';
		rc = ovc_param_set(&p, d->name, tiny[i], err, sizeof(err));
		ck_assert_msg(strstr(err, "overflow") == NULL, "%s=%s: %s", d->name,
				tiny[i], err);
		if(d->type == OVC_PARAM_UINT && want != 0.0) {
			ck_assert_int_eq(rc, OVC_EINVAL); /* a fraction */
			continue;
		}
		if(want < d->min || want > d->max) {
			expect_refused(d->name, tiny[i], OVC_ERANGE);
			continue;
		}
		if(rc != OVC_OK) { /* only a cross-check may refuse it */
			ck_assert_int_eq(rc, OVC_ERANGE);
			continue;
		}
		ovc_param_get(&p, d->name, &v);
		ck_assert_msg(v == want, "%s=%s: %g", d->name, tiny[i], v);
	}
}
END_TEST

START_TEST(test_cross_checks)
{
	struct ovc_params p, before;
	char err[256];

	ovc_params_defaults(&p);
	memcpy(&before, &p, sizeof(before)); /* padding too */
	ck_assert_int_eq(
			ovc_param_set(&p, "bbc.low", "800", err, sizeof(err)), OVC_ERANGE);
	ck_assert_ptr_nonnull(strstr(err, "bbc.high"));
	ck_assert_int_eq(
			ovc_param_set(&p, "bbc.high", "599", err, sizeof(err)), OVC_ERANGE);
	ck_assert_int_eq(
			ovc_param_set(&p, "sired.qmin", "0.95", err, sizeof(err)),
			OVC_ERANGE);
	ck_assert_int_eq(ovc_param_set(&p, "rsoca.cmax", "0.1", err, sizeof(err)),
			OVC_ERANGE);
	ck_assert(memcmp(&p, &before, sizeof(p)) == 0);
	/* 003's Ohta watermarks are reachable */
	ck_assert_int_eq(
			ovc_param_set(&p, "bbc.low", "400", err, sizeof(err)), OVC_OK);
	ck_assert(p.bbc.low == 400.0 && p.bbc.high == 800.0);
	/* validate sees a bad struct built by hand */
	p.occ.target = 2.0;
	ck_assert_int_eq(ovc_params_validate(&p, err, sizeof(err)), OVC_ERANGE);
	ck_assert_ptr_nonnull(strstr(err, "occ.target"));
	p.occ.target = NAN;
	ck_assert_int_eq(ovc_params_validate(&p, err, sizeof(err)), OVC_ERANGE);
}
END_TEST

/* Staged assignments (modparams): the order of two parameters bound to
 * each other does not matter; the set is checked as a whole afterwards. */
START_TEST(test_staged_order)
{
	struct ovc_params a, b, before;
	char err[256];

	/* rsoca.cmin 0.5 above the default cmax 0.4: refused one by one */
	ovc_params_defaults(&a);
	ck_assert_int_eq(ovc_param_assign(&a, "rsoca.cmin=0.5", err, sizeof(err)),
			OVC_ERANGE);
	/* staged, in either order, then valid as a whole */
	ovc_params_defaults(&a);
	ck_assert_int_eq(ovc_param_assign_staged(&a, "rsoca.cmin=0.5", err,
							 sizeof(err)),
			OVC_OK);
	ck_assert_int_eq(ovc_param_assign_staged(&a, "rsoca.cmax=0.8", err,
							 sizeof(err)),
			OVC_OK);
	ck_assert_int_eq(ovc_params_validate(&a, err, sizeof(err)), OVC_OK);
	ovc_params_defaults(&b);
	ck_assert_int_eq(ovc_param_assign_staged(&b, "rsoca.cmax=0.8", err,
							 sizeof(err)),
			OVC_OK);
	ck_assert_int_eq(ovc_param_assign_staged(&b, "rsoca.cmin=0.5", err,
							 sizeof(err)),
			OVC_OK);
	ck_assert_int_eq(ovc_params_validate(&b, err, sizeof(err)), OVC_OK);
	ck_assert(a.rsoca.cmin == b.rsoca.cmin && a.rsoca.cmax == b.rsoca.cmax);
	/* a set that stays inconsistent is refused by the whole check */
	ck_assert_int_eq(ovc_param_assign_staged(&b, "rsoca.cmax=0.3", err,
							 sizeof(err)),
			OVC_OK);
	ck_assert_int_eq(ovc_params_validate(&b, err, sizeof(err)), OVC_ERANGE);
	ck_assert_ptr_nonnull(strstr(err, "rsoca.cm"));
	/* a value outside its own range is refused at once, p unchanged */
	memcpy(&before, &b, sizeof(before)); /* padding too */
	ck_assert_int_eq(ovc_param_assign_staged(&b, "rsoca.cmax=1.5", err,
							 sizeof(err)),
			OVC_ERANGE);
	ck_assert_int_eq(ovc_param_assign_staged(&b, "nosuch=1", err,
							 sizeof(err)),
			OVC_ENOENT);
	ck_assert(memcmp(&b, &before, sizeof(b)) == 0);
}
END_TEST

/* rsoca memory control: explicit thresholds both or neither and
 * increasing; B above B_en. */
START_TEST(test_cross_checks_memctl)
{
	struct ovc_params p, before;
	char err[256];

	ovc_params_defaults(&p);
	memcpy(&before, &p, sizeof(before)); /* padding too */
	ck_assert_int_eq(
			ovc_param_set(&p, "rsoca.reap_b", "1.5", err, sizeof(err)),
			OVC_ERANGE);
	ck_assert_int_eq(
			ovc_param_set(&p, "rsoca.reap_b", "1.5", err, sizeof(err)),
			OVC_ERANGE);
	ck_assert_ptr_nonnull(strstr(err, "rsoca.ben"));
	ck_assert(memcmp(&p, &before, sizeof(p)) == 0);
	p.memctl.mmax_bytes = 3000;
	p.memctl.mmin_bytes = 3000;
	ck_assert_int_eq(ovc_params_validate(&p, err, sizeof(err)), OVC_ERANGE);
	p.memctl.mmin_bytes = 1000;
	ck_assert_int_eq(ovc_params_validate(&p, err, sizeof(err)), OVC_OK);
	/* one alone is fine (the other follows by eq. 9); both: increasing */
	ovc_params_defaults(&p);
	ck_assert_int_eq(ovc_param_set(&p, "rsoca.mmin_bytes", "1000", err,
							 sizeof(err)),
			OVC_OK);
	ck_assert_int_eq(ovc_param_set(&p, "rsoca.mmax_bytes", "900", err,
							 sizeof(err)),
			OVC_ERANGE);
	ck_assert_ptr_nonnull(strstr(err, "rsoca.mmin_bytes"));
	ck_assert_int_eq(ovc_param_set(&p, "rsoca.mmax_bytes", "5000", err,
							 sizeof(err)),
			OVC_OK);
	ck_assert_int_eq(
			ovc_param_set(&p, "rsoca.reap_b", "3", err, sizeof(err)), OVC_OK);
	ck_assert_int_eq(
			ovc_param_set(&p, "rsoca.reap", "2", err, sizeof(err)), OVC_ERANGE);
}
END_TEST

START_TEST(test_assign_and_names)
{
	struct ovc_params p, before;
	char err[256];

	ovc_params_defaults(&p);
	ck_assert_int_eq(
			ovc_param_assign(&p, "  occ.target =  0.8 ", err, sizeof(err)),
			OVC_OK);
	ck_assert(p.occ.target == 0.8);
	ck_assert_int_eq(ovc_param_assign(&p, "occ.epoch_ms=250", err,
							 sizeof(err)),
			OVC_OK);
	ck_assert_uint_eq(p.occ.epoch_ms, 250);
	memcpy(&before, &p, sizeof(before)); /* padding too */
	ck_assert_int_eq(
			ovc_param_assign(&p, "occ.target", err, sizeof(err)), OVC_EINVAL);
	ck_assert_int_eq(ovc_param_assign(&p, "=0.5", err, sizeof(err)),
			OVC_EINVAL);
	ck_assert_int_eq(
			ovc_param_assign(&p, "nosuch.x=1", err, sizeof(err)), OVC_ENOENT);
	ck_assert_ptr_nonnull(strstr(err, "nosuch.x"));
	ck_assert_int_eq(ovc_param_assign(&p, "occ.target=", err, sizeof(err)),
			OVC_EINVAL);
	ck_assert_int_eq(ovc_param_set(&p, "OCC.TARGET", "0.5", err, sizeof(err)),
			OVC_ENOENT);
	ck_assert_int_eq(ovc_param_set(&p, NULL, "0.5", err, sizeof(err)),
			OVC_EINVAL);
	ck_assert_int_eq(ovc_param_set(&p, "occ.target", NULL, NULL, 0),
			OVC_EINVAL);
	ck_assert(memcmp(&p, &before, sizeof(p)) == 0);
	/* a tiny error buffer is not overrun */
	ck_assert_int_eq(ovc_param_set(&p, "occ.target", "7", err, 5),
			OVC_ERANGE);
	ck_assert_uint_eq(strlen(err), 4);
}
END_TEST

Suite *make_suite_params(void)
{
	Suite *s = suite_create("params");
	TCase *tc = tcase_create("table");
	TCase *each = tcase_create("each");
	int n = (int)ovc_param_count();

	tcase_add_test(tc, test_table_consistent);
	tcase_add_test(tc, test_required_names);
	tcase_add_test(tc, test_defaults_fill);
	tcase_add_test(tc, test_defaults_match_controllers);
	tcase_add_test(tc, test_cross_checks);
	tcase_add_test(tc, test_cross_checks_memctl);
	tcase_add_test(tc, test_staged_order);
	tcase_add_test(tc, test_assign_and_names);
	suite_add_tcase(s, tc);
	tcase_add_loop_test(each, test_each_parses_default, 0, n);
	tcase_add_loop_test(each, test_each_refuses_out_of_range, 0, n);
	tcase_add_loop_test(each, test_each_refuses_malformed, 0, n);
	tcase_add_loop_test(each, test_each_tiny_by_range, 0, n);
	suite_add_tcase(s, each);
	return s;
}
