/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the kernel stage's view of a datagram: is it an initial INVITE,
 * and under which key (a hash of its Call-ID) would ovc have remembered
 * admitting it? One definition, compiled twice: by clang -target bpf into
 * the socket filter (modules/ovc/bpf/ovc_kstage.bpf.c) and by the host
 * compiler into the unit tests, so the tests run the code the kernel runs.
 * No includes, no libc: loops with constant bounds, indices masked into
 * the scanned buffer so that the verifier can prove every access.
 *
 * The scan is deliberately cautious: a datagram it cannot judge within
 * its bounds is OVC_KS_UNSURE, which the filter always passes.
 */
#ifndef OVC_KSTAGE_SCAN_H
#define OVC_KSTAGE_SCAN_H

/* Payload bytes the filter copies and scans (a power of two). */
#define OVC_KS_SCAN 1024u
#define OVC_KS_MASK (OVC_KS_SCAN - 1u)
/* Longest Call-ID hashed, bytes (longer: unsure). */
#define OVC_KS_CALLID_MAX 128u
/* Longest To value searched for a tag, bytes (longer: unsure). */
#define OVC_KS_TO_MAX 128u
/* Blanks skipped after the colon. */
#define OVC_KS_BLANK_MAX 8u

/* 64-bit FNV-1a over the Call-ID: the key of the admitted-calls map. */
#define OVC_KS_FNV_OFFSET 0xcbf29ce484222325ULL
#define OVC_KS_FNV_PRIME 0x100000001b3ULL

/* What the scan says of a datagram. */
enum ovc_ks_class
{
	OVC_KS_OTHER = 0,  /* not an initial INVITE: passes */
	OVC_KS_INVITE = 1, /* an initial INVITE (no To-tag); key set */
	OVC_KS_UNSURE = 2, /* starts "INVITE " but cannot be judged within the
						  bounds: passes */
};

/* The scan's working memory: the payload's first bytes and what the scan
 * found (in the filter, one per-CPU map value). What a header line says
 * is added into memory without a branch: the verifier then sees the same
 * state after each line whatever the line was, and the 1024-byte loop
 * stays cheap to verify (one pending branch per byte). */
struct ovc_ks_work
{
	unsigned char b[OVC_KS_SCAN + 16]; /* payload bytes [0, n), then
										  room for the 8-byte looks */
	unsigned int to_at;				   /* offset just past "To:" / "t:" (sum) */
	unsigned int cid_at;	/* offset just past "Call-ID:" / "i:" (sum) */
	unsigned int n_to;		/* To headers seen */
	unsigned int n_cid;		/* Call-ID headers seen */
	unsigned int last;		/* 1: the previous line was To or Call-ID */
	unsigned int bad;		/* a To or Call-ID line was folded; then "tag"
							seen, then a bad Call-ID byte seen */
	unsigned int end;		/* the empty line ending the headers was seen */
	unsigned int n;			/* payload bytes in b */
	unsigned long long key; /* the Call-ID's hash (OVC_KS_INVITE) */
};

#ifndef OVC_KS_INLINE
#define OVC_KS_INLINE static inline __attribute__((always_inline))
#endif

/* The compiler must not see through x: it would turn the arithmetic
 * below back into comparisons, and BPF has no instruction that makes a
 * value of a comparison without a branch. */
#define OVC_KS_OPAQUE(x) __asm__ volatile("" : "+r"(x))

/* 1 when a == b, else 0, for 32-bit values, without a branch. */
OVC_KS_INLINE unsigned long long ovc_ks_eq(unsigned a, unsigned b)
{
	unsigned long long x = (unsigned long long)(a ^ b);

	OVC_KS_OPAQUE(x);
	return (x - 1ULL) >> 63;
}

/* 1 when a < b, else 0, for 32-bit values, without a branch. */
OVC_KS_INLINE unsigned long long ovc_ks_lt(unsigned a, unsigned b)
{
	unsigned long long x = (unsigned long long)a - (unsigned long long)b;

	OVC_KS_OPAQUE(x);
	return x >> 63;
}

/* Lower case of an ASCII letter, anything else unchanged. */
OVC_KS_INLINE unsigned ovc_ks_lower(unsigned c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* Notes line j of w (n bytes) when nl is 1 (a LF precedes j), nothing
 * when nl is 0, without a branch on the data. A header is recognised
 * only in the forms "To:", "t:", "Call-ID:", "i:" (any case, no blank
 * before the colon): another
 * spelling leaves the datagram without To or Call-ID, hence unsure. */
OVC_KS_INLINE void ovc_ks_line(volatile struct ovc_ks_work *w, unsigned j,
		unsigned n, unsigned long long nl)
{
	const volatile unsigned char *p = w->b + (j & OVC_KS_MASK);
	unsigned long long live, fold, to3, to2, cid8, cid2;
	unsigned lo, hi, c0 = p[0];

	/* the first 8 bytes, letters in lower case (| 0x20 changes neither
	 * ':' nor '-') */
	lo = (unsigned)p[0] | (unsigned)p[1] << 8 | (unsigned)p[2] << 16
		 | (unsigned)p[3] << 24;
	hi = (unsigned)p[4] | (unsigned)p[5] << 8 | (unsigned)p[6] << 16
		 | (unsigned)p[7] << 24;
	lo |= 0x20202020u;
	hi |= 0x20202020u;
	/* a line counts while within n and before the end of the headers */
	live = nl & ovc_ks_lt(j, n) & ovc_ks_eq(w->end, 0);
	to3 = ovc_ks_eq(lo & 0xffffffu, 0x3a6f74u); /* "to:" */
	to2 = ovc_ks_eq(lo & 0xffffu, 0x3a74u);		/* "t:" */
	cid8 = ovc_ks_eq(lo, 0x6c6c6163u) & ovc_ks_eq(hi, 0x3a64692du);
	cid2 = ovc_ks_eq(lo & 0xffffu, 0x3a69u); /* "i:" */
	fold = ovc_ks_eq(c0, ' ') | ovc_ks_eq(c0, '\t');
	w->end += (unsigned)(live & (ovc_ks_eq(c0, '\r') | ovc_ks_eq(c0, '\n')));
	w->bad += (unsigned)(live & fold & w->last);
	w->n_to += (unsigned)(live & (to3 | to2));
	w->n_cid += (unsigned)(live & (cid8 | cid2));
	w->to_at += (unsigned)(live * (to3 * (j + 3) + to2 * (j + 2)));
	w->cid_at += (unsigned)(live * (cid8 * (j + 8) + cid2 * (j + 2)));
	/* a folded line continues the header before it; no line here (live
	 * 0) leaves it as it was */
	w->last = (unsigned)((live & (to3 | to2 | cid8 | cid2))
						 | (live & fold & w->last) | ((live ^ 1) & w->last));
}

/* Offset of the first byte at or after at that is no blank (at most
 * OVC_KS_BLANK_MAX skipped). */
OVC_KS_INLINE unsigned ovc_ks_skip(
		volatile struct ovc_ks_work *w, unsigned at, unsigned n)
{
	unsigned k, c;

	unsigned p = at;

	for(k = 0; k < OVC_KS_BLANK_MAX; k++) {
		p = at + k;
		OVC_KS_OPAQUE(p); /* k stays the loop's counter */
		if(p >= n)
			break;
		c = w->b[p & OVC_KS_MASK];
		if(c != ' ' && c != '\t')
			break;
	}
	return p;
}

/* 1 when the three bytes at p spell "tag" (any case), without a branch. */
OVC_KS_INLINE unsigned long long ovc_ks_tag3(
		volatile struct ovc_ks_work *w, unsigned p)
{
	const volatile unsigned char *q = w->b + (p & OVC_KS_MASK);

	return ovc_ks_eq(q[0] | 0x20u, 't') & ovc_ks_eq(q[1] | 0x20u, 'a')
		   & ovc_ks_eq(q[2] | 0x20u, 'g');
}

/* Does the To value at offset at (n bytes) say "tag" anywhere (any case)?
 * Returns 1 yes (in-dialog, or could be), 0 no, -1 unsure (no CR within
 * OVC_KS_TO_MAX bytes and n). */
OVC_KS_INLINE int ovc_ks_to_tagged(
		volatile struct ovc_ks_work *w, unsigned at, unsigned n)
{
	unsigned k, p;

	w->bad = 0; /* "tag" seen (in memory: see struct ovc_ks_work) */
	for(k = 0; k < OVC_KS_TO_MAX; k++) {
		p = at + k;
		OVC_KS_OPAQUE(p); /* k stays the loop's counter */
		if(p >= n)
			return -1;
		if(w->b[p & OVC_KS_MASK] == '\r')
			return w->bad != 0;
		w->bad |= (unsigned)ovc_ks_tag3(w, p);
	}
	return -1;
}

/* Hashes the Call-ID value at offset at into w->key. Returns 0, or -1
 * when it is empty, longer than OVC_KS_CALLID_MAX, holds a blank or a
 * control byte (trailing blanks included), or runs past n. */
OVC_KS_INLINE int ovc_ks_callid(
		volatile struct ovc_ks_work *w, unsigned at, unsigned n)
{
	unsigned k, c, p;

	/* the hash and the verdict on the bytes in memory, not in variables
	 * (see struct ovc_ks_work) */
	w->key = OVC_KS_FNV_OFFSET;
	w->bad = 0;
	for(k = 0; k <= OVC_KS_CALLID_MAX; k++) {
		p = at + k;
		OVC_KS_OPAQUE(p); /* k stays the loop's counter */
		if(p >= n)
			return -1;
		c = w->b[p & OVC_KS_MASK];
		if(c == '\r')
			return k == 0 || w->bad != 0 ? -1 : 0;
		w->bad |= (unsigned)(ovc_ks_lt(c, 0x21) | ovc_ks_lt(0x7e, c));
		w->key = (w->key ^ c) * OVC_KS_FNV_PRIME;
	}
	return -1;
}

/* Classifies the n payload bytes in w->b (n <= OVC_KS_SCAN). An initial
 * INVITE (OVC_KS_INVITE) starts "INVITE " with a Request-URI that is no
 * URN (emergency service URNs, RFC 5031, always pass), carries exactly one
 * To without "tag" in its value and exactly one Call-ID, both unfolded,
 * before the end of the headers, all within the first n bytes. */
OVC_KS_INLINE int ovc_ks_classify(volatile struct ovc_ks_work *w, unsigned n)
{
	unsigned i;
	int r;

	if(n < 12 || n > OVC_KS_SCAN || w->b[0] != 'I' || w->b[1] != 'N'
			|| w->b[2] != 'V' || w->b[3] != 'I' || w->b[4] != 'T'
			|| w->b[5] != 'E' || w->b[6] != ' ')
		return OVC_KS_OTHER;
	if(ovc_ks_lower(w->b[7]) == 'u' && ovc_ks_lower(w->b[8]) == 'r'
			&& ovc_ks_lower(w->b[9]) == 'n' && w->b[10] == ':')
		return OVC_KS_OTHER;
	w->to_at = 0;
	w->cid_at = 0;
	w->n_to = 0;
	w->n_cid = 0;
	w->last = 0;
	w->bad = 0;
	w->end = 0;
	w->n = n;
	/* every byte after a LF starts a line: each position is looked at,
	 * weighted by whether a LF precedes it, so that the loop has no branch
	 * on the data (a branch per byte costs the verifier a state per byte
	 * and path) */
	for(i = 1; i < OVC_KS_SCAN; i++) {
		if(i >= n)
			break;
		ovc_ks_line(w, i, n, ovc_ks_eq(w->b[(i - 1) & OVC_KS_MASK], '\n'));
	}
	/* what the loop learnt of n and i is dropped here (n read back from
	 * memory), so that the verifier meets one state after it, not one
	 * per exit */
	n = w->n;
	if(w->end == 0 || w->bad != 0 || w->n_to != 1 || w->n_cid != 1)
		return OVC_KS_UNSURE;
	w->to_at = ovc_ks_skip(w, w->to_at & OVC_KS_MASK, n);
	n = w->n;
	r = ovc_ks_to_tagged(w, w->to_at & OVC_KS_MASK, n);
	if(r != 0)
		return r > 0 ? OVC_KS_OTHER : OVC_KS_UNSURE;
	n = w->n; /* again: to_tagged's exits refined it */
	w->cid_at = ovc_ks_skip(w, w->cid_at & OVC_KS_MASK, n);
	n = w->n;
	if(ovc_ks_callid(w, w->cid_at & OVC_KS_MASK, n) < 0)
		return OVC_KS_UNSURE;
	return OVC_KS_INVITE;
}

#endif
