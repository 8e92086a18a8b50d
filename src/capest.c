/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - capacity learned from the served rate and its CPU share (see
 * include/ovc/capest.h).
 */
#include <math.h>

#include "ovc/capest.h"

void ovc_capest_init(struct ovc_capest *e, double tau_s)
{
	e->tau_s = isfinite(tau_s) && tau_s > 0 ? tau_s : 1.0;
	e->rho = 0;
}

double ovc_capest_step(
		struct ovc_capest *e, double served, double cpu_adm, double dt_s)
{
	double sample, a;

	if(!isfinite(served) || !isfinite(cpu_adm) || !isfinite(dt_s)
			|| dt_s <= 0 || served <= 0 || cpu_adm < OVC_CAPEST_MIN_CPU)
		return e->rho;
	sample = served / dt_s / cpu_adm;
	if(e->rho <= 0) {
		e->rho = sample;
	} else {
		a = 1.0 - exp(-dt_s / e->tau_s);
		e->rho += a * (sample - e->rho);
	}
	return e->rho;
}
