/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the shared-memory guard as a part (ovc_part.h; ovc/memguard.h):
 * in the ticker, at each receive-queue sample (every rxq.sample_ms, not
 * the controller's epoch: at flood onset 64 MB fill within a second),
 * Kamailio's shared memory in use and the calls offered and admitted
 * since the last sample give the guard's cap on the admission, which
 * the ticker's plan applies at once (ovc_plan_cap()); the "mem_guard"
 * block of ovc.stats. When the cap starts to hold, the log says what
 * the proxy would need: the -m at which the calls its CPU serves fit
 * the budget.
 */
#include <math.h>
#include <string.h>

#include "core/dprint.h"
#include "core/mem/shm.h"

#include "ovc/memguard.h"

#include "ovc_memguard.h"
#include "ovc_part.h"
#include "ovc_shm.h"

#define MB (1024.0 * 1024.0)

/* What every process sees: the guard's figures, allocated in shared
 * memory at mod_init (before the fork). The ticker writes them, any
 * process reads them; atomics only, no lock. */
struct mg_shm
{
	ovc_atomic_double cap;		/* its cap on the admission (1: none) */
	ovc_atomic_double k;		/* bytes held per admitted call/s */
	ovc_atomic_double rate_max; /* calls/s its budget holds (< 0: not
								   known yet) */
	ovc_atomic_double base;		/* least shm in use seen, bytes */
	_Atomic uint64_t real;		/* shm in use with the allocator's
								   overhead, bytes (last sample) */
	_Atomic uint64_t capped_ms; /* time its cap held, ms */
};

static struct mg_shm *mg;

/* ticker only */
static struct ovc_memguard guard;
static int capping;				/* the cap held at the last sample */
static double said_need;		/* the -m last said needed, bytes */
static ovc_time_ns last;		/* time of the last sample, 0: none */
static uint64_t last_off, last_adm; /* INVITE totals then */

/* mod_init: what the guard keeps free, said once. */
static int memguard_init(const struct ovc_params *p)
{
	struct mem_info mi;

	mg = shm_malloc(sizeof(*mg));
	if(mg == NULL) {
		SHM_MEM_ERROR;
		return -1;
	}
	memset(mg, 0, sizeof(*mg));
	ovc_dstore(&mg->cap, 1.0);
	ovc_dstore(&mg->rate_max, -1.0);
	ovc_memguard_init(&guard);
	if(!(p->memguard.high > 0)) {
		LM_NOTICE("ovc: the shared-memory guard is off (mem.high 0)\n");
		return 0;
	}
	shm_info(&mi);
	LM_NOTICE("ovc: shared-memory guard: the calls admitted may fill %.0f %%"
			  " of Kamailio's %.0f MB (-m; mem.high), %.1f MB in use now\n",
			100.0 * p->memguard.high, (double)mi.total_size / MB,
			(double)(mi.total_size - mi.free_size) / MB);
	return 0;
}

/* The cap holds: what the proxy would need, said when the cap starts to
 * hold and again when the need has grown by a tenth (the memory a call
 * holds grows as its transactions age). */
static void say_capping(const struct ovc_memguard_params *p, double total)
{
	double serve = ovc_dload(&ovc->capacity), used, need;

	used = (double)atomic_load(&mg->real);
	if(!(serve > guard.adm))
		serve = guard.off;
	if(!(guard.k > 0)) {
		if(capping)
			return;
		LM_NOTICE("ovc: shared memory in use (%.1f of Kamailio's %.0f MB)"
				  " is above mem.high %.2f: the calls admitted are"
				  " capped\n",
				used / MB, total / MB, p->high);
		return;
	}
	need = (guard.base + guard.k * serve) / p->high;
	if(capping && need <= 1.1 * said_need)
		return;
	said_need = need;
	LM_NOTICE("ovc: shared memory holds the calls admitted to %.0f/s"
			  " (%.0f KB held per call/s admitted, %.1f of Kamailio's"
			  " %.0f MB in use, mem.high %.2f): -m %.0f would hold the"
			  " %.0f calls/s this proxy serves\n",
			guard.rate_max, guard.k / 1024.0, used / MB, total / MB, p->high,
			need / MB + 0.5, serve);
}

/* Each receive-queue sample: memory in use (with the allocator's
 * overhead) and the initial INVITEs since the last sample give the cap,
 * published for the plan. */
static void memguard_sample(const struct ovc_tick *t)
{
	struct ovc_memguard_params p;
	struct mem_info mi;
	double used, total, cap, dt;
	uint64_t off, adm;

	off = ovc_total_since(
			atomic_load(&ovc->total.v[OVC_CLASS_INVITE][OVC_V_OFFERED]),
			&last_off);
	adm = ovc_total_since(
			atomic_load(&ovc->total.v[OVC_CLASS_INVITE][OVC_V_ADMITTED]),
			&last_adm);
	dt = last > 0 ? (double)(t->now - last) / 1e9 : 0;
	last = t->now;
	if(!(dt > 0))
		return;
	lock_get(&ovc->lock);
	p = ovc->params.memguard;
	lock_release(&ovc->lock);
	if(!(p.high > 0)) { /* off: no read of the allocator */
		ovc_dstore(&mg->cap, 1.0);
		capping = 0;
		return;
	}
	shm_info(&mi);
	total = (double)mi.total_size;
	used = total - (double)mi.free_size;
	atomic_store(&mg->real, (uint64_t)used);
	cap = ovc_memguard_step(
			&guard, &p, used, total, (double)adm, (double)off, dt);
	ovc_dstore(&mg->k, guard.k);
	ovc_dstore(&mg->rate_max, guard.rate_max);
	ovc_dstore(&mg->base, guard.base);
	ovc_dstore(&mg->cap, cap);
	if(cap < 1) {
		atomic_fetch_add(&mg->capped_ms, (uint64_t)llround(dt * 1000));
		say_capping(&p, total);
	}
	capping = cap < 1;
}

/* ovc.stats "mem_guard". */
static void memguard_stats(rpc_t *rpc, void *ctx, void *th)
{
	void *h;
	double rm = ovc_dload(&mg->rate_max);

	if(rpc->struct_add(th, "{", "mem_guard", &h) < 0)
		return;
	rpc->struct_add(h, "fJJJfJ", "cap", ovc_dload(&mg->cap), "in_use",
			(unsigned long long)atomic_load(&mg->real), "base",
			(unsigned long long)llround(ovc_dload(&mg->base)),
			"held_per_call_s",
			(unsigned long long)llround(ovc_dload(&mg->k)), "rate_max",
			rm, "capped_ms",
			(unsigned long long)atomic_load(&mg->capped_ms));
}

/* ovc.reset */
static void memguard_reset(void)
{
	atomic_store(&mg->capped_ms, 0);
}

/* mod_destroy */
static void memguard_destroy(void)
{
	if(mg != NULL)
		shm_free(mg);
	mg = NULL;
}

double ovc_memguard_cap(void)
{
	return mg != NULL ? ovc_dload(&mg->cap) : 1.0;
}

const struct ovc_part ovc_part_memguard = {
		.name = "memory guard",
		.init = memguard_init,
		.sample = memguard_sample,
		.stats = memguard_stats,
		.reset = memguard_reset,
		.destroy = memguard_destroy,
};
