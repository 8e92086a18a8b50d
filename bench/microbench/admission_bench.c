/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - microbenchmark of what ovc adds per call on a proxy below
 * capacity: the fast path's work on the three requests of a call a proxy
 * receives from its caller (INVITE, ACK, BYE; the responses are passed on
 * after an 8-byte compare), i.e. the raw scan and the admission sequence
 * (ovc_adm_decide() with the default algorithm, occ, accepting
 * everything), plus the receive-timestamp ioctl the age check makes per
 * initial INVITE. Calls are distinct (4096 Call-IDs, the decision memory's
 * clock moving so that every INVITE takes the whole sequence: hash,
 * memory probe, acceptor, memory store). Best of several rounds, one
 * thread: what shared counters cost across processes is not in it.
 *
 * The fair share (ovc/fair.h) is on as in the module: each request's
 * source key is hashed from its address (8 sources) and every new call's
 * INVITE is counted in the sketch and judged; "off" leaves it out (the
 * sequence as before it), "cut" runs it with a level that cuts the
 * sources (every INVITE then also takes the rate and pass decision, and
 * most are refused).
 *
 * Usage: admission_bench [calls per round] [on|off|cut] (default 1000000
 * on)
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

#include "ovc/admission.h"

#define NCALL 4096
#define ROUNDS 7

#include "uac_sdp.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int64_t no_age(void *ctx)
{
	return 0;
}

/* Best ns per receive-timestamp ioctl on a UDP socket that has received
 * a datagram; -1 where the kernel refuses. */
static double stamp_ns(long iters)
{
	struct sockaddr_in a;
	socklen_t alen = sizeof(a);
	struct timespec ts;
	double t0, best = 1e30, ns;
	char c = 'x';
	int rx, tx, round;
	long it;

	rx = socket(AF_INET, SOCK_DGRAM, 0);
	tx = socket(AF_INET, SOCK_DGRAM, 0);
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if(rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)&a, sizeof(a)) < 0
			|| getsockname(rx, (struct sockaddr *)&a, &alen) < 0
			|| sendto(tx, &c, 1, 0, (struct sockaddr *)&a, sizeof(a)) != 1
			|| recv(rx, &c, 1, 0) != 1
			|| ioctl(rx, SIOCGSTAMPNS, &ts) < 0)
		return -1;
	for(round = 0; round < ROUNDS; round++) {
		t0 = now_ns();
		for(it = 0; it < iters; it++)
			ioctl(rx, SIOCGSTAMPNS, &ts);
		ns = (now_ns() - t0) / (double)iters;
		if(ns < best)
			best = ns;
	}
	close(rx);
	close(tx);
	return best;
}

/* The fast path's work on one request: scan, then the sequence (src_ip:
 * its source address; hashed when the fair share is on). */
static unsigned one(const struct ovc_adm_state *st, struct ovc_adm_cfg *cfg,
		const struct ovc_adm_sources *src, const char *buf, size_t len,
		uint32_t src_ip)
{
	struct ovc_sip_scan sc;
	struct ovc_adm_verdict v;
	struct ovc_adm_req r;

	if(ovc_sip_scan(buf, len, &sc) != OVC_SCAN_OK)
		return 1000;
	r.c = sc.totag.len > 0 ? OVC_CLASS_INDIALOG
						   : (sc.method == OVC_M_INVITE ? OVC_CLASS_INVITE
														: OVC_CLASS_OTHER);
	r.m = sc.method;
	r.buf = buf;
	r.len = len;
	r.sc = &sc;
	r.ruri = buf + sc.ruri.off;
	r.ruri_len = sc.ruri.len;
	r.src = 1;
	r.fair_src = st->fair != NULL ? ovc_fair_key(&src_ip, sizeof(src_ip)) : 0;
	ovc_adm_decide(st, cfg, src, &r, &v);
	return (unsigned)v.act;
}

int main(int argc, char **argv)
{
	static char msg[3][NCALL][1024];
	static const char *const meth[3] = {"INVITE", "ACK", "BYE"};
	static size_t len[3][NCALL];
	struct ovc_rejmem *mem = malloc(sizeof(*mem));
	struct ovc_acceptor acc, acc_arrival;
	struct ovc_adm_state st;
	struct ovc_adm_cfg cfg;
	struct ovc_adm_sources src = {NULL, no_age, NULL, NULL, NULL};
	long iters = argc > 1 ? atol(argv[1]) : 1000000;
	const char *fair = argc > 2 ? argv[2] : "on";
	struct ovc_fair *fr = malloc(sizeof(*fr));
	double t0, ns, best[3] = {1e30, 1e30, 1e30}, stamp;
	volatile unsigned sink = 0;
	int k, i, round;
	long it;

	if(mem == NULL || fr == NULL)
		return 1;
	for(k = 0; k < 3; k++)
		for(i = 0; i < NCALL; i++)
			len[k][i] = uac_make_req(msg[k][i], sizeof(msg[k][i]), i, meth[k]);
	ovc_rejmem_init(mem);
	ovc_acceptor_init(&acc, 1.0);
	ovc_acceptor_init(&acc_arrival, 1.0);
	st.mem = mem;
	st.acc = &acc;
	st.acc_arrival = &acc_arrival;
	st.emerg = NULL;
	st.secret = 0x0123456789abcdefULL;
	ovc_fair_init(fr);
	st.fair = strcmp(fair, "off") == 0 ? NULL : fr;
	memset(&cfg, 0, sizeof(cfg));
	cfg.t = ovc_alg_traits(OVC_ALG_OCC);
	cfg.max_age_ms = 100;
	cfg.overloaded = 1; /* the age check too */
	for(k = 0; k < 3; k++) {
		if(one(&st, &cfg, &src, msg[k][0], len[k][0], 0x7f000001)
				!= OVC_ADM_ADMIT) {
			fprintf(stderr, "%s of the corpus is not admitted\n", meth[k]);
			return 1;
		}
	}
	if(strcmp(fair, "cut") == 0) {
		/* every source at 1000 a second last epoch, the level at 100 */
		for(i = 0; i < 8 * 1000; i++)
			ovc_fair_count(&fr->sk, 0,
					ovc_fair_key(&(uint32_t){0x7f000001u + (uint32_t)(i & 7)},
							4));
		ovc_fair_rotate(fr);
		atomic_store(&fr->level, 100);
	}
	for(round = 0; round < ROUNDS; round++) {
		for(k = 0; k < 3; k++) {
			t0 = now_ns();
			for(it = 0; it < iters; it++) {
				i = (int)(it & (NCALL - 1));
				if(i == 0)
					cfg.now_s += OVC_ADM_MEMORY_S + 1; /* all new calls */
				sink += one(&st, &cfg, &src, msg[k][i], len[k][i],
						0x7f000001u + (uint32_t)(i & 7));
			}
			ns = (now_ns() - t0) / (double)iters;
			if(ns < best[k])
				best[k] = ns;
		}
	}
	stamp = stamp_ns(iters);
	printf("per request, ns (scan + admission sequence, occ, f = 1, fair"
		   " share %s):\n",
			fair);
	for(k = 0; k < 3; k++)
		printf("  %-6s %7.1f  (%zu bytes)\n", meth[k], best[k], len[k][0]);
	printf("receive-timestamp ioctl per initial INVITE, ns: %.1f\n", stamp);
	printf("per call (INVITE + ACK + BYE + ioctl), ns: %.1f\n",
			best[0] + best[1] + best[2] + (stamp > 0 ? stamp : 0));
	free(mem);
	free(fr);
	return sink == 0xffffffffu;
}
