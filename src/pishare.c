/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - pi's arrival share in front of its paced queue (ovc/pishare.h).
 */
#include <math.h>

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
	s->f = 1.0;
}

static int count_ok(double v)
{
	return isfinite(v) && v >= 0.0;
}

int ovc_pishare_step(struct ovc_pishare *s, double dt_s, double offered,
		double admitted, double tq_s, double tau_s)
{
	double k, want, arr;

	k = ovc_pishare_margin(tq_s, tau_s);
	if(!isfinite(dt_s) || dt_s <= 0.0 || !count_ok(offered)
			|| !count_ok(admitted) || isnan(k))
		return OVC_EINVAL;
	ovc_ewma_update_dt(&s->adm, admitted / dt_s, dt_s, tau_s);
	ovc_ewma_update_dt(&s->arr, offered / dt_s, dt_s, tau_s);
	arr = ovc_ewma_value(&s->arr);
	if(isinf(k) || arr <= 0.0) {
		s->f = 1.0;
		return OVC_OK;
	}
	want = k * ovc_ewma_value(&s->adm);
	if(want < 1.0 / tq_s)
		want = 1.0 / tq_s;
	s->f = want >= arr ? 1.0 : want / arr;
	return OVC_OK;
}
