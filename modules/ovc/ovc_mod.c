/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - SIP overload control for Kamailio.
 *
 * One call at the top of request_route, ovc_admit(), decides for every
 * request whether the proxy takes it or refuses it early and statelessly,
 * so that an overloaded proxy keeps its goodput near capacity. The control
 * algorithms live in libovc (src/, include/ovc/); this file is the glue:
 * exports, parameters, init, script/KEMI wrappers, pseudo-variables.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sr_module.h"
#include "core/cfg/cfg_struct.h"
#include "core/counters.h"
#include "core/events.h"
#include "core/dprint.h"
#include "core/kemi.h"
#include "core/mod_fix.h"
#include "core/pt.h"
#include "core/pvar.h"
#include "core/ut.h"

#include "ovc_admit.h"
#include "ovc_qworker.h"
#include "ovc_rpc.h"
#include "ovc_rxq.h"
#include "ovc_rsoca.h"
#include "ovc_sampler.h"
#include "ovc_shm.h"
#include "ovc_ticker.h"
#include "ovc_tmreap.h"

MODULE_VERSION

/* ------------------------------------------------- module parameters */

/* values collected from modparam() before mod_init; all validated when
 * set, so a bad value stops Kamailio while it parses the configuration */
static struct ovc_params mp_params;
static int mp_params_ready;
static enum ovc_alg mp_alg = OVC_ALG_OCC;
static enum ovc_mode mp_mode = OVC_MODE_MULTI;
static enum ovc_cpu_source mp_cpu_source = OVC_CPU_PROCS;
static double mp_cpu_capacity; /* 0: auto */
static int mp_dry_run;
static int mp_stats_history = 300;
static int mp_queue_size = 800;		 /* 003 §V */
static int mp_queue_workers = 4;
static int mp_queue_max_wait = -1; /* ms; -1: the age limit in force */
static int mp_queue_max_bytes;	   /* 0: an eighth of shared memory */

/* rows of the per-second history: an hour, ~2.5 MB of shared memory */
#define OVC_HISTORY_MAX 3600

static struct ovc_params *params_ready(void)
{
	if(!mp_params_ready) {
		ovc_params_defaults(&mp_params);
		mp_params_ready = 1;
	}
	return &mp_params;
}

static int mp_set_param(modparam_t type, void *val)
{
	char err[256];

	/* the constraints between parameters are checked once all are read
	 * (mod_init), so that their order does not matter */
	if(ovc_param_assign_staged(params_ready(), (char *)val, err, sizeof(err))
			!= OVC_OK) {
		LM_ERR("modparam \"param\": %s\n", err);
		return -1;
	}
	return 0;
}

static int mp_set_algorithm(modparam_t type, void *val)
{
	if(ovc_alg_from_name((char *)val, &mp_alg) != OVC_OK) {
		LM_ERR("modparam \"algorithm\": unknown '%s' (one of none, bbc, occ,"
			   " occupancy, aro, sired, rsoca, pi)\n",
				(char *)val);
		return -1;
	}
	return 0;
}

static int mp_set_mode(modparam_t type, void *val)
{
	if(strcmp((char *)val, "multi") == 0)
		mp_mode = OVC_MODE_MULTI;
	else if(strcmp((char *)val, "single") == 0)
		mp_mode = OVC_MODE_SINGLE;
	else {
		LM_ERR("modparam \"mode\": '%s' is not multi or single\n",
				(char *)val);
		return -1;
	}
	return 0;
}

static int mp_set_cpu_source(modparam_t type, void *val)
{
	if(strcmp((char *)val, "procs") == 0)
		mp_cpu_source = OVC_CPU_PROCS;
	else if(strcmp((char *)val, "system") == 0)
		mp_cpu_source = OVC_CPU_SYSTEM;
	else if(strcmp((char *)val, "cgroup") == 0)
		mp_cpu_source = OVC_CPU_CGROUP;
	else {
		LM_ERR("modparam \"cpu_source\": '%s' is not procs, system or"
			   " cgroup\n",
				(char *)val);
		return -1;
	}
	return 0;
}

static int mp_set_cpu_capacity(modparam_t type, void *val)
{
	char *s = (char *)val, *end;
	double v;

	if(strcmp(s, "auto") == 0) {
		mp_cpu_capacity = 0;
		return 0;
	}
	v = strtod(s, &end);
	if(end == s || *end != '\0' || !(v > 0 && v <= 4096)) {
		LM_ERR("modparam \"cpu_capacity\": '%s' is not \"auto\" or a number"
			   " of CPUs in (0, 4096]\n",
				s);
		return -1;
	}
	mp_cpu_capacity = v;
	return 0;
}

/* Checks an integer modparam against [min, max]. */
static int int_in_range(const char *name, void *val, int min, int max,
		int *out)
{
	int v = (int)(long)val;

	if(v < min || v > max) {
		LM_ERR("modparam \"%s\": %d is out of range [%d, %d]\n", name, v, min,
				max);
		return -1;
	}
	*out = v;
	return 0;
}

static int mp_set_reject_code(modparam_t type, void *val)
{
	return int_in_range("reject_code", val, 400, 699, &ovc_reply.code);
}

static int mp_set_retry_after(modparam_t type, void *val)
{
	return int_in_range(
			"retry_after", val, 0, 86400, &ovc_reply.retry_after);
}

static int mp_set_dry_run(modparam_t type, void *val)
{
	return int_in_range("dry_run", val, 0, 1, &mp_dry_run);
}

static int mp_set_fast_path(modparam_t type, void *val)
{
	return int_in_range("fast_path", val, 0, 1, &ovc_fast_path);
}

static int mp_set_stats_history(modparam_t type, void *val)
{
	return int_in_range("stats_history", val, 10, OVC_HISTORY_MAX,
			&mp_stats_history);
}

static int mp_set_queue_size(modparam_t type, void *val)
{
	return int_in_range("queue_size", val, 0, 1 << 20, &mp_queue_size);
}

static int mp_set_queue_workers(modparam_t type, void *val)
{
	return int_in_range("queue_workers", val, 0, 64, &mp_queue_workers);
}

static int mp_set_queue_max_wait(modparam_t type, void *val)
{
	return int_in_range(
			"queue_max_wait", val, -1, 60000, &mp_queue_max_wait);
}

/* receive buffers, in messages of OVC_RXQ_MSG_BYTES kernel bytes each */
static int mp_set_queue_max_bytes(modparam_t type, void *val)
{
	return int_in_range(
			"queue_max_bytes", val, 0, INT_MAX, &mp_queue_max_bytes);
}

static int mp_set_rcvbuf_udp(modparam_t type, void *val)
{
	return int_in_range(
			"rcvbuf_udp", val, -1, OVC_RCVBUF_MAX, &ovc_rcvbuf_udp);
}

static int mp_set_rcvbuf_tcp(modparam_t type, void *val)
{
	return int_in_range(
			"rcvbuf_tcp", val, 0, OVC_RCVBUF_MAX, &ovc_rcvbuf_tcp);
}

static int mp_set_reject_reason(modparam_t type, void *val)
{
	char *s = (char *)val;
	size_t i, n = strlen(s);

	if(n == 0 || n > 128) {
		LM_ERR("modparam \"reject_reason\": length must be 1..128\n");
		return -1;
	}
	for(i = 0; i < n; i++) {
		if(s[i] == '\r' || s[i] == '\n') {
			LM_ERR("modparam \"reject_reason\": no CR/LF allowed\n");
			return -1;
		}
	}
	ovc_reply.reason.s = s;
	ovc_reply.reason.len = (int)n;
	return 0;
}

static int mp_set_emergency(modparam_t type, void *val)
{
	return ovc_rsoca_set_emergency((char *)val);
}

static int mp_set_emergency_priority(modparam_t type, void *val)
{
	return ovc_rsoca_set_emergency_priority((int)(long)val);
}

/* ------------------------------------------------------- script API */

/* Returns the module's result for the script: 1 admitted; 0 handled (the
 * script stops); -1/-2 only with "noreply". */
static int ki_ovc_admit(sip_msg_t *msg)
{
	return ovc_admit(msg, 0);
}

static int ki_ovc_admit_flags(sip_msg_t *msg, str *flags)
{
	if(flags == NULL || flags->len == 0)
		return ovc_admit(msg, 0);
	if(flags->len == 7 && strncmp(flags->s, "noreply", 7) == 0)
		return ovc_admit(msg, 1);
	LM_ERR("ovc_admit: unknown flags '%.*s' (only \"noreply\")\n",
			flags->len, flags->s);
	return ovc_admit(msg, 0);
}

static int w_ovc_admit0(sip_msg_t *msg, char *p1, char *p2)
{
	return ovc_admit(msg, 0);
}

static int w_ovc_admit1(sip_msg_t *msg, char *flags, char *p2)
{
	return ovc_admit(msg, (int)(long)flags);
}

/* Turns the literal flag string into an int at start-up. */
static int fixup_admit_flags(void **param, int param_no)
{
	char *s = (char *)*param;

	if(param_no != 1)
		return 0;
	if(strcmp(s, "noreply") == 0) {
		*param = (void *)(long)1;
		if(ovc_fast_path) {
			/* the script wants to answer refusals itself: deciding at
			 * datagram arrival would take that away from it */
			LM_NOTICE("ovc_admit(\"noreply\") in the script: fast_path"
					  " disabled, decisions are taken in the script\n");
			ovc_fast_path = 0;
		}
		return 0;
	}
	if(s[0] == '\0') {
		*param = (void *)(long)0;
		return 0;
	}
	LM_ERR("ovc_admit(\"%s\"): unknown flag (only \"noreply\")\n", s);
	return E_CFG;
}

/* ------------------------------------------------- pseudo-variables */

enum
{
	PV_VERDICT = 1,
	PV_F,
	PV_CPU,
	PV_QUEUE
};

static int pv_parse_ovc_name(pv_spec_p sp, str *in)
{
	int id = 0;

	if(in == NULL || in->s == NULL)
		return -1;
	if(in->len == 7 && strncmp(in->s, "verdict", 7) == 0)
		id = PV_VERDICT;
	else if(in->len == 1 && in->s[0] == 'f')
		id = PV_F;
	else if(in->len == 3 && strncmp(in->s, "cpu", 3) == 0)
		id = PV_CPU;
	else if(in->len == 5 && strncmp(in->s, "queue", 5) == 0)
		id = PV_QUEUE;
	if(id == 0) {
		LM_ERR("$ovc(%.*s): unknown key (verdict, f, cpu, queue)\n", in->len,
				in->s);
		return -1;
	}
	sp->pvp.pvn.type = PV_NAME_INTSTR;
	sp->pvp.pvn.u.isname.type = 0;
	sp->pvp.pvn.u.isname.name.n = id;
	return 0;
}

static int pv_get_ovc(sip_msg_t *msg, pv_param_t *param, pv_value_t *res)
{
	static char buf[32];
	str s;

	switch(param->pvn.u.isname.name.n) {
		case PV_VERDICT:
			s.s = (char *)ovc_outcome_name(ovc_last_outcome(msg));
			s.len = strlen(s.s);
			return pv_get_strval(msg, param, res, &s);
		case PV_F:
			s.len = snprintf(buf, sizeof(buf), "%.4f", ovc_dload(&ovc->f));
			s.s = buf;
			return pv_get_strval(msg, param, res, &s);
		case PV_CPU:
			s.len = snprintf(buf, sizeof(buf), "%.4f", ovc_dload(&ovc->cpu));
			s.s = buf;
			return pv_get_strval(msg, param, res, &s);
		case PV_QUEUE:
			if(ovc_q != NULL)
				return pv_get_sintval(msg, param, res, (int)ovc_queue_len());
			return pv_get_sintval(msg, param, res,
					(int)(atomic_load(&ovc->rxq_bytes) / OVC_RXQ_MSG_BYTES));
	}
	return pv_get_null(msg, param, res);
}

/* ------------------------------------------------------- statistics */

static char stat_names[OVC_CLASS_COUNT][OVC_V_COUNT][32];

/* statistics reading an event total: OVC_STAT_EV_BASE + the event */
#define OVC_STAT_EV_BASE (OVC_CLASS_COUNT * OVC_V_COUNT + 100)

static counter_val_t stat_get(counter_handle_t h, void *param)
{
	long i = (long)param;

	if(ovc == NULL)
		return 0;
	if(i == OVC_CLASS_COUNT * OVC_V_COUNT)
		return (counter_val_t)atomic_load(&ovc->ev_total[OVC_E_REPLY]);
	if(i == OVC_CLASS_COUNT * OVC_V_COUNT + 1)
		return (counter_val_t)atomic_load(
				&ovc->ev_total[OVC_E_ACK_ABSORBED]);
	if(i == OVC_CLASS_COUNT * OVC_V_COUNT + 2)
		return (counter_val_t)atomic_load(
				&ovc->ev_total[OVC_E_FAST_REJECT]);
	if(i >= OVC_STAT_EV_BASE && i < OVC_STAT_EV_BASE + OVC_E_COUNT)
		return (counter_val_t)atomic_load(
				&ovc->ev_total[i - OVC_STAT_EV_BASE]);
	return (counter_val_t)atomic_load(
			&ovc->total.v[i / OVC_V_COUNT][i % OVC_V_COUNT]);
}

/* Registers group "ovc": <class>_<verdict> and replies_sent. */
static int register_stats(void)
{
	int c, v;

	for(c = 0; c < OVC_CLASS_COUNT; c++) {
		for(v = 0; v < OVC_V_COUNT; v++) {
			counter_handle_t h;

			snprintf(stat_names[c][v], sizeof(stat_names[c][v]), "%s_%s",
					ovc_class_name(c), ovc_verdict_name(v));
			if(counter_register(&h, "ovc", stat_names[c][v], 0, stat_get,
					   (void *)(long)(c * OVC_V_COUNT + v),
					   "ovc requests per class and verdict", 0)
					< 0)
				return -1;
		}
	}
	{
		counter_handle_t h;

		if(counter_register(&h, "ovc", "replies_sent", 0, stat_get,
				   (void *)(long)(OVC_CLASS_COUNT * OVC_V_COUNT),
				   "ovc reject replies sent", 0)
				< 0)
			return -1;
		if(counter_register(&h, "ovc", "acks_absorbed", 0, stat_get,
				   (void *)(long)(OVC_CLASS_COUNT * OVC_V_COUNT + 1),
				   "ACKs to ovc's own rejects absorbed", 0)
				< 0)
			return -1;
		if(counter_register(&h, "ovc", "fast_rejects", 0, stat_get,
				   (void *)(long)(OVC_CLASS_COUNT * OVC_V_COUNT + 2),
				   "rejects answered at datagram arrival", 0)
				< 0)
			return -1;
		if(counter_register(&h, "ovc", "queue_full", 0, stat_get,
				   (void *)(long)(OVC_STAT_EV_BASE + OVC_E_QUEUE_FULL),
				   "INVITEs rejected because the queue was full", 0)
						< 0
				|| counter_register(&h, "ovc", "queue_expired", 0, stat_get,
						   (void *)(long)(OVC_STAT_EV_BASE
										  + OVC_E_QUEUE_EXPIRED),
						   "queued INVITEs too old when dequeued", 0)
						   < 0
				|| counter_register(&h, "ovc", "queue_absorbed", 0, stat_get,
						   (void *)(long)(OVC_STAT_EV_BASE
										  + OVC_E_QUEUE_ABSORBED),
						   "retransmissions of queued INVITEs absorbed", 0)
						   < 0
				|| counter_register(&h, "ovc", "age_rejects", 0, stat_get,
						   (void *)(long)(OVC_STAT_EV_BASE
										  + OVC_E_AGE_REJECT),
						   "INVITEs rejected: waited > rxq.max_age_ms", 0)
						   < 0)
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------ init/destroy */

static int mod_init(void)
{
	char err[256];

	if(ovc_params_validate(params_ready(), err, sizeof(err)) != OVC_OK) {
		LM_ERR("modparam \"param\": %s\n", err);
		return -1;
	}
	if(ovc_admit_init() < 0)
		return -1;
	if(ovc_sampler_init(mp_cpu_source, &mp_cpu_capacity) < 0)
		return -1;
	if(ovc_shm_init(params_ready(), mp_alg, mp_mode, mp_dry_run,
			   mp_cpu_source, mp_cpu_capacity, (unsigned)mp_stats_history)
			< 0) {
		LM_ERR("cannot initialise ovc's shared state\n");
		return -1;
	}
	if(ovc_rs_init(params_ready()) < 0)
		goto error;
	if(register_stats() < 0) {
		LM_ERR("cannot register the ovc statistics\n");
		goto error;
	}
	/* the hook decides at datagram arrival (fast_path) and counts the
	 * datagrams read, the drain of the receive queue */
	if(sr_event_register_cb(SREV_NET_DGRAM_IN, ovc_dgram_in) < 0) {
		if(ovc_fast_path) {
			LM_ERR("fast_path: cannot register for SREV_NET_DGRAM_IN"
				   " (another module has it?); set modparam(\"ovc\","
				   " \"fast_path\", 0)\n");
			goto error;
		}
		LM_NOTICE("SREV_NET_DGRAM_IN taken by another module: the receive"
				  " queue's drain is estimated from the requests seen\n");
	} else {
		ovc_rxq_hooked = 1;
	}
	if(ovc_queue_init((unsigned)mp_queue_size, (unsigned)mp_queue_workers,
			   mp_queue_max_wait, (uint64_t)mp_queue_max_bytes)
			< 0)
		goto error;
	if(ovc_tmreap_init(params_ready()->memctl.source) < 0)
		goto error;
	/* the ticker, the queue workers and the reaper */
	register_procs(
			1 + (ovc_q ? mp_queue_workers : 0) + ovc_tmreap_procs());
	cfg_register_child(
			1 + (ovc_q ? mp_queue_workers : 0) + ovc_tmreap_procs());
	LM_INFO("ovc: algorithm=%s mode=%s dry_run=%d fast_path=%d queue=%u"
			" workers=%d reject=%d %.*s\n",
			ovc_alg_name(mp_alg), ovc_mode_name(mp_mode), mp_dry_run,
			ovc_fast_path, ovc_queue_cap(), ovc_q ? mp_queue_workers : 0,
			ovc_reply.code, ovc_reply.reason.len, ovc_reply.reason.s);
	return 0;

error:
	ovc_queue_destroy(NULL); /* nothing queued yet: nothing to answer */
	ovc_rs_destroy();
	ovc_shm_destroy();
	return -1;
}

static int child_init(int rank)
{
	int pid, i;

	if(rank == PROC_INIT)
		return ovc_rxq_apply(); /* sockets open, not yet forked */
	if(rank != PROC_MAIN)
		return 0;
	pid = fork_process(PROC_NOCHLDINIT, "ovc ticker", 1);
	if(pid < 0)
		return -1;
	if(pid == 0) {
		if(cfg_child_init())
			return -1;
		ovc_ticker_run();
		exit(0); /* not reached */
	}
	for(i = 0; ovc_q != NULL && i < mp_queue_workers; i++) {
		/* a rank like the core's async workers: every module's child_init
		 * runs, so tm and friends work in request_route there */
		pid = fork_process(PROC_RPC, "ovc queue worker", 1);
		if(pid < 0)
			return -1;
		if(pid == 0) {
			if(cfg_child_init())
				return -1;
			ovc_qworker_run(i);
			exit(0); /* not reached */
		}
	}
	return ovc_tmreap_fork();
}

static void mod_destroy(void)
{
	/* the workers are gone: answer what they left */
	ovc_queue_destroy(ovc ? ovc_qworker_answer_at_stop : NULL);
	ovc_rs_destroy();
	ovc_tmreap_destroy();
	ovc_shm_destroy();
}

/* ---------------------------------------------------------- exports */

/* clang-format off */
static cmd_export_t cmds[] = {
	{"ovc_admit", (cmd_function)w_ovc_admit0, 0, 0, 0, REQUEST_ROUTE},
	{"ovc_admit", (cmd_function)w_ovc_admit1, 1, fixup_admit_flags, 0,
		REQUEST_ROUTE},
	{0, 0, 0, 0, 0, 0}
};

static param_export_t params[] = {
	{"param",          PARAM_STRING | USE_FUNC_PARAM, (void *)mp_set_param},
	{"algorithm",      PARAM_STRING | USE_FUNC_PARAM, (void *)mp_set_algorithm},
	{"mode",           PARAM_STRING | USE_FUNC_PARAM, (void *)mp_set_mode},
	{"cpu_source",     PARAM_STRING | USE_FUNC_PARAM,
		(void *)mp_set_cpu_source},
	{"cpu_capacity",   PARAM_STRING | USE_FUNC_PARAM,
		(void *)mp_set_cpu_capacity},
	{"reject_code",    PARAM_INT | USE_FUNC_PARAM, (void *)mp_set_reject_code},
	{"reject_reason",  PARAM_STRING | USE_FUNC_PARAM,
		(void *)mp_set_reject_reason},
	{"retry_after",    PARAM_INT | USE_FUNC_PARAM, (void *)mp_set_retry_after},
	{"dry_run",        PARAM_INT | USE_FUNC_PARAM, (void *)mp_set_dry_run},
	{"fast_path",      PARAM_INT | USE_FUNC_PARAM, (void *)mp_set_fast_path},
	{"stats_history",  PARAM_INT | USE_FUNC_PARAM,
		(void *)mp_set_stats_history},
	{"queue_size",     PARAM_INT | USE_FUNC_PARAM, (void *)mp_set_queue_size},
	{"queue_workers",  PARAM_INT | USE_FUNC_PARAM,
		(void *)mp_set_queue_workers},
	{"queue_max_wait", PARAM_INT | USE_FUNC_PARAM,
		(void *)mp_set_queue_max_wait},
	{"queue_max_bytes", PARAM_INT | USE_FUNC_PARAM,
		(void *)mp_set_queue_max_bytes},
	{"rcvbuf_udp",     PARAM_INT | USE_FUNC_PARAM, (void *)mp_set_rcvbuf_udp},
	{"rcvbuf_tcp",     PARAM_INT | USE_FUNC_PARAM, (void *)mp_set_rcvbuf_tcp},
	{"emergency",      PARAM_STRING | USE_FUNC_PARAM,
		(void *)mp_set_emergency},
	{"emergency_priority", PARAM_INT | USE_FUNC_PARAM,
		(void *)mp_set_emergency_priority},
	{0, 0, 0}
};

static pv_export_t mod_pvs[] = {
	{{"ovc", sizeof("ovc") - 1}, PVT_OTHER, pv_get_ovc, 0, pv_parse_ovc_name,
		0, 0, 0},
	{{0, 0}, 0, 0, 0, 0, 0, 0, 0}
};

struct module_exports exports = {
	"ovc",           /* module name */
	DEFAULT_DLFLAGS, /* dlopen flags */
	cmds,            /* exported functions */
	params,          /* exported parameters */
	ovc_rpc_cmds,    /* RPC methods */
	mod_pvs,         /* pseudo-variables */
	0,               /* response handling function */
	mod_init,        /* module init function */
	child_init,      /* per-child init function */
	mod_destroy      /* destroy function */
};

static sr_kemi_t sr_kemi_ovc_exports[] = {
	{ str_init("ovc"), str_init("admit"),
		SR_KEMIP_INT, ki_ovc_admit,
		{ SR_KEMIP_NONE, SR_KEMIP_NONE, SR_KEMIP_NONE,
			SR_KEMIP_NONE, SR_KEMIP_NONE, SR_KEMIP_NONE }
	},
	{ str_init("ovc"), str_init("admit_flags"),
		SR_KEMIP_INT, ki_ovc_admit_flags,
		{ SR_KEMIP_STR, SR_KEMIP_NONE, SR_KEMIP_NONE,
			SR_KEMIP_NONE, SR_KEMIP_NONE, SR_KEMIP_NONE }
	},
	{ {0, 0}, {0, 0}, 0, NULL, { 0, 0, 0, 0, 0, 0 } }
};
/* clang-format on */

int mod_register(char *path, int *dlflags, void *p1, void *p2)
{
	sr_kemi_modules_add(sr_kemi_ovc_exports);
	return 0;
}
