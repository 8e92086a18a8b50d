/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the parameter table: every tunable of every controller with its
 * default (from the papers' tables), range, unit and doc, and the parser
 * behind modparam("ovc", "param", "name=value") and the ovc.set RPC.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovc/params.h"
#include "ovc/errmsg.h"
#include "ovc/types.h"

#define D OVC_PARAM_DOUBLE
#define U OVC_PARAM_UINT
#define OFF(f) offsetof(struct ovc_params, f)

/* clang-format off */
static const struct ovc_param_def param_table[] = {
	/* bbc: 000 §VI-B, 003 §VII (Ohta) */
	{"bbc.high", D, 800, 1, 1e9, OFF(bbc.high), "messages",
		"high watermark B_h: overload when the INVITE queue exceeds it"},
	{"bbc.low", D, 600, 0, 1e9, OFF(bbc.low), "messages",
		"low watermark B_l (< bbc.high): underload when the queue falls "
		"below it"},
	{"bbc.epoch_ms", U, 10, 1, 60000, OFF(bbc.epoch_ms), "ms",
		"period at which the queue length is examined"},
	/* occ: 000 eq. 1-2, §VI-C */
	{"occ.target", D, 0.9, 0.01, 1, OFF(occ.target), "fraction",
		"rho_target: CPU occupancy OCC steers to"},
	{"occ.f_min", D, 0.02, 0, 0.99, OFF(occ.f_min), "fraction",
		"f_min: smallest acceptance fraction"},
	{"occ.phi_max", D, 5, 1, 1000, OFF(occ.phi_max), "factor",
		"phi_max: largest multiplicative increase of f per epoch"},
	{"occ.epoch_ms", U, 1000, 1, 60000, OFF(occ.epoch_ms), "ms",
		"control epoch (000: 1 s)"},
	/* occupancy: 001 eq. 1-3, §6.5 */
	{"occupancy.k", U, 25, 1, 256, OFF(occupancy.k), "samples",
		"k: samples in the occupancy window"},
	{"occupancy.target", D, 0.95, 0.01, 1, OFF(occupancy.target), "fraction",
		"rho_thresh: CPU occupancy the controller steers to"},
	{"occupancy.f_min", D, 0.05, 0, 0.99, OFF(occupancy.f_min), "fraction",
		"f_min: smallest acceptance fraction"},
	{"occupancy.w", D, 0.1, 0.001, 1, OFF(occupancy.w), "weight",
		"w: EWMA weight of a new occupancy sample"},
	{"occupancy.epoch_ms", U, 40, 1, 60000, OFF(occupancy.epoch_ms), "ms",
		"sampling period (001: every 125 packets)"},
	/* aro: 001 eq. 4-5, §6.5 */
	{"aro.k", U, 25, 1, 256, OFF(aro.k), "samples",
		"k: samples in the occupancy and acceptance windows"},
	{"aro.rho_target", D, 0.95, 0.01, 1, OFF(aro.rho_target), "fraction",
		"rho_targ: CPU occupancy target"},
	{"aro.alpha_target", D, 0.95, 0.01, 1, OFF(aro.alpha_target), "fraction",
		"alpha_targ: acceptance-rate target"},
	{"aro.f_min", D, 0.05, 0, 0.99, OFF(aro.f_min), "fraction",
		"f_min: smallest acceptance fraction"},
	{"aro.w", D, 0.1, 0.001, 1, OFF(aro.w), "weight",
		"w: EWMA weight of a new occupancy sample"},
	{"aro.epoch_ms", U, 40, 1, 60000, OFF(aro.epoch_ms), "ms",
		"sampling period (001: every 125 packets)"},
	/* sired: 001 eq. 6-8, §6.5 */
	{"sired.qmin", D, 0.7, 0, 1, OFF(sired.qmin), "fraction",
		"Q_min: queue occupancy where rejection starts"},
	{"sired.qmax", D, 0.9, 0, 1, OFF(sired.qmax), "fraction",
		"Q_max (> sired.qmin): queue occupancy where f reaches f_min"},
	{"sired.f_min", D, 0.05, 0, 0.99, OFF(sired.f_min), "fraction",
		"f_min: smallest acceptance fraction"},
	{"sired.w", D, 0.05, 0.001, 1, OFF(sired.w), "weight",
		"w: EWMA weight of a new queue sample"},
	{"sired.epoch_ms", U, 40, 1, 60000, OFF(sired.epoch_ms), "ms",
		"sampling period (001: every 125 packets)"},
	/* rsoca: 004 eq. 1-9, §III-IV */
	{"rsoca.cmin", D, 0.2, 0, 1, OFF(rsoca.cmin), "fraction",
		"C_min: CPU load where rejection starts"},
	{"rsoca.cmax", D, 0.4, 0, 1, OFF(rsoca.cmax), "fraction",
		"C_max (> rsoca.cmin): CPU load of severe overload"},
	{"rsoca.mmin", D, 0.8, 0, 1, OFF(rsoca.mmin), "fraction",
		"M_min: memory use (of the budget) where rejection starts"},
	{"rsoca.mmax", D, 0.95, 0, 1, OFF(rsoca.mmax), "fraction",
		"M_max (> rsoca.mmin): memory use of severe overload"},
	{"rsoca.sigma", D, 0.6, 0.01, 1, OFF(rsoca.sigma), "weight",
		"sigma: weight of the new P_T in the smoothed reject probability"},
	{"rsoca.sigma_c", D, 0.6, 0.01, 1, OFF(rsoca.sigma_c), "weight",
		"sigma: weight of the new CPU sample in the smoothed CPU load"},
	{"rsoca.dead", D, 0.05, 0, 0.5, OFF(rsoca.dead), "probability",
		"dead zone: smoothed reject probabilities up to it count as 0"},
	{"rsoca.ei", D, 1000, 0, 1e7, OFF(rsoca.ei), "requests/s",
		"E_I: engineered initial INVITEs per second (0: no burst limit)"},
	{"rsoca.ed", D, 0, 0, 1e7, OFF(rsoca.ed), "requests/s",
		"E_D: engineered in-dialog requests per second (0: no burst limit)"},
	{"rsoca.er", D, 0, 0, 1e7, OFF(rsoca.er), "requests/s",
		"E_R: engineered REGISTERs per second (0: no burst limit)"},
	{"rsoca.eo", D, 0, 0, 1e7, OFF(rsoca.eo), "requests/s",
		"E_O: engineered other requests per second (0: no burst limit)"},
	{"rsoca.ben", D, 1.7, 1, 100, OFF(rsoca.ben), "factor",
		"B_en: burstiness factor over the engineered traffic"},
	{"rsoca.nr", D, 1, 0, 1000, OFF(rsoca.nr), "count",
		"N_r: expected re-INVITEs per session"},
	{"rsoca.ppass", D, 0.1, 0, 1, OFF(rsoca.ppass), "probability",
		"p_pass: chance that one of n transmissions of a request passes"},
	{"rsoca.nretx", U, 10, 1, 100, OFF(rsoca.nretx), "count",
		"n: transmissions of an in-dialog request (drop cap p_pass^(1/n))"},
	{"rsoca.epoch_ms", U, 1000, 1, 60000, OFF(rsoca.epoch_ms), "ms",
		"measurement interval T"},
	/* rsoca reject settings (004 §III-A) */
	{"rsoca.reject_code", U, 500, 500, 503, OFF(rsoca.reject_code), "code",
		"status of R-SOCA's stateless rejects: 500 (004) or 503"},
	{"rsoca.tretry", U, 5, 0, 86400, OFF(rsoca.tretry), "s",
		"T_retry: Retry-After of R-SOCA's rejects (0: no header)"},
	/* rsoca memory control: 004 §III-D */
	{"rsoca.mem_source", U, 0, 0, 2, OFF(memctl.source), "enum",
		"memory in use: 0 shared memory used, 1 live transactions x S,"
		" 2 both (the larger P_mem counts)"},
	{"rsoca.s", D, 8500, 1, 1e8, OFF(memctl.s), "bytes",
		"S: bytes of state per transaction (004: 8.5 KB)"},
	{"rsoca.mmin_bytes", D, 0, 0, 1e13, OFF(memctl.mmin_bytes), "bytes",
		"M_min in bytes (0: M_max / B if rsoca.mmax_bytes is set, else"
		" rsoca.mmin of shm, or eq. 8 for transactions)"},
	{"rsoca.mmax_bytes", D, 0, 0, 1e13, OFF(memctl.mmax_bytes), "bytes",
		"M_max in bytes (0: M_min B by eq. 9 if rsoca.mmin_bytes is set,"
		" else rsoca.mmax of shm, or eq. 9 for transactions)"},
	{"rsoca.reap", U, 1, 0, 1, OFF(memctl.reap), "on/off",
		"1: above M_min end transactions older than T B (500 upstream;"
		" in-dialog: no reply)"},
	{"rsoca.reap_ti_ms", U, 10000, 1, 3600000, OFF(memctl.ti_ms), "ms",
		"T_I: INVITE transaction lifetime (004: 10 s)"},
	{"rsoca.reap_tr_ms", U, 4000, 1, 3600000, OFF(memctl.tr_ms), "ms",
		"T_R: REGISTER transaction lifetime"},
	{"rsoca.reap_to_ms", U, 1000, 1, 3600000, OFF(memctl.to_ms), "ms",
		"T_O: in-dialog and other transactions' lifetime"},
	{"rsoca.reap_b", D, 2, 1.0001, 100, OFF(memctl.b), "factor",
		"B (> rsoca.ben): age limit T B and M_max = B M_min (004: 2)"},
	/* pi: 003 eq. 7-8, §V-VII */
	{"pi.kpc", D, 3.5, 0, 1e4, OFF(pi.kpc), "1",
		"K_pc: proportional gain of the CPU loop"},
	{"pi.kic", D, 10.3, 0, 1e5, OFF(pi.kic), "1/s",
		"K_ic: integral gain of the CPU loop"},
	{"pi.kpq", D, 19.2, 0, 1e5, OFF(pi.kpq), "1/s",
		"K_pq: proportional gain of the queue loop"},
	{"pi.kiq", D, 130.5, 0, 1e6, OFF(pi.kiq), "1/s^2",
		"K_iq: integral gain of the queue loop"},
	{"pi.tq", D, 0.05, 0.001, 10, OFF(pi.tq), "s",
		"T_q: target queueing time (in force: at most half the queue's expiry)"},
	{"pi.tau", D, 0.1, 0, 100, OFF(pi.tau), "s",
		"tau: time constant of the arrival-rate low-pass filter"},
	{"pi.tau_c", D, 0.1, 0, 100, OFF(pi.tau_c), "s",
		"tau_c: time constant of the CPU low-pass filter"},
	{"pi.c_target", D, -1, -1, 1, OFF(pi.c_target), "fraction",
		"C_T: target CPU load (<= 0: 1 under a CPU quota, else 0.9)"},
	{"pi.rho_m", D, 0, 0, 1e7, OFF(pi.rho_m), "INVITEs/s",
		"rho_M: capacity, the scale of the drain rate u (0: learned from "
		"the INVITEs served per CPU share; 1000 until then)"},
	{"pi.u_max", D, 5, 0.01, 1000, OFF(pi.u_max), "x rho_M",
		"largest drain rate u (saturation for anti-windup)"},
	{"pi.epoch_ms", U, 10, 1, 60000, OFF(pi.epoch_ms), "ms",
		"control period T (003: 10 ms)"},
	/* rxq: the kernel's receive queue (issue 9; 001 §4.1.1, 002 §6) */
	{"rxq.sample_ms", U, 20, 1, 1000, OFF(rxq.sample_ms), "ms",
		"period at which the listening sockets' receive queues are read "
		"(at least 100 while nothing can be refused: none without an age "
		"limit)"},
	{"rxq.tau_ms", D, 500, 0, 60000, OFF(rxq.tau_ms), "ms",
		"time constant of the drain-rate filter of the wait estimate (several "
		"CFS periods under a CPU quota)"},
	{"rxq.guard_ms", D, -1, -1, 60000, OFF(rxq.guard_ms), "ms",
		"estimated wait above which occ, occupancy, aro, rsoca and pi get "
		"f capped at guard_ms/wait during overload (0: off; -1: T1/10)"},
	{"rxq.guard_f_min", D, 0.05, 0, 1, OFF(rxq.guard_f_min), "fraction",
		"smallest cap the guard sets"},
	/* mem: the shared-memory guard (ovc/memguard.h) */
	{"mem.high", D, 0.9, 0, 0.99, OFF(memguard.high), "fraction",
		"budget: share of Kamailio's shared memory (-m) the calls admitted "
		"may fill, learned per call admitted (0: no guard)"},
	{"mem.hard", D, 0.97, 0.01, 1, OFF(memguard.hard), "fraction",
		"memory use (> mem.high) at which the guard admits no call"},
	{"mem.window_s", D, 5, 0.1, 600, OFF(memguard.window_s), "s",
		"averaging time of the admitted call rate: about the time a call "
		"holds its memory (tm's wait timer)"},
	{"rxq.max_age_ms", D, -1, -1, 60000, OFF(rxq.max_age_ms), "ms",
		"reject an initial INVITE that waited longer than this in the "
		"receive queue, or whose call the kernel stage first saw longer "
		"ago, while overloaded (the reject reply in force; 0: off; -1: "
		"max(T1/5, CFS stall + T1/25), and under a quota shorter as the "
		"load allows, down to T1/10)"},
	{"rxq.onset_ms", D, -1, -1, 60000, OFF(rxq.onset_ms), "ms",
		"overload is evident when even the freshest initial INVITE of a "
		"window waited longer (T1/2 to start an overload); below it "
		"nothing is refused (0: always overloaded, the papers' "
		"behaviour; -1: T1/25)"},
	{"rxq.t1_ms", U, 500, 50, 10000, OFF(rxq.t1_ms), "ms",
		"RFC 3261 T1 of the callers, the base of the derived rxq settings"},
};
/* clang-format on */

#define PARAM_COUNT (sizeof(param_table) / sizeof(param_table[0]))

size_t ovc_param_count(void)
{
	return PARAM_COUNT;
}

const struct ovc_param_def *ovc_param_at(size_t i)
{
	if(i >= PARAM_COUNT)
		return NULL;
	return &param_table[i];
}

const struct ovc_param_def *ovc_param_find(const char *name)
{
	size_t i;

	if(name == NULL)
		return NULL;
	for(i = 0; i < PARAM_COUNT; i++) {
		if(strcmp(param_table[i].name, name) == 0)
			return &param_table[i];
	}
	return NULL;
}

static double field_get(const struct ovc_params *p,
		const struct ovc_param_def *d)
{
	const char *base = (const char *)p + d->offset;
	double dv;
	unsigned uv;

	if(d->type == OVC_PARAM_UINT) {
		memcpy(&uv, base, sizeof(uv));
		return (double)uv;
	}
	memcpy(&dv, base, sizeof(dv));
	return dv;
}

static void field_set(struct ovc_params *p, const struct ovc_param_def *d,
		double v)
{
	char *base = (char *)p + d->offset;
	unsigned uv;

	if(d->type == OVC_PARAM_UINT) {
		uv = (unsigned)v;
		memcpy(base, &uv, sizeof(uv));
		return;
	}
	memcpy(base, &v, sizeof(v));
}

void ovc_params_defaults(struct ovc_params *p)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	for(i = 0; i < PARAM_COUNT; i++)
		field_set(p, &param_table[i], param_table[i].def);
}

int ovc_param_get(const struct ovc_params *p, const char *name, double *out)
{
	const struct ovc_param_def *d;

	d = ovc_param_find(name);
	if(d == NULL || p == NULL || out == NULL)
		return OVC_ENOENT;
	*out = field_get(p, d);
	return OVC_OK;
}

static int pair_ok(const struct ovc_params *p, const char *lo,
		const char *hi, char *err, size_t errlen)
{
	double a = 0, b = 0;

	ovc_param_get(p, lo, &a);
	ovc_param_get(p, hi, &b);
	if(a < b)
		return 1;
	ovc_set_err(err, errlen, "%s (%g) must be less than %s (%g)", lo, a, hi,
			b);
	return 0;
}

int ovc_params_validate(const struct ovc_params *p, char *err, size_t errlen)
{
	size_t i;
	double v;
	const struct ovc_param_def *d;

	if(p == NULL) {
		ovc_set_err(err, errlen, "no parameters");
		return OVC_EINVAL;
	}
	for(i = 0; i < PARAM_COUNT; i++) {
		d = &param_table[i];
		v = field_get(p, d);
		if(!isfinite(v) || v < d->min || v > d->max) {
			ovc_set_err(err, errlen, "%s: %g is outside [%g, %g] (%s)", d->name,
					v, d->min, d->max, d->unit);
			return OVC_ERANGE;
		}
	}
	if(!pair_ok(p, "bbc.low", "bbc.high", err, errlen)
			|| !pair_ok(p, "sired.qmin", "sired.qmax", err, errlen)
			|| !pair_ok(p, "rsoca.cmin", "rsoca.cmax", err, errlen)
			|| !pair_ok(p, "rsoca.mmin", "rsoca.mmax", err, errlen)
			|| !pair_ok(p, "mem.high", "mem.hard", err, errlen))
		return OVC_ERANGE;
	if(p->rsoca.reject_code != 500 && p->rsoca.reject_code != 503) {
		ovc_set_err(err, errlen, "rsoca.reject_code: %u is not 500 or 503",
				p->rsoca.reject_code);
		return OVC_ERANGE;
	}
	/* rsoca memory control: explicit thresholds increasing when both are
	 * set (one alone: the other follows by eq. 9) */
	if(p->memctl.mmin_bytes > 0 && p->memctl.mmax_bytes > 0
			&& !pair_ok(p, "rsoca.mmin_bytes", "rsoca.mmax_bytes", err,
					errlen))
		return OVC_ERANGE;
	if(!pair_ok(p, "rsoca.ben", "rsoca.reap_b", err, errlen))
		return OVC_ERANGE;
	return OVC_OK;
}

/* Decimal number grammar: [space] [sign] digits [. digits] [e [sign]
 * digits] [space], at least one digit in the mantissa. Refuses hex, inf,
 * nan and trailing garbage, which strtod() alone would take. */
static int decimal_ok(const char *s)
{
	int digits = 0;

	while(*s == ' ' || *s == '\t')
		s++;
	if(*s == '+' || *s == '-')
		s++;
	while(*s >= '0' && *s <= '9') {
		s++;
		digits++;
	}
	if(*s == '.') {
		s++;
		while(*s >= '0' && *s <= '9') {
			s++;
			digits++;
		}
	}
	if(digits == 0)
		return 0;
	if(*s == 'e' || *s == 'E') {
		s++;
		if(*s == '+' || *s == '-')
			s++;
		if(!(*s >= '0' && *s <= '9'))
			return 0;
		while(*s >= '0' && *s <= '9')
			s++;
	}
	while(*s == ' ' || *s == '\t')
		s++;
	return *s == '\0';
}

/* ovc_param_set() with the cross-parameter checks when cross is set. */
static int param_set(struct ovc_params *p, const char *name,
		const char *value, char *err, size_t errlen, int cross)
{
	const struct ovc_param_def *d;
	struct ovc_params tmp;
	double v;
	char *end;
	int rc;

	if(p == NULL || name == NULL || value == NULL) {
		ovc_set_err(err, errlen, "missing parameter name or value");
		return OVC_EINVAL;
	}
	d = ovc_param_find(name);
	if(d == NULL) {
		ovc_set_err(err, errlen, "unknown parameter '%s'", name);
		return OVC_ENOENT;
	}
	if(!decimal_ok(value)) {
		ovc_set_err(err, errlen, "%s: '%s' is not a decimal number in [%g, %g]",
				d->name, value, d->min, d->max);
		return OVC_EINVAL;
	}
	errno = 0;
	v = strtod(value, &end);
	/* ERANGE with a result below 1 in size is an underflow (1e-320: a
	 * denormal, 1e-400: 0), a valid tiny number the range decides on */
	if((errno == ERANGE && fabs(v) >= 1.0) || !isfinite(v)) {
		ovc_set_err(err, errlen, "%s: '%s' overflows; accepted range [%g, %g]",
				d->name, value, d->min, d->max);
		return OVC_EINVAL;
	}
	/* a fraction for an integer is malformed, whatever the range */
	if(d->type == OVC_PARAM_UINT && v != floor(v)) {
		ovc_set_err(err, errlen, "%s: '%s' is not an integer in [%g, %g]",
				d->name, value, d->min, d->max);
		return OVC_EINVAL;
	}
	if(v < d->min || v > d->max) {
		ovc_set_err(err, errlen, "%s: %s is outside [%g, %g] (%s)", d->name,
				value, d->min, d->max, d->unit);
		return OVC_ERANGE;
	}
	tmp = *p;
	field_set(&tmp, d, v);
	rc = cross ? ovc_params_validate(&tmp, err, errlen) : OVC_OK;
	if(rc != OVC_OK)
		return rc;
	*p = tmp;
	return OVC_OK;
}

int ovc_param_set(struct ovc_params *p, const char *name, const char *value,
		char *err, size_t errlen)
{
	return param_set(p, name, value, err, errlen, 1);
}

/* ovc_param_assign() with the cross-parameter checks when cross is set. */
static int param_assign(struct ovc_params *p, const char *assign, char *err,
		size_t errlen, int cross)
{
	char name[64];
	const char *eq, *b, *e;
	size_t n;

	if(p == NULL || assign == NULL) {
		ovc_set_err(err, errlen, "missing assignment");
		return OVC_EINVAL;
	}
	eq = strchr(assign, '=');
	if(eq == NULL) {
		ovc_set_err(err, errlen, "'%s' is not of the form name=value", assign);
		return OVC_EINVAL;
	}
	b = assign;
	while(b < eq && (*b == ' ' || *b == '\t'))
		b++;
	e = eq;
	while(e > b && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	n = (size_t)(e - b);
	if(n == 0 || n >= sizeof(name)) {
		ovc_set_err(err, errlen, "'%s': bad parameter name", assign);
		return n == 0 ? OVC_EINVAL : OVC_ENOENT;
	}
	memcpy(name, b, n);
	name[n] = '\0';
	return param_set(p, name, eq + 1, err, errlen, cross);
}

int ovc_param_assign(
		struct ovc_params *p, const char *assign, char *err, size_t errlen)
{
	return param_assign(p, assign, err, errlen, 1);
}

int ovc_param_assign_staged(
		struct ovc_params *p, const char *assign, char *err, size_t errlen)
{
	return param_assign(p, assign, err, errlen, 0);
}
