/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - classes and methods of requests (see ovc_classify.h).
 */
#include "core/parser/parse_to.h"

#include "ovc/hash.h"

#include "ovc_classify.h"

enum ovc_class ovc_class_of_scan(const struct ovc_sip_scan *sc)
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

enum ovc_sip_method ovc_method_of_msg(struct sip_msg *msg)
{
	switch(msg->first_line.u.request.method_value) {
		case METHOD_INVITE:
			return OVC_M_INVITE;
		case METHOD_ACK:
			return OVC_M_ACK;
		case METHOD_CANCEL:
			return OVC_M_CANCEL;
		case METHOD_REGISTER:
			return OVC_M_REGISTER;
		case METHOD_BYE:
			return OVC_M_BYE;
		case METHOD_PRACK:
			return OVC_M_PRACK;
		case METHOD_UPDATE:
			return OVC_M_UPDATE;
		case METHOD_INFO:
			return OVC_M_INFO;
		default:
			return OVC_M_OTHER;
	}
}

uint64_t ovc_source_id(const struct receive_info *rcv)
{
	unsigned char head[4];
	unsigned n;
	uint64_t h;

	head[0] = (unsigned char)rcv->proto;
	head[1] = (unsigned char)rcv->src_ip.af;
	head[2] = (unsigned char)(rcv->src_port >> 8);
	head[3] = (unsigned char)rcv->src_port;
	n = rcv->src_ip.len <= sizeof(rcv->src_ip.u.addr)
				? rcv->src_ip.len
				: sizeof(rcv->src_ip.u.addr);
	h = ovc_fnv1a(OVC_FNV_OFFSET, head, sizeof(head));
	h = ovc_fnv1a(h, rcv->src_ip.u.addr, n);
	return h != 0 ? h : 1;
}
