/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the types of aro (ovc/aro.h): its parameters and its state, for
 * struct ovc_params and struct ovc_ctl (ovc/params.h, ovc/controller.h),
 * which hold every algorithm's by value without seeing its functions.
 */
#ifndef OVC_ARO_T_H
#define OVC_ARO_T_H

#include "ovc/ewma.h"
#include "ovc/window.h"

struct ovc_aro_params
{
	unsigned k;			 /* window, samples; 001 §6.5: 25 */
	double rho_target;	 /* rho_targ, fraction; 001: 0.95 */
	double alpha_target; /* alpha_targ, fraction; 001: 0.95 */
	double f_min;		 /* lower bound of f; 001: 0.05 */
	double w;			 /* EWMA weight on rho; 001: 0.1 */
	unsigned epoch_ms;	 /* sampling period, ms; 40 */
};

/* The acceptance-rate controller alone (eq. 4 and the f_alpha law). */
struct ovc_acceptance
{
	unsigned k;			 /* window, samples */
	double target;		 /* alpha_targ */
	double f_min;		 /* lower bound of f */
	struct ovc_window win; /* (accepted, total) increments */
	double alpha;		 /* last alpha_n (1 before any sample) */
	double f;			 /* current f_alpha in [f_min, 1] */
};

struct ovc_aro
{
	struct ovc_aro_params p; /* parameters in force */
	struct ovc_window rho_win;	/* (busy s, elapsed s) increments */
	struct ovc_window acc_win;	/* (accepted, total) increments */
	struct ovc_ewma rho_hat;	/* rho^ */
	double rho;					/* last windowed rho_n */
	double alpha;				/* last alpha_n (1 before any sample) */
	double f_rho;				/* last f_rho */
	double f_alpha;				/* last f_alpha */
	double f;					/* current f in [f_min, 1] */
};

#endif
