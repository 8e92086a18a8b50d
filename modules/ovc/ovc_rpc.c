/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - RPC. Replies are structured; a refused command changes nothing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dprint.h"
#include "core/mem/mem.h"
#include "core/sr_module.h"

#include "ovc_admit.h"
#include "ovc_csv.h"
#include "ovc_queue.h"
#include "ovc_sampler.h"
#include "ovc/sipscan.h"
#include "ovc_rpc.h"
#include "ovc_rxq.h"
#include "ovc_rsoca.h"
#include "ovc_shm.h"
#include "ovc_tmreap.h"

/* ------------------------------------------------------------ ovc.stats */

static void add_class(rpc_t *rpc, void *th, enum ovc_class c)
{
	void *h;

	if(rpc->struct_add(th, "{", ovc_class_name(c), &h) < 0)
		return;
	rpc->struct_add(h, "JJJJJJJ", "offered",
			(unsigned long long)atomic_load(&ovc->total.v[c][OVC_V_OFFERED]),
			"admitted",
			(unsigned long long)atomic_load(&ovc->total.v[c][OVC_V_ADMITTED]),
			"rejected",
			(unsigned long long)atomic_load(&ovc->total.v[c][OVC_V_REJECTED]),
			"dropped",
			(unsigned long long)atomic_load(&ovc->total.v[c][OVC_V_DROPPED]),
			"queued",
			(unsigned long long)atomic_load(&ovc->total.v[c][OVC_V_QUEUED]),
			"dequeued",
			(unsigned long long)atomic_load(&ovc->total.v[c][OVC_V_DEQUEUED]),
			"would_reject",
			(unsigned long long)atomic_load(
					&ovc->total.v[c][OVC_V_WOULD_REJECT]));
}

/* fast path: on/off, rejects answered at arrival, fall-throughs by
 * reason (what the raw scanner left to the normal path) */
static void add_fast_path(rpc_t *rpc, void *th)
{
	void *h;
	int r;

	if(rpc->struct_add(th, "{", "fast_path", &h) < 0)
		return;
	rpc->struct_add(h, "dJJ", "enabled", ovc_fast_path, "rejects",
			(unsigned long long)atomic_load(
					&ovc->ev_total[OVC_E_FAST_REJECT]),
			"fallthrough",
			(unsigned long long)atomic_load(
					&ovc->ev_total[OVC_E_FAST_FALLTHROUGH]));
	for(r = 1; r < OVC_SCAN_REASONS; r++) {
		char name[48];

		snprintf(name, sizeof(name), "fallthrough_%s",
				ovc_scan_reason_name(-r));
		rpc->struct_add(h, "J", name,
				(unsigned long long)atomic_load(&ovc->fp_fallthrough[r]));
	}
}

/* The in-core queue: configuration, state, drain and event totals. */
static void add_queue(rpc_t *rpc, void *th)
{
	void *h;
	int64_t iv;
	char drain[32];

	if(rpc->struct_add(th, "{", "queue", &h) < 0)
		return;
	if(ovc_q == NULL) {
		rpc->struct_add(h, "s", "state", "off");
		return;
	}
	iv = ovc_queue_interval();
	if(iv == OVC_DRAIN_FREE)
		snprintf(drain, sizeof(drain), "free");
	else if(iv == OVC_DRAIN_PAUSE)
		snprintf(drain, sizeof(drain), "paused");
	else
		snprintf(drain, sizeof(drain), "%.1f/s", 1e9 / (double)iv);
	rpc->struct_add(h, "sdddddffsJJJJJ", "state",
			ovc_queue_on() ? "on" : "stopping", "size", (int)ovc_queue_cap(),
			"workers", (int)ovc_q->workers, "max_wait_ms",
			(int)ovc_queue_max_wait_ms(), "len", (int)ovc_queue_len(),
			"reject_at_dequeue", ovc_queue_rejects_at_dequeue(), "delay_ms",
			ovc_dload(&ovc_q->delay_ms), "delay_max_ms",
			ovc_dload(&ovc_q->delay_max_ms), "drain", drain, "full",
			(unsigned long long)atomic_load(
					&ovc->ev_total[OVC_E_QUEUE_FULL]),
			"expired",
			(unsigned long long)atomic_load(
					&ovc->ev_total[OVC_E_QUEUE_EXPIRED]),
			"absorbed",
			(unsigned long long)atomic_load(
					&ovc->ev_total[OVC_E_QUEUE_ABSORBED]),
			"shutdown",
			(unsigned long long)atomic_load(
					&ovc->ev_total[OVC_E_QUEUE_SHUTDOWN]),
			"cancelled",
			(unsigned long long)atomic_load(
					&ovc->ev_total[OVC_E_QUEUE_CANCELLED]));
	rpc->struct_add(h, "JJ", "bytes",
			(unsigned long long)atomic_load(&ovc_q->bytes), "max_bytes",
			(unsigned long long)ovc_q->max_bytes);
}

/* The kernel's receive queue of the listening sockets (issue 9). */
static void add_rxq(rpc_t *rpc, void *th)
{
	void *h;
	double cap = ovc_dload(&ovc->rxq_guard_f);
	double guard_ms = 0;
	double max_age = 0;

	if(rpc->struct_add(th, "{", "rxq", &h) < 0)
		return;
	/* the settings in force (derived where the parameters say auto) */
	guard_ms = ovc_dload(&ovc->guard_ms);
	max_age = atomic_load(&ovc->rxq_max_age_ms);
	rpc->struct_add(h, "dJfffdff", "overload", atomic_load(&ovc->overload),
			"onsets", (unsigned long long)atomic_load(&ovc->onsets),
			"onset_ms", ovc_dload(&ovc->onset_ms), "onset_enter_ms",
			ovc_dload(&ovc->onset_enter_ms), "stall_ms",
			ovc_dload(&ovc->stall_ms), "rcvbuf_udp_msgs", ovc_rcvbuf_udp,
			"cpu_reject", ovc_dload(&ovc->cpu_reject), "capacity_cps",
			ovc_dload(&ovc->capacity));
	rpc->struct_add(h, "JJJffJJJJJfffJJJJs", "rx_queue_bytes",
			(unsigned long long)atomic_load(&ovc->rxq_bytes), "rx_queue_msgs",
			(unsigned long long)(atomic_load(&ovc->rxq_bytes)
								 / OVC_RXQ_MSG_BYTES),
			"limit_bytes", (unsigned long long)atomic_load(&ovc->rxq_limit),
			"wait_ms", ovc_dload(&ovc->rxq_wait_ms), "drain_msgs_s",
			ovc_dload(&ovc->rxq_drain), "drops",
			(unsigned long long)atomic_load(&ovc->rxq_drops), "tcp_rx_bytes",
			(unsigned long long)atomic_load(&ovc->rxq_tcp_bytes),
			"tcp_backlog",
			(unsigned long long)atomic_load(&ovc->rxq_tcp_backlog),
			"rcvbuf_udp_bytes",
			(unsigned long long)atomic_load(&ovc->rxq_rcvbuf_udp),
			"rcvbuf_tcp_bytes",
			(unsigned long long)atomic_load(&ovc->rxq_rcvbuf_tcp), "guard_ms",
			guard_ms, "guard_f", cap, "f_effective", ovc_dload(&ovc->f_eff),
			"max_age_ms", (unsigned long long)max_age, "age_rejects",
			(unsigned long long)atomic_load(
					&ovc->ev_total[OVC_E_AGE_REJECT]),
			"age_by_timestamp",
			(unsigned long long)atomic_load(&ovc->rxq_age_stamped),
			"age_by_estimate",
			(unsigned long long)atomic_load(&ovc->rxq_age_estimated),
			"drain_source", ovc_rxq_hooked ? "datagrams" : "requests");
	rpc->struct_add(h, "J", "proc_reads",
			(unsigned long long)atomic_load(&ovc->rxq_proc_reads));
}

static const char *ovc_rpc_stats_doc[2] = {
		"Snapshot: algorithm, f, cpu, queue, memory and counters per class.",
		0};

static void ovc_rpc_stats(rpc_t *rpc, void *ctx)
{
	void *th;
	int c;

	if(rpc->add(ctx, "{", &th) < 0) {
		rpc->fault(ctx, 500, "Internal error creating the reply");
		return;
	}
	rpc->struct_add(th, "sssdfffsfffJJJJJJJ", "algorithm",
			ovc_alg_name(atomic_load(&ovc->alg)), "mode",
			ovc_mode_name(atomic_load(&ovc->mode)), "dry_run",
			atomic_load(&ovc->dry_run) ? "yes" : "no", "reject_code",
			ovc_reply.code, "f", ovc_dload(&ovc->f), "cpu",
			ovc_dload(&ovc->cpu), "cpu_1s", ovc_dload(&ovc->cpu_1s),
			"cpu_source", ovc_cpu_source_name(ovc->cpu_source),
			"cpu_capacity", ovc->cpu_capacity, "queue_len",
			(double)ovc_queue_len(), "queue_delay_ms",
			ovc_q ? ovc_dload(&ovc_q->delay_ms) : 0.0, "mem_used",
			(unsigned long long)atomic_load(&ovc->mem_used), "epochs",
			(unsigned long long)atomic_load(&ovc->epochs), "replies",
			(unsigned long long)atomic_load(&ovc->ev_total[OVC_E_REPLY]),
			"acks_absorbed",
			(unsigned long long)atomic_load(
					&ovc->ev_total[OVC_E_ACK_ABSORBED]),
			"rx_queue_bytes",
			(unsigned long long)atomic_load(&ovc->rxq_bytes),
			"rx_queue_msgs",
			(unsigned long long)(atomic_load(&ovc->rxq_bytes)
								 / OVC_RXQ_MSG_BYTES),
			"rx_queue_limit_msgs",
			(unsigned long long)(atomic_load(&ovc->rxq_limit)
								 / OVC_RXQ_MSG_BYTES));
	for(c = 0; c < OVC_CLASS_COUNT; c++)
		add_class(rpc, th, c);
	add_fast_path(rpc, th);
	add_queue(rpc, th);
	add_rxq(rpc, th);
	ovc_rsoca_rpc_stats(rpc, th);
	ovc_tmreap_rpc_stats(rpc, th);
}

/* -------------------------------------------------------------- ovc.csv */

#define OVC_CSV_MAX_ROWS 3600

static const char *ovc_rpc_csv_doc[2] = {
		"Per-second history as CSV text lines: a header and the last N rows"
		" (all when N is omitted).",
		0};

/* Framing bytes per string record and per reply in a binrpc reply (a
 * generous bound: record header up to 5 bytes, the NUL, reply header). */
#define OVC_BINRPC_REC_BYTES 8
#define OVC_BINRPC_REPLY_BYTES 256

/* Bytes one reply of the ctl module (kamcmd's binrpc transport) may carry:
 * its binrpc_max_body_size (KiB in the config, bytes once ctl has
 * started). Returns 0 when ctl is not loaded: no limit known. */
static int ctl_reply_budget(void)
{
	struct sr_module *m = find_module_by_name("ctl");
	modparam_t type;
	int *v;

	if(m == NULL)
		return 0;
	v = find_param_export(m, "binrpc_max_body_size", PARAM_INT, &type);
	if(v == NULL || *v <= 0)
		return 0;
	return *v < 1024 ? *v * 1024 : *v; /* before ctl's init: KiB */
}

/* The first of count rows (oldest first) from which the header (hlen
 * bytes) and the rows up to the newest fit in budget bytes; 0 when all
 * fit or budget is 0. */
static int csv_first_fitting(
		const struct ovc_row *rows, int count, int hlen, int budget)
{
	char line[4096];
	int i, len, used;

	if(budget <= 0)
		return 0;
	used = OVC_BINRPC_REPLY_BYTES + hlen + OVC_BINRPC_REC_BYTES;
	for(i = count - 1; i >= 0; i--) {
		len = ovc_csv_line(&rows[i], line, sizeof(line));
		if(len <= 0 || len >= (int)sizeof(line))
			continue;
		if(used + len + OVC_BINRPC_REC_BYTES > budget)
			break;
		used += len + OVC_BINRPC_REC_BYTES;
	}
	return i + 1;
}

static void ovc_rpc_csv(rpc_t *rpc, void *ctx)
{
	int n = -1, count, i, len, hlen, first;
	struct ovc_row *rows;
	char line[4096];
	str arg = STR_NULL;

	/* read N as text (kamcmd sends numbers as int) to refuse junk */
	if(rpc->scan(ctx, "*.S", &arg) == 1 && arg.len > 0) {
		char buf[16], *end;
		long v;

		if(arg.len >= (int)sizeof(buf)) {
			rpc->fault(ctx, 400, "N must be a positive number of rows");
			return;
		}
		memcpy(buf, arg.s, arg.len);
		buf[arg.len] = '\0';
		v = strtol(buf, &end, 10);
		if(*end != '\0' || v <= 0 || v > OVC_CSV_MAX_ROWS) {
			rpc->fault(ctx, 400, "N must be a positive number of rows");
			return;
		}
		n = (int)v;
	}
	/* only the rows asked for (the history only grows until a reset, so
	 * there are at least as many when copying) */
	lock_get(&ovc->lock);
	count = ovc->hist_count;
	lock_release(&ovc->lock);
	if(n > 0 && n < count)
		count = n;
	rows = pkg_malloc(sizeof(*rows) * (count > 0 ? count : 1));
	if(rows == NULL) {
		rpc->fault(ctx, 500, "Out of memory (%d rows)", count);
		return;
	}
	lock_get(&ovc->lock);
	if(count > (int)ovc->hist_count)
		count = ovc->hist_count; /* an ovc.reset in between */
	for(i = 0; i < count; i++) {
		unsigned idx = (ovc->hist_next + ovc->hist_size - count + i)
					   % ovc->hist_size;
		rows[i] = ovc->hist[idx];
	}
	lock_release(&ovc->lock);

	hlen = ovc_csv_header(line, sizeof(line));
	/* the newest rows that fit in one ctl reply: more would make ctl
	 * refuse the whole reply ("buffer too small") */
	first = csv_first_fitting(rows, count, hlen, ctl_reply_budget());
	if(first > 0)
		LM_NOTICE("ovc.csv: the newest %d of %d rows fit in ctl's"
				" binrpc_max_body_size\n",
				count - first, count);
	rpc->add(ctx, "s", line);
	for(i = first; i < count; i++) {
		len = ovc_csv_line(&rows[i], line, sizeof(line));
		if(len > 0 && len < (int)sizeof(line))
			rpc->add(ctx, "s", line);
	}
	pkg_free(rows);
}

/* --------------------------------------------------------- ovc.get/set */

/* Plain (non-registry) names ovc.get/ovc.set understand. */
static const char *plain_names[] = {"algorithm", "mode", "dry_run", NULL};

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

static const char *ovc_rpc_get_doc[2] = {
		"Reads one parameter by name, or all of them without a name.", 0};

static void ovc_rpc_get(rpc_t *rpc, void *ctx)
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

/* Reads the value argument as text into buf. kamcmd sends numbers as int
 * or double, so registry values (all numeric) are scanned as a number and
 * printed back; the plain names take text. Returns 0 or -1. */
static int scan_value(
		rpc_t *rpc, void *ctx, int numeric, char *buf, int size)
{
	str s = STR_NULL;
	double d;
	int n;

	if(numeric) {
		if(rpc->scan(ctx, ".f", &d) < 1)
			return -1;
		n = snprintf(buf, size, "%.15g", d);
		return (n > 0 && n < size) ? 0 : -1;
	}
	if(rpc->scan(ctx, ".S", &s) < 1 || s.s == NULL)
		return -1;
	if(s.len <= 0 || s.len >= size)
		return -1;
	memcpy(buf, s.s, s.len);
	buf[s.len] = '\0';
	return 0;
}

static const char *ovc_rpc_set_doc[2] = {
		"Sets a parameter: algorithm, mode, dry_run or any registry name"
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

static void ovc_rpc_set(rpc_t *rpc, void *ctx)
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
	if(scan_value(rpc, ctx, !is_plain(nbuf), vbuf, sizeof(vbuf)) < 0) {
		rpc->fault(ctx, 400, "%s: the value must be %s", nbuf,
				is_plain(nbuf) ? "given" : "a number");
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
		LM_NOTICE("ovc.set %s: %g -> %g\n", nbuf, old, now);
	}
	lock_release(&ovc->lock);
	if(rc != OVC_OK)
		rpc->fault(ctx, rc == OVC_ENOENT ? 404 : 400, "%s", err);
}

/* ------------------------------------------------------------ ovc.reset */

static const char *ovc_rpc_reset_doc[2] = {
		"Zeroes the counters and the per-second history.", 0};

static void ovc_rpc_reset(rpc_t *rpc, void *ctx)
{
	ovc_counts_reset();
	ovc_rsoca_reset();
	ovc_tmreap_reset();
}

/* clang-format off */
rpc_export_t ovc_rpc_cmds[] = {
	{"ovc.stats", ovc_rpc_stats, ovc_rpc_stats_doc, 0},
	{"ovc.csv",   ovc_rpc_csv,   ovc_rpc_csv_doc,   RET_ARRAY},
	{"ovc.get",   ovc_rpc_get,   ovc_rpc_get_doc,   0},
	{"ovc.set",   ovc_rpc_set,   ovc_rpc_set_doc,   0},
	{"ovc.reset", ovc_rpc_reset, ovc_rpc_reset_doc, 0},
	{0, 0, 0, 0}
};
/* clang-format on */
