/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - R-SOCA's DoS and burst protection, I from tm replies, emergency
 * match and reject reply (004 §III-A..C). See ovc_rsoca.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/dprint.h"
#include "core/mem/shm_mem.h"
#include "core/sr_module.h"
#include "modules/tm/tm_load.h"

#include "ovc/emerg.h"
#include "ovc/rsoca_dos.h"

#include "ovc_classify.h"
#include "ovc_modparams.h"
#include "ovc_part.h"
#include "ovc_reply.h"
#include "ovc_rsoca.h"
#include "ovc_shm.h"

struct ovc_rs_shm
{
	struct ovc_acceptor acc[OVC_DLG_COUNT]; /* 1 - p_drop per type */
	struct ovc_burst burst[OVC_CLASS_COUNT]; /* budgets of the interval */
	_Atomic uint64_t epoch_arr[OVC_DLG_COUNT]; /* arrivals since the last
												  epoch */
	_Atomic uint64_t epoch_ok;				   /* I since the last epoch */
	_Atomic uint64_t total[OVC_DLG_COUNT][OVC_RS_COLS]; /* since start */
	_Atomic uint64_t slot[OVC_SLOTS][OVC_DLG_COUNT][OVC_RS_COLS];
	_Atomic uint64_t ev_total[OVC_RS_E_COUNT];
	_Atomic uint64_t ev_slot[OVC_SLOTS][OVC_RS_E_COUNT];
	_Atomic int reject_code; /* rsoca.reject_code in force */
	_Atomic int tretry;		 /* rsoca.tretry in force, s */
	_Atomic int tm_bound;	 /* 1: I is counted from tm's replies */
	/* last plan (ticker writes, RPC reads) */
	ovc_atomic_double p, p_cpu, p_mem, d_en, i_last, i_used, cap, txn_en;
	ovc_atomic_double p_drop[OVC_DLG_COUNT];
	ovc_atomic_double burst_limit[OVC_CLASS_COUNT];
};

static struct ovc_rs_shm *rs;
static struct ovc_emerg emerg;
static struct tm_binds tmb;

/* Parses spec, the emergency list, into e. Returns 0 or -1 (logged,
 * naming the modparam). */
static int parse_emergency(struct ovc_emerg *e, const char *spec)
{
	char err[160];

	if(ovc_emerg_parse(e, spec, ovc_mp.emergency_priority, err, sizeof(err))
			!= OVC_OK) {
		LM_ERR("modparam \"emergency\": %s (a comma-separated list of"
			   " users, @hosts and URIs, at most %d entries of %d bytes)\n",
				err, OVC_EMERG_MAX, OVC_EMERG_TOKLEN - 1);
		return -1;
	}
	return 0;
}

/* modparam emergency: refused here when it does not parse; parsed for
 * good, with emergency_priority, in mod_init (rsoca_init) */
int ovc_mp_check_emergency(const char *name, void *val, void *field)
{
	static struct ovc_emerg trial;

	if(parse_emergency(&trial, (const char *)val) < 0)
		return -1;
	*(const char **)field = (const char *)val;
	return 0;
}

/* tm: a 2xx sent for an initial INVITE is one successful session
 * initiation (I). RESPONSE_OUT runs once per final reply. */
static void cb_invite_out(struct cell *t, int type, struct tmcb_params *ps)
{
	if(ps->code >= 200 && ps->code < 300) {
		atomic_fetch_add_explicit(&rs->epoch_ok, 1, memory_order_relaxed);
		ovc_rsoca_count_event(OVC_RS_E_INVITE_OK);
	}
}

/* tm: every new transaction; initial INVITEs get the reply callback while
 * R-SOCA is in force. */
static void cb_request_in(struct cell *t, int type, struct tmcb_params *ps)
{
	struct sip_msg *msg = ps->req;

	if(msg == NULL || msg == FAKED_REPLY
			|| !ovc_traits_now()->dialog_limits
			|| msg->first_line.type != SIP_REQUEST
			|| msg->first_line.u.request.method_value != METHOD_INVITE)
		return;
	if(ovc_classify(msg) != OVC_CLASS_INVITE)
		return;
	if(tmb.register_tmcb(msg, t, TMCB_RESPONSE_OUT, cb_invite_out, NULL, NULL)
			<= 0)
		LM_DBG("cannot register the reply callback\n");
}

void ovc_rsoca_settings(const struct ovc_params *p)
{
	atomic_store(&rs->reject_code, (int)p->rsoca.reject_code);
	atomic_store(&rs->tretry, (int)p->rsoca.tretry);
	ovc_dstore(&rs->txn_en, ovc_rsoca_engineered_txn(&p->rsoca, &p->memctl));
	ovc_dstore(&rs->cap, ovc_rsoca_drop_cap(&p->rsoca));
}

/* mod_init: the shared state and, when tm is loaded, its callbacks to
 * count I, for the parameters of the configuration. */
static int rsoca_init(const struct ovc_params *p)
{
	int i;

	if(parse_emergency(&emerg, ovc_mp.emergency) < 0)
		return -1;
	rs = shm_malloc(sizeof(*rs));
	if(rs == NULL) {
		LM_ERR("no shared memory for R-SOCA's state\n");
		return -1;
	}
	memset(rs, 0, sizeof(*rs));
	for(i = 0; i < OVC_DLG_COUNT; i++)
		ovc_acceptor_init(&rs->acc[i], 1.0);
	for(i = 0; i < OVC_CLASS_COUNT; i++) {
		ovc_burst_reset(&rs->burst[i], -1.0);
		ovc_dstore(&rs->burst_limit[i], -1.0);
	}
	ovc_rsoca_settings(p);
	if(module_loaded("tm")) {
		if(load_tm_api(&tmb) < 0
				|| tmb.register_tmcb(NULL, NULL, TMCB_REQUEST_IN,
						   cb_request_in, NULL, NULL)
						   <= 0) {
			LM_ERR("cannot hook tm to count successful INVITEs (I)\n");
			goto error;
		}
		atomic_store(&rs->tm_bound, 1);
	} else {
		LM_NOTICE("tm not loaded: R-SOCA's I (successful INVITEs) is not"
				  " measured, D_en uses E_I alone\n");
	}
	return 0;
error:
	shm_free(rs);
	rs = NULL;
	return -1;
}

static void rsoca_destroy(void)
{
	if(rs != NULL)
		shm_free(rs);
	rs = NULL;
}

static void count_col(enum ovc_dlg t, enum ovc_rs_col c)
{
	int64_t sec = ovc_now_sec_coarse();

	ovc_count_pair(&rs->total[t][c], &rs->slot[sec % OVC_SLOTS][t][c]);
}

void ovc_rsoca_count_event(enum ovc_rs_event e)
{
	int64_t sec = ovc_now_sec_coarse();

	ovc_count_pair(&rs->ev_total[e], &rs->ev_slot[sec % OVC_SLOTS][e]);
}

enum ovc_rs_verdict ovc_rsoca_indialog(enum ovc_sip_method m, int dry)
{
	enum ovc_dlg t = ovc_dlg_of_method(m);
	int pass;

	if(t >= OVC_DLG_COUNT)
		return OVC_RS_PASS; /* ACK, CANCEL: never controlled */
	atomic_fetch_add_explicit(&rs->epoch_arr[t], 1, memory_order_relaxed);
	count_col(t, OVC_RS_ARRIVED);
	pass = ovc_burst_take(&rs->burst[OVC_CLASS_INDIALOG]);
	if(!pass)
		ovc_rsoca_count_event(OVC_RS_E_BURST);
	else
		pass = ovc_acceptor_take(&rs->acc[t]);
	if(pass)
		return OVC_RS_PASS;
	if(t == OVC_DLG_REINVITE)
		return OVC_RS_REJECT; /* counted once the reply is sent */
	if(!dry)
		count_col(t, OVC_RS_DROPPED);
	return OVC_RS_DROP;
}

void ovc_rsoca_count_dlg_reject(enum ovc_sip_method m)
{
	enum ovc_dlg t = ovc_dlg_of_method(m);

	if(t < OVC_DLG_COUNT)
		count_col(t, OVC_RS_REJECTED);
}

int ovc_rsoca_burst_take(enum ovc_class c)
{
	if(ovc_burst_take(&rs->burst[c]))
		return 1;
	ovc_rsoca_count_event(OVC_RS_E_BURST);
	return 0;
}

const struct ovc_emerg *ovc_rsoca_emerg(void)
{
	return &emerg;
}

const struct ovc_reply_cfg *ovc_rsoca_reply(void)
{
	static struct ovc_reply_cfg r;
	int code = atomic_load_explicit(&rs->reject_code, memory_order_relaxed);

	r.code = code;
	if(code == 503) {
		r.reason.s = "Service Unavailable";
		r.reason.len = 19;
	} else {
		r.reason.s = "Server Internal Error";
		r.reason.len = 21;
	}
	r.retry_after = atomic_load_explicit(&rs->tretry, memory_order_relaxed);
	return &r;
}

/* Each epoch before the step: the in-dialog arrivals per type and I
 * since the last epoch. */
static void rsoca_measure(const struct ovc_tick *tk, struct ovc_measure *m)
{
	int t;

	for(t = 0; t < OVC_DLG_COUNT; t++)
		m->dlg[t] = (double)atomic_exchange(&rs->epoch_arr[t], 0);
	m->invite_ok = (double)atomic_exchange(&rs->epoch_ok, 0);
}

/* Each epoch after a successful step: plans the next interval
 * (acceptors, burst budgets, figures) from m and the output out. */
static void rsoca_apply(const struct ovc_ctl *ctl,
		const struct ovc_measure *m, const struct ovc_output *out)
{
	struct ovc_dos_plan plan;
	int i, on = ovc_ctl_traits(ctl)->dialog_limits;

	ovc_rsoca_settings(&ctl->p);
	ovc_dstore(&rs->i_last, m->invite_ok);
	if(!on || ovc_rsoca_dos_plan(&ctl->p.rsoca, m->dlg, m->invite_ok,
					  m->dt_s, &plan)
					  != OVC_OK) {
		for(i = 0; i < OVC_DLG_COUNT; i++) {
			ovc_acceptor_set(&rs->acc[i], 1.0);
			ovc_dstore(&rs->p_drop[i], 0.0);
		}
		for(i = 0; i < OVC_CLASS_COUNT; i++) {
			ovc_burst_reset(&rs->burst[i], -1.0);
			ovc_dstore(&rs->burst_limit[i], -1.0);
		}
		ovc_dstore(&rs->p, 0.0);
		ovc_dstore(&rs->p_cpu, 0.0);
		ovc_dstore(&rs->p_mem, 0.0);
		ovc_dstore(&rs->d_en, 0.0);
		ovc_dstore(&rs->i_used, 0.0);
		return;
	}
	for(i = 0; i < OVC_DLG_COUNT; i++) {
		ovc_acceptor_set(&rs->acc[i], plan.accept[i]);
		ovc_dstore(&rs->p_drop[i], plan.p_drop[i]);
	}
	for(i = 0; i < OVC_CLASS_COUNT; i++) {
		ovc_burst_reset(&rs->burst[i], out->burst_limit[i]);
		ovc_dstore(&rs->burst_limit[i], out->burst_limit[i]);
	}
	ovc_dstore(&rs->p, out->p_reject[OVC_CLASS_INVITE]);
	ovc_dstore(&rs->p_cpu, out->p_cpu);
	ovc_dstore(&rs->p_mem, out->p_mem);
	ovc_dstore(&rs->d_en, plan.d_en[OVC_DLG_BYE]);
	ovc_dstore(&rs->i_used, plan.i_used);
}

/* End of a second: the rsoca_d_en, rsoca_p* columns in force. */
static void rsoca_second_end(
		const struct ovc_tick *tk, int64_t sec, struct ovc_row *row)
{
	row->rsoca_d_en = ovc_dload(&rs->d_en);
	row->rsoca_p = ovc_dload(&rs->p);
	row->rsoca_p_cpu = ovc_dload(&rs->p_cpu);
	row->rsoca_p_mem = ovc_dload(&rs->p_mem);
}

/* Closing second s: the dlg_* columns and R-SOCA's events. */
static void rsoca_second_close(int64_t s, struct ovc_row *row)
{
	int t, c;

	for(t = 0; t < OVC_DLG_COUNT; t++)
		for(c = 0; c < OVC_RS_COLS; c++)
			row->dlg[t][c] = atomic_exchange(&rs->slot[s % OVC_SLOTS][t][c], 0);
	for(c = 0; c < OVC_RS_E_COUNT; c++)
		row->rs_ev[c] = atomic_exchange(&rs->ev_slot[s % OVC_SLOTS][c], 0);
}

static void rsoca_reset(void)
{
	int t, c;

	if(rs == NULL)
		return;
	for(t = 0; t < OVC_DLG_COUNT; t++)
		for(c = 0; c < OVC_RS_COLS; c++)
			atomic_store(&rs->total[t][c], 0);
	for(c = 0; c < OVC_RS_E_COUNT; c++)
		atomic_store(&rs->ev_total[c], 0);
}

/* ovc.stats "rsoca". */
static void rsoca_stats(rpc_t *rpc, void *ctx, void *th)
{
	void *h, *ht;
	int t;

	if(rs == NULL || rpc->struct_add(th, "{", "rsoca", &h) < 0)
		return;
	rpc->struct_add(h, "ddfffJfffffdddJJJ", "in_force",
			ovc_traits_now()->dialog_limits ? 1 : 0,
			"i_from_tm", atomic_load(&rs->tm_bound), "p", ovc_dload(&rs->p),
			"p_cpu", ovc_dload(&rs->p_cpu), "p_mem", ovc_dload(&rs->p_mem),
			"i_last", (unsigned long long)llround(ovc_dload(&rs->i_last)),
			"i_used", ovc_dload(&rs->i_used), "d_en", ovc_dload(&rs->d_en),
			"drop_cap", ovc_dload(&rs->cap), "txn_en",
			ovc_dload(&rs->txn_en), "burst_limit_invite",
			ovc_dload(&rs->burst_limit[OVC_CLASS_INVITE]),
			"reject_code", atomic_load(&rs->reject_code), "retry_after",
			atomic_load(&rs->tretry), "emergency_priority", emerg.priority,
			"invite_ok",
			(unsigned long long)atomic_load(
					&rs->ev_total[OVC_RS_E_INVITE_OK]),
			"burst_rejects",
			(unsigned long long)atomic_load(&rs->ev_total[OVC_RS_E_BURST]),
			"emergency_passes",
			(unsigned long long)atomic_load(&rs->ev_total[OVC_RS_E_EMERG]));
	for(t = 0; t < OVC_DLG_COUNT; t++) {
		if(rpc->struct_add(h, "{", ovc_dlg_name(t), &ht) < 0)
			return;
		rpc->struct_add(ht, "JJJf", "arrived",
				(unsigned long long)atomic_load(
						&rs->total[t][OVC_RS_ARRIVED]),
				"dropped",
				(unsigned long long)atomic_load(
						&rs->total[t][OVC_RS_DROPPED]),
				"rejected",
				(unsigned long long)atomic_load(
						&rs->total[t][OVC_RS_REJECTED]),
				"p_drop", ovc_dload(&rs->p_drop[t]));
	}
}

const struct ovc_part ovc_part_rsoca = {
		.name = "R-SOCA",
		.init = rsoca_init,
		.measure = rsoca_measure,
		.apply = rsoca_apply,
		.second_end = rsoca_second_end,
		.second_close = rsoca_second_close,
		.stats = rsoca_stats,
		.reset = rsoca_reset,
		.destroy = rsoca_destroy,
};
