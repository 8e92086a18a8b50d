/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the kernel's receive queue as a part (ovc_part.h): the listening
 * sockets sized before the fork, sampled by the ticker, their columns of
 * the per-second row and the "rxq" block of ovc.stats.
 */
#include <string.h>

#include "core/mem/shm_mem.h"
#include "core/pt.h"
#include "core/sr_module.h"

#include "ovc_modparams.h"
#include "ovc_onset.h"
#include "ovc_part.h"
#include "ovc_rxq.h"
#include "ovc_rxq_state.h"
#include "ovc_rxq_size.h"
#include "ovc_sampler.h"
#include "ovc_shm.h"

/* cumulative kernel drops at each second's end (ticker only) */
static struct ovc_row_delta drops;

struct ovc_rxq_state *ovc_rxq_st;

/* mod_init: the shared block. */
static int rxq_init(const struct ovc_params *p)
{
	ovc_rxq_st = shm_malloc(sizeof(*ovc_rxq_st));
	if(ovc_rxq_st == NULL) {
		SHM_MEM_ERROR;
		return -1;
	}
	memset(ovc_rxq_st, 0, sizeof(*ovc_rxq_st));
	return 0;
}

/* mod_destroy */
static void rxq_destroy(void)
{
	if(ovc_rxq_st != NULL)
		shm_free(ovc_rxq_st);
	ovc_rxq_st = NULL;
}

void ovc_rxq_set_sample_ms(unsigned ms)
{
	atomic_store(&ovc_rxq_st->sample_ms, ms);
}

/* PROC_INIT: the sockets are open, not yet shared by forked processes. */
static int rxq_child_init(int rank)
{
	return rank == PROC_INIT ? ovc_rxq_apply() : 0;
}

/* Ticker start: drops are counted from here. */
static void rxq_start(const struct ovc_tick *t)
{
	ovc_row_delta_start(&drops, atomic_load(&ovc_rxq_st->drops));
}

/* Each sample: the queues now, and the UDP buffers sized for the age
 * limit in force (the onset part, before this one, published it). */
static void rxq_sample(const struct ovc_tick *t)
{
	ovc_rxq_sample(t->now, t->rxq);
	ovc_rxq_size_udp(ovc_onset_max_age_ms(0));
}

static void rxq_second_end(
		const struct ovc_tick *t, int64_t sec, struct ovc_row *row)
{
	row->rx_queue_bytes = atomic_load(&ovc_rxq_st->bytes);
	row->rx_queue_msgs = row->rx_queue_bytes / OVC_RXQ_MSG_BYTES;
	row->rx_queue_wait_ms = ovc_dload(&ovc_rxq_st->wait_ms);
	row->rx_drain_msgs_s = ovc_dload(&ovc_rxq_st->drain);
	ovc_rxq_sample_conns(t->now); /* the connections, once per second */
	row->tcp_rx_bytes = atomic_load(&ovc_rxq_st->tcp_bytes);
	ovc_row_delta_end(&drops, sec, atomic_load(&ovc_rxq_st->drops));
	row->guard_f = ovc_dload(&ovc->rxq_guard_f);
	row->rcvbuf_bytes = atomic_load(&ovc_rxq_st->limit);
}

/* Closing second sec: the kernel's drops during it. */
static void rxq_second_close(int64_t sec, struct ovc_row *row)
{
	row->rx_drops = ovc_row_delta_of(&drops, sec);
}

/* ovc.stats "rxq": the overload evidence and the settings in force
 * (derived where the parameters say auto), then the receive queue of the
 * listening sockets (issue 9). */
static void rxq_stats(rpc_t *rpc, void *ctx, void *th)
{
	void *h;
	double cap = ovc_dload(&ovc->rxq_guard_f);
	struct ovc_onset_view o;

	if(rpc->struct_add(th, "{", "rxq", &h) < 0)
		return;
	ovc_onset_view(&o);
	rpc->struct_add(h, "dJfffdffd", "overload", o.overload, "onsets",
			(unsigned long long)o.onsets, "onset_ms", o.onset_ms,
			"onset_enter_ms", o.enter_ms, "stall_ms", o.stall_ms,
			"rcvbuf_udp_msgs", ovc_mp.rcvbuf_udp,
			"cpu_reject", ovc_sampler_cpu_reject(), "capacity_cps",
			ovc_dload(&ovc->capacity), "sample_ms",
			(int)atomic_load(&ovc_rxq_st->sample_ms));
	rpc->struct_add(h, "JJJffJJJJJJfffJJJJs", "rx_queue_bytes",
			(unsigned long long)atomic_load(&ovc_rxq_st->bytes),
			"rx_queue_msgs",
			(unsigned long long)(atomic_load(&ovc_rxq_st->bytes)
								 / OVC_RXQ_MSG_BYTES),
			"limit_bytes", (unsigned long long)atomic_load(&ovc_rxq_st->limit),
			"wait_ms", ovc_dload(&ovc_rxq_st->wait_ms), "drain_msgs_s",
			ovc_dload(&ovc_rxq_st->drain), "drops",
			(unsigned long long)atomic_load(&ovc_rxq_st->drops), "tcp_rx_bytes",
			(unsigned long long)atomic_load(&ovc_rxq_st->tcp_bytes),
			"tcp_backlog",
			(unsigned long long)atomic_load(&ovc_rxq_st->tcp_backlog),
			"rcvbuf_udp_bytes",
			(unsigned long long)atomic_load(&ovc_rxq_st->rcvbuf_udp),
			"rcvbuf_tcp_bytes",
			(unsigned long long)atomic_load(&ovc_rxq_st->rcvbuf_tcp), "mss_tcp",
			(unsigned long long)atomic_load(&ovc_rxq_st->mss_tcp), "guard_ms",
			o.guard_ms, "guard_f", cap, "f_effective", ovc_dload(&ovc->f_eff),
			"max_age_ms", (unsigned long long)o.max_age_ms, "age_rejects",
			(unsigned long long)atomic_load(
					&ovc->ev_total[OVC_E_AGE_REJECT]),
			"age_by_timestamp",
			(unsigned long long)atomic_load(&ovc_rxq_st->age_stamped),
			"age_by_estimate",
			(unsigned long long)atomic_load(&ovc_rxq_st->age_estimated),
			"drain_source", ovc_rxq_hooked ? "datagrams" : "requests");
	rpc->struct_add(h, "JJJ", "proc_reads",
			(unsigned long long)atomic_load(&ovc_rxq_st->proc_reads),
			"max_age_loaded_ms",
			(unsigned long long)o.age_loaded_ms,
			"late_rejects",
			(unsigned long long)atomic_load(
					&ovc->ev_total[OVC_E_LATE_REJECT]));
}

const struct ovc_part ovc_part_rxq = {
		.name = "receive queue",
		.init = rxq_init,
		.child_init = rxq_child_init,
		.start = rxq_start,
		.sample = rxq_sample,
		.second_end = rxq_second_end,
		.second_close = rxq_second_close,
		.stats = rxq_stats,
		.destroy = rxq_destroy,
};
