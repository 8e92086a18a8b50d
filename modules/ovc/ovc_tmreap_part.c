/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - R-SOCA memory control as a part (ovc_part.h; see ovc_tmreap.h):
 * set up in mod_init, the reaper forked from the main process, memory in
 * use for the controller at each epoch, the memory and reaped_* columns
 * of the per-second row, and the "rsoca_mem" block of ovc.stats.
 */
#include <math.h>

#include "core/pt.h"
#include "core/sr_module.h"

#include "ovc/agering.h"

#include "ovc_part.h"
#include "ovc_reaper.h"
#include "ovc_sampler.h"
#include "ovc_tmreap.h"

static int tmreap_init(const struct ovc_params *p)
{
	return ovc_tmreap_init(p->memctl.source);
}

/* The reaper, when tm is loaded. */
static int tmreap_procs(void)
{
	return ovc_tr_tm_ok ? 1 : 0;
}

static int tmreap_child_init(int rank)
{
	return rank == PROC_MAIN ? ovc_reaper_fork() : 0;
}

/* Each epoch: the shared memory the sampler read, memory in use against
 * M_min/M_max (published), and m->mem, the memory occupancy for the
 * R-SOCA controller (its fraction thresholds rsoca.mmin/mmax stand for
 * M_min/M_max); shm used/total when the thresholds cannot be derived. */
static void tmreap_measure(const struct ovc_tick *t, struct ovc_measure *m)
{
	uint64_t used = ovc_sampler_mem_used();
	uint64_t total = ovc_sampler_mem_total();
	struct ovc_params p;
	struct ovc_tr_meas tm;

	atomic_store(&ovc_tr->shm_used, used);
	atomic_store(&ovc_tr->shm_total, total);
	ovc_tr_params(&p);
	ovc_tr_measure(&p, &tm);
	if(tm.ok)
		m->mem = tm.frac;
	else
		m->mem = total ? (double)used / (double)total : 0;
}

/* End of a second: the memory figures in force (mem_in_use, mem_min,
 * mem_max, live_transactions). */
static void tmreap_second_end(
		const struct ovc_tick *t, int64_t sec, struct ovc_row *row)
{
	row->mem_in_use = ovc_dload(&ovc_tr->in_use);
	row->mem_min = ovc_dload(&ovc_tr->mmin);
	row->mem_max = ovc_dload(&ovc_tr->mmax);
	row->live_transactions = (uint64_t)ovc_tr_live_total();
}

/* Closing second sec: its ended transactions, into reaped_*. */
static void tmreap_second_close(int64_t sec, struct ovc_row *row)
{
	int c;

	for(c = 0; c < OVC_CLASS_COUNT; c++)
		row->reaped[c] =
				atomic_exchange(&ovc_tr->ended_slot[sec % OVC_SLOTS][c], 0);
}

/* ovc.reset: the ended-transaction totals. */
static void tmreap_reset(void)
{
	int c;

	if(ovc_tr == NULL)
		return;
	for(c = 0; c < OVC_CLASS_COUNT; c++)
		atomic_store(&ovc_tr->ended[c], 0);
	atomic_store(&ovc_tr->skipped, 0);
	atomic_store(&ovc_tr->passes, 0);
}

/* A size in bytes as an integer (0 for negative or NaN values). */
static unsigned long long bytes(double v)
{
	return v > 0 ? (unsigned long long)llround(v) : 0;
}

/* ovc.stats "rsoca_mem". */
static void tmreap_stats(rpc_t *rpc, void *ctx, void *th)
{
	static const char *src_names[] = {"shm", "transactions", "both"};
	struct ovc_params p;
	void *h, *hl, *he, *ha;
	uint64_t untracked = 0;
	int c, src, su;

	if(rpc->struct_add(th, "{", "rsoca_mem", &h) < 0)
		return;
	ovc_tr_params(&p);
	src = p.memctl.source <= 2 ? (int)p.memctl.source : 0;
	su = atomic_load(&ovc_tr->source_used);
	rpc->struct_add(h, "ssddJJJfJJJ", "source", src_names[src],
			"source_used", src_names[su >= 0 && su <= 2 ? su : 0], "tm",
			ovc_tr_tm_ok ? 1 : 0, "reap", (int)p.memctl.reap, "mem_in_use",
			bytes(ovc_dload(&ovc_tr->in_use)), "mem_min",
			bytes(ovc_dload(&ovc_tr->mmin)), "mem_max",
			bytes(ovc_dload(&ovc_tr->mmax)),
			"p_mem", ovc_dload(&ovc_tr->p_mem),
			"above_min", (unsigned long long)atomic_load(&ovc_tr->active),
			"reap_passes", (unsigned long long)atomic_load(&ovc_tr->passes),
			"skipped", (unsigned long long)atomic_load(&ovc_tr->skipped));
	if(rpc->struct_add(h, "{", "live", &hl) < 0
			|| rpc->struct_add(h, "{", "ended", &he) < 0
			|| rpc->struct_add(h, "{", "age_limit_ms", &ha) < 0)
		return;
	for(c = 0; c < OVC_CLASS_COUNT; c++) {
		int64_t l = atomic_load(&ovc_tr->live[c]);

		rpc->struct_add(hl, "J", ovc_class_name(c),
				(unsigned long long)(l > 0 ? l : 0));
		rpc->struct_add(he, "J", ovc_class_name(c),
				(unsigned long long)atomic_load(&ovc_tr->ended[c]));
		rpc->struct_add(ha, "J", ovc_class_name(c),
				(unsigned long long)ovc_memctl_age_limit_ms(&p.memctl, c));
	}
	for(c = 0; ovc_tr_tm_ok && c < OVC_CLASS_COUNT; c++)
		untracked += atomic_load(&ovc_tr->ring[c]->untracked);
	rpc->struct_add(h, "J", "untracked", (unsigned long long)untracked);
}

const struct ovc_part ovc_part_tmreap = {
		.name = "tm reaper",
		.init = tmreap_init,
		.procs = tmreap_procs,
		.child_init = tmreap_child_init,
		.measure = tmreap_measure,
		.second_end = tmreap_second_end,
		.second_close = tmreap_second_close,
		.stats = tmreap_stats,
		.reset = tmreap_reset,
		.destroy = ovc_tmreap_destroy,
};
