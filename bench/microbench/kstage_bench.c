/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - microbenchmark of the kernel stage's socket filter as the kernel
 * runs it (BPF_PROG_TEST_RUN, the program the module loads): the time per
 * datagram of SIPp's uac scenario, as the kernel measures each run, for
 *   - a new call's initial INVITE at share 0 (scanned, its first sight
 *     noted in the seen table: the cost below capacity),
 *   - a retransmission of a call already noted, at share 0,
 *   - an initial INVITE dropped (share 1), a new call's and a
 *     retransmission's (its call noted already),
 *   - a BYE (in-dialog: an 8-byte compare).
 * New calls: NCALL distinct Call-IDs, one run each (the kernel's time of
 * that run); the others: NCALL runs of one datagram. Median of ROUNDS
 * rounds. Needs the privileges to load the program (root, or CAP_BPF and
 * CAP_PERFMON); says why and exits 2 otherwise.
 *
 * Usage: kstage_bench
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ovc/kstage_abi.h"
#include "ovc_kstage_bpf.h"

#define NCALL 20000
#define ROUNDS 5

#include "uac_sdp.h"

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static struct ovc_ksb k;
static char buf[2048];

/* Mean ns per run of NCALL distinct calls' method m, one run each. */
static double distinct(const char *m, int base)
{
	uint32_t kept, ns;
	double sum = 0;
	size_t n;
	int i;

	for(i = 0; i < NCALL; i++) {
		n = uac_make_req(buf, sizeof(buf), base + i, m);
		if(ovc_ksb_test_time(&k, buf, n, 1, &kept, &ns) < 0) {
			fprintf(stderr, "kstage_bench: %s\n", k.err);
			exit(1);
		}
		sum += ns;
	}
	return sum / NCALL;
}

/* Mean ns per run of one datagram (call i's method m) run NCALL times. */
static double repeated(const char *m, int i)
{
	uint32_t kept, ns;
	size_t n = uac_make_req(buf, sizeof(buf), i, m);

	if(ovc_ksb_test_time(&k, buf, n, NCALL, &kept, &ns) < 0) {
		fprintf(stderr, "kstage_bench: %s\n", k.err);
		exit(1);
	}
	return ns;
}

int main(void)
{
	double t[5][ROUNDS];
	static const char *const what[5] = {
			"initial INVITE, new call, share 0 (scan + first sight noted)",
			"initial INVITE, call noted already, share 0",
			"initial INVITE dropped, new call, share 1",
			"initial INVITE dropped, call noted already, share 1",
			"BYE (in-dialog)",
	};
	int r, w, rc;

	ovc_ksb_init(&k);
	rc = ovc_ksb_load(&k, 65536);
	if(rc < 0) {
		fprintf(stderr, "kstage_bench: cannot load the program: %s\n", k.err);
		return 2;
	}
	printf("kstage_bench: %u instructions, INVITE %zu bytes, %d datagrams"
		   " per figure, median of %d rounds\n",
			ovc_ksb_insns(), uac_make_req(buf, sizeof(buf), 0, "INVITE"), NCALL,
			ROUNDS);
	for(r = 0; r < ROUNDS; r++) {
		ovc_ksb_set_share(&k, 0);
		t[0][r] = distinct("INVITE", (r + 1) * NCALL * 4);
		t[1][r] = repeated("INVITE", (r + 1) * NCALL * 4);
		ovc_ksb_set_share(&k, OVC_KS_ONE);
		t[2][r] = distinct("INVITE", (r + 1) * NCALL * 4 + NCALL);
		t[3][r] = repeated("INVITE", (r + 1) * NCALL * 4 + NCALL);
		t[4][r] = repeated("BYE", 7);
	}
	for(w = 0; w < 5; w++) {
		qsort(t[w], ROUNDS, sizeof(double), cmp);
		printf("  %-62s %7.0f ns\n", what[w], t[w][ROUNDS / 2]);
	}
	ovc_ksb_close(&k);
	return 0;
}
