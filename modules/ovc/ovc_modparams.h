/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the plain modparams (algorithm, mode, reject_code, ...), declared
 * once in ovc_modparams.def: name, type, default, accepted values, unit,
 * check and a one-line doc. From that list come the struct that holds
 * every value (ovc_mp), the module's param_export_t table, one generic
 * setter per type that checks the value (a bad one stops Kamailio while it
 * reads the configuration, naming the parameter and what it accepts), the
 * defaults, and the reference's table (scripts/docs/modparams_doc.c). No
 * Kamailio header here: the documentation tool includes it too.
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

/* The value of every modparam, one field per line of ovc_modparams.def,
 * named after it: an int for INT and ENUM (the index of the name), the
 * line's ctype for STR. Set while Kamailio reads the configuration (the
 * defaults first, ovc_mp_defaults()), read from mod_init on; a part that
 * wants its own copy takes it in mod_init. */
#define OVC_MP_INT(n, ...) int n;
#define OVC_MP_ENUM(n, ...) int n;
#define OVC_MP_STR(n, ctype, ...) ctype n;
struct ovc_mp_values
{
#include "ovc_modparams.def"
};
#undef OVC_MP_INT
#undef OVC_MP_ENUM
#undef OVC_MP_STR

extern struct ovc_mp_values ovc_mp;

/* A modparam settable at run time (column set: `live`), INT or ENUM: the
 * value in force and how ovc.set changes it. */
struct ovc_mp_live
{
	int (*get)(void); /* the value in force (ENUM: the name's index) */
	/* Puts v in force (ovc.set checked it against the line's range or
	 * names); ovc.set logs the change. Returns 0, or the RPC fault code
	 * (400, 500) with the reason in err (len bytes). */
	int (*set)(int v, char *err, int len);
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
	const char *doc;  /* one line */
	size_t off;		  /* its field in struct ovc_mp_values */
	int rt;			  /* column set: 1 live, 0 start */
	const struct ovc_mp_live *live; /* rt: the consumer's, else NULL */
	/* the consumer's further check (column check): 0 or -1 (logged);
	 * val: INT the int as a pointer, ENUM and STR the text; field: the
	 * value's field, which a STR's check writes */
	int (*check)(const char *name, void *val, void *field);
};

/* The columns set and check of a line: `start` or `live` for the
 * consumer's ovc_mp_live_<name>, `none` or `check` for its
 * ovc_mp_check_<name>() (both declared here, defined by the consumer).
 * With OVC_MP_NO_HOOKS defined (documentation) neither is named. */
#define OVC_MP_RT_start 0
#define OVC_MP_RT_live 1
#define OVC_MP_LV_start(n) NULL
#define OVC_MP_CK_none(n) NULL
#ifdef OVC_MP_NO_HOOKS
#define OVC_MP_LV_live(n) NULL
#define OVC_MP_CK_check(n) NULL
#else
#define OVC_MP_LV_live(n) &ovc_mp_live_##n
#define OVC_MP_CK_check(n) ovc_mp_check_##n
#define OVC_MP_DECL_start(n)
#define OVC_MP_DECL_live(n) extern const struct ovc_mp_live ovc_mp_live_##n;
#define OVC_MP_DECL_none(n)
#define OVC_MP_DECL_check(n) \
	int ovc_mp_check_##n(const char *name, void *val, void *field);
#define OVC_MP_INT(n, d, lo, hi, u, rt, ck, ...) \
	OVC_MP_DECL_##rt(n) OVC_MP_DECL_##ck(n)
#define OVC_MP_ENUM(n, d, nm, rt, ck, ...) \
	OVC_MP_DECL_##rt(n) OVC_MP_DECL_##ck(n)
#define OVC_MP_STR(n, ct, d, acc, u, rt, ck, ...) OVC_MP_DECL_##ck(n)
#include "ovc_modparams.def"
#undef OVC_MP_INT
#undef OVC_MP_ENUM
#undef OVC_MP_STR
#endif

/* One entry of the table per line of ovc_modparams.def. */
#define OVC_MP_OFF_(n) offsetof(struct ovc_mp_values, n)
#define OVC_MP_ENTRY_INT(n, d, lo, hi, u, rt, ck, doc)                    \
	{#n, OVC_MP_T_INT, d, lo, hi, NULL, NULL, NULL, u, doc, OVC_MP_OFF_(n), \
			OVC_MP_RT_##rt, OVC_MP_LV_##rt(n), OVC_MP_CK_##ck(n)},
#define OVC_MP_ENTRY_ENUM(n, d, nm, rt, ck, doc)                         \
	{#n, OVC_MP_T_ENUM, d, 0, 0, nm, NULL, NULL, "", doc, OVC_MP_OFF_(n), \
			OVC_MP_RT_##rt, OVC_MP_LV_##rt(n), OVC_MP_CK_##ck(n)},
#define OVC_MP_ENTRY_STR(n, ct, d, acc, u, rt, ck, doc)                \
	{#n, OVC_MP_T_STR, 0, 0, 0, NULL, d, acc, u, doc, OVC_MP_OFF_(n), \
			OVC_MP_RT_##rt, NULL, OVC_MP_CK_##ck(n)},

/* The registry values staged by modparam("ovc", "param", ...): each
 * checked alone when set, the constraints between them by mod_init
 * (ovc_params_validate), so that their order does not matter. */
struct ovc_params *ovc_mp_params(void);

/* Sets every default of the table through its setter (mod_register,
 * before the configuration's modparams). Returns 0 or -1 (logged). */
int ovc_mp_defaults(void);

/* The modparam called name, or NULL. */
const struct ovc_modparam *ovc_mp_find(const char *name);

/* The modparam name that is settable at run time (column set: live), or
 * NULL. */
const struct ovc_modparam *ovc_mp_live_find(const char *name);

/* The i-th modparam of the table, in the .def's order; NULL past the
 * last. */
const struct ovc_modparam *ovc_mp_at(unsigned i);

#endif
