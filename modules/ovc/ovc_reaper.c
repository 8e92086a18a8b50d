/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - R-SOCA memory control: the reaper process (see ovc_tmreap.h).
 *
 * Every 100 ms (every second while the algorithm in force tracks no
 * transaction: nothing to reap, and a wake-up costs the proxy CPU), only
 * under algorithm rsoca with rsoca.reap on and memory in use >= M_min: the ring hands out the cells older than T B while
 * their delete waits, so hash index and label are read from a cell that
 * cannot be freed meanwhile; the cell is then looked up again through
 * t_lookup_ident(), which takes a reference, and checked to be the same
 * cell. INVITE/REGISTER/other: t_reply_with_body() with 500 (it takes the
 * reply lock, refuses when a final reply went out already, cancels the
 * branches, puts the transaction on wait and drops the reference).
 * In-dialog: under the transaction's reply lock, when no final reply went
 * out, t_release_transaction() stops its timers and puts it on wait
 * without any reply; then the reference is dropped.
 */
#include <stdio.h>

#include "core/cfg/cfg_struct.h"
#include "core/dprint.h"
#include "core/pt.h"
#include "modules/tm/lock.h"

#include "ovc/agering.h"

#include "ovc_proc.h"
#include "ovc_reaper.h"
#include "ovc_reply.h"
#include "ovc_rsoca.h"
#include "ovc_tmreap.h"

/* Transactions ended per class and pass at most (one pass per 100 ms). */
#define TR_BATCH 512
#define TR_PERIOD_NS (100 * OVC_NS_PER_MS)
/* The period while the algorithm tracks no transaction (not rsoca): the
 * passes then only pass entries deleted since a switch away from it. */
#define TR_IDLE_NS OVC_NS_PER_S

struct victim
{
	unsigned hash;
	unsigned label;
	struct cell *cell;
};

struct batch
{
	unsigned n;
	struct victim v[TR_BATCH];
};

/* Runs while the ring holds the entry: the cell cannot be freed. */
static void visit(uint64_t cookie, int64_t start_ms, void *arg)
{
	struct batch *b = arg;
	struct cell *t = (struct cell *)(uintptr_t)cookie;

	if(b->n >= TR_BATCH)
		return;
	b->v[b->n].cell = t;
	b->v[b->n].hash = t->hash_index;
	b->v[b->n].label = t->label;
	b->n++;
}

static void count_ended(int c)
{
	int64_t sec = ovc_now_sec_coarse();

	ovc_count_pair(&ovc_tr->ended[c], &ovc_tr->ended_slot[sec % OVC_SLOTS][c]);
}

/* The transaction's reply lock, as tm's LOCK_REPLIES takes it (the
 * reaper never holds it already). */
static void reply_lock(struct cell *t)
{
	lock(&t->reply_mutex);
	atomic_set(&t->reply_locker_pid, my_pid());
}

static void reply_unlock(struct cell *t)
{
	atomic_set(&t->reply_locker_pid, 0);
	unlock(&t->reply_mutex);
}

/* Ends one over-age transaction of class c. Returns 1 ended, 0 not (gone
 * already, or a final reply went out). */
static int end_one(const struct victim *v, int c)
{
	struct cell *t = NULL;
	char hdr_buf[48], tag_buf[32];
	str reason = str_init("Server Internal Error");
	str hdr = STR_NULL, tag;
	int rc, retry, ended = 0;

	if(ovc_tr_tmb.t_lookup_ident(&t, v->hash, v->label) < 0 || t == NULL)
		return 0;
	/* referenced now; a different cell under the same identifiers
	 * (ours was freed and the label reused) is left alone */
	if(t != v->cell) {
		ovc_tr_tmb.unref_cell(t);
		ovc_tr_tmb.t_sett(T_UNDEFINED, T_BR_UNDEFINED);
		return 0;
	}
	if(c == OVC_CLASS_INDIALOG) {
		/* 004 §III-D: ended without a reply */
		reply_lock(t);
		if(t->uas.status < 200) {
			ovc_tr_tmb.t_release_transaction(t);
			ended = 1;
		}
		reply_unlock(t);
		ovc_tr_tmb.unref_cell(t);
	} else if(t->uas.status >= 200) {
		ovc_tr_tmb.unref_cell(t);
	} else {
		/* 500 to the originator; t_reply_with_body() drops the reference
		 * and refuses (under the reply lock) if a final reply won;
		 * Retry-After: T_retry like R-SOCA's other rejects (004 §III-A) */
		retry = ovc_rsoca_reply()->retry_after;
		if(retry > 0) {
			hdr.len = snprintf(hdr_buf, sizeof(hdr_buf),
					"Retry-After: %d\r\n", retry);
			hdr.s = hdr_buf;
		}
		tag.len = snprintf(
				tag_buf, sizeof(tag_buf), "ovcr%x.%x", v->hash, v->label);
		tag.s = tag_buf;
		rc = ovc_tr_tmb.t_reply_with_body(t, 500, &reason, NULL, &hdr, &tag);
		ended = rc > 0;
	}
	ovc_tr_tmb.t_sett(T_UNDEFINED, T_BR_UNDEFINED);
	return ended;
}

/* One pass: measure; above M_min under rsoca with reaping on, end what is
 * older than T B per class; else only pass the deleted entries. */
static void reap_pass(void)
{
	static struct batch b;
	struct ovc_params p;
	struct ovc_tr_meas m;
	int64_t now, lim;
	unsigned i;
	int c, reap;

	ovc_tr_params(&p);
	ovc_tr_measure(&p, &m);
	reap = m.ok && m.in_use >= m.mmin && p.memctl.reap
		   && ovc_traits_now()->tracks_transactions
		   && !atomic_load(&ovc->dry_run);
	now = ovc_tr_now_ms();
	if(reap)
		atomic_fetch_add(&ovc_tr->passes, 1);
	for(c = 0; c < OVC_CLASS_COUNT; c++) {
		b.n = 0;
		lim = ovc_memctl_age_limit_ms(&p.memctl, c);
		if(!reap || lim < 0) {
			ovc_agering_expire(ovc_tr->ring[c], INT64_MIN, 0, NULL, NULL);
			continue;
		}
		ovc_agering_expire(ovc_tr->ring[c], now - lim, TR_BATCH, visit, &b);
		for(i = 0; i < b.n; i++) {
			if(end_one(&b.v[i], c))
				count_ended(c);
			else
				atomic_fetch_add(&ovc_tr->skipped, 1);
		}
	}
}

static void reaper_run(void)
{
	ovc_time_ns next = ovc_now_ns();

	for(;;) {
		next += ovc_traits_now()->tracks_transactions ? TR_PERIOD_NS
													  : TR_IDLE_NS;
		ovc_sleep_until(next);
		if(ovc_now_ns() > next + 10 * TR_PERIOD_NS)
			next = ovc_now_ns(); /* fell far behind: re-base */
		cfg_update();
		reap_pass();
	}
}

int ovc_reaper_fork(void)
{
	if(!ovc_tr_tm_ok)
		return 0;
	/* a rank whose child_init runs in every module: tm works there */
	return ovc_proc_run(PROC_RPC, "ovc reaper", reaper_run) < 0 ? -1 : 0;
}
