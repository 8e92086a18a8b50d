/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - RPC ovc.get and ovc.set: the plain modparams settable at run time
 * (column set `live` of ovc_modparams.def: algorithm, mode, dry_run,
 * network_mode) and every entry of the parameter registry. A refused value
 * changes nothing: a new registry value is tried on a trial controller
 * first.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dprint.h"
#include "core/mem/mem.h"
#include "core/utils/srjson.h"

#include "ovc_modparams.h"
#include "ovc_rpc_json.h"
#include "ovc_rpc_param.h"
#include "ovc_rsoca.h"
#include "ovc_shm.h"

/* A live modparam's value v as text: an ENUM's name, an INT's digits. */
static const char *plain_text(
		const struct ovc_modparam *d, int v, char *buf, int size)
{
	if(d->type == OVC_MP_T_ENUM)
		return (unsigned)v < d->names->count ? d->names->names[v] : "?";
	snprintf(buf, size, "%d", v);
	return buf;
}

static void add_plain(rpc_t *rpc, void *th, const struct ovc_modparam *d)
{
	char buf[16];
	int v = d->live->get();

	if(d->type == OVC_MP_T_ENUM)
		rpc->struct_add(th, "s", d->name, plain_text(d, v, buf, sizeof(buf)));
	else
		rpc->struct_add(th, "d", d->name, v);
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
	const struct ovc_modparam *mp;
	const struct ovc_param_def *d;
	void *th;
	unsigned i;
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
	if(name.len == 0) {
		for(i = 0; (mp = ovc_mp_at(i)) != NULL; i++)
			if(mp->rt)
				add_plain(rpc, th, mp);
		for(i = 0; i < ovc_param_count(); i++)
			add_param(rpc, th, ovc_param_at(i), &p);
		return;
	}
	mp = ovc_mp_live_find(buf);
	if(mp != NULL) {
		add_plain(rpc, th, mp);
		return;
	}
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
		"Sets a parameter: a plain one settable at run time (ovc.get lists"
		" them: algorithm, mode, dry_run, network_mode) or any registry name"
		" (e.g. occ.target). A refused value changes nothing.",
		0};

/* The value text val of live modparam d as its int: an ENUM's name, an
 * INT's digits as they print (no sign, space or leading zero added) in
 * its range. Returns 0, or -1 with the reason in err. */
static int plain_value(const struct ovc_modparam *d, const char *val,
		int *v, char *err, int len)
{
	char names[128], back[16];
	char *end;
	long n;

	if(d->type == OVC_MP_T_ENUM) {
		*v = ovc_names_find(d->names, val);
		if(*v >= 0)
			return 0;
		snprintf(err, len, "%s: unknown '%s' (%s)", d->name, val,
				ovc_names_join(d->names, names, sizeof(names)));
		return -1;
	}
	n = strtol(val, &end, 10);
	if(*end == '\0' && n >= d->min && n <= d->max) {
		snprintf(back, sizeof(back), "%ld", n);
		if(strcmp(back, val) == 0) {
			*v = (int)n;
			return 0;
		}
	}
	if(d->min == 0 && d->max == 1)
		snprintf(err, len, "%s: '%s' is not 0 or 1", d->name, val);
	else
		snprintf(err, len, "%s: '%s' is not an integer in [%d, %d]",
				d->name, val, d->min, d->max);
	return -1;
}

/* ovc.set of live modparam d to the text val: checked against its line,
 * then put in force by its consumer; the change logged at NOTICE. */
static void set_plain(rpc_t *rpc, void *ctx, const struct ovc_modparam *d,
		const char *val)
{
	char err[192], was[16], now[16];
	int v, old, code;

	if(plain_value(d, val, &v, err, sizeof(err)) < 0) {
		rpc->fault(ctx, 400, "%s", err);
		return;
	}
	old = d->live->get();
	code = d->live->set(v, err, sizeof(err));
	if(code != 0) {
		rpc->fault(ctx, code, "%s", err);
		return;
	}
	LM_NOTICE("ovc.set %s: %s -> %s\n", d->name,
			plain_text(d, old, was, sizeof(was)),
			plain_text(d, v, now, sizeof(now)));
}

void ovc_rpc_set(rpc_t *rpc, void *ctx)
{
	str name = STR_NULL;
	char nbuf[128], vbuf[128], err[256];
	const struct ovc_modparam *mp;
	struct ovc_params p;
	int rc;

	if(rpc->scan(ctx, "S", &name) < 1 || name.len <= 0
			|| name.len >= (int)sizeof(nbuf)) {
		rpc->fault(ctx, 400, "usage: ovc.set name value");
		return;
	}
	memcpy(nbuf, name.s, name.len);
	nbuf[name.len] = '\0';
	mp = ovc_mp_live_find(nbuf);
	if(mp == NULL && ovc_param_find(nbuf) == NULL) {
		if(ovc_mp_find(nbuf) != NULL) /* not live: set at start only */
			rpc->fault(ctx, 400,
					"%s is set at start only: modparam(\"ovc\", \"%s\","
					" ...) and a restart (ovc.set changes algorithm, mode,"
					" dry_run, network_mode and the param registry)",
					nbuf, nbuf);
		else
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
	if(mp != NULL) {
		set_plain(rpc, ctx, mp, vbuf);
		return;
	}

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
