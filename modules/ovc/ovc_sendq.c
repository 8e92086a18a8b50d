/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the send queue towards a TCP next hop (ovc_sendq.h).
 */
#include <string.h>
#include <sys/socket.h>

#include "core/ip_addr.h"
#include "core/tcp_conn.h"

#include "ovc_sendq.h"
#include "ovc_tcpdiag.h"


int ovc_sendq_proto(int proto)
{
	return proto == PROTO_TCP || proto == PROTO_TLS || proto == PROTO_WS
		   || proto == PROTO_WSS;
}

/* Connection c's four-tuple into *t. Returns 0, or -1 when its local end
 * is not known (yet). */
static int conn_tuple(struct tcp_connection *c, struct ovc_tcp_tuple *t)
{
	struct ip_addr *peer = &c->rcv.src_ip, *local = &c->rcv.dst_ip;

	if(peer->len > sizeof(t->raddr) || local->len != peer->len
			|| c->rcv.dst_port == 0 || ip_addr_any(local))
		return -1;
	memset(t, 0, sizeof(*t));
	t->af = (int)peer->af;
	memcpy(t->raddr, peer->u.addr, peer->len);
	memcpy(t->laddr, local->u.addr, local->len);
	t->rport = c->rcv.src_port;
	t->lport = c->rcv.dst_port;
	return 0;
}

int64_t ovc_sendq_bytes(const struct ip_addr *ip, unsigned port)
{
	struct ip_addr to = *ip; /* tcpconn_get() takes it writable */
	struct tcp_connection *c;
	struct ovc_tcp_tuple t;
	struct ovc_tcp_sendq q;
	int64_t app = 0;
	int ok;

	c = tcpconn_get(0, &to, (int)port, NULL, 0);
	if(c == NULL)
		return -1;
	ok = c->state != S_CONN_BAD && c->state != S_CONN_ERROR
		 && conn_tuple(c, &t) == 0;
#ifdef TCP_ASYNC
	/* written by a sender under the connection's lock: a word read
	 * without it is at worst one write old */
	app = (int64_t)(*(volatile unsigned *)&c->wbuf_q.queued);
#endif
	/* as Kamailio's own users of tcpconn_get() do: tcp_main frees it */
	tcpconn_put(c);
	if(!ok)
		return -1;
	if(ovc_tcpdiag_sendq(&t, &q) != 0)
		return app > 0 ? app : -1;
	/* what has not left yet; sent bytes waiting for their ACK are the
	 * path's delay (a delayed ACK holds them ~40 ms), not a backlog */
	return (q.notsent >= 0 ? q.notsent : q.unacked) + app;
}
