/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/admission.c: the admission sequence on real
 * requests, with the acceptors, the decision memory and fake verdict
 * sources.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovc/admission.h"
#include "suites.h"

#define SECRET 4242

#define REQ_TAIL                                                           \
	"Via: SIP/2.0/UDP 192.0.2.10:5062;branch=z9hG4bK74bf9;rport\r\n"       \
	"From: \"Alice\" <sip:alice@atlanta.example.com>;tag=9fxced76sl\r\n"   \
	"Call-ID: 3848276298220188511@atlanta.example.com\r\n"

static const char invite[] =
		"INVITE sip:bob@biloxi.example.com SIP/2.0\r\n" REQ_TAIL
		"To: Bob <sip:bob@biloxi.example.com>\r\n"
		"CSeq: 1 INVITE\r\n"
		"\r\n";
static const char invite2[] =
		"INVITE sip:carol@biloxi.example.com SIP/2.0\r\n" REQ_TAIL
		"To: Carol <sip:carol@biloxi.example.com>\r\n"
		"CSeq: 2 INVITE\r\n"
		"\r\n";
static const char sos[] =
		"INVITE sip:sos@biloxi.example.com SIP/2.0\r\n" REQ_TAIL
		"To: <sip:sos@biloxi.example.com>\r\n"
		"CSeq: 1 INVITE\r\n"
		"\r\n";
static const char reg[] =
		"REGISTER sip:biloxi.example.com SIP/2.0\r\n" REQ_TAIL
		"To: Alice <sip:alice@atlanta.example.com>\r\n"
		"CSeq: 1 REGISTER\r\n"
		"\r\n";
static const char bye[] =
		"BYE sip:alice@192.0.2.10 SIP/2.0\r\n" REQ_TAIL
		"To: Bob <sip:bob@biloxi.example.com>;tag=314159\r\n"
		"CSeq: 2 BYE\r\n"
		"\r\n";
static const char cancel[] =
		"CANCEL sip:bob@biloxi.example.com SIP/2.0\r\n" REQ_TAIL
		"To: Bob <sip:bob@biloxi.example.com>\r\n"
		"CSeq: 1 CANCEL\r\n"
		"\r\n";
static const char cancel2[] = /* invite2's */
		"CANCEL sip:carol@biloxi.example.com SIP/2.0\r\n" REQ_TAIL
		"To: Carol <sip:carol@biloxi.example.com>\r\n"
		"CSeq: 2 CANCEL\r\n"
		"\r\n";

/* The world of one test. */
static struct ovc_rejmem *mem;
static struct ovc_acceptor acc, acc_arrival;
static struct ovc_emerg emerg;
static struct ovc_adm_state st;
static struct ovc_adm_cfg cfg;
static struct ovc_adm_sources src;

/* fake sources */
static int64_t fake_age = -1;
static int age_asked;
static int64_t fake_call_age = -1;
static int call_age_asked;
static enum ovc_adm_dialog fake_dialog = OVC_ADM_DIALOG_PASS;
static int fake_burst = 1;

static int64_t age_of(void *ctx)
{
	age_asked++;
	return fake_age;
}

static int64_t call_age_of(void *ctx)
{
	call_age_asked++;
	return fake_call_age;
}

static enum ovc_adm_dialog dialog_of(void *ctx, enum ovc_sip_method m, int dry)
{
	return fake_dialog;
}

static int burst_of(void *ctx, enum ovc_class c)
{
	return fake_burst;
}

static void setup(void)
{
	char err[128];

	mem = malloc(sizeof(*mem));
	ck_assert_ptr_nonnull(mem);
	ovc_rejmem_init(mem);
	ovc_acceptor_init(&acc, 1.0);
	ovc_acceptor_init(&acc_arrival, 1.0);
	ck_assert_int_eq(
			ovc_emerg_parse(&emerg, "sos", 0, err, sizeof(err)), OVC_OK);
	st.mem = mem;
	st.acc = &acc;
	st.acc_arrival = &acc_arrival;
	st.emerg = &emerg;
	st.secret = SECRET;
	memset(&cfg, 0, sizeof(cfg));
	cfg.t = ovc_alg_traits(OVC_ALG_OCC);
	cfg.now_s = 100;
	cfg.overloaded = 1;
	src.ctx = NULL;
	src.age_ns = age_of;
	src.call_age_ns = call_age_of;
	src.dialog = dialog_of;
	src.burst = burst_of;
	fake_age = -1;
	age_asked = 0;
	fake_call_age = -1;
	call_age_asked = 0;
	fake_dialog = OVC_ADM_DIALOG_PASS;
	fake_burst = 1;
}

static void teardown(void)
{
	free(mem);
}

/* Scans msg into r (its class as the module gives it). */
static void req(const char *msg, struct ovc_adm_req *r, struct ovc_sip_scan *sc)
{
	ck_assert_int_eq(ovc_sip_scan(msg, strlen(msg), sc), OVC_SCAN_OK);
	r->m = sc->method;
	if(sc->totag.len > 0)
		r->c = OVC_CLASS_INDIALOG;
	else if(sc->method == OVC_M_INVITE)
		r->c = OVC_CLASS_INVITE;
	else if(sc->method == OVC_M_REGISTER)
		r->c = OVC_CLASS_REGISTER;
	else
		r->c = OVC_CLASS_OTHER;
	r->buf = msg;
	r->len = strlen(msg);
	r->sc = sc;
	r->ruri = msg + sc->ruri.off;
	r->ruri_len = sc->ruri.len;
	r->src = 42; /* one source, unless a test says otherwise */
}

/* Decides msg; returns the act, fills *v. */
static enum ovc_adm_act decide(const char *msg, struct ovc_adm_verdict *v)
{
	struct ovc_sip_scan sc;
	struct ovc_adm_req r;

	req(msg, &r, &sc);
	ovc_adm_decide(&st, &cfg, &src, &r, v);
	return v->act;
}

START_TEST(test_none_admits_everything)
{
	struct ovc_adm_verdict v;

	cfg.t = ovc_alg_traits(OVC_ALG_NONE);
	ovc_acceptor_set(&acc, 0.0);
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, 0);
	ck_assert_uint_eq(v.key, 0); /* nothing remembered, nothing hashed */
	ck_assert_int_eq(decide(reg, &v), OVC_ADM_ADMIT);
	ck_assert_int_eq(age_asked, 0);
}
END_TEST

START_TEST(test_controlled_classes)
{
	struct ovc_adm_verdict v;

	ovc_acceptor_set(&acc, 0.0);
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_REJECT);
	ck_assert_int_eq(v.c, OVC_CLASS_INVITE);
	ck_assert_uint_ne(v.key, 0);
	/* multi: only initial INVITEs; never in-dialog, ACK or CANCEL */
	ck_assert_int_eq(decide(reg, &v), OVC_ADM_ADMIT);
	ck_assert_int_eq(decide(bye, &v), OVC_ADM_ADMIT);
	ck_assert_int_eq(decide(cancel, &v), OVC_ADM_ADMIT);
	/* single: every out-of-dialog request */
	cfg.single = 1;
	ck_assert_int_eq(decide(reg, &v), OVC_ADM_REJECT);
	ck_assert_int_eq(decide(bye, &v), OVC_ADM_ADMIT);
	ck_assert_int_eq(decide(cancel, &v), OVC_ADM_ADMIT);
	/* rsoca's classes in multi */
	cfg.single = 0;
	cfg.t = ovc_alg_traits(OVC_ALG_RSOCA);
	ck_assert_int_eq(decide(reg, &v), OVC_ADM_REJECT);
	ck_assert_int_eq(ovc_adm_controlled(cfg.t, 0, 1, OVC_CLASS_INVITE), 0);
}
END_TEST

START_TEST(test_fraction_is_exact)
{
	struct ovc_adm_verdict v;
	int i, admitted = 0;

	ovc_acceptor_set(&acc, 0.25);
	for(i = 0; i < 400; i++) {
		/* fresh memory: each a new request */
		ovc_rejmem_init(mem);
		admitted += decide(invite, &v) == OVC_ADM_ADMIT;
	}
	ck_assert_int_eq(admitted, 100);
}
END_TEST

START_TEST(test_dry_run_never_refuses)
{
	struct ovc_adm_verdict v;

	cfg.dry_run = 1;
	ovc_acceptor_set(&acc, 0.0);
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_WOULD);
	cfg.max_age_ms = 100;
	fake_age = 500 * OVC_NS_PER_MS;
	ck_assert_int_eq(decide(invite2, &v), OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_WOULD);
}
END_TEST

/* A retransmission gets its original's decision. */
START_TEST(test_retransmission_rejected)
{
	struct ovc_adm_verdict v;

	ovc_acceptor_set(&acc, 0.0);
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_REJECT);
	/* not replied (noreply): not remembered, decided afresh */
	ovc_acceptor_set(&acc, 1.0);
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_ADMIT);
	ovc_rejmem_init(mem);
	ovc_acceptor_set(&acc, 0.0);
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_REJECT);
	ovc_adm_replied(&st, &cfg, &v);
	/* the load has gone, but its retransmission is answered the same */
	ovc_acceptor_set(&acc, 1.0);
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_REJECT);
	/* another call is admitted */
	ck_assert_int_eq(decide(invite2, &v), OVC_ADM_ADMIT);
	/* once the memory expires, decided afresh */
	cfg.now_s += OVC_ADM_MEMORY_S + 1;
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_ADMIT);
}
END_TEST

START_TEST(test_retransmission_admitted)
{
	struct ovc_adm_verdict v;

	ck_assert_int_eq(decide(invite, &v), OVC_ADM_ADMIT);
	/* overload now: its retransmission is tm's to absorb, not a 503 */
	ovc_acceptor_set(&acc, 0.0);
	fake_age = 10 * OVC_NS_PER_S;
	cfg.max_age_ms = 100;
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, 0);
	ck_assert_int_eq(decide(invite2, &v), OVC_ADM_REJECT);
}
END_TEST

/* Decides msg as sent from source src; returns the act. */
static enum ovc_adm_act decide_from(
		const char *msg, uint64_t from, struct ovc_adm_verdict *v)
{
	struct ovc_sip_scan sc;
	struct ovc_adm_req r;

	req(msg, &r, &sc);
	r.src = from;
	ovc_adm_decide(&st, &cfg, &src, &r, v);
	return v->act;
}

/* invite's Call-ID, From tag and CSeq with another branch and Request-URI:
 * a new request that reuses an admitted one's identity */
static const char replay[] =
		"INVITE sip:mallory@biloxi.example.com SIP/2.0\r\n"
		"Via: SIP/2.0/UDP pc33.atlanta.example.com;branch=z9hG4bKreplay1\r\n"
		"Max-Forwards: 70\r\n"
		"From: \"Alice\" <sip:alice@atlanta.example.com>;tag=9fxced76sl\r\n"
		"Call-ID: 3848276298220188511@atlanta.example.com\r\n"
		"To: Bob <sip:bob@biloxi.example.com>\r\n"
		"CSeq: 1 INVITE\r\n"
		"\r\n";

/* Only the same transaction from the same source is a retransmission
 * (RFC 3261 17.2.3): a request that reuses an admitted INVITE's Call-ID,
 * From tag and CSeq with a new branch, or the same bytes from another
 * source, is decided as new; and a third party that sends a victim's
 * identity first cannot get the victim's INVITE refused. */
START_TEST(test_replay_is_new)
{
	struct ovc_adm_verdict v;

	ck_assert_int_eq(decide_from(invite, 42, &v), OVC_ADM_ADMIT);
	ovc_acceptor_set(&acc, 0.0);
	/* the genuine retransmission: its original's admission */
	ck_assert_int_eq(decide_from(invite, 42, &v), OVC_ADM_ADMIT);
	/* replays: new requests, refused at f = 0 */
	ck_assert_int_eq(decide_from(replay, 42, &v), OVC_ADM_REJECT);
	ck_assert_int_eq(decide_from(invite, 43, &v), OVC_ADM_REJECT);
	/* the converse: a forged copy refused and answered first */
	ovc_rejmem_init(mem);
	ck_assert_int_eq(decide_from(replay, 43, &v), OVC_ADM_REJECT);
	ovc_adm_replied(&st, &cfg, &v);
	ck_assert_int_eq(decide_from(invite, 43, &v), OVC_ADM_REJECT);
	ovc_adm_replied(&st, &cfg, &v);
	ovc_acceptor_set(&acc, 1.0);
	ck_assert_int_eq(decide_from(invite, 42, &v), OVC_ADM_ADMIT);
}
END_TEST

START_TEST(test_age)
{
	struct ovc_adm_verdict v;

	cfg.max_age_ms = 100;
	fake_age = 150 * OVC_NS_PER_MS;
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_AGED);
	ck_assert_int_eq(age_asked, 1);
	fake_age = 50 * OVC_NS_PER_MS;
	ck_assert_int_eq(decide(invite2, &v), OVC_ADM_ADMIT);
	/* unknown age: never too old */
	fake_age = -1;
	ovc_rejmem_init(mem);
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_ADMIT);
	/* asked for initial INVITEs only, even with nothing controlled */
	cfg.t = ovc_alg_traits(OVC_ALG_NONE);
	age_asked = 0;
	fake_age = 150 * OVC_NS_PER_MS;
	ck_assert_int_eq(decide(reg, &v), OVC_ADM_ADMIT);
	ck_assert_int_eq(decide(bye, &v), OVC_ADM_ADMIT);
	ck_assert_int_eq(age_asked, 0);
	ovc_rejmem_init(mem);
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_REJECT);
	ck_assert_int_eq(age_asked, 1);
	/* admitted by the age check under none: remembered admitted */
	fake_age = 0;
	ck_assert_int_eq(decide(invite2, &v), OVC_ADM_ADMIT);
	fake_age = 150 * OVC_NS_PER_MS;
	ck_assert_int_eq(decide(invite2, &v), OVC_ADM_ADMIT);
}
END_TEST

/* Without overload evidence a long wait is a burst the proxy absorbs: the
 * age check refuses nothing, whatever the algorithm. */
START_TEST(test_age_only_in_overload)
{
	struct ovc_adm_verdict v;

	cfg.overloaded = 0;
	cfg.max_age_ms = 100;
	fake_age = 450 * OVC_NS_PER_MS;
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, 0);
	/* the age is still read: it is the overload evidence */
	ck_assert_int_eq(age_asked, 1);
	cfg.overloaded = 1;
	ck_assert_int_eq(decide(invite2, &v), OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_AGED);
	/* pi too: below capacity its queue's pacing is the only limit */
	cfg.t = ovc_alg_traits(OVC_ALG_PI);
	cfg.overloaded = 0;
	ovc_rejmem_init(mem);
	ck_assert_int_ne(decide(invite, &v), OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags & OVC_ADMF_AGED, 0);
	/* an age limit set under none: read (the evidence) below capacity too */
	cfg.t = ovc_alg_traits(OVC_ALG_NONE);
	cfg.overloaded = 0;
	ovc_rejmem_init(mem);
	age_asked = 0;
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_ADMIT);
	ck_assert_int_eq(age_asked, 1);
	cfg.overloaded = 1;
	ck_assert_int_eq(decide(invite2, &v), OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_AGED);
}
END_TEST

/* A call first seen past max_age_ms ago (its first INVITE dropped
 * unseen, this one a retransmission) is refused under overload like an
 * INVITE that waited that long; asked only under overload, of an INVITE
 * not remembered and not too old already; below overload, admitted. */
START_TEST(test_late_call)
{
	struct ovc_adm_verdict v;

	cfg.max_age_ms = 100;
	fake_age = 10 * OVC_NS_PER_MS;
	fake_call_age = 510 * OVC_NS_PER_MS;
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_AGED | OVC_ADMF_LATE);
	ck_assert_int_eq(call_age_asked, 1);
	/* its next retransmission, once the 503 is sent: the memory answers,
	 * nothing asked */
	ovc_adm_replied(&st, &cfg, &v);
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_REJECT);
	ck_assert_int_eq(call_age_asked, 1);
	/* a fresh call, or one the stage does not know: admitted */
	fake_call_age = 20 * OVC_NS_PER_MS;
	ck_assert_int_eq(decide(invite2, &v), OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, 0);
	ovc_rejmem_init(mem);
	fake_call_age = -1;
	ck_assert_int_eq(decide(invite2, &v), OVC_ADM_ADMIT);
	/* too old by its own wait: AGED alone, the call's age not asked */
	ovc_rejmem_init(mem);
	call_age_asked = 0;
	fake_age = 150 * OVC_NS_PER_MS;
	fake_call_age = 600 * OVC_NS_PER_MS;
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_AGED);
	ck_assert_int_eq(call_age_asked, 0);
	/* below overload: admitted, not asked */
	ovc_rejmem_init(mem);
	cfg.overloaded = 0;
	fake_age = 10 * OVC_NS_PER_MS;
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_ADMIT);
	ck_assert_int_eq(call_age_asked, 0);
	/* no age limit in force: never late */
	ovc_rejmem_init(mem);
	cfg.overloaded = 1;
	cfg.max_age_ms = 0;
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_ADMIT);
	ck_assert_int_eq(call_age_asked, 0);
	/* a dry run: admitted, marked */
	ovc_rejmem_init(mem);
	cfg.max_age_ms = 100;
	cfg.dry_run = 1;
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_WOULD);
	/* an emergency call runs, late or not */
	cfg.dry_run = 0;
	ck_assert_int_eq(decide(sos, &v), OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags & OVC_ADMF_EMERGENCY, OVC_ADMF_EMERGENCY);
}
END_TEST

START_TEST(test_emergency_pass)
{
	struct ovc_adm_verdict v;

	ovc_acceptor_set(&acc, 0.0);
	ck_assert_int_eq(decide(sos, &v), OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_EMERGENCY);
	/* remembered admitted: its retransmission is not refused */
	ck_assert_int_eq(decide(sos, &v), OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, 0);
	/* aged emergency calls pass too */
	ovc_rejmem_init(mem);
	cfg.max_age_ms = 100;
	fake_age = 150 * OVC_NS_PER_MS;
	ck_assert_int_eq(decide(sos, &v), OVC_ADM_ADMIT);
	ck_assert(v.flags & OVC_ADMF_EMERGENCY);
	/* without emergency patterns it is an INVITE like any other */
	st.emerg = NULL;
	ovc_rejmem_init(mem);
	ck_assert_int_eq(decide(sos, &v), OVC_ADM_REJECT);
}
END_TEST

START_TEST(test_own_ack_absorbed)
{
	struct ovc_adm_verdict v;
	struct ovc_sip_scan sc;
	char tag[OVC_TOTAG_LEN + 1], ack[1024];

	ck_assert_int_eq(ovc_sip_scan(invite, strlen(invite), &sc), OVC_SCAN_OK);
	ovc_sip_totag(SECRET, invite, &sc, tag);
	tag[OVC_TOTAG_LEN] = '\0';
	snprintf(ack, sizeof(ack),
			"ACK sip:bob@biloxi.example.com SIP/2.0\r\n" REQ_TAIL
			"To: Bob <sip:bob@biloxi.example.com>;tag=%s\r\n"
			"CSeq: 1 ACK\r\n"
			"\r\n",
			tag);
	cfg.t = ovc_alg_traits(OVC_ALG_NONE); /* whatever the algorithm */
	ck_assert_int_eq(decide(ack, &v), OVC_ADM_DROP);
	ck_assert_uint_eq(v.flags, OVC_ADMF_OWN_ACK);
	ck_assert_int_eq(v.c, OVC_CLASS_INDIALOG);
	/* another secret: someone else's tag, routed */
	st.secret = SECRET + 1;
	ck_assert_int_eq(decide(ack, &v), OVC_ADM_ADMIT);
}
END_TEST

START_TEST(test_dialog_limits)
{
	struct ovc_adm_verdict v;

	cfg.t = ovc_alg_traits(OVC_ALG_RSOCA);
	fake_dialog = OVC_ADM_DIALOG_DROP;
	ck_assert_int_eq(decide(bye, &v), OVC_ADM_DROP);
	ck_assert_uint_eq(v.flags, OVC_ADMF_DOS);
	fake_dialog = OVC_ADM_DIALOG_REJECT;
	ck_assert_int_eq(decide(bye, &v), OVC_ADM_REJECT);
	cfg.dry_run = 1;
	ck_assert_int_eq(decide(bye, &v), OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_WOULD);
	/* the other algorithms have no dialog limits */
	cfg.dry_run = 0;
	cfg.t = ovc_alg_traits(OVC_ALG_OCC);
	ck_assert_int_eq(decide(bye, &v), OVC_ADM_ADMIT);
	/* the burst budget: rsoca only */
	fake_burst = 0;
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_ADMIT);
	cfg.t = ovc_alg_traits(OVC_ALG_RSOCA);
	ck_assert_int_eq(decide(invite2, &v), OVC_ADM_REJECT);
}
END_TEST

START_TEST(test_queue)
{
	struct ovc_adm_verdict v;
	struct ovc_sip_scan sc;
	struct ovc_adm_req r;

	/* bbc: admitted INVITEs wait in the queue; nothing when it is off */
	cfg.t = ovc_alg_traits(OVC_ALG_BBC);
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_ADMIT);
	ovc_rejmem_init(mem);
	cfg.queue_on = 1;
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_QUEUE);
	ovc_adm_queueing(&st, &cfg, &v);
	/* its retransmission is absorbed */
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_DROP);
	ck_assert_uint_eq(v.flags, OVC_ADMF_ABSORBED);
	/* a full queue: rejected, and so are its retransmissions */
	req(invite2, &r, &sc);
	ovc_adm_decide(&st, &cfg, &src, &r, &v);
	ck_assert_int_eq(v.act, OVC_ADM_QUEUE);
	ovc_adm_queueing(&st, &cfg, &v);
	ovc_adm_unqueued(&st, &cfg, &r, &v);
	ck_assert_int_eq(v.act, OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_QUEUE_FULL);
	ck_assert_int_eq(decide(invite2, &v), OVC_ADM_REJECT);
	/* dry run: admitted instead */
	cfg.dry_run = 1;
	ovc_rejmem_init(mem);
	ovc_adm_decide(&st, &cfg, &src, &r, &v);
	ovc_adm_unqueued(&st, &cfg, &r, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_QUEUE_FULL | OVC_ADMF_WOULD);
}
END_TEST

/* Out of overload an INVITE skips an empty queue (queue_idle): routed at
 * once and remembered admitted; it is queued while the queue holds
 * INVITEs (their order kept) and whenever the overload is evident. */
START_TEST(test_queue_idle_bypass)
{
	struct ovc_adm_verdict v;
	int alg;

	for(alg = 0; alg < 3; alg++) {
		cfg.t = ovc_alg_traits(alg == 0	  ? OVC_ALG_BBC
							   : alg == 1 ? OVC_ALG_SIRED
										  : OVC_ALG_PI);
		ovc_rejmem_init(mem);
		cfg.queue_on = 1;
		cfg.overloaded = 0;
		cfg.queue_idle = 1;
		ck_assert_int_eq(decide(invite, &v), OVC_ADM_ADMIT);
		ck_assert_int_eq(decide(invite, &v), OVC_ADM_ADMIT); /* remembered */
		ck_assert_int_eq(
				ovc_rejmem_get(mem, v.key, cfg.now_s, 32), OVC_REJMEM_ADMITTED);
		cfg.queue_idle = 0;
		ck_assert_int_eq(decide(invite2, &v), OVC_ADM_QUEUE);
		ovc_rejmem_init(mem);
		cfg.overloaded = 1;
		cfg.queue_idle = 1;
		ck_assert_int_eq(decide(invite2, &v), OVC_ADM_QUEUE);
	}
}
END_TEST

/* pi: the fraction applies at the queue's output, the guard at arrival. */
START_TEST(test_paced_queue)
{
	struct ovc_adm_verdict v;
	struct ovc_sip_scan sc;
	struct ovc_adm_req r;

	cfg.t = ovc_alg_traits(OVC_ALG_PI);
	cfg.queue_on = 1;
	ovc_acceptor_set(&acc, 0.0);
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_QUEUE);
	ck_assert_uint_eq(v.flags, OVC_ADMF_SHARE); /* met the arrival share */
	ovc_acceptor_set(&acc_arrival, 0.0);
	ck_assert_int_eq(decide(invite2, &v), OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_SHARE);
	/* its retransmission, answered from the memory: decided before the
	 * share, not counted as meeting it */
	ovc_adm_replied(&st, &cfg, &v);
	ck_assert_int_eq(decide(invite2, &v), OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags & OVC_ADMF_SHARE, 0);
	/* too old: refused before it */
	cfg.max_age_ms = 100;
	fake_age = 150 * OVC_NS_PER_MS;
	ck_assert_int_eq(decide(sos, &v), OVC_ADM_ADMIT); /* emergency: runs */
	ck_assert_uint_eq(v.flags & OVC_ADMF_SHARE, 0);
	fake_age = 10 * OVC_NS_PER_MS;
	ovc_rejmem_init(mem); /* forget it was let through */
	ck_assert_int_eq(decide(sos, &v), OVC_ADM_ADMIT); /* met, let through */
	ck_assert_uint_eq(v.flags, OVC_ADMF_EMERGENCY | OVC_ADMF_SHARE);
	cfg.max_age_ms = 0;
	fake_age = -1;
	/* at the output */
	req(invite, &r, &sc);
	ovc_adm_dequeue(&st, &cfg, &r, 7, 0, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_REJECT);
	ck_assert_uint_eq(v.key, 7);
	ovc_acceptor_set(&acc, 1.0);
	ovc_adm_dequeue(&st, &cfg, &r, 7, 0, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	ck_assert_int_eq(ovc_rejmem_get(mem, 7, cfg.now_s, 32), OVC_REJMEM_ADMITTED);
}
END_TEST

START_TEST(test_dequeue)
{
	struct ovc_adm_verdict v;
	struct ovc_sip_scan sc;
	struct ovc_adm_req r;

	cfg.t = ovc_alg_traits(OVC_ALG_BBC);
	ovc_acceptor_set(&acc, 0.0); /* bbc decided at arrival */
	req(invite, &r, &sc);
	ovc_adm_dequeue(&st, &cfg, &r, 9, 100, 200, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, 0);
	ovc_adm_dequeue(&st, &cfg, &r, 9, 300, 200, &v);
	ck_assert_int_eq(v.act, OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_EXPIRED);
	/* no max wait */
	ovc_adm_dequeue(&st, &cfg, &r, 9, 300, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	cfg.dry_run = 1;
	ovc_adm_dequeue(&st, &cfg, &r, 9, 300, 200, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_EXPIRED | OVC_ADMF_WOULD);
	/* an emergency call runs, late or not */
	cfg.dry_run = 0;
	req(sos, &r, &sc);
	ovc_adm_dequeue(&st, &cfg, &r, 11, 300, 200, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_EXPIRED | OVC_ADMF_EMERGENCY);
}
END_TEST

/* RFC 3261 9.2: a CANCEL of a queued INVITE is answered (200), the INVITE
 * 487 when it leaves the queue, and so are their retransmissions. */
START_TEST(test_cancel_queued)
{
	struct ovc_adm_verdict v;
	struct ovc_sip_scan sc;
	struct ovc_adm_req r;

	cfg.t = ovc_alg_traits(OVC_ALG_BBC);
	cfg.queue_on = 1;
	/* a CANCEL of nothing queued: routed (tm's) */
	ck_assert_int_eq(decide(cancel, &v), OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.key, 0);
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_QUEUE);
	ovc_adm_queueing(&st, &cfg, &v);
	ck_assert_int_eq(decide(cancel, &v), OVC_ADM_CANCEL);
	ck_assert_uint_ne(v.key, 0);
	ck_assert_int_eq(decide(cancel, &v), OVC_ADM_CANCEL); /* retrans */
	/* the INVITE's retransmission: 487 again, never queued */
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_CANCELLED);
	ovc_adm_replied(&st, &cfg, &v);
	ck_assert_int_eq(decide(invite, &v), OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_CANCELLED);
	/* at the queue's output: 487, even in a dry run, even admitted */
	cfg.dry_run = 1;
	req(invite, &r, &sc);
	ovc_adm_dequeue(&st, &cfg, &r, v.key, 0, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_CANCELLED);
	/* another call's CANCEL is tm's */
	ck_assert_int_eq(decide(invite2, &v), OVC_ADM_QUEUE);
	cfg.queue_on = 0;
	ck_assert_int_eq(decide(cancel, &v), OVC_ADM_ADMIT);
}
END_TEST

/* The queue's worker takes the INVITE before its CANCEL is decided: the
 * INVITE is routed and the CANCEL is tm's (never a 200 from ovc for an
 * INVITE that goes on); a queue that cannot take an INVITE CANCELled
 * meanwhile answers it 487. */
START_TEST(test_cancel_after_dequeue)
{
	struct ovc_adm_verdict v, q;
	struct ovc_sip_scan sc;
	struct ovc_adm_req r;

	cfg.t = ovc_alg_traits(OVC_ALG_BBC);
	cfg.queue_on = 1;
	ck_assert_int_eq(decide(invite, &q), OVC_ADM_QUEUE);
	ovc_adm_queueing(&st, &cfg, &q);
	req(invite, &r, &sc);
	ovc_adm_dequeue(&st, &cfg, &r, q.key, 0, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	ck_assert_int_eq(decide(cancel, &v), OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.key, 0);
	ck_assert_uint_eq(v.flags, 0);
	/* queued, CANCELled, then the queue is found full */
	ck_assert_int_eq(decide(invite2, &q), OVC_ADM_QUEUE);
	ovc_adm_queueing(&st, &cfg, &q);
	ck_assert_int_eq(decide(cancel2, &v), OVC_ADM_CANCEL);
	req(invite2, &r, &sc);
	ovc_adm_unqueued(&st, &cfg, &r, &q);
	ck_assert_int_eq(q.act, OVC_ADM_REJECT);
	ck_assert_uint_eq(q.flags, OVC_ADMF_QUEUE_FULL | OVC_ADMF_CANCELLED);
}
END_TEST

/* A request the scanner did not understand: decided, never remembered. */
START_TEST(test_unscanned)
{
	struct ovc_adm_verdict v;
	struct ovc_sip_scan sc;
	struct ovc_adm_req r;

	req(invite, &r, &sc);
	r.sc = NULL;
	ovc_acceptor_set(&acc, 0.0);
	ovc_adm_decide(&st, &cfg, &src, &r, &v);
	ck_assert_int_eq(v.act, OVC_ADM_REJECT);
	ck_assert_uint_eq(v.key, 0);
	ovc_adm_replied(&st, &cfg, &v);
	ovc_acceptor_set(&acc, 1.0);
	ovc_adm_decide(&st, &cfg, &src, &r, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
}
END_TEST

/* A next hop with a reduction of pct percent in force at now 0. */
static struct ovc_nexthop *hop_with(
		struct ovc_nh_table *t, const char *key, int pct)
{
	struct ovc_oc_via oc;
	struct ovc_nexthop *h = ovc_nh_get(t, key, strlen(key), 1, 0);

	ck_assert_ptr_nonnull(h);
	ovc_oc_via_clear(&oc);
	oc.oc = 1;
	oc.value = pct;
	oc.algos = OVC_OC_ALGO_LOSS;
	oc.validity_ms = 1000;
	oc.seq = 7 * OVC_OC_SEQ_FRAC;
	ck_assert_int_eq(ovc_nh_feedback(h, &oc, 0), 1);
	return h;
}

/* The next hop h as ovc_adm_next_hop() sees it: its feedback only (no
 * connection known). */
static const struct ovc_adm_hop *fbh(struct ovc_nexthop *h)
{
	static struct ovc_adm_hop hop;

	hop.fb = h;
	hop.id = h != NULL ? h->hash : 0;
	hop.sendq = -1;
	return &hop;
}

/* The next hop's verdict: its fraction on new INVITEs only, exact; the
 * same answer for a retransmission; per hop; emergency and dry run. */
START_TEST(test_next_hop)
{
	static struct ovc_nh_table t;
	struct ovc_adm_verdict v;
	struct ovc_sip_scan sc, sc2;
	struct ovc_adm_req r, r2;
	struct ovc_nexthop *h, *h2;
	struct ovc_oc_via oc;
	int i, passed = 0;

	ovc_nh_init(&t);
	h = hop_with(&t, "udp:192.0.2.7:5060", 75);
	h2 = hop_with(&t, "udp:192.0.2.8:5060", 100);
	/* no feedback known: passes */
	req(invite, &r, &sc);
	ovc_adm_next_hop(&st, &cfg, &r, fbh(NULL), 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	/* in-dialog, CANCEL, REGISTER (mode multi) pass a full reduction */
	req(bye, &r2, &sc2);
	ovc_adm_next_hop(&st, &cfg, &r2, fbh(h2), 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	req(cancel, &r2, &sc2);
	ovc_adm_next_hop(&st, &cfg, &r2, fbh(h2), 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	req(reg, &r2, &sc2);
	ovc_adm_next_hop(&st, &cfg, &r2, fbh(h2), 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	cfg.single = 1; /* mode single: REGISTER too */
	ovc_adm_next_hop(&st, &cfg, &r2, fbh(h2), 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_NEXT_HOP);
	cfg.single = 0;
	/* exact fraction over distinct requests (no identity: no memory) */
	r.sc = NULL;
	for(i = 0; i < 400; i++) {
		ovc_adm_next_hop(&st, &cfg, &r, fbh(h), 0, &v);
		passed += v.act == OVC_ADM_ADMIT;
	}
	ck_assert_int_ge(passed, 99);
	ck_assert_int_le(passed, 101);
	/* a retransmission gets its original's verdict, per hop */
	r.sc = &sc;
	ovc_adm_next_hop(&st, &cfg, &r, fbh(h2), 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_REJECT);
	ck_assert_uint_ne(v.key, 0);
	/* h2 now asks for nothing (a newer feedback) */
	ovc_oc_via_clear(&oc);
	oc.oc = 1;
	oc.value = 0;
	oc.algos = OVC_OC_ALGO_LOSS;
	oc.validity_ms = 1000;
	oc.seq = 8 * OVC_OC_SEQ_FRAC;
	ck_assert_int_eq(ovc_nh_feedback(h2, &oc, 0), 1);
	ck_assert_double_eq(ovc_nh_reduction(h2, 0), 0.0);
	ovc_adm_next_hop(&st, &cfg, &r, fbh(h2), 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_REJECT); /* remembered */
	ovc_adm_next_hop(&st, &cfg, &r, fbh(h), 0, &v);
	passed = v.act == OVC_ADM_ADMIT; /* another hop: a new decision */
	ovc_acceptor_set(&h->acc, 0.0);
	ovc_adm_next_hop(&st, &cfg, &r, fbh(h), 0, &v);
	ck_assert_int_eq(v.act, passed ? OVC_ADM_ADMIT : OVC_ADM_REJECT);
	/* emergency calls pass; a dry run refuses nothing */
	h2 = hop_with(&t, "udp:192.0.2.9:5060", 100);
	req(sos, &r2, &sc2);
	ovc_adm_next_hop(&st, &cfg, &r2, fbh(h2), 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_EMERGENCY);
	cfg.dry_run = 1;
	req(invite2, &r2, &sc2);
	ovc_adm_next_hop(&st, &cfg, &r2, fbh(h2), 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_WOULD);
	/* lapsed feedback: passes */
	cfg.dry_run = 0;
	r2.sc = NULL;
	ovc_adm_next_hop(&st, &cfg, &r2, fbh(h2), 2 * OVC_NS_PER_S, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
}
END_TEST

/* Smart forwarding (002 §6.2-6.3): a new INVITE is refused while the
 * send queue to its next hop holds more than sendq_max bytes; every other
 * request is sent; unknown queues and -1 (off) refuse nothing. */
START_TEST(test_send_queue)
{
	struct ovc_adm_hop hop;
	struct ovc_adm_verdict v;
	struct ovc_sip_scan sc, sc2;
	struct ovc_adm_req r, r2;

	hop.fb = NULL;
	hop.id = ovc_nh_key_hash("tcp:192.0.2.7:5060", 18);
	hop.sendq = 0;
	cfg.sendq_max = 0;
	/* an empty queue: sent */
	req(invite, &r, &sc);
	ovc_adm_next_hop(&st, &cfg, &r, &hop, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, 0);
	/* one byte waits: a new INVITE is refused, and why */
	hop.sendq = 1;
	req(invite2, &r2, &sc2);
	ovc_adm_next_hop(&st, &cfg, &r2, &hop, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_NEXT_HOP | OVC_ADMF_SEND_QUEUE);
	/* its retransmission once the queue emptied: still refused; the
	 * admitted one's retransmission with a full queue: still sent */
	hop.sendq = 0;
	ovc_adm_next_hop(&st, &cfg, &r2, &hop, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_NEXT_HOP);
	hop.sendq = 5000;
	ovc_adm_next_hop(&st, &cfg, &r, &hop, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	/* in-dialog, CANCEL, REGISTER always pass, mode single too */
	cfg.single = 1;
	req(bye, &r2, &sc2);
	ovc_adm_next_hop(&st, &cfg, &r2, &hop, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	req(cancel, &r2, &sc2);
	ovc_adm_next_hop(&st, &cfg, &r2, &hop, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	req(reg, &r2, &sc2);
	ovc_adm_next_hop(&st, &cfg, &r2, &hop, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	cfg.single = 0;
	/* a threshold: up to it sent, past it refused (no identity: no
	 * memory) */
	req(invite2, &r2, &sc2);
	r2.sc = NULL;
	cfg.sendq_max = 2048;
	hop.sendq = 2048;
	ovc_adm_next_hop(&st, &cfg, &r2, &hop, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	hop.sendq = 2049;
	ovc_adm_next_hop(&st, &cfg, &r2, &hop, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_REJECT);
	/* unknown queue, or SF off: sent */
	hop.sendq = -1;
	ovc_adm_next_hop(&st, &cfg, &r2, &hop, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	hop.sendq = 1 << 20;
	cfg.sendq_max = -1;
	ovc_adm_next_hop(&st, &cfg, &r2, &hop, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	/* emergency calls pass; a dry run refuses nothing (another hop: sos
	 * has invite's identity) */
	cfg.sendq_max = 0;
	hop.id = ovc_nh_key_hash("tcp:192.0.2.8:5060", 18);
	req(sos, &r2, &sc2);
	ovc_adm_next_hop(&st, &cfg, &r2, &hop, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_EMERGENCY);
	cfg.dry_run = 1;
	r2.sc = NULL;
	req(invite2, &r2, &sc2);
	r2.sc = NULL;
	ovc_adm_next_hop(&st, &cfg, &r2, &hop, 0, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	ck_assert_uint_eq(v.flags, OVC_ADMF_WOULD);
}
END_TEST

/* Both sources on one hop: a full queue refuses without taking from the
 * feedback's acceptor; an empty one leaves the decision to it. */
START_TEST(test_send_queue_and_feedback)
{
	static struct ovc_nh_table t;
	struct ovc_adm_hop hop;
	struct ovc_adm_verdict v;
	struct ovc_sip_scan sc;
	struct ovc_adm_req r;
	uint64_t passed;
	int i;

	ovc_nh_init(&t);
	hop.fb = hop_with(&t, "tcp:192.0.2.7:5060", 50);
	hop.id = ovc_nh_key_hash("tcp:192.0.2.7:5060", 18);
	ck_assert_uint_eq(hop.id, hop.fb->hash);
	cfg.sendq_max = 0;
	req(invite, &r, &sc);
	r.sc = NULL;
	hop.sendq = 100;
	passed = atomic_load(&hop.fb->passed) + atomic_load(&hop.fb->refused);
	for(i = 0; i < 10; i++) {
		ovc_adm_next_hop(&st, &cfg, &r, &hop, 0, &v);
		ck_assert_int_eq(v.act, OVC_ADM_REJECT);
		ck_assert_uint_ne(v.flags & OVC_ADMF_SEND_QUEUE, 0);
	}
	ck_assert_uint_eq(
			atomic_load(&hop.fb->passed) + atomic_load(&hop.fb->refused),
			passed);
	hop.sendq = 0;
	passed = 0;
	for(i = 0; i < 100; i++) {
		ovc_adm_next_hop(&st, &cfg, &r, &hop, 0, &v);
		passed += v.act == OVC_ADM_ADMIT;
		if(v.act == OVC_ADM_REJECT)
			ck_assert_uint_eq(v.flags, OVC_ADMF_NEXT_HOP);
	}
	ck_assert_uint_ge(passed, 49);
	ck_assert_uint_le(passed, 51);
}
END_TEST

/* The fair share in front of the acceptor: under a level, the calls of a
 * source above it are refused (OVC_ADMF_FAIR) in proportion, a source
 * below it keeps all of its calls, the acceptor sees only what passed,
 * and a retransmission gets its call's verdict. */
START_TEST(test_fair_share_cut)
{
	struct ovc_fair *fr = malloc(sizeof(*fr));
	uint64_t heavy = ovc_fair_key("heavy", 5), light = ovc_fair_key("light", 5);
	unsigned i, cut = 0, light_ok = 0, copy, first[200];
	struct ovc_adm_verdict v;
	struct ovc_sip_scan sc;
	struct ovc_adm_req r;
	char msg[400];

	ck_assert_ptr_nonnull(fr);
	ovc_fair_init(fr);
	copy = atomic_load(&fr->copy);
	for(i = 0; i < 1000; i++)
		ovc_fair_count(&fr->sk, copy, heavy);
	for(i = 0; i < 50; i++)
		ovc_fair_count(&fr->sk, copy, light);
	ovc_fair_rotate(fr);
	atomic_store(&fr->level, 100); /* the heavy keeps a tenth */
	st.fair = fr;
	for(i = 0; i < 400; i++) {
		snprintf(msg, sizeof(msg),
				"INVITE sip:b@example.com SIP/2.0\r\n"
				"Via: SIP/2.0/UDP 10.0.0.1;branch=z9hG4bK%u\r\n"
				"From: <sip:a@example.com>;tag=%u\r\n"
				"To: <sip:b@example.com>\r\nCall-ID: fair-%u\r\n"
				"CSeq: 1 INVITE\r\nContent-Length: 0\r\n\r\n",
				i, i, i % 200);
		req(msg, &r, &sc);
		r.fair_src = i % 4 == 3 ? light : heavy;
		cfg.now_s = 100 + 40 * (i / 200); /* the memory forgets */
		ovc_adm_decide(&st, &cfg, &src, &r, &v);
		if(r.fair_src == light) {
			light_ok += v.act == OVC_ADM_ADMIT;
			continue;
		}
		if(i < 200)
			first[i] = v.act;
		else /* the same call again: the same verdict */
			ck_assert_uint_eq(first[i - 200], v.act);
		if(v.act == OVC_ADM_REJECT) {
			ck_assert_uint_eq(v.flags & OVC_ADMF_FAIR, OVC_ADMF_FAIR);
			cut++;
		}
	}
	ck_assert_uint_eq(light_ok, 100);
	ck_assert_uint_ge(cut, 240); /* about 0.9 of the heavy's 300 */
	ck_assert_uint_le(cut, 300);
	ck_assert_uint_eq(atomic_load(&acc.taken), 400 - cut);
	/* not a source known: not cut */
	r.fair_src = 0;
	ovc_adm_decide(&st, &cfg, &src, &r, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	/* a receive queue the flood filled: the heavy's INVITEs that waited
	 * past the age limit are refused, the light's are not while they can
	 * still be set up in time (< T1/2) */
	cfg.max_age_ms = 100;
	fake_age = 200 * (int64_t)1000000;
	cfg.now_s += 100;
	r.fair_src = heavy;
	ovc_adm_decide(&st, &cfg, &src, &r, &v);
	ck_assert_int_eq(v.act, OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags & OVC_ADMF_AGED, OVC_ADMF_AGED);
	cfg.now_s += 100;
	r.fair_src = light;
	ovc_adm_decide(&st, &cfg, &src, &r, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	cfg.now_s += 100;
	fake_age = 300 * (int64_t)1000000;
	ovc_adm_decide(&st, &cfg, &src, &r, &v);
	ck_assert_int_eq(v.act, OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags & OVC_ADMF_AGED, OVC_ADMF_AGED);
	st.fair = NULL;
	free(fr);
}
END_TEST

/* Arrivals are counted before the age limit refuses anything, so that a
 * flood whose INVITEs age out in the receive queue still counts as heavy:
 * the heavy's aged INVITEs are in the arrivals' sketch and not at the
 * acceptor, and with the spare level solved on the arrivals (ovc/fair.h,
 * (3)) the light source's INVITE that waited under T1/2 is admitted
 * while no cut level is set (the controller at f = 1). */
START_TEST(test_fair_arrivals_before_age)
{
	struct ovc_fair *fr = malloc(sizeof(*fr));
	struct ovc_fair_sorted *at = malloc(sizeof(*at)), *ar = malloc(sizeof(*ar));
	uint64_t heavy = ovc_fair_key("heavy", 5), light = ovc_fair_key("light", 5);
	unsigned i, copy, aged = 0;
	struct ovc_adm_verdict v;
	struct ovc_sip_scan sc;
	struct ovc_adm_req r;
	char msg[400];

	ck_assert_ptr_nonnull(fr);
	ck_assert_ptr_nonnull(at);
	ck_assert_ptr_nonnull(ar);
	ovc_fair_init(fr);
	st.fair = fr;
	cfg.max_age_ms = 100;
	copy = atomic_load(&fr->copy);
	for(i = 0; i < 300; i++) {
		snprintf(msg, sizeof(msg),
				"INVITE sip:b@example.com SIP/2.0\r\n"
				"Via: SIP/2.0/UDP 10.0.0.1;branch=z9hG4bKa%u\r\n"
				"From: <sip:a@example.com>;tag=%u\r\n"
				"To: <sip:b@example.com>\r\nCall-ID: arr-%u\r\n"
				"CSeq: 1 INVITE\r\nContent-Length: 0\r\n\r\n",
				i, i, i);
		req(msg, &r, &sc);
		/* the heavy's 250 waited past the limit, the light's 50 not */
		r.fair_src = i % 6 == 5 ? light : heavy;
		fake_age = (r.fair_src == heavy ? 200 : 10) * (int64_t)1000000;
		ovc_adm_decide(&st, &cfg, &src, &r, &v);
		aged += (v.flags & OVC_ADMF_AGED) != 0;
	}
	ck_assert_uint_eq(aged, 250);
	ck_assert_uint_eq(ovc_fair_rate(&fr->arr, copy, heavy), 250);
	ck_assert_uint_eq(ovc_fair_rate(&fr->arr, copy, light), 50);
	ck_assert_uint_eq(ovc_fair_rate(&fr->sk, copy, heavy), 0);
	ovc_fair_rotate(fr);
	ovc_fair_sort_last(fr, at);
	ovc_fair_sort_arrivals(fr, ar);
	/* the light's 50 reached the acceptor: 2 S = 50, under which
	 * neither source is */
	ck_assert_uint_eq(ovc_fair_spare_update(fr, ar, at->total), 25);
	ck_assert_int_eq(ovc_fair_under(fr, light), 0);
	/* had 150 reached it: 50 + S = 150 */
	ck_assert_uint_eq(ovc_fair_spare_update(fr, ar, 150), 100);
	ck_assert_uint_eq(atomic_load(&fr->level), OVC_FAIR_ALL);
	fake_age = 200 * (int64_t)1000000;
	cfg.now_s += 100;
	r.fair_src = light;
	ovc_adm_decide(&st, &cfg, &src, &r, &v);
	ck_assert_int_eq(v.act, OVC_ADM_ADMIT);
	cfg.now_s += 100;
	r.fair_src = heavy;
	ovc_adm_decide(&st, &cfg, &src, &r, &v);
	ck_assert_int_eq(v.act, OVC_ADM_REJECT);
	ck_assert_uint_eq(v.flags & OVC_ADMF_AGED, OVC_ADMF_AGED);
	st.fair = NULL;
	free(fr);
	free(at);
	free(ar);
}
END_TEST

Suite *make_suite_admission(void)
{
	Suite *s = suite_create("admission");
	TCase *tc = tcase_create("sequence");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_none_admits_everything);
	tcase_add_test(tc, test_controlled_classes);
	tcase_add_test(tc, test_fraction_is_exact);
	tcase_add_test(tc, test_dry_run_never_refuses);
	tcase_add_test(tc, test_retransmission_rejected);
	tcase_add_test(tc, test_retransmission_admitted);
	tcase_add_test(tc, test_replay_is_new);
	tcase_add_test(tc, test_age);
	tcase_add_test(tc, test_age_only_in_overload);
	tcase_add_test(tc, test_late_call);
	tcase_add_test(tc, test_emergency_pass);
	tcase_add_test(tc, test_own_ack_absorbed);
	tcase_add_test(tc, test_dialog_limits);
	tcase_add_test(tc, test_queue);
	tcase_add_test(tc, test_queue_idle_bypass);
	tcase_add_test(tc, test_paced_queue);
	tcase_add_test(tc, test_dequeue);
	tcase_add_test(tc, test_unscanned);
	tcase_add_test(tc, test_cancel_queued);
	tcase_add_test(tc, test_cancel_after_dequeue);
	tcase_add_test(tc, test_next_hop);
	tcase_add_test(tc, test_send_queue);
	tcase_add_test(tc, test_send_queue_and_feedback);
	tcase_add_test(tc, test_fair_share_cut);
	tcase_add_test(tc, test_fair_arrivals_before_age);
	suite_add_tcase(s, tc);
	return s;
}
