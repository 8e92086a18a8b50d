/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - the seen table's buckets (ovc/kstage_seen.h), as the
 * socket filter notes a call's first sight and the module reads and marks
 * it.
 */
#include <string.h>

#include "ovc/kstage_seen.h"

#include "suites.h"

#define KEY_A 0x0123456789abcdefULL
/* the same bucket as KEY_A, other tags */
#define KEY_B (KEY_A ^ (0x5ULL << 40))
#define KEY_C (KEY_A ^ (0x9ULL << 44))

static struct ovc_ks_seen_bucket b;

static void setup(void)
{
	memset(&b, 0, sizeof(b));
}

/* The first sight is kept across retransmissions; its age grows. */
START_TEST(test_first_sight_kept)
{
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_A, 1000), -1);
	ovc_ks_seen_note(&b, KEY_A, 1000);
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_A, 1000), 0);
	/* its retransmissions after T1, 2 T1: the first sight stays */
	ovc_ks_seen_note(&b, KEY_A, 1500);
	ovc_ks_seen_note(&b, KEY_A, 2500);
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_A, 2500), 1500);
	/* another call of the bucket: unknown */
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_B, 2500), -1);
	ck_assert_uint_eq(ovc_ks_seen_index(KEY_A), ovc_ks_seen_index(KEY_B));
	ck_assert_uint_eq(ovc_ks_seen_index(KEY_A), ovc_ks_seen_index(KEY_C));
	ck_assert(ovc_ks_seen_tag(KEY_A) != ovc_ks_seen_tag(KEY_B));
	ck_assert(ovc_ks_seen_tag(KEY_A) != ovc_ks_seen_tag(KEY_C));
}
END_TEST

/* Two calls share a bucket; a third pushes out the one first seen
 * longer ago, which is then unknown (never late). */
START_TEST(test_bucket_of_two)
{
	ovc_ks_seen_note(&b, KEY_A, 1000);
	ovc_ks_seen_note(&b, KEY_B, 1200);
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_A, 1300), 300);
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_B, 1300), 100);
	ovc_ks_seen_note(&b, KEY_C, 1300);
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_A, 1400), -1);
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_B, 1400), 200);
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_C, 1400), 100);
	/* A again: new, in the place of B (now the older) */
	ovc_ks_seen_note(&b, KEY_A, 1500);
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_A, 1500), 0);
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_B, 1500), -1);
}
END_TEST

/* Marked admitted: never late, its first sight kept (the filter does
 * not renew it); a call admitted without a slot takes one. */
START_TEST(test_admitted)
{
	ovc_ks_seen_note(&b, KEY_A, 1000);
	ovc_ks_seen_admit(&b, KEY_A, 1100);
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_A, 5000), -1);
	ovc_ks_seen_note(&b, KEY_A, 5000);
	ck_assert_int_eq(ovc_ks_seen_find(&b, KEY_A), 0);
	ck_assert_uint_eq((unsigned)b.s[0], 1000);
	ck_assert(b.s[0] & OVC_KS_SEEN_ADMITTED);
	ovc_ks_seen_admit(&b, KEY_B, 1100);
	ck_assert_int_eq(ovc_ks_seen_find(&b, KEY_B), 1);
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_B, 5000), -1);
	ovc_ks_seen_note(&b, KEY_B, 5000);
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_B, 5000), -1);
}
END_TEST

/* The millisecond wraps at 2^32: ages, and the older of two, stay right
 * across it. */
START_TEST(test_wrap)
{
	ovc_ks_seen_note(&b, KEY_A, 0xffffff00u);
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_A, 0x100u), 0x200);
	ovc_ks_seen_note(&b, KEY_B, 0x80u);
	ovc_ks_seen_note(&b, KEY_C, 0x100u);
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_A, 0x100u), -1);
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, KEY_B, 0x100u), 0x80);
	/* a tag is never 0, so an empty slot is no call's */
	ck_assert(ovc_ks_seen_tag(0) != 0);
	memset(&b, 0, sizeof(b));
	ck_assert_int_eq(ovc_ks_seen_age_ms(&b, 0, 0), -1);
}
END_TEST

Suite *make_suite_kstage_seen(void)
{
	Suite *s = suite_create("kstage_seen");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_first_sight_kept);
	tcase_add_test(tc, test_bucket_of_two);
	tcase_add_test(tc, test_admitted);
	tcase_add_test(tc, test_wrap);
	suite_add_tcase(s, tc);
	return s;
}
