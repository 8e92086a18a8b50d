/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the fast path: the admission decision on a UDP datagram at its
 * arrival, before Kamailio parses it (ovc_fastpath.h).
 */
#include <string.h>

#include "core/events.h"
#include "core/mem/shm_mem.h"

#include "ovc_actor.h"
#include "ovc_admit.h"
#include "ovc_decide.h"
#include "ovc_fastpath.h"
#include "ovc_modparams.h"
#include "ovc_onset.h"
#include "ovc_part.h"
#include "ovc_request.h"
#include "ovc_rxq.h"

int ovc_fast_path_kemi;

/* What every process sees: how the script answers, and the requests left
 * to the normal path by scan reason. Allocated in shared memory at
 * mod_init (before the fork); atomics only, no lock. */
struct fp_shm
{
	_Atomic int script_replies;	   /* 1: a KEMI script asked for noreply:
									  the fast path leaves every request
									  to it */
	_Atomic unsigned script_plain; /* KEMI: bit per class (1u << class)
									  the script has passed to admit()
									  without noreply: the fast path
									  decides only those */
	_Atomic uint64_t fallthrough[16]; /* left to the normal path, by scan
										 reason (index -reason) */
};

static struct fp_shm *fp;

/* The fast path on one datagram (ovc_dgram_in); *refused is set when it
 * was refused here (answered, dropped, or the ACK to a reject absorbed). */
static int dgram_in(sr_event_param_t *evp, int *refused)
{
	void **d = (void **)evp->data;
	char *buf = (char *)d[0];
	int len = *(int *)d[1];
	struct receive_info *rcv = (struct receive_info *)d[2];
	struct ovc_adm_verdict v;
	struct ovc_adm_cfg cfg;
	struct ovc_req q;
	enum ovc_fate f;
	int rc;

	ovc_handoff_clear();
	ovc_rxq_count_dgram(); /* one datagram off the socket's queue */
	if(!ovc_mp.fast_path || len <= 0
			|| atomic_load_explicit(&fp->script_replies, memory_order_relaxed))
		return 0;
	if(len >= 8 && memcmp(buf, "SIP/2.0 ", 8) == 0)
		return 0; /* a response: the normal path */
	rc = ovc_req_dgram(&q, buf, len, rcv);
	if(rc != OVC_SCAN_OK) {
		/* not ours to judge here: the normal path takes it */
		if(rc < 0 && -rc < OVC_SCAN_REASONS)
			atomic_fetch_add_explicit(
					&fp->fallthrough[-rc], 1, memory_order_relaxed);
		ovc_count_event(OVC_E_FAST_FALLTHROUGH);
		return 0;
	}
	if(ovc_fast_path_kemi
			&& !(atomic_load_explicit(&fp->script_plain, memory_order_relaxed)
					& (1u << q.r.c)))
		return 0; /* the KEMI script has not shown how it admits these */
	ovc_admit_settings(&cfg);
	ovc_admit_decide(&cfg, &q.r, q.fd, &v);
	f = ovc_act(&q, OVC_AT_ARRIVAL, &cfg, &v);
	*refused = v.act == OVC_ADM_REJECT || v.act == OVC_ADM_DROP;
	/* on: to the script (admitted, or an answer its bytes cannot build),
	 * else answered, dropped or queued: Kamailio never parses it */
	return f == OVC_FATE_ON ? 0 : -1;
}

/* One datagram in every OVC_REJECT_SAMPLE is timed (thread CPU time) and
 * the time of those refused is counted OVC_REJECT_SAMPLE times: an
 * unbiased measure of the CPU refusing costs, for the controllers. Not
 * while ovc only observes (none without an age limit): nothing is
 * refused, and the clock is a system call. */
#define OVC_REJECT_SAMPLE 8

int ovc_dgram_in(sr_event_param_t *evp)
{
	static unsigned n;
	uint64_t t0;
	int rc, refused = 0;

	if(++n % OVC_REJECT_SAMPLE != 0 || ovc_onset_observing())
		return dgram_in(evp, &refused);
	t0 = ovc_thread_cpu_ns();
	rc = dgram_in(evp, &refused);
	if(refused)
		ovc_count_refusal_cpu(t0, OVC_REJECT_SAMPLE);
	return rc;
}

int ovc_fastpath_leave_all(void)
{
	return !atomic_load_explicit(&fp->script_replies, memory_order_relaxed)
		   && !atomic_exchange(&fp->script_replies, 1);
}

void ovc_fastpath_script_plain(enum ovc_class c)
{
	if(!(atomic_load_explicit(&fp->script_plain, memory_order_relaxed)
			   & (1u << c)))
		atomic_fetch_or(&fp->script_plain, 1u << c);
}

uint64_t ovc_fastpath_fallthrough(int reason)
{
	if(fp == NULL || reason <= 0 || reason >= 16)
		return 0;
	return atomic_load(&fp->fallthrough[reason]);
}

/* ------------------------------------------------ the part */

/* mod_init: the shared block. */
static int fastpath_init(const struct ovc_params *p)
{
	fp = shm_malloc(sizeof(*fp));
	if(fp == NULL) {
		SHM_MEM_ERROR;
		return -1;
	}
	memset(fp, 0, sizeof(*fp));
	return 0;
}

/* ovc.reset: the fall-through counts. */
static void fastpath_reset(void)
{
	int r;

	for(r = 0; r < 16; r++)
		atomic_store(&fp->fallthrough[r], 0);
}

/* mod_destroy */
static void fastpath_destroy(void)
{
	if(fp != NULL)
		shm_free(fp);
	fp = NULL;
}

const struct ovc_part ovc_part_fastpath = {
		.name = "fast path",
		.init = fastpath_init,
		.reset = fastpath_reset,
		.destroy = fastpath_destroy,
};
