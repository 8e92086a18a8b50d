/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - shared state allocation and the lock-free counters.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "core/dprint.h"
#include "core/mem/shm_mem.h"

#include "ovc_shm.h"

struct ovc_shm *ovc = NULL;

void ovc_dstore(ovc_atomic_double *a, double v)
{
	uint64_t b;

	memcpy(&b, &v, sizeof(b));
	atomic_store_explicit(a, b, memory_order_relaxed);
}

double ovc_dload(ovc_atomic_double *a)
{
	uint64_t b = atomic_load_explicit(a, memory_order_relaxed);
	double v;

	memcpy(&v, &b, sizeof(v));
	return v;
}

ovc_time_ns ovc_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ovc_time_ns)ts.tv_sec * OVC_NS_PER_S + ts.tv_nsec;
}

void ovc_sleep_until(ovc_time_ns t)
{
	struct timespec ts;

	ts.tv_sec = t / OVC_NS_PER_S;
	ts.tv_nsec = t % OVC_NS_PER_S;
	while(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

int64_t ovc_now_sec_coarse(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (int64_t)ts.tv_sec;
}

int ovc_shm_init(const struct ovc_params *params, enum ovc_alg alg,
		enum ovc_mode mode, int dry_run)
{
	struct timespec rt, mono;

	ovc = shm_malloc(sizeof(*ovc));
	if(ovc == NULL) {
		SHM_MEM_ERROR;
		return -1;
	}
	memset(ovc, 0, sizeof(*ovc));
	ovc->ctl = shm_malloc(ovc_ctl_size());
	ovc->rejmem = shm_malloc(sizeof(struct ovc_rejmem));
	if(ovc->ctl == NULL || ovc->rejmem == NULL) {
		SHM_MEM_ERROR;
		goto error;
	}
	memset(ovc->ctl, 0, ovc_ctl_size());
	ovc_rejmem_init(ovc->rejmem);
	if(lock_init(&ovc->lock) == NULL) {
		LM_ERR("cannot init the ovc lock\n");
		goto error;
	}
	ovc->params = *params;
	if(ovc_ctl_init(ovc->ctl, alg, params) != OVC_OK) {
		LM_ERR("algorithm %s refused its parameters\n", ovc_alg_name(alg));
		goto error;
	}
	atomic_store(&ovc->alg, alg);
	atomic_store(&ovc->mode, mode);
	atomic_store(&ovc->dry_run, dry_run);
	ovc_acceptor_init(&ovc->acc, 1.0);
	ovc_acceptor_init(&ovc->acc_arrival, 1.0);
	ovc_dstore(&ovc->f, 1.0);
	ovc_dstore(&ovc->f_eff, 1.0);
	ovc_dstore(&ovc->rxq_guard_f, 1.0);
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	ovc->mono_to_unix = (int64_t)rt.tv_sec - (int64_t)mono.tv_sec;
	return 0;

error:
	ovc_shm_destroy();
	return -1;
}

void ovc_shm_destroy(void)
{
	if(ovc == NULL)
		return;
	if(ovc->ctl)
		shm_free(ovc->ctl);
	if(ovc->rejmem)
		shm_free(ovc->rejmem);
	shm_free(ovc);
	ovc = NULL;
}

/* Adds one to column v of class c, in the totals and in slot. */
static void count_one(struct ovc_counts *slot, int c, int v)
{
	ovc_count_pair(&ovc->total.v[c][v], &slot->v[c][v]);
}

void ovc_count_offered(enum ovc_class c, enum ovc_verdict v, int extra)
{
	int64_t sec = ovc_now_sec_coarse();
	struct ovc_counts *slot = &ovc->slot[sec % OVC_SLOTS];

	/* one clock read: offered and its verdict land in the same second */
	count_one(slot, c, OVC_V_OFFERED);
	count_one(slot, c, v);
	if(extra >= 0)
		count_one(slot, c, extra);
}

void ovc_count_dequeued(enum ovc_verdict v, int extra)
{
	int64_t sec = ovc_now_sec_coarse();
	struct ovc_counts *slot = &ovc->slot[sec % OVC_SLOTS];

	count_one(slot, OVC_CLASS_INVITE, OVC_V_DEQUEUED);
	count_one(slot, OVC_CLASS_INVITE, v);
	if(extra >= 0)
		count_one(slot, OVC_CLASS_INVITE, extra);
}

void ovc_count_event(enum ovc_event e)
{
	int64_t sec = ovc_now_sec_coarse();

	ovc_count_pair(&ovc->ev_total[e], &ovc->ev_slot[sec % OVC_SLOTS][e]);
}

void ovc_counts_reset(void)
{
	int c, v;

	lock_get(&ovc->lock);
	for(c = 0; c < OVC_CLASS_COUNT; c++)
		for(v = 0; v < OVC_V_COUNT; v++)
			atomic_store(&ovc->total.v[c][v], 0);
	for(c = 0; c < OVC_E_COUNT; c++)
		atomic_store(&ovc->ev_total[c], 0);
	lock_release(&ovc->lock);
}

const char *ovc_verdict_name(enum ovc_verdict v)
{
	static const char *names[OVC_V_COUNT] = {"offered", "admitted",
			"rejected", "dropped", "queued", "dequeued", "would_reject"};

	return (unsigned)v < OVC_V_COUNT ? names[v] : "?";
}
