/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - the kernel stage's socket filter as the kernel runs
 * it: the program the module loads (kstage/ovc_kstage_bpf.c),
 * run on datagrams through BPF_PROG_TEST_RUN with the drop share at 1
 * (every initial INVITE not admitted is dropped), at 1/2 (a share of
 * calls) and at 0 (the first sight of each call noted). What it returns
 * is what the socket keeps of a datagram: everything else than an
 * initial INVITE must be kept whole, header and payload, however long.
 * Where the kernel or the privileges refuse the program, the suite fails
 * if this host is known to support the stage (kstage_expected()), and is
 * otherwise skipped: its tests are not run and the runner's summary says
 * SKIPPED with the kernel's answer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "ovc/kstage_abi.h"
#include "ovc/kstage_scan.h"
#include "ovc/kstage_seen.h"
#include "ovc_kstage_bpf.h"

#include "suites.h"

#define UDP 8u /* the UDP header the program sees first */

static struct ovc_ksb k;

/* Loads the program and sets the share to 1; any refusal fails the test
 * (a host that refuses it runs none of them: make_suite_kstage_prog). */
static void load(void)
{
	int rc;

	ovc_ksb_init(&k);
	rc = ovc_ksb_load(&k, 1024);
	ck_assert_msg(rc == 0, "load: %s", k.err);
	ck_assert_int_eq(ovc_ksb_set_share(&k, OVC_KS_ONE), 0);
}

/* The bytes the filter keeps of a datagram carrying msg. */
static unsigned kept(const char *msg)
{
	uint32_t r = 0xffffffffu;
	int rc = ovc_ksb_test_run(&k, msg, strlen(msg), &r);

	ck_assert_msg(rc == 0, "test run (%zu bytes): %s", strlen(msg), k.err);
	return r;
}

static unsigned whole(const char *msg)
{
	return UDP + (unsigned)strlen(msg);
}

/* The key of the initial INVITE msg as the module computes it (the scan
 * run on the host), 0 when the scan does not judge it. */
static unsigned long long key_of(const char *msg)
{
	static struct ovc_ks_work w;
	size_t n = strlen(msg);

	if(n > OVC_KS_SCAN)
		n = OVC_KS_SCAN;
	memcpy(w.b, msg, n);
	return ovc_ks_classify(&w, (unsigned)n) == OVC_KS_INVITE ? w.key : 0;
}

#define VIA "Via: SIP/2.0/UDP 127.0.0.1:5062;branch=z9hG4bK-1-1-0\r\n"
#define FROM "From: sipp <sip:sipp@127.0.0.1:5062>;tag=1SIPpTag001\r\n"
#define TO "To: ovc <sip:ovc@127.0.0.1:5060>"
#define TAG ";tag=2SIPpTag011"
#define CID "Call-ID: 1-100@127.0.0.1\r\n"
#define TAIL "Max-Forwards: 70\r\nContent-Length: 0\r\n\r\n"

static const char invite[] = "INVITE sip:ovc@127.0.0.1:5060 SIP/2.0\r\n" VIA
		FROM TO "\r\n" CID "CSeq: 1 INVITE\r\n" TAIL;

START_TEST(test_drops_initial_invite)
{
	struct ovc_ks_stats st;

	load();
	ck_assert_uint_eq(kept(invite), 0);
	ck_assert_int_eq(ovc_ksb_read(&k, &st), 0);
	ck_assert(st.invites == 1 && st.initial == 1 && st.dropped == 1);
	/* once admitted, its retransmissions pass whole */
	ck_assert(key_of(invite) != 0);
	ck_assert_int_eq(ovc_ksb_admit(&k, key_of(invite), 1), 0);
	ck_assert_uint_eq(kept(invite), whole(invite));
	ck_assert_int_eq(ovc_ksb_read(&k, &st), 0);
	ck_assert(st.spared == 1 && st.dropped == 1);
	ovc_ksb_close(&k);
}
END_TEST

/* The messages of a call after its INVITE, as the proxy receives them
 * from SIPp (scenarios/uac.xml, uas.xml), all with the share at 1. */
START_TEST(test_dialog_passes_whole)
{
	static const char *msgs[] = {
			"SIP/2.0 100 Trying\r\n" VIA FROM TO "\r\n" CID
			"CSeq: 1 INVITE\r\n" TAIL,
			"SIP/2.0 200 OK\r\n" VIA FROM TO TAG "\r\n" CID
			"CSeq: 1 INVITE\r\n"
			"Record-Route: <sip:127.0.0.1:5060;lr>\r\n" TAIL,
			"ACK sip:127.0.0.1:5061 SIP/2.0\r\n" VIA
			"Route: <sip:127.0.0.1:5060;lr>\r\n" FROM TO TAG "\r\n" CID
			"CSeq: 1 ACK\r\n" TAIL,
			"BYE sip:127.0.0.1:5061 SIP/2.0\r\n" VIA
			"Route: <sip:127.0.0.1:5060;lr>\r\n" FROM TO TAG "\r\n" CID
			"CSeq: 2 BYE\r\n" TAIL,
			"SIP/2.0 200 OK\r\n" VIA FROM TO TAG "\r\n" CID
			"CSeq: 2 BYE\r\n" TAIL,
			/* a re-INVITE: in-dialog (To-tag) */
			"INVITE sip:127.0.0.1:5061 SIP/2.0\r\n" VIA FROM TO TAG "\r\n" CID
			"CSeq: 3 INVITE\r\n" TAIL,
			"SIP/2.0 503 Service Unavailable\r\n" VIA FROM TO TAG "\r\n" CID
			"CSeq: 1 INVITE\r\n" TAIL,
			"CANCEL sip:ovc@127.0.0.1:5060 SIP/2.0\r\n" VIA FROM TO "\r\n" CID
			"CSeq: 1 CANCEL\r\n" TAIL,
			"\r\n\r\n", /* a keep-alive */
	};
	struct ovc_ks_stats st;
	unsigned i;

	load();
	for(i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++)
		ck_assert_msg(kept(msgs[i]) == whole(msgs[i]), "%s: kept %u of %u",
				msgs[i], kept(msgs[i]), whole(msgs[i]));
	ck_assert_int_eq(ovc_ksb_read(&k, &st), 0);
	ck_assert(st.dropped == 0 && st.initial == 0);
	ovc_ksb_close(&k);
}
END_TEST

/* Longer than the bytes scanned: kept whole, never cut to the scan. */
START_TEST(test_long_datagrams_whole)
{
	static char bye[3000], inv[3000];
	char body[2048];
	struct ovc_ks_stats st;

	load();
	memset(body, 'x', sizeof(body) - 1);
	body[sizeof(body) - 1] = '\0';
	snprintf(bye, sizeof(bye),
			"BYE sip:127.0.0.1:5061 SIP/2.0\r\n" VIA FROM TO TAG "\r\n" CID
			"CSeq: 2 BYE\r\nContent-Length: %zu\r\n\r\n%s",
			strlen(body), body);
	ck_assert_uint_eq(kept(bye), whole(bye));
	/* an INVITE whose To and Call-ID lie past the scanned bytes: unsure */
	snprintf(inv, sizeof(inv),
			"INVITE sip:ovc@127.0.0.1:5060 SIP/2.0\r\nX-Pad: %.*s\r\n" TO
			"\r\n" CID "\r\n",
			(int)OVC_KS_SCAN, body);
	ck_assert_uint_eq(kept(inv), whole(inv));
	ck_assert_int_eq(ovc_ksb_read(&k, &st), 0);
	ck_assert(st.invites == 1 && st.unsure == 1 && st.dropped == 0);
	ovc_ksb_close(&k);
}
END_TEST

/* At a share of 1/2 the loaded program drops the calls
 * ovc_ks_call_dropped() names and no other, every transmission of a call
 * alike: a retransmission never turns a dropped call into a passed one or
 * the reverse. */
START_TEST(test_share_of_calls)
{
	char msg[1024], cid[64];
	struct ovc_ks_stats st;
	unsigned i, t, dropped = 0;
	int drop;

	load();
	ck_assert_int_eq(ovc_ksb_set_share(&k, OVC_KS_ONE / 2), 0);
	for(i = 0; i < 200; i++) {
		snprintf(cid, sizeof(cid), "%u-77@127.0.0.1", i + 1);
		snprintf(msg, sizeof(msg),
				"INVITE sip:ovc@127.0.0.1:5060 SIP/2.0\r\n" VIA FROM TO
				"\r\nCall-ID: %s\r\nCSeq: 1 INVITE\r\n" TAIL,
				cid);
		drop = ovc_ks_call_dropped(key_of(msg), OVC_KS_ONE / 2);
		for(t = 0; t < 3; t++) /* the INVITE and two retransmissions */
			ck_assert_msg(kept(msg) == (drop ? 0 : whole(msg)),
					"%s, transmission %u: kept %u", cid, t, kept(msg));
		dropped += (unsigned)drop;
	}
	ck_assert_msg(dropped > 70 && dropped < 130, "%u of 200", dropped);
	ck_assert_int_eq(ovc_ksb_read(&k, &st), 0);
	/* kept() in the failure message does not run unless one fails */
	ck_assert_uint_eq(st.dropped, 3ULL * dropped);
	ck_assert_uint_eq(st.initial, 600);
	ovc_ksb_close(&k);
}
END_TEST

/* The INVITE in any case, after blank lines, is dropped as Kamailio
 * would take it for an INVITE; the method followed by HT (Kamailio
 * refuses the request line) is another method's datagram, kept whole. */
START_TEST(test_method_case_dropped)
{
	static const char *const msgs[] = {
			"invite sip:ovc@127.0.0.1:5060 SIP/2.0\r\n" VIA FROM TO "\r\n" CID
			"CSeq: 1 INVITE\r\n" TAIL,
			"Invite sip:ovc@127.0.0.1:5060 SIP/2.0\r\n" VIA FROM TO "\r\n" CID
			"CSeq: 1 INVITE\r\n" TAIL,
			"INVITe sip:ovc@127.0.0.1:5060 SIP/2.0\r\n" VIA FROM TO "\r\n" CID
			"CSeq: 1 INVITE\r\n" TAIL,
			"\r\n\r\nINVITE sip:ovc@127.0.0.1:5060 SIP/2.0\r\n" VIA FROM TO
			"\r\n" CID "CSeq: 1 INVITE\r\n" TAIL,
	};
	static const char tab[] = "INVITE\tsip:ovc@127.0.0.1:5060 SIP/2.0\r\n" VIA
			FROM TO "\r\n" CID "CSeq: 1 INVITE\r\n" TAIL;
	struct ovc_ks_stats st;
	unsigned i;

	load();
	for(i = 0; i < sizeof(msgs) / sizeof(msgs[0]); i++)
		ck_assert_msg(kept(msgs[i]) == 0, "%.8s: kept", msgs[i]);
	ck_assert_uint_eq(kept(tab), whole(tab));
	ck_assert_int_eq(ovc_ksb_read(&k, &st), 0);
	ck_assert_uint_eq(st.invites, 4);
	ck_assert_uint_eq(st.dropped, 4);
	ovc_ksb_close(&k);
}
END_TEST

/* An admitted INVITE's retransmissions pass; INVITEs that reuse its
 * Call-ID with a new branch are new requests, dropped at share 1. */
START_TEST(test_replay_new_branch)
{
	static const char replay[] = "INVITE sip:other@127.0.0.1:5060 SIP/2.0\r\n"
								 "Via: SIP/2.0/UDP 127.0.0.1:5062;branch="
								 "z9hG4bK-replay-1\r\n" FROM TO "\r\n" CID
								 "CSeq: 1 INVITE\r\n" TAIL;
	struct ovc_ks_stats st;

	load();
	ck_assert_int_eq(ovc_ksb_admit(&k, key_of(invite), 1), 0);
	ck_assert_uint_eq(kept(invite), whole(invite));
	ck_assert_uint_eq(kept(invite), whole(invite));
	ck_assert_uint_eq(kept(replay), 0);
	ck_assert_int_eq(ovc_ksb_read(&k, &st), 0);
	ck_assert(st.spared == 2 && st.dropped == 1);
	ovc_ksb_close(&k);
}
END_TEST

static unsigned now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned)((unsigned long long)ts.tv_sec * 1000u
					  + (unsigned long long)ts.tv_nsec / 1000000u);
}

/* Whatever the share (0 here), the filter notes the first sight of each
 * initial INVITE's call in the seen table the module maps, on the
 * module's clock; a retransmission keeps it, a call marked admitted is
 * never late, and nothing else is noted. */
START_TEST(test_first_sight_noted)
{
	unsigned long long key = key_of(invite);
	volatile struct ovc_ks_seen_bucket *b;
	unsigned t0;
	long long age;

	load();
	ck_assert_int_eq(ovc_ksb_set_share(&k, 0), 0);
	ck_assert(k.seen != NULL);
	b = &k.seen[ovc_ks_seen_index(key)];
	ck_assert_int_eq(ovc_ksb_seen_age_ms(&k, key, now_ms()), -1);
	t0 = now_ms();
	ck_assert_uint_eq(kept(invite), whole(invite));
	age = ovc_ksb_seen_age_ms(&k, key, now_ms());
	ck_assert_msg(age >= 0 && age <= (long long)(now_ms() - t0) + 1,
			"age %lld", age);
	/* first seen 600 ms ago: a retransmission does not renew it */
	ck_assert_int_eq(ovc_ks_seen_find(b, key), 0);
	b->s[0] = ovc_ks_seen_tag(key) | (unsigned)(now_ms() - 600u);
	ck_assert_uint_eq(kept(invite), whole(invite));
	age = ovc_ksb_seen_age_ms(&k, key, now_ms());
	ck_assert_msg(age >= 600 && age < 5000, "age %lld", age);
	/* admitted: unknown to the late check, and kept so */
	ovc_ksb_seen_admit(&k, key, now_ms());
	ck_assert_uint_eq(kept(invite), whole(invite));
	ck_assert_int_eq(ovc_ksb_seen_age_ms(&k, key, now_ms()), -1);
	/* the responses and in-dialog requests of a call note nothing */
	b->s[0] = 0;
	ck_assert_uint_eq(kept("SIP/2.0 200 OK\r\n" VIA FROM TO TAG "\r\n" CID
							  "CSeq: 1 INVITE\r\n" TAIL),
			whole("SIP/2.0 200 OK\r\n" VIA FROM TO TAG "\r\n" CID
				  "CSeq: 1 INVITE\r\n" TAIL));
	ck_assert(b->s[0] == 0 && b->s[1] == 0);
	ovc_ksb_close(&k);
	ck_assert(k.seen == NULL);
}
END_TEST

/* The seen table is keyed as the admitted map: an INVITE that reuses a
 * call's Call-ID with a new branch has a first sight of its own (it
 * neither inherits the call's, nor makes it look older), and the call
 * admitted does not mark it admitted. */
START_TEST(test_seen_per_transaction)
{
	static const char replay[] = "INVITE sip:ovc@127.0.0.1:5060 SIP/2.0\r\n"
								 "Via: SIP/2.0/UDP 127.0.0.1:5062;branch="
								 "z9hG4bK-replay-2\r\n" FROM TO "\r\n" CID
								 "CSeq: 1 INVITE\r\n" TAIL;
	unsigned long long key = key_of(invite), rkey = key_of(replay);
	volatile struct ovc_ks_seen_bucket *b;
	long long age;

	load();
	ck_assert(key != 0 && rkey != 0 && key != rkey);
	ck_assert_int_eq(ovc_ksb_set_share(&k, 0), 0);
	/* the call first seen 600 ms ago */
	b = &k.seen[ovc_ks_seen_index(key)];
	b->s[0] = ovc_ks_seen_tag(key) | (unsigned)(now_ms() - 600u);
	b->s[1] = 0;
	ck_assert_uint_eq(kept(replay), whole(replay));
	age = ovc_ksb_seen_age_ms(&k, rkey, now_ms());
	ck_assert_msg(age >= 0 && age < 100, "replay's age %lld", age);
	age = ovc_ksb_seen_age_ms(&k, key, now_ms());
	ck_assert_msg(age >= 600 && age < 5000, "call's age %lld", age);
	/* the call admitted: its retransmissions are never late, the
	 * replay's still are */
	ovc_ksb_seen_admit(&k, key, now_ms());
	ck_assert_int_eq(ovc_ksb_seen_age_ms(&k, key, now_ms()), -1);
	ck_assert(ovc_ksb_seen_age_ms(&k, rkey, now_ms()) >= 0);
	ovc_ksb_close(&k);
}
END_TEST

/* Whether this host is known to run the stage, so that a refusal is a
 * failure and not a skip: OVC_KSTAGE_EXPECT=1 or 0 says so (CI sets it);
 * without it, yes when the kernel is 5.3 or later (bounded loops), has the
 * bpf() system call (CONFIG_BPF_SYSCALL: its sysctl
 * kernel.unprivileged_bpf_disabled exists) and this process has CAP_BPF
 * or CAP_SYS_ADMIN (root outside a container that drops them). The same
 * rule as tests/integration/lib.sh's kstage_expected. */
static int kstage_expected(void)
{
	const char *e = getenv("OVC_KSTAGE_EXPECT");
	struct utsname u;
	unsigned maj = 0, min = 0;
	unsigned long long eff = 0;
	char line[256];
	FILE *f;

	if(e != NULL && *e != '\0')
		return strcmp(e, "0") != 0;
	if(uname(&u) != 0 || sscanf(u.release, "%u.%u", &maj, &min) != 2
			|| maj < 5 || (maj == 5 && min < 3))
		return 0;
	if(access("/proc/sys/kernel/unprivileged_bpf_disabled", F_OK) != 0)
		return 0;
	f = fopen("/proc/self/status", "r");
	if(f == NULL)
		return 0;
	while(fgets(line, sizeof(line), f) != NULL)
		if(sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(f);
	return (eff >> 39 & 1) || (eff >> 21 & 1);
}

static char skip_why[512];

const char *kstage_prog_skipped(void)
{
	return skip_why[0] != '\0' ? skip_why : NULL;
}

Suite *make_suite_kstage_prog(void)
{
	Suite *s = suite_create("kstage_prog");
	TCase *tc;
	int rc;

	/* the kernel asked once, here: a refusal where the stage is not
	 * known to run skips the suite, anywhere else its tests fail */
	ovc_ksb_init(&k);
	rc = ovc_ksb_load(&k, 1024);
	ovc_ksb_close(&k);
	if(rc != 0 && !kstage_expected()) {
		snprintf(skip_why, sizeof(skip_why),
				"kstage_prog (8 tests): the kernel refuses the program"
				" (%s) and this host is not known to run it"
				" (OVC_KSTAGE_EXPECT=1 makes it a failure)",
				k.err);
		return s;
	}
	tc = tcase_create("core");
	tcase_add_test(tc, test_drops_initial_invite);
	tcase_add_test(tc, test_dialog_passes_whole);
	tcase_add_test(tc, test_long_datagrams_whole);
	tcase_add_test(tc, test_share_of_calls);
	tcase_add_test(tc, test_first_sight_noted);
	tcase_add_test(tc, test_method_case_dropped);
	tcase_add_test(tc, test_replay_new_branch);
	tcase_add_test(tc, test_seen_per_transaction);
	suite_add_tcase(s, tc);
	return s;
}
