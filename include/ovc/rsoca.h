/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - R-SOCA of 004 §III (Sisalem & Floroiu).
 *   C^_T = C^_{T-1} (1 - sigma_c) + C_T sigma_c                    (eq. 7)
 *   P^R_T = 0 if R <= R_min, (R - R_min)/(R_max - R_min), 1 if R >= R_max
 *                                            (eq. 1, for R in {C^, M})
 *   P_T = max_R P^R_T;  P^_T = P^_{T-1} (1 - sigma) + P_T sigma      (eq. 2)
 *   any P^R_T == 1 (severe overload): P^_T = 1; P^_T <= dead zone: 0.
 * INVITE, REGISTER and other out-of-dialog requests are rejected with P^;
 * in-dialog requests never. Per in-dialog type t with D arrivals in the
 * interval, D_en = max(E_I T, I) B_en (x N_r for re-INVITE) (eq. 5-6) and
 *   p_drop = min((D - D_en) / D, p_pass^(1/n)) when D > D_en, else 0
 *                                                              (eq. 3-4).
 * Burst protection (§III-C): at most B_en E_c T arrivals of class c per
 * interval are taken; the excess is rejected. Memory thresholds from the
 * engineered traffic (eq. 8-9) via ovc_rsoca_mem_thresholds().
 */
#ifndef OVC_RSOCA_H
#define OVC_RSOCA_H

#include "ovc/rsoca-t.h"

/* Fills p with the defaults of 004 §III-IV. */
void ovc_rsoca_defaults(struct ovc_rsoca_params *p);

/* Initialises s with P^ = 0. Returns OVC_OK or OVC_ERANGE. */
int ovc_rsoca_init(struct ovc_rsoca *s, const struct ovc_rsoca_params *p);

/* Eq. 1: the ramp of x between rmin and rmax, in [0, 1]. */
double ovc_rsoca_ramp(double x, double rmin, double rmax);

/* Eq. 4: the largest drop probability, p_pass^(1/n), in [0, 1]. */
double ovc_rsoca_drop_cap(const struct ovc_rsoca_params *p);

/* Eq. 5-6: D_en of in-dialog type t, requests per interval:
 * max(E_I dt_s, invite_ok) B_en, times N_r for re-INVITEs. */
double ovc_rsoca_d_en(const struct ovc_rsoca_params *p, enum ovc_dlg t,
		double invite_ok, double dt_s);

/* Eq. 3-6: drop probability of in-dialog type t for d arrivals and
 * invite_ok successful initial INVITEs over dt_s seconds. */
double ovc_rsoca_dos_drop(const struct ovc_rsoca_params *p, enum ovc_dlg t,
		double d, double invite_ok, double dt_s);

/* §III-C: largest number of class-c arrivals per interval of dt_s seconds
 * before the excess is rejected (B_en E_c dt_s), or -1 for no limit. */
double ovc_rsoca_burst_limit(const struct ovc_rsoca_params *p,
		enum ovc_class c, double dt_s);

/* Eq. 8-9: M_min = S (E_I T_I + E_D T_O + E_O T_O + E_R T_R) bytes and
 * M_max = B M_min. Returns OVC_OK or OVC_ERANGE (negative or non-finite
 * input, B <= 1); outputs written only on success. */
int ovc_rsoca_mem_thresholds(const struct ovc_rsoca_mem_model *m,
		double *mmin_bytes, double *mmax_bytes);

/* One interval of dt_s seconds: cpu and mem are occupancies (fractions;
 * cpu averaged as measured up to OVC_CPU_READING_MAX, mem clamped to
 * [0, 1]; a negative value means "not measured" and that
 * resource is skipped); dlg (may be NULL) the in-dialog arrivals per type
 * and invite_ok the successful initial INVITEs over the interval. Returns
 * OVC_OK, or OVC_EINVAL (NaN/inf anywhere, dt_s <= 0, negative counts:
 * nothing changes). The result is in s->p_reject and s->p_drop. */
int ovc_rsoca_step(struct ovc_rsoca *s, double cpu, double mem, double dt_s,
		const double *dlg, double invite_ok);

#endif
