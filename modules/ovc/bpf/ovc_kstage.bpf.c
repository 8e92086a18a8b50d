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
 *   whatever the share)
 *   share 0 (the ticker's map)         -> pass
 *   its key in the admitted map        -> pass (a retransmission of an
 *                                         INVITE ovc admitted)
 *   else its key's draw                -> drop when below the share: a
 *                                         share of INVITEs, every
 *                                         transmission of one alike
 *                                         (ovc_ks_call_dropped())
 *
 * Built with clang -target bpf; scripts/bpf_embed.c turns the object into
 * the instructions the module loads (no libbpf). The maps are bound by
 * name, in the order of ovc/kstage_abi.h.
 */
#include <linux/bpf.h>

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

#define UDP_HDR 8u /* a UDP socket's filter sees the UDP header first */

SEC("socket")
int ovc_kstage(struct __sk_buff *skb)
{
	struct ovc_ks_share *sh;
	struct ovc_ks_stats *st;
	struct ovc_ks_work *w;
	unsigned char head[8];
	struct ovc_ks_seen_bucket *seen;
	unsigned long long key;
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
	if(sh->drop == 0)
		return len;
	if(bpf_map_lookup_elem(&ovc_ks_admitted, &key) != 0) {
		st->spared++;
		return len;
	}
	if(!ovc_ks_call_dropped(key, sh->drop))
		return len;
	st->dropped++;
	return 0;
}

char _license[] SEC("license") = "GPL";
