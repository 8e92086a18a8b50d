/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the kernel stage: a socket filter (SO_ATTACH_BPF) on Kamailio's
 * UDP listening sockets. It runs for each datagram before the datagram is
 * queued on the socket, so what it drops costs no receive-buffer space,
 * no wake-up and no system call. It drops a share of the initial INVITEs
 * (ovc/kstage_scan.h) and nothing else:
 *
 *   neither "INVITE " (any case) nor   -> pass (one 8-byte load)
 *   a blank at the start
 *   not an initial INVITE, or unsure   -> pass
 *   (an initial INVITE: the first sight of its key, the hash of its
 *   Call-ID and top Via, is noted in the seen table, ovc/kstage_seen.h,
 *   whatever the share; and it is counted under its source address in
 *   the fair share's sketch, ovc/fairsk.h)
 *   share 0 (the ticker's map)         -> pass
 *   its key in the admitted map        -> pass (a retransmission of an
 *                                         INVITE ovc admitted)
 *   a level set (the fair share)       -> the heaviest sources first:
 *                                         drop unless its source is
 *                                         under the level or its key's
 *                                         draw in its source's share
 *                                         (ovc_fair_passes())
 *   else its key's draw                -> drop when below the share: a
 *                                         share of INVITEs, every
 *                                         transmission of one alike
 *                                         (ovc_ks_call_dropped())
 *
 * Built with clang -target bpf; kstage/bpf_embed.c turns the object into
 * the instructions the module loads (no libbpf). The maps are bound by
 * name, in the order of ovc/kstage_abi.h.
 */
#include <linux/bpf.h>

#include "ovc/fairsk.h"
#include "ovc/kstage_abi.h"
#include "ovc/kstage_scan.h"
#include "ovc/kstage_seen.h"

#define SEC(name) __attribute__((section(name), used))

/* helpers, by their number in linux/bpf.h */
static void *(*bpf_map_lookup_elem)(
		void *map, const void *key) = (void *)BPF_FUNC_map_lookup_elem;
static long (*bpf_skb_load_bytes)(const void *skb, __u32 off, void *to,
		__u32 len) = (void *)BPF_FUNC_skb_load_bytes;
static __u64 (*bpf_ktime_get_ns)(void) = (void *)BPF_FUNC_ktime_get_ns;
static long (*bpf_skb_load_bytes_relative)(const void *skb, __u32 off,
		void *to, __u32 len,
		__u32 start) = (void *)BPF_FUNC_skb_load_bytes_relative;

/* The source address of the datagram as a fair-share key: its IPv4
 * address, or its IPv6 address folded (never 0); 0 when the network
 * header is neither. */
static __attribute__((always_inline)) unsigned long long src_key(
		struct __sk_buff *skb)
{
	__u32 a[4];
	unsigned char v;

	if(bpf_skb_load_bytes_relative(skb, 0, &v, 1, BPF_HDR_START_NET) < 0)
		return 0;
	if((v >> 4) == 4) {
		if(bpf_skb_load_bytes_relative(skb, 12, a, 4, BPF_HDR_START_NET) < 0)
			return 0;
		return (unsigned long long)a[0] | (4ULL << 32);
	}
	if((v >> 4) != 6
			|| bpf_skb_load_bytes_relative(skb, 8, a, 16, BPF_HDR_START_NET)
					   < 0)
		return 0;
	return (((unsigned long long)(a[0] ^ a[2]) << 32) | (a[1] ^ a[3]))
		   ^ (6ULL << 32) ^ 1ULL;
}

/* The maps: symbols the loader binds to the descriptors it created. */
struct ovc_ks_mapref
{
	int unused;
};
struct ovc_ks_mapref ovc_ks_share SEC("ovcmaps");
struct ovc_ks_mapref ovc_ks_stats SEC("ovcmaps");
struct ovc_ks_mapref ovc_ks_work SEC("ovcmaps");
struct ovc_ks_mapref ovc_ks_admitted SEC("ovcmaps");
struct ovc_ks_mapref ovc_ks_seen SEC("ovcmaps");
struct ovc_ks_mapref ovc_ks_fair SEC("ovcmaps");

#define UDP_HDR 8u /* a UDP socket's filter sees the UDP header first */

SEC("socket")
int ovc_kstage(struct __sk_buff *skb)
{
	struct ovc_ks_share *sh;
	struct ovc_ks_stats *st;
	struct ovc_ks_work *w;
	unsigned char head[8];
	struct ovc_ks_seen_bucket *seen;
	struct ovc_ks_fair *fair;
	unsigned long long key, src;
	unsigned copy, level;
	__u32 zero = 0, len = skb->len, slot;
	__u64 n; /* 64 bits: the bound is checked on the register passed */
	int c;

	if(len < UDP_HDR + 12
			|| bpf_skb_load_bytes(skb, UDP_HDR, head, sizeof(head)) < 0)
		return len;
	if(!ovc_ks_may_invite(head))
		return len;
	st = bpf_map_lookup_elem(&ovc_ks_stats, &zero);
	sh = bpf_map_lookup_elem(&ovc_ks_share, &zero);
	w = bpf_map_lookup_elem(&ovc_ks_work, &zero);
	if(st == 0 || sh == 0 || w == 0)
		return len;
	n = (__u64)len - UDP_HDR;
	if(n > OVC_KS_SCAN)
		n = OVC_KS_SCAN;
	/* keeps the clamp where the verifier needs it (clang may fold it
	 * into the scan's own bound check) */
	asm volatile("" : "+r"(n));
	if(n < 12 || n > OVC_KS_SCAN
			|| bpf_skb_load_bytes(skb, UDP_HDR, w->b, n) < 0)
		return len;
	c = ovc_ks_classify(w, (unsigned)n);
	if(w->inv)
		st->invites++;
	if(c == OVC_KS_UNSURE)
		st->unsure++;
	if(c != OVC_KS_INVITE)
		return len;
	st->initial++;
	key = w->key;
	slot = ovc_ks_seen_index(key);
	seen = bpf_map_lookup_elem(&ovc_ks_seen, &slot);
	if(seen != 0)
		ovc_ks_seen_note(seen, key, (unsigned)(bpf_ktime_get_ns() / 1000000u));
	src = src_key(skb);
	fair = bpf_map_lookup_elem(&ovc_ks_fair, &zero);
	copy = 0;
	level = OVC_FAIR_ALL;
	if(fair != 0 && src != 0) {
		copy = fair->copy;
		level = fair->level;
		ovc_fair_count(&fair->sk, copy, src);
	}
	if(sh->drop == 0)
		return len;
	if(bpf_map_lookup_elem(&ovc_ks_admitted, &key) != 0) {
		st->spared++;
		return len;
	}
	if(level != OVC_FAIR_ALL && fair != 0) {
		if(ovc_fair_passes(key,
				   ovc_fair_rate(&fair->sk, ovc_fair_prev(copy), src), level))
			return len;
	} else if(!ovc_ks_call_dropped(key, sh->drop)) {
		return len;
	}
	st->dropped++;
	return 0;
}

char _license[] SEC("license") = "GPL";
