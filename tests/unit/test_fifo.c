/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc unit tests - src/fifo.c: order, bounds, wrap-around, allocator and
 * lock hooks, and concurrent producers in forked processes sharing one
 * FIFO placed in an mmap'd arena.
 */
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ovc/fifo.h"
#include "suites.h"

static void *heap_alloc(void *ctx, size_t n)
{
	(void)ctx;
	return malloc(n);
}

static void heap_free(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

static const struct ovc_fifo_alloc heap = {heap_alloc, heap_free, NULL};

static void *fail_alloc(void *ctx, size_t n)
{
	(void)ctx;
	(void)n;
	return NULL;
}

START_TEST(test_fifo_order_bounds_wrap)
{
	struct ovc_fifo *q = NULL;
	struct ovc_fifo_entry e;
	uintptr_t next_in = 1, next_out = 1;
	uint64_t pu, po, re;
	int round, i, bad = 0;

	ck_assert_int_eq(ovc_fifo_create(&q, 5, &heap, NULL), OVC_OK);
	ck_assert_uint_eq(ovc_fifo_cap(q), 5);
	ck_assert_int_eq(ovc_fifo_pop(q, &e), OVC_EEMPTY);
	ck_assert_int_eq(ovc_fifo_peek(q, &e), OVC_EEMPTY);
	/* fill to the bound, one more is refused */
	for(i = 0; i < 5; i++)
		ck_assert_int_eq(ovc_fifo_push(q, (void *)next_in++, 10 + i, i),
				OVC_OK);
	ck_assert_int_eq(ovc_fifo_push(q, (void *)99, 1, 9), OVC_EFULL);
	ck_assert_uint_eq(ovc_fifo_len(q), 5);
	ck_assert_int_eq(ovc_fifo_peek(q, &e), OVC_OK);
	ck_assert_ptr_eq(e.data, (void *)1);
	ck_assert_uint_eq(e.len, 10);
	ck_assert_int_eq(e.t_enq, 0);
	/* uneven push/pop rounds wrap the ring many times */
	for(round = 0; round < 1000; round++) {
		for(i = 0; i < 1 + round % 3; i++) {
			if(ovc_fifo_pop(q, &e) != OVC_OK)
				break;
			if(e.data != (void *)next_out
					|| e.t_enq != (ovc_time_ns)(next_out - 1))
				bad++;
			next_out++;
		}
		for(i = 0; i < 1 + (round * 7) % 3; i++) {
			if(ovc_fifo_len(q) == 5)
				break;
			if(ovc_fifo_push(q, (void *)next_in, 0,
					   (ovc_time_ns)(next_in - 1))
					!= OVC_OK)
				bad++;
			next_in++;
		}
		if(ovc_fifo_len(q) != (size_t)(next_in - next_out))
			bad++;
	}
	ck_assert_int_eq(bad, 0);
	while(ovc_fifo_pop(q, &e) == OVC_OK) {
		ck_assert_ptr_eq(e.data, (void *)next_out);
		next_out++;
	}
	ck_assert_uint_eq(next_in, next_out);
	ovc_fifo_stats(q, &pu, &po, &re);
	ck_assert_uint_eq(pu, next_in - 1);
	ck_assert_uint_eq(po, next_out - 1);
	ck_assert_uint_eq(re, 1);
	ovc_fifo_stats(q, NULL, NULL, NULL);
	ovc_fifo_destroy(q);
	ovc_fifo_destroy(NULL);
}
END_TEST

START_TEST(test_fifo_create_errors)
{
	struct ovc_fifo *q = (struct ovc_fifo *)0x1;
	struct ovc_fifo_alloc bad = heap;
	struct ovc_fifo_lock half = {NULL, NULL, NULL};

	ck_assert_int_eq(ovc_fifo_create(&q, 0, &heap, NULL), OVC_ERANGE);
	ck_assert_int_eq(
			ovc_fifo_create(&q, ((size_t)1 << 24) + 1, &heap, NULL),
			OVC_ERANGE);
	ck_assert_int_eq(ovc_fifo_create(&q, 4, NULL, NULL), OVC_EINVAL);
	ck_assert_int_eq(ovc_fifo_create(NULL, 4, &heap, NULL), OVC_EINVAL);
	bad.free = NULL;
	ck_assert_int_eq(ovc_fifo_create(&q, 4, &bad, NULL), OVC_EINVAL);
	bad = heap;
	bad.alloc = fail_alloc;
	ck_assert_int_eq(ovc_fifo_create(&q, 4, &bad, NULL), OVC_ENOMEM);
	half.lock = (void (*)(void *))abort;
	ck_assert_int_eq(ovc_fifo_create(&q, 4, &heap, &half), OVC_EINVAL);
	ck_assert_ptr_eq(q, (struct ovc_fifo *)0x1);
}
END_TEST

struct lock_probe
{
	int held;	   /* 1 while locked */
	int nested;	   /* lock taken while held */
	int locks;	   /* lock calls */
	int unlocks;   /* unlock calls */
};

static void probe_lock(void *ctx)
{
	struct lock_probe *p = ctx;

	if(p->held)
		p->nested++;
	p->held = 1;
	p->locks++;
}

static void probe_unlock(void *ctx)
{
	struct lock_probe *p = ctx;

	p->held = 0;
	p->unlocks++;
}

START_TEST(test_fifo_lock_hooks)
{
	struct lock_probe pr = {0, 0, 0, 0};
	struct ovc_fifo_lock lk = {probe_lock, probe_unlock, &pr};
	struct ovc_fifo *q;
	struct ovc_fifo_entry e;

	ck_assert_int_eq(ovc_fifo_create(&q, 2, &heap, &lk), OVC_OK);
	ovc_fifo_push(q, NULL, 0, 0);
	ovc_fifo_push(q, NULL, 0, 0);
	ck_assert_int_eq(ovc_fifo_push(q, NULL, 0, 0), OVC_EFULL);
	ovc_fifo_peek(q, &e);
	ovc_fifo_len(q);
	ovc_fifo_pop(q, &e);
	ovc_fifo_pop(q, &e);
	ck_assert_int_eq(ovc_fifo_pop(q, &e), OVC_EEMPTY);
	ovc_fifo_stats(q, NULL, NULL, NULL);
	ck_assert_int_eq(pr.locks, 9);
	ck_assert_int_eq(pr.unlocks, 9);
	ck_assert_int_eq(pr.nested, 0);
	ck_assert_int_eq(pr.held, 0);
	ovc_fifo_destroy(q);
}
END_TEST

/* A bump allocator over an mmap'd shared arena (free is a no-op). */
struct arena
{
	size_t used;
	size_t size;
	_Alignas(64) unsigned char mem[];
};

static void *arena_alloc(void *ctx, size_t n)
{
	struct arena *a = ctx;
	void *p;

	n = (n + 63) & ~(size_t)63;
	if(a->used + n > a->size)
		return NULL;
	p = a->mem + a->used;
	a->used += n;
	return p;
}

static void arena_free(void *ctx, void *p)
{
	(void)ctx;
	(void)p;
}

#define MP_PRODUCERS 3
#define MP_EACH 20000
#define ARENA_SIZE (1 << 20)

START_TEST(test_fifo_multiprocess)
{
	struct arena *a;
	struct ovc_fifo_alloc al;
	struct ovc_fifo *q;
	struct ovc_fifo_entry e;
	pid_t pids[MP_PRODUCERS];
	uint64_t next[MP_PRODUCERS] = {0}, got = 0, pushed, popped;
	int i, status, bad = 0;
	unsigned spins = 0;

	a = mmap(NULL, ARENA_SIZE, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(a, MAP_FAILED);
	a->used = 0;
	a->size = ARENA_SIZE - sizeof(*a);
	al.alloc = arena_alloc;
	al.free = arena_free;
	al.ctx = a;
	ck_assert_int_eq(ovc_fifo_create(&q, 64, &al, NULL), OVC_OK);
	for(i = 0; i < MP_PRODUCERS; i++) {
		pids[i] = fork();
		ck_assert_int_ge(pids[i], 0);
		if(pids[i] == 0) {
			uint64_t s;
			for(s = 0; s < MP_EACH; s++) {
				uintptr_t tag = ((uintptr_t)i << 32) | (uintptr_t)s;
				while(ovc_fifo_push(q, (void *)tag, (size_t)i, (ovc_time_ns)s)
						== OVC_EFULL)
					sched_yield();
			}
			_exit(0);
		}
	}
	/* the parent consumes: per producer, entries arrive in push order */
	while(got < (uint64_t)MP_PRODUCERS * MP_EACH) {
		if(ovc_fifo_pop(q, &e) != OVC_OK) {
			if(++spins % 64 == 0)
				sched_yield();
			if(spins % 1024 == 0) {
				/* every producer gone and still empty: entries lost */
				for(i = 0; i < MP_PRODUCERS; i++) {
					if(pids[i] > 0 && waitpid(pids[i], &status, WNOHANG)
											== pids[i]) {
						ck_assert(WIFEXITED(status)
								  && WEXITSTATUS(status) == 0);
						pids[i] = 0;
					}
				}
				for(i = 0; i < MP_PRODUCERS && pids[i] == 0; i++)
					;
				if(i == MP_PRODUCERS && ovc_fifo_len(q) == 0)
					break;
			}
			continue;
		}
		i = (int)e.len;
		if(i < 0 || i >= MP_PRODUCERS
				|| (uintptr_t)e.data
						   != (((uintptr_t)i << 32) | (uintptr_t)next[i])
				|| e.t_enq != (ovc_time_ns)next[i]) {
			bad++;
			break;
		}
		next[i]++;
		got++;
	}
	for(i = 0; i < MP_PRODUCERS; i++) {
		if(pids[i] == 0)
			continue;
		if(got != (uint64_t)MP_PRODUCERS * MP_EACH)
			kill(pids[i], SIGKILL); /* stuck on a corrupt FIFO */
		ck_assert_int_eq(waitpid(pids[i], &status, 0), pids[i]);
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	ck_assert_int_eq(bad, 0);
	ck_assert_uint_eq(got, (uint64_t)MP_PRODUCERS * MP_EACH);
	for(i = 0; i < MP_PRODUCERS; i++)
		ck_assert_uint_eq(next[i], MP_EACH);
	ck_assert_int_eq(ovc_fifo_pop(q, &e), OVC_EEMPTY);
	ovc_fifo_stats(q, &pushed, &popped, NULL);
	ck_assert_uint_eq(pushed, (uint64_t)MP_PRODUCERS * MP_EACH);
	ck_assert_uint_eq(popped, pushed);
	munmap(a, ARENA_SIZE);
}
END_TEST

Suite *make_suite_fifo(void)
{
	Suite *s = suite_create("fifo");
	TCase *tc = tcase_create("fifo");
	TCase *mp = tcase_create("multiprocess");

	tcase_add_test(tc, test_fifo_order_bounds_wrap);
	tcase_add_test(tc, test_fifo_create_errors);
	tcase_add_test(tc, test_fifo_lock_hooks);
	suite_add_tcase(s, tc);
	tcase_add_test(mp, test_fifo_multiprocess);
	tcase_set_timeout(mp, 30);
	suite_add_tcase(s, mp);
	return s;
}
