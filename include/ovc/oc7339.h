/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - RFC 7339's overload control Via parameters (SIP Overload Control,
 * §4-§6), read from and written into raw SIP messages:
 *
 *   oc          = "oc" [EQUAL oc-num]          oc-num = 1*DIGIT (0-100)
 *   oc-validity = "oc-validity" [EQUAL delta-ms]   delta-ms = 1*DIGIT
 *   oc-seq      = "oc-seq" EQUAL 1*12DIGIT "." 1*5DIGIT
 *                 (1*12DIGIT alone read as whole seconds: servers that
 *                 send an integer interoperate)
 *   oc-algo     = "oc-algo" EQUAL DQUOTE algo-list *(COMMA algo-list)
 *                 DQUOTE                       algo-list = "loss" / token
 *
 * A client offers overload control by inserting "oc" (no value) and the
 * algorithms it supports (oc-algo="loss") in the Via of a request it
 * sends; a server that supports it answers in the same Via of the
 * response: oc=<percent of requests to drop> for "loss", the algorithm it
 * chose, how long the value holds (oc-validity, ms; absent: 500 ms, 0:
 * overload control stops) and a sequence (oc-seq, a timestamp with up to
 * five decimals) that increases with each new value. Parameter names are
 * case-insensitive; a malformed value is ignored, never an error; nothing
 * here allocates or reads past the length it is given. libc only.
 */
#ifndef OVC_OC7339_H
#define OVC_OC7339_H

#include <stddef.h>
#include <stdint.h>

#include "ovc/types.h"

/* oc-validity when a response carries a value without one, ms (§5.2). */
#define OVC_OC_VALIDITY_DEFAULT_MS 500

/* Largest oc-validity read, ms (one minute): a longer one is read as
 * this. A server refreshes its value with each response (ovc's every
 * 2 s), so a minute outlasts any gap between them; what it bounds is how
 * long one value, stale or wrong, can hold once its server fell silent,
 * and how long its oc-seq orders the next ones (ovc/nexthop.h). RFC 7339
 * sets no upper bound. */
#define OVC_OC_VALIDITY_MAX_MS 60000

/* oc-seq as an integer: seconds * OVC_OC_SEQ_FRAC + the five decimals
 * ("1282321615.782" is 1282321615 * 100000 + 78200). 0: none. */
#define OVC_OC_SEQ_FRAC UINT64_C(100000)

/* Algorithms named in oc-algo (bits of ovc_oc_via.algos). */
#define OVC_OC_ALGO_LOSS 0x1u  /* "loss", the mandatory one (§5.5) */
#define OVC_OC_ALGO_OTHER 0x2u /* any other token */

/* The overload control parameters of one Via. */
struct ovc_oc_via
{
	int oc;				 /* 1: the "oc" parameter is present */
	int value;			 /* its value, 0-100; -1: none (an offer) or
							malformed */
	unsigned algos;		 /* OVC_OC_ALGO_* listed in oc-algo; 0: none */
	int64_t validity_ms; /* oc-validity, ms, at most
							OVC_OC_VALIDITY_MAX_MS; -1: absent or
							malformed */
	uint64_t seq;		 /* oc-seq (OVC_OC_SEQ_FRAC units); 0: absent
							or malformed */
	const char *branch;	 /* that Via's branch value (in the message
							read); NULL: none */
	size_t branch_len;	 /* its bytes */
	int has_token;		 /* 1: a well-formed OVC_OC_TOKEN_PARAM */
	uint64_t token;		 /* its value (ovc/octoken.h) */
};

/* The Via parameter that carries ovc's token (ovc/octoken.h): 16
 * hexadecimal digits. */
#define OVC_OC_TOKEN_PARAM "ovct"

/* What a server writes into the Via of its response. */
struct ovc_oc_fb
{
	unsigned reduction;	  /* oc: percent of requests to drop, 0-100 */
	unsigned validity_ms; /* oc-validity, ms */
	uint64_t seq;		  /* oc-seq (OVC_OC_SEQ_FRAC units), > 0 */
};

/* Clears *oc (no parameter: oc 0, value -1, validity -1, seq 0, no
 * branch, no token). */
void ovc_oc_via_clear(struct ovc_oc_via *oc);

/* Takes one Via parameter, name (nlen bytes) with its value (vlen bytes,
 * val NULL when it has none; quotes included for oc-algo), into *oc when
 * it is one of RFC 7339's: returns 1 (an oc parameter, even with a
 * malformed value, which leaves the field at its "absent" value) or 0 (not
 * one of them; *oc unchanged). */
int ovc_oc_param(const char *name, size_t nlen, const char *val, size_t vlen,
		struct ovc_oc_via *oc);

/* Reads the overload control parameters of the first Via (the top one:
 * the first via-parm of the first Via or v header) of the SIP message
 * msg (len bytes) into *oc, with its branch and ovc's token. Returns 1
 * when that Via has "oc", 0 (*oc cleared) when it has not or the message
 * has no Via that can be read (its line cut short, or not sent-protocol
 * sent-by *(;param)). */
int ovc_oc_read_top_via(const char *msg, size_t len, struct ovc_oc_via *oc);

/* Server side: the response msg (len bytes) whose top Via carries "oc"
 * rewritten into out (size bytes, not overlapping msg) with that Via's
 * oc, oc-algo, oc-validity and oc-seq replaced by fb's (oc-algo="loss"),
 * written where "oc" was, every other byte as it was. A Via with "oc" and
 * no (or a malformed) oc-algo offers "loss", the mandatory algorithm.
 * Returns the length written, 0 when the top Via has no "oc" or its client
 * did not offer "loss" (nothing to do, out untouched), OVC_EINVAL when msg
 * is not a response with a readable top Via (a status line "SIP/2.0 ",
 * its first Via header's line complete) or fb is out of range (reduction
 * over 100, seq 0 or beyond 12 digits of seconds), or OVC_EFULL when out
 * is too small (out untouched). */
int ovc_oc_feedback(const char *msg, size_t len, const struct ovc_oc_fb *fb,
		char *out, size_t size);

/* Client side: the request msg (len bytes) with ";oc;oc-algo=\"loss\""
 * appended to the parameters of its top Via (before a comma to the next
 * via-parm or the line's end), into out (size bytes, not overlapping msg);
 * a stray oc-algo, oc-validity or oc-seq that Via had without "oc" is
 * dropped. Returns the length written, 0 when that Via has "oc" already
 * (out untouched), OVC_EINVAL when msg is not a request with a readable
 * top Via, or OVC_EFULL when out is too small (out untouched). */
int ovc_oc_announce(const char *msg, size_t len, char *out, size_t size);

/* ovc_oc_announce() with the parameters extra (elen bytes, at most
 * OVC_OC_EXTRA_MAX, e.g. ";ovct=...") written after the offer; a stray
 * OVC_OC_TOKEN_PARAM that Via had is dropped too. extra NULL: none.
 * OVC_EINVAL also when elen is over OVC_OC_EXTRA_MAX. */
int ovc_oc_announce_extra(const char *msg, size_t len, const char *extra,
		size_t elen, char *out, size_t size);

/* Reads the branch of the top Via of msg (len bytes) into *branch and
 * *blen (NULL, 0 when it has none). Returns 1, or 0 when msg has no top
 * Via that can be read (ovc_oc_read_top_via()). */
int ovc_oc_top_branch(
		const char *msg, size_t len, const char **branch, size_t *blen);

/* Longest extra of ovc_oc_announce_extra(), bytes. */
#define OVC_OC_EXTRA_MAX 40

/* Extra bytes ovc_oc_feedback() or ovc_oc_announce() may add to a
 * message. */
#define OVC_OC_GROWTH 96

/* oc-seq for the wall-clock time t_ns (ns since the epoch): seconds and
 * five decimals (truncated); 0 for t_ns <= 0. */
uint64_t ovc_oc_seq_from_ns(int64_t t_ns);

/* Writes seq as oc-seq's text ("1282321615.78200") into buf (size bytes,
 * terminated). Returns its length, or 0 when buf is too small. */
size_t ovc_oc_seq_print(uint64_t seq, char *buf, size_t size);

#endif
