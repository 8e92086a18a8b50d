/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the kernel's receive queue of Kamailio's listening sockets: its
 * sampling (the sockets' sizes are set in ovc_rxq_size.c).
 *
 * Sampling costs a few system calls per epoch whatever the host runs:
 *  UDP: getsockopt(SO_MEMINFO) on each socket of udp_listen (queued bytes
 *       of kernel memory, the buffer limit, the socket's drop counter);
 *  TCP: netlink sock_diag dumps (one per address family) filtered in the
 *       kernel by the listeners' ports (bytecode INET_DIAG_BC_S_EQ): of the
 *       listening sockets alone at each sample (their accept backlog; the
 *       kernel walks its listening hash, not the connections), and of the
 *       connections (their unread bytes; the kernel walks every TCP
 *       connection of the host) at each second's end, or every 100 ms
 *       while connections wait for accept, within a budget of 0.5 % of a
 *       core (OVC_RXQ_CONNS_SHARE): thousands of idle connections cost
 *       no more than that, and their figure is then older than a second;
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
#include "ovc_rxq_state.h"
#include "ovc_sampler.h"
#include "ovc_sampler_mem.h"
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

int64_t ovc_rxq_age_ns(int fd)
{
	int64_t age;

	if(fd < 0)
		return -1;
	age = ovc_rxq_stamp_age_ns(fd);
	if(age >= 0) {
		atomic_fetch_add_explicit(
				&ovc_rxq_st->age_stamped, 1, memory_order_relaxed);
	} else {
		age = (int64_t)(ovc_dload(&ovc_rxq_st->wait_ms) * 1e6);
		atomic_fetch_add_explicit(
				&ovc_rxq_st->age_estimated, 1, memory_order_relaxed);
	}
	return age;
}

uint64_t ovc_rxq_bytes(void)
{
	return atomic_load_explicit(&ovc_rxq_st->bytes, memory_order_relaxed);
}

uint64_t ovc_rxq_limit(void)
{
	return atomic_load_explicit(&ovc_rxq_st->limit, memory_order_relaxed);
}

double ovc_rxq_wait_ms(void)
{
	return ovc_dload(&ovc_rxq_st->wait_ms);
}

void ovc_rxq_count_dgram(void)
{
	atomic_fetch_add_explicit(&ovc_rxq_st->dgrams, 1, memory_order_relaxed);
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

/* sock_diag state masks (1 << TCP state) */
#define OVC_ST_LISTEN (1U << OVC_RXQ_TCP_LISTEN)
#define OVC_ST_TIME_WAIT (1U << 6)
/* every connection that can hold unread bytes: all but the listeners
 * and TIME_WAIT */
#define OVC_ST_CONNS (~0U & ~(OVC_ST_LISTEN | OVC_ST_TIME_WAIT))

/* While connections wait for accept, the connections' unread bytes are
 * read at most this often, ns (else at each second's end). */
#define OVC_RXQ_CONNS_BUSY_NS (100 * OVC_NS_PER_MS)
/* The reads of the connections take at most 1/OVC_RXQ_CONNS_SHARE of a
 * core (0.5 %): after a read that took d of the ticker's CPU, the next
 * comes d * OVC_RXQ_CONNS_SHARE later at the earliest. A read walks the
 * host's connection hash and every TCP socket in it: on the 2-core test
 * machine about 3 ms with none, 30-35 ms with 10 000 loopback connections
 * (one read every 6-7 s; bench/RESULTS.md, "SIP over TCP"). */
#define OVC_RXQ_CONNS_SHARE 200

static ovc_time_ns last_conns; /* last read of the connections */
static ovc_time_ns next_conns; /* the next one no earlier than this */

/* What a dump does with each socket it reports (d: its message). */
typedef void (*diag_each_f)(const struct inet_diag_msg *d, void *arg);

/* One sock_diag dump of family fam for TCP sockets in states (a mask of
 * 1 << state) whose local port is one of ports (kernel bytecode
 * INET_DIAG_BC_S_EQ); each(d, arg) for every socket reported. The kernel
 * walks its listening hash when states has LISTEN, its connection hash
 * (every TCP connection of the host) when states has any other. Returns 0
 * or -1. */
static int diag_dump(int fam, uint32_t states, const uint16_t *ports,
		size_t nports, diag_each_f each, void *arg)
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
	msg.req.idiag_states = states;
	/* one port: the kernel compares it before running the bytecode */
	if(nports == 1)
		msg.req.id.idiag_sport = htons(ports[0]);
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
			if(h->nlmsg_type == NLMSG_DONE)
				return 0;
			if(h->nlmsg_type == NLMSG_ERROR)
				return -1;
			if(h->nlmsg_len < NLMSG_LENGTH(sizeof(struct inet_diag_msg)))
				continue;
			each(NLMSG_DATA(h), arg);
		}
	}
	return -1;
}

/* The netlink socket, opened on first use. Returns 0, or -1 when netlink
 * is refused (then never again: /proc). */
static int diag_open(void)
{
	struct timeval tv = {0, 200000};

	if(diag_broken)
		return -1;
	if(diag_fd >= 0)
		return 0;
	diag_fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if(diag_fd < 0) {
		diag_broken = 1;
		return -1;
	}
	setsockopt(diag_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return 0;
}

/* A dump failed: netlink is given up, /proc from now on. */
static void diag_failed(void)
{
	LM_WARN("sock_diag failed (%s): TCP queues from /proc, once per"
			" second\n",
			strerror(errno));
	close(diag_fd);
	diag_fd = -1;
	diag_broken = 1;
}

/* The families of the TCP listeners: bit 0 IPv4, bit 1 IPv6 (a dump of
 * either walks the whole hash: only those with a listener are asked). */
static unsigned tcp_families(void)
{
	struct socket_info *si;
	unsigned fams = 0;

	for(si = tcp_listen; si; si = si->next)
		fams |= si->address.af == AF_INET6 ? 2u : 1u;
	return fams;
}

/* One dump per family of the listeners. Returns 0 or -1. */
static int diag_dump_all(uint32_t states, const uint16_t *ports,
		size_t nports, diag_each_f each, void *arg)
{
	unsigned fams = tcp_families();

	if(diag_open() != 0)
		return -1;
	if(((fams & 1u)
			   && diag_dump(AF_INET, states, ports, nports, each, arg) != 0)
			|| ((fams & 2u)
					&& diag_dump(AF_INET6, states, ports, nports, each, arg)
							   != 0)) {
		diag_failed();
		return -1;
	}
	return 0;
}

/* A listener's accept backlog (its idiag_rqueue), added to *(uint64_t *)
 * arg. */
static void add_backlog(const struct inet_diag_msg *d, void *arg)
{
	if(d->idiag_state == OVC_RXQ_TCP_LISTEN)
		*(uint64_t *)arg += d->idiag_rqueue;
}

/* A connection's unread bytes (its idiag_rqueue), added to *(uint64_t *)
 * arg. */
static void add_unread(const struct inet_diag_msg *d, void *arg)
{
	if(d->idiag_state != OVC_RXQ_TCP_LISTEN)
		*(uint64_t *)arg += d->idiag_rqueue;
}

/* Connections waiting for accept on the TCP listeners into *backlog: a
 * dump of the listening sockets alone (the kernel does not walk the
 * connections: a cost independent of how many there are). Returns 0 or
 * -1. */
static int tcp_listen_backlog(
		const uint16_t *ports, size_t n, uint64_t *backlog)
{
	*backlog = 0;
	return diag_dump_all(OVC_ST_LISTEN, ports, n, add_backlog, backlog);
}

/* Unread bytes of the connections to the TCP listeners' ports (those
 * waiting for accept included) into *bytes: a dump of the connections
 * (the kernel walks every TCP connection of the host and reports
 * Kamailio's). Returns 0 or -1. */
static int tcp_conn_unread(const uint16_t *ports, size_t n, uint64_t *bytes)
{
	*bytes = 0;
	return diag_dump_all(OVC_ST_CONNS, ports, n, add_unread, bytes);
}

/* TCP from /proc (netlink refused), both figures, at most once per
 * second. */
static void tcp_proc(ovc_time_ns now, const uint16_t *ports, size_t n)
{
	struct ovc_rxq_filter f;
	struct ovc_rxq_sum sum;
	int ok;

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
	atomic_fetch_add(&ovc_rxq_st->proc_reads, 1);
	atomic_store(&ovc_rxq_st->tcp_bytes, sum.rx_bytes);
	atomic_store(&ovc_rxq_st->tcp_backlog, sum.backlog);
}

/* This thread's CPU time, ns. */
static int64_t cpu_ns(void)
{
	struct timespec ts;

	if(clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (int64_t)ts.tv_sec * OVC_NS_PER_S + ts.tv_nsec;
}

void ovc_rxq_sample_conns(ovc_time_ns now)
{
	uint16_t ports[OVC_RXQ_PORTS];
	uint64_t bytes;
	int64_t c0, used;
	size_t n;

	if(tcp_listen == NULL || diag_broken || now < next_conns)
		return; /* /proc: both figures at the sample */
	n = tcp_ports(ports);
	if(n == 0)
		return;
	c0 = cpu_ns();
	if(tcp_conn_unread(ports, n, &bytes) != 0)
		return;
	used = cpu_ns() - c0;
	atomic_store(&ovc_rxq_st->tcp_bytes, bytes);
	last_conns = now;
	next_conns = now + (used > 0 ? used * OVC_RXQ_CONNS_SHARE : 0);
}

/* TCP at each sample: the listeners' accept backlog; while connections
 * wait for accept, the connections' unread bytes too (at most every
 * OVC_RXQ_CONNS_BUSY_NS; else ovc_rxq_sample_conns() at each second's
 * end). /proc when netlink fails. */
static void sample_tcp(ovc_time_ns now)
{
	uint16_t ports[OVC_RXQ_PORTS];
	uint64_t backlog;
	size_t n = tcp_ports(ports);

	if(n == 0)
		return;
	if(tcp_listen_backlog(ports, n, &backlog) != 0) {
		tcp_proc(now, ports, n);
		return;
	}
	atomic_store(&ovc_rxq_st->tcp_backlog, backlog);
	if(backlog > 0 && now - last_conns >= OVC_RXQ_CONNS_BUSY_NS)
		ovc_rxq_sample_conns(now);
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
	atomic_fetch_add(&ovc_rxq_st->proc_reads, 1);
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
		return atomic_load_explicit(&ovc_rxq_st->dgrams, memory_order_relaxed);
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
		atomic_store(&ovc_rxq_st->bytes, bytes);
		atomic_store(&ovc_rxq_st->limit, limit);
		atomic_store(&ovc_rxq_st->drops, drops);
	} else if(udp_proc(now, &bytes, &drops) == 0) {
		atomic_store(&ovc_rxq_st->bytes, bytes);
		atomic_store(&ovc_rxq_st->drops, drops);
	}
	if(tcp_listen != NULL)
		sample_tcp(now);
	drained = drained_total();
	dt = last_t > 0 ? (double)(now - last_t) / 1e9 : 0;
	if(dt > 0 && drained >= last_drained
			&& ovc_rxq_est_step(&est,
					   (double)atomic_load(&ovc_rxq_st->bytes)
							   / OVC_RXQ_MSG_BYTES,
					   (double)(drained - last_drained), dt)
					   == OVC_OK) {
		ovc_dstore(&ovc_rxq_st->wait_ms, ovc_rxq_est_wait_s(&est) * 1000.0);
		ovc_dstore(&ovc_rxq_st->drain, ovc_rxq_est_rate(&est));
	}
	last_t = now;
	last_drained = drained;
}
