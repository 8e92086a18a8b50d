/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - R-SOCA memory control (see ovc_tmreap.h).
 *
 * Bookkeeping: TMCB_REQUEST_IN (every transaction tm creates for a
 * received request) adds the cell to its class's age ring and registers a
 * per-transaction TMCB_DESTROY that deletes it again; a live counter per
 * class follows the same two callbacks.
 *
 * Ending (reaper process, every 100 ms, only under algorithm rsoca with
 * rsoca.reap on and memory in use >= M_min): the ring hands out the cells
 * older than T B while their delete waits, so hash index and label are
 * read from a cell that cannot be freed meanwhile; the cell is then looked
 * up again through t_lookup_ident(), which takes a reference, and checked
 * to be the same cell. INVITE/REGISTER/other: t_reply_with_body() with 500
 * (it takes the reply lock, refuses when a final reply went out already,
 * cancels the branches, puts the transaction on wait and drops the
 * reference). In-dialog: under the transaction's reply lock, when no final
 * reply went out, t_release_transaction() stops its timers and puts it on
 * wait without any reply; then the reference is dropped.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/cfg/cfg_struct.h"
#include "core/counters.h"
#include "core/dprint.h"
#include "core/mem/shm_mem.h"
#include "core/pt.h"
#include "modules/tm/tm_load.h"
#include "modules/tm/lock.h"

#include "ovc/agering.h"

#include "ovc_classify.h"
#include "ovc_reply.h"
#include "ovc_rsoca.h"
#include "ovc_tmreap.h"

/* Slots per class ring: 32768 transactions of a class can be tracked at
 * once (about 100 s at 350/s; above that reaping keeps them fewer). */
#define TR_RING_CAP (1u << 15)
/* Transactions ended per class and pass at most (one pass per 100 ms). */
#define TR_BATCH 512
#define TR_PERIOD_NS (100 * OVC_NS_PER_MS)

struct tr_shm
{
	struct ovc_agering *ring[OVC_CLASS_COUNT];
	_Atomic int64_t live[OVC_CLASS_COUNT];		/* live transactions */
	_Atomic uint64_t created[OVC_CLASS_COUNT];	/* since start */
	_Atomic uint64_t ended[OVC_CLASS_COUNT];	/* ended by the reaper */
	_Atomic uint64_t ended_slot[OVC_SLOTS][OVC_CLASS_COUNT]; /* per s */
	_Atomic uint64_t skipped;	/* old ones found replied or gone */
	_Atomic uint64_t passes;	/* reaper passes above M_min */
	_Atomic int active;			/* last measurement >= M_min */
	_Atomic int source_used;	/* source of the last measurement */
	ovc_atomic_double in_use;	/* memory in use, bytes */
	ovc_atomic_double mmin;		/* M_min in force, bytes */
	ovc_atomic_double mmax;		/* M_max in force, bytes */
	ovc_atomic_double p_mem;	/* P^M (eq. 1) */
	_Atomic uint64_t shm_used;	/* shared memory used, bytes */
	_Atomic uint64_t shm_total; /* shared memory size, bytes */
};

static struct tr_shm *tr;
static struct tm_binds tmb;
static int tm_ok;

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ------------------------------------------------ tm callbacks */

#define TOKEN_CLASS_SHIFT 56

static void on_destroy(struct cell *t, int type, struct tmcb_params *ps)
{
	uint64_t v = (uint64_t)(uintptr_t)*ps->param;
	int c = (int)(v >> TOKEN_CLASS_SHIFT);

	/* at shutdown tm frees its cells after ovc's destroy has run */
	if(tr == NULL || c < 0 || c >= OVC_CLASS_COUNT)
		return;
	ovc_agering_del(
			tr->ring[c], v & ((UINT64_C(1) << TOKEN_CLASS_SHIFT) - 1));
	atomic_fetch_sub_explicit(&tr->live[c], 1, memory_order_relaxed);
}

static void on_request_in(struct cell *t, int type, struct tmcb_params *ps)
{
	enum ovc_class c;
	uint64_t tok;

	/* only R-SOCA's memory control uses the live transactions: other
	 * algorithms pay nothing per transaction (a transaction created before
	 * a switch to rsoca is not tracked) */
	if(tr == NULL || ps->req == NULL
			|| !ovc_traits_now()->tracks_transactions)
		return;
	c = ovc_classify(ps->req);
	if((unsigned)c >= OVC_CLASS_COUNT)
		return;
	tok = ovc_agering_add(tr->ring[c], now_ms(), (uint64_t)(uintptr_t)t);
	atomic_fetch_add_explicit(&tr->live[c], 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&tr->created[c], 1, memory_order_relaxed);
	if(tmb.register_tmcb(ps->req, t, TMCB_DESTROY, on_destroy,
			   (void *)(uintptr_t)(((uint64_t)c << TOKEN_CLASS_SHIFT) | tok),
			   0)
			<= 0) {
		LM_ERR("cannot register TMCB_DESTROY: transaction not tracked\n");
		ovc_agering_del(tr->ring[c], tok);
		atomic_fetch_sub_explicit(&tr->live[c], 1, memory_order_relaxed);
	}
}

/* ------------------------------------------------ statistics */

static char stat_names[OVC_CLASS_COUNT][24];

/* param: class index, or OVC_CLASS_COUNT for the live total */
static counter_val_t stat_get(counter_handle_t h, void *param)
{
	long i = (long)param;
	int64_t n = 0;
	int c;

	if(tr == NULL)
		return 0;
	if(i >= 0 && i < OVC_CLASS_COUNT)
		return (counter_val_t)atomic_load(&tr->ended[i]);
	for(c = 0; c < OVC_CLASS_COUNT; c++)
		n += atomic_load(&tr->live[c]);
	return (counter_val_t)(n > 0 ? n : 0);
}

/* Group "ovc": reaped_<class> (over-age transactions ended) and
 * live_transactions. */
static int register_stats(void)
{
	counter_handle_t h;
	int c;

	for(c = 0; c < OVC_CLASS_COUNT; c++) {
		snprintf(stat_names[c], sizeof(stat_names[c]), "reaped_%s",
				ovc_class_name(c));
		if(counter_register(&h, "ovc", stat_names[c], 0, stat_get,
				   (void *)(long)c,
				   "over-age transactions ended by R-SOCA memory control",
				   0)
				< 0)
			return -1;
	}
	return counter_register(&h, "ovc", "live_transactions", 0, stat_get,
			(void *)(long)OVC_CLASS_COUNT, "tm transactions alive", 0);
}

/* ------------------------------------------------ init */

int ovc_tmreap_init(unsigned mem_source)
{
	int c;
	size_t n = ovc_agering_size(TR_RING_CAP);

	tm_ok = load_tm_api(&tmb) == 0;
	if(!tm_ok && mem_source != OVC_MEM_SHM) {
		LM_ERR("modparam \"param\": rsoca.mem_source=%u (transactions)"
			   " needs the tm module loaded before ovc\n",
				mem_source);
		return -1;
	}
	tr = shm_malloc(sizeof(*tr));
	if(tr == NULL) {
		SHM_MEM_ERROR;
		return -1;
	}
	memset(tr, 0, sizeof(*tr));
	if(register_stats() < 0) {
		LM_ERR("cannot register the rsoca memory statistics\n");
		goto error;
	}
	if(!tm_ok) {
		LM_INFO("tm not loaded: rsoca memory control measures shared"
				" memory only and ends no transactions\n");
		return 0;
	}
	for(c = 0; c < OVC_CLASS_COUNT; c++) {
		tr->ring[c] = shm_malloc(n);
		if(tr->ring[c] == NULL) {
			SHM_MEM_ERROR;
			goto error;
		}
		ovc_agering_init(tr->ring[c], TR_RING_CAP);
	}
	if(tmb.register_tmcb(0, 0, TMCB_REQUEST_IN, on_request_in, 0, 0) <= 0) {
		LM_ERR("cannot register the TMCB_REQUEST_IN callback\n");
		goto error;
	}
	return 0;

error:
	ovc_tmreap_destroy();
	return -1;
}

int ovc_tmreap_procs(void)
{
	return tm_ok ? 1 : 0;
}

void ovc_tmreap_destroy(void)
{
	struct tr_shm *t = tr;
	int c;

	if(t == NULL)
		return;
	/* first: tm's destroy, which runs after this one, calls on_destroy()
	 * for every cell it still holds */
	tr = NULL;
	for(c = 0; c < OVC_CLASS_COUNT; c++)
		if(t->ring[c])
			shm_free(t->ring[c]);
	shm_free(t);
}

void ovc_tmreap_reset(void)
{
	int c;

	if(tr == NULL)
		return;
	for(c = 0; c < OVC_CLASS_COUNT; c++)
		atomic_store(&tr->ended[c], 0);
	atomic_store(&tr->skipped, 0);
	atomic_store(&tr->passes, 0);
}

/* ------------------------------------------------ measurement */

struct tr_meas
{
	int ok;			/* thresholds known */
	int source;		/* enum ovc_mem_source that decided */
	double in_use;	/* bytes */
	double mmin;	/* bytes */
	double mmax;	/* bytes */
	double p_mem;	/* ramp (eq. 1) */
	double frac;	/* occupancy for the controller */
};

static int64_t live_total(void)
{
	int64_t n = 0;
	int c;

	for(c = 0; c < OVC_CLASS_COUNT; c++)
		n += atomic_load_explicit(&tr->live[c], memory_order_relaxed);
	return n > 0 ? n : 0;
}

/* One source's figures; returns 0 or -1 (thresholds unknown). */
static int measure_one(const struct ovc_params *p, enum ovc_mem_source src,
		struct tr_meas *m)
{
	double total = (double)atomic_load(&tr->shm_total);

	if(ovc_memctl_thresholds(&p->memctl, &p->rsoca, src, total, &m->mmin,
			   &m->mmax)
			!= OVC_OK)
		return -1;
	m->in_use = src == OVC_MEM_SHM ? (double)atomic_load(&tr->shm_used)
								   : (double)live_total() * p->memctl.s;
	m->p_mem = ovc_rsoca_ramp(m->in_use, m->mmin, m->mmax);
	m->frac = ovc_memctl_fraction(
			m->in_use, m->mmin, m->mmax, p->rsoca.mmin, p->rsoca.mmax);
	m->source = src;
	m->ok = 1;
	return 0;
}

/* Measures by the configured source (transactions need tm) and publishes
 * the result. */
static void measure(const struct ovc_params *p, struct tr_meas *m)
{
	struct tr_meas a, b;
	unsigned src = p->memctl.source;

	memset(m, 0, sizeof(*m));
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if(!tm_ok)
		src = OVC_MEM_SHM;
	if(src == OVC_MEM_SHM || src == OVC_MEM_BOTH)
		measure_one(p, OVC_MEM_SHM, &a);
	if(src == OVC_MEM_TM || src == OVC_MEM_BOTH)
		measure_one(p, OVC_MEM_TM, &b);
	if(a.ok && (!b.ok || a.p_mem > b.p_mem
					|| (a.p_mem == b.p_mem && src == OVC_MEM_SHM)))
		*m = a;
	else if(b.ok)
		*m = b;
	if(!m->ok)
		return;
	ovc_dstore(&tr->in_use, m->in_use);
	ovc_dstore(&tr->mmin, m->mmin);
	ovc_dstore(&tr->mmax, m->mmax);
	ovc_dstore(&tr->p_mem, m->p_mem);
	atomic_store(&tr->source_used, m->source);
	atomic_store(&tr->active, m->in_use >= m->mmin);
}

static void params_copy(struct ovc_params *p)
{
	lock_get(&ovc->lock);
	*p = ovc->params;
	lock_release(&ovc->lock);
}

double ovc_tmreap_epoch(uint64_t shm_used, uint64_t shm_total)
{
	struct ovc_params p;
	struct tr_meas m;

	atomic_store(&tr->shm_used, shm_used);
	atomic_store(&tr->shm_total, shm_total);
	params_copy(&p);
	measure(&p, &m);
	if(m.ok)
		return m.frac;
	return shm_total ? (double)shm_used / (double)shm_total : 0;
}

void ovc_tmreap_snap(struct ovc_row *row)
{
	row->mem_in_use = ovc_dload(&tr->in_use);
	row->mem_min = ovc_dload(&tr->mmin);
	row->mem_max = ovc_dload(&tr->mmax);
	row->live_transactions = (uint64_t)live_total();
}

void ovc_tmreap_row(int64_t sec, struct ovc_row *row)
{
	int c;

	for(c = 0; c < OVC_CLASS_COUNT; c++)
		row->reaped[c] =
				atomic_exchange(&tr->ended_slot[sec % OVC_SLOTS][c], 0);
}

/* ------------------------------------------------ the reaper */

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

	ovc_count_pair(&tr->ended[c], &tr->ended_slot[sec % OVC_SLOTS][c]);
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

	if(tmb.t_lookup_ident(&t, v->hash, v->label) < 0 || t == NULL)
		return 0;
	/* referenced now; a different cell under the same identifiers
	 * (ours was freed and the label reused) is left alone */
	if(t != v->cell) {
		tmb.unref_cell(t);
		tmb.t_sett(T_UNDEFINED, T_BR_UNDEFINED);
		return 0;
	}
	if(c == OVC_CLASS_INDIALOG) {
		/* 004 §III-D: ended without a reply */
		reply_lock(t);
		if(t->uas.status < 200) {
			tmb.t_release_transaction(t);
			ended = 1;
		}
		reply_unlock(t);
		tmb.unref_cell(t);
	} else if(t->uas.status >= 200) {
		tmb.unref_cell(t);
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
		rc = tmb.t_reply_with_body(t, 500, &reason, NULL, &hdr, &tag);
		ended = rc > 0;
	}
	tmb.t_sett(T_UNDEFINED, T_BR_UNDEFINED);
	return ended;
}

/* One pass: measure; above M_min under rsoca with reaping on, end what is
 * older than T B per class; else only pass the deleted entries. */
static void reap_pass(void)
{
	static struct batch b;
	struct ovc_params p;
	struct tr_meas m;
	int64_t now, lim;
	unsigned i;
	int c, reap;

	params_copy(&p);
	measure(&p, &m);
	reap = m.ok && m.in_use >= m.mmin && p.memctl.reap
		   && ovc_traits_now()->tracks_transactions
		   && !atomic_load(&ovc->dry_run);
	now = now_ms();
	if(reap)
		atomic_fetch_add(&tr->passes, 1);
	for(c = 0; c < OVC_CLASS_COUNT; c++) {
		b.n = 0;
		lim = ovc_memctl_age_limit_ms(&p.memctl, c);
		if(!reap || lim < 0) {
			ovc_agering_expire(tr->ring[c], INT64_MIN, 0, NULL, NULL);
			continue;
		}
		ovc_agering_expire(tr->ring[c], now - lim, TR_BATCH, visit, &b);
		for(i = 0; i < b.n; i++) {
			if(end_one(&b.v[i], c))
				count_ended(c);
			else
				atomic_fetch_add(&tr->skipped, 1);
		}
	}
}

static void reaper_run(void)
{
	ovc_time_ns next = ovc_now_ns();

	for(;;) {
		next += TR_PERIOD_NS;
		ovc_sleep_until(next);
		if(ovc_now_ns() > next + 10 * TR_PERIOD_NS)
			next = ovc_now_ns(); /* fell far behind: re-base */
		cfg_update();
		reap_pass();
	}
}

int ovc_tmreap_fork(void)
{
	int pid;

	if(!tm_ok)
		return 0;
	/* a rank whose child_init runs in every module: tm works there */
	pid = fork_process(PROC_RPC, "ovc reaper", 1);
	if(pid < 0)
		return -1;
	if(pid == 0) {
		if(cfg_child_init())
			return -1;
		reaper_run();
		exit(0); /* not reached */
	}
	return 0;
}

/* ------------------------------------------------ RPC */

void ovc_tmreap_rpc_stats(rpc_t *rpc, void *th)
{
	static const char *src_names[] = {"shm", "transactions", "both"};
	struct ovc_params p;
	void *h, *hl, *he, *ha;
	uint64_t untracked = 0;
	int c, src, su;

	if(rpc->struct_add(th, "{", "rsoca_mem", &h) < 0)
		return;
	params_copy(&p);
	src = p.memctl.source <= 2 ? (int)p.memctl.source : 0;
	su = atomic_load(&tr->source_used);
	rpc->struct_add(h, "sssdffffJJJ", "source", src_names[src],
			"source_used", src_names[su >= 0 && su <= 2 ? su : 0], "tm",
			tm_ok ? "yes" : "no", "reap", (int)p.memctl.reap, "mem_in_use",
			ovc_dload(&tr->in_use), "mem_min", ovc_dload(&tr->mmin),
			"mem_max", ovc_dload(&tr->mmax), "p_mem", ovc_dload(&tr->p_mem),
			"above_min", (unsigned long long)atomic_load(&tr->active),
			"reap_passes", (unsigned long long)atomic_load(&tr->passes),
			"skipped", (unsigned long long)atomic_load(&tr->skipped));
	if(rpc->struct_add(h, "{", "live", &hl) < 0
			|| rpc->struct_add(h, "{", "ended", &he) < 0
			|| rpc->struct_add(h, "{", "age_limit_ms", &ha) < 0)
		return;
	for(c = 0; c < OVC_CLASS_COUNT; c++) {
		int64_t l = atomic_load(&tr->live[c]);

		rpc->struct_add(hl, "J", ovc_class_name(c),
				(unsigned long long)(l > 0 ? l : 0));
		rpc->struct_add(he, "J", ovc_class_name(c),
				(unsigned long long)atomic_load(&tr->ended[c]));
		rpc->struct_add(ha, "J", ovc_class_name(c),
				(unsigned long long)ovc_memctl_age_limit_ms(&p.memctl, c));
	}
	for(c = 0; tm_ok && c < OVC_CLASS_COUNT; c++)
		untracked += atomic_load(&tr->ring[c]->untracked);
	rpc->struct_add(h, "J", "untracked", (unsigned long long)untracked);
}
