/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - pi's arrival share in front of its paced queue (ovc/pishare.h).
 */
#include <math.h>
#include <stddef.h>

#include "ovc/pishare.h"
#include "ovc/types.h"

double ovc_pishare_margin(double tq_s, double tau_s)
{
	if(!isfinite(tq_s) || tq_s <= 0.0 || !isfinite(tau_s) || tau_s < 0.0)
		return NAN;
	if(tau_s == 0.0)
		return INFINITY;
	return 1.0 + tq_s / tau_s;
}

void ovc_pishare_init(struct ovc_pishare *s)
{
	ovc_ewma_init(&s->adm, 1.0, 0.0, 1);
	ovc_ewma_init(&s->arr, 1.0, 0.0, 1);
	ovc_ewma_init(&s->paced, 1.0, 0.0, 1);
	ovc_ewma_init(&s->out, 1.0, 0.0, 1);
	s->margin = NAN;
	s->behind = 0;
	s->f = 1.0;
}

double ovc_pishare_fill_margin(
		double k, double tq_s, double tau_s, double q, double q_t, int behind)
{
	double m;

	if(!behind || !(q_t > 0.0) || !(tau_s > 0.0))
		return k;
	m = 1.0 + tq_s / tau_s * (1.0 - q / q_t);
	if(m < 0.0)
		return 0.0;
	return m < k ? m : k;
}

static int count_ok(double v)
{
	return isfinite(v) && v >= 0.0;
}

/* qs usable: finite, q >= 0; *known 1 when it says what was paced and
 * drained. */
static int queue_ok(const struct ovc_pishare_queue *qs, int *known)
{
	*known = 0;
	if(qs == NULL)
		return 1;
	if(!count_ok(qs->q) || !isfinite(qs->q_t) || !isfinite(qs->paced)
			|| !isfinite(qs->drained))
		return 0;
	*known = qs->paced >= 0.0 && qs->drained >= 0.0;
	return 1;
}

int ovc_pishare_step(struct ovc_pishare *s, double dt_s, double offered,
		double admitted, const struct ovc_pishare_queue *qs, double tq_s,
		double tau_s)
{
	double k, m, want, arr;
	int known;

	k = ovc_pishare_margin(tq_s, tau_s);
	if(!isfinite(dt_s) || dt_s <= 0.0 || !count_ok(offered)
			|| !count_ok(admitted) || isnan(k) || !queue_ok(qs, &known))
		return OVC_EINVAL;
	ovc_ewma_update_dt(&s->adm, admitted / dt_s, dt_s, tau_s);
	ovc_ewma_update_dt(&s->arr, offered / dt_s, dt_s, tau_s);
	s->behind = 0;
	if(known) {
		ovc_ewma_update_dt(&s->paced, qs->paced / dt_s, dt_s, tau_s);
		ovc_ewma_update_dt(&s->out, qs->drained / dt_s, dt_s, tau_s);
		s->behind = ovc_ewma_value(&s->paced) > k * ovc_ewma_value(&s->out);
	}
	arr = ovc_ewma_value(&s->arr);
	if(isinf(k) || arr <= 0.0) {
		s->margin = k;
		s->f = 1.0;
		return OVC_OK;
	}
	m = known ? ovc_pishare_fill_margin(
				k, tq_s, tau_s, qs->q, qs->q_t, s->behind)
			  : k;
	s->margin = m;
	want = m * ovc_ewma_value(&s->adm);
	if(want < 1.0 / tq_s)
		want = 1.0 / tq_s;
	s->f = want >= arr ? 1.0 : want / arr;
	return OVC_OK;
}
