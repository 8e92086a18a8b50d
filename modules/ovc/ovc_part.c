/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the parts in order, and the loops over their hooks (see
 * ovc_part.h). The order is the order of everything: the sampler first
 * (memory and CPU, which later parts read), the shared-memory guard
 * (its cap on the admission), the onset before the receive
 * queue, and the blocks of ovc.stats as they appear (mem_guard, queue,
 * rxq, rsoca, rsoca_mem, network, kstage, fair); the queue is destroyed before R-SOCA, whose
 * reply it uses. The fast path (its shared block and ovc.reset of its
 * counts) is last: its block of ovc.stats is the RPC's own.
 */
#include "core/dprint.h"

#include "ovc_part.h"

const struct ovc_part *const ovc_parts[] = {
		&ovc_part_sampler,
		&ovc_part_memguard,
		&ovc_part_onset,
		&ovc_part_queue,
		&ovc_part_rxq,
		&ovc_part_rsoca,
		&ovc_part_tmreap,
		&ovc_part_network,
		&ovc_part_kstage,
		&ovc_part_fair,
		&ovc_part_fastpath,
		NULL,
};

#define EACH(p) for(const struct ovc_part *const *p = ovc_parts; *p; p++)

int ovc_parts_init(const struct ovc_params *params)
{
	EACH(p)
	{
		if((*p)->init && (*p)->init(params) < 0) {
			LM_ERR("cannot initialise ovc's %s\n", (*p)->name);
			ovc_parts_destroy();
			return -1;
		}
	}
	return 0;
}

int ovc_parts_procs(void)
{
	int n = 0;

	EACH(p)
	{
		if((*p)->procs)
			n += (*p)->procs();
	}
	return n;
}

int ovc_parts_child_init(int rank)
{
	EACH(p)
	{
		if((*p)->child_init && (*p)->child_init(rank) < 0)
			return -1;
	}
	return 0;
}

void ovc_parts_start(const struct ovc_tick *t)
{
	EACH(p)
	{
		if((*p)->start)
			(*p)->start(t);
	}
}

void ovc_parts_sample(const struct ovc_tick *t)
{
	EACH(p)
	{
		if((*p)->sample)
			(*p)->sample(t);
	}
}

void ovc_parts_measure(const struct ovc_tick *t, struct ovc_measure *m)
{
	EACH(p)
	{
		if((*p)->measure)
			(*p)->measure(t, m);
	}
}

void ovc_parts_apply(const struct ovc_ctl *ctl, const struct ovc_measure *m,
		const struct ovc_output *out)
{
	EACH(p)
	{
		if((*p)->apply)
			(*p)->apply(ctl, m, out);
	}
}

void ovc_parts_second_end(
		const struct ovc_tick *t, int64_t sec, struct ovc_row *row)
{
	EACH(p)
	{
		if((*p)->second_end)
			(*p)->second_end(t, sec, row);
	}
}

void ovc_parts_second_close(int64_t sec, struct ovc_row *row)
{
	EACH(p)
	{
		if((*p)->second_close)
			(*p)->second_close(sec, row);
	}
}

void ovc_parts_stats(rpc_t *rpc, void *ctx, void *th)
{
	EACH(p)
	{
		if((*p)->stats)
			(*p)->stats(rpc, ctx, th);
	}
}

void ovc_parts_reset(void)
{
	EACH(p)
	{
		if((*p)->reset)
			(*p)->reset();
	}
}

void ovc_parts_destroy(void)
{
	EACH(p)
	{
		if((*p)->destroy)
			(*p)->destroy();
	}
}
