/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the baseline "none" as a descriptor: decides nothing.
 */
#include <math.h>

#include "ovc/alg.h"

/* Epoch of the baseline, ms: it only keeps the counters moving. */
#define NONE_EPOCH_MS 1000

static int none_init(struct ovc_ctl *c)
{
	return OVC_OK;
}

static int none_step(struct ovc_ctl *c, const struct ovc_measure *m,
		double dt, struct ovc_output *o)
{
	ovc_output_from_f(o, 1.0);
	return OVC_OK;
}

static unsigned none_epoch_ms(const struct ovc_params *p)
{
	return NONE_EPOCH_MS;
}

const struct ovc_alg_desc ovc_alg_none = {
	.name = "none",
	.traits = {.controlled = 0},
	.init = none_init,
	.step = none_step,
	.epoch_ms = none_epoch_ms,
};
