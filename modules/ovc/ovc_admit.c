/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - admission: early, lock-free and stateless (000 §VI-A).
 */
#include <stdio.h>
#include <string.h>

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "core/data_lump_rpl.h"
#include "core/dprint.h"
#include "core/ip_addr.h"
#include "core/parser/parse_to.h"
#include "core/udp_server.h"
#include "modules/sl/sl.h"

#include "ovc/sipscan.h"

#include "ovc_admit.h"

struct ovc_reply_cfg ovc_reply = {503, {"Service Unavailable", 19}, 0};

static sl_api_t slb;

/* secret of ovc's To-tags; drawn in mod_init, so every process (forked
 * later) shares it and recognises ACKs to replies sent by any process */
static uint64_t tag_secret;

/* Server header of ovc's own replies */
#define OVC_SERVER "ovc"

/* per-process memory of the last decision, for $ovc(verdict) */
static unsigned int last_msg_id;
static int last_msg_pid;
static enum ovc_outcome last_outcome;

int ovc_admit_init(void)
{
	int fd;

	if(sl_load_api(&slb) != 0) {
		LM_ERR("ovc needs the sl module: loadmodule \"sl.so\" first\n");
		return -1;
	}
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if(fd < 0 || read(fd, &tag_secret, sizeof(tag_secret))
						 != (ssize_t)sizeof(tag_secret))
		tag_secret = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	if(fd >= 0)
		close(fd);
	return 0;
}

/* Class of a request the raw scanner understood. */
static enum ovc_class class_of_scan(const struct ovc_sip_scan *sc)
{
	if(sc->totag.len > 0)
		return OVC_CLASS_INDIALOG;
	if(sc->method == OVC_M_INVITE)
		return OVC_CLASS_INVITE;
	if(sc->method == OVC_M_REGISTER)
		return OVC_CLASS_REGISTER;
	return OVC_CLASS_OTHER;
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

/* Sends the reject reply built straight from the raw request (no parsing,
 * no allocation) over UDP. Returns 0 sent, -1 send failed, 1 could not be
 * built here (the caller falls back to sl). */
static int send_fast_reject(struct sip_msg *msg, const struct ovc_sip_scan *sc)
{
	static char out[BUF_SIZE];
	struct ovc_reply_params rp;
	struct dest_info dst;
	char *ip;
	int len;

	ip = ip_addr2a(&msg->rcv.src_ip);
	if(ip == NULL)
		return 1;
	memset(&rp, 0, sizeof(rp));
	rp.code = ovc_reply.code;
	rp.reason = ovc_reply.reason.s;
	rp.reason_len = ovc_reply.reason.len;
	rp.retry_after = ovc_reply.retry_after;
	rp.src_ip = ip;
	rp.src_port = msg->rcv.src_port;
	rp.server = OVC_SERVER;
	rp.secret = tag_secret;
	len = ovc_sip_build_reply(msg->buf, sc, &rp, out, sizeof(out));
	if(len <= 0)
		return 1;
	init_dst_from_rcv(&dst, &msg->rcv);
	su_setport(&dst.to, ovc_sip_reply_port(sc, msg->rcv.src_port));
	if(udp_send(&dst, out, (unsigned)len) < 0)
		return -1;
	return 0;
}

/* Sends the configured stateless reject: ovc's own reply when the raw
 * request was understood (UDP), else sl's. Returns 0 or -1. */
static int send_reject(struct sip_msg *msg, const struct ovc_sip_scan *sc)
{
	char hdr[64];
	int len, rc;

	if(sc != NULL) {
		rc = send_fast_reject(msg, sc);
		if(rc <= 0)
			return rc;
	}
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
	struct ovc_sip_scan scan, *sc = NULL;
	enum ovc_class c;

	if(msg->first_line.type != SIP_REQUEST) {
		remember(msg, OVC_OUT_ADMITTED);
		return 1;
	}
	/* the raw scan classifies without Kamailio's allocating parsers and is
	 * reused to build the reply; anything it does not fully understand
	 * takes the normal path */
	if(msg->rcv.proto == PROTO_UDP
			&& ovc_sip_scan(msg->buf, msg->len, &scan) == OVC_SCAN_OK)
		sc = &scan;
	c = sc ? class_of_scan(sc) : ovc_classify(msg);
	if(sc && sc->method == OVC_M_ACK && sc->totag.len > 0
			&& ovc_sip_is_own_totag(tag_secret, msg->buf, sc)) {
		/* the ACK to one of ovc's rejects: absorbed, never routed */
		ovc_count_offered(c, OVC_V_DROPPED, -1);
		atomic_fetch_add_explicit(
				&ovc->acks_absorbed, 1, memory_order_relaxed);
		remember(msg, OVC_OUT_DROPPED);
		return 0;
	}
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
	if(send_reject(msg, sc) < 0) {
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
