/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - OCC, Hilt & Widjaja (000 §VI-C), eq. 1-2:
 *   phi_t   = min(rho_target / rho_t, phi_max)               (eq. 2)
 *   f_{t+1} = f_min if phi_t f_t < f_min; 1 if phi_t f_t > 1;
 *             phi_t f_t otherwise                             (eq. 1)
 * Defaults (000 §VI-C): f_min 0.02, phi_max 5, rho_target 0.9, 1 s epoch.
 * One departure: an increase (phi_t > 1) starts from at least
 * OCC_F_INC_FLOOR, so that f recovers in a few epochs from any f_min (with
 * f_min 0 a long overload takes f to 0, which eq. 1 never leaves, or to a
 * denormal it takes minutes to climb out of). At f_t >= OCC_F_INC_FLOOR,
 * which the default f_min guarantees, eq. 1 is unchanged.
 */
#include <math.h>
#include <stddef.h>

#include "ovc/occ.h"
#include "ovc/types.h"

/* Smallest rho used in eq. 2 so that rho = 0 gives phi = phi_max. */
#define OCC_RHO_TINY 1e-9

/* Smallest f an increase starts from: 000's default f_min. */
#define OCC_F_INC_FLOOR 0.02

void ovc_occ_defaults(struct ovc_occ_params *p)
{
	p->target = 0.9;
	p->f_min = 0.02;
	p->phi_max = 5.0;
	p->epoch_ms = 1000;
}

static int occ_params_ok(const struct ovc_occ_params *p)
{
	if(!isfinite(p->target) || p->target <= 0.0 || p->target > 1.0)
		return 0;
	if(!isfinite(p->f_min) || p->f_min < 0.0 || p->f_min >= 1.0)
		return 0;
	if(!isfinite(p->phi_max) || p->phi_max < 1.0)
		return 0;
	if(p->epoch_ms == 0)
		return 0;
	return 1;
}

int ovc_occ_init(struct ovc_occ *s, const struct ovc_occ_params *p)
{
	if(s == NULL || p == NULL)
		return OVC_EINVAL;
	if(!occ_params_ok(p))
		return OVC_ERANGE;
	s->p = *p;
	s->f = 1.0;
	return OVC_OK;
}

int ovc_occ_reconfigure(struct ovc_occ *s, const struct ovc_occ_params *p)
{
	if(s == NULL || p == NULL)
		return OVC_EINVAL;
	if(!occ_params_ok(p))
		return OVC_ERANGE;
	s->p = *p;
	if(s->f < p->f_min)
		s->f = p->f_min;
	return OVC_OK;
}

double ovc_occ_step(struct ovc_occ *s, double rho)
{
	double phi, f, x;

	if(!isfinite(rho) || rho < 0.0)
		return s->f;
	if(rho > 1.0)
		rho = 1.0;
	if(rho < OCC_RHO_TINY)
		rho = OCC_RHO_TINY;
	phi = s->p.target / rho;
	if(phi > s->p.phi_max)
		phi = s->p.phi_max;
	f = s->f;
	if(phi > 1.0 && f < OCC_F_INC_FLOOR)
		f = OCC_F_INC_FLOOR;
	x = phi * f;
	if(x < s->p.f_min)
		x = s->p.f_min;
	else if(x > 1.0)
		x = 1.0;
	s->f = x;
	return x;
}
