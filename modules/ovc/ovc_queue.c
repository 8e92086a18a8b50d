/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the in-core INVITE queue (see ovc_queue.h).
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <time.h>

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/dprint.h"
#include "core/globals.h"
#include "core/mem/shm_mem.h"

#include "ovc_onset.h"
#include "ovc_queue.h"
#include "ovc_queue_state.h"

struct ovc_queue *ovc_q = NULL;

static void *q_alloc(void *ctx, size_t size)
{
	return shm_malloc(size);
}

static void q_free(void *ctx, void *ptr)
{
	shm_free(ptr);
}

/* Tries for this long to take the lock while the server stops, ms. */
#define OVC_QUEUE_STOP_LOCK_MS 1000

/* Whether the caller holds the lock (0 after a stop-time give-up). */
static int q_locked;

/* Takes the ring's lock. While the server stops, a process may have died
 * holding it (Kamailio's children _exit() in their signal handler, or
 * crash): then it is tried for OVC_QUEUE_STOP_LOCK_MS and, still taken,
 * the stopping process goes on without it (the others are gone or going)
 * instead of blocking until the core's kill timeout with every queued
 * INVITE unanswered. */
static void q_lock(void *ctx)
{
	int i;

	q_locked = 1;
	if(ovc_q == NULL || !atomic_load(&ovc_q->stopping)) {
		lock_get((gen_lock_t *)ctx);
		return;
	}
	for(i = 0; i < OVC_QUEUE_STOP_LOCK_MS; i++) {
		if(lock_try((gen_lock_t *)ctx) == 0)
			return;
		usleep(1000);
	}
	q_locked = 0;
	LM_WARN("queue lock still taken after %d ms at stop (its holder"
			" died?): going on without it\n",
			OVC_QUEUE_STOP_LOCK_MS);
}

static void q_unlock(void *ctx)
{
	if(q_locked)
		lock_release((gen_lock_t *)ctx);
}

uint64_t ovc_queue_auto_bytes(void)
{
	return (uint64_t)shm_mem_size / 8;
}

int ovc_queue_init(
		unsigned size, unsigned workers, int max_wait_ms, uint64_t max_bytes)
{
	struct ovc_fifo_alloc a = {q_alloc, q_free, NULL};
	struct ovc_fifo_lock lk;
	int i;

	if(size == 0 || workers == 0)
		return 0;
	ovc_q = shm_malloc(sizeof(*ovc_q));
	if(ovc_q == NULL) {
		SHM_MEM_ERROR;
		return -1;
	}
	memset(ovc_q, 0, sizeof(*ovc_q));
	if(lock_init(&ovc_q->lock) == NULL) {
		LM_ERR("cannot init the queue lock\n");
		goto error;
	}
	lk.lock = q_lock;
	lk.unlock = q_unlock;
	lk.ctx = (void *)&ovc_q->lock; /* gen_lock_t may be volatile */
	if(ovc_fifo_create(&ovc_q->fifo, size, &a, &lk) != OVC_OK) {
		LM_ERR("cannot create a queue of %u INVITEs in shm\n", size);
		goto error;
	}
	ovc_q->workers = workers;
	ovc_q->max_wait_ms = max_wait_ms;
	ovc_q->max_bytes = max_bytes > 0 ? max_bytes : ovc_queue_auto_bytes();
	atomic_init(&ovc_q->bytes, 0);
	atomic_init(&ovc_q->seq, 0);
	atomic_init(&ovc_q->sleepers, 0);
	atomic_init(&ovc_q->stopping, 0);
	atomic_init(&ovc_q->interval_ns, OVC_DRAIN_FREE);
	ovc_pacer_init(&ovc_q->pacer);
	for(i = 0; i < OVC_SLOTS; i++) {
		atomic_init(&ovc_q->sec_wait_ns[i], 0);
		atomic_init(&ovc_q->sec_waits[i], 0);
		atomic_init(&ovc_q->sec_wait_max_ns[i], 0);
	}
	return 0;

error:
	shm_free(ovc_q);
	ovc_q = NULL;
	return -1;
}

int ovc_queue_exists(void)
{
	return ovc_q != NULL;
}

double ovc_queue_delay_ms(void)
{
	return ovc_q != NULL ? ovc_dload(&ovc_q->delay_ms) : 0;
}

int ovc_queue_on(void)
{
	return ovc_q != NULL
		   && !atomic_load_explicit(&ovc_q->stopping, memory_order_relaxed);
}

static long futex(_Atomic uint32_t *w, int op, uint32_t val,
		const struct timespec *ts)
{
	/* not FUTEX_PRIVATE: the word is in memory shared across processes */
	return syscall(SYS_futex, (uint32_t *)w, op, val, ts, NULL, 0);
}

int ovc_queue_put(const struct ovc_adm_req *r, const struct receive_info *rcv,
		uint64_t key, int would_reject)
{
	int len = r->len <= BUF_SIZE ? (int)r->len : -1;
	struct ovc_qitem *it;
	size_t sz;

	if(len <= 0 || len > BUF_SIZE)
		return -2;
	if(ovc_fifo_len(ovc_q->fifo) >= ovc_fifo_cap(ovc_q->fifo))
		return -1; /* full: do not copy for nothing */
	sz = sizeof(*it) + (size_t)len + 1;
	if(atomic_fetch_add(&ovc_q->bytes, sz) + sz > ovc_q->max_bytes) {
		atomic_fetch_sub(&ovc_q->bytes, sz);
		return -1; /* over the byte budget: full as well */
	}
	it = shm_malloc(sz);
	if(it == NULL) {
		atomic_fetch_sub(&ovc_q->bytes, sz);
		return -2;
	}
	it->rcv = *rcv;
	it->key = key;
	it->would_reject = would_reject;
	it->ruri_off = 0;
	it->ruri_len = 0;
	if(r->ruri != NULL && r->ruri >= r->buf
			&& r->ruri + r->ruri_len <= r->buf + len) {
		it->ruri_off = (uint32_t)(r->ruri - r->buf);
		it->ruri_len = (uint32_t)r->ruri_len;
	}
	it->len = len;
	memcpy(it->buf, r->buf, (size_t)len);
	it->buf[len] = '\0';
	it->t_enq = ovc_now_ns();
	if(ovc_fifo_push(ovc_q->fifo, it, (size_t)len, it->t_enq) != OVC_OK) {
		ovc_queue_free(it);
		return -1;
	}
	/* seq after the push: a worker that read seq before it and then found
	 * the queue empty sees seq changed and does not sleep */
	atomic_fetch_add(&ovc_q->seq, 1);
	if(atomic_load(&ovc_q->sleepers) > 0)
		futex(&ovc_q->seq, FUTEX_WAKE, 1, NULL);
	return 0;
}

static void max_store(_Atomic uint64_t *m, uint64_t v)
{
	uint64_t cur = atomic_load_explicit(m, memory_order_relaxed);

	while(v > cur
			&& !atomic_compare_exchange_weak_explicit(m, &cur, v,
					memory_order_relaxed, memory_order_relaxed))
		;
}

/* queue_max_wait when no age limit is in force, ms: below T1 = 500 ms */
#define OVC_QUEUE_MAX_WAIT_NO_AGE 400

unsigned ovc_queue_max_wait_ms(void)
{
	unsigned age;

	if(ovc_q->max_wait_ms >= 0)
		return (unsigned)ovc_q->max_wait_ms;
	age = ovc_onset_max_age_ms(0);
	if(age == 0)
		return OVC_QUEUE_MAX_WAIT_NO_AGE;
	/* below capacity an INVITE may wait out one CFS stall in each queue */
	return age + (unsigned)ovc_onset_stall_ms();
}

struct ovc_qitem *ovc_queue_pop(ovc_time_ns now)
{
	struct ovc_fifo_entry e;
	uint64_t wait;
	int slot;

	if(ovc_fifo_pop(ovc_q->fifo, &e) != OVC_OK)
		return NULL;
	wait = now > e.t_enq ? (uint64_t)(now - e.t_enq) : 0;
	slot = (int)(ovc_now_sec_coarse() % OVC_SLOTS);
	atomic_fetch_add_explicit(&ovc_q->ep_wait_ns, wait, memory_order_relaxed);
	atomic_fetch_add_explicit(&ovc_q->ep_waits, 1, memory_order_relaxed);
	atomic_fetch_add_explicit(
			&ovc_q->sec_wait_ns[slot], wait, memory_order_relaxed);
	atomic_fetch_add_explicit(&ovc_q->sec_waits[slot], 1, memory_order_relaxed);
	max_store(&ovc_q->sec_wait_max_ns[slot], wait);
	ovc_onset_note_queue(wait);
	return e.data;
}

void ovc_queue_free(struct ovc_qitem *it)
{
	atomic_fetch_sub(&ovc_q->bytes, sizeof(*it) + (size_t)it->len + 1);
	shm_free(it);
}

uint32_t ovc_queue_seq(void)
{
	return atomic_load(&ovc_q->seq);
}

void ovc_queue_wait(uint32_t seen, unsigned timeout_ms)
{
	struct timespec ts;

	ts.tv_sec = timeout_ms / 1000;
	ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
	atomic_fetch_add(&ovc_q->sleepers, 1);
	if(ovc_fifo_len(ovc_q->fifo) == 0)
		futex(&ovc_q->seq, FUTEX_WAIT, seen, &ts);
	atomic_fetch_sub(&ovc_q->sleepers, 1);
}

unsigned ovc_queue_len(void)
{
	return ovc_q ? (unsigned)ovc_fifo_len(ovc_q->fifo) : 0;
}

int ovc_queue_idle(void)
{
	return ovc_q == NULL
		   || atomic_load_explicit(&ovc_q->bytes, memory_order_relaxed) == 0;
}

unsigned ovc_queue_cap(void)
{
	return ovc_q ? (unsigned)ovc_fifo_cap(ovc_q->fifo) : 0;
}

double ovc_queue_epoch_wait(uint64_t *n)
{
	uint64_t ns = atomic_exchange(&ovc_q->ep_wait_ns, 0);
	uint64_t k = atomic_exchange(&ovc_q->ep_waits, 0);

	if(n)
		*n = k;
	return k ? (double)ns / (double)k / 1e9 : 0;
}

void ovc_queue_second_wait(int64_t s, double *mean_ms, double *max_ms)
{
	int slot = (int)(s % OVC_SLOTS);
	uint64_t ns = atomic_exchange(&ovc_q->sec_wait_ns[slot], 0);
	uint64_t k = atomic_exchange(&ovc_q->sec_waits[slot], 0);
	uint64_t mx = atomic_exchange(&ovc_q->sec_wait_max_ns[slot], 0);

	*mean_ms = k ? (double)ns / (double)k / 1e6 : 0;
	*max_ms = (double)mx / 1e6;
	ovc_dstore(&ovc_q->delay_ms, *mean_ms);
	ovc_dstore(&ovc_q->delay_max_ms, *max_ms);
}

void ovc_queue_set_drain(double per_s)
{
	int64_t iv = OVC_DRAIN_FREE;

	if(per_s >= 1e-3) {
		iv = (int64_t)(1e9 / per_s);
		if(iv < 1)
			iv = 1;
	} else if(per_s >= 0) {
		iv = OVC_DRAIN_PAUSE;
	}
	atomic_store(&ovc_q->interval_ns, iv);
}

int64_t ovc_queue_interval(void)
{
	return atomic_load_explicit(&ovc_q->interval_ns, memory_order_relaxed);
}

int ovc_queue_rejects_at_dequeue(void)
{
	return ovc_traits_now()->paces_queue;
}

void ovc_queue_destroy(int (*answer)(struct ovc_qitem *it))
{
	struct ovc_qitem *it;
	unsigned n = 0, lost = 0;

	if(ovc_q == NULL)
		return;
	atomic_store(&ovc_q->stopping, 1);
	if(ovc_q->fifo) {
		while((it = ovc_queue_pop(ovc_now_ns())) != NULL) {
			if(answer && answer(it))
				n++;
			else
				lost++;
			ovc_queue_free(it);
		}
		ovc_fifo_destroy(ovc_q->fifo);
	}
	if(n > 0)
		LM_NOTICE("answered %u INVITEs left in the queue at shutdown\n", n);
	if(lost > 0)
		LM_NOTICE("%u INVITEs left in the queue at shutdown could not be"
				  " answered (TCP, a non-UDP top Via or a failed send: no"
				  " reply without the script; their senders time out),"
				  " counted dropped\n",
				lost);
	lock_destroy(&ovc_q->lock);
	shm_free(ovc_q);
	ovc_q = NULL;
}
