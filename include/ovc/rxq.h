/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the kernel's receive queue in front of the proxy (issue 9): pure
 * functions to read /proc/net/{udp,udp6,tcp,tcp6} text for given local
 * ports or inodes, to estimate how long a message waits there (queued
 * bytes / recent drain rate), and to turn that wait into an early-overload
 * guard (a cap on the admit fraction). No I/O, no clock reads: callers pass
 * the text they read and the time that elapsed.
 */
#ifndef OVC_RXQ_H
#define OVC_RXQ_H

#include <stddef.h>
#include <stdint.h>

/* Parameters (registry names rxq.*). */
struct ovc_rxq_params
{
	unsigned sample_ms;	 /* sampling period of the sockets' queues, ms */
	double tau_ms;		 /* time constant of the drain-rate filter, ms */
	double guard_ms;	 /* wait above which f is capped, ms; 0: off,
							< 0: derived (ovc/derive.h) */
	double guard_f_min;	 /* smallest cap the guard sets, fraction */
	double max_age_ms;	 /* INVITEs older than this are rejected, ms; 0:
							off, < 0: derived */
	double onset_ms;	 /* least wait that is evidence of overload, ms;
							0: always overloaded, < 0: derived */
	unsigned t1_ms;		 /* RFC 3261 T1 the derivations start from, ms */
};

/* Fills p with the defaults: sample every 20 ms, tau 500 ms, guard, age
 * limit and onset derived (-1), guard floor 0.05, T1 500 ms. */
void ovc_rxq_defaults(struct ovc_rxq_params *p);

/* TCP states of the "st" column that matter here. */
#define OVC_RXQ_TCP_ESTABLISHED 0x01
#define OVC_RXQ_TCP_LISTEN 0x0A

/* One socket's line of /proc/net/{udp,udp6,tcp,tcp6}. */
struct ovc_rxq_sock
{
	uint16_t port;	   /* local port, host order */
	unsigned state;	   /* "st" column */
	uint64_t tx_queue; /* bytes */
	uint64_t rx_queue; /* bytes; a TCP listener: connections to accept */
	uint64_t inode;	   /* socket inode */
	uint64_t drops;	   /* UDP: last column; 0 when absent (TCP) */
};

/* Parses one line (len bytes, need not be NUL-terminated; a trailing
 * newline is allowed). Returns OVC_OK and fills *out, or OVC_EINVAL for the
 * header line and anything malformed (out unchanged). */
int ovc_rxq_parse_line(const char *line, size_t len, struct ovc_rxq_sock *out);

/* Which sockets count: a line matches when its local port is one of ports
 * or its inode one of inodes (either list may be empty). */
struct ovc_rxq_filter
{
	const uint16_t *ports; /* host order */
	size_t nports;
	const uint64_t *inodes;
	size_t ninodes;
};

/* Sums over the matching lines of a /proc/net file's text. */
struct ovc_rxq_sum
{
	uint64_t rx_bytes;	/* rx_queue of matching sockets but listeners */
	uint64_t backlog;	/* TCP listeners: connections waiting for accept */
	uint64_t drops;		/* UDP drops column */
	unsigned matched;	/* lines that matched */
	unsigned malformed; /* lines skipped as malformed (header excluded) */
};

/* Adds the matching lines of text (len bytes, any content: truncated,
 * binary or empty text is counted as malformed or ignored, never read past
 * len) into *sum; tcp: 1 for tcp/tcp6 (listeners go to backlog), 0 for
 * udp. Returns OVC_OK, or OVC_EINVAL when an argument is NULL. */
int ovc_rxq_scan(const char *text, size_t len,
		const struct ovc_rxq_filter *filter, int tcp, struct ovc_rxq_sum *sum);

/* Longest wait the estimator reports, s (a queue that never drains). */
#define OVC_RXQ_WAIT_MAX_S 60.0

/* Wait estimator: wait = queued messages / drain rate, where the drain
 * rate (messages/s) is low-pass filtered with time constant tau over the
 * intervals in which the queue was not empty at either end, including those
 * in which nothing drained (an empty queue drains only what arrives, which
 * says nothing about how fast it can drain). */
struct ovc_rxq_est
{
	double tau_s;	/* filter time constant, s (0: no filtering) */
	double rate;	/* filtered drain rate, messages/s; 0: none yet */
	double wait_s;	/* last estimated wait, s */
	double last_q;	/* queue length at the last step, messages */
	int have_rate;	/* rate was measured at least once */
};

/* Initialises e. tau_s >= 0. Returns OVC_OK or OVC_ERANGE (e unchanged). */
int ovc_rxq_est_init(struct ovc_rxq_est *e, double tau_s);

/* One sample: queue_msgs now waiting, drained_msgs taken off the queue by
 * the application since the last step, dt_s seconds ago. Returns OVC_OK or
 * OVC_EINVAL (negative or non-finite input, dt_s <= 0; e unchanged). A
 * queue that holds messages before any drain was measured (or after the
 * rate fell to 0) reports a wait growing with the time it has been
 * stalled; every wait is capped at OVC_RXQ_WAIT_MAX_S. */
int ovc_rxq_est_step(struct ovc_rxq_est *e, double queue_msgs,
		double drained_msgs, double dt_s);

/* Estimated wait of a message arriving now, s. */
double ovc_rxq_est_wait_s(const struct ovc_rxq_est *e);

/* Filtered drain rate, messages/s (0 before the first backlogged
 * interval). */
double ovc_rxq_est_rate(const struct ovc_rxq_est *e);

/* Early-overload guard: the cap on the admit fraction for an estimated
 * wait of wait_ms. 1 when guard_ms <= 0 (off) or wait_ms <= guard_ms; else
 * guard_ms / wait_ms, not below f_min (clamped to [0, 1]). A NaN wait
 * counts as no wait. */
double ovc_rxq_guard_cap(double wait_ms, double guard_ms, double f_min);

/* SO_RCVBUF value (bytes) that lets the kernel hold msgs messages of
 * msg_bytes kernel memory each: Linux doubles the value it is given, so
 * half of msgs * msg_bytes, at least 1; clamped to INT32_MAX. 0 when msgs
 * or msg_bytes is 0. */
uint64_t ovc_rxq_rcvbuf_value(unsigned msgs, unsigned msg_bytes);

/* The MSS (TCP_MAXSEG) to set on a TCP listener whose receive buffer is
 * rcvbuf bytes (SO_RCVBUF as read back, after the kernel doubled it), so
 * that the peer never waits for a window it cannot get. A listener whose
 * buffer is set before the handshake offers no window scaling when the
 * window stays under 64 KiB, and Linux then advertises its window in
 * whole multiples of the largest segment it has received, at most about
 * 0.4 x rcvbuf (the rest is skb overhead), while the sender (TCP_NODELAY)
 * cuts segments of up to half the largest window it saw and sends none
 * that does not fit whole: on loopback (64 KiB MTU) the two settle where
 * the segment is larger than the window and only the zero-window probe
 * (every RTO, 200 ms and backing off) moves data. Segments of at most a
 * third of that window always fit and make the reader's window update
 * go out at once. rcvbuf / 8, at least 88 (TCP_MIN_MSS) and at most
 * 32767 (the kernel's limit); 0 (leave the MSS) when rcvbuf is 0 or the
 * window scales (rcvbuf of 256 KiB or more). */
unsigned ovc_rxq_tcp_mss(uint64_t rcvbuf);

/* Has a request that waited age_ns waited too long under max_age_ms
 * (0: never)? A negative age (unknown or clock step) is never too old. */
int ovc_rxq_too_old(int64_t age_ns, unsigned max_age_ms);

#endif
