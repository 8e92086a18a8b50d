/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the types of bbc (ovc/bbc.h): its parameters and its state, for
 * struct ovc_params and struct ovc_ctl (ovc/params.h, ovc/controller.h),
 * which hold every algorithm's by value without seeing its functions.
 */
#ifndef OVC_BBC_T_H
#define OVC_BBC_T_H

struct ovc_bbc_params
{
	double high;	   /* B_h, messages; 000: 800 */
	double low;		   /* B_l, messages, < high; 000: 600 (003: 400) */
	unsigned epoch_ms; /* how often the queue is examined, ms; 10 */
};

struct ovc_bbc
{
	struct ovc_bbc_params p; /* parameters in force */
	int overload;			 /* 1 in overload state */
	double f;				 /* 1 (underload) or 0 (overload) */
};

#endif
