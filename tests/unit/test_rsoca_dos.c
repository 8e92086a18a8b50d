/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/rsoca_dos.c: the DoS plan of eq. 3-6 on synthetic
 * counts (004's own numbers), the deterministic per-type acceptance it
 * drives, the burst budget (also shared by processes) and method mapping.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovc/acceptor.h"
#include "ovc/rsoca_dos.h"
#include "suites.h"

START_TEST(test_plan_paper_bye_flood)
{
	/* 004 §IV-c: E_I 1000/s, B_en 1.7 -> 1700 BYEs expected; p_pass 0.1,
	 * n 10 -> at most 79.4 % dropped; 12000 attack + 1000 legit BYEs */
	struct ovc_rsoca_params p;
	struct ovc_dos_plan pl;
	double d[OVC_DLG_COUNT] = {13000.0, 0.0, 0.0, 0.0, 0.0, 0.0};

	ovc_rsoca_defaults(&p);
	ck_assert_int_eq(ovc_rsoca_dos_plan(&p, d, 900.0, 1.0, &pl), OVC_OK);
	ck_assert_double_eq_tol(pl.i_used, 1000.0, 1e-9);
	ck_assert_double_eq_tol(pl.d_en[OVC_DLG_BYE], 1700.0, 1e-9);
	ck_assert_double_eq_tol(pl.cap, pow(0.1, 0.1), 1e-9);
	ck_assert_double_eq_tol(pl.p_drop[OVC_DLG_BYE], pow(0.1, 0.1), 1e-9);
	ck_assert_double_eq_tol(pl.accept[OVC_DLG_BYE], 1 - pow(0.1, 0.1), 1e-9);
	ck_assert(pl.p_drop[OVC_DLG_INFO] == 0.0);
	ck_assert(pl.accept[OVC_DLG_REINVITE] == 1.0);
	/* below the cap: (D - D_en) / D exactly */
	d[OVC_DLG_BYE] = 3400.0;
	ck_assert_int_eq(ovc_rsoca_dos_plan(&p, d, 0.0, 1.0, &pl), OVC_OK);
	ck_assert_double_eq_tol(pl.p_drop[OVC_DLG_BYE], 0.5, 1e-12);
	/* I above E_I T raises D_en (eq. 5) */
	ck_assert_int_eq(ovc_rsoca_dos_plan(&p, d, 2000.0, 1.0, &pl), OVC_OK);
	ck_assert_double_eq_tol(pl.d_en[OVC_DLG_BYE], 3400.0, 1e-9);
	ck_assert(pl.p_drop[OVC_DLG_BYE] == 0.0);
	/* re-INVITE: x N_r (eq. 6) */
	p.nr = 2.0;
	d[OVC_DLG_REINVITE] = 6800.0;
	ck_assert_int_eq(ovc_rsoca_dos_plan(&p, d, 0.0, 1.0, &pl), OVC_OK);
	ck_assert_double_eq_tol(pl.d_en[OVC_DLG_REINVITE], 3400.0, 1e-9);
	ck_assert_double_eq_tol(pl.p_drop[OVC_DLG_REINVITE], 0.5, 1e-12);
	/* a half-second interval halves E_I T */
	ck_assert_int_eq(ovc_rsoca_dos_plan(&p, d, 0.0, 0.5, &pl), OVC_OK);
	ck_assert_double_eq_tol(pl.d_en[OVC_DLG_BYE], 850.0, 1e-9);
}
END_TEST

START_TEST(test_plan_refuses_bad_input)
{
	struct ovc_rsoca_params p;
	struct ovc_dos_plan pl, before;
	double d[OVC_DLG_COUNT] = {1, 2, 3, 4, 5, 6};

	ovc_rsoca_defaults(&p);
	ck_assert_int_eq(ovc_rsoca_dos_plan(&p, d, 0.0, 1.0, &pl), OVC_OK);
	memcpy(&before, &pl, sizeof(before)); /* padding too */
	d[3] = -1.0;
	ck_assert_int_eq(ovc_rsoca_dos_plan(&p, d, 0.0, 1.0, &pl), OVC_EINVAL);
	d[3] = NAN;
	ck_assert_int_eq(ovc_rsoca_dos_plan(&p, d, 0.0, 1.0, &pl), OVC_EINVAL);
	d[3] = 4;
	ck_assert_int_eq(ovc_rsoca_dos_plan(&p, d, -1.0, 1.0, &pl), OVC_EINVAL);
	ck_assert_int_eq(ovc_rsoca_dos_plan(&p, d, 0.0, 0.0, &pl), OVC_EINVAL);
	ck_assert_int_eq(ovc_rsoca_dos_plan(&p, d, INFINITY, 1, &pl), OVC_EINVAL);
	ck_assert_int_eq(ovc_rsoca_dos_plan(&p, NULL, 0, 1, &pl), OVC_EINVAL);
	ck_assert_mem_eq(&pl, &before, sizeof(pl));
}
END_TEST

START_TEST(test_plan_drives_acceptor)
{
	/* the flood of a second is dropped deterministically: of 13000
	 * arrivals floor(13000 (1 - cap)) (+-1) pass, legit ones among them in
	 * proportion, and no run of drops is longer than ceil(1/(1-cap)) */
	struct ovc_rsoca_params p;
	struct ovc_dos_plan pl;
	struct ovc_acceptor a;
	double d[OVC_DLG_COUNT] = {13000.0, 0, 0, 0, 0, 0};
	unsigned i, pass = 0, legit_pass = 0, run = 0, max_run = 0;

	ovc_rsoca_defaults(&p);
	ck_assert_int_eq(ovc_rsoca_dos_plan(&p, d, 1000.0, 1.0, &pl), OVC_OK);
	ovc_acceptor_init(&a, pl.accept[OVC_DLG_BYE]);
	for(i = 0; i < 13000; i++) {
		if(ovc_acceptor_take(&a)) {
			pass++;
			legit_pass += i % 13 == 0; /* 1000 legit among 13000 */
			run = 0;
		} else if(++run > max_run) {
			max_run = run;
		}
	}
	ck_assert(fabs(pass - 13000.0 * pl.accept[OVC_DLG_BYE]) <= 1.0);
	ck_assert_uint_le(max_run, (unsigned)ceil(1.0 / pl.accept[0]));
	ck_assert(legit_pass >= 150 && legit_pass <= 260);
}
END_TEST

START_TEST(test_dlg_of_method)
{
	ck_assert_int_eq(ovc_dlg_of_method(OVC_M_BYE), OVC_DLG_BYE);
	ck_assert_int_eq(ovc_dlg_of_method(OVC_M_INVITE), OVC_DLG_REINVITE);
	ck_assert_int_eq(ovc_dlg_of_method(OVC_M_UPDATE), OVC_DLG_UPDATE);
	ck_assert_int_eq(ovc_dlg_of_method(OVC_M_PRACK), OVC_DLG_PRACK);
	ck_assert_int_eq(ovc_dlg_of_method(OVC_M_INFO), OVC_DLG_INFO);
	ck_assert_int_eq(ovc_dlg_of_method(OVC_M_NOTIFY), OVC_DLG_OTHER);
	ck_assert_int_eq(ovc_dlg_of_method(OVC_M_OTHER), OVC_DLG_OTHER);
	ck_assert_int_eq(ovc_dlg_of_method(OVC_M_ACK), OVC_DLG_COUNT);
	ck_assert_int_eq(ovc_dlg_of_method(OVC_M_CANCEL), OVC_DLG_COUNT);
	ck_assert_str_eq(ovc_dlg_name(OVC_DLG_INFO), "info");
}
END_TEST

START_TEST(test_burst_budget)
{
	/* E_I 60/s, B_en 1.7, T 1 s: floor(102) taken, the rest refused */
	struct ovc_rsoca_params p;
	struct ovc_burst b;
	unsigned i, ok = 0;

	ovc_rsoca_defaults(&p);
	p.ei = 60.0;
	ovc_burst_reset(&b, ovc_rsoca_burst_limit(&p, OVC_CLASS_INVITE, 1.0));
	for(i = 0; i < 300; i++)
		ok += ovc_burst_take(&b);
	ck_assert_uint_eq(ok, 102);
	/* a new interval gives a new budget */
	ovc_burst_reset(&b, ovc_rsoca_burst_limit(&p, OVC_CLASS_INVITE, 1.0));
	ck_assert_int_eq(ovc_burst_take(&b), 1);
	/* no engineered rate: no limit */
	ovc_burst_reset(&b, ovc_rsoca_burst_limit(&p, OVC_CLASS_OTHER, 1.0));
	for(i = 0, ok = 0; i < 100000; i++)
		ok += ovc_burst_take(&b);
	ck_assert_uint_eq(ok, 100000);
	ovc_burst_reset(&b, NAN);
	ck_assert_int_eq(ovc_burst_take(&b), 1);
	ovc_burst_reset(&b, 0.0);
	ck_assert_int_eq(ovc_burst_take(&b), 0);
}
END_TEST

START_TEST(test_burst_shared_by_processes)
{
	/* 4 processes take 5000 each from one budget of 7000 in shared
	 * memory: exactly 7000 are within it */
	struct ovc_burst *b;
	_Atomic unsigned *ok;
	int k, st;
	pid_t pid[4];

	b = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			-1, 0);
	ck_assert(b != MAP_FAILED);
	ok = (_Atomic unsigned *)(b + 1);
	atomic_init(ok, 0);
	ovc_burst_reset(b, 7000.0);
	for(k = 0; k < 4; k++) {
		pid[k] = fork();
		if(pid[k] == 0) {
			unsigned i, n = 0;

			for(i = 0; i < 5000; i++)
				n += ovc_burst_take(b);
			atomic_fetch_add(ok, n);
			_exit(0);
		}
	}
	for(k = 0; k < 4; k++)
		waitpid(pid[k], &st, 0);
	ck_assert_uint_eq(atomic_load(ok), 7000);
	ck_assert_uint_eq(atomic_load(&b->count), 20000);
	munmap(b, 4096);
}
END_TEST

START_TEST(test_engineered_txn)
{
	/* 004 §IV-D: E_I 1000/s, T_I 10 s -> 10000 transactions; x S 8.5 kB =
	 * 85 MB, eq. 8 */
	struct ovc_rsoca_params p;
	struct ovc_memctl_params m;

	ovc_rsoca_defaults(&p);
	ovc_memctl_defaults(&m);
	ck_assert_double_eq_tol(ovc_rsoca_engineered_txn(&p, &m), 10000.0, 1e-9);
	p.ed = 100.0;
	p.eo = 50.0;
	p.er = 10.0;
	ck_assert_double_eq_tol(ovc_rsoca_engineered_txn(&p, &m),
			10000.0 + 150.0 * 1.0 + 10.0 * 4.0, 1e-9);
}
END_TEST

Suite *make_suite_rsoca_dos(void)
{
	Suite *s = suite_create("rsoca_dos");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_plan_paper_bye_flood);
	tcase_add_test(tc, test_plan_refuses_bad_input);
	tcase_add_test(tc, test_plan_drives_acceptor);
	tcase_add_test(tc, test_dlg_of_method);
	tcase_add_test(tc, test_burst_budget);
	tcase_add_test(tc, test_burst_shared_by_processes);
	tcase_add_test(tc, test_engineered_txn);
	suite_add_tcase(s, tc);
	return s;
}
