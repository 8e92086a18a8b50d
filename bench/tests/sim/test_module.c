/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim tests - the module's model (sim_cfg_defaults(): the admission
 * sequence at the read, the gate, the age limit, the guard, the kernel
 * stage) against the testbed:
 * - a headline sweep's shape (REF_SWEEP: the sweep of 2026-11-28 15:55
 *   the model was matched to, or $OVC_SIM_HEADLINE, e.g. the README's
 *   bench/results/headline/headline.csv): the sweeps since (21:51, 23:00)
 *   set up 1.04 and 1.13 of their rho_M at 4x, above the capacity their
 *   calibration found, where the model stays at 0.78-0.85 (its refusals
 *   cost beta_ovc, the testbed's little at 4x): bench/journal/2026-11-28.md,
 *   "The headline measured again"; every row's arm at its offered load, on its
 *   capacity, beta and CPU quota, with the timely goodput (setup < 500
 *   ms) within
 *   the tolerances below;
 * - the gate: below capacity nothing is refused, no overload evident,
 *   with or without a CPU quota;
 * - the kernel stage: at 16x it drops most calls and keeps more goodput
 *   than 503s alone; at 2x the 503 budget suffices and it drops none.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "suites.h"

/* The testbed sweep the module's model is held to (see the top). */
#define REF_SWEEP "bench/results/headline/earlier/2026-11-28T1555.csv"

/* Tolerances of the headline's shape, in rho_M. */
#define TOL_NEAR 0.15	 /* |sim - testbed median| of a controlled arm */
#define FLOOR_OVC 0.7	 /* a controlled arm keeps at least this, 2-16x */
#define CEIL_NONE 0.2	 /* no control keeps at most this, 2-16x */
#define MIN_SPREAD 0.5	 /* controlled minus none, sim, 2-16x */
#define MIN_CAPACITY 0.9 /* both at 1x */

static void module_cfg(
		struct sim_cfg *c, double capacity, double beta, double quota)
{
	sim_cfg_defaults(c);
	c->capacity = capacity;
	c->beta = beta;
	c->quota = quota;
	c->duration_s = 30;
	c->warmup_s = 10;
}

static double timely(double capacity, double beta, double quota,
		enum ovc_alg alg, double r, struct sim_result *res)
{
	struct sim_cfg c;

	module_cfg(&c, capacity, beta, quota);
	c.alg = alg;
	sim_profile_constant(&c.prof, r);
	ck_assert_int_eq(sim_run(&c, res), 0);
	return res->timely_g;
}

/* Index of column name in the header line h (commas), or -1. */
static int column(const char *h, const char *name)
{
	size_t n = strlen(name);
	int i = 0;

	for(;;) {
		if(!strncmp(h, name, n) && (h[n] == ',' || h[n] == '\n'
										   || h[n] == '\r' || !h[n]))
			return i;
		h = strchr(h, ',');
		if(!h)
			return -1;
		h++;
		i++;
	}
}

/* Field i of line l into buf (size sz). */
static void field(const char *l, int i, char *buf, size_t sz)
{
	size_t n;

	while(i-- > 0 && l)
		if((l = strchr(l, ',')))
			l++;
	ck_assert_ptr_nonnull(l);
	n = strcspn(l, ",\r\n");
	ck_assert(n < sz);
	memcpy(buf, l, n);
	buf[n] = '\0';
}

#define ROWS 64

struct row
{
	enum ovc_alg alg;
	double r, capacity, beta, quota, testbed, sim;
};

START_TEST(test_headline_shape)
{
	const char *path = getenv("OVC_SIM_HEADLINE");
	int c_arm, c_off, c_rho, c_beta, c_quota, c_timely, i, j, n = 0;
	struct row rows[ROWS];
	struct sim_result res;
	char line[1024], buf[64];
	FILE *f;

	if(!path)
		path = REF_SWEEP;
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot read %s", path);
	ck_assert(fgets(line, sizeof(line), f) != NULL);
	c_arm = column(line, "arm");
	c_off = column(line, "offered");
	c_rho = column(line, "rho_m");
	c_beta = column(line, "beta_ovc");
	c_timely = column(line, "timely_med");
	c_quota = column(line, "cpu_quota"); /* optional: none */
	ck_assert(c_arm >= 0 && c_off >= 0 && c_rho >= 0 && c_beta >= 0
			  && c_timely >= 0);
	while(n < ROWS && fgets(line, sizeof(line), f)) {
		field(line, c_arm, buf, sizeof(buf));
		ck_assert_msg(ovc_alg_from_name(buf, &rows[n].alg) == OVC_OK,
				"unknown arm %s", buf);
		field(line, c_off, buf, sizeof(buf));
		rows[n].r = atof(buf);
		field(line, c_rho, buf, sizeof(buf));
		rows[n].capacity = atof(buf);
		field(line, c_beta, buf, sizeof(buf));
		rows[n].beta = atof(buf);
		rows[n].quota = 0;
		if(c_quota >= 0) {
			field(line, c_quota, buf, sizeof(buf));
			rows[n].quota = atof(buf);
		}
		field(line, c_timely, buf, sizeof(buf));
		rows[n].testbed = atof(buf);
		rows[n].sim = timely(rows[n].capacity, rows[n].beta, rows[n].quota,
				rows[n].alg, rows[n].r, &res);
		n++;
	}
	fclose(f);
	ck_assert_msg(n >= 4, "%s: %d rows", path, n);
	for(i = 0; i < n; i++) {
		const struct row *w = &rows[i];
		const char *a = ovc_alg_name(w->alg);

		if(w->r <= 1) {
			ck_assert_msg(w->sim >= MIN_CAPACITY && w->testbed >= MIN_CAPACITY,
					"%s at %gx: sim %.3f testbed %.3f", a, w->r, w->sim,
					w->testbed);
			continue;
		}
		if(w->alg == OVC_ALG_NONE) {
			ck_assert_msg(w->sim <= CEIL_NONE,
					"none at %gx: sim %.3f (testbed %.3f): no collapse", w->r,
					w->sim, w->testbed);
			continue;
		}
		ck_assert_msg(w->sim >= FLOOR_OVC
							  && fabs(w->sim - w->testbed) <= TOL_NEAR,
				"%s at %gx: sim %.3f testbed %.3f (tolerance %.2f)", a, w->r,
				w->sim, w->testbed, TOL_NEAR);
		for(j = 0; j < n; j++)
			if(rows[j].alg == OVC_ALG_NONE && rows[j].r == w->r)
				ck_assert_msg(w->sim - rows[j].sim >= MIN_SPREAD,
						"%s at %gx: sim %.3f, none %.3f", a, w->r, w->sim,
						rows[j].sim);
	}
}
END_TEST

START_TEST(test_gate_below_capacity)
{
	static const enum ovc_alg algs[] = {
			OVC_ALG_OCC, OVC_ALG_PI, OVC_ALG_BBC, OVC_ALG_RSOCA};
	static const double quotas[] = {0, 0.2};
	struct sim_result res;
	size_t i, q;

	for(q = 0; q < 2; q++)
		for(i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
			timely(253, 38, quotas[q], algs[i], 0.9, &res);
			ck_assert_msg(res.reject_ratio == 0 && res.over_share == 0,
					"%s at 0.9x, quota %g: refused %.4f, overloaded %.2f of"
					" the time",
					ovc_alg_name(algs[i]), quotas[q], res.reject_ratio,
					res.over_share);
			ck_assert_msg(res.g > 0.85, "%s at 0.9x, quota %g: g %.3f",
					ovc_alg_name(algs[i]), quotas[q], res.g);
		}
}
END_TEST

START_TEST(test_kstage_split)
{
	struct sim_result on, off, low;
	struct sim_cfg c;

	module_cfg(&c, 253, 38, 0);
	c.alg = OVC_ALG_OCC;
	sim_profile_constant(&c.prof, 16);
	ck_assert_int_eq(sim_run(&c, &on), 0);
	c.kstage = 0;
	ck_assert_int_eq(sim_run(&c, &off), 0);
	ck_assert_msg(on.ks_drop_ratio > 0.5, "16x: dropped %.3f",
			on.ks_drop_ratio);
	ck_assert_msg(off.ks_drop_ratio == 0, "off: dropped %.3f",
			off.ks_drop_ratio);
	ck_assert_msg(on.g > off.g + 0.1, "16x: g %.3f with the stage, %.3f"
									  " without",
			on.g, off.g);
	c.kstage = 1;
	sim_profile_constant(&c.prof, 2);
	ck_assert_int_eq(sim_run(&c, &low), 0);
	ck_assert_msg(low.ks_drop_ratio == 0 && low.reject_ratio > 0.3,
			"2x: dropped %.3f, refused %.3f", low.ks_drop_ratio,
			low.reject_ratio);
}
END_TEST

Suite *make_suite_module(void)
{
	Suite *s = suite_create("module");
	TCase *tc = tcase_create("module");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_headline_shape);
	tcase_add_test(tc, test_gate_below_capacity);
	tcase_add_test(tc, test_kstage_split);
	suite_add_tcase(s, tc);
	return s;
}
