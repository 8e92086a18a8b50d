/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the send queue towards a next hop reached over TCP (or TLS, WS,
 * WSS): what 002's smart forwarding looks at (ovc_dst_admit()). Kamailio's
 * connections belong to its TCP processes, not to the SIP worker that
 * asks: the connection is found in Kamailio's shared table by destination
 * (tcpconn_get), and the kernel's queue of its socket read by four-tuple
 * (ovc_tcpdiag.h).
 */
#ifndef OVC_SENDQ_H
#define OVC_SENDQ_H

#include <stdint.h>

#include "core/ip_addr.h"

/* Is proto a stream transport whose send queue ovc can read? */
int ovc_sendq_proto(int proto);

/* Bytes waiting to be sent to ip:port on Kamailio's connection to it:
 * those of its socket's send queue not sent yet, held back by the peer's
 * window (SIOCOUTQNSD's figure; SIOCOUTQ's, sent and not yet
 * acknowledged too, on kernels before 4.6) plus what Kamailio's own
 * asynchronous write queue holds for it. -1 when Kamailio has no
 * connection to it (the next request opens one) or its queue cannot be
 * read. Any process; one lock of Kamailio's connection table and two
 * system calls. */
int64_t ovc_sendq_bytes(const struct ip_addr *ip, unsigned port);

#endif
