/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - age ring of live transactions and the pure parts of R-SOCA's
 * memory control (004 §III-D):
 *   M_min = S (E_I T_I + E_D T_O + E_O T_O + E_R T_R)              (eq. 8)
 *   M_max = M_min B                                                  (eq. 9)
 *   P^M = 0 | (M - M_min) / (M_max - M_min) | 1                      (eq. 1)
 *   above M_min: INVITE older than T_I B, REGISTER older than T_R B,
 *   in-dialog and other older than T_O B are ended.
 */
#include <math.h>
#include <sched.h>
#include <string.h>

#include "ovc/agering.h"

#define POS_OF(st) ((st) >> 2)
#define FLAG_OF(st) ((unsigned)((st)&3u))
#define STATE(pos, flag) (((pos) << 2) | (uint64_t)(flag))

/* Waiting calls before the reaper passes a slot no writer filled. */
#define STALL_PASSES 4

size_t ovc_agering_size(unsigned cap)
{
	if(cap < 2 || (cap & (cap - 1)) != 0 || cap > (1u << 26))
		return 0;
	return sizeof(struct ovc_agering)
		   + (size_t)cap * sizeof(struct ovc_agering_slot);
}

int ovc_agering_init(struct ovc_agering *r, unsigned cap)
{
	size_t n = ovc_agering_size(cap);

	if(r == NULL || n == 0)
		return OVC_EINVAL;
	memset(r, 0, n);
	r->cap = cap;
	/* positions start at 1 so that state 0 (never used) is no live
	 * position's DEAD state either */
	atomic_store(&r->head, 1);
	r->tail = 1;
	return OVC_OK;
}

uint64_t ovc_agering_add(struct ovc_agering *r, int64_t start_ms,
		uint64_t cookie)
{
	uint64_t pos, st;
	struct ovc_agering_slot *s;

	pos = atomic_fetch_add_explicit(&r->head, 1, memory_order_relaxed);
	s = &r->slot[pos & (r->cap - 1)];
	st = atomic_load_explicit(&s->state, memory_order_acquire);
	/* the slot is free when its last user is dead; anything else (live,
	 * busy, being written) belongs to an older position still in use */
	if(FLAG_OF(st) != OVC_AR_DEAD || POS_OF(st) >= pos
			|| !atomic_compare_exchange_strong_explicit(&s->state, &st,
					STATE(pos, OVC_AR_WRITING), memory_order_acq_rel,
					memory_order_relaxed)) {
		atomic_fetch_add_explicit(&r->untracked, 1, memory_order_relaxed);
		return 0;
	}
	s->start_ms = start_ms;
	s->cookie = cookie;
	atomic_store_explicit(
			&s->state, STATE(pos, OVC_AR_LIVE), memory_order_release);
	return pos;
}

void ovc_agering_del(struct ovc_agering *r, uint64_t token)
{
	struct ovc_agering_slot *s;
	uint64_t live, busy, st;

	if(r == NULL || token == 0)
		return;
	s = &r->slot[token & (r->cap - 1)];
	live = STATE(token, OVC_AR_LIVE);
	busy = STATE(token, OVC_AR_BUSY);
	for(;;) {
		st = live;
		if(atomic_compare_exchange_weak_explicit(&s->state, &st,
				   STATE(token, OVC_AR_DEAD), memory_order_acq_rel,
				   memory_order_acquire))
			return;
		if(st == live)
			continue; /* spurious failure */
		if(st != busy)
			return; /* not ours any more */
		sched_yield(); /* the reaper holds it for a few loads */
	}
}

unsigned ovc_agering_expire(struct ovc_agering *r, int64_t cutoff_ms,
		unsigned max, ovc_agering_visit_f fn, void *arg)
{
	uint64_t head, q, st, want;
	struct ovc_agering_slot *s;
	unsigned n = 0;

	if(r == NULL)
		return 0;
	head = atomic_load_explicit(&r->head, memory_order_acquire);
	/* more positions than slots: the oldest were overwritten or never
	 * tracked; start at the oldest a slot can still hold */
	if(head - r->tail > r->cap)
		r->tail = head - r->cap;
	for(q = r->tail; q < head; q++) {
		s = &r->slot[q & (r->cap - 1)];
		st = atomic_load_explicit(&s->state, memory_order_acquire);
		if(POS_OF(st) > q)
			continue; /* reused by a newer position */
		if(POS_OF(st) < q) {
			/* the writer of q has not claimed its slot yet, or found
			 * it taken (then the older user is not DEAD): wait for a
			 * free slot's writer a few calls, pass a taken one */
			if(FLAG_OF(st) != OVC_AR_DEAD)
				continue;
			if(r->stall_pos == q && ++r->stall_passes > STALL_PASSES)
				continue;
			if(r->stall_pos != q) {
				r->stall_pos = q;
				r->stall_passes = 1;
			}
			break;
		}
		/* POS_OF(st) == q */
		if(FLAG_OF(st) == OVC_AR_DEAD)
			continue;
		if(FLAG_OF(st) == OVC_AR_WRITING) {
			if(r->stall_pos == q && ++r->stall_passes > STALL_PASSES)
				continue;
			if(r->stall_pos != q) {
				r->stall_pos = q;
				r->stall_passes = 1;
			}
			break;
		}
		/* live (BUSY only ever set here, by the one reaper) */
		if(s->start_ms > cutoff_ms || n >= max)
			break;
		want = STATE(q, OVC_AR_LIVE);
		if(!atomic_compare_exchange_strong_explicit(&s->state, &want,
				   STATE(q, OVC_AR_BUSY), memory_order_acq_rel,
				   memory_order_acquire))
			continue; /* deleted meanwhile */
		if(fn != NULL)
			fn(s->cookie, s->start_ms, arg);
		atomic_store_explicit(
				&s->state, STATE(q, OVC_AR_LIVE), memory_order_release);
		n++;
	}
	r->tail = q;
	return n;
}

uint64_t ovc_agering_span(const struct ovc_agering *r)
{
	uint64_t head;

	if(r == NULL)
		return 0;
	head = atomic_load_explicit(
			(_Atomic uint64_t *)&r->head, memory_order_relaxed);
	return head > r->tail ? head - r->tail : 0;
}

void ovc_memctl_defaults(struct ovc_memctl_params *m)
{
	memset(m, 0, sizeof(*m));
	m->source = OVC_MEM_SHM;
	m->s = 8500.0;
	m->mmin_bytes = 0.0;
	m->mmax_bytes = 0.0;
	m->reap = 1;
	m->ti_ms = 10000;
	m->tr_ms = 4000;
	m->to_ms = 1000;
	m->b = 2.0;
}

int64_t ovc_memctl_age_limit_ms(const struct ovc_memctl_params *m,
		enum ovc_class c)
{
	double t;

	switch(c) {
		case OVC_CLASS_INVITE:
			t = m->ti_ms;
			break;
		case OVC_CLASS_REGISTER:
			t = m->tr_ms;
			break;
		case OVC_CLASS_INDIALOG:
		case OVC_CLASS_OTHER:
			t = m->to_ms;
			break;
		default:
			return -1;
	}
	return (int64_t)llround(t * m->b);
}

int ovc_memctl_thresholds(const struct ovc_memctl_params *m,
		const struct ovc_rsoca_params *r, enum ovc_mem_source src,
		double shm_total, double *mmin_b, double *mmax_b)
{
	struct ovc_rsoca_mem_model mm;
	double lo, hi;
	int rc;

	if(m == NULL || r == NULL)
		return OVC_EINVAL;
	if(m->mmin_bytes > 0 && m->mmax_bytes > 0) {
		lo = m->mmin_bytes;
		hi = m->mmax_bytes;
	} else if(m->mmin_bytes > 0) {
		lo = m->mmin_bytes;
		hi = lo * m->b; /* eq. 9 */
	} else if(m->mmax_bytes > 0) {
		hi = m->mmax_bytes;
		lo = hi / m->b;
	} else if(src == OVC_MEM_SHM) {
		if(!isfinite(shm_total) || shm_total <= 0)
			return OVC_ERANGE;
		lo = r->mmin * shm_total;
		hi = r->mmax * shm_total;
	} else {
		mm.ei = r->ei;
		mm.ed = r->ed;
		mm.er = r->er;
		mm.eo = r->eo;
		mm.ti = m->ti_ms / 1000.0;
		mm.tr = m->tr_ms / 1000.0;
		mm.to = m->to_ms / 1000.0;
		mm.s = m->s;
		mm.b = m->b;
		rc = ovc_rsoca_mem_thresholds(&mm, &lo, &hi);
		if(rc != OVC_OK)
			return rc;
	}
	if(!isfinite(lo) || !isfinite(hi) || lo <= 0 || hi <= lo)
		return OVC_ERANGE;
	if(mmin_b != NULL)
		*mmin_b = lo;
	if(mmax_b != NULL)
		*mmax_b = hi;
	return OVC_OK;
}

double ovc_memctl_fraction(double in_use, double mmin_b, double mmax_b,
		double fmin, double fmax)
{
	double p;

	if(!isfinite(in_use) || in_use <= 0 || !(mmin_b > 0)
			|| !(mmax_b > mmin_b))
		return 0.0;
	if(in_use <= mmin_b)
		return in_use / mmin_b * fmin;
	if(in_use >= mmax_b)
		return 1.0;
	p = (in_use - mmin_b) / (mmax_b - mmin_b);
	return fmin + p * (fmax - fmin);
}
