/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the request description: what ovc knows of one request, built
 * once per message wherever it meets the admission sequence (the datagram
 * at its arrival, the parsed message in the script, the queued copy at the
 * queue's output), and what the actor (ovc_actor.h) acts on.
 */
#ifndef OVC_REQUEST_H
#define OVC_REQUEST_H

#include "core/ip_addr.h"
#include "core/parser/msg_parser.h"

#include "ovc/admission.h"
#include "ovc/sipscan.h"

struct ovc_qitem;

/* One request. */
struct ovc_req
{
	struct ovc_adm_req r;	  /* as the admission sequence sees it (r.sc
								 NULL: the scanner does not understand it,
								 or it was not scanned) */
	struct ovc_sip_scan scan; /* r.sc's storage */
	struct receive_info *rcv; /* where it came from */
	struct sip_msg *msg;	  /* Kamailio's parse of it, NULL: none yet
								 (arrival, the queue's output) */
	struct ovc_qitem *item;	  /* its queued copy at the queue's output,
								 else NULL */
	int fd;					  /* the UDP socket it was read from, -1: not
								 UDP */
	int noreply;			  /* ovc_admit("noreply"): the script answers
								 the refusals itself */
};

/* The datagram buf (len bytes, received as rcv) at its arrival, into *q.
 * Returns the scanner's result (OVC_SCAN_OK, or a negative reason: then
 * only q->scan is set, and the datagram is not ovc's to judge here). */
int ovc_req_dgram(
		struct ovc_req *q, char *buf, int len, struct receive_info *rcv);

/* The parsed request msg, described once per message in this process
 * (a script that calls ovc_admit() and then ovc_dst_admit(), or tries
 * several destinations, scans it once): scanned whatever its transport,
 * its class and method from the scan, else from Kamailio's parse, its
 * fair-share key the script's (fair_key). The description stays valid
 * until the next message this process describes. */
struct ovc_req *ovc_req_msg(struct sip_msg *msg);

/* The queued copy it of an initial INVITE at the queue's output, into *q:
 * its bytes, source and the Request-URI noted when it was queued (not
 * scanned again). */
void ovc_req_item(struct ovc_req *q, struct ovc_qitem *it);

#endif
