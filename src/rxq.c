/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - receive-queue parsing, wait estimation and the early-overload
 * guard (see include/ovc/rxq.h). Paper 001 §4.1.1 uses the UDP receive
 * queue as the queue signal; 002 §6 shows that a small receive buffer is
 * what makes a transport's own flow control act as overload control.
 *
 * /proc/net/udp line (udp6: 32 hex digits of address; tcp: no drops):
 *   sl  local_address rem_address st tx_queue:rx_queue tr:tm->when
 *   retrnsmt uid timeout inode ref pointer drops
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ovc/rxq.h"
#include "ovc/types.h"

#define TOK_MAX 16

void ovc_rxq_defaults(struct ovc_rxq_params *p)
{
	p->sample_ms = 20;
	p->tau_ms = 500;
	p->guard_ms = -1;
	p->guard_f_min = 0.05;
	p->max_age_ms = -1;
	p->onset_ms = -1;
	p->t1_ms = 500;
}

struct tok
{
	const char *s; /* first byte */
	size_t n;	   /* length */
};

/* Splits [s, s + len) at blanks into up to TOK_MAX tokens. Returns how
 * many. */
static int split(const char *s, size_t len, struct tok *t)
{
	size_t i = 0;
	int n = 0;

	while(i < len && n < TOK_MAX) {
		while(i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
			i++;
		if(i >= len)
			break;
		t[n].s = s + i;
		while(i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			i++;
		t[n].n = (size_t)(s + i - t[n].s);
		n++;
	}
	return n;
}

static int hexval(char c)
{
	if(c >= '0' && c <= '9')
		return c - '0';
	if(c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if(c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Hex number of 1..16 digits in [s, s + n). Returns 0 or -1. */
static int parse_hex(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if(n == 0 || n > 16)
		return -1;
	for(i = 0; i < n; i++) {
		int d = hexval(s[i]);

		if(d < 0)
			return -1;
		v = (v << 4) | (uint64_t)d;
	}
	*out = v;
	return 0;
}

/* Decimal number of 1..20 digits without overflow. Returns 0 or -1. */
static int parse_dec(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if(n == 0 || n > 20)
		return -1;
	for(i = 0; i < n; i++) {
		unsigned d;

		if(s[i] < '0' || s[i] > '9')
			return -1;
		d = (unsigned)(s[i] - '0');
		if(v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* "A:B" with both hex: A of alen_ok digits (0: any 1..16), B any 1..16. */
static int parse_pair(const struct tok *t, size_t alen_ok, uint64_t *a,
		uint64_t *b)
{
	const char *c = memchr(t->s, ':', t->n);
	size_t la;

	if(c == NULL)
		return -1;
	la = (size_t)(c - t->s);
	if(alen_ok && la != alen_ok) {
		/* addresses: 8 (IPv4) or 32 (IPv6) hex digits, checked by hand
		 * since 32 digits do not fit parse_hex */
		size_t i;

		if(!(la == 8 || la == 32))
			return -1;
		for(i = 0; i < la; i++)
			if(hexval(t->s[i]) < 0)
				return -1;
		*a = 0;
	} else if(parse_hex(t->s, la, a) != 0) {
		return -1;
	}
	return parse_hex(c + 1, t->n - la - 1, b);
}

int ovc_rxq_parse_line(const char *line, size_t len, struct ovc_rxq_sock *out)
{
	struct tok t[TOK_MAX];
	struct ovc_rxq_sock s;
	uint64_t a, b, sl;
	int n;

	if(line == NULL || out == NULL)
		return OVC_EINVAL;
	n = split(line, len, t);
	if(n < 10)
		return OVC_EINVAL;
	/* "sl:" */
	if(t[0].n < 2 || t[0].s[t[0].n - 1] != ':'
			|| parse_dec(t[0].s, t[0].n - 1, &sl) != 0)
		return OVC_EINVAL;
	memset(&s, 0, sizeof(s));
	/* local and remote address:port (addresses only validated) */
	if(parse_pair(&t[1], 1, &a, &b) != 0 || b > 0xffff)
		return OVC_EINVAL;
	s.port = (uint16_t)b;
	if(parse_pair(&t[2], 1, &a, &b) != 0 || b > 0xffff)
		return OVC_EINVAL;
	if(parse_hex(t[3].s, t[3].n, &a) != 0 || a > 0xff)
		return OVC_EINVAL;
	s.state = (unsigned)a;
	if(parse_pair(&t[4], 0, &s.tx_queue, &s.rx_queue) != 0)
		return OVC_EINVAL;
	if(parse_pair(&t[5], 0, &a, &b) != 0 || parse_hex(t[6].s, t[6].n, &a))
		return OVC_EINVAL;
	if(parse_dec(t[7].s, t[7].n, &a) != 0 || parse_dec(t[8].s, t[8].n, &a))
		return OVC_EINVAL;
	if(parse_dec(t[9].s, t[9].n, &s.inode) != 0)
		return OVC_EINVAL;
	/* udp: ref pointer drops; a drops column that is not a number is
	 * malformed, a missing one reads 0 */
	if(n >= 13 && parse_dec(t[12].s, t[12].n, &s.drops) != 0)
		s.drops = 0;
	*out = s;
	return OVC_OK;
}

static int matches(const struct ovc_rxq_filter *f,
		const struct ovc_rxq_sock *s)
{
	size_t i;

	for(i = 0; i < f->nports && f->ports != NULL; i++)
		if(f->ports[i] == s->port)
			return 1;
	for(i = 0; i < f->ninodes && f->inodes != NULL; i++)
		if(f->inodes[i] == s->inode && s->inode != 0)
			return 1;
	return 0;
}

/* Is [s, s + n) blank or the header line ("  sl  local_address ...")? */
static int blank_or_header(const char *s, size_t n)
{
	struct tok t[TOK_MAX];
	int k = split(s, n, t);

	return k == 0 || (t[0].n == 2 && memcmp(t[0].s, "sl", 2) == 0);
}

int ovc_rxq_scan(const char *text, size_t len,
		const struct ovc_rxq_filter *filter, int tcp, struct ovc_rxq_sum *sum)
{
	size_t i = 0;

	if(text == NULL || filter == NULL || sum == NULL)
		return OVC_EINVAL;
	while(i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
		struct ovc_rxq_sock s;

		if(blank_or_header(text + i, n)) {
			/* nothing to count */
		} else if(ovc_rxq_parse_line(text + i, n, &s) != OVC_OK) {
			sum->malformed++;
		} else if(matches(filter, &s)) {
			sum->matched++;
			if(tcp && s.state == OVC_RXQ_TCP_LISTEN)
				sum->backlog += s.rx_queue;
			else
				sum->rx_bytes += s.rx_queue;
			if(!tcp)
				sum->drops += s.drops;
		}
		i += n + 1;
	}
	return OVC_OK;
}

int ovc_rxq_est_init(struct ovc_rxq_est *e, double tau_s)
{
	if(e == NULL)
		return OVC_EINVAL;
	if(!isfinite(tau_s) || tau_s < 0)
		return OVC_ERANGE;
	memset(e, 0, sizeof(*e));
	e->tau_s = tau_s;
	return OVC_OK;
}

int ovc_rxq_est_step(struct ovc_rxq_est *e, double queue_msgs,
		double drained_msgs, double dt_s)
{
	double sample, a, w;

	if(e == NULL || !isfinite(queue_msgs) || !isfinite(drained_msgs)
			|| !isfinite(dt_s) || queue_msgs < 0 || drained_msgs < 0
			|| dt_s <= 0)
		return OVC_EINVAL;
	sample = drained_msgs / dt_s;
	/* backlogged over the interval: the application drained as fast as
	 * it could (nothing at all while it was descheduled, e.g. throttled by
	 * a CPU quota), so the sample measures its drain capacity */
	if(e->last_q > 0 && queue_msgs > 0) {
		if(!e->have_rate || e->tau_s <= 0) {
			e->rate = sample;
		} else {
			a = 1.0 - exp(-dt_s / e->tau_s);
			e->rate += a * (sample - e->rate);
		}
		e->have_rate = 1;
	} else if(!e->have_rate && queue_msgs > 0 && drained_msgs > 0) {
		e->rate = sample; /* first sign of a backlog: best guess */
		e->have_rate = 1;
	}
	if(queue_msgs <= 0) {
		w = 0;
	} else if(e->have_rate && e->rate > 0) {
		w = queue_msgs / e->rate;
	} else {
		/* nothing drains: the oldest message has waited at least as long
		 * as the queue has been stalled */
		w = e->wait_s + dt_s;
	}
	if(w > OVC_RXQ_WAIT_MAX_S)
		w = OVC_RXQ_WAIT_MAX_S;
	e->wait_s = w;
	e->last_q = queue_msgs;
	return OVC_OK;
}

double ovc_rxq_est_wait_s(const struct ovc_rxq_est *e)
{
	return e ? e->wait_s : 0;
}

double ovc_rxq_est_rate(const struct ovc_rxq_est *e)
{
	return e && e->have_rate ? e->rate : 0;
}

double ovc_rxq_guard_cap(double wait_ms, double guard_ms, double f_min)
{
	double cap;

	if(!(guard_ms > 0) || !(wait_ms > guard_ms))
		return 1.0;
	if(!isfinite(f_min) || f_min < 0)
		f_min = 0;
	if(f_min > 1)
		f_min = 1;
	cap = isfinite(wait_ms) ? guard_ms / wait_ms : 0;
	return cap < f_min ? f_min : cap;
}

uint64_t ovc_rxq_rcvbuf_value(unsigned msgs, unsigned msg_bytes)
{
	uint64_t v;

	if(msgs == 0 || msg_bytes == 0)
		return 0;
	v = (uint64_t)msgs * msg_bytes / 2;
	if(v < 1)
		v = 1;
	if(v > INT32_MAX)
		v = INT32_MAX;
	return v;
}

unsigned ovc_rxq_tcp_mss(uint64_t rcvbuf)
{
	uint64_t m;

	if(rcvbuf == 0 || rcvbuf >= 256 * 1024)
		return 0;
	m = rcvbuf / 8;
	if(m < 88)
		m = 88;
	if(m > 32767)
		m = 32767;
	return (unsigned)m;
}

int ovc_rxq_too_old(int64_t age_ns, unsigned max_age_ms)
{
	if(max_age_ms == 0 || age_ns < 0)
		return 0;
	return age_ns > (int64_t)max_age_ms * 1000000;
}
