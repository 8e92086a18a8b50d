/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the sampler as a part (ovc_part.h): in the ticker, the memory in
 * use and the CPU occupancy of each epoch for the controller, and the CPU
 * of each second for its row.
 *
 * CPU occupancy for the controller is measured over a sliding window that
 * is a whole number of CFS periods (and of epochs), however short the
 * epoch: under a cgroup quota the kernel runs the proxy in bursts (e.g.
 * 20 ms of every 100 ms period), so a window of another length reads the
 * bursts' phase, not the load.
 */
#include <string.h>

#include "core/mem/shm_mem.h"

#include "ovc/cpu.h"

#include "ovc_modparams.h"
#include "ovc_part.h"
#include "ovc_sampler.h"
#include "ovc_sampler_mem.h"
#include "ovc_shm.h"

#define OVC_CPU_HIST 256 /* samples kept */

/* What every process sees: the sampler's figures, allocated in shared
 * memory at mod_init (before the fork). The ticker writes them (the
 * request path adds the CPU it spends refusing), any process reads them;
 * atomics only, no lock. */
struct sampler_shm
{
	int source;					  /* enum ovc_cpu_source (fixed at start) */
	double capacity;			  /* CPUs the occupancy is measured
									 against (fixed at start) */
	ovc_atomic_double cpu;		  /* last epoch's CPU occupancy */
	ovc_atomic_double cpu_1s;	  /* last second's CPU occupancy */
	ovc_atomic_double cpu_reject; /* refusing's share of capacity, last
									 epoch */
	_Atomic uint64_t reject_ns;	  /* CPU spent refusing on the fast path,
									 ns (sampled, scaled) */
	_Atomic uint64_t mem_used;	  /* last sampled shm in use, bytes */
	_Atomic uint64_t mem_total;	  /* last sampled shm size, bytes */
};

static struct sampler_shm *sm;

struct cpu_hist
{
	ovc_time_ns t[OVC_CPU_HIST];
	uint64_t busy[OVC_CPU_HIST];
	uint64_t rej[OVC_CPU_HIST]; /* CPU spent refusing, ns (cumulative) */
	unsigned n;			/* samples stored */
	unsigned head;		/* index of the next write */
	ovc_time_ns window; /* measurement window, ns */
	ovc_time_ns epoch;	/* epoch the window was chosen for, ns */
};

static struct cpu_hist epoch_hist;
static struct ovc_cpu_meter sec_meter;

/* Smallest whole number of CFS periods that is also (within 1 ms) a whole
 * number of epochs and fits the history. */
static ovc_time_ns cpu_window(ovc_time_ns epoch)
{
	ovc_time_ns p = ovc_sampler_cpu_period_ns(), w;
	int m;

	for(m = 1; m <= 64; m++) {
		w = m * p;
		if(w >= epoch && w % epoch < OVC_NS_PER_MS
				&& w / epoch < OVC_CPU_HIST - 1)
			return w;
	}
	return epoch > p ? epoch : p;
}

/* Adds a sample and returns the occupancy over the window ending now (from
 * the sample nearest to now - window; all the history early on); -1 when
 * unknown. *rej receives the part of it spent refusing requests (measured
 * on the fast path). A counter that went back clears the history (a
 * process restarted). */
static double hist_sample(struct cpu_hist *h, ovc_time_ns now, double *rej)
{
	uint64_t busy, rj = atomic_load(&sm->reject_ns);
	unsigned i, idx, best;
	ovc_time_ns d, best_d;
	double dt;

	if(ovc_sampler_cpu_ns(&busy) != 0)
		return -1;
	if(h->n > 0) {
		unsigned last = (h->head + OVC_CPU_HIST - 1) % OVC_CPU_HIST;

		if(busy < h->busy[last] || now <= h->t[last])
			h->n = 0;
	}
	h->t[h->head] = now;
	h->busy[h->head] = busy;
	h->rej[h->head] = rj;
	h->head = (h->head + 1) % OVC_CPU_HIST;
	if(h->n < OVC_CPU_HIST)
		h->n++;
	if(h->n < 2)
		return -1;
	best = (h->head + OVC_CPU_HIST - h->n) % OVC_CPU_HIST; /* oldest */
	best_d = -1;
	for(i = 2; i <= h->n; i++) {
		idx = (h->head + OVC_CPU_HIST - i) % OVC_CPU_HIST;
		d = now - h->t[idx] - h->window;
		if(d < 0)
			d = -d;
		if(best_d < 0 || d < best_d) {
			best_d = d;
			best = idx;
		}
	}
	dt = (double)(now - h->t[best]);
	if(dt <= 0)
		return -1;
	*rej = rj >= h->rej[best]
				   ? (double)(rj - h->rej[best]) / (dt * sm->capacity)
				   : 0;
	return (double)(busy - h->busy[best]) / (dt * sm->capacity);
}

/* Reads the busy counter and feeds meter m (per-second figures). Returns
 * the occupancy since m's last sample, or -1 when there is none yet. */
static double meter_sample(struct ovc_cpu_meter *m, ovc_time_ns now)
{
	uint64_t busy;
	double occ;

	if(ovc_sampler_cpu_ns(&busy) != 0)
		return -1;
	if(ovc_cpu_sample(m, busy, now, &occ) != OVC_OK)
		return -1;
	return occ;
}

/* mod_init: the shared block, with the CPU source and capacity resolved
 * from the modparams (ovc_sampler_init()). */
static int sampler_init(const struct ovc_params *p)
{
	sm = shm_malloc(sizeof(*sm));
	if(sm == NULL) {
		SHM_MEM_ERROR;
		return -1;
	}
	memset(sm, 0, sizeof(*sm));
	sm->source = ovc_mp.cpu_source;
	sm->capacity = ovc_mp.cpu_capacity;
	return 0;
}

/* mod_destroy */
static void sampler_destroy(void)
{
	if(sm != NULL)
		shm_free(sm);
	sm = NULL;
}

/* Ticker start: the first samples (no figure yet). */
static void sampler_start(const struct ovc_tick *t)
{
	double rej;

	ovc_cpu_init(&sec_meter, sm->capacity, 10 * OVC_NS_PER_S);
	hist_sample(&epoch_hist, t->now, &rej);
	meter_sample(&sec_meter, t->now);
}

/* Each epoch: shared memory (published for the parts after this one) and
 * the CPU occupancy over the window; m->cpu is the part spent on admitted
 * work (what refusing costs, beta of 003 Fig. 2, must not drive f further
 * down), < 0 when there is no reading, and m->cpu_reject the part spent
 * refusing (pi's CPU loop counts it: 003 eq. 1). */
static void sampler_measure(const struct ovc_tick *t, struct ovc_measure *m)
{
	uint64_t used, total;
	double rho, rej = 0;

	ovc_sampler_mem(&used, &total);
	atomic_store(&sm->mem_used, used);
	atomic_store(&sm->mem_total, total);
	if(epoch_hist.epoch != t->epoch) {
		epoch_hist.window = cpu_window(t->epoch);
		epoch_hist.epoch = t->epoch;
	}
	m->stall_ms = ovc_sampler_stall_ms();
	rho = hist_sample(&epoch_hist, t->now, &rej);
	m->cpu = rho >= 0 ? ovc_cpu_admitted(rho, rej) : rho;
	if(rho < 0)
		return;
	m->cpu_reject = rho - m->cpu;
	ovc_dstore(&sm->cpu_reject, rej);
	ovc_dstore(&sm->cpu, rho);
}

/* End of a second: the CPU over that second, memory, refusing's share. */
static void sampler_second_end(
		const struct ovc_tick *t, int64_t sec, struct ovc_row *row)
{
	double rho = meter_sample(&sec_meter, t->now);

	row->cpu = rho >= 0 ? rho : 0;
	row->mem_used = atomic_load(&sm->mem_used);
	row->cpu_reject = ovc_dload(&sm->cpu_reject);
	ovc_dstore(&sm->cpu_1s, row->cpu);
}

int ovc_sampler_source(void)
{
	return sm->source;
}

double ovc_sampler_capacity(void)
{
	return sm->capacity;
}

double ovc_sampler_cpu(void)
{
	return sm != NULL ? ovc_dload(&sm->cpu) : 0;
}

double ovc_sampler_cpu_1s(void)
{
	return ovc_dload(&sm->cpu_1s);
}

double ovc_sampler_cpu_reject(void)
{
	return ovc_dload(&sm->cpu_reject);
}

uint64_t ovc_sampler_mem_used(void)
{
	return sm != NULL ? atomic_load(&sm->mem_used) : 0;
}

uint64_t ovc_sampler_mem_total(void)
{
	return atomic_load(&sm->mem_total);
}

void ovc_sampler_count_reject_ns(uint64_t ns)
{
	atomic_fetch_add_explicit(&sm->reject_ns, ns, memory_order_relaxed);
}

const struct ovc_part ovc_part_sampler = {
		.name = "sampler",
		.init = sampler_init,
		.start = sampler_start,
		.measure = sampler_measure,
		.second_end = sampler_second_end,
		.destroy = sampler_destroy,
};
