/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - admission in the script: early, lock-free and stateless (000
 * §VI-A). ovc_admit() and ovc_dst_admit() describe the request once
 * (ovc_request.h), ask the admission sequence (ovc_decide.h) and hand its
 * verdict to the actor (ovc_actor.h).
 */
#include <string.h>

#include "ovc_actor.h"
#include "ovc_admit.h"
#include "ovc_decide.h"
#include "ovc_fastpath.h"
#include "ovc_nexthop.h"
#include "ovc_reply.h"
#include "ovc_request.h"

int ovc_admit_init(void)
{
	return ovc_reply_init();
}

int ovc_admit(struct sip_msg *msg, int noreply)
{
	struct ovc_adm_verdict v;
	struct ovc_adm_cfg cfg;
	struct ovc_adm_req r;
	struct ovc_req *q, handed;
	enum ovc_at at;

	if(ovc_handoff_take(msg, &handed, &v, &at)) {
		handed.noreply = noreply;
		return ovc_act(&handed, at, NULL, &v);
	}
	if(msg->first_line.type != SIP_REQUEST) {
		/* nothing to decide or count: admitted */
		memset(&handed, 0, sizeof(handed));
		memset(&v, 0, sizeof(v));
		handed.msg = msg;
		handed.rcv = &msg->rcv;
		return ovc_act(&handed, OVC_AT_HANDED, NULL, &v);
	}
	q = ovc_req_msg(msg);
	q->noreply = noreply;
	if(ovc_fast_path_kemi && !noreply)
		ovc_fastpath_script_plain(q->r.c);
	/* the raw scan serves the decision memory over UDP only (a stream
	 * does not retransmit) */
	r = q->r;
	if(msg->rcv.proto != PROTO_UDP)
		r.sc = NULL;
	ovc_admit_settings(&cfg);
	ovc_admit_decide(&cfg, &r, q->fd, &v);
	return ovc_act(q, OVC_AT_SCRIPT, &cfg, &v);
}

int ovc_dst_admit(struct sip_msg *msg, str *uri)
{
	struct ovc_adm_verdict v;
	struct ovc_adm_cfg cfg;
	struct ovc_adm_hop hop;
	struct ovc_req *q;

	memset(&v, 0, sizeof(v));
	switch(ovc_net_hop(msg, uri, &hop)) {
		case -1:
			return 1; /* nothing of ovc's at work: not counted */
		case 0:
			return ovc_act(NULL, OVC_AT_NEXT_HOP, NULL, &v); /* passed */
	}
	q = ovc_req_msg(msg);
	ovc_admit_settings(&cfg);
	ovc_adm_next_hop(ovc_admit_state(), &cfg, &q->r, &hop, ovc_now_ns(), &v);
	return ovc_act(q, OVC_AT_NEXT_HOP, &cfg, &v);
}
