/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - the seen table's slots (ovc/kstage_seen.h), as the
 * socket filter notes a call's first sight and the module reads and marks
 * it.
 */
#include "ovc/kstage_seen.h"

#include "suites.h"

#define KEY_A 0x0123456789abcdefULL
/* the same slot as KEY_A, another tag */
#define KEY_B (KEY_A ^ (0x5ULL << 40))

/* The first sight is kept across retransmissions; its age grows. */
START_TEST(test_first_sight_kept)
{
	unsigned long long e = 0, n;

	n = ovc_ks_seen_note(e, KEY_A, 1000);
	ck_assert(n != 0);
	e = n;
	ck_assert_int_eq(ovc_ks_seen_age_ms(e, KEY_A, 1000), 0);
	/* its retransmissions after T1, 2 T1: nothing to store */
	ck_assert(ovc_ks_seen_note(e, KEY_A, 1500) == 0);
	ck_assert(ovc_ks_seen_note(e, KEY_A, 2500) == 0);
	ck_assert_int_eq(ovc_ks_seen_age_ms(e, KEY_A, 2500), 1500);
	/* an empty slot, or another call's: unknown */
	ck_assert_int_eq(ovc_ks_seen_age_ms(0, KEY_A, 2500), -1);
	ck_assert_int_eq(ovc_ks_seen_age_ms(e, KEY_B, 2500), -1);
	ck_assert_uint_eq(ovc_ks_seen_slot(KEY_A), ovc_ks_seen_slot(KEY_B));
	ck_assert(ovc_ks_seen_tag(KEY_A) != ovc_ks_seen_tag(KEY_B));
}
END_TEST

/* A call that takes another's slot is new there; the displaced one is
 * then unknown (never late). */
START_TEST(test_slot_taken)
{
	unsigned long long e = ovc_ks_seen_note(0, KEY_A, 1000);

	e = ovc_ks_seen_note(e, KEY_B, 1200);
	ck_assert(e != 0);
	ck_assert_int_eq(ovc_ks_seen_age_ms(e, KEY_B, 1300), 100);
	ck_assert_int_eq(ovc_ks_seen_age_ms(e, KEY_A, 1300), -1);
}
END_TEST

/* Marked admitted: never late, the first sight kept under the mark (the
 * filter does not renew it); marked in another call's slot: taken. */
START_TEST(test_admitted)
{
	unsigned long long e = ovc_ks_seen_note(0, KEY_A, 1000), m;

	m = ovc_ks_seen_admit(e, KEY_A, 1100);
	ck_assert_int_eq(ovc_ks_seen_age_ms(m, KEY_A, 5000), -1);
	ck_assert(ovc_ks_seen_note(m, KEY_A, 5000) == 0);
	ck_assert_uint_eq((unsigned)m, 1000);
	m = ovc_ks_seen_admit(e, KEY_B, 1100);
	ck_assert_int_eq(ovc_ks_seen_age_ms(m, KEY_B, 5000), -1);
	ck_assert_int_eq(ovc_ks_seen_age_ms(m, KEY_A, 5000), -1);
	ck_assert(ovc_ks_seen_note(m, KEY_B, 5000) == 0);
	ck_assert(ovc_ks_seen_note(m, KEY_A, 5000) != 0);
}
END_TEST

/* The millisecond wraps at 2^32: ages stay right across it. */
START_TEST(test_wrap)
{
	unsigned long long e = ovc_ks_seen_note(0, KEY_A, 0xffffff00u);

	ck_assert_int_eq(ovc_ks_seen_age_ms(e, KEY_A, 0x100u), 0x200);
	/* a tag is never 0, so an empty slot is no call's */
	ck_assert(ovc_ks_seen_tag(0) != 0);
	ck_assert_int_eq(ovc_ks_seen_age_ms(0, 0, 0), -1);
}
END_TEST

Suite *make_suite_kstage_seen(void)
{
	Suite *s = suite_create("kstage_seen");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_first_sight_kept);
	tcase_add_test(tc, test_slot_taken);
	tcase_add_test(tc, test_admitted);
	tcase_add_test(tc, test_wrap);
	suite_add_tcase(s, tc);
	return s;
}
