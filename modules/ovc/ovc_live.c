/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the modparams held in the shared block that ovc.set changes at run
 * time (column set `live` of ovc_modparams.def): algorithm (tried on a
 * trial controller first), mode, dry_run. Their hooks are declared in
 * ovc_modparams.h.
 */
#include <stdio.h>

#include "core/mem/mem.h"

#include "ovc_modparams.h"
#include "ovc_shm.h"

static int alg_get(void)
{
	return atomic_load(&ovc->alg);
}

/* the running parameters must suit the new controller: tried first */
static int alg_set(int v, char *err, int len)
{
	struct ovc_params p;
	struct ovc_ctl *trial;
	int rc;

	trial = pkg_malloc(ovc_ctl_size());
	if(trial == NULL) {
		snprintf(err, len, "Out of memory");
		return 500;
	}
	lock_get(&ovc->lock);
	p = ovc->params;
	rc = ovc_ctl_init(trial, (enum ovc_alg)v, &p);
	if(rc == OVC_OK) {
		atomic_store(&ovc->alg, v);
		atomic_store(&ovc->reconfig, 1);
	}
	lock_release(&ovc->lock);
	pkg_free(trial);
	if(rc == OVC_OK)
		return 0;
	snprintf(err, len, "algorithm %s cannot start: %s",
			ovc_alg_name((enum ovc_alg)v), ovc_strerror(rc));
	return 400;
}

const struct ovc_mp_live ovc_mp_live_algorithm = {alg_get, alg_set};

static int mode_get(void)
{
	return atomic_load(&ovc->mode);
}

static int mode_set(int v, char *err, int len)
{
	atomic_store(&ovc->mode, v);
	return 0;
}

const struct ovc_mp_live ovc_mp_live_mode = {mode_get, mode_set};

static int dry_run_get(void)
{
	return atomic_load(&ovc->dry_run);
}

static int dry_run_set(int v, char *err, int len)
{
	atomic_store(&ovc->dry_run, v);
	return 0;
}

const struct ovc_mp_live ovc_mp_live_dry_run = {dry_run_get, dry_run_set};
