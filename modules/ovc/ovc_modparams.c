/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the plain modparams from their one table (ovc_modparams.def): the
 * struct of their values, the param_export_t entries, one generic setter
 * per type, the defaults; the registry's own entry (param).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sr_module.h"
#include "core/dprint.h"

#include "ovc_modparams.h"

struct ovc_mp_values ovc_mp;

static int mp_params_ready;

struct ovc_params *ovc_mp_params(void)
{
	if(!mp_params_ready) {
		ovc_params_defaults(&ovc_mp.param);
		mp_params_ready = 1;
	}
	return &ovc_mp.param;
}

/* param: one registry assignment "name=value"; the constraints between
 * registry parameters are checked once all are read (mod_init) */
int ovc_mp_check_param(const char *name, void *val, void *field)
{
	char err[256];

	if(ovc_param_assign_staged(ovc_mp_params(), (char *)val, err, sizeof(err))
			!= OVC_OK) {
		LM_ERR("modparam \"%s\": %s\n", name, err);
		return -1;
	}
	return 0;
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

/* ovc.set changes an INT or an ENUM: a STR is never live */
#define OVC_MP_INT(...)
#define OVC_MP_ENUM(...)
#define OVC_MP_STR(n, ct, d, acc, u, rt, ...) \
	_Static_assert(OVC_MP_RT_##rt == 0, #n ": a string cannot be live");
#include "ovc_modparams.def"
#undef OVC_MP_INT
#undef OVC_MP_ENUM
#undef OVC_MP_STR

/* Checks val (the int as a pointer, or the text) against d; only when
 * every check passed is the value stored in its field of ovc_mp. Returns
 * 0 or -1 with a message naming the parameter and what it accepts. */
static int mp_set(const struct ovc_modparam *d, void *val)
{
	void *field = (char *)&ovc_mp + d->off;
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
	if(d->check != NULL && d->check(d->name, val, field) < 0)
		return -1;
	if(d->type != OVC_MP_T_STR)
		*(int *)field = v;
	else if(d->check == NULL)
		*(const char **)field = (const char *)val;
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

const struct ovc_modparam *ovc_mp_at(unsigned i)
{
	return i < MP_COUNT ? &mp_table[i] : NULL;
}

const struct ovc_modparam *ovc_mp_find(const char *name)
{
	size_t i;

	for(i = 0; i < MP_COUNT; i++)
		if(strcmp(mp_table[i].name, name) == 0)
			return &mp_table[i];
	return NULL;
}

const struct ovc_modparam *ovc_mp_live_find(const char *name)
{
	const struct ovc_modparam *d = ovc_mp_find(name);

	return d != NULL && d->rt ? d : NULL;
}

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
