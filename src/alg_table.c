/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the table of algorithm descriptors, generated from ovc/algs.def,
 * and what the descriptors share.
 */
#include <math.h>
#include <string.h>

#include "ovc/alg.h"

static const struct ovc_alg_desc *const table[OVC_ALG_COUNT] = {
#define OVC_ALG_DEF(id, name, state, params) \
	[OVC_ALG_##id] = &ovc_alg_##name,
#include "ovc/algs.def"
#undef OVC_ALG_DEF
};

const struct ovc_alg_desc *ovc_alg_desc(enum ovc_alg a)
{
	if((unsigned)a >= OVC_ALG_COUNT)
		return NULL;
	return table[a];
}

const struct ovc_alg_traits *ovc_alg_traits(enum ovc_alg a)
{
	if((unsigned)a >= OVC_ALG_COUNT)
		a = OVC_ALG_NONE;
	return &table[a]->traits;
}

double ovc_alg_cpu_target(enum ovc_alg a, const struct ovc_params *p)
{
	const struct ovc_alg_desc *d = ovc_alg_desc(a);

	if(d == NULL || d->cpu_target == NULL || p == NULL)
		return 0.0;
	return d->cpu_target(p);
}

const char *ovc_alg_name(enum ovc_alg a)
{
	if((unsigned)a >= OVC_ALG_COUNT)
		return NULL;
	return table[a]->name;
}

int ovc_alg_from_name(const char *name, enum ovc_alg *out)
{
	unsigned i;

	if(name == NULL || out == NULL)
		return OVC_ENOENT;
	for(i = 0; i < OVC_ALG_COUNT; i++) {
		if(strcmp(name, table[i]->name) == 0) {
			*out = (enum ovc_alg)i;
			return OVC_OK;
		}
	}
	return OVC_ENOENT;
}

void ovc_output_from_f(struct ovc_output *o, double f)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->f = f;
	o->u = -1.0;
	o->alpha = 1.0 - f;
	o->p_reject[OVC_CLASS_INVITE] = 1.0 - f;
	o->f_arrival = 1.0;
	for(i = 0; i < OVC_CLASS_COUNT; i++)
		o->burst_limit[i] = -1.0;
}

int ovc_meas_ok(double v)
{
	return isfinite(v) && v >= 0.0;
}
