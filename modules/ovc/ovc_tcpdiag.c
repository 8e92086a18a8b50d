/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - a TCP connection's send queue by netlink sock_diag (ovc_tcpdiag.h).
 * The request names the socket by its four-tuple with no cookie, without
 * NLM_F_DUMP, and asks for its tcp_info: the kernel answers from inside
 * sendto() with one inet_diag_msg and its attributes (or an error), so
 * the reply is read without waiting.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/tcp.h>

#include "ovc_tcpdiag.h"

static int diag_fd = -1;  /* this process's netlink socket */
static pid_t diag_pid;	  /* the process that opened it */
static uint32_t diag_seq; /* sequence of the last request */

void ovc_tcpdiag_close(void)
{
	if(diag_fd >= 0 && diag_pid == getpid())
		close(diag_fd);
	diag_fd = -1;
}

/* This process's socket, opened on first use. Returns it or -1. */
static int diag_sock(void)
{
	pid_t pid = getpid();

	if(diag_fd >= 0 && diag_pid == pid)
		return diag_fd;
	/* inherited through a fork: the parent's, left to it */
	diag_fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	diag_pid = pid;
	return diag_fd;
}

/* The request for t's socket into *req. */
static void diag_req(
		const struct ovc_tcp_tuple *t, struct inet_diag_req_v2 *req)
{
	size_t alen = t->af == AF_INET6 ? 16 : 4;

	memset(req, 0, sizeof(*req));
	req->sdiag_family = (uint8_t)t->af;
	req->sdiag_protocol = IPPROTO_TCP;
	req->idiag_states = ~0U;
	req->idiag_ext = 1U << (INET_DIAG_INFO - 1);
	req->id.idiag_sport = htons(t->lport);
	req->id.idiag_dport = htons(t->rport);
	memcpy(req->id.idiag_src, t->laddr, alen);
	memcpy(req->id.idiag_dst, t->raddr, alen);
	req->id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
	req->id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
}

/* The not-sent bytes in the INET_DIAG_INFO attribute of reply h (d its
 * message), -1 when absent or too short. */
static int64_t notsent_of(struct nlmsghdr *h, struct inet_diag_msg *d)
{
	struct rtattr *a = (struct rtattr *)(d + 1);
	int len = (int)h->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*d));
	size_t need =
			offsetof(struct tcp_info, tcpi_notsent_bytes) + sizeof(uint32_t);

	for(; RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if(a->rta_type == INET_DIAG_INFO && RTA_PAYLOAD(a) >= need)
			return ((struct tcp_info *)RTA_DATA(a))->tcpi_notsent_bytes;
	}
	return -1;
}

int ovc_tcpdiag_sendq(const struct ovc_tcp_tuple *t, struct ovc_tcp_sendq *q)
{
	struct
	{
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 req;
	} msg;
	union
	{
		struct nlmsghdr nlh;
		char b[2048];
	} rbuf;
	struct sockaddr_nl sa;
	struct nlmsghdr *h;
	struct inet_diag_msg *d;
	int fd = diag_sock();
	ssize_t n;
	int i;

	if(fd < 0 || (t->af != AF_INET && t->af != AF_INET6))
		return -1;
	memset(&msg.nlh, 0, sizeof(msg.nlh));
	diag_req(t, &msg.req);
	msg.nlh.nlmsg_len = sizeof(msg);
	msg.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	msg.nlh.nlmsg_flags = NLM_F_REQUEST;
	msg.nlh.nlmsg_seq = ++diag_seq;
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	if(sendto(fd, &msg, sizeof(msg), 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -1;
	/* a stale answer (a request interrupted before its reply was read)
	 * is skipped by its sequence */
	for(i = 0; i < 4; i++) {
		n = recv(fd, &rbuf, sizeof(rbuf), MSG_DONTWAIT);
		if(n < 0 && errno == EINTR)
			continue;
		if(n <= 0)
			return -1;
		h = &rbuf.nlh;
		if(!NLMSG_OK(h, (size_t)n) || h->nlmsg_seq != diag_seq)
			continue;
		if(h->nlmsg_type != SOCK_DIAG_BY_FAMILY
				|| h->nlmsg_len < NLMSG_LENGTH(sizeof(*d)))
			return -1; /* NLMSG_ERROR: no such socket */
		d = NLMSG_DATA(h);
		q->unacked = (int64_t)d->idiag_wqueue;
		q->notsent = notsent_of(h, d);
		return 0;
	}
	return -1;
}
