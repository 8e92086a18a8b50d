/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the statistics of ovc_stats.def: one getter per statistic, made
 * from its value expression, and one table registering them all. See
 * ovc_stats.h.
 */
#include <limits.h>
#include <math.h>

#include "core/counters.h"

#include "ovc_kstage.h"
#include "ovc_nexthop.h"
#include "ovc_onset.h"
#include "ovc_queue.h"
#include "ovc_rxq.h"
#include "ovc_sampler.h"
#include "ovc_shm.h"
#include "ovc_stats.h"
#include "ovc_tmreap.h"

/* ------------------------------------------ what the values are read with */

#define total(cls, vd) atomic_load(&ovc->total.v[OVC_CLASS_##cls][OVC_V_##vd])
#define ev(e) atomic_load(&ovc->ev_total[OVC_E_##e])
#define reaped(c) ovc_tr_ended(OVC_CLASS_##c)
#define live_transactions() ((uint64_t)ovc_tr_live_now())

/* Transitions to overload since start. */
static uint64_t onsets(void)
{
	struct ovc_onset_view v;

	ovc_onset_view(&v);
	return v.onsets;
}

/* v times scale, rounded: 0 for negative or NaN values, LONG_MAX at most. */
static uint64_t scaled(double v, double scale)
{
	v *= scale;
	if(!(v > 0))
		return 0;
	if(v >= (double)LONG_MAX)
		return LONG_MAX;
	return (uint64_t)llround(v);
}

/* A fraction (1: all) in parts per million. */
static uint64_t ppm(double fraction)
{
	return scaled(fraction, 1e6);
}

/* Milliseconds in microseconds. */
static uint64_t us(double ms)
{
	return scaled(ms, 1e3);
}

/* A non-negative value as a statistic (LONG_MAX at most). */
static counter_val_t stat_value(uint64_t n)
{
	return n > (uint64_t)LONG_MAX ? LONG_MAX : (counter_val_t)n;
}

/* ------------------------------------------------- getters and table */

/* one getter per statistic: 0 until the shared state exists */
#define OVC_STAT(name, kind, unit, value, doc)                   \
	static counter_val_t get_##name(counter_handle_t h, void *p) \
	{                                                            \
		if(ovc == NULL)                                          \
			return 0;                                            \
		return stat_value((uint64_t)(value));                    \
	}
#include "ovc_stats.def"

/* what a kind means to Kamailio: a gauge is never reset */
#define FLAGS_COUNTER 0
#define FLAGS_GAUGE CNT_F_NO_RESET

/* clang-format off */
static counter_def_t stats[] = {
#define OVC_STAT(name, kind, unit, value, doc) \
	{0, #name, FLAGS_##kind, get_##name, 0, doc " (" unit ")"},
#include "ovc_stats.def"
	{0, 0, 0, 0, 0, 0}
};
/* clang-format on */

int ovc_stats_register(void)
{
	return counter_register_array("ovc", stats);
}
