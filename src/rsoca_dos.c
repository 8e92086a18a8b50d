/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - R-SOCA DoS and burst protection (004 §III-B, §III-C, eq. 3-6):
 *   D_en = max(E_I T, I) B_en               BYE, UPDATE, PRACK, INFO, other
 *   D_en = max(E_I T, I) B_en N_r           re-INVITE
 *   p    = min((D - D_en) / D, p_pass^(1/n))  when D > D_en, else 0
 *   burst: more than floor(B_en E T) arrivals of a class per interval T are
 *   rejected.
 */
#include <math.h>
#include <stddef.h>

#include "ovc/rsoca_dos.h"

int ovc_rsoca_dos_plan(const struct ovc_rsoca_params *p, const double *d,
		double invite_ok, double dt_s, struct ovc_dos_plan *out)
{
	struct ovc_dos_plan r;
	double base;
	int t;

	if(p == NULL || d == NULL || out == NULL || !isfinite(invite_ok)
			|| invite_ok < 0.0 || !isfinite(dt_s) || dt_s <= 0.0)
		return OVC_EINVAL;
	for(t = 0; t < OVC_DLG_COUNT; t++)
		if(!isfinite(d[t]) || d[t] < 0.0)
			return OVC_EINVAL;
	base = p->ei * dt_s;
	r.i_used = invite_ok > base ? invite_ok : base;
	r.cap = ovc_rsoca_drop_cap(p);
	for(t = 0; t < OVC_DLG_COUNT; t++) {
		r.d_en[t] = ovc_rsoca_d_en(p, (enum ovc_dlg)t, invite_ok, dt_s);
		r.p_drop[t] = ovc_rsoca_dos_drop(
				p, (enum ovc_dlg)t, d[t], invite_ok, dt_s);
		r.accept[t] = 1.0 - r.p_drop[t];
	}
	*out = r;
	return OVC_OK;
}

enum ovc_dlg ovc_dlg_of_method(enum ovc_sip_method m)
{
	switch(m) {
		case OVC_M_BYE:
			return OVC_DLG_BYE;
		case OVC_M_INVITE:
			return OVC_DLG_REINVITE;
		case OVC_M_UPDATE:
			return OVC_DLG_UPDATE;
		case OVC_M_PRACK:
			return OVC_DLG_PRACK;
		case OVC_M_INFO:
			return OVC_DLG_INFO;
		case OVC_M_ACK:
		case OVC_M_CANCEL:
			return OVC_DLG_COUNT;
		default:
			return OVC_DLG_OTHER;
	}
}

void ovc_burst_reset(struct ovc_burst *b, double limit)
{
	int64_t l = -1;

	if(isfinite(limit) && limit >= 0.0)
		l = limit > 9e18 ? INT64_MAX : (int64_t)floor(limit);
	atomic_store_explicit(&b->limit, l, memory_order_relaxed);
	atomic_store_explicit(&b->count, 0, memory_order_relaxed);
}

int ovc_burst_take(struct ovc_burst *b)
{
	int64_t l = atomic_load_explicit(&b->limit, memory_order_relaxed);
	uint64_t n;

	n = atomic_fetch_add_explicit(&b->count, 1, memory_order_relaxed) + 1;
	if(l < 0)
		return 1;
	return n <= (uint64_t)l;
}

double ovc_rsoca_engineered_txn(
		const struct ovc_rsoca_params *p, const struct ovc_memctl_params *m)
{
	return (p->ei * m->ti_ms + (p->ed + p->eo) * m->to_ms + p->er * m->tr_ms)
		   / 1000.0;
}
