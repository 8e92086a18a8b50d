/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - RPC. Replies are structured; a refused command changes nothing.
 * ovc.stats, ovc.csv and ovc.reset here (each part adds its own block of
 * ovc.stats and resets its own totals, ovc_part.h); ovc.get and ovc.set in
 * ovc_rpc_param.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/dprint.h"
#include "core/mem/mem.h"
#include "core/sr_module.h"

#include "ovc/csv.h"
#include "ovc/sipscan.h"

#include "ovc_admit.h"
#include "ovc_fastpath.h"
#include "ovc_hist.h"
#include "ovc_modparams.h"
#include "ovc_nexthop.h"
#include "ovc_nexthop_part.h"
#include "ovc_part.h"
#include "ovc_queue.h"
#include "ovc_rpc.h"
#include "ovc_rpc_param.h"
#include "ovc_rxq.h"
#include "ovc_sampler.h"
#include "ovc_shm.h"

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
	rpc->struct_add(h, "dJJ", "enabled", ovc_mp.fast_path, "rejects",
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
				(unsigned long long)ovc_fastpath_fallthrough(r));
	}
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
	rpc->struct_add(th, "ssddfffsfdfJJJJJJJ", "algorithm",
			ovc_alg_name(atomic_load(&ovc->alg)), "mode",
			ovc_mode_name(atomic_load(&ovc->mode)), "dry_run",
			atomic_load(&ovc->dry_run) ? 1 : 0, "reject_code",
			ovc_reply.code, "f", ovc_dload(&ovc->f), "cpu",
			ovc_sampler_cpu(), "cpu_1s", ovc_sampler_cpu_1s(),
			"cpu_source", ovc_cpu_source_name(ovc_sampler_source()),
			"cpu_capacity", ovc_sampler_capacity(), "queue_len",
			(int)ovc_queue_len(), "queue_delay_ms",
			ovc_queue_delay_ms(), "mem_used",
			(unsigned long long)ovc_sampler_mem_used(), "epochs",
			(unsigned long long)atomic_load(&ovc->epochs), "replies",
			(unsigned long long)atomic_load(&ovc->ev_total[OVC_E_REPLY]),
			"acks_absorbed",
			(unsigned long long)atomic_load(
					&ovc->ev_total[OVC_E_ACK_ABSORBED]),
			"rx_queue_bytes",
			(unsigned long long)ovc_rxq_bytes(), "rx_queue_msgs",
			(unsigned long long)(ovc_rxq_bytes() / OVC_RXQ_MSG_BYTES),
			"rx_queue_limit_msgs",
			(unsigned long long)(ovc_rxq_limit() / OVC_RXQ_MSG_BYTES));
	for(c = 0; c < OVC_CLASS_COUNT; c++)
		add_class(rpc, th, c);
	add_fast_path(rpc, th);
	ovc_parts_stats(rpc, ctx, th); /* queue, rxq, rsoca, rsoca_mem */
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
	count = ovc_hist_count();
	if(n > 0 && n < count)
		count = n;
	rows = pkg_malloc(sizeof(*rows) * (count > 0 ? count : 1));
	if(rows == NULL) {
		rpc->fault(ctx, 500, "Out of memory (%d rows)", count);
		return;
	}
	count = ovc_hist_copy(rows, count); /* fewer after an ovc.reset */

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

/* ------------------------------------------------------------ ovc.reset */

static const char *ovc_rpc_reset_doc[2] = {
		"Zeroes the counters and the per-second history.", 0};

static void ovc_rpc_reset(rpc_t *rpc, void *ctx)
{
	const _Atomic uint64_t *inv = ovc->total.v[OVC_CLASS_INVITE];

	LM_NOTICE("ovc.reset: counters and history zeroed (INVITEs offered"
			  " %llu -> 0, rejected %llu -> 0)\n",
			(unsigned long long)atomic_load(&inv[OVC_V_OFFERED]),
			(unsigned long long)atomic_load(&inv[OVC_V_REJECTED]));
	ovc_counts_reset();
	ovc_hist_reset();
	ovc_parts_reset();
}

/* clang-format off */
rpc_export_t ovc_rpc_cmds[] = {
	{"ovc.stats", ovc_rpc_stats, ovc_rpc_stats_doc, 0},
	{"ovc.csv",   ovc_rpc_csv,   ovc_rpc_csv_doc,   RET_ARRAY},
	{"ovc.get",   ovc_rpc_get,   ovc_rpc_get_doc,   0},
	{"ovc.set",   ovc_rpc_set,   ovc_rpc_set_doc,   0},
	{"ovc.reset", ovc_rpc_reset, ovc_rpc_reset_doc, 0},
	{"ovc.dst",   ovc_rpc_dst,   ovc_rpc_dst_doc,   RET_ARRAY},
	{0, 0, 0, 0}
};
/* clang-format on */
