/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - a request's class and method, from Kamailio's parsed message or
 * from ovc's raw scan of it.
 */
#ifndef OVC_CLASSIFY_H
#define OVC_CLASSIFY_H

#include <stdint.h>

#include "core/ip_addr.h"
#include "core/parser/msg_parser.h"

#include "ovc/sipscan.h"
#include "ovc/types.h"

/* Classifies msg (a request): initial INVITE, in-dialog (has a To-tag),
 * REGISTER or other. A To header that does not parse counts as no tag. */
enum ovc_class ovc_classify(struct sip_msg *msg);

/* Class of a request the raw scanner understood. */
enum ovc_class ovc_class_of_scan(const struct ovc_sip_scan *sc);

/* The scanner's method of a parsed request. */
enum ovc_sip_method ovc_method_of_msg(struct sip_msg *msg);

/* The identity of the transport source rcv names (protocol, address,
 * port) as a 64-bit hash, never 0: the src of struct ovc_adm_req, so that
 * only the same transaction from the same source counts as a
 * retransmission. */
uint64_t ovc_source_id(const struct receive_info *rcv);

#endif
