/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the one parameter table. Each entry has a dotted name
 * ("occ.target"), a type, default, min, max and a one-line doc. The same
 * table serves modparam("ovc", "param", "name=value"), the RPCs ovc.get and
 * ovc.set, validation and the documentation.
 */
#ifndef OVC_PARAMS_H
#define OVC_PARAMS_H

#include <stddef.h>

/* every algorithm's types (parameters and state), none of its functions:
 * the dispatcher runs them through their descriptors (ovc/alg.h) */
#include "ovc/none-t.h"
#include "ovc/bbc-t.h"
#include "ovc/occ-t.h"
#include "ovc/occupancy-t.h"
#include "ovc/aro-t.h"
#include "ovc/sired-t.h"
#include "ovc/rsoca-t.h"
#include "ovc/pi-t.h"
#include "ovc/rxq.h"
#include "ovc/memguard.h"

/* Every controller's parameters, one struct per algorithm (named as the
 * algorithm, ovc/algs.def), and those of the parts beside them. */
struct ovc_params
{
#define OVC_ALG_DEF(id, name, state, params) params name;
#include "ovc/algs.def"
#undef OVC_ALG_DEF
	struct ovc_rxq_params rxq; /* receive queue (not a controller) */
	struct ovc_memctl_params memctl; /* rsoca memory control (004 §III-D) */
	struct ovc_memguard_params memguard; /* the shared-memory guard */
};

enum ovc_param_type
{
	OVC_PARAM_DOUBLE, /* stored as double */
	OVC_PARAM_UINT,	  /* stored as unsigned int; value must be integral */
};

struct ovc_param_def
{
	const char *name;	  /* "occ.target" */
	enum ovc_param_type type;
	double def;			  /* default */
	double min;			  /* smallest accepted value (inclusive) */
	double max;			  /* largest accepted value (inclusive) */
	size_t offset;		  /* offset of the field in struct ovc_params */
	const char *unit;	  /* "fraction", "ms", "messages", ... */
	const char *doc;	  /* one line */
};

/* Number of entries in the table. */
size_t ovc_param_count(void);

/* Entry i (0 <= i < ovc_param_count()) or NULL. */
const struct ovc_param_def *ovc_param_at(size_t i);

/* Entry by exact name, or NULL. */
const struct ovc_param_def *ovc_param_find(const char *name);

/* Fills p with every default. */
void ovc_params_defaults(struct ovc_params *p);

/* Reads the value of name into *out. Returns OVC_OK or OVC_ENOENT. */
int ovc_param_get(const struct ovc_params *p, const char *name, double *out);

/* Parses value (decimal text, whole string) and sets name in p after the
 * range check and the cross-parameter checks (e.g. bbc.low < bbc.high).
 * Returns OVC_OK, OVC_ENOENT (unknown name), OVC_EINVAL (unparsable) or
 * OVC_ERANGE; on failure p is unchanged and err (if not NULL) holds a
 * message naming the parameter and its accepted range. */
int ovc_param_set(struct ovc_params *p, const char *name, const char *value,
		char *err, size_t errlen);

/* Same as ovc_param_set() for a "name=value" assignment (spaces around
 * name and value allowed). */
int ovc_param_assign(
		struct ovc_params *p, const char *assign, char *err, size_t errlen);

/* ovc_param_assign() without the cross-parameter checks: for a set of
 * assignments whose order must not matter (modparams), checked as a whole
 * afterwards with ovc_params_validate(). Names, syntax and each value's
 * own range are checked; on failure p is unchanged. */
int ovc_param_assign_staged(
		struct ovc_params *p, const char *assign, char *err, size_t errlen);

/* Checks the cross-parameter constraints of p. Returns OVC_OK or
 * OVC_ERANGE with a message in err. */
int ovc_params_validate(const struct ovc_params *p, char *err, size_t errlen);

#endif
