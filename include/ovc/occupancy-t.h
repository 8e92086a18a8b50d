/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the types of occupancy (ovc/occupancy.h): its parameters and its state, for
 * struct ovc_params and struct ovc_ctl (ovc/params.h, ovc/controller.h),
 * which hold every algorithm's by value without seeing its functions.
 */
#ifndef OVC_OCCUPANCY_T_H
#define OVC_OCCUPANCY_T_H

#include "ovc/ewma.h"
#include "ovc/window.h"

struct ovc_occupancy_params
{
	unsigned k;		   /* window, samples; 001 §6.5: 25 */
	double target;	   /* rho_thresh (rho_targ), fraction; 001: 0.95 */
	double f_min;	   /* lower bound of f; 001: 0.05 */
	double w;		   /* EWMA weight of a new sample; 001: 0.1 */
	unsigned epoch_ms; /* sampling period, ms; 40 (001 samples every 125
						  packets, about 40 ms at its rates) */
};

struct ovc_occupancy
{
	struct ovc_occupancy_params p; /* parameters in force */
	struct ovc_window win;		   /* (busy s, elapsed s) increments */
	struct ovc_ewma rho_hat;	   /* rho^ */
	double rho;					   /* last windowed rho_n */
	double f;					   /* current f in [f_min, 1] */
};

#endif
