/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - libFuzzer target for RFC 7339's Via parameters (src/oc7339.c)
 * and ovc's token in them (src/octoken.c).
 *
 * Reads the input's top Via, offers and answers overload control in it
 * (each in an exact-size copy, so ASan sees any overread) and checks that
 * what was written reads back (the token verifying for its destination
 * only), that a small output gets OVC_EFULL with nothing written, and
 * that a rewrite grows the message by at most OVC_OC_GROWTH. Any violated invariant aborts. Built and run by
 * tests/fuzz/fuzz.mk: make check-fuzz (every seed once, then a short
 * exploration), make fuzz-oc7339 (FUZZ_TIME seconds) over RFC 7339's
 * examples (tests/fuzz/seeds-oc7339), tests/fuzz/seeds and RFC 4475.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ovc/oc7339.h"
#include "ovc/octoken.h"
#include "ovc/types.h"

#define GUARD 0x5a

static void check(int cond)
{
	if(!cond)
		abort();
}

static void check_untouched(const char *b, size_t n)
{
	size_t i;

	for(i = 0; i < n; i++)
		check((unsigned char)b[i] == GUARD);
}

/* a rewrite r of msg (n bytes) into out: in range, nothing past it
 * written, and a smaller out refused untouched */
static void check_rewrite(int r, size_t n, const char *out, size_t size)
{
	check(r == 0 || r == OVC_EINVAL || r > 0);
	if(r <= 0)
		return;
	check((size_t)r <= n + OVC_OC_GROWTH && (size_t)r <= size);
	check_untouched(out + r, size - (size_t)r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[65536 + OVC_OC_GROWTH], small[64];
	static const struct ovc_oc_fb fb = {37, 750, UINT64_C(128232161578200)};
	static const struct ovc_oct_key key = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
			11, 12, 13, 14, 15, 16}};
	struct ovc_oc_via oc;
	char *buf, *w;
	int r, a;

	if(size > 65536)
		return 0;
	buf = malloc(size ? size : 1);
	if(buf == NULL)
		return 0;
	memcpy(buf, data, size);

	r = ovc_oc_read_top_via(buf, size, &oc);
	check(r == 0 || r == 1);
	check(r == oc.oc);
	check(oc.value >= -1 && oc.value <= 100);
	check(oc.validity_ms >= -1 && oc.validity_ms <= OVC_OC_VALIDITY_MAX_MS);
	check(oc.algos <= (OVC_OC_ALGO_LOSS | OVC_OC_ALGO_OTHER));
	if(r == 0)
		check(oc.value == -1 && oc.algos == 0 && oc.seq == 0);

	/* server: what it writes reads back */
	memset(out, GUARD, sizeof(out));
	r = ovc_oc_feedback(buf, size, &fb, out, sizeof(out));
	check_rewrite(r, size, out, sizeof(out));
	if(r > 0) {
		w = malloc((size_t)r);
		check(w != NULL);
		memcpy(w, out, (size_t)r);
		check(ovc_oc_read_top_via(w, (size_t)r, &oc) == 1);
		check(oc.value == 37 && oc.algos == OVC_OC_ALGO_LOSS
				&& oc.validity_ms == 750 && oc.seq == fb.seq);
		free(w);
		memset(small, GUARD, sizeof(small));
		a = ovc_oc_feedback(buf, size, &fb, small, sizeof(small));
		if((size_t)r > sizeof(small)) {
			check(a == OVC_EFULL);
			check_untouched(small, sizeof(small));
		} else {
			check(a == r && memcmp(small, out, (size_t)r) == 0);
		}
	}

	/* client: what it offers reads back, and is not offered twice */
	memset(out, GUARD, sizeof(out));
	a = ovc_oc_announce(buf, size, out, sizeof(out));
	check_rewrite(a, size, out, sizeof(out));
	if(a > 0) {
		check(r == OVC_EINVAL); /* a request, never a response */
		w = malloc((size_t)a);
		check(w != NULL);
		memcpy(w, out, (size_t)a);
		check(ovc_oc_read_top_via(w, (size_t)a, &oc) == 1);
		check(oc.value == -1 && oc.algos == OVC_OC_ALGO_LOSS);
		check(ovc_oc_announce(w, (size_t)a, out, sizeof(out)) == 0);
		free(w);
	}

	/* client with its token: it reads back and verifies for its
	 * destination only */
	memset(out, GUARD, sizeof(out));
	a = ovc_oct_announce(&key, "udp:192.0.2.7:5060", 18, buf, size, out,
			sizeof(out));
	check_rewrite(a, size, out, sizeof(out));
	if(a > 0) {
		w = malloc((size_t)a);
		check(w != NULL);
		memcpy(w, out, (size_t)a);
		check(ovc_oc_read_top_via(w, (size_t)a, &oc) == 1);
		check(oc.has_token == 1);
		check(ovc_oct_verify(&key, &oc, "udp:192.0.2.7:5060", 18) == 1);
		check(ovc_oct_verify(&key, &oc, "udp:192.0.2.7:5061", 18) == 0);
		free(w);
	}
	free(buf);
	return 0;
}
