/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - microbenchmark of smart forwarding's read of a send queue
 * (modules/ovc/ovc_tcpdiag.c): a loopback TCP connection whose peer does
 * not read, its send queue filled with a few INVITE-sized writes; the
 * sock_diag lookup by four-tuple is timed from this process (which also
 * owns the socket, but the lookup never uses the fd) and checked against
 * the owner's ioctl(SIOCOUTQ) and ioctl(SIOCOUTQNSD), with the queue
 * empty and backed up. Best
 * of several rounds, one thread; Kamailio's connection-table lookup
 * (tcpconn_get, one lock) is not in it.
 *
 * Usage: sendq_bench [lookups per round] (default 200000)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <arpa/inet.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ovc_tcpdiag.h"

#define ROUNDS 5

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* A connected loopback pair: *cli (the sender), *srv (the peer, which
 * never reads; a small receive buffer so that the sender's queue grows).
 * Fills *t with the sender's four-tuple. Returns 0 or -1. */
static int pair(int *cli, int *srv, struct ovc_tcp_tuple *t)
{
	struct sockaddr_in a, l;
	socklen_t len = sizeof(a);
	int lst, rb = 2048;

	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lst = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(lst, SOL_SOCKET, SO_RCVBUF, &rb, sizeof(rb));
	if(lst < 0 || bind(lst, (struct sockaddr *)&a, sizeof(a)) != 0
			|| listen(lst, 1) != 0
			|| getsockname(lst, (struct sockaddr *)&a, &len) != 0)
		return -1;
	*cli = socket(AF_INET, SOCK_STREAM, 0);
	if(*cli < 0 || connect(*cli, (struct sockaddr *)&a, sizeof(a)) != 0)
		return -1;
	*srv = accept(lst, NULL, NULL);
	close(lst);
	len = sizeof(l);
	if(*srv < 0 || getsockname(*cli, (struct sockaddr *)&l, &len) != 0)
		return -1;
	memset(t, 0, sizeof(*t));
	t->af = AF_INET;
	memcpy(t->laddr, &l.sin_addr, 4);
	memcpy(t->raddr, &a.sin_addr, 4);
	t->lport = ntohs(l.sin_port);
	t->rport = ntohs(a.sin_port);
	return 0;
}

/* Best ns per lookup over ROUNDS rounds of n; *q: the last value (-1,
 * -1 when the lookup failed). */
static double time_lookups(
		const struct ovc_tcp_tuple *t, long n, struct ovc_tcp_sendq *q)
{
	double best = 1e18;
	int r;

	for(r = 0; r < ROUNDS; r++) {
		double t0 = now_ns(), dt;
		long i;

		for(i = 0; i < n; i++)
			if(ovc_tcpdiag_sendq(t, q) != 0)
				q->unacked = q->notsent = -1;
		dt = (now_ns() - t0) / n;
		if(dt < best)
			best = dt;
	}
	return best;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	static char invite[900];
	struct ovc_tcp_tuple t, none;
	struct ovc_tcp_sendq q;
	int cli, srv, outq = 0, nsd = 0, i;
	double ns;

	if(n <= 0 || pair(&cli, &srv, &t) != 0) {
		perror("sendq_bench: loopback pair");
		return 1;
	}
	memset(invite, 'x', sizeof(invite));
	ns = time_lookups(&t, n, &q);
	ioctl(cli, SIOCOUTQ, &outq);
	ioctl(cli, SIOCOUTQNSD, &nsd);
	printf("empty queue:  %.0f ns per lookup, unacked %lld (SIOCOUTQ %d),"
		   " not sent %lld (SIOCOUTQNSD %d)\n",
			ns, (long long)q.unacked, outq, (long long)q.notsent, nsd);
	/* back it up: the peer's window closes, the rest waits here */
	for(i = 0; i < 400; i++)
		if(send(cli, invite, sizeof(invite), MSG_DONTWAIT) < 0)
			break;
	usleep(100000);
	ns = time_lookups(&t, n, &q);
	ioctl(cli, SIOCOUTQ, &outq);
	ioctl(cli, SIOCOUTQNSD, &nsd);
	printf("backed up:    %.0f ns per lookup, unacked %lld (SIOCOUTQ %d),"
		   " not sent %lld (SIOCOUTQNSD %d); %d writes of %zu bytes\n",
			ns, (long long)q.unacked, outq, (long long)q.notsent, nsd, i,
			sizeof(invite));
	none = t;
	none.rport = (uint16_t)(t.rport ^ 1);
	ns = time_lookups(&none, n, &q);
	printf("no such conn: %.0f ns per lookup, result %lld\n", ns,
			(long long)q.unacked);
	close(cli);
	close(srv);
	return q.unacked == -1 && outq > 0 ? 0 : 1;
}
