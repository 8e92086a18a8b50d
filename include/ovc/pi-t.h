/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the types of pi (ovc/pi.h): its parameters and its state, for
 * struct ovc_params and struct ovc_ctl (ovc/params.h, ovc/controller.h),
 * which hold every algorithm's by value without seeing its functions.
 */
#ifndef OVC_PI_T_H
#define OVC_PI_T_H

#include "ovc/ewma.h"
#include "ovc/pishare.h"

struct ovc_pi_params
{
	double kpc;		   /* K_pc, CPU proportional gain; 003: 3.5 */
	double kic;		   /* K_ic, CPU integral gain, 1/s; 003: 10.3 */
	double kpq;		   /* K_pq, queue proportional gain, 1/s; 003: 19.2 */
	double kiq;		   /* K_iq, queue integral gain, 1/s^2; 003: 130.5 */
	double tq;		   /* T_q, target queueing time, s; 003: 0.05 */
	double tau;		   /* tau, LPF on the arrival rate, s; 003: 0.1 */
	double tau_c;	   /* tau_c, LPF on the CPU load, s; 003: 0.1 */
	double c_target;   /* C_T, target CPU load, fraction; <= 0: derived
						  (ovc_pi_set_quota()) */
	double rho_m;	   /* rho_M, capacity, INVITEs/s; 0: learned
						  (ovc_pi_set_capacity), OVC_PI_RHO_M_START
						  until then */
	double u_max;	   /* saturation of u, multiples of rho_M; 5 */
	unsigned epoch_ms; /* T, control period, ms; 003: 10 */
};

struct ovc_pi
{
	struct ovc_pi_params p; /* parameters in force */
	struct ovc_ewma r_f;	/* r~, normalised arrival rate */
	struct ovc_ewma c_f;	/* C~, CPU load */
	double iq;				/* queue integral term, INVITEs/s,
							   [0, u_max rho_M] */
	double ic;				/* CPU integral term, [0, 1] */
	double q_t;				/* last q_T, messages */
	double u;				/* drain rate, normalised to rho_M, [0, u_max] */
	double alpha;			/* reject ratio, [0, 1] */
	double rho_m;			/* rho_M in force, INVITEs/s */
	double c_t;				/* C_T in force, fraction (0, 1] */
	double expiry_s;		/* the queue's expiry in force, s; 0: none
							   (ovc_pi_set_queue_expiry()); with p->tq
							   it gives the T_q in force, ovc_pi_tq_now() */
	double drain;			/* the drain u rho_M set by the last step,
							   INVITEs/s; < 0: none (not stepped, or
							   released: the queue drains freely) */
	struct ovc_pishare share; /* arrival share in front of the paced
								 queue (ovc/pishare.h) */
};

#endif
