/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - R-SOCA memory control: the transactions tracked and the memory
 * measured (see ovc_tmreap.h).
 *
 * Bookkeeping: TMCB_REQUEST_IN (every transaction tm creates for a
 * received request) adds the cell to its class's age ring and registers a
 * per-transaction TMCB_DESTROY that deletes it again; a live counter per
 * class follows the same two callbacks.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/dprint.h"
#include "core/mem/shm_mem.h"

#include "ovc/agering.h"

#include "ovc_classify.h"
#include "ovc_tmreap.h"

/* Slots per class ring: 32768 transactions of a class can be tracked at
 * once (about 100 s at 350/s; above that reaping keeps them fewer). */
#define TR_RING_CAP (1u << 15)

struct ovc_tr_shm *ovc_tr;
struct tm_binds ovc_tr_tmb;
int ovc_tr_tm_ok;

int64_t ovc_tr_now_ms(void)
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
	if(ovc_tr == NULL || c < 0 || c >= OVC_CLASS_COUNT)
		return;
	ovc_agering_del(
			ovc_tr->ring[c], v & ((UINT64_C(1) << TOKEN_CLASS_SHIFT) - 1));
	atomic_fetch_sub_explicit(&ovc_tr->live[c], 1, memory_order_relaxed);
}

static void on_request_in(struct cell *t, int type, struct tmcb_params *ps)
{
	enum ovc_class c;
	uint64_t tok;

	/* only R-SOCA's memory control uses the live transactions: other
	 * algorithms pay nothing per transaction (a transaction created before
	 * a switch to rsoca is not tracked) */
	if(ovc_tr == NULL || ps->req == NULL
			|| !ovc_traits_now()->tracks_transactions)
		return;
	c = ovc_classify(ps->req);
	if((unsigned)c >= OVC_CLASS_COUNT)
		return;
	tok = ovc_agering_add(
			ovc_tr->ring[c], ovc_tr_now_ms(), (uint64_t)(uintptr_t)t);
	atomic_fetch_add_explicit(&ovc_tr->live[c], 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&ovc_tr->created[c], 1, memory_order_relaxed);
	if(ovc_tr_tmb.register_tmcb(ps->req, t, TMCB_DESTROY, on_destroy,
			   (void *)(uintptr_t)(((uint64_t)c << TOKEN_CLASS_SHIFT) | tok),
			   0)
			<= 0) {
		LM_ERR("cannot register TMCB_DESTROY: transaction not tracked\n");
		ovc_agering_del(ovc_tr->ring[c], tok);
		atomic_fetch_sub_explicit(&ovc_tr->live[c], 1, memory_order_relaxed);
	}
}

/* ------------------------------------------------ init */

size_t ovc_tmreap_shm_bytes(void)
{
	return sizeof(struct ovc_tr_shm)
		   + OVC_CLASS_COUNT * ovc_agering_size(TR_RING_CAP);
}

int ovc_tmreap_init(unsigned mem_source)
{
	int c;
	size_t n = ovc_agering_size(TR_RING_CAP);

	ovc_tr_tm_ok = load_tm_api(&ovc_tr_tmb) == 0;
	if(!ovc_tr_tm_ok && mem_source != OVC_MEM_SHM) {
		LM_ERR("modparam \"param\": rsoca.mem_source=%u (transactions)"
			   " needs the tm module loaded before ovc\n",
				mem_source);
		return -1;
	}
	ovc_tr = shm_malloc(sizeof(*ovc_tr));
	if(ovc_tr == NULL) {
		SHM_MEM_ERROR;
		return -1;
	}
	memset(ovc_tr, 0, sizeof(*ovc_tr));
	if(!ovc_tr_tm_ok) {
		LM_INFO("tm not loaded: rsoca memory control measures shared"
				" memory only and ends no transactions\n");
		return 0;
	}
	for(c = 0; c < OVC_CLASS_COUNT; c++) {
		ovc_tr->ring[c] = shm_malloc(n);
		if(ovc_tr->ring[c] == NULL) {
			SHM_MEM_ERROR;
			goto error;
		}
		ovc_agering_init(ovc_tr->ring[c], TR_RING_CAP);
	}
	if(ovc_tr_tmb.register_tmcb(0, 0, TMCB_REQUEST_IN, on_request_in, 0, 0)
			<= 0) {
		LM_ERR("cannot register the TMCB_REQUEST_IN callback\n");
		goto error;
	}
	return 0;

error:
	ovc_tmreap_destroy();
	return -1;
}

void ovc_tmreap_destroy(void)
{
	struct ovc_tr_shm *t = ovc_tr;
	int c;

	if(t == NULL)
		return;
	/* first: tm's destroy, which runs after this one, calls on_destroy()
	 * for every cell it still holds */
	ovc_tr = NULL;
	for(c = 0; c < OVC_CLASS_COUNT; c++)
		if(t->ring[c])
			shm_free(t->ring[c]);
	shm_free(t);
}

/* ------------------------------------------------ measurement */

int64_t ovc_tr_live_total(void)
{
	int64_t n = 0;
	int c;

	for(c = 0; c < OVC_CLASS_COUNT; c++)
		n += atomic_load_explicit(&ovc_tr->live[c], memory_order_relaxed);
	return n > 0 ? n : 0;
}

uint64_t ovc_tr_ended(enum ovc_class c)
{
	return ovc_tr != NULL ? atomic_load(&ovc_tr->ended[c]) : 0;
}

int64_t ovc_tr_live_now(void)
{
	return ovc_tr != NULL ? ovc_tr_live_total() : 0;
}

/* One source's figures; returns 0 or -1 (thresholds unknown). */
static int measure_one(const struct ovc_params *p, enum ovc_mem_source src,
		struct ovc_tr_meas *m)
{
	double total = (double)atomic_load(&ovc_tr->shm_total);

	if(ovc_memctl_thresholds(&p->memctl, &p->rsoca, src, total, &m->mmin,
			   &m->mmax)
			!= OVC_OK)
		return -1;
	m->in_use = src == OVC_MEM_SHM ? (double)atomic_load(&ovc_tr->shm_used)
								   : (double)ovc_tr_live_total() * p->memctl.s;
	m->p_mem = ovc_rsoca_ramp(m->in_use, m->mmin, m->mmax);
	m->frac = ovc_memctl_fraction(
			m->in_use, m->mmin, m->mmax, p->rsoca.mmin, p->rsoca.mmax);
	m->source = src;
	m->ok = 1;
	return 0;
}

void ovc_tr_measure(const struct ovc_params *p, struct ovc_tr_meas *m)
{
	struct ovc_tr_meas a, b;
	unsigned src = p->memctl.source;

	memset(m, 0, sizeof(*m));
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if(!ovc_tr_tm_ok)
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
	ovc_dstore(&ovc_tr->in_use, m->in_use);
	ovc_dstore(&ovc_tr->mmin, m->mmin);
	ovc_dstore(&ovc_tr->mmax, m->mmax);
	ovc_dstore(&ovc_tr->p_mem, m->p_mem);
	atomic_store(&ovc_tr->source_used, m->source);
	atomic_store(&ovc_tr->active, m->in_use >= m->mmin);
}

void ovc_tr_params(struct ovc_params *p)
{
	lock_get(&ovc->lock);
	*p = ovc->params;
	lock_release(&ovc->lock);
}
