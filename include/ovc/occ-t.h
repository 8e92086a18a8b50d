/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the types of occ (ovc/occ.h): its parameters and its state, for
 * struct ovc_params and struct ovc_ctl (ovc/params.h, ovc/controller.h),
 * which hold every algorithm's by value without seeing its functions.
 */
#ifndef OVC_OCC_T_H
#define OVC_OCC_T_H

struct ovc_occ_params
{
	double target;		/* rho_target, CPU occupancy in (0, 1]; 000: 0.9 */
	double f_min;		/* lower bound of f in [0, 1); 000: 0.02 */
	double phi_max;		/* max multiplicative increase per epoch; 000: 5 */
	unsigned epoch_ms;	/* epoch length, milliseconds; 000: 1000 */
};

struct ovc_occ
{
	struct ovc_occ_params p; /* parameters in force */
	double f;				 /* current acceptance fraction in [f_min, 1] */
};

#endif
