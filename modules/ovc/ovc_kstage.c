/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the kernel stage as a part (ovc_part.h, ovc_kstage.h): its maps
 * and program created in mod_init, while the process still has its
 * privileges (Kamailio drops root with -u/-g after mod_init, before
 * child_init(PROC_INIT)), attached to every UDP listening socket in
 * child_init(PROC_INIT), once the sockets exist (every process inherits
 * the descriptors at the fork); each epoch the ticker reads the kernel's
 * counters and sets the drop share from ovc_ksplit_step(); detached at
 * exit. Its columns of the per-second row, its block of ovc.stats and its
 * statistics.
 */
#include <stdio.h>
#include <string.h>

#include "core/dprint.h"
#include "core/mem/shm_mem.h"
#include "core/pt.h"
#include "core/socket_info.h"
#include "core/sr_module.h"

#include "ovc/emerg.h"
#include "ovc/fair.h"
#include "ovc/ksplit.h"
#include "ovc/kstage_scan.h"
#include "ovc/kstage_seen.h"

#include "ovc_kstage_bpf.h"
#include "ovc_fair.h"
#include "ovc_kstage.h"
#include "ovc_modparams.h"
#include "ovc_onset.h"
#include "ovc_part.h"
#include "ovc_rsoca.h"
#include "ovc_shm.h"

/* the split's fixed settings: half of the way to the target each window,
 * never every initial INVITE, a cost measured on >= 20 refusals, windows
 * of at least 200 ms (two CFS periods, as the onset's windows: a quota's
 * stall averages out in them; pi's 10 ms epochs are summed twenty at a
 * time, each of occ's 1 s epochs makes one) */
#define KS_WEIGHT 0.5
#define KS_MAX 0.98
#define KS_MIN_REFUSALS 20
#define KS_WINDOW_S 0.2

/* The kernel's counters kept. */
enum
{
	K_INVITES = 0,
	K_INITIAL,
	K_UNSURE,
	K_SPARED,
	K_DROPPED,
	K_COUNT
};

/* What every process sees. */
struct ks_shm
{
	_Atomic int sockets;			/* UDP sockets the filter is on */
	ovc_atomic_double share;		/* drop share in force */
	ovc_atomic_double target;		/* the split's unsmoothed share */
	ovc_atomic_double cost;			/* CPU per refusal, capacity x s */
	ovc_atomic_double afford;		/* 503s the budget pays for, /s */
	_Atomic uint64_t k[K_COUNT];	/* the kernel's counters since load */
	_Atomic uint64_t base[K_COUNT]; /* their values at the last ovc.reset */
	_Atomic int reset;				/* 1: the ticker takes a new base */
	_Atomic uint64_t pushes;		/* admitted calls put in the map */
	_Atomic uint64_t push_errors;	/* map updates that failed */
	ovc_atomic_double fair_pass;	/* (2) of ovc/fair.h at the level */
	char why[320];					/* why it is not attached ("" if it is) */
};

static struct ks_shm *ks;
static struct ovc_ksb ksb = {{-1, -1, -1, -1, -1, -1}, -1, 0, NULL, NULL, ""};
static int made;	/* this process holds the program and maps */
static int loaded; /* ... and the program is on the UDP sockets */

/* ticker only */
static struct ovc_ksplit split;
/* the kernel's last complete epoch, sorted for the fair share's level */
static struct ovc_fair_sorted *fair_sorted;
static uint64_t rejected_last;
/* INVITEs refused over this epoch: counted at each epoch's measure, with
 * the epoch's other counts, so that an epoch the controller skips (no CPU
 * reading) does not hand its refusals to the next one */
static uint64_t refused_epoch;
static struct ovc_row_delta drops; /* the stage's drops, per second */

/* The reason the stage may not act at all (NULL: it may). */
static const char *veto(void)
{
	const struct ovc_emerg *e = ovc_rsoca_emerg();

	if(!ovc_mp.kstage)
		return "modparam kstage=0";
	if(e != NULL && (e->n > 0 || e->priority))
		return "the emergency list is set, and the kernel cannot match it"
			   " (only emergency URNs pass there)";
	return NULL;
}

/* mod_init: creates the maps and loads the program, with the privileges
 * Kamailio starts with (root, or the capabilities systemd hands its
 * user: CAP_BPF and CAP_PERFMON). Failing, the reason stays in ks->why
 * and ovc works without the stage. */
static void create(void)
{
	const char *no = veto();

	if(no != NULL) {
		snprintf(ks->why, sizeof(ks->why), "%s", no);
		return;
	}
	ovc_ksb_init(&ksb);
	if(ovc_ksb_load(&ksb, OVC_KS_ADMITTED_MAX) < 0) {
		snprintf(ks->why, sizeof(ks->why), "%.300s", ksb.err);
		return;
	}
	made = 1;
}

static const struct ovc_onset_feed ks_feed;

static int ks_init(const struct ovc_params *p)
{
	ks = shm_malloc(sizeof(*ks));
	if(ks == NULL) {
		LM_ERR("no shared memory for the kernel stage\n");
		return -1;
	}
	memset(ks, 0, sizeof(*ks));
	create();
	ovc_onset_set_feed(&ks_feed);
	return 0;
}

static void detach_all(void)
{
	struct socket_info *si;

	for(si = udp_listen; si; si = si->next)
		if(si->socket >= 0)
			ovc_ksb_detach(si->socket);
}

/* Attaches the program made in mod_init to every UDP listener, then
 * checks that this process, with the privileges it keeps (Kamailio has
 * dropped root by now with -u), can still use the maps. Returns the
 * sockets attached, or -1 with the reason in ks->why and everything
 * closed. */
static int attach(void)
{
	struct ovc_ks_stats st;
	struct socket_info *si;
	int n = 0, rc;

	for(si = udp_listen; si; si = si->next) {
		if(si->socket < 0)
			continue;
		if(ovc_ksb_attach(&ksb, si->socket) < 0) {
			snprintf(ks->why, sizeof(ks->why), "%.*s:%d: %.200s", si->name.len,
					si->name.s, si->port_no, ksb.err);
			goto fail;
		}
		n++;
	}
	if(n == 0) {
		snprintf(ks->why, sizeof(ks->why), "no UDP listening socket");
		goto fail;
	}
	/* kernels before 6.5 refuse every bpf() call, map reads included,
	 * to a process without CAP_BPF while unprivileged BPF is disabled */
	rc = ovc_ksb_read(&ksb, &st);
	if(rc < 0) {
		snprintf(ks->why, sizeof(ks->why),
				"the maps cannot be read once Kamailio has dropped root"
				" (%s): run it as its user with the capabilities of"
				" kamailio-ovc-kstage.conf instead of -u",
				strerror(-rc));
		goto fail;
	}
	return n;
fail:
	detach_all();
	ovc_ksb_close(&ksb);
	made = 0;
	return -1;
}

/* PROC_INIT: the sockets are open, before the fork. */
static int ks_child_init(int rank)
{
	int n;

	if(rank != PROC_INIT)
		return 0;
	if(!made) {
		if(veto() != NULL)
			LM_NOTICE("kernel stage not attached: %s\n", ks->why);
		else
			LM_WARN("kernel stage not attached (ovc works as without it):"
					" %s\n",
					ks->why);
		return 0;
	}
	n = attach();
	if(n < 0) {
		LM_WARN("kernel stage not attached (ovc works as without it): %s\n",
				ks->why);
		return 0;
	}
	loaded = 1;
	atomic_store(&ks->sockets, n);
	LM_NOTICE("kernel stage attached to %d UDP socket(s): a socket filter"
			  " of %u instructions drops initial INVITEs past the 503"
			  " budget (%d %% of capacity)\n",
			n, ovc_ksb_insns(), ovc_mp.kstage_budget);
	return 0;
}

/* May the stage drop now? */
static int may_act(void)
{
	return loaded && ovc_overloaded() && !atomic_load(&ovc->dry_run)
		   && ovc_traits_now()->controlled != 0;
}

/* Initial INVITEs (retransmissions included) the stage's filter has seen
 * reach the host since it was attached, read from the kernel now (one
 * bpf() system call; the ticker only), or -1 when the stage is not
 * attached. For the overload test (ovc_onset.h). */
static long long ks_arrivals(void)
{
	struct ovc_ks_stats s;

	if(!loaded || ovc_ksb_read(&ksb, &s) < 0)
		return -1;
	return (long long)s.initial;
}

/* Each epoch, before the step: the kernel's counters and ovc's refusals. */
static void ks_measure(const struct ovc_tick *t, struct ovc_measure *m)
{
	uint64_t rej = atomic_load(&ovc->total.v[OVC_CLASS_INVITE][OVC_V_REJECTED]);
	struct ovc_ks_stats s;
	uint64_t v[K_COUNT];
	int i;

	if(!loaded)
		return;
	refused_epoch = rej >= rejected_last ? rej - rejected_last : rej;
	rejected_last = rej;
	if(ovc_ksb_read(&ksb, &s) < 0)
		return;
	v[K_INVITES] = s.invites;
	v[K_INITIAL] = s.initial;
	v[K_UNSURE] = s.unsure;
	v[K_SPARED] = s.spared;
	v[K_DROPPED] = s.dropped;
	for(i = 0; i < K_COUNT; i++) {
		if(atomic_load(&ks->reset))
			atomic_store(&ks->base[i], v[i]);
		atomic_store(&ks->k[i], v[i]);
	}
	atomic_store(&ks->reset, 0);
}

/* The fair share in the kernel (ovc/fair.h on the filter's own sketch):
 * the level at which the drop share comes from the heaviest sources, or
 * none (every call alike) when the fair share is off or has no counts. */
static void fair_level(double share)
{
	double pass;

	if(ksb.fair == NULL)
		return;
	if(ovc_fair_state() == NULL || fair_sorted == NULL) {
		ksb.fair->level = OVC_FAIR_ALL;
		return;
	}
	ksb.fair->level = ovc_fair_level(fair_sorted, share, &pass);
	ovc_dstore(&ks->fair_pass, pass);
}

/* Each epoch, after the step: the split, and the share into the map. */
static void ks_apply(const struct ovc_ctl *ctl, const struct ovc_measure *m,
		const struct ovc_output *out)
{
	struct ovc_ksplit_params p = {ovc_mp.kstage_budget / 100.0, KS_WEIGHT,
			KS_MAX, KS_MIN_REFUSALS, KS_WINDOW_S};
	struct ovc_ksplit_in in;
	double share;

	if(!loaded)
		return;
	in.dt_s = m->dt_s;
	in.offered = m->offered[OVC_CLASS_INVITE];
	in.admitted = m->admitted[OVC_CLASS_INVITE];
	in.refused = refused_epoch;
	in.cpu_reject = m->cpu_reject;
	in.may_act = may_act();
	share = ovc_ksplit_step(&split, &p, &in);
	fair_level(share);
	if(share != ovc_dload(&ks->share)
			&& ovc_ksb_set_share(&ksb, (uint64_t)(share * OVC_KS_ONE)) < 0)
		return; /* kept: the next epoch tries again */
	ovc_dstore(&ks->share, share);
	ovc_dstore(&ks->target, split.target);
	ovc_dstore(&ks->cost, split.cost);
	ovc_dstore(&ks->afford, split.affordable);
}

static uint64_t since_reset(int i)
{
	uint64_t v = atomic_load(&ks->k[i]), b = atomic_load(&ks->base[i]);

	return v >= b ? v - b : v;
}

static void ks_start(const struct ovc_tick *t)
{
	ovc_ksplit_init(&split);
	if(loaded && ovc_fair_state() != NULL) {
		fair_sorted = pkg_malloc(sizeof(*fair_sorted));
		if(fair_sorted != NULL)
			memset(fair_sorted, 0, sizeof(*fair_sorted));
	}
	rejected_last =
			atomic_load(&ovc->total.v[OVC_CLASS_INVITE][OVC_V_REJECTED]);
	ovc_row_delta_start(&drops, atomic_load(&ks->k[K_DROPPED]));
}

static void ks_second_end(
		const struct ovc_tick *t, int64_t sec, struct ovc_row *row)
{
	if(loaded && ksb.fair != NULL && fair_sorted != NULL) {
		/* the filter's epoch: the next copy, cleared, counts */
		unsigned next = (ksb.fair->copy + 1) % OVC_FAIR_COPIES;

		memset(ksb.fair->sk.c[next], 0, sizeof(ksb.fair->sk.c[next]));
		__atomic_store_n(&ksb.fair->copy, next, __ATOMIC_RELEASE);
		ovc_fair_sort(ksb.fair->sk.c[ovc_fair_prev(next)][0], fair_sorted);
	}
	row->kstage_share = ovc_dload(&ks->share);
	ovc_row_delta_end(&drops, sec, atomic_load(&ks->k[K_DROPPED]));
}

static void ks_second_close(int64_t sec, struct ovc_row *row)
{
	row->kstage_drops = ovc_row_delta_of(&drops, sec);
}

/* ovc.stats "kstage". */
static void ks_stats(rpc_t *rpc, void *ctx, void *th)
{
	void *h;

	if(rpc->struct_add(th, "{", "kstage", &h) < 0)
		return;
	rpc->struct_add(h, "sdsdffffJJJJJJJdf", "state",
			loaded ? "attached" : "off",
			"sockets", atomic_load(&ks->sockets), "why", ks->why, "budget_pct",
			ovc_mp.kstage_budget, "share", ovc_dload(&ks->share), "target",
			ovc_dload(&ks->target), "cost_per_refusal_us",
			ovc_dload(&ks->cost) * 1e6, "affordable_per_s",
			ovc_dload(&ks->afford), "invites",
			(unsigned long long)since_reset(K_INVITES), "initial",
			(unsigned long long)since_reset(K_INITIAL), "unsure",
			(unsigned long long)since_reset(K_UNSURE), "spared",
			(unsigned long long)since_reset(K_SPARED), "dropped",
			(unsigned long long)since_reset(K_DROPPED), "pushes",
			(unsigned long long)atomic_load(&ks->pushes), "push_errors",
			(unsigned long long)atomic_load(&ks->push_errors), "fair_level",
			ksb.fair == NULL || ksb.fair->level == OVC_FAIR_ALL
					? -1
					: (int)ksb.fair->level,
			"fair_pass", ovc_dload(&ks->fair_pass));
}

static void ks_reset(void)
{
	atomic_store(&ks->pushes, 0);
	atomic_store(&ks->push_errors, 0);
	atomic_store(&ks->reset, 1);
}

static void ks_destroy(void)
{
	if(loaded)
		detach_all();
	if(made)
		ovc_ksb_close(&ksb);
	loaded = made = 0;
	if(ks != NULL)
		shm_free(ks);
	ks = NULL;
}

static uint32_t now_ms(void)
{
	return (uint32_t)(ovc_now_ns() / 1000000);
}

int64_t ovc_kstage_call_age_ns(const char *buf, size_t len, uint64_t *key)
{
	long long age;

	if(!loaded)
		return -1;
	if(*key == 0)
		*key = ovc_ks_call_key(buf, len);
	if(*key == 0)
		return -1;
	age = ovc_ksb_seen_age_ms(&ksb, *key, now_ms());
	return age < 0 ? -1 : (int64_t)age * 1000000;
}

void ovc_kstage_admitted(const char *buf, size_t len, uint64_t key)
{
	if(!loaded)
		return;
	if(key == 0)
		key = ovc_ks_call_key(buf, len);
	if(key == 0)
		return; /* the filter passes it anyway */
	ovc_ksb_seen_admit(&ksb, key, now_ms());
	if(ovc_ksb_admit(&ksb, key, (uint32_t)ovc_now_sec_coarse()) < 0)
		atomic_fetch_add_explicit(&ks->push_errors, 1, memory_order_relaxed);
	else
		atomic_fetch_add_explicit(&ks->pushes, 1, memory_order_relaxed);
}

unsigned long long ovc_kstage_dropped(void)
{
	return ks != NULL ? (unsigned long long)since_reset(K_DROPPED) : 0;
}

double ovc_kstage_share(void)
{
	return ks != NULL ? ovc_dload(&ks->share) : 0;
}

/* Does the stage hold an overload? 1 while it drops calls (share in
 * force above 0) because the last epoch's refusals exceeded what the 503
 * budget pays for (the split's target above 0): the drops empty the
 * receive queue the overload is judged by, and are its evidence then
 * (ovc_onset.h). 0 once the refusals fit the budget (the share then
 * decays and the queues decide). */
static int ks_holds(void)
{
	return ks != NULL && ovc_dload(&ks->share) > 0
		   && ovc_dload(&ks->target) > 0;
}

/* What the stage tells the overload test. */
static const struct ovc_onset_feed ks_feed = {
		.arrivals = ks_arrivals,
		.holds = ks_holds,
};

const struct ovc_part ovc_part_kstage = {
		.name = "kernel stage",
		.init = ks_init,
		.child_init = ks_child_init,
		.start = ks_start,
		.measure = ks_measure,
		.apply = ks_apply,
		.second_end = ks_second_end,
		.second_close = ks_second_close,
		.stats = ks_stats,
		.reset = ks_reset,
		.destroy = ks_destroy,
};
