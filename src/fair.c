/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - a fair share under a flood (see ovc/fair.h).
 */
#include <stdlib.h>
#include <string.h>

#include "ascii.h"
#include "ovc/hash.h"
#include "ovc/fair.h"

void ovc_fair_init(struct ovc_fair *fr)
{
	memset(&fr->sk, 0, sizeof(fr->sk));
	memset(&fr->arr, 0, sizeof(fr->arr));
	atomic_store(&fr->copy, 0);
	atomic_store(&fr->level, OVC_FAIR_ALL);
	atomic_store(&fr->spare, OVC_FAIR_ALL);
	ovc_acceptor_init(&fr->prop, 1.0);
	atomic_store(&fr->cut, 0);
	atomic_store(&fr->exempt, 0);
}

/* Is source src, of rate m at the acceptor, under its share while copy
 * counts: m at or under the level (one set), or its arrivals at or under
 * the spare level (one set)? */
static int under(const struct ovc_fair *fr, uint32_t copy, uint32_t level,
		unsigned m, uint64_t src)
{
	uint32_t spare = atomic_load_explicit(&fr->spare, memory_order_relaxed);

	return (level != OVC_FAIR_ALL && m <= level)
		   || (spare != OVC_FAIR_ALL
				   && ovc_fair_rate(&fr->arr, ovc_fair_prev(copy), src)
							  <= spare);
}

void ovc_fair_arrive(struct ovc_fair *fr, uint64_t src)
{
	ovc_fair_count(&fr->arr,
			atomic_load_explicit(&fr->copy, memory_order_relaxed), src);
}

enum ovc_fair_verdict ovc_fair_judge(struct ovc_fair *fr, uint64_t src,
		uint64_t call, const char *buf, const struct ovc_sip_scan *sc)
{
	uint32_t copy = atomic_load_explicit(&fr->copy, memory_order_relaxed);
	uint32_t level = atomic_load_explicit(&fr->level, memory_order_relaxed);
	unsigned m;

	ovc_fair_count(&fr->sk, copy, src);
	if(level == OVC_FAIR_ALL)
		return OVC_FAIR_PASS;
	m = ovc_fair_rate(&fr->sk, ovc_fair_prev(copy), src);
	if(under(fr, copy, level, m, src))
		return OVC_FAIR_UNDER;
	if(ovc_fair_passes(call, m, level))
		return OVC_FAIR_PASS;
	/* looked at only when it would be cut */
	if(buf != NULL && sc != NULL && ovc_fair_via_oc(buf, sc)) {
		atomic_fetch_add_explicit(&fr->exempt, 1, memory_order_relaxed);
		return OVC_FAIR_EXEMPT;
	}
	atomic_fetch_add_explicit(&fr->cut, 1, memory_order_relaxed);
	return OVC_FAIR_CUT;
}

int ovc_fair_under(const struct ovc_fair *fr, uint64_t src)
{
	uint32_t copy = atomic_load_explicit(&fr->copy, memory_order_relaxed);
	uint32_t level = atomic_load_explicit(&fr->level, memory_order_relaxed);

	return under(fr, copy, level,
			ovc_fair_rate(&fr->sk, ovc_fair_prev(copy), src), src);
}

uint32_t ovc_fair_spare_update(struct ovc_fair *fr,
		const struct ovc_fair_sorted *a, uint64_t reached)
{
	double pass;
	uint32_t S = OVC_FAIR_ALL;

	/* (3): what did not reach the acceptor is the drop the level of the
	 * arrivals sheds */
	if(a->total > reached)
		S = ovc_fair_level(a, 1.0 - (double)reached / (double)a->total, &pass);
	atomic_store(&fr->spare, S);
	return S;
}

void ovc_fair_rotate(struct ovc_fair *fr)
{
	uint32_t next = (atomic_load(&fr->copy) + 1) % OVC_FAIR_COPIES;

	/* two epochs old: nobody reads it any more */
	memset(fr->sk.c[next], 0, sizeof(fr->sk.c[next]));
	memset(fr->arr.c[next], 0, sizeof(fr->arr.c[next]));
	atomic_store(&fr->copy, next);
}

static int desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

void ovc_fair_sort(const unsigned *row, struct ovc_fair_sorted *s)
{
	uint32_t i, n = 0;

	for(i = 0; i < OVC_FAIR_COLS; i++)
		if(row[i] != 0)
			s->c[n++] = row[i];
	qsort(s->c, n, sizeof(s->c[0]), desc);
	s->n = n;
	s->pre[0] = 0;
	for(i = 0; i < n; i++)
		s->pre[i + 1] = s->pre[i] + s->c[i];
	s->total = s->pre[n];
}

/* Sorts row 0 of sketch sk's last complete epoch (fr's copy before the
 * counting one) into *s. */
static void sort_prev(const struct ovc_fair *fr,
		const struct ovc_fair_sketch *sk, struct ovc_fair_sorted *s)
{
	ovc_fair_sort(sk->c[ovc_fair_prev(atomic_load(&fr->copy))][0], s);
}

void ovc_fair_sort_last(const struct ovc_fair *fr, struct ovc_fair_sorted *s)
{
	sort_prev(fr, &fr->sk, s);
}

void ovc_fair_sort_arrivals(
		const struct ovc_fair *fr, struct ovc_fair_sorted *s)
{
	sort_prev(fr, &fr->arr, s);
}

uint32_t ovc_fair_level(
		const struct ovc_fair_sorted *s, double drop, double *pass)
{
	double t, l, ck;
	uint64_t kept;
	uint32_t k, L;

	*pass = 1.0;
	/* one source (a core behind one edge, a test's one UAC): max-min is
	 * the proportional share, which the acceptor gives exactly (001
	 * §3.4: floor(N f) +- 1, no random clustering); the cut, a draw per
	 * call, would only blur it */
	if(!(drop > 0) || s->total == 0 || s->n <= 1)
		return OVC_FAIR_ALL;
	if(drop >= 1) {
		*pass = 0;
		return 0;
	}
	t = drop * (double)s->total;
	/* the k largest are above L: the smallest k whose excess over the
	 * next counter, pre[k] - k c_k (c_n = 0), reaches t */
	for(k = 1; k < s->n; k++) {
		ck = (double)s->c[k];
		if((double)s->pre[k] - k * ck >= t)
			break;
	}
	l = ((double)s->pre[k] - t) / k + 0.5;
	L = l <= 0 ? 0 : l >= (double)(OVC_FAIR_ALL - 1) ? OVC_FAIR_ALL - 1
													 : (uint32_t)l;
	kept = 0;
	for(k = 0; k < s->n; k++)
		kept += s->c[k] < L ? s->c[k] : L;
	*pass = (double)kept / (double)s->total;
	return L;
}

double ovc_fair_apply(struct ovc_fair *fr, const struct ovc_fair_sorted *s,
		double f, double *pass_out)
{
	double pass;
	uint32_t L;

	if(!(f >= 0))
		f = f < 0 ? 0 : 1; /* NaN: everything, as the acceptor does */
	if(f > 1)
		f = 1;
	L = ovc_fair_level(s, 1.0 - f, &pass);
	ovc_acceptor_set(&fr->prop, f);
	atomic_store(&fr->level, L);
	if(pass_out != NULL)
		*pass_out = pass;
	if(!(pass > 0))
		return f;
	return f >= pass ? 1.0 : f / pass;
}

uint64_t ovc_fair_key(const void *id, size_t n)
{
	uint64_t k = ovc_mix64(ovc_fnv1a(OVC_FNV_OFFSET, id, n));

	return k != 0 ? k : 1;
}

uint64_t ovc_fair_call(
		uint64_t secret, const char *buf, const struct ovc_sip_scan *sc)
{
	uint64_t h = ovc_fnv1a(OVC_FNV_OFFSET ^ secret,
			(const unsigned char *)buf + sc->callid.off, sc->callid.len);

	return ovc_mix64(h ^ secret);
}

static int lws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int ovc_fair_via_oc(const char *buf, const struct ovc_sip_scan *sc)
{
	uint32_t i = sc->via1_host.off + sc->via1_host.len, end = sc->via1_end;
	char c;

	if(sc->n_via == 0 || end <= i)
		return 0;
	for(; i < end; i++) {
		if(buf[i] != ';')
			continue;
		i++;
		while(i < end && lws(buf[i]))
			i++;
		if(i + 2 > end || ovc_lower((unsigned char)buf[i]) != 'o'
				|| ovc_lower((unsigned char)buf[i + 1]) != 'c')
			continue;
		if(i + 2 == end)
			return 1;
		c = buf[i + 2];
		if(c == '=' || c == ';' || c == ',' || lws(c))
			return 1;
	}
	return 0;
}
