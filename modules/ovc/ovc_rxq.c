/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the kernel's receive queue of Kamailio's listening sockets: its
 * sampling (the sockets' sizes are set in ovc_rxq_size.c).
 *
 * Sampling costs a few system calls per epoch whatever the host runs:
 *  UDP: getsockopt(SO_MEMINFO) on each socket of udp_listen (queued bytes
 *       of kernel memory, the buffer limit, the socket's drop counter);
 *  TCP: one netlink sock_diag dump per address family, filtered in the
 *       kernel by the listeners' ports (bytecode INET_DIAG_BC_S_EQ), giving
 *       the accept backlog of each listener and the unread bytes of each
 *       connection;
 *  /proc/net/{udp,udp6,tcp,tcp6} only when those fail, at most once per
 *       second, read in chunks and parsed by libovc's ovc_rxq_scan().
 * The drain is the number of datagrams Kamailio reads (counted by the
 * SREV_NET_DGRAM_IN hook), else the requests ovc_admit() sees.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/sockios.h>

#include "core/dprint.h"
#include "core/socket_info.h"

#include "ovc_rxq.h"
#include "ovc_sampler.h"
#include "ovc_shm.h"

int ovc_rxq_hooked;

/* listener ports watched (a sock_diag bytecode jump is one byte: at most
 * 31 tests of 8 bytes) */
#define OVC_RXQ_PORTS 24

static struct ovc_rxq_est est;		/* ticker only */
static double est_tau_ms = -1;		/* tau est was set up with */
static ovc_time_ns last_t;			/* time of the last sample */
static uint64_t last_drained;		/* drain counter at the last sample */
static ovc_time_ns last_proc_tcp;	/* last /proc fallback read, TCP */
static ovc_time_ns last_proc_udp;	/* last /proc fallback read, UDP */
static int diag_fd = -1;			/* netlink sock_diag socket */
static int diag_broken;				/* netlink refused: /proc only */

int64_t ovc_rxq_stamp_age_ns(int fd)
{
	struct timespec ts, now;
	int64_t age;

	if(fd < 0 || ioctl(fd, SIOCGSTAMPNS, &ts) != 0)
		return -1;
	if(ts.tv_sec == 0 && ts.tv_nsec == 0)
		return -1;
	clock_gettime(CLOCK_REALTIME, &now);
	age = (int64_t)(now.tv_sec - ts.tv_sec) * OVC_NS_PER_S
		  + (now.tv_nsec - ts.tv_nsec);
	return age >= 0 ? age : -1;
}

void ovc_rxq_count_dgram(void)
{
	atomic_fetch_add_explicit(&ovc->rx_dgrams, 1, memory_order_relaxed);
}

/* Scans a /proc/net file in 64 KiB chunks (any size) into *sum. Returns 0,
 * or -1 when it cannot be opened. */
static int proc_scan(const char *path, const struct ovc_rxq_filter *f,
		int tcp, struct ovc_rxq_sum *sum)
{
	static char buf[65536];
	size_t have = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if(fd < 0)
		return -1;
	for(;;) {
		char *nl;
		size_t done;

		n = read(fd, buf + have, sizeof(buf) - have);
		if(n <= 0)
			break;
		have += (size_t)n;
		for(nl = buf + have - 1; nl >= buf && *nl != '\n'; nl--)
			;
		if(nl < buf) {
			if(have == sizeof(buf))
				have = 0; /* a line longer than the buffer: skip it */
			continue;
		}
		done = (size_t)(nl - buf) + 1;
		ovc_rxq_scan(buf, done, f, tcp, sum);
		memmove(buf, buf + done, have - done);
		have -= done;
	}
	if(have > 0)
		ovc_rxq_scan(buf, have, f, tcp, sum);
	close(fd);
	return 0;
}

/* Ports of the TCP listeners (up to OVC_RXQ_PORTS). */
static size_t tcp_ports(uint16_t *ports)
{
	struct socket_info *si;
	size_t n = 0, i;

	for(si = tcp_listen; si && n < OVC_RXQ_PORTS; si = si->next) {
		for(i = 0; i < n && ports[i] != si->port_no; i++)
			;
		if(i == n)
			ports[n++] = si->port_no;
	}
	return n;
}

/* One sock_diag dump of family fam for TCP sockets whose local port is
 * one of ports; adds unread bytes and accept backlogs. Returns 0 or -1. */
static int diag_dump(int fam, const uint16_t *ports, size_t nports,
		uint64_t *bytes, uint64_t *backlog)
{
	struct
	{
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 req;
		struct nlattr nla;
		struct inet_diag_bc_op bc[2 * OVC_RXQ_PORTS];
	} __attribute__((packed)) msg;
	static char rbuf[32768];
	struct sockaddr_nl sa;
	size_t i, bclen = nports * 2 * sizeof(struct inet_diag_bc_op);
	int rounds;

	memset(&msg, 0, sizeof(msg));
	/* ports[i] at op 2i: equal -> jump to the end (accept), else to the
	 * next test; the last test jumps past the end (reject) */
	for(i = 0; i < nports; i++) {
		size_t at = i * 2 * sizeof(struct inet_diag_bc_op);

		msg.bc[2 * i].code = INET_DIAG_BC_S_EQ;
		msg.bc[2 * i].yes = (unsigned char)(bclen - at);
		msg.bc[2 * i].no = (unsigned short)(i + 1 < nports
														 ? 2 * sizeof(msg.bc[0])
														 : bclen - at + 4);
		msg.bc[2 * i + 1].no = ports[i];
	}
	msg.nla.nla_type = INET_DIAG_REQ_BYTECODE;
	msg.nla.nla_len = (unsigned short)(NLA_HDRLEN + bclen);
	msg.req.sdiag_family = (unsigned char)fam;
	msg.req.sdiag_protocol = IPPROTO_TCP;
	msg.req.idiag_states = ~0U & ~(1U << 6); /* all but TIME_WAIT */
	msg.nlh.nlmsg_len = (unsigned)(sizeof(msg.nlh) + sizeof(msg.req)
								   + NLA_HDRLEN + bclen);
	msg.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	msg.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	if(sendto(diag_fd, &msg, msg.nlh.nlmsg_len, 0, (struct sockaddr *)&sa,
			   sizeof(sa))
			< 0)
		return -1;
	for(rounds = 0; rounds < 10000; rounds++) {
		ssize_t n = recv(diag_fd, rbuf, sizeof(rbuf), 0);
		struct nlmsghdr *h;

		if(n <= 0)
			return -1;
		for(h = (struct nlmsghdr *)rbuf; NLMSG_OK(h, (size_t)n);
				h = NLMSG_NEXT(h, n)) {
			struct inet_diag_msg *d;

			if(h->nlmsg_type == NLMSG_DONE)
				return 0;
			if(h->nlmsg_type == NLMSG_ERROR)
				return -1;
			if(h->nlmsg_len < NLMSG_LENGTH(sizeof(*d)))
				continue;
			d = NLMSG_DATA(h);
			if(d->idiag_state == OVC_RXQ_TCP_LISTEN)
				*backlog += d->idiag_rqueue;
			else
				*bytes += d->idiag_rqueue;
		}
	}
	return -1;
}

/* TCP listeners' queues by netlink. Returns 0 or -1. */
static int tcp_diag(const uint16_t *ports, size_t n, uint64_t *bytes,
		uint64_t *backlog)
{
	struct timeval tv = {0, 200000};

	if(diag_broken)
		return -1;
	if(diag_fd < 0) {
		diag_fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
				NETLINK_SOCK_DIAG);
		if(diag_fd < 0) {
			diag_broken = 1;
			return -1;
		}
		setsockopt(diag_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	}
	if(diag_dump(AF_INET, ports, n, bytes, backlog) != 0
			|| diag_dump(AF_INET6, ports, n, bytes, backlog) != 0) {
		LM_WARN("sock_diag failed (%s): TCP queues from /proc, once per"
				" second\n",
				strerror(errno));
		close(diag_fd);
		diag_fd = -1;
		diag_broken = 1;
		return -1;
	}
	return 0;
}

/* TCP: sets the shared TCP figures (netlink, else /proc once per s). */
static void sample_tcp(ovc_time_ns now)
{
	uint16_t ports[OVC_RXQ_PORTS];
	uint64_t bytes = 0, backlog = 0;
	struct ovc_rxq_filter f;
	struct ovc_rxq_sum sum;
	size_t n = tcp_ports(ports);
	int ok;

	if(n == 0)
		return;
	if(tcp_diag(ports, n, &bytes, &backlog) != 0) {
		if(now - last_proc_tcp < OVC_NS_PER_S)
			return; /* keep the last figures */
		last_proc_tcp = now;
		memset(&f, 0, sizeof(f));
		f.ports = ports;
		f.nports = n;
		memset(&sum, 0, sizeof(sum));
		ok = proc_scan("/proc/net/tcp", &f, 1, &sum) == 0;
		ok |= proc_scan("/proc/net/tcp6", &f, 1, &sum) == 0;
		if(!ok)
			return;
		atomic_fetch_add(&ovc->rxq_proc_reads, 1);
		bytes = sum.rx_bytes;
		backlog = sum.backlog;
	}
	atomic_store(&ovc->rxq_tcp_bytes, bytes);
	atomic_store(&ovc->rxq_tcp_backlog, backlog);
}

/* UDP from /proc (SO_MEMINFO unavailable), at most once per second.
 * Returns 0 and sets *bytes, *drops, or -1. */
static int udp_proc(ovc_time_ns now, uint64_t *bytes, uint64_t *drops)
{
	uint16_t ports[OVC_RXQ_PORTS];
	struct socket_info *si;
	struct ovc_rxq_filter f;
	struct ovc_rxq_sum sum;
	size_t n = 0;

	if(now - last_proc_udp < OVC_NS_PER_S)
		return -1;
	last_proc_udp = now;
	for(si = udp_listen; si && n < OVC_RXQ_PORTS; si = si->next)
		ports[n++] = si->port_no;
	if(n == 0)
		return -1;
	memset(&f, 0, sizeof(f));
	f.ports = ports;
	f.nports = n;
	memset(&sum, 0, sizeof(sum));
	proc_scan("/proc/net/udp", &f, 0, &sum);
	proc_scan("/proc/net/udp6", &f, 0, &sum);
	atomic_fetch_add(&ovc->rxq_proc_reads, 1);
	if(sum.matched == 0)
		return -1;
	*bytes = sum.rx_bytes;
	*drops = sum.drops;
	return 0;
}

/* Datagrams (or, without the hook, requests) taken off the queues so
 * far. */
static uint64_t drained_total(void)
{
	uint64_t s = 0;
	int c;

	if(ovc_rxq_hooked)
		return atomic_load_explicit(&ovc->rx_dgrams, memory_order_relaxed);
	for(c = 0; c < OVC_CLASS_COUNT; c++)
		s += atomic_load_explicit(
				&ovc->total.v[c][OVC_V_OFFERED], memory_order_relaxed);
	return s;
}

void ovc_rxq_sample(ovc_time_ns now, const struct ovc_rxq_params *p)
{
	uint64_t bytes, limit, drops, drained;
	double dt;

	if(est_tau_ms != p->tau_ms) {
		ovc_rxq_est_init(&est, p->tau_ms / 1000.0);
		est_tau_ms = p->tau_ms;
	}
	if(ovc_sampler_rxq(&bytes, &limit, &drops) == 0) {
		atomic_store(&ovc->rxq_bytes, bytes);
		atomic_store(&ovc->rxq_limit, limit);
		atomic_store(&ovc->rxq_drops, drops);
	} else if(udp_proc(now, &bytes, &drops) == 0) {
		atomic_store(&ovc->rxq_bytes, bytes);
		atomic_store(&ovc->rxq_drops, drops);
	}
	if(tcp_listen != NULL)
		sample_tcp(now);
	drained = drained_total();
	dt = last_t > 0 ? (double)(now - last_t) / 1e9 : 0;
	if(dt > 0 && drained >= last_drained
			&& ovc_rxq_est_step(&est,
					   (double)atomic_load(&ovc->rxq_bytes)
							   / OVC_RXQ_MSG_BYTES,
					   (double)(drained - last_drained), dt)
					   == OVC_OK) {
		ovc_dstore(&ovc->rxq_wait_ms, ovc_rxq_est_wait_s(&est) * 1000.0);
		ovc_dstore(&ovc->rxq_drain, ovc_rxq_est_rate(&est));
	}
	last_t = now;
	last_drained = drained;
}
