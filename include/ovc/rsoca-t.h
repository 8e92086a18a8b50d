/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the types of rsoca (ovc/rsoca.h): its parameters and its state,
 * and those of its memory control (ovc/agering.h), for struct ovc_params
 * and struct ovc_ctl (ovc/params.h, ovc/controller.h), which hold every
 * algorithm's by value without seeing its functions.
 */
#ifndef OVC_RSOCA_T_H
#define OVC_RSOCA_T_H

#include "ovc/types.h"
#include "ovc/ewma.h"

struct ovc_rsoca_params
{
	double cmin;	   /* C_min, CPU fraction; 004 §IV-B: 0.2 */
	double cmax;	   /* C_max, CPU fraction, > cmin; 004: 0.4 */
	double mmin;	   /* M_min, memory fraction of the budget; 0.8 */
	double mmax;	   /* M_max, memory fraction, > mmin; 0.95 */
	double sigma;	   /* weight of P_T in P^ (eq. 2); 004: 0.6 */
	double sigma_c;	   /* weight of C_T in C^ (eq. 7); 004: 0.6 */
	double dead;	   /* dead zone on P^; 004: 0.05 */
	double ei;		   /* E_I, engineered initial INVITEs/s; 004: 1000 */
	double ed;		   /* E_D, engineered in-dialog requests/s; 0: no
						  burst limit */
	double er;		   /* E_R, engineered REGISTERs/s; 0: no limit */
	double eo;		   /* E_O, engineered other requests/s; 0: no limit */
	double ben;		   /* B_en, burstiness factor >= 1; 004: 1.7 */
	double nr;		   /* N_r, expected re-INVITEs per session; 1 */
	double ppass;	   /* p_pass, chance one of n retransmissions passes;
						  004: 0.1 */
	unsigned nretx;	   /* n, transmissions of an in-dialog request; 004: 10 */
	unsigned epoch_ms; /* measurement interval T, ms; 1000 */
	unsigned reject_code; /* status of R-SOCA's rejects: 500 (004) or 503 */
	unsigned tretry;	  /* T_retry, Retry-After of the rejects, s; 0: none */
};

/* Inputs of eq. 8-9 (rates per second, times in seconds). */
struct ovc_rsoca_mem_model
{
	double ei, ed, er, eo; /* engineered traffic per class, requests/s */
	double ti;			   /* T_I, INVITE transaction lifetime, s */
	double to;			   /* T_O, other transactions' lifetime, s */
	double tr;			   /* T_R, REGISTER transaction lifetime, s */
	double s;			   /* S, bytes of state per transaction */
	double b;			   /* B, factor > B_en */
};

struct ovc_rsoca
{
	struct ovc_rsoca_params p; /* parameters in force */
	struct ovc_ewma c_hat;	   /* C^ (eq. 7), seeded by the first C */
	double p_cpu;			   /* last P^C_T */
	double p_mem;			   /* last P^M_T */
	double p_hat;			   /* P^_T (eq. 2) */
	double p_reject;		   /* P^ after dead zone: what is applied */
	int severe;				   /* last step found a ramp at 1 */
	double p_drop[OVC_DLG_COUNT]; /* DoS drop probability per type */
};

/* Where memory in use is measured (rsoca.mem_source). */
enum ovc_mem_source
{
	OVC_MEM_SHM = 0, /* shared memory used, of its total */
	OVC_MEM_TM = 1,	 /* live transactions x S */
	OVC_MEM_BOTH = 2 /* both; the one with the larger P_mem counts */
};

/* Memory control parameters (the rsoca memory block of the registry). */
struct ovc_memctl_params
{
	unsigned source;   /* enum ovc_mem_source */
	double s;		   /* S, bytes of state per transaction; 004: 8500 */
	double mmin_bytes; /* M_min, bytes; 0: derive (fraction or eq. 8) */
	double mmax_bytes; /* M_max, bytes; 0: derive (fraction or eq. 9) */
	unsigned reap;	   /* 1: end transactions older than T B above M_min */
	unsigned ti_ms;	   /* T_I, INVITE transaction lifetime, ms; 004: 10 s */
	unsigned tr_ms;	   /* T_R, REGISTER transaction lifetime, ms */
	unsigned to_ms;	   /* T_O, other/in-dialog transaction lifetime, ms */
	double b;		   /* B, factor > B_en; 004: 2 */
};

#endif
