/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the kernel's send queue of one TCP connection, looked up by its
 * four-tuple with netlink sock_diag (an exact lookup, not a dump: one
 * hash lookup in the kernel whatever the host runs), from any process,
 * whichever process owns the socket. No Kamailio header: the microbench
 * links it alone.
 */
#ifndef OVC_TCPDIAG_H
#define OVC_TCPDIAG_H

#include <stdint.h>

/* One TCP connection seen from this host: addresses in network order
 * (IPv4 in the first 4 bytes), ports in host order. */
struct ovc_tcp_tuple
{
	int af;			   /* AF_INET or AF_INET6 */
	uint8_t laddr[16]; /* local address */
	uint8_t raddr[16]; /* remote address */
	uint16_t lport;	   /* local port */
	uint16_t rport;	   /* remote port */
};

/* What waits in a connection's send queue, bytes. */
struct ovc_tcp_sendq
{
	/* written by the application, not yet acknowledged by the peer
	 * (inet_diag idiag_wqueue; what ioctl(SIOCOUTQ) gives the owner) */
	int64_t unacked;
	/* of those, not sent yet: held back by the peer's window or the
	 * congestion window (tcp_info tcpi_notsent_bytes; SIOCOUTQNSD); -1
	 * when the kernel does not say (before Linux 4.6) */
	int64_t notsent;
};

/* The send queue of connection t into *q. Returns 0, or -1 when there is
 * no such socket or it cannot be read. Any process: opens one netlink
 * socket per process on first use (again after a fork) and keeps it; two
 * system calls, no blocking. */
int ovc_tcpdiag_sendq(const struct ovc_tcp_tuple *t, struct ovc_tcp_sendq *q);

/* Closes this process's netlink socket (none open: nothing). */
void ovc_tcpdiag_close(void);

#endif
