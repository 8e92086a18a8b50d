/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the plain modparams from their one table (ovc_modparams.def): the
 * param_export_t entries, one generic setter per type, the special checks
 * attached to a few entries, the defaults.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sr_module.h"
#include "core/dprint.h"

#include "ovc_admit.h"
#include "ovc_fair.h"
#include "ovc_kstage.h"
#include "ovc_modparams.h"
#include "ovc_rsoca.h"
#include "ovc_nexthop.h"
#include "ovc_rxq.h"
#include "ovc_sendq.h"

struct ovc_mp_values ovc_mp;

static struct ovc_params mp_params;
static int mp_params_ready;

struct ovc_params *ovc_mp_params(void)
{
	if(!mp_params_ready) {
		ovc_params_defaults(&mp_params);
		mp_params_ready = 1;
	}
	return &mp_params;
}

/* ------------------------------------------ checks of special entries */

/* param: one registry assignment "name=value"; the constraints between
 * registry parameters are checked once all are read (mod_init) */
static int mp_check_param(const char *name, void *val)
{
	char err[256];

	if(ovc_param_assign_staged(ovc_mp_params(), (char *)val, err, sizeof(err))
			!= OVC_OK) {
		LM_ERR("modparam \"%s\": %s\n", name, err);
		return -1;
	}
	return 0;
}

/* cpu_capacity: "auto" (0) or a number of CPUs in (0, 4096] */
static int mp_check_cpu_capacity(const char *name, void *val)
{
	char *s = (char *)val, *end;
	double v;

	if(strcmp(s, "auto") == 0) {
		ovc_mp.cpu_capacity = 0;
		return 0;
	}
	v = strtod(s, &end);
	if(end == s || *end != '\0' || !(v > 0 && v <= 4096)) {
		LM_ERR("modparam \"%s\": '%s' is not \"auto\" or a number of CPUs"
			   " in (0, 4096]\n",
				name, s);
		return -1;
	}
	ovc_mp.cpu_capacity = v;
	return 0;
}

/* reject_reason: 1..128 characters, no CR/LF (it goes into a status
 * line) */
static int mp_check_reject_reason(const char *name, void *val)
{
	char *s = (char *)val;
	size_t i, n = strlen(s);

	if(n == 0 || n > 128) {
		LM_ERR("modparam \"%s\": length must be 1..128\n", name);
		return -1;
	}
	for(i = 0; i < n; i++) {
		if(s[i] == '\r' || s[i] == '\n') {
			LM_ERR("modparam \"%s\": no CR/LF allowed\n", name);
			return -1;
		}
	}
	ovc_reply.reason.s = s;
	ovc_reply.reason.len = (int)n;
	return 0;
}

/* emergency: the pattern list, parsed (and its errors named) by R-SOCA */
static int mp_check_emergency(const char *name, void *val)
{
	return ovc_rsoca_set_emergency((char *)val);
}

/* fair_key: kept as given; the part parses a pseudo-variable format in
 * mod_init, once the modules that define them are loaded */
static int mp_check_fair_key(const char *name, void *val)
{
	char *s = (char *)val;

	if(s == NULL || *s == '\0') {
		LM_ERR("modparam \"%s\": empty (\"source\", \"off\" or a"
			   " pseudo-variable format)\n",
				name);
		return -1;
	}
	ovc_fair_key_str = s;
	return 0;
}

static int mp_check_emergency_priority(const char *name, void *val)
{
	return ovc_rsoca_set_emergency_priority((int)(long)val);
}

/* ------------------------------------------------------------ table */

#define OVC_MP_INT OVC_MP_ENTRY_INT
#define OVC_MP_ENUM OVC_MP_ENTRY_ENUM
#define OVC_MP_STR OVC_MP_ENTRY_STR
static const struct ovc_modparam mp_table[] = {
#include "ovc_modparams.def"
};
#undef OVC_MP_INT
#undef OVC_MP_ENUM
#undef OVC_MP_STR

#define MP_COUNT (sizeof(mp_table) / sizeof(mp_table[0]))

/* index of each entry in mp_table: MP_<name> */
#define OVC_MP_INT(n, ...) MP_##n,
#define OVC_MP_ENUM(n, ...) MP_##n,
#define OVC_MP_STR(n, ...) MP_##n,
enum
{
#include "ovc_modparams.def"
	MP_END
};
#undef OVC_MP_INT
#undef OVC_MP_ENUM
#undef OVC_MP_STR

_Static_assert(MP_END == MP_COUNT, "one index per entry");

/* Checks val (the int as a pointer, or the text) against d; only when
 * every check passed is the value stored or applied. Returns 0 or -1
 * with a message naming the parameter and what it accepts. */
static int mp_set(const struct ovc_modparam *d, void *val)
{
	char names[256];
	int v;

	switch(d->type) {
		case OVC_MP_T_INT:
			v = (int)(long)val;
			if(v < d->min || v > d->max) {
				LM_ERR("modparam \"%s\": %d is out of range [%d, %d]\n",
						d->name, v, d->min, d->max);
				return -1;
			}
			break;
		case OVC_MP_T_ENUM:
			v = ovc_names_find(d->names, (char *)val);
			if(v < 0) {
				LM_ERR("modparam \"%s\": unknown '%s' (one of %s)\n",
						d->name, (char *)val,
						ovc_names_join(d->names, names, sizeof(names)));
				return -1;
			}
			break;
		default:
			v = 0;
			break;
	}
	if(d->check != NULL && d->check(d->name, val) < 0)
		return -1;
	if(d->store != NULL)
		*d->store = v;
	return 0;
}

/* one setter per entry for Kamailio (which does not say which parameter
 * it sets): mp_set_<name> */
#define OVC_MP_INT(n, ...)                            \
	static int mp_set_##n(modparam_t type, void *val) \
	{                                                 \
		return mp_set(&mp_table[MP_##n], val);        \
	}
#define OVC_MP_ENUM OVC_MP_INT
#define OVC_MP_STR OVC_MP_INT
#include "ovc_modparams.def"
#undef OVC_MP_INT
#undef OVC_MP_ENUM
#undef OVC_MP_STR

/* clang-format off */
#define OVC_MP_INT(n, ...) \
	{#n, PARAM_INT | PARAM_USE_FUNC, (void *)mp_set_##n},
#define OVC_MP_ENUM(n, ...) \
	{#n, PARAM_STRING | PARAM_USE_FUNC, (void *)mp_set_##n},
#define OVC_MP_STR OVC_MP_ENUM
param_export_t ovc_param_exports[] = {
#include "ovc_modparams.def"
	{0, 0, 0}
};
#undef OVC_MP_INT
#undef OVC_MP_ENUM
#undef OVC_MP_STR
/* clang-format on */

int ovc_mp_defaults(void)
{
	const struct ovc_modparam *d;
	void *val;
	size_t i;

	for(i = 0; i < MP_COUNT; i++) {
		d = &mp_table[i];
		if(d->type == OVC_MP_T_INT)
			val = (void *)(long)d->def;
		else if(d->type == OVC_MP_T_ENUM)
			val = (void *)d->names->names[d->def];
		else if(d->def_str != NULL)
			val = (void *)d->def_str;
		else
			continue; /* no default: param */
		if(mp_set(d, val) < 0) {
			LM_ERR("modparam \"%s\": the default is refused\n", d->name);
			return -1;
		}
	}
	return 0;
}
