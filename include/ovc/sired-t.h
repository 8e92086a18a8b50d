/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the types of sired (ovc/sired.h): its parameters and its state, for
 * struct ovc_params and struct ovc_ctl (ovc/params.h, ovc/controller.h),
 * which hold every algorithm's by value without seeing its functions.
 */
#ifndef OVC_SIRED_T_H
#define OVC_SIRED_T_H

#include "ovc/ewma.h"

struct ovc_sired_params
{
	double qmin;	   /* Q_min, fraction of the queue; 001 §6.5: 0.7 */
	double qmax;	   /* Q_max, fraction, > qmin; 001: 0.9 */
	double f_min;	   /* lower bound of f; 001: 0.05 */
	double w;		   /* EWMA weight of a new sample; 001: 0.05 */
	unsigned epoch_ms; /* sampling period, ms; 40 */
};

struct ovc_sired
{
	struct ovc_sired_params p; /* parameters in force */
	struct ovc_ewma q_hat;	   /* q^ */
	double f;				   /* current f in [f_min, 1] */
};

#endif
