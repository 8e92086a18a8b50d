/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the replier: every refusal ovc answers goes out here, built from
 * the raw request over UDP (no parsing, no allocation), else through sl.
 */
#ifndef OVC_REPLY_H
#define OVC_REPLY_H

#include <stdint.h>

#include "core/ip_addr.h"
#include "core/parser/msg_parser.h"
#include "core/str.h"

#include "ovc/sipscan.h"

/* Reject reply settings (ovc_reply_init() copies them from the modparams
 * reject_code, reject_reason and retry_after). */
struct ovc_reply_cfg
{
	int code;		 /* SIP status code, 400..699 */
	str reason;		 /* reason phrase */
	int retry_after; /* seconds; 0: no Retry-After header */
};

extern struct ovc_reply_cfg ovc_reply;

/* Takes the reject reply's settings from the modparams, binds the sl API
 * and draws the secret of ovc's To-tags (in mod_init, so every process
 * shares them). Returns 0 or -1 (sl not loaded). */
int ovc_reply_init(void);

/* The secret keying ovc's To-tags and request identities. */
uint64_t ovc_reply_secret(void);

/* Sends the reject reply cfg for the raw request buf (len bytes,
 * received as rcv; sc: its scan, or NULL to scan it here) over UDP.
 * Returns 0 sent, -1 send failed, 1 cannot be built here (not UDP, or not
 * understood: the request needs ovc_reply_msg()). */
int ovc_reply_raw(const struct ovc_reply_cfg *cfg, const char *buf, int len,
		struct receive_info *rcv, const struct ovc_sip_scan *sc);

/* Sends the reject reply cfg for the parsed request msg: from its
 * raw bytes when sc (its scan) is given and that works, else through sl.
 * Returns 0 sent or -1. */
int ovc_reply_msg(const struct ovc_reply_cfg *cfg, struct sip_msg *msg,
		const struct ovc_sip_scan *sc);

#endif
