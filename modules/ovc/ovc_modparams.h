/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the plain modparams (algorithm, mode, reject_code, ...), declared
 * once in ovc_modparams.def: name, type, default, accepted values, unit and
 * a one-line doc. From that list come the module's param_export_t table,
 * one generic setter per type that checks the value (a bad one stops
 * Kamailio while it reads the configuration, naming the parameter and what
 * it accepts), the defaults, and the README table (scripts/params_doc.c).
 * No Kamailio header here: the documentation tool includes it too.
 */
#ifndef OVC_MODPARAMS_H
#define OVC_MODPARAMS_H

#include <limits.h>
#include <stddef.h>

#include "ovc/params.h"
#include "ovc/types.h"

#include "ovc_rxq.h" /* OVC_RCVBUF_MAX */

/* rows of the per-second history: an hour, ~2.5 MB of shared memory */
#define OVC_HISTORY_MAX 3600

enum ovc_mp_type
{
	OVC_MP_T_INT = 0, /* PARAM_INT in [min, max] */
	OVC_MP_T_ENUM,	  /* PARAM_STRING, one of names */
	OVC_MP_T_STR,	  /* PARAM_STRING, checked by check */
};

struct ovc_modparam
{
	const char *name;
	enum ovc_mp_type type;
	int def;					   /* INT; ENUM: the value of the default */
	int min, max;				   /* INT: accepted range, inclusive */
	const struct ovc_names *names; /* ENUM: accepted names */
	const char *def_str;		   /* STR: default (NULL: none) */
	const char *accepted;		   /* STR: accepted values, in words */
	const char *unit;
	const char *doc; /* one line */
	int *store;		 /* INT, ENUM: where the value goes, or NULL */
	/* further check, which also applies the value (INT: the int as a
	 * pointer; ENUM, STR: the text); 0 or -1 (logged) */
	int (*check)(const char *name, void *val);
};

/* One entry of the table per line of ovc_modparams.def; with
 * OVC_MP_NO_HOOKS defined (documentation), store and check stay NULL and
 * are never expanded. */
#ifdef OVC_MP_NO_HOOKS
#define OVC_MP_HOOK_(x) NULL
#else
#define OVC_MP_HOOK_(x) x
#endif
#define OVC_MP_ENTRY_INT(n, d, lo, hi, u, doc, st, ck)                        \
	{#n, OVC_MP_T_INT, d, lo, hi, NULL, NULL, NULL, u, doc, OVC_MP_HOOK_(st), \
			OVC_MP_HOOK_(ck)},
#define OVC_MP_ENTRY_ENUM(n, d, nm, doc, st, ck)                            \
	{#n, OVC_MP_T_ENUM, d, 0, 0, nm, NULL, NULL, "", doc, OVC_MP_HOOK_(st), \
			OVC_MP_HOOK_(ck)},
#define OVC_MP_ENTRY_STR(n, d, acc, u, doc, ck) \
	{#n, OVC_MP_T_STR, 0, 0, 0, NULL, d, acc, u, doc, NULL, OVC_MP_HOOK_(ck)},

/* Values of the modparams that mod_init reads (the others go straight to
 * the variables of the files that use them: ovc_reply, ovc_fast_path,
 * ovc_rcvbuf_udp/tcp, the emergency match). */
struct ovc_mp_values
{
	int alg;			 /* enum ovc_alg */
	int mode;			 /* enum ovc_mode */
	int cpu_source;		 /* enum ovc_cpu_source */
	double cpu_capacity; /* CPUs; 0: auto */
	int dry_run;
	int stats_history;	 /* seconds */
	int queue_size;		 /* INVITEs */
	int queue_workers;	 /* processes */
	int queue_bypass;	 /* 1: out of overload, skip an empty queue */
	int queue_max_wait;	 /* ms; -1: the age limit in force */
	int queue_max_bytes; /* 0: an eighth of shared memory */
};

extern struct ovc_mp_values ovc_mp;

/* The registry values staged by modparam("ovc", "param", ...): each
 * checked alone when set, the constraints between them by mod_init
 * (ovc_params_validate), so that their order does not matter. */
struct ovc_params *ovc_mp_params(void);

/* Sets every default of the table through its setter (mod_register,
 * before the configuration's modparams). Returns 0 or -1 (logged). */
int ovc_mp_defaults(void);

#endif
