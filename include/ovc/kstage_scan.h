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
 * found (in the filter, one per-CPU map value). The scan keeps its state
 * here, not in variables: what the verifier knows of a value read back
 * from a map is nothing, so the states it meets at a loop's head or
 * after a loop's exits are alike and pruned, and verifying the scan
 * costs about its length, not its number of paths. */
struct ovc_ks_work
{
	union
	{
		unsigned char b[OVC_KS_SCAN + 16]; /* payload bytes [0, n), then
											  room for the 8-byte looks */
		unsigned long long q[(OVC_KS_SCAN + 16) / 8]; /* the same, in
														 8-byte words */
	};
	unsigned int to_at;		/* offset just past "To:" / "t:" */
	unsigned int cid_at;	/* offset just past "Call-ID:" / "i:" */
	unsigned int n_to;		/* To headers seen */
	unsigned int n_cid;		/* Call-ID headers seen */
	unsigned int last;		/* 1: the previous line was To or Call-ID */
	unsigned int bad;		/* a To or Call-ID line was folded */
	unsigned int end;		/* the empty line ending the headers was seen */
	unsigned int n;			/* payload bytes in b */
	unsigned long long key; /* the Call-ID's hash (OVC_KS_INVITE) */
};

#ifndef OVC_KS_INLINE
#define OVC_KS_INLINE static inline __attribute__((always_inline))
#endif

/* The compiler must not see through x: it keeps a loop's counter apart
 * from the offsets computed from it, so that the verifier can bound the
 * loop. */
#define OVC_KS_OPAQUE(x) __asm__ volatile("" : "+r"(x))

/* Lower case of an ASCII letter, anything else unchanged. */
OVC_KS_INLINE unsigned ovc_ks_lower(unsigned c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* Notes the line that starts at offset j (a LF at j - 1, j < n). A header
 * is recognised only in the forms "To:", "t:", "Call-ID:", "i:" (any
 * case, no blank before the colon): another spelling leaves the datagram
 * without To or Call-ID, hence unsure. */
OVC_KS_INLINE void ovc_ks_line(volatile struct ovc_ks_work *w, unsigned j)
{
	const volatile unsigned char *p = w->b + (j & OVC_KS_MASK);
	unsigned lo, hi, c0 = p[0];

	if(c0 == '\r' || c0 == '\n') {
		w->end = 1;
		return;
	}
	if(c0 == ' ' || c0 == '\t') {
		w->bad |= w->last; /* a folded To or Call-ID */
		return;
	}
	/* the first 8 bytes, letters in lower case (| 0x20 changes neither
	 * ':' nor '-') */
	lo = (unsigned)p[0] | (unsigned)p[1] << 8 | (unsigned)p[2] << 16
		 | (unsigned)p[3] << 24;
	hi = (unsigned)p[4] | (unsigned)p[5] << 8 | (unsigned)p[6] << 16
		 | (unsigned)p[7] << 24;
	lo |= 0x20202020u;
	hi |= 0x20202020u;
	w->last = 1;
	if((lo & 0xffffffu) == 0x3a6f74u) { /* "to:" */
		w->n_to++;
		w->to_at = j + 3;
	} else if((lo & 0xffffu) == 0x3a74u) { /* "t:" */
		w->n_to++;
		w->to_at = j + 2;
	} else if(lo == 0x6c6c6163u && hi == 0x3a64692du) { /* "call-id:" */
		w->n_cid++;
		w->cid_at = j + 8;
	} else if((lo & 0xffffu) == 0x3a69u) { /* "i:" */
		w->n_cid++;
		w->cid_at = j + 2;
	} else {
		w->last = 0;
	}
}

/* 1 when the 8-byte word x holds a LF. */
OVC_KS_INLINE int ovc_ks_has_lf(unsigned long long x)
{
	x ^= 0x0a0a0a0a0a0a0a0aULL;
	return ((x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL) != 0;
}

/* Notes every line that starts within the first n bytes, up to the empty
 * line ending the headers: 8 bytes per step, and a look at each byte only
 * in the words that hold a LF. */
OVC_KS_INLINE void ovc_ks_lines(volatile struct ovc_ks_work *w)
{
	unsigned i, k, p;

	for(i = 0; i < OVC_KS_SCAN / 8; i++) {
		p = i * 8;
		OVC_KS_OPAQUE(p); /* i stays the loop's counter */
		if(p + 1 >= w->n || w->end != 0)
			break;
		if(!ovc_ks_has_lf(w->q[i]))
			continue;
		for(k = 0; k < 8; k++) {
			/* a line starts at p + 1 when it is below n */
			if(p + k + 1 >= w->n || w->end != 0)
				break;
			if(w->b[(p + k) & OVC_KS_MASK] == '\n')
				ovc_ks_line(w, p + k + 1);
		}
	}
}

/* Offset of the first byte at or after at that is no blank (at most
 * OVC_KS_BLANK_MAX looked at: after as many blanks, the last of them). */
OVC_KS_INLINE unsigned ovc_ks_skip(volatile struct ovc_ks_work *w, unsigned at)
{
	unsigned k, c, p = at;

	for(k = 0; k < OVC_KS_BLANK_MAX; k++) {
		p = at + k;
		OVC_KS_OPAQUE(p); /* k stays the loop's counter */
		if(p >= w->n)
			break;
		c = w->b[p & OVC_KS_MASK];
		if(c != ' ' && c != '\t')
			break;
	}
	return p;
}

/* Does the To value at w->to_at say "tag" anywhere (any case)? Returns 1
 * yes (in-dialog, or could be), 0 no, -1 unsure (no CR within
 * OVC_KS_TO_MAX bytes and n). */
OVC_KS_INLINE int ovc_ks_to_tagged(volatile struct ovc_ks_work *w)
{
	const volatile unsigned char *q;
	unsigned k, p;

	for(k = 0; k < OVC_KS_TO_MAX; k++) {
		p = w->to_at + k;
		OVC_KS_OPAQUE(p); /* k stays the loop's counter */
		if(p >= w->n)
			return -1;
		q = w->b + (p & OVC_KS_MASK);
		if(q[0] == '\r')
			return 0;
		if((q[0] | 0x20u) == 't' && (q[1] | 0x20u) == 'a'
				&& (q[2] | 0x20u) == 'g')
			return 1;
	}
	return -1;
}

/* Hashes the Call-ID value at w->cid_at into w->key. Returns 0, or -1
 * when it is empty, longer than OVC_KS_CALLID_MAX, holds a blank or a
 * control byte (trailing blanks included), or runs past n. */
OVC_KS_INLINE int ovc_ks_callid(volatile struct ovc_ks_work *w)
{
	unsigned k, c, p;

	w->key = OVC_KS_FNV_OFFSET;
	for(k = 0; k <= OVC_KS_CALLID_MAX; k++) {
		p = w->cid_at + k;
		OVC_KS_OPAQUE(p); /* k stays the loop's counter */
		if(p >= w->n)
			return -1;
		c = w->b[p & OVC_KS_MASK];
		if(c == '\r')
			return k == 0 ? -1 : 0;
		if(c < 0x21 || c > 0x7e)
			return -1;
		w->key = (w->key ^ c) * OVC_KS_FNV_PRIME;
	}
	return -1;
}

/* Does the kernel drop the call whose Call-ID hashes to key, at a drop
 * share of drop (units of 2^-32, OVC_KS_ONE: all)? The share is taken of
 * calls, not of datagrams: a call's first INVITE and its retransmissions
 * meet the same verdict while the share holds, so a caller whose INVITE
 * passed is not refused on a retransmission, and one whose INVITE was
 * dropped does not get in late (after T1) on a retransmission. The
 * Call-ID's FNV-1a hash is mixed once more (a Fibonacci multiply) and its
 * high 32 bits compared with the share. 1: drop, 0: pass. */
OVC_KS_INLINE int ovc_ks_call_dropped(
		unsigned long long key, unsigned long long drop)
{
	return ((key * 0x9e3779b97f4a7c15ULL) >> 32) < drop;
}

/* Classifies the n payload bytes in w->b (n <= OVC_KS_SCAN). An initial
 * INVITE (OVC_KS_INVITE) starts "INVITE " with a Request-URI that is no
 * URN (emergency service URNs, RFC 5031, always pass), carries exactly one
 * To without "tag" in its value and exactly one Call-ID, both unfolded,
 * before the end of the headers, all within the first n bytes. The
 * offsets found are kept in w and read back between the steps: see
 * struct ovc_ks_work. */
OVC_KS_INLINE int ovc_ks_classify(volatile struct ovc_ks_work *w, unsigned n)
{
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
	ovc_ks_lines(w);
	if(w->end == 0 || w->bad != 0 || w->n_to != 1 || w->n_cid != 1)
		return OVC_KS_UNSURE;
	w->to_at = ovc_ks_skip(w, w->to_at & OVC_KS_MASK);
	r = ovc_ks_to_tagged(w);
	if(r != 0)
		return r > 0 ? OVC_KS_OTHER : OVC_KS_UNSURE;
	w->cid_at = ovc_ks_skip(w, w->cid_at & OVC_KS_MASK);
	if(ovc_ks_callid(w) < 0)
		return OVC_KS_UNSURE;
	return OVC_KS_INVITE;
}

#endif
