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
#include <string.h>

#include "core/globals.h"
#include "core/sr_module.h"
#include "core/cfg/cfg_struct.h"
#include "core/events.h"
#include "core/dprint.h"
#include "core/kemi.h"
#include "core/mod_fix.h"
#include "core/pt.h"
#include "core/pvar.h"
#include "core/ut.h"

#include "ovc_actor.h"
#include "ovc_admit.h"
#include "ovc_fastpath.h"
#include "ovc_hist.h"
#include "ovc_modparams.h"
#include "ovc_nexthop.h"
#include "ovc_part.h"
#include "ovc_proc.h"
#include "ovc_queue.h"
#include "ovc_rpc.h"
#include "ovc_rxq.h"
#include "ovc_sampler.h"
#include "ovc_shm.h"
#include "ovc_shm_fit.h"
#include "ovc_stats.h"
#include "ovc_ticker.h"

MODULE_VERSION

/* ------------------------------------------------- module parameters */

/* every plain modparam, its setter and default: ovc_modparams.def */
extern param_export_t ovc_param_exports[];

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
	if(flags->len == 7 && strncmp(flags->s, "noreply", 7) == 0) {
		if(ovc_mp.fast_path && ovc_fastpath_leave_all())
			/* as ovc_admit("noreply") in a native script, found at run
			 * time: the fast path would take the refusal from the
			 * script */
			LM_NOTICE("admit_flags(\"noreply\") from KEMI: the fast path"
					  " leaves every request to the script from now on\n");
		return ovc_admit(msg, 1);
	}
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

static int ki_ovc_dst_admit(sip_msg_t *msg)
{
	return ovc_dst_admit(msg, NULL);
}

static int ki_ovc_dst_admit_uri(sip_msg_t *msg, str *uri)
{
	return ovc_dst_admit(msg, uri != NULL && uri->len > 0 ? uri : NULL);
}

static int w_ovc_dst_admit0(sip_msg_t *msg, char *p1, char *p2)
{
	return ovc_dst_admit(msg, NULL);
}

static int w_ovc_dst_admit1(sip_msg_t *msg, char *uri, char *p2)
{
	str s;

	if(fixup_get_svalue(msg, (gparam_t *)uri, &s) < 0) {
		LM_ERR("ovc_dst_admit: cannot evaluate the URI\n");
		return 1; /* not refused for a script error */
	}
	return ovc_dst_admit(msg, s.len > 0 ? &s : NULL);
}

/* Turns the literal flag string into an int at start-up. */
static int fixup_admit_flags(void **param, int param_no)
{
	char *s = (char *)*param;

	if(param_no != 1)
		return 0;
	if(strcmp(s, "noreply") == 0) {
		*param = (void *)(long)1;
		if(ovc_mp.fast_path) {
			/* the script wants to answer refusals itself: deciding at
			 * datagram arrival would take that away from it */
			LM_NOTICE("ovc_admit(\"noreply\") in the script: fast_path"
					  " disabled, decisions are taken in the script\n");
			ovc_mp.fast_path = 0;
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
			s.len = snprintf(buf, sizeof(buf), "%.4f", ovc_sampler_cpu());
			s.s = buf;
			return pv_get_strval(msg, param, res, &s);
		case PV_QUEUE:
			if(ovc_queue_exists())
				return pv_get_sintval(msg, param, res, (int)ovc_queue_len());
			return pv_get_sintval(msg, param, res,
					(int)(ovc_rxq_bytes() / OVC_RXQ_MSG_BYTES));
	}
	return pv_get_null(msg, param, res);
}

/* ------------------------------------------------------ init/destroy */

static int mod_init(void)
{
	char err[256];

	if(ovc_params_validate(ovc_mp_params(), err, sizeof(err)) != OVC_OK) {
		LM_ERR("modparam \"param\": %s\n", err);
		return -1;
	}
	if(ovc_shm_fit(shm_mem_size, (unsigned)ovc_mp.stats_history,
			   ovc_mp.queue_size > 0 && ovc_mp.queue_workers > 0,
			   (uint64_t)ovc_mp.queue_max_bytes)
			< 0)
		return -1;
	if(ovc_admit_init() < 0)
		return -1;
	if(ovc_sampler_init(&ovc_mp.cpu_source, &ovc_mp.cpu_capacity) < 0)
		return -1;
	if(ovc_shm_init(ovc_mp_params(), ovc_mp.algorithm, ovc_mp.mode,
			   ovc_mp.dry_run)
			< 0) {
		LM_ERR("cannot initialise ovc's shared state\n");
		return -1;
	}
	if(ovc_hist_init((unsigned)ovc_mp.stats_history) < 0)
		goto error;
	if(ovc_stats_register() < 0) {
		LM_ERR("cannot register the ovc statistics\n");
		goto error;
	}
	/* the hook decides at datagram arrival (fast_path) and counts the
	 * datagrams read, the drain of the receive queue */
	if(sr_event_register_cb(SREV_NET_DGRAM_IN, ovc_dgram_in) < 0) {
		if(ovc_mp.fast_path) {
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
	/* a KEMI script: the fast path learns per class whether the script
	 * answers refusals itself (ovc_admit.h) */
	ovc_fast_path_kemi = ovc_mp.fast_path && sr_kemi_eng_get() != NULL;
	if(ovc_parts_init(ovc_mp_params()) < 0)
		goto error;
	/* the ticker and the parts' processes (queue workers, reaper) */
	register_procs(1 + ovc_parts_procs());
	cfg_register_child(1 + ovc_parts_procs());
	LM_INFO("ovc: algorithm=%s mode=%s network_mode=%s dry_run=%d"
			" fast_path=%d queue=%u workers=%d reject=%d %.*s\n",
			ovc_alg_name(ovc_mp.algorithm), ovc_mode_name(ovc_mp.mode),
			ovc_net_mode_name(), ovc_mp.dry_run, ovc_mp.fast_path,
			ovc_queue_cap(), ovc_queue_exists() ? ovc_mp.queue_workers : 0,
			ovc_reply.code, ovc_reply.reason.len, ovc_reply.reason.s);
	return 0;

error:
	ovc_parts_destroy(); /* nothing queued yet: nothing to answer */
	ovc_hist_destroy();
	ovc_shm_destroy();
	return -1;
}

static int child_init(int rank)
{
	if(rank == PROC_INIT)
		return ovc_parts_child_init(rank); /* sockets open, not forked */
	if(rank != PROC_MAIN)
		return 0;
	if(ovc_proc_run(PROC_NOCHLDINIT, "ovc ticker", ovc_ticker_run) < 0)
		return -1;
	/* the parts' processes: queue workers, reaper */
	return ovc_parts_child_init(rank);
}

static void mod_destroy(void)
{
	/* the workers are gone: the queue answers what they left */
	ovc_parts_destroy();
	ovc_hist_destroy();
	ovc_shm_destroy();
}

/* ---------------------------------------------------------- exports */

/* clang-format off */
static cmd_export_t cmds[] = {
	{"ovc_admit", (cmd_function)w_ovc_admit0, 0, 0, 0, REQUEST_ROUTE},
	{"ovc_admit", (cmd_function)w_ovc_admit1, 1, fixup_admit_flags, 0,
		REQUEST_ROUTE},
	{"ovc_dst_admit", (cmd_function)w_ovc_dst_admit0, 0, 0, 0,
		REQUEST_ROUTE | FAILURE_ROUTE | BRANCH_ROUTE},
	{"ovc_dst_admit", (cmd_function)w_ovc_dst_admit1, 1, fixup_spve_null,
		fixup_free_spve_null, REQUEST_ROUTE | FAILURE_ROUTE | BRANCH_ROUTE},
	{0, 0, 0, 0, 0, 0}
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
	ovc_param_exports, /* exported parameters */
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
	{ str_init("ovc"), str_init("dst_admit"),
		SR_KEMIP_INT, ki_ovc_dst_admit,
		{ SR_KEMIP_NONE, SR_KEMIP_NONE, SR_KEMIP_NONE,
			SR_KEMIP_NONE, SR_KEMIP_NONE, SR_KEMIP_NONE }
	},
	{ str_init("ovc"), str_init("dst_admit_uri"),
		SR_KEMIP_INT, ki_ovc_dst_admit_uri,
		{ SR_KEMIP_STR, SR_KEMIP_NONE, SR_KEMIP_NONE,
			SR_KEMIP_NONE, SR_KEMIP_NONE, SR_KEMIP_NONE }
	},
	{ {0, 0}, {0, 0}, 0, NULL, { 0, 0, 0, 0, 0, 0 } }
};
/* clang-format on */

int mod_register(char *path, int *dlflags, void *p1, void *p2)
{
	/* before the configuration's modparams */
	if(ovc_mp_defaults() < 0)
		return -1;
	sr_kemi_modules_add(sr_kemi_ovc_exports);
	return 0;
}
