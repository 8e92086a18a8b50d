/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - overload control between servers as a part (ovc_part.h; see
 * ovc_nexthop.h): the shared state and hooks set up in mod_init, the
 * server's loop stepped every OVC_OCLOOP_PERIOD_MS (at the receive-queue
 * sample that ends it) from the INVITEs its controller admitted, a new
 * announcement each receive-queue sample, the network columns of the
 * per-second row, the "network" block of ovc.stats and the RPC ovc.dst.
 */
#include <limits.h>

#include "core/dprint.h"
#include "core/locking.h"
#include "core/timer.h"

#include "ovc_nexthop.h"
#include "ovc_nexthop_part.h"
#include "ovc_onset.h"
#include "ovc_part.h"
#include "ovc_sampler.h"

/* Each second in the timer process that runs module timers: tm's
 * retransmissions are sent from there (ovc_net_hook_out()). */
static void hook_timer(unsigned int ticks, void *param)
{
	ovc_net_hook_out();
}

static int net_init(const struct ovc_params *p)
{
	if(ovc_net_init() < 0)
		return -1;
	if(ovc_net->hooked && register_timer(hook_timer, NULL, 1) < 0) {
		LM_ERR("network: no timer for the hook on what Kamailio sends\n");
		return -1;
	}
	return 0;
}

/* The occupancy the loop aims at when the local controller steers no CPU
 * occupancy (the default target of the CPU-driven ones, occ's). */
#define LOOP_TARGET_DEFAULT 0.9

/* The occupancy the local controller aims at (its descriptor's CPU
 * target), else LOOP_TARGET_DEFAULT. */
static double target_now(void)
{
	double target;

	lock_get(&ovc->lock);
	target = ovc_alg_cpu_target(
			(enum ovc_alg)atomic_load(&ovc->alg), &ovc->params);
	lock_release(&ovc->lock);
	return target > 0 && target <= 1 ? target : LOOP_TARGET_DEFAULT;
}

/* At now, once a loop period has passed since its last step: the loop
 * steps on the share of initial INVITEs the controller admitted over the
 * period, the receive queue clogged when its age limit refused more of
 * them than were admitted. */
static void loop_step(ovc_time_ns now)
{
	struct ovc_net *n = ovc_net;
	uint64_t off = atomic_load(&ovc->total.v[OVC_CLASS_INVITE][OVC_V_OFFERED]);
	uint64_t adm = atomic_load(&ovc->total.v[OVC_CLASS_INVITE][OVC_V_ADMITTED]);
	uint64_t aged = atomic_load(&ovc->ev_total[OVC_E_AGE_REJECT]);
	double x = -1, a, dt, target;
	int clogged = 0;

	if(n->last_step > 0
			&& now - n->last_step < OVC_OCLOOP_PERIOD_MS * OVC_NS_PER_MS)
		return;
	dt = n->last_step > 0 && now > n->last_step
				 ? (double)(now - n->last_step) / 1e9
				 : 0;
	target = target_now();
	/* a reset makes the totals go back: that period is not judged */
	if(dt > 0 && off > n->last_offered && adm >= n->last_admitted
			&& aged >= n->last_aged) {
		x = ovc_ocloop_x((double)(off - n->last_offered) / dt,
				(double)(adm - n->last_admitted) / dt,
				ovc_dload(&ovc->capacity), target);
		clogged = aged - n->last_aged > adm - n->last_admitted;
	}
	n->last_offered = off;
	n->last_admitted = adm;
	n->last_aged = aged;
	n->last_step = now;
	a = ovc_ocloop_step(&n->loop, x, ovc_overloaded(), clogged,
			ovc_sampler_cpu_1s(), target, dt);
	ovc_dstore(&n->a, a);
	ovc_dstore(&n->exact, ovc_ocloop_exact(&n->loop));
	atomic_store(&n->engaged, n->loop.engaged);
}

static void net_sample(const struct ovc_tick *t)
{
	loop_step(t->now);
	/* what e2e announces with each response: computed here, once a
	 * sample, not for each response */
	ovc_dstore(&ovc_net->path, ovc_nh_path_reduction(&ovc_net->nh, t->now));
	ovc_net_publish();
}

/* End of a second: the network columns. */
static void net_second_end(
		const struct ovc_tick *t, int64_t sec, struct ovc_row *row)
{
	struct ovc_net *n = ovc_net;

	ovc_nh_second(&n->nh);
	ovc_net_second(t->now);
	row->oc_reduction = ovc_ocloop_exact(&n->loop);
	row->dst_reduction_max = 100.0 * ovc_nh_max_reduction(&n->nh, ovc_now_ns());
}

/* ovc.stats "network". */
static void net_stats(rpc_t *rpc, void *ctx, void *th)
{
	uint64_t oc = atomic_load(&ovc_net->oc);
	void *h;

	if(rpc->struct_add(th, "{", "network", &h) < 0)
		return;
	rpc->struct_add(h, "sdddffddJJfJJ", "mode", ovc_net_mode_name(),
			"hooked", ovc_net->hooked, "oc_in_use",
			atomic_load(&ovc_net->oc_in_use), "offering",
			atomic_load(&ovc_net->offering), "reduction_exact",
			ovc_dload(&ovc_net->exact), "share_asked", ovc_dload(&ovc_net->a),
			"announced", (int)ovc_nh_packed_reduction(oc), "engaged",
			atomic_load(&ovc_net->engaged), "next_hops",
			(unsigned long long)ovc_nh_count(&ovc_net->nh), "oc_seq",
			(unsigned long long)ovc_nh_packed_seq(oc), "path_reduction",
			100.0 * ovc_dload(&ovc_net->path), "next_hops_evicted",
			(unsigned long long)atomic_load(&ovc_net->nh.evicted),
			"oc_unverified",
			(unsigned long long)atomic_load(&ovc_net->unverified));
}

/* ovc.reset: the next hops' counts. */
static void net_reset(void)
{
	if(ovc_net != NULL)
		ovc_nh_reset_counts(&ovc_net->nh);
}

const char *ovc_rpc_dst_doc[2] = {
		"Lists every next hop that sent RFC 7339 feedback: its reduction"
		" in force (percent), validity left (ms), oc-seq, feedback values"
		" taken, requests passed and refused, refused in the last second.",
		0};

void ovc_rpc_dst(rpc_t *rpc, void *ctx)
{
	ovc_time_ns now = ovc_now_ns();
	char seq[32];
	unsigned i;

	for(i = 0; ovc_net != NULL && i < ovc_nh_count(&ovc_net->nh); i++) {
		const struct ovc_nexthop *h = ovc_nh_at(&ovc_net->nh, i);
		struct ovc_nh_view v;
		int64_t left;
		void *th;

		if(h == NULL)
			continue;
		ovc_nh_view(h, now, &v);
		left = v.reduction > 0 ? v.left_ms : 0;
		if(left > INT_MAX)
			left = INT_MAX;
		ovc_oc_seq_print(v.seq, seq, sizeof(seq));
		if(rpc->add(ctx, "{", &th) < 0)
			return;
		rpc->struct_add(th, "sfdsJJJJ", "hop", h->key, "reduction",
				(double)v.reduction, "validity_ms", (int)left, "seq", seq,
				"feedbacks", (unsigned long long)atomic_load(&h->feedbacks),
				"passed", (unsigned long long)atomic_load(&h->passed),
				"refused", (unsigned long long)atomic_load(&h->refused),
				"refused_1s", (unsigned long long)atomic_load(&h->refused_1s));
	}
}

const struct ovc_part ovc_part_network = {
		.name = "network",
		.init = net_init,
		.sample = net_sample,
		.second_end = net_second_end,
		.stats = net_stats,
		.reset = net_reset,
		.destroy = ovc_net_destroy,
};
