/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the receive buffers of Kamailio's listening sockets
 * (ovc_rxq_size.c): SO_RCVBUF as the modparams ask, and for rcvbuf_udp
 * auto sized for the age limit in force (see ovc_rxq.h).
 */
#ifndef OVC_RXQ_SIZE_H
#define OVC_RXQ_SIZE_H

/* Main process, after Kamailio opened its sockets and before the fork
 * (child_init(PROC_INIT)): sets SO_RCVBUF on the listening sockets as the
 * modparams ask, records the effective sizes, and turns on kernel receive
 * timestamps on the UDP sockets (for rxq.max_age_ms). Returns 0, or -1
 * when a size cannot be set (logged). */
int ovc_rxq_apply(void);

/* rcvbuf_udp "auto" (-1): sizes the UDP listeners' receive buffers for the
 * age limit in force, max_age_ms (ovc/derive.h: no kernel drop during the
 * quota's stall plus the age limit; 0, no age limit: Kamailio's own size).
 * Does nothing when rcvbuf_udp was given or the size is already for
 * max_age_ms. Logs each size set. Returns 0 or -1 (a size not set). */
int ovc_rxq_size_udp(unsigned max_age_ms);

#endif
