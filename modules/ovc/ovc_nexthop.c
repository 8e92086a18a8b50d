/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - overload control between SIP servers (ovc_nexthop.h): the message
 * hooks that read and write RFC 7339's Via parameters, and the next hop
 * of a request as ovc_dst_admit() sees it.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "core/dprint.h"
#include "core/events.h"
#include "core/ip_addr.h"
#include "core/mem/mem.h"
#include "core/mem/shm_mem.h"
#include "core/parser/parse_uri.h"
#include "core/resolve.h"
#include "core/timer.h"
#include "core/timer_ticks.h"

#include "ovc/admission.h"
#include "ovc/oc7339.h"
#include "ovc/octoken.h"

#include "ovc_modparams.h"
#include "ovc_nexthop.h"
#include "ovc_request.h"
#include "ovc_sendq.h"

/* How long a value this server announces holds, ms: several of its
 * announcements (one per receive-queue sample), so that a client keeps
 * it between responses, short enough that a client stops throttling soon
 * after this server falls silent. */
#define OVC_NET_VALIDITY_MS 2000

struct ovc_net *ovc_net;

/* this process installed its hook on what Kamailio sends (or tried) */
static int out_hooked;

/* when this process last marked oc in use for the script's
 * ovc_dst_admit() and for a client's offer (Kamailio ticks; 0: never):
 * at most once a second each, so that the hot paths write no shared
 * line */
static ticks_t dst_marked, client_marked;

static void oc_used(void);

static const char *proto_name(int proto)
{
	switch(proto) {
		case PROTO_TCP:
			return "tcp";
		case PROTO_TLS:
			return "tls";
		case PROTO_SCTP:
			return "sctp";
		case PROTO_WS:
			return "ws";
		case PROTO_WSS:
			return "wss";
	}
	return "udp";
}

/* A next hop's key, "udp:192.0.2.7:5060", into buf. Returns its length
 * or -1. */
static int hop_key(
		int proto, struct ip_addr *ip, unsigned port, char *buf, int len)
{
	int n = snprintf(
			buf, len, "%s:%s:%u", proto_name(proto), ip_addr2a(ip), port);

	return n > 0 && n < len ? n : -1;
}

/* A destination, resolved from a URI. */
struct dst
{
	char proto;				  /* PROTO_* */
	unsigned short port;	  /* host order */
	struct ip_addr ip;		  /* its address */
	char key[OVC_NH_KEY_MAX]; /* its next-hop key */
	int key_len;			  /* bytes of key */
};

/* The last destination this process took from a URI whose host is an IP
 * literal, by the URI's text (what it resolves to depends on nothing
 * else): a request routed like the one before skips parsing it. */
#define DST_MEMO_URI 128
static struct
{
	int len;				/* bytes of uri; 0: none */
	char uri[DST_MEMO_URI]; /* its text */
	struct dst d;			/* what it resolved to */
} dst_memo;

/* The destination uri resolves to into *d: an IP literal as it is, a
 * name through Kamailio's resolver (sip_hostport2su(): its DNS cache
 * unless use_dns_cache is off). Returns 0, or -1 when it does not
 * resolve. */
static int dst_of_uri(str *uri, struct dst *d)
{
	struct sip_uri pu;
	union sockaddr_union su;
	struct ip_addr *ip;

	if(uri == NULL || uri->len <= 0)
		return -1;
	if(uri->len == dst_memo.len
			&& memcmp(uri->s, dst_memo.uri, (size_t)uri->len) == 0) {
		*d = dst_memo.d;
		return 0;
	}
	if(parse_uri(uri->s, uri->len, &pu) < 0)
		return -1;
	d->proto = pu.proto != PROTO_NONE	 ? pu.proto
			   : pu.type == SIPS_URI_T ? PROTO_TLS
									   : PROTO_UDP;
	d->port = pu.port_no ? pu.port_no : (d->proto == PROTO_TLS ? 5061 : 5060);
	/* what sip_hostport2su() makes of a literal, without its hostent */
	ip = str2ipx(&pu.host);
	if(ip != NULL) {
		d->ip = *ip;
	} else {
		if(sip_hostport2su(&su, &pu.host, d->port, &d->proto) < 0)
			return -1;
		su2ip_addr(&d->ip, &su);
	}
	d->key_len = hop_key(d->proto, &d->ip, d->port, d->key, sizeof(d->key));
	if(d->key_len <= 0)
		return -1;
	if(ip != NULL && uri->len <= DST_MEMO_URI) {
		memcpy(dst_memo.uri, uri->s, (size_t)uri->len);
		dst_memo.d = *d;
		dst_memo.len = uri->len;
	}
	return 0;
}

/* Request msg as the admission sequence sees it, described once per
 * message in this process (ovc_req_msg()): a script that tries several
 * destinations (failover) does not scan it again. */
static const struct ovc_adm_req *request_of(struct sip_msg *msg)
{
	return &ovc_req_msg(msg)->r;
}

/* Does the client of request msg offer oc (its top Via)? */
static int client_offers_oc(struct sip_msg *msg)
{
	struct ovc_oc_via oc;

	return ovc_oc_read_top_via(msg->buf, msg->len, &oc) == 1;
}

/* Request r's next hop d (NULL: unresolved) as the admission sequence
 * sees it, with its feedback fb (none in mode local, NULL): its identity
 * and, when smart forwarding applies to d (sf) and r is a new INVITE, the
 * bytes waiting on the connection to it. */
static void hop_of(const struct dst *d, const struct ovc_adm_req *r,
		struct ovc_nexthop *fb, int sf, struct ovc_adm_hop *hop)
{
	hop->fb = fb;
	hop->id = 0;
	hop->sendq = -1;
	if(d == NULL)
		return;
	hop->id = ovc_nh_key_hash(d->key, (size_t)d->key_len);
	if(sf && ovc_adm_new_invite(r))
		hop->sendq = ovc_sendq_bytes(&d->ip, d->port);
}

int ovc_net_hop(struct sip_msg *msg, str *uri, struct ovc_adm_hop *hop)
{
	const struct ovc_adm_req *r;
	struct ovc_nexthop *fb = NULL;
	struct dst d;
	int mode, known, sf;

	if(ovc_net == NULL || msg->first_line.type != SIP_REQUEST)
		return -1;
	mode = atomic_load_explicit(&ovc_net->mode, memory_order_relaxed);
	if(mode == OVC_NET_LOCAL && ovc_mp.tcp_sendq_max < 0)
		return -1;
	if(mode != OVC_NET_LOCAL) {
		ticks_t t = get_ticks_raw();

		if(dst_marked == 0 || t - dst_marked >= S_TO_TICKS(1)
				|| !atomic_load_explicit(
						&ovc_net->offering, memory_order_relaxed)) {
			dst_marked = t ? t : 1;
			atomic_store(&ovc_net->dst_ns, ovc_now_ns());
			if(!atomic_load_explicit(&ovc_net->offering, memory_order_relaxed))
				atomic_store(&ovc_net->offering, 1);
			oc_used();
		}
	}
	known = dst_of_uri(uri != NULL ? uri : GET_NEXT_HOP(msg), &d) == 0;
	if(known && mode != OVC_NET_LOCAL)
		fb = ovc_nh_get(&ovc_net->nh, d.key, (size_t)d.key_len, 0, 0);
	/* end to end: what each next hop's reduction weighs in the one this
	 * server announces (announced()) */
	if(known && mode == OVC_NET_E2E && ovc_adm_new_invite(request_of(msg)))
		ovc_nh_routed(&ovc_net->nh, fb);
	sf = known && ovc_mp.tcp_sendq_max >= 0 && ovc_sendq_proto(d.proto);
	if(fb == NULL && !sf)
		return 0; /* nothing can refuse it (ovc_adm_next_hop() would pass
					 it without a look): no scan */
	r = request_of(msg);
	hop_of(known ? &d : NULL, r, fb, sf, hop);
	/* end to end: only the entry of the path throttles; a client that
	 * offers oc is given the path's reduction and applies it */
	if(hop->fb != NULL && mode == OVC_NET_E2E && client_offers_oc(msg))
		hop->fb = NULL;
	return 1;
}

/* The reduction announced upstream now, percent: this server's own, r,
 * and end to end the larger of it and its paths' (each next hop's
 * reduction weighed by its share of the new calls routed in the last
 * second: behind a load balancer, a core that asks for 50 % of a quarter
 * of the calls asks for 12.5 % of them all), as the ticker computed it at
 * its last receive-queue sample. */
static unsigned announced(int mode, unsigned r)
{
	if(mode == OVC_NET_E2E) {
		double d = 100.0 * ovc_dload(&ovc_net->path);
		unsigned p = (unsigned)(d + 0.5);

		if(p > r)
			r = p > 100 ? 100 : p;
	}
	return r;
}

static int is_response(const str *b)
{
	return b->len > 12 && memcmp(b->s, "SIP/2.0 ", 8) == 0;
}

static int net_out(sr_event_param_t *evp);

void ovc_net_hook_out(void)
{
	if(out_hooked || ovc_net == NULL || !ovc_net->hooked
			|| !atomic_load_explicit(&ovc_net->oc_in_use, memory_order_relaxed))
		return;
	out_hooked = 1;
	if(sr_event_register_cb(SREV_NET_DATA_OUT, net_out) < 0)
		LM_ERR("network: no room for one more SREV_NET_DATA_OUT callback:"
			   " this process sends no oc\n");
}

/* oc is in use (again): this process hooks at once, the others at their
 * next message. */
static void oc_used(void)
{
	if(!atomic_load_explicit(&ovc_net->oc_in_use, memory_order_relaxed)) {
		atomic_store(&ovc_net->oc_in_use, 1);
		LM_INFO("network: oc in use, the processes hook what they send\n");
	}
	ovc_net_hook_out();
}

void ovc_net_client(struct sip_msg *msg)
{
	ticks_t t;

	if(ovc_net == NULL || !ovc_net->hooked || msg == NULL
			|| msg->first_line.type != SIP_REQUEST
			|| atomic_load_explicit(&ovc_net->mode, memory_order_relaxed)
					   == OVC_NET_LOCAL)
		return;
	t = get_ticks_raw();
	/* in use, and this process marked it within the last second (for a
	 * client, or for the script's ovc_dst_admit()): nothing to learn */
	if(((client_marked != 0 && t - client_marked < S_TO_TICKS(1))
			   || (dst_marked != 0 && t - dst_marked < S_TO_TICKS(1)))
			&& atomic_load_explicit(&ovc_net->oc_in_use, memory_order_relaxed))
		return;
	if(ovc_oc_read_top_via(msg->buf, msg->len, NULL) != 1)
		return;
	client_marked = t ? t : 1;
	atomic_store(&ovc_net->client_ns, ovc_now_ns());
	oc_used();
}

void ovc_net_second(ovc_time_ns now)
{
	const int64_t idle = (int64_t)OVC_OC_IDLE_MS * OVC_NS_PER_MS;
	int64_t dst, client;

	if(ovc_net == NULL)
		return;
	dst = atomic_load(&ovc_net->dst_ns);
	client = atomic_load(&ovc_net->client_ns);
	if(atomic_load(&ovc_net->offering) && now - dst >= idle)
		atomic_store(&ovc_net->offering, 0);
	if(atomic_load(&ovc_net->oc_in_use) && now - dst >= idle
			&& now - client >= idle) {
		atomic_store(&ovc_net->oc_in_use, 0);
		LM_INFO("network: oc out of use (none offered it for %d s): the"
				" hooks on what is sent do nothing\n",
				OVC_OC_IDLE_MS / 1000);
	}
	ovc_nh_expire(&ovc_net->nh, now);
}

/* SREV_NET_DATA_IN: a response's top Via is ours; its oc parameters are
 * the feedback of the next hop that sent it, taken only when that Via
 * carries the token ovc put into the request it answers, for the address
 * the response came from (ovc/octoken.h): a response to no request of
 * this server, or from another source, changes nothing (and creates no
 * entry in the next-hop table). A process hooks what it sends once oc is
 * in use. */
static int net_in(sr_event_param_t *evp)
{
	str *b = (str *)evp->data;
	struct ovc_oc_via oc;
	struct ovc_nexthop *h;
	char key[OVC_NH_KEY_MAX];
	ovc_time_ns now;
	int n;

	if(b == NULL || b->s == NULL || evp->rcv == NULL)
		return 0;
	if(atomic_load_explicit(&ovc_net->mode, memory_order_relaxed)
			== OVC_NET_LOCAL)
		return 0;
	if(!out_hooked)
		ovc_net_hook_out();
	if(!is_response(b))
		return 0;
	if(ovc_oc_read_top_via(b->s, (size_t)b->len, &oc) != 1 || oc.value < 0)
		return 0;
	n = hop_key(evp->rcv->proto, &evp->rcv->src_ip, evp->rcv->src_port, key,
			sizeof(key));
	if(n < 0)
		return 0;
	if(!ovc_oct_verify(&ovc_net->key, &oc, key, (size_t)n)) {
		atomic_fetch_add_explicit(
				&ovc_net->unverified, 1, memory_order_relaxed);
		return 0;
	}
	now = ovc_now_ns();
	h = ovc_nh_get(&ovc_net->nh, key, (size_t)n, 1, now);
	if(h != NULL && ovc_nh_feedback(h, &oc, now))
		ovc_count_event(OVC_E_OC_RECEIVED);
	return 0;
}

/* The next-hop key of the destination of what is sent, into buf. Returns
 * its length or -1. */
static int dst_key(struct dest_info *dst, char *buf, int len)
{
	struct ip_addr ip;

	if(dst == NULL)
		return -1;
	su2ip_addr(&ip, &dst->to);
	return hop_key(dst->proto, &ip, su_getport(&dst->to), buf, len);
}

/* SREV_NET_DATA_OUT (b: a private copy Kamailio sends and frees): the
 * reduction into a response whose client offered oc; the offer, with the
 * token of its branch and destination, into a request while the script
 * uses ovc_dst_admit(). Nothing while oc is out of use. */
static int net_out(sr_event_param_t *evp)
{
	str *b = (str *)evp->data;
	struct ovc_oc_via oc;
	struct ovc_oc_fb fb;
	char key[OVC_NH_KEY_MAX];
	size_t size;
	char *nb;
	int mode, reply, n, kn = -1;

	if(!atomic_load_explicit(&ovc_net->oc_in_use, memory_order_relaxed))
		return 0;
	if(b == NULL || b->s == NULL || b->len <= 0)
		return 0;
	mode = atomic_load_explicit(&ovc_net->mode, memory_order_relaxed);
	if(mode == OVC_NET_LOCAL)
		return 0;
	reply = is_response(b);
	if(reply) {
		if(ovc_oc_read_top_via(b->s, (size_t)b->len, &oc) != 1)
			return 0; /* its client does not speak oc */
	} else {
		if(!atomic_load_explicit(&ovc_net->offering, memory_order_relaxed))
			return 0;
		kn = dst_key(evp->dst, key, sizeof(key));
		if(kn < 0)
			return 0; /* no token: no offer */
	}
	size = (size_t)b->len + OVC_OC_GROWTH + 1;
	nb = pkg_malloc(size);
	if(nb == NULL)
		return 0; /* sent as it was */
	if(reply) {
		/* the pair the ticker stored, in one read */
		uint64_t w = atomic_load_explicit(&ovc_net->oc, memory_order_relaxed);

		fb.reduction = announced(mode, ovc_nh_packed_reduction(w));
		fb.validity_ms = OVC_NET_VALIDITY_MS;
		fb.seq = ovc_nh_packed_seq(w);
		n = ovc_oc_feedback(b->s, (size_t)b->len, &fb, nb, size - 1);
	} else {
		n = ovc_oct_announce(&ovc_net->key, key, (size_t)kn, b->s,
				(size_t)b->len, nb, size - 1);
	}
	if(n <= 0) {
		pkg_free(nb);
		return 0;
	}
	nb[n] = '\0';
	pkg_free(b->s);
	b->s = nb;
	b->len = n;
	if(reply)
		ovc_count_event(OVC_E_OC_SENT);
	return 0;
}

/* Wall-clock time, ns, for oc-seq. */
static int64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * OVC_NS_PER_S + ts.tv_nsec;
}

void ovc_net_publish(void)
{
	uint64_t seq = ovc_oc_seq_from_ns(realtime_ns());
	unsigned red = ovc_ocloop_publish(&ovc_net->loop);
	uint64_t cur = atomic_load(&ovc_net->oc);

	/* a new sequence each time, so that clients refresh its validity,
	 * stored with its reduction: a response carries one announcement */
	while(!atomic_compare_exchange_weak(
			&ovc_net->oc, &cur, ovc_nh_announce_next(cur, seq, red)))
		;
}

/* A random secret into *k: getrandom(), else /dev/urandom. Returns 0 or
 * -1. */
static int secret(struct ovc_oct_key *k)
{
	size_t got = 0;
	ssize_t r;
	int fd;

	while(got < sizeof(k->k)) {
		r = getrandom(k->k + got, sizeof(k->k) - got, 0);
		if(r <= 0)
			break;
		got += (size_t)r;
	}
	if(got == sizeof(k->k))
		return 0;
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if(fd < 0)
		return -1;
	got = 0;
	while(got < sizeof(k->k)) {
		r = read(fd, k->k + got, sizeof(k->k) - got);
		if(r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	return got == sizeof(k->k) ? 0 : -1;
}

int ovc_net_init(void)
{
	ovc_net = shm_malloc(sizeof(*ovc_net));
	if(ovc_net == NULL) {
		LM_ERR("network: out of shared memory\n");
		return -1;
	}
	memset(ovc_net, 0, sizeof(*ovc_net));
	if(secret(&ovc_net->key) < 0) {
		LM_ERR("network: no random bytes for the tokens' secret\n");
		return -1;
	}
	ovc_nh_init(&ovc_net->nh);
	ovc_ocloop_init(&ovc_net->loop);
	ovc_dstore(&ovc_net->a, 1.0);
	atomic_store(&ovc_net->mode, ovc_mp.network_mode);
	if(ovc_mp.network_mode == OVC_NET_LOCAL)
		return 0; /* no hook: messages pass untouched */
	if(sr_event_register_cb(SREV_NET_DATA_IN, net_in) < 0) {
		LM_ERR("network_mode %s: cannot register the message hooks\n",
				ovc_network_names.names[ovc_mp.network_mode]);
		return -1;
	}
	ovc_net->hooked = 1;
	return 0;
}

void ovc_net_destroy(void)
{
	if(ovc_net != NULL)
		shm_free(ovc_net);
	ovc_net = NULL;
}

static int net_mode_get(void)
{
	return ovc_net ? atomic_load(&ovc_net->mode) : ovc_mp.network_mode;
}

/* ovc.set network_mode: not away from a start as local, which installed
 * no hook */
static int net_mode_set(int m, char *err, int len)
{
	if(m != OVC_NET_LOCAL && !ovc_net->hooked) {
		snprintf(err, len,
				"network_mode: started as local, the message hooks are"
				" not installed; set the modparam and restart");
		return 400;
	}
	atomic_store(&ovc_net->mode, m);
	return 0;
}

const struct ovc_mp_live ovc_mp_live_network_mode = {
		net_mode_get, net_mode_set};

const char *ovc_net_mode_name(void)
{
	int m = net_mode_get();

	return (unsigned)m < OVC_NET_COUNT ? ovc_network_names.names[m] : "?";
}
