/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - overload evidence for the module (see ovc_onset.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/dprint.h"
#include "core/mem/shm_mem.h"

#include "ovc/derive.h"
#include "ovc/onset.h"

#include "ovc_onset.h"
#include "ovc_part.h"
#include "ovc_sampler.h"
#include "ovc_shm.h"

/* "no INVITE in this window" */
#define NONE_SEEN UINT64_MAX

/* What every process sees: the overload state and the receive-queue
 * settings in force, allocated in shared memory at mod_init (before the
 * fork). The ticker writes them, the request path notes its waits and
 * reads the age limit; atomics only, no lock. */
struct onset_shm
{
	_Atomic int overload;		 /* 1: evident, the controllers act */
	_Atomic uint64_t onsets;	 /* transitions to overload */
	_Atomic uint64_t rx_min_ns;	 /* least receive-queue age of an initial
									INVITE in this window */
	_Atomic uint64_t q_min_ns;	 /* least in-core queue wait in it */
	_Atomic unsigned max_age_ms; /* rxq.max_age_ms in force (derived) */
	_Atomic unsigned age_loaded_ms; /* the age limit while overloaded
									   (ovc_derive_age_loaded()) */
	ovc_atomic_double guard_ms;		/* rxq.guard_ms in force (derived) */
	ovc_atomic_double onset_ms;		/* rxq.onset_ms in force (derived) */
	ovc_atomic_double enter_ms;		/* wait that starts an overload */
	ovc_atomic_double stall_ms;		/* CFS stall of the detected quota */
};

static struct onset_shm *os;

static struct ovc_onset onset;	/* ticker only */
static ovc_time_ns window_start; /* start of the open window, ns */
static uint64_t window_invites;	/* INVITEs offered by its start */
static unsigned window_epochs;	/* epochs noted in overload in it */
static unsigned window_held;	/* of those, held down by the controller */
static uint64_t window_waited;	/* INVITEs refused for their wait by then */
static long long window_arrivals; /* the kernel stage's arrivals by then,
									 -1: unknown */
static ovc_time_ns onset_at;	/* when the overload in force started, ns */
static const struct ovc_onset_feed *feed; /* the stage in front, or NULL */

void ovc_onset_set_feed(const struct ovc_onset_feed *f)
{
	feed = f;
}

/* The stage in front's arrivals so far, -1: unknown (or no stage). */
static long long feed_arrivals(void)
{
	return feed != NULL && feed->arrivals != NULL ? feed->arrivals() : -1;
}

/* Does the stage in front hold an overload? 0: no (or no stage). */
static int feed_holds(void)
{
	return feed != NULL && feed->holds != NULL && feed->holds();
}

void ovc_onset_note_rx(int64_t wait_ns)
{
	if(wait_ns >= 0)
		ovc_min_store(&os->rx_min_ns, (uint64_t)wait_ns);
}

void ovc_onset_note_queue(uint64_t wait_ns)
{
	ovc_min_store(&os->q_min_ns, wait_ns);
}

void ovc_onset_note_held(int held)
{
	window_epochs++;
	if(held)
		window_held++;
}

void ovc_onset_settings(
		const struct ovc_rxq_params *p, struct ovc_rxq_eff *eff)
{
	double stall = ovc_sampler_stall_ms();
	unsigned loaded;

	ovc_derive_rxq(p, stall, eff);
	if(p->max_age_ms < 0 && ovc_traits_now()->controlled == 0)
		eff->max_age_ms = 0;
	atomic_store(&os->max_age_ms, eff->max_age_ms);
	/* the limit while overloaded: the one given, else derived each epoch
	 * (onset_apply()), the limit below overload until then */
	loaded = atomic_load(&os->age_loaded_ms);
	if(p->max_age_ms >= 0 || loaded == 0 || loaded > eff->max_age_ms)
		atomic_store(&os->age_loaded_ms, eff->max_age_ms);
	ovc_dstore(&os->guard_ms, eff->guard_ms);
	ovc_dstore(&os->onset_ms, eff->onset_ms);
	ovc_dstore(&os->enter_ms, eff->enter_ms);
	ovc_dstore(&os->stall_ms, stall);
}

/* A wait of the window as text: ms, or "none" (no INVITE). */
static const char *wait_text(double ms, char *buf, int size)
{
	if(ms < 0)
		return "none";
	snprintf(buf, size, "%.1f ms", ms);
	return buf;
}

/* Logs a change of the overload state once, with its evidence: the least
 * waits of the window that decided it (rx: receive queue, q: in-core
 * queue beyond its target, least: the one judged, ms), the sign other
 * than a wait that decided it (why, NULL: none), the initial INVITEs that
 * reached the host in it against what the capacity learned serves (sg),
 * the CPU and f in force. */
static void log_change(int on, ovc_time_ns now, double rx, double q,
		double least, const char *why, const struct ovc_onset_signs *sg)
{
	char b1[32], b2[32], b3[32];
	const char *w = wait_text(least, b1, sizeof(b1));
	const char *wr = wait_text(rx, b2, sizeof(b2));
	const char *wq = wait_text(q, b3, sizeof(b3));
	double cpu = ovc_sampler_cpu(), f = ovc_dload(&ovc->f);

	if(on) {
		onset_at = now;
		LM_NOTICE("overload onset #%u: least wait %s (receive queue %s,"
				  " in-core queue %s)%s%s, %.0f initial INVITEs arrived"
				  " (-1: unknown) where the capacity serves %.0f, cpu %.3f,"
				  " f %.4f\n",
				onset.onsets, w, wr, wq, why ? ", " : "", why ? why : "",
				sg->arrived, sg->capacity, cpu, f);
		return;
	}
	LM_NOTICE("overload ended after %.1f s: least wait %s (receive queue"
			  " %s, in-core queue %s), cpu %.3f, f %.4f\n",
			onset_at ? (double)(now - onset_at) / 1e9 : 0.0, w, wr, wq, cpu, f);
}

/* Initial INVITEs refused so far for their wait in the receive queue (not
 * for their call's first sight: those go on after an overload). */
static uint64_t refused_for_wait(void)
{
	return atomic_load(&ovc->ev_total[OVC_E_AGE_REJECT])
		   - atomic_load(&ovc->ev_total[OVC_E_LATE_REJECT]);
}

/* Least wait noted in *m since the last call, ms (-1: none), reset. */
static double take_min_ms(_Atomic uint64_t *m)
{
	uint64_t v = atomic_exchange(m, NONE_SEEN);

	return v == NONE_SEEN ? -1.0 : (double)v / 1e6;
}

int ovc_onset_tick(ovc_time_ns now, const struct ovc_rxq_eff *eff,
		unsigned t1_ms, double queue_target_s)
{
	struct ovc_onset_cfg cfg;
	double win_ms, rx, q, least;
	struct ovc_onset_signs signs;
	uint64_t invites, waited;
	long long arrivals;
	double win_s;
	const char *why;
	int on;

	win_ms = ovc_derive_onset_window_ms(
			(double)ovc_sampler_cpu_period_ns() / 1e6);
	if(window_start == 0) {
		ovc_onset_init(&onset);
		window_start = now;
		atomic_store(&os->rx_min_ns, NONE_SEEN);
		atomic_store(&os->q_min_ns, NONE_SEEN);
		window_invites = atomic_load(
				&ovc->total.v[OVC_CLASS_INVITE][OVC_V_OFFERED]);
		window_waited = refused_for_wait();
		window_arrivals = feed_arrivals();
	}
	if((double)(now - window_start) < win_ms * 1e6)
		return atomic_load(&os->overload);
	rx = take_min_ms(&os->rx_min_ns);
	q = take_min_ms(&os->q_min_ns);
	invites = atomic_load(&ovc->total.v[OVC_CLASS_INVITE][OVC_V_OFFERED]);
	waited = refused_for_wait();
	arrivals = feed_arrivals();
	win_s = (double)(now - window_start) / 1e9;
	/* the in-core queue's own target is no evidence */
	if(q >= 0)
		q = fmax(q - queue_target_s * 1000.0, 0.0);
	least = fmax(rx, q); /* either queue holding everything back */
	/* the in-core queue (bbc, sired, pi) expires INVITEs before their wait
	 * reaches enter_ms: a wait there past its target by onset_ms starts an
	 * overload; a receive queue's burst is absorbed as for every other
	 * algorithm (issue 15: pi held a proxy at 0.9x after a 28 ms wait at
	 * its start) */
	cfg.enter_ms = eff->enter_ms;
	cfg.queue_enter_ms = eff->onset_ms;
	cfg.onset_ms = eff->onset_ms;
	cfg.hold_s = 2.0 * t1_ms / 1000.0;
	cfg.rearm_s = 64.0 * t1_ms / 1000.0;
	signs.invites = invites > window_invites;
	signs.kstage = feed_holds();
	signs.epochs = window_epochs;
	signs.held = window_held;
	signs.refused_for_wait = waited - window_waited;
	signs.arrived =
			arrivals >= 0 && window_arrivals >= 0 && arrivals >= window_arrivals
					? (double)(arrivals - window_arrivals)
					: -1;
	signs.capacity = ovc_dload(&ovc->capacity) * win_s;
	why = ovc_onset_sign(&onset, &cfg, &signs, least);
	window_invites = invites;
	window_waited = waited;
	window_arrivals = arrivals;
	window_epochs = 0;
	window_held = 0;
	/* a sign is evidence whatever the thresholds: INFINITY */
	on = ovc_onset_step(&onset, &cfg, why != NULL ? INFINITY : rx, q, win_s);
	if(ovc_onset_observing())
		on = 0; /* nothing is controlled, nothing to report (an age limit
				   set under none acts in overload) */
	window_start = now;
	if(on != atomic_exchange(&os->overload, on))
		log_change(on, now, rx, q, least, why, &signs);
	atomic_store(&os->onsets, onset.onsets);
	return on;
}

int ovc_onset_observing(void)
{
	return ovc_traits_now()->controlled == 0
		   && atomic_load(&os->max_age_ms) == 0;
}

int ovc_overloaded(void)
{
	return os != NULL
		   && atomic_load_explicit(&os->overload, memory_order_relaxed);
}

unsigned ovc_onset_max_age_ms(int loaded)
{
	if(os == NULL)
		return 0;
	return atomic_load_explicit(loaded ? &os->age_loaded_ms : &os->max_age_ms,
			memory_order_relaxed);
}

double ovc_onset_guard_ms(void)
{
	return os != NULL ? ovc_dload(&os->guard_ms) : 0;
}

double ovc_onset_stall_ms(void)
{
	return os != NULL ? ovc_dload(&os->stall_ms) : 0;
}

void ovc_onset_view(struct ovc_onset_view *v)
{
	memset(v, 0, sizeof(*v));
	if(os == NULL)
		return;
	v->overload = atomic_load(&os->overload);
	v->onsets = atomic_load(&os->onsets);
	v->max_age_ms = atomic_load(&os->max_age_ms);
	v->age_loaded_ms = atomic_load(&os->age_loaded_ms);
	v->guard_ms = ovc_dload(&os->guard_ms);
	v->onset_ms = ovc_dload(&os->onset_ms);
	v->enter_ms = ovc_dload(&os->enter_ms);
	v->stall_ms = ovc_dload(&os->stall_ms);
}

/* ------------------------------------------------ the part */

/* mod_init: the shared block, and the derived receive-queue settings in
 * force from the start. */
static int onset_init(const struct ovc_params *p)
{
	struct ovc_rxq_eff eff;

	os = shm_malloc(sizeof(*os));
	if(os == NULL) {
		SHM_MEM_ERROR;
		return -1;
	}
	memset(os, 0, sizeof(*os));
	ovc_onset_settings(&p->rxq, &eff);
	return 0;
}

/* mod_destroy */
static void onset_destroy(void)
{
	if(os != NULL)
		shm_free(os);
	os = NULL;
}

/* INVITEs refused for their wait by the last epoch (ticker only) */
static uint64_t epoch_waited;

/* Each epoch: the INVITEs refused for their wait since the last, under a
 * CPU quota (the CPU-driven loops hold f while there are some:
 * ovc_ctl_step()); 0 without a quota. */
static void onset_measure(const struct ovc_tick *t, struct ovc_measure *m)
{
	uint64_t w = refused_for_wait();

	m->age_refused = ovc_sampler_stall_ms() > 0 && w > epoch_waited
							 ? (double)(w - epoch_waited)
							 : 0;
	epoch_waited = w;
}

/* the rxq.* parameters in force at the last sample (ticker only) */
static const struct ovc_rxq_params *rxq_now;

/* Each receive-queue sample: the settings for the parameters in force
 * (published for the request path and the parts after this one), then
 * the overload test. */
static void onset_sample(const struct ovc_tick *t)
{
	struct ovc_rxq_eff eff;

	rxq_now = t->rxq;
	ovc_onset_settings(t->rxq, &eff);
	ovc_onset_tick(t->now, &eff, t->rxq->t1_ms, t->queue_target_s);
}

/* Each epoch: the age limit while overloaded (ovc_derive_age_loaded()),
 * from the share of the epoch's offered initial INVITEs that the
 * capacity ovc learned can serve; the limit in force below overload when
 * rxq.max_age_ms is given, or nothing is known yet. */
static void onset_apply(const struct ovc_ctl *ctl, const struct ovc_measure *m,
		const struct ovc_output *out)
{
	unsigned max_age = atomic_load(&os->max_age_ms), loaded = max_age;
	double cap = ovc_dload(&ovc->capacity), need = 0;

	if(rxq_now != NULL && rxq_now->max_age_ms < 0) {
		if(m->dt_s > 0 && m->offered[OVC_CLASS_INVITE] > 0 && cap > 0)
			need = cap * m->dt_s / (double)m->offered[OVC_CLASS_INVITE];
		loaded = ovc_derive_age_loaded(max_age, rxq_now->t1_ms,
				ovc_sampler_stall_ms(),
				(double)ovc_sampler_cpu_period_ns() / 1e6, need);
	}
	atomic_store(&os->age_loaded_ms, loaded);
}

static void onset_second_end(
		const struct ovc_tick *t, int64_t sec, struct ovc_row *row)
{
	row->overload = ovc_overloaded();
}

const struct ovc_part ovc_part_onset = {
		.name = "overload onset",
		.init = onset_init,
		.sample = onset_sample,
		.measure = onset_measure,
		.apply = onset_apply,
		.second_end = onset_second_end,
		.destroy = onset_destroy,
};
