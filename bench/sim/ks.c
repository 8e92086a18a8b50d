/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - the kernel stage (ks.h). The admitted-calls map is a flag
 * per call (the module's is an LRU of 65536 calls).
 */
#include <stdlib.h>
#include <string.h>

#include "ovc/alg.h"
#include "ovc/kstage_abi.h"
#include "ovc/kstage_scan.h"
#include "ovc/kstage_seen.h"

#include "ks.h"

/* the module's fixed settings (ovc_kstage.c) */
#define KS_WEIGHT 0.5
#define KS_MAX 0.98
#define KS_MIN_REFUSALS 20
#define KS_WINDOW_S 0.2

int sim_ks_open(struct sim_world *w)
{
	ovc_ksplit_init(&w->split);
	w->ks_share = 0;
	if(!w->cfg->kstage)
		return 0;
	w->seen = calloc(OVC_KS_SEEN_BUCKETS, sizeof(*w->seen));
	return w->seen ? 0 : -1;
}

void sim_ks_close(struct sim_world *w)
{
	free(w->seen);
	w->seen = NULL;
}

static unsigned now_ms(const struct sim_world *w)
{
	return (unsigned)(w->now / OVC_NS_PER_MS);
}

int sim_ks_filter(struct sim_world *w, uint32_t id)
{
	const struct sim_call *c = &w->calls[id];
	uint64_t drop;

	if(w->seen == NULL || c->kskey == 0)
		return 1;
	w->ks_initial++;
	ovc_ks_seen_note(&w->seen[ovc_ks_seen_index(c->kskey)], c->kskey,
			now_ms(w));
	drop = (uint64_t)(w->ks_share * (double)OVC_KS_ONE);
	if(drop == 0 || c->ks_admitted)
		return 1;
	if(!ovc_ks_call_dropped(c->kskey, drop))
		return 1;
	w->ks_dropped++;
	SIM_INC(w, ks_drops);
	return 0;
}

void sim_ks_admitted(struct sim_world *w, uint32_t id)
{
	struct sim_call *c = &w->calls[id];

	if(w->seen == NULL || c->kskey == 0)
		return;
	ovc_ks_seen_admit(
			&w->seen[ovc_ks_seen_index(c->kskey)], c->kskey, now_ms(w));
	c->ks_admitted = 1;
}

int64_t sim_ks_call_age_ns(struct sim_world *w, uint32_t id)
{
	const struct sim_call *c = &w->calls[id];
	long long age;

	if(w->seen == NULL || c->kskey == 0)
		return -1;
	age = ovc_ks_seen_age_ms(
			&w->seen[ovc_ks_seen_index(c->kskey)], c->kskey, now_ms(w));
	return age < 0 ? -1 : (int64_t)age * OVC_NS_PER_MS;
}

void sim_ks_epoch(struct sim_world *w, const struct ovc_measure *m,
		uint64_t refused)
{
	struct ovc_ksplit_params p = {w->cfg->kstage_budget / 100.0, KS_WEIGHT,
			KS_MAX, KS_MIN_REFUSALS, KS_WINDOW_S};
	struct ovc_ksplit_in in;

	if(w->seen == NULL)
		return;
	in.dt_s = m->dt_s;
	in.offered = (uint64_t)m->offered[OVC_CLASS_INVITE];
	in.admitted = (uint64_t)m->admitted[OVC_CLASS_INVITE];
	in.refused = refused;
	in.cpu_reject = m->cpu_reject;
	/* the module's may_act(): overload evident, an algorithm that
	 * controls some class (no dry run, no emergency list in the model) */
	in.may_act = w->over && ovc_alg_traits(w->cfg->alg)->controlled != 0;
	w->ks_share = ovc_ksplit_step(&w->split, &p, &in);
}

int sim_ks_holds(const struct sim_world *w)
{
	return w->seen != NULL && w->ks_share > 0 && w->split.target > 0;
}

uint64_t sim_ks_key(const char *buf, size_t len)
{
	return ovc_ks_call_key(buf, len);
}
