/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/alg_table.c and the descriptors src/alg_*.c: names,
 * traits, and that every descriptor is complete and behaves through the
 * dispatcher.
 */
#include <math.h>
#include <string.h>

#include "ovc/alg.h"
#include "ovc/pi.h"
#include "suites.h"

START_TEST(test_alg_names)
{
	const char *names[] = {
			"none", "bbc", "occ", "occupancy", "aro", "sired", "rsoca", "pi"};
	enum ovc_alg a;
	unsigned i;

	ck_assert_int_eq(OVC_ALG_COUNT, sizeof(names) / sizeof(names[0]));
	for(i = 0; i < OVC_ALG_COUNT; i++) {
		ck_assert_str_eq(ovc_alg_name((enum ovc_alg)i), names[i]);
		ck_assert_int_eq(ovc_alg_from_name(names[i], &a), OVC_OK);
		ck_assert_int_eq(a, i);
	}
	ck_assert_ptr_null(ovc_alg_name(OVC_ALG_COUNT));
	a = OVC_ALG_PI;
	ck_assert_int_eq(ovc_alg_from_name("OCC", &a), OVC_ENOENT);
	ck_assert_int_eq(ovc_alg_from_name("", &a), OVC_ENOENT);
	ck_assert_int_eq(ovc_alg_from_name("occ ", &a), OVC_ENOENT);
	ck_assert_int_eq(ovc_alg_from_name(NULL, &a), OVC_ENOENT);
	ck_assert_int_eq(a, OVC_ALG_PI);
}
END_TEST

START_TEST(test_alg_desc_complete)
{
	unsigned i;

	for(i = 0; i < OVC_ALG_COUNT; i++) {
		const struct ovc_alg_desc *d = ovc_alg_desc((enum ovc_alg)i);

		ck_assert_ptr_nonnull(d);
		ck_assert_ptr_nonnull(d->name);
		ck_assert_ptr_nonnull(d->init);
		ck_assert_ptr_nonnull(d->step);
		ck_assert_ptr_nonnull(d->epoch_ms);
		ck_assert_ptr_eq(ovc_alg_traits((enum ovc_alg)i), &d->traits);
	}
	ck_assert_ptr_null(ovc_alg_desc(OVC_ALG_COUNT));
	/* an unknown id has none's traits: it decides nothing */
	ck_assert_uint_eq(ovc_alg_traits(OVC_ALG_COUNT)->controlled, 0);
}
END_TEST

START_TEST(test_alg_traits)
{
	const unsigned inv = OVC_CLASS_BIT(OVC_CLASS_INVITE);
	unsigned i;

	/* the queue-based algorithms of 003 §V and 001 */
	ck_assert(ovc_alg_traits(OVC_ALG_BBC)->queued);
	ck_assert(ovc_alg_traits(OVC_ALG_SIRED)->queued);
	ck_assert(ovc_alg_traits(OVC_ALG_PI)->queued);
	/* arrival-side deciders */
	ck_assert(!ovc_alg_traits(OVC_ALG_NONE)->queued);
	ck_assert(!ovc_alg_traits(OVC_ALG_OCC)->queued);
	ck_assert(!ovc_alg_traits(OVC_ALG_OCCUPANCY)->queued);
	ck_assert(!ovc_alg_traits(OVC_ALG_ARO)->queued);
	ck_assert(!ovc_alg_traits(OVC_ALG_RSOCA)->queued);
	/* only pi paces the queue; only rsoca has its own reply, dialog
	 * limits and tracked transactions */
	for(i = 0; i < OVC_ALG_COUNT; i++) {
		const struct ovc_alg_traits *t = ovc_alg_traits((enum ovc_alg)i);

		ck_assert_int_eq(t->paces_queue, i == OVC_ALG_PI);
		ck_assert_int_eq(t->own_reply, i == OVC_ALG_RSOCA);
		ck_assert_int_eq(t->dialog_limits, i == OVC_ALG_RSOCA);
		ck_assert_int_eq(t->tracks_transactions, i == OVC_ALG_RSOCA);
		/* in-dialog requests are never controlled */
		ck_assert(!(t->controlled & OVC_CLASS_BIT(OVC_CLASS_INDIALOG)));
		/* the guard caps the ones that see overload late */
		ck_assert_int_eq(t->guarded,
				i == OVC_ALG_OCC || i == OVC_ALG_OCCUPANCY || i == OVC_ALG_ARO
						|| i == OVC_ALG_RSOCA || i == OVC_ALG_PI);
	}
	ck_assert_uint_eq(ovc_alg_traits(OVC_ALG_NONE)->controlled, 0);
	ck_assert_uint_eq(ovc_alg_traits(OVC_ALG_OCC)->controlled, inv);
	ck_assert_uint_eq(ovc_alg_traits(OVC_ALG_PI)->controlled, inv);
	ck_assert_uint_eq(ovc_alg_traits(OVC_ALG_RSOCA)->controlled,
			inv | OVC_CLASS_BIT(OVC_CLASS_REGISTER)
					| OVC_CLASS_BIT(OVC_CLASS_OTHER));
}
END_TEST

/* Every descriptor through the dispatcher: a fresh controller admits
 * everything, release gives f = 1 back, reconfigure keeps it running. */
START_TEST(test_alg_dispatch_each)
{
	struct ovc_params p;
	struct ovc_ctl c;
	struct ovc_measure m;
	struct ovc_output o;
	unsigned i;
	int k;

	ovc_params_defaults(&p);
	memset(&m, 0, sizeof(m));
	m.dt_s = 1.0;
	m.cpu = 1.0; /* overloaded for the CPU-driven ones */
	m.mem = 0.0;
	m.queue_cap = 1000;
	m.queue_len = 1000; /* full for the queue-driven ones */
	m.offered[OVC_CLASS_INVITE] = 1000;
	m.admitted[OVC_CLASS_INVITE] = 1000;
	for(i = 0; i < OVC_ALG_COUNT; i++) {
		ck_assert_int_eq(ovc_ctl_init(&c, (enum ovc_alg)i, &p), OVC_OK);
		ck_assert_ptr_eq(ovc_ctl_traits(&c), ovc_alg_traits(i));
		ovc_ctl_last(&c, &o);
		ck_assert(o.f == 1.0);
		ck_assert_uint_gt(ovc_ctl_epoch_ms(&c), 0);
		for(k = 1; k <= 50; k++)
			ck_assert_int_eq(ovc_ctl_step(&c, &m,
									 (ovc_time_ns)k * OVC_NS_PER_S, &o),
					OVC_OK);
		ck_assert(isfinite(o.f) && o.f >= 0 && o.f <= 1);
		ck_assert_int_eq(ovc_ctl_reconfigure(&c, &p), OVC_OK);
		ovc_ctl_release(&c);
		ovc_ctl_last(&c, &o);
		if(ovc_alg_desc(i)->release != NULL)
			ck_assert(o.f == 1.0 && o.p_reject[OVC_CLASS_INVITE] == 0.0);
		/* only pi asks for a drain rate and keeps a queueing target */
		ck_assert_int_eq(ovc_ctl_queue_target_s(&c) > 0, i == OVC_ALG_PI);
		if(i != OVC_ALG_PI)
			ck_assert(ovc_ctl_drain_rate(&c, &o) == -1.0);
	}
}
END_TEST

/* The CPU target and the asked queueing target come from the algorithm
 * in force and its own parameters, never from another algorithm's. */
START_TEST(test_alg_targets)
{
	struct ovc_params p;
	struct ovc_ctl c;
	const char *param = "x";
	unsigned i;

	ovc_params_defaults(&p);
	p.occ.target = 0.8;
	p.occupancy.target = 0.85;
	p.aro.rho_target = 0.75;
	p.pi.c_target = 0.7;
	p.pi.tq = 0.2;
	ck_assert(ovc_alg_cpu_target(OVC_ALG_OCC, &p) == 0.8);
	ck_assert(ovc_alg_cpu_target(OVC_ALG_OCCUPANCY, &p) == 0.85);
	ck_assert(ovc_alg_cpu_target(OVC_ALG_ARO, &p) == 0.75);
	ck_assert(ovc_alg_cpu_target(OVC_ALG_PI, &p) == 0.7);
	p.pi.c_target = -1; /* derived: a dedicated CPU's */
	ck_assert(ovc_alg_cpu_target(OVC_ALG_PI, &p) == OVC_PI_C_TARGET);
	/* the others steer no CPU occupancy */
	ck_assert(ovc_alg_cpu_target(OVC_ALG_NONE, &p) == 0.0);
	ck_assert(ovc_alg_cpu_target(OVC_ALG_BBC, &p) == 0.0);
	ck_assert(ovc_alg_cpu_target(OVC_ALG_SIRED, &p) == 0.0);
	ck_assert(ovc_alg_cpu_target(OVC_ALG_RSOCA, &p) == 0.0);
	ck_assert(ovc_alg_cpu_target(OVC_ALG_COUNT, &p) == 0.0);
	ck_assert(ovc_alg_cpu_target(OVC_ALG_OCC, NULL) == 0.0);
	for(i = 0; i < OVC_ALG_COUNT; i++) {
		ck_assert_int_eq(ovc_ctl_init(&c, (enum ovc_alg)i, &p), OVC_OK);
		if(i == OVC_ALG_PI) {
			ck_assert(ovc_ctl_queue_target_asked_s(&c, &param) == 0.2);
			ck_assert_str_eq(param, "pi.tq");
		} else {
			ck_assert(ovc_ctl_queue_target_asked_s(&c, &param) == 0.0);
			ck_assert_ptr_null(param);
		}
		ck_assert(ovc_ctl_queue_target_asked_s(&c, NULL)
				  == (i == OVC_ALG_PI ? 0.2 : 0.0));
	}
}
END_TEST

Suite *make_suite_alg(void)
{
	Suite *s = suite_create("alg");
	TCase *tc = tcase_create("descriptors");

	tcase_add_test(tc, test_alg_names);
	tcase_add_test(tc, test_alg_desc_complete);
	tcase_add_test(tc, test_alg_traits);
	tcase_add_test(tc, test_alg_dispatch_each);
	tcase_add_test(tc, test_alg_targets);
	suite_add_tcase(s, tc);
	return s;
}
