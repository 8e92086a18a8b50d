/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - a TCP connection's send queue by netlink sock_diag (ovc_tcpdiag.h).
 * The request names the socket by its four-tuple with no cookie, without
 * NLM_F_DUMP: the kernel answers from inside sendto() with one
 * inet_diag_msg (or an error), so the reply is read without waiting.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>

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
	req->id.idiag_sport = htons(t->lport);
	req->id.idiag_dport = htons(t->rport);
	memcpy(req->id.idiag_src, t->laddr, alen);
	memcpy(req->id.idiag_dst, t->raddr, alen);
	req->id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
	req->id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;
}

int64_t ovc_tcpdiag_wqueue(const struct ovc_tcp_tuple *t)
{
	struct
	{
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 req;
	} msg;
	union
	{
		struct nlmsghdr nlh;
		char b[1024];
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
		return (int64_t)d->idiag_wqueue;
	}
	return -1;
}
