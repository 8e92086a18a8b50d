/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the kernel's receive queue of Kamailio's own listening sockets
 * (issue 9): sampling (UDP: getsockopt SO_MEMINFO on the sockets Kamailio
 * opened; TCP: netlink sock_diag filtered by the listeners' ports; /proc as
 * a fallback at most once per second), the wait estimate, the SO_RCVBUF
 * bound and the per-datagram age from kernel receive timestamps (sampling:
 * ovc_rxq.c; socket sizes: ovc_rxq_size.h; its lifecycle: ovc_rxq_part.c).
 */
#ifndef OVC_RXQ_MOD_H
#define OVC_RXQ_MOD_H

#include <stdint.h>

#include "ovc/rxq.h"
#include "ovc/types.h"

/* Largest accepted rcvbuf_udp / rcvbuf_tcp, messages. */
#define OVC_RCVBUF_MAX 100000

/* Ticker process: reads the queues now (time now, ns) and updates the
 * shared figures (bytes, drops, the TCP listeners' accept backlog, the
 * wait estimate with parameters p); the TCP connections' unread bytes
 * only while connections wait for accept (at most every 100 ms, within
 * the budget of ovc_rxq_sample_conns()). */
void ovc_rxq_sample(ovc_time_ns now, const struct ovc_rxq_params *p);

/* Ticker process, at each second's end (time now, ns): the unread bytes
 * of the TCP connections to the listeners' ports (one sock_diag dump per
 * family of the listeners, whose kernel cost grows with the host's TCP
 * connections), unless the last read's CPU time says it is too early
 * (the reads take at most 0.5 % of a core). Does nothing without a TCP
 * listener or when netlink is refused (/proc then gives both TCP figures
 * at the sample, once per second). */
void ovc_rxq_sample_conns(ovc_time_ns now);

/* Any process: how long the datagram this process just read from UDP
 * socket fd waited in the kernel, ns, from the socket's receive timestamp
 * (SIOCGSTAMPNS right after Kamailio's recvfrom); -1 when unknown (no
 * timestamp yet, not UDP). */
int64_t ovc_rxq_stamp_age_ns(int fd);

/* Any process: how long the datagram this process just read from UDP
 * socket fd waited in the kernel's receive queue, ns: its receive
 * timestamp (ovc_rxq_stamp_age_ns()), else the queue's estimated wait
 * (bytes / drain rate); -1 when fd < 0 (not UDP). Counts which of the two
 * it was (ovc.stats rxq age_by_timestamp, age_by_estimate). Lock-free. */
int64_t ovc_rxq_age_ns(int fd);

/* The UDP listeners' receive queues at the last sample, bytes. Lock-free;
 * any process. */
uint64_t ovc_rxq_bytes(void);

/* Their receive buffer limits at the last sample, bytes (0: not read).
 * Lock-free; any process. */
uint64_t ovc_rxq_limit(void);

/* The estimated receive-queue wait at the last sample, ms. Lock-free; any
 * process. */
double ovc_rxq_wait_ms(void);

/* Ticker: the receive-queue sampling period in force, ms (ovc.stats rxq
 * sample_ms). */
void ovc_rxq_set_sample_ms(unsigned ms);

/* Counts one datagram taken off a UDP socket (the drain of the queue);
 * called for every datagram by the SREV_NET_DGRAM_IN hook. Lock-free. */
void ovc_rxq_count_dgram(void);

/* 1: ovc's SREV_NET_DGRAM_IN hook counts the datagrams; 0: the drain is
 * estimated from the requests ovc_admit() sees. */
extern int ovc_rxq_hooked;

#endif
