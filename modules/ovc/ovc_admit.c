/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - admission: early, lock-free and stateless (000 §VI-A).
 */
#include <stdio.h>
#include <string.h>

#include "core/data_lump_rpl.h"
#include "core/dprint.h"
#include "core/parser/parse_to.h"
#include "modules/sl/sl.h"

#include "ovc_admit.h"

struct ovc_reply_cfg ovc_reply = {503, {"Service Unavailable", 19}, 0};

static sl_api_t slb;

/* per-process memory of the last decision, for $ovc(verdict) */
static unsigned int last_msg_id;
static int last_msg_pid;
static enum ovc_outcome last_outcome;

int ovc_admit_init(void)
{
	if(sl_load_api(&slb) != 0) {
		LM_ERR("ovc needs the sl module: loadmodule \"sl.so\" first\n");
		return -1;
	}
	return 0;
}

enum ovc_class ovc_classify(struct sip_msg *msg)
{
	int m = msg->first_line.u.request.method_value;

	if(parse_headers(msg, HDR_TO_F, 0) == 0 && msg->to != NULL
			&& parse_to_header(msg) == 0 && get_to(msg)->tag_value.len > 0)
		return OVC_CLASS_INDIALOG;
	if(m == METHOD_INVITE)
		return OVC_CLASS_INVITE;
	if(m == METHOD_REGISTER)
		return OVC_CLASS_REGISTER;
	return OVC_CLASS_OTHER;
}

/* Is class c of this request subject to the controller's fraction? */
static int controlled(struct sip_msg *msg, enum ovc_class c)
{
	int m = msg->first_line.u.request.method_value;
	enum ovc_alg alg = atomic_load_explicit(&ovc->alg, memory_order_relaxed);

	if(alg == OVC_ALG_NONE)
		return 0;
	if(m == METHOD_ACK || m == METHOD_CANCEL)
		return 0; /* never rejected */
	if(c == OVC_CLASS_INDIALOG)
		return 0; /* running dialogs are never rejected */
	if(atomic_load_explicit(&ovc->mode, memory_order_relaxed)
			== OVC_MODE_SINGLE)
		return 1;
	if(alg == OVC_ALG_RSOCA)
		return 1; /* invite, register, other */
	return c == OVC_CLASS_INVITE;
}

/* Sends the configured stateless reject. Returns 0 or -1. */
static int send_reject(struct sip_msg *msg)
{
	char hdr[64];
	int len;

	if(ovc_reply.retry_after > 0) {
		len = snprintf(hdr, sizeof(hdr), "Retry-After: %d\r\n",
				ovc_reply.retry_after);
		if(add_lump_rpl(msg, hdr, len, LUMP_RPL_HDR) == NULL) {
			LM_ERR("cannot add Retry-After to the reply\n");
			return -1;
		}
	}
	if(slb.sreply(msg, ovc_reply.code, &ovc_reply.reason) < 0)
		return -1;
	return 0;
}

static void remember(struct sip_msg *msg, enum ovc_outcome o)
{
	last_msg_id = msg->id;
	last_msg_pid = msg->pid;
	last_outcome = o;
}

int ovc_admit(struct sip_msg *msg, int noreply)
{
	enum ovc_class c;

	if(msg->first_line.type != SIP_REQUEST) {
		remember(msg, OVC_OUT_ADMITTED);
		return 1;
	}
	c = ovc_classify(msg);
	if(!controlled(msg, c) || ovc_acceptor_take(&ovc->acc)) {
		ovc_count_offered(c, OVC_V_ADMITTED, -1);
		remember(msg, OVC_OUT_ADMITTED);
		return 1;
	}
	if(atomic_load_explicit(&ovc->dry_run, memory_order_relaxed)) {
		ovc_count_offered(c, OVC_V_ADMITTED, OVC_V_WOULD_REJECT);
		remember(msg, OVC_OUT_WOULD_REJECT);
		return 1;
	}
	if(noreply) {
		ovc_count_offered(c, OVC_V_REJECTED, -1);
		remember(msg, OVC_OUT_REJECTED);
		return -1;
	}
	if(send_reject(msg) < 0) {
		/* refused, but no reply could be sent: honest name is dropped */
		ovc_count_offered(c, OVC_V_DROPPED, -1);
		remember(msg, OVC_OUT_DROPPED);
		return 0;
	}
	ovc_count_offered(c, OVC_V_REJECTED, -1);
	ovc_count_reply();
	remember(msg, OVC_OUT_REJECTED);
	return 0;
}

enum ovc_outcome ovc_last_outcome(struct sip_msg *msg)
{
	if(msg == NULL || msg->id != last_msg_id || msg->pid != last_msg_pid)
		return OVC_OUT_NONE;
	return last_outcome;
}

const char *ovc_outcome_name(enum ovc_outcome o)
{
	switch(o) {
		case OVC_OUT_ADMITTED:
			return "admitted";
		case OVC_OUT_REJECTED:
			return "rejected";
		case OVC_OUT_DROPPED:
			return "dropped";
		case OVC_OUT_WOULD_REJECT:
			return "would_reject";
		case OVC_OUT_NONE:
			break;
	}
	return "none";
}
