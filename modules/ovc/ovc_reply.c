/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the replier (see ovc_reply.h).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "core/data_lump_rpl.h"
#include "core/dprint.h"
#include "core/forward.h"
#include "core/globals.h"
#include "core/trim.h"
#include "modules/sl/sl.h"

#include "ovc_modparams.h"
#include "ovc_reply.h"

struct ovc_reply_cfg ovc_reply;

static sl_api_t slb;

/* secret of ovc's To-tags; drawn in mod_init, so every process (forked
 * later) shares it and recognises ACKs to replies sent by any process */
static uint64_t tag_secret;

/* The Server header value of the core's own replies (core parameters
 * server_header, server_signature), or NULL for none; per process, the
 * first time it is asked. */
static const char *server_value(void)
{
	static char value[128];
	static int done;
	str h;

	if(done)
		return value[0] ? value : NULL;
	done = 1;
	if(!server_signature || server_hdr.s == NULL || server_hdr.len <= 0)
		return NULL;
	h = server_hdr;
	if(h.len >= 7 && strncasecmp(h.s, "Server:", 7) == 0) {
		h.s += 7;
		h.len -= 7;
	}
	trim(&h);
	if(h.len <= 0)
		return NULL;
	if(h.len >= (int)sizeof(value))
		h.len = (int)sizeof(value) - 1;
	memcpy(value, h.s, h.len);
	value[h.len] = '\0';
	return value;
}

/* modparam reject_reason: 1..128 characters, no CR/LF (it goes into a
 * status line) */
int ovc_mp_check_reject_reason(const char *name, void *val, void *field)
{
	char *s = (char *)val;
	size_t i, n = strlen(s);

	if(n == 0 || n > 128) {
		LM_ERR("modparam \"%s\": length must be 1..128\n", name);
		return -1;
	}
	for(i = 0; i < n; i++) {
		if(s[i] == '\r' || s[i] == '\n') {
			LM_ERR("modparam \"%s\": no CR/LF allowed\n", name);
			return -1;
		}
	}
	*(const char **)field = s;
	return 0;
}

int ovc_reply_init(void)
{
	int fd;

	ovc_reply.code = ovc_mp.reject_code;
	ovc_reply.reason.s = (char *)ovc_mp.reject_reason;
	ovc_reply.reason.len = (int)strlen(ovc_mp.reject_reason);
	ovc_reply.retry_after = ovc_mp.retry_after;

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

uint64_t ovc_reply_secret(void)
{
	return tag_secret;
}

int ovc_reply_raw(const struct ovc_reply_cfg *cfg, const char *buf, int len,
		struct receive_info *rcv, const struct ovc_sip_scan *sc)
{
	static char out[BUF_SIZE];
	struct ovc_sip_scan scan;
	struct ovc_reply_params rp;
	struct dest_info dst;
	char *ip;
	int n;

	if(rcv->proto != PROTO_UDP)
		return 1;
	if(sc == NULL) {
		if(ovc_sip_scan(buf, (size_t)len, &scan) != OVC_SCAN_OK)
			return 1;
		sc = &scan;
	}
	ip = ip_addr2a(&rcv->src_ip);
	if(ip == NULL)
		return 1;
	memset(&rp, 0, sizeof(rp));
	rp.code = cfg->code;
	rp.reason = cfg->reason.s;
	rp.reason_len = cfg->reason.len;
	rp.retry_after = cfg->retry_after;
	rp.src_ip = ip;
	rp.src_port = rcv->src_port;
	rp.server = server_value();
	rp.secret = tag_secret;
	n = ovc_sip_build_reply(buf, sc, &rp, out, sizeof(out));
	if(n <= 0)
		return 1;
	init_dst_from_rcv(&dst, rcv);
	su_setport(&dst.to, ovc_sip_reply_port(sc, rcv->src_port));
	/* through the core: SREV_NET_DATA_OUT and _SENT modules (topos,
	 * siptrace, sipdump) see it as any reply Kamailio sends */
	if(msg_send(&dst, out, n) < 0)
		return -1;
	return 0;
}

int ovc_reply_msg(const struct ovc_reply_cfg *cfg, struct sip_msg *msg,
		const struct ovc_sip_scan *sc)
{
	char hdr[64];
	int len, rc;

	if(sc != NULL) {
		rc = ovc_reply_raw(cfg, msg->buf, (int)msg->len, &msg->rcv, sc);
		if(rc <= 0)
			return rc;
	}
	if(cfg->retry_after > 0) {
		len = snprintf(hdr, sizeof(hdr), "Retry-After: %d\r\n",
				cfg->retry_after);
		if(add_lump_rpl(msg, hdr, len, LUMP_RPL_HDR) == NULL) {
			LM_ERR("cannot add Retry-After to the reply\n");
			return -1;
		}
	}
	if(slb.sreply(msg, cfg->code, (str *)&cfg->reason) < 0)
		return -1;
	return 0;
}
