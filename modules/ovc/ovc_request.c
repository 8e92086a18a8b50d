/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the request description (see ovc_request.h).
 */
#include <string.h>

#include "ovc_classify.h"
#include "ovc_fair.h"
#include "ovc_queue.h"
#include "ovc_request.h"

/* The UDP socket rcv names, -1: not UDP. */
static int udp_fd(const struct receive_info *rcv)
{
	if(rcv->proto != PROTO_UDP || rcv->bind_address == NULL)
		return -1;
	return rcv->bind_address->socket;
}

int ovc_req_dgram(
		struct ovc_req *q, char *buf, int len, struct receive_info *rcv)
{
	int rc = ovc_sip_scan(buf, (size_t)len, &q->scan);

	if(rc != OVC_SCAN_OK)
		return rc;
	memset(&q->r, 0, sizeof(q->r));
	q->r.c = ovc_class_of_scan(&q->scan);
	q->r.m = q->scan.method;
	q->r.buf = buf;
	q->r.len = (size_t)len;
	q->r.sc = &q->scan;
	q->r.ruri = buf + q->scan.ruri.off;
	q->r.ruri_len = q->scan.ruri.len;
	q->r.src = ovc_source_id(rcv);
	q->r.fair_src = ovc_fair_state() != NULL ? ovc_fair_src(rcv) : 0;
	q->rcv = rcv;
	q->msg = NULL;
	q->item = NULL;
	q->fd = udp_fd(rcv);
	q->noreply = 0;
	return rc;
}

/* The description of the last message this process described, and which
 * message that is */
static struct
{
	int set;
	unsigned int id;  /* msg->id, */
	int pid;		  /* msg->pid, */
	char *buf;		  /* msg->buf */
	unsigned int len; /* and msg->len of the request described */
	struct ovc_req q;
} memo;

struct ovc_req *ovc_req_msg(struct sip_msg *msg)
{
	struct ovc_req *q = &memo.q;
	struct ovc_adm_req *r = &q->r;

	if(memo.set && memo.id == msg->id && memo.pid == msg->pid
			&& memo.buf == msg->buf && memo.len == msg->len) {
		q->rcv = &msg->rcv;
		q->msg = msg;
		q->noreply = 0;
		return q;
	}
	memset(r, 0, sizeof(*r));
	r->sc = ovc_sip_scan(msg->buf, msg->len, &q->scan) == OVC_SCAN_OK
					? &q->scan
					: NULL;
	r->c = r->sc ? ovc_class_of_scan(r->sc) : ovc_classify(msg);
	r->m = r->sc ? r->sc->method : ovc_method_of_msg(msg);
	r->buf = msg->buf;
	r->len = msg->len;
	r->ruri = msg->first_line.u.request.uri.s;
	r->ruri_len = (size_t)msg->first_line.u.request.uri.len;
	r->src = ovc_source_id(&msg->rcv);
	/* an INVITE's: the trunk fair_key names, if it names one */
	if(r->c == OVC_CLASS_INVITE)
		r->fair_src = ovc_fair_msg_key(msg);
	else if(ovc_fair_state() != NULL)
		r->fair_src = ovc_fair_src(&msg->rcv);
	q->rcv = &msg->rcv;
	q->msg = msg;
	q->item = NULL;
	q->fd = udp_fd(&msg->rcv);
	q->noreply = 0;
	memo.id = msg->id;
	memo.pid = msg->pid;
	memo.buf = msg->buf;
	memo.len = msg->len;
	memo.set = 1;
	return q;
}

void ovc_req_item(struct ovc_req *q, struct ovc_qitem *it)
{
	memset(q, 0, sizeof(*q));
	q->r.c = OVC_CLASS_INVITE;
	q->r.m = OVC_M_INVITE;
	q->r.buf = it->buf;
	q->r.len = (size_t)it->len;
	q->r.src = ovc_source_id(&it->rcv);
	if(it->ruri_len > 0) {
		q->r.ruri = it->buf + it->ruri_off;
		q->r.ruri_len = it->ruri_len;
	}
	q->rcv = &it->rcv;
	q->item = it;
	q->fd = -1;
}
