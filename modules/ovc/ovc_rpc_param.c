/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - RPC ovc.get and ovc.set: the plain settings (algorithm, mode,
 * dry_run) and every entry of the parameter registry. A refused value
 * changes nothing: a new value is tried on a trial controller first.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/dprint.h"
#include "core/mem/mem.h"
#include "core/utils/srjson.h"

#include "ovc_nexthop.h"
#include "ovc_rpc_json.h"
#include "ovc_rpc_param.h"
#include "ovc_rsoca.h"
#include "ovc_shm.h"

/* Plain (non-registry) names ovc.get/ovc.set understand. */
static const char *plain_names[] = {
		"algorithm", "mode", "dry_run", "network_mode", NULL};

static int is_plain(const char *name)
{
	int i;

	for(i = 0; plain_names[i]; i++)
		if(strcmp(name, plain_names[i]) == 0)
			return 1;
	return 0;
}

static void add_param(rpc_t *rpc, void *th, const struct ovc_param_def *d,
		const struct ovc_params *p)
{
	double v = 0;

	ovc_param_get(p, d->name, &v);
	rpc->struct_add(th, "f", d->name, v);
}

const char *ovc_rpc_get_doc[2] = {
		"Reads one parameter by name, or all of them without a name.", 0};

void ovc_rpc_get(rpc_t *rpc, void *ctx)
{
	str name = STR_NULL;
	struct ovc_params p;
	const struct ovc_param_def *d;
	void *th;
	size_t i;
	char buf[128];

	if(rpc->scan(ctx, "*S", &name) < 1)
		name.len = 0;
	lock_get(&ovc->lock);
	p = ovc->params;
	lock_release(&ovc->lock);

	if(name.len > 0) {
		if(name.len >= (int)sizeof(buf)) {
			rpc->fault(ctx, 404, "Unknown parameter");
			return;
		}
		memcpy(buf, name.s, name.len);
		buf[name.len] = '\0';
	}
	if(rpc->add(ctx, "{", &th) < 0) {
		rpc->fault(ctx, 500, "Internal error creating the reply");
		return;
	}
	if(name.len == 0 || strcmp(buf, "algorithm") == 0)
		rpc->struct_add(
				th, "s", "algorithm", ovc_alg_name(atomic_load(&ovc->alg)));
	if(name.len == 0 || strcmp(buf, "mode") == 0)
		rpc->struct_add(
				th, "s", "mode", ovc_mode_name(atomic_load(&ovc->mode)));
	if(name.len == 0 || strcmp(buf, "dry_run") == 0)
		rpc->struct_add(th, "d", "dry_run", atomic_load(&ovc->dry_run));
	if(name.len == 0 || strcmp(buf, "network_mode") == 0)
		rpc->struct_add(th, "s", "network_mode", ovc_net_mode_name());
	if(name.len == 0) {
		for(i = 0; i < ovc_param_count(); i++)
			add_param(rpc, th, ovc_param_at(i), &p);
		return;
	}
	if(is_plain(buf))
		return;
	d = ovc_param_find(buf);
	if(d == NULL) {
		rpc->fault(ctx, 404, "Unknown parameter %s", buf);
		return;
	}
	add_param(rpc, th, d, &p);
}

/* Reads the value argument as text into buf, whatever its RPC type, for
 * the registry's own parser: a string as sent, a number (binrpc int or
 * double, JSON number) printed with 15 significant digits, which every
 * decimal of up to 15 digits survives (jsonrpcs reads 0.0009 as
 * 0.0009000000000000001). In Kamailio 5.6 "S" fails on a number without
 * consuming it (ctl: type mismatch; jsonrpcs: no conversion), then ".f"
 * reads it; ".f" first would take a string's leading number ("0.5junk":
 * 0.5, ctl) or 0 (jsonrpcs), and ".S" prints a JSON number's integer part
 * and cannot print a binrpc double (nor can "S" with ctl's
 * autoconversion on: doubles are then refused). binrpc carries a double
 * as whole thousandths and kamcmd's integers in 32 bits (kamcmd sends
 * 0.0009 as 0): a value needing more goes as text (kamcmd: s:0.0009).
 * jsonrpcs reads an array, an object, null and false as 0 and true as
 * 1: its node's type is looked at first (ovc_rpc_json.h) and anything
 * but a number is refused. Returns 0, -1 for no value, an empty one, one
 * too long or with a NUL inside, -2 for a JSON value that is neither a
 * string nor a number. */
static int scan_value(rpc_t *rpc, void *ctx, char *buf, int size)
{
	str s = STR_NULL;
	double d;
	int n, t;

	if(rpc->scan(ctx, "*S", &s) == 1) {
		if(s.s == NULL || s.len <= 0 || s.len >= size
				|| memchr(s.s, '\0', s.len) != NULL)
			return -1;
		memcpy(buf, s.s, s.len);
		buf[s.len] = '\0';
		return 0;
	}
	t = ovc_rpc_json_next_type(rpc, ctx, "ovc.set");
	if(t >= 0 && t != srjson_Number)
		return -2;
	if(rpc->scan(ctx, "*.f", &d) != 1 || !isfinite(d))
		return -1;
	n = snprintf(buf, size, "%.15g", d);
	return (n > 0 && n < size) ? 0 : -1;
}

const char *ovc_rpc_set_doc[2] = {
		"Sets a parameter: algorithm, mode, dry_run, network_mode or any"
		" registry name"
		" (e.g. occ.target). A refused value changes nothing.",
		0};

static int set_plain(rpc_t *rpc, void *ctx, const char *name, const char *val)
{
	char names[128];

	if(strcmp(name, "algorithm") == 0) {
		enum ovc_alg alg;
		struct ovc_params p;
		struct ovc_ctl *trial;
		int rc;

		if(ovc_alg_from_name(val, &alg) != OVC_OK) {
			rpc->fault(ctx, 400, "algorithm: unknown '%s' (%s)", val,
					ovc_names_join(&ovc_alg_names, names, sizeof(names)));
			return 1;
		}
		trial = pkg_malloc(ovc_ctl_size());
		if(trial == NULL) {
			rpc->fault(ctx, 500, "Out of memory");
			return 1;
		}
		lock_get(&ovc->lock);
		p = ovc->params;
		rc = ovc_ctl_init(trial, alg, &p);
		if(rc == OVC_OK) {
			LM_NOTICE("ovc.set algorithm: %s -> %s\n",
					ovc_alg_name(atomic_load(&ovc->alg)), ovc_alg_name(alg));
			atomic_store(&ovc->alg, alg);
			atomic_store(&ovc->reconfig, 1);
		}
		lock_release(&ovc->lock);
		pkg_free(trial);
		if(rc != OVC_OK)
			rpc->fault(ctx, 400, "algorithm %s cannot start: %s", val,
					ovc_strerror(rc));
		return 1;
	}
	if(strcmp(name, "mode") == 0) {
		int m = ovc_names_find(&ovc_mode_names, val);

		if(m < 0) {
			rpc->fault(ctx, 400, "mode: unknown '%s' (%s)", val,
					ovc_names_join(&ovc_mode_names, names, sizeof(names)));
			return 1;
		}
		LM_NOTICE("ovc.set mode: %s -> %s\n",
				ovc_mode_name(atomic_exchange(&ovc->mode, m)), val);
		return 1;
	}
	if(strcmp(name, "network_mode") == 0) {
		char err[160];

		if(ovc_net_set_mode(val, err, sizeof(err)) < 0)
			rpc->fault(ctx, 400, "%s", err);
		return 1;
	}
	if(strcmp(name, "dry_run") == 0) {
		if(strcmp(val, "0") == 0 || strcmp(val, "1") == 0)
			LM_NOTICE("ovc.set dry_run: %d -> %c\n",
					atomic_exchange(&ovc->dry_run, val[0] == '1'), val[0]);
		else
			rpc->fault(ctx, 400, "dry_run: '%s' is not 0 or 1", val);
		return 1;
	}
	return 0;
}

void ovc_rpc_set(rpc_t *rpc, void *ctx)
{
	str name = STR_NULL;
	char nbuf[128], vbuf[128], err[256];
	struct ovc_params p;
	int rc;

	if(rpc->scan(ctx, "S", &name) < 1 || name.len <= 0
			|| name.len >= (int)sizeof(nbuf)) {
		rpc->fault(ctx, 400, "usage: ovc.set name value");
		return;
	}
	memcpy(nbuf, name.s, name.len);
	nbuf[name.len] = '\0';
	if(!is_plain(nbuf) && ovc_param_find(nbuf) == NULL) {
		rpc->fault(ctx, 404, "Unknown parameter %s", nbuf);
		return;
	}
	rc = scan_value(rpc, ctx, vbuf, sizeof(vbuf));
	if(rc == -2) {
		rpc->fault(ctx, 400,
				"%s: the value must be a number or a string (no array,"
				" object, true, false or null)",
				nbuf);
		return;
	}
	if(rc < 0) {
		rpc->fault(
				ctx, 400, "%s: no value, an empty one or one too long", nbuf);
		return;
	}
	if(set_plain(rpc, ctx, nbuf, vbuf))
		return;

	lock_get(&ovc->lock);
	p = ovc->params;
	rc = ovc_param_set(&p, nbuf, vbuf, err, sizeof(err));
	if(rc == OVC_OK) {
		struct ovc_ctl *trial = pkg_malloc(ovc_ctl_size());

		if(trial == NULL) {
			rc = OVC_ENOMEM;
			snprintf(err, sizeof(err), "out of memory");
		} else {
			rc = ovc_ctl_init(trial, atomic_load(&ovc->alg), &p);
			if(rc != OVC_OK)
				snprintf(err, sizeof(err),
						"%.60s=%.60s refused by algorithm %s",
						nbuf, vbuf, ovc_alg_name(atomic_load(&ovc->alg)));
			pkg_free(trial);
		}
	}
	if(rc == OVC_OK) {
		double old = 0, now = 0;

		ovc_param_get(&ovc->params, nbuf, &old);
		ovc_param_get(&p, nbuf, &now);
		ovc->params = p;
		atomic_store(&ovc->reconfig, 1);
		ovc_rsoca_settings(&p); /* the reply changes at once */
		LM_NOTICE("ovc.set %s: %.15g -> %.15g\n", nbuf, old, now);
	}
	lock_release(&ovc->lock);
	if(rc != OVC_OK)
		rpc->fault(ctx, rc == OVC_ENOENT ? 404 : 400, "%s", err);
}
