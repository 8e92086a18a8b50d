/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the kernel stage's view of a datagram: is it an initial INVITE,
 * and under which key would ovc have remembered admitting it? One
 * definition, compiled twice: by clang -target bpf into the socket filter
 * (kstage/ovc_kstage.bpf.c) and by the host compiler into the
 * module (its call key) and the unit tests, so the tests run the code the
 * kernel runs. No includes, no libc: loops with constant bounds, indices
 * masked into the scanned buffer so that the verifier can prove every
 * access.
 *
 * What it takes for an INVITE is what Kamailio (5.6, parse_msg() and
 * parse_first_line()) takes for one: the method in any case ("invite",
 * "INVITe"), followed by one SP, after any CR, LF, NUL, SP or HT (at most
 * OVC_KS_LEAD_MAX of them here); header names in any case, compact or
 * not. Kamailio also takes blanks between a header name and its colon:
 * the scan does not look past them, and a To, Call-ID or Via so written
 * makes the datagram unsure.
 *
 * The key is the initial INVITE's transaction within its call: a hash of
 * its Call-ID and of its top Via header's value, whole (RFC 3261 17.2.3:
 * a retransmission repeats the top Via's branch and sent-by; a new branch
 * is a new request). One key serves the admitted-calls map, the drop
 * draw (ovc_ks_call_dropped()) and the seen table (ovc/kstage_seen.h):
 *   - every retransmission of an INVITE meets its first transmission's
 *     verdict, is spared once it was admitted, and has its first
 *     transmission's first sight (the module's late check works on
 *     retransmissions);
 *   - an INVITE that reuses an admitted call's Call-ID with a new branch
 *     or another sent-by (a replay, a new attempt after a 401/407) is
 *     neither spared nor dated by it: it draws anew and is first seen
 *     when it arrives;
 *   - a third party cannot make a victim's INVITE look late or admitted
 *     without sending, before the victim, the victim's own Call-ID and
 *     top Via (its branch unique and, in practice, random).
 * The Request-URI, the CSeq and the source address are not in the key: an
 * INVITE that repeats an admitted one's Call-ID and top Via is one tm
 * answers as a retransmission, and the filter spares it as one.
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
/* Longest top Via value hashed, bytes (longer: unsure). */
#define OVC_KS_VIA_MAX 256u
/* Blanks skipped after the colon. */
#define OVC_KS_BLANK_MAX 8u
/* Bytes Kamailio skips before the request line (CR, LF, NUL, SP, HT)
 * looked past (more: unsure). */
#define OVC_KS_LEAD_MAX 16u
/* Header lines judged (a power of two; more before the end of the
 * headers: unsure). */
#define OVC_KS_LINES 64u

/* 64-bit FNV-1a over the Call-ID, a LF and the top Via's value: the key
 * of the admitted-calls map, of the drop draw and of the seen table. */
#define OVC_KS_FNV_OFFSET 0xcbf29ce484222325ULL
#define OVC_KS_FNV_PRIME 0x100000001b3ULL

/* What the scan says of a datagram. */
enum ovc_ks_class
{
	OVC_KS_OTHER = 0,  /* not an initial INVITE: passes */
	OVC_KS_INVITE = 1, /* an initial INVITE (no To-tag); key set */
	OVC_KS_UNSURE = 2, /* an INVITE (or may be one) that cannot be judged
						  within the bounds: passes */
};

/* The scan's working memory: the payload's first bytes and what the scan
 * found (in the filter, one per-CPU map value). The scan keeps its state
 * here, not in variables: what the verifier knows of a value read back
 * from a map is nothing, so the states it meets at a loop's head or
 * after a loop's exits are alike and pruned, and verifying the scan
 * costs about its length, not its number of paths. The header lines are
 * judged from their offsets kept here (ls), so that the verifier walks
 * the judging of a line once per line, not once per byte a line might
 * start at. */
struct ovc_ks_work
{
	union
	{
		unsigned char b[OVC_KS_SCAN + 16]; /* payload bytes [0, n), then
											  room for the 8-byte looks */
		unsigned long long q[(OVC_KS_SCAN + 16) / 8]; /* the same, in
														 8-byte words */
	};
	unsigned int at;		/* offset of the request line */
	unsigned int to_at;		/* offset just past "To:" / "t:" */
	unsigned int cid_at;	/* offset just past "Call-ID:" / "i:" */
	unsigned int via_at;	/* offset just past the top "Via:" / "v:" */
	unsigned int n_to;		/* To headers seen */
	unsigned int n_cid;		/* Call-ID headers seen */
	unsigned int n_via;		/* Via headers seen */
	unsigned int last;		/* 1: the previous line was To, Call-ID or
							   the top Via */
	unsigned int bad;		/* one of them was folded, or a blank stood
							   before its colon */
	unsigned int end;		/* the empty line ending the headers was seen */
	unsigned int n;			/* payload bytes in b */
	unsigned int inv;		/* 1: the method is INVITE, or may be */
	unsigned int nl;		/* header lines found */
	unsigned short ls[OVC_KS_LINES]; /* the offsets they start at */
	unsigned long long key; /* the transaction's hash (OVC_KS_INVITE) */
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

/* 1 when Kamailio skips byte c before the request line (parse_msg()):
 * CR, LF, NUL, SP or HT. Without a branch (see ovc_ks_eol()). */
OVC_KS_INLINE unsigned ovc_ks_lead(unsigned c)
{
	OVC_KS_OPAQUE(c);
	return ((c - 64u) >> 31) & (unsigned)(0x100002601ULL >> (c & 63u)) & 1u;
}

/* 1 when the 7 bytes at p are "INVITE " with the method in any case
 * (Kamailio's IFISMETHOD()): | 0x20 lowers a letter and maps no other
 * byte to one; the SP must be one. */
OVC_KS_INLINE int ovc_ks_method(const volatile unsigned char *p)
{
	return (p[0] | 0x20u) == 'i' && (p[1] | 0x20u) == 'n'
		   && (p[2] | 0x20u) == 'v' && (p[3] | 0x20u) == 'i'
		   && (p[4] | 0x20u) == 't' && (p[5] | 0x20u) == 'e' && p[6] == ' ';
}

/* The filter's first look at a datagram's first 8 bytes p: 1 when it may
 * be an INVITE (it starts "INVITE " in any case, or with a byte Kamailio
 * skips before the request line), 0 when it is none. */
OVC_KS_INLINE int ovc_ks_may_invite(const volatile unsigned char *p)
{
	return ovc_ks_lead(p[0]) || ovc_ks_method(p);
}

/* What follows a header name of len bytes (1 to 3) whose bytes in lower
 * case are name, in a line's first 4 bytes lo (letters in lower case): 1
 * a colon, 2 a blank (| 0x20 makes SP of SP and NUL, ')' of HT and ')'),
 * 0 no such name. */
OVC_KS_INLINE unsigned ovc_ks_name(unsigned lo, unsigned name, unsigned len)
{
	unsigned c = (lo >> (8 * len)) & 0xffu;

	if((lo & ((1u << (8 * len)) - 1u)) != name)
		return 0;
	if(c == ':')
		return 1;
	return c == 0x20u || c == 0x29u ? 2 : 0;
}

/* Judges the header line that starts at offset j (a LF at j - 1, j < n,
 * the line no empty one). A header is recognised in the forms "To:",
 * "t:", "Call-ID:", "i:", "Via:", "v:" (any case); another spelling of To
 * or Call-ID leaves the datagram without them, hence unsure, and a blank
 * before the colon of one of them (which Kamailio takes) makes it
 * unsure. Of the Via headers the first one only is noted: its first
 * value is the top Via. */
OVC_KS_INLINE void ovc_ks_line(volatile struct ovc_ks_work *w, unsigned j)
{
	const volatile unsigned char *p = w->b + (j & OVC_KS_MASK);
	unsigned lo, hi, c0 = p[0], r, off = 0, h = 0;

	if(c0 == ' ' || c0 == '\t') {
		w->bad |= w->last; /* a folded To, Call-ID or top Via */
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
	w->last = 0;
	/* h: 1 To, 2 Call-ID, 3 Via; off: the colon's offset + 1 */
	if((r = ovc_ks_name(lo, 0x6f74u, 2)) != 0) { /* "to" */
		h = 1;
		off = 3;
	} else if((r = ovc_ks_name(lo, 0x74u, 1)) != 0) { /* "t" */
		h = 1;
		off = 2;
	} else if(lo == 0x6c6c6163u /* "call" */
			  && (r = ovc_ks_name(hi, 0x64692du, 3)) != 0) { /* "-id" */
		h = 2;
		off = 8;
	} else if((r = ovc_ks_name(lo, 0x69u, 1)) != 0) { /* "i" */
		h = 2;
		off = 2;
	} else if((r = ovc_ks_name(lo, 0x616976u, 3)) != 0) { /* "via" */
		h = 3;
		off = 4;
	} else if((r = ovc_ks_name(lo, 0x76u, 1)) != 0) { /* "v" */
		h = 3;
		off = 2;
	}
	if(h == 0)
		return;
	if(r == 2) {
		w->bad = 1;
		return;
	}
	if(h == 1) {
		w->n_to++;
		w->to_at = j + off;
		w->last = 1;
	} else if(h == 2) {
		w->n_cid++;
		w->cid_at = j + off;
		w->last = 1;
	} else if(w->n_via++ == 0) {
		w->via_at = j + off;
		w->last = 1;
	}
}

/* 1 when the 8-byte word x holds a LF. */
OVC_KS_INLINE int ovc_ks_has_lf(unsigned long long x)
{
	x ^= 0x0a0a0a0a0a0a0a0aULL;
	return ((x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL) != 0;
}

/* Notes the line that starts at offset j (a LF at j - 1, j < n): the end
 * of the headers when it is empty, else its offset in w->ls (nothing
 * before the request line's end). */
OVC_KS_INLINE void ovc_ks_mark(volatile struct ovc_ks_work *w, unsigned j)
{
	unsigned c0 = w->b[j & OVC_KS_MASK];

	if(j <= w->at)
		return; /* a blank line before the request line, or the line */
	if(c0 == '\r' || c0 == '\n') {
		w->end = 1;
		return;
	}
	w->ls[w->nl & (OVC_KS_LINES - 1u)] = (unsigned short)j;
	w->nl++;
}

/* Notes every line that starts within the first n bytes, up to the empty
 * line ending the headers: 8 bytes per step, and a look at each byte only
 * in the words that hold a LF. Then judges the lines noted, their offsets
 * read back from w (the verifier knows nothing of them: it meets one
 * state per line judged, not one per byte a line might start at). */
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
				ovc_ks_mark(w, p + k + 1);
		}
	}
	if(w->end == 0 || w->nl > OVC_KS_LINES)
		return;
	for(i = 0; i < OVC_KS_LINES; i++) {
		if(i >= w->nl)
			break;
		ovc_ks_line(w, w->ls[i]);
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

/* 1 when byte c is CR or LF, else 0. Without a branch: each branch the
 * verifier cannot decide in a loop's body is one more state it keeps
 * pending for each byte, and it keeps at most 8192 along one path. */
OVC_KS_INLINE unsigned ovc_ks_eol(unsigned c)
{
	OVC_KS_OPAQUE(c); /* the compiler must not turn it back into tests */
	return ((c - 14u) >> 31) & (0x2400u >> (c & 15u)) & 1u;
}

/* The scans of one header's value below run only once the end of the
 * headers was seen (ovc_ks_classify()): the line of every value noted
 * ends within the n bytes, so that they look for its end without
 * testing n (the index is masked into the buffer all the same). */

/* Does the To value at w->to_at say "tag" anywhere (any case)? Returns 1
 * yes (in-dialog, or could be), 0 no, -1 unsure (its line longer than
 * OVC_KS_TO_MAX bytes). */
OVC_KS_INLINE int ovc_ks_to_tagged(volatile struct ovc_ks_work *w)
{
	const volatile unsigned char *q;
	unsigned k, p;

	for(k = 0; k < OVC_KS_TO_MAX; k++) {
		p = w->to_at + k;
		OVC_KS_OPAQUE(p); /* k stays the loop's counter */
		q = w->b + (p & OVC_KS_MASK);
		if(ovc_ks_eol(q[0]))
			return 0;
		if((q[0] | 0x20u) == 't' && (q[1] | 0x20u) == 'a'
				&& (q[2] | 0x20u) == 'g')
			return 1;
	}
	return -1;
}

/* Hashes the Call-ID value at w->cid_at into w->key (up to the CR or LF
 * ending its line). Returns 0, or -1 when it is empty, longer than
 * OVC_KS_CALLID_MAX, or holds a blank or a control byte (trailing blanks
 * included). */
OVC_KS_INLINE int ovc_ks_callid(volatile struct ovc_ks_work *w)
{
	unsigned k, c, p;

	w->key = OVC_KS_FNV_OFFSET;
	for(k = 0; k <= OVC_KS_CALLID_MAX; k++) {
		p = w->cid_at + k;
		OVC_KS_OPAQUE(p); /* k stays the loop's counter */
		c = w->b[p & OVC_KS_MASK];
		if(c - 0x21u > 0x7eu - 0x21u) /* a blank, a control byte */
			return ovc_ks_eol(c) && k != 0 ? 0 : -1;
		w->key = (w->key ^ c) * OVC_KS_FNV_PRIME;
	}
	return -1;
}

/* Hashes a LF (which neither value holds) and the top Via's value at
 * w->via_at into w->key, after the Call-ID: the value whole, up to the CR
 * or LF ending its line, so that the key covers its branch and sent-by
 * and whatever else it says. Returns 0, or -1 when it is empty or longer
 * than OVC_KS_VIA_MAX. */
OVC_KS_INLINE int ovc_ks_via(volatile struct ovc_ks_work *w)
{
	unsigned k, c, p;

	w->key = (w->key ^ '\n') * OVC_KS_FNV_PRIME;
	for(k = 0; k <= OVC_KS_VIA_MAX; k++) {
		p = w->via_at + k;
		OVC_KS_OPAQUE(p); /* k stays the loop's counter */
		c = w->b[p & OVC_KS_MASK];
		if(ovc_ks_eol(c))
			return k == 0 ? -1 : 0;
		w->key = (w->key ^ c) * OVC_KS_FNV_PRIME;
	}
	return -1;
}

/* Offset of the request line in the n bytes in w->b: past the bytes
 * Kamailio skips before it (ovc_ks_lead()), at most OVC_KS_LEAD_MAX of
 * them. OVC_KS_LEAD_MAX + 1 when there are more; OVC_KS_SCAN when the n
 * bytes are all such bytes. */
OVC_KS_INLINE unsigned ovc_ks_start(volatile struct ovc_ks_work *w, unsigned n)
{
	unsigned k, p;

	for(k = 0; k <= OVC_KS_LEAD_MAX; k++) {
		p = k;
		OVC_KS_OPAQUE(p); /* k stays the loop's counter */
		if(p >= n)
			return OVC_KS_SCAN;
		if(!ovc_ks_lead(w->b[p & OVC_KS_MASK]))
			return p;
	}
	return OVC_KS_LEAD_MAX + 1;
}

/* Does the kernel drop the initial INVITE whose key (its Call-ID's and
 * top Via's hash) is key, at a drop share of drop (units of 2^-32,
 * OVC_KS_ONE: all)? The share is taken of calls' INVITEs, not of
 * datagrams: an INVITE and its retransmissions meet the same verdict
 * while the share holds, so a caller whose INVITE passed is not refused
 * on a retransmission, and one whose INVITE was dropped does not get in
 * late (after T1) on a retransmission; a new branch (a new attempt, a
 * replay) draws anew. The FNV-1a hash is mixed once more (a Fibonacci
 * multiply) and its high 32 bits compared with the share. 1: drop, 0:
 * pass. */
OVC_KS_INLINE int ovc_ks_call_dropped(
		unsigned long long key, unsigned long long drop)
{
	return ((key * 0x9e3779b97f4a7c15ULL) >> 32) < drop;
}

/* Classifies the n payload bytes in w->b (n <= OVC_KS_SCAN). An initial
 * INVITE (OVC_KS_INVITE) has the request line "INVITE " (any case, after
 * at most OVC_KS_LEAD_MAX bytes ovc_ks_lead()) with a Request-URI that
 * is no URN (emergency service URNs, RFC 5031, always pass), carries at
 * least one Via, exactly one To without "tag" in its value and exactly
 * one Call-ID, these and the first Via unfolded, before the end of the
 * headers, all within the first n bytes; its key is then in w->key.
 * w->inv says whether the method was INVITE (or may be: unsure). The
 * offsets found are kept in w and read back between the steps: see
 * struct ovc_ks_work. */
OVC_KS_INLINE int ovc_ks_classify(volatile struct ovc_ks_work *w, unsigned n)
{
	unsigned s;
	int r;

	w->inv = 0;
	if(n < 12 || n > OVC_KS_SCAN)
		return OVC_KS_OTHER;
	s = ovc_ks_start(w, n);
	if(s == OVC_KS_SCAN)
		return OVC_KS_OTHER;
	if(s > OVC_KS_LEAD_MAX) {
		w->inv = 1;
		return OVC_KS_UNSURE;
	}
	if(!ovc_ks_method(w->b + (s & OVC_KS_MASK)))
		return OVC_KS_OTHER;
	w->inv = 1;
	if(ovc_ks_lower(w->b[(s + 7) & OVC_KS_MASK]) == 'u'
			&& ovc_ks_lower(w->b[(s + 8) & OVC_KS_MASK]) == 'r'
			&& ovc_ks_lower(w->b[(s + 9) & OVC_KS_MASK]) == 'n'
			&& w->b[(s + 10) & OVC_KS_MASK] == ':')
		return OVC_KS_OTHER;
	w->at = s;
	w->to_at = 0;
	w->cid_at = 0;
	w->via_at = 0;
	w->n_to = 0;
	w->n_cid = 0;
	w->n_via = 0;
	w->last = 0;
	w->bad = 0;
	w->end = 0;
	w->nl = 0;
	w->n = n;
	ovc_ks_lines(w);
	if(w->end == 0 || w->nl > OVC_KS_LINES || w->bad != 0 || w->n_to != 1
			|| w->n_cid != 1 || w->n_via == 0)
		return OVC_KS_UNSURE;
	w->to_at = ovc_ks_skip(w, w->to_at & OVC_KS_MASK);
	r = ovc_ks_to_tagged(w);
	if(r != 0)
		return r > 0 ? OVC_KS_OTHER : OVC_KS_UNSURE;
	w->cid_at = ovc_ks_skip(w, w->cid_at & OVC_KS_MASK);
	if(ovc_ks_callid(w) < 0)
		return OVC_KS_UNSURE;
	w->via_at = ovc_ks_skip(w, w->via_at & OVC_KS_MASK);
	if(ovc_ks_via(w) < 0)
		return OVC_KS_UNSURE;
	return OVC_KS_INVITE;
}

#ifndef __bpf__
#include <string.h>

/* User space (the module, the simulator): the key of the initial INVITE
 * buf (len bytes), the hash of its Call-ID and top Via, as the filter
 * computes it from its first OVC_KS_SCAN bytes, or 0 when the filter
 * would not judge it (it passes). Not reentrant (one work area per
 * translation unit). */
static inline unsigned long long ovc_ks_call_key(const char *buf,
		unsigned long len)
{
	static struct ovc_ks_work w;
	unsigned long n = len < OVC_KS_SCAN ? len : OVC_KS_SCAN;

	memcpy(w.b, buf, n);
	if(ovc_ks_classify(&w, (unsigned)n) != OVC_KS_INVITE)
		return 0;
	return w.key;
}
#endif

#endif
