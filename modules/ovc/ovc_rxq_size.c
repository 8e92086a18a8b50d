/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the receive buffers of Kamailio's listening sockets (see
 * ovc_rxq.h): SO_RCVBUF as the modparams rcvbuf_udp/rcvbuf_tcp ask, set
 * before the fork, and for rcvbuf_udp auto the UDP buffers sized for the
 * age limit in force; kernel receive timestamps turned on.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <linux/sockios.h>

#include "core/dprint.h"
#include "core/socket_info.h"

#include "ovc/derive.h"

#include "ovc_modparams.h"
#include "ovc_onset.h"
#include "ovc_rxq.h"
#include "ovc_rxq_state.h"
#include "ovc_rxq_size.h"
#include "ovc_sampler.h"
#include "ovc_shm.h"

/* TCP_MAXSEG on TCP listener fd whose buffer is rcvbuf bytes, as mss_tcp
 * asks (inherited by accepted connections, and announced in the SYN-ACK:
 * the peer's segments are at most that). Returns the MSS set, 0 when
 * none, -1 on failure (logged). */
static int set_tcp_mss(
		int fd, uint64_t rcvbuf, const struct socket_info *si)
{
	int m = ovc_mp.mss_tcp;

	if(m < 0)
		m = ovc_mp.rcvbuf_tcp > 0 ? (int)ovc_rxq_tcp_mss(rcvbuf) : 0;
	if(m == 0)
		return 0;
	if(m < 88)
		m = 88; /* TCP_MIN_MSS: the kernel refuses less */
	if(setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &m, sizeof(m)) != 0) {
		LM_ERR("mss_tcp: setsockopt(TCP_MAXSEG, %d) on %.*s failed: %s\n", m,
				si->name.len, si->name.s, strerror(errno));
		return -1;
	}
	LM_INFO("mss_tcp: TCP_MAXSEG of %.*s:%d is %d bytes (peers send"
			" segments a %lu-byte buffer's window always holds)\n",
			si->name.len, si->name.s, si->port_no, m, (unsigned long)rcvbuf);
	return m;
}

/* Sets SO_RCVBUF on fd for msgs messages; when the kernel capped it at
 * net.core.rmem_max and force is set, SO_RCVBUFFORCE (needs
 * CAP_NET_ADMIN, which Kamailio has while it starts as root). Returns the
 * effective size (bytes) read back, or 0 when it cannot be read. */
static uint64_t set_rcvbuf(int fd, unsigned msgs, const char *what,
		const struct socket_info *si, int force)
{
	int v, eff = 0;
	socklen_t len = sizeof(eff);
	const char *how = "";

	if(msgs > 0) {
		v = (int)ovc_rxq_rcvbuf_value(msgs, OVC_RXQ_MSG_BYTES);
		if(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)) != 0) {
			LM_ERR("%s: setsockopt(SO_RCVBUF, %d) on %.*s failed: %s\n",
					what, v, si->name.len, si->name.s, strerror(errno));
			return 0;
		}
		if(force && getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &eff, &len) == 0
				&& eff < 2 * v) {
			/* net.core.rmem_max is lower than what ovc derived */
			if(setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v))
					== 0)
				how = " (above net.core.rmem_max: SO_RCVBUFFORCE)";
			else
				how = " (capped by net.core.rmem_max: raise it, or start"
					  " Kamailio with CAP_NET_ADMIN)";
		}
	}
	len = sizeof(eff);
	if(getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &eff, &len) != 0 || eff < 0)
		return 0;
	if(msgs > 0)
		LM_INFO("%s=%u messages: SO_RCVBUF of %.*s:%d is %d bytes (the"
				" kernel doubled the %d asked; %d-byte messages)%s\n",
				what, msgs, si->name.len, si->name.s, si->port_no, eff,
				(int)ovc_rxq_rcvbuf_value(msgs, OVC_RXQ_MSG_BYTES),
				OVC_RXQ_MSG_BYTES, how);
	return (uint64_t)eff;
}

/* Sizes of the UDP listeners' buffers as Kamailio set them, messages, in
 * udp_listen order (set before the fork: every process has them). */
#define OVC_RXQ_SOCKS 64
static unsigned udp_orig[OVC_RXQ_SOCKS];
static unsigned udp_auto_age = (unsigned)-1; /* age the sizes are for */

/* Messages of the buffer fd has now. */
static unsigned rcvbuf_msgs_now(int fd)
{
	int cur = 0;
	socklen_t len = sizeof(cur);

	if(getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &cur, &len) != 0 || cur < 0)
		return 0;
	return (unsigned)cur / OVC_RXQ_MSG_BYTES;
}

int ovc_rxq_size_udp(unsigned max_age_ms)
{
	struct socket_info *si;
	unsigned i = 0, want;
	uint64_t sum = 0, eff;

	if(ovc_mp.rcvbuf_udp >= 0 || max_age_ms == udp_auto_age)
		return 0; /* set by the modparam at start, or already done */
	if(max_age_ms == 0 && udp_auto_age == (unsigned)-1) {
		/* no age limit yet (none): the buffers stay as Kamailio set
		 * them, untouched */
		udp_auto_age = 0;
		return 0;
	}
	udp_auto_age = max_age_ms;
	for(si = udp_listen; si; si = si->next, i++) {
		if(si->socket < 0)
			continue;
		want = i < OVC_RXQ_SOCKS ? udp_orig[i] : rcvbuf_msgs_now(si->socket);
		/* an age limit bounds the wait: a buffer that does not overflow
		 * during the quota's stalls; without one, Kamailio's own size (a
		 * large buffer alone only makes requests wait longer) */
		if(max_age_ms > 0)
			want = ovc_derive_rcvbuf_msgs(
					ovc_sampler_stall_ms(), max_age_ms, want);
		eff = set_rcvbuf(si->socket, want, "rcvbuf_udp (auto)", si, 1);
		if(eff == 0)
			return -1;
		sum += eff;
	}
	atomic_store(&ovc_rxq_st->rcvbuf_udp, sum);
	return 0;
}

int ovc_rxq_apply(void)
{
	struct socket_info *si;
	uint64_t udp = 0, tcp = 0, eff, mss = 0;
	struct timespec ts;
	int m;

	unsigned i = 0;

	for(si = udp_listen; si; si = si->next, i++) {
		if(si->socket < 0)
			continue;
		if(i < OVC_RXQ_SOCKS)
			udp_orig[i] = rcvbuf_msgs_now(si->socket);
		eff = set_rcvbuf(si->socket,
				ovc_mp.rcvbuf_udp > 0 ? (unsigned)ovc_mp.rcvbuf_udp : 0,
				"rcvbuf_udp", si, 0);
		if(eff == 0 && ovc_mp.rcvbuf_udp > 0)
			return -1;
		udp += eff;
		/* turns on the socket's receive timestamps: the first call answers
		 * ENOENT (no datagram yet), later ones the last datagram's */
		if(ioctl(si->socket, SIOCGSTAMPNS, &ts) != 0 && errno != ENOENT)
			LM_WARN("no kernel receive timestamps on %.*s: %s\n",
					si->name.len, si->name.s, strerror(errno));
	}
	for(si = tcp_listen; si; si = si->next) {
		if(si->socket < 0)
			continue;
		/* accepted connections inherit the listener's buffer */
		eff = set_rcvbuf(si->socket, (unsigned)ovc_mp.rcvbuf_tcp, "rcvbuf_tcp",
				si, 0);
		if(eff == 0 && ovc_mp.rcvbuf_tcp > 0)
			return -1;
		tcp += eff;
		m = set_tcp_mss(si->socket, eff, si);
		if(m < 0)
			return -1;
		if(m > 0)
			mss = (uint64_t)m;
	}
	atomic_store(&ovc_rxq_st->rcvbuf_udp, udp);
	atomic_store(&ovc_rxq_st->rcvbuf_tcp, tcp);
	atomic_store(&ovc_rxq_st->mss_tcp, mss);
	return ovc_rxq_size_udp(ovc_onset_max_age_ms(0));
}
