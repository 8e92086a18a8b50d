/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - what the kernel stage's socket filter and the module share: the
 * maps, their value layouts and units. No includes (also compiled by
 * clang -target bpf). The module creates the maps in this order (map
 * index i) and hands their descriptors to the program at load time.
 */
#ifndef OVC_KSTAGE_ABI_H
#define OVC_KSTAGE_ABI_H

/* Fixed point of the drop share: 1.0 == OVC_KS_ONE (2^32). */
#define OVC_KS_ONE (1ULL << 32)

/* Map 0, "ovc_ks_share": array, one entry, written by the ticker. */
struct ovc_ks_share
{
	unsigned long long drop; /* share of calls whose initial INVITEs are
								dropped (ovc_ks_call_dropped()), units of
								2^-32; 0: the filter drops nothing */
};

/* Map 1, "ovc_ks_stats": per-CPU array, one entry, counts since load. */
struct ovc_ks_stats
{
	unsigned long long invites; /* datagrams whose method is INVITE (any
								   case), or may be (ovc_ks_classify()) */
	unsigned long long initial; /* of them judged initial INVITEs */
	unsigned long long unsure;	/* of them not judged within the bounds */
	unsigned long long spared;	/* initial INVITEs of admitted calls */
	unsigned long long dropped; /* initial INVITEs dropped */
};

/* Map 2, "ovc_ks_work": per-CPU array, one struct ovc_ks_work
 * (ovc/kstage_scan.h). */

/* Map 3, "ovc_ks_admitted": LRU hash, key an initial INVITE's key (64
 * bits: the hash of its Call-ID and top Via, ovc/kstage_scan.h), value 32
 * bits (the monotonic second it was admitted), filled by the module when
 * it admits or queues an initial INVITE. */
#define OVC_KS_ADMITTED_MAX 65536u

/* Map 4, "ovc_ks_seen": array (BPF_F_MMAPABLE) of OVC_KS_SEEN_BUCKETS
 * buckets of two 64-bit slots (ovc/kstage_seen.h): when each call's
 * first INVITE was seen, noted by the filter, read and marked admitted
 * by the module through its mapping. */

/* Map 5, "ovc_ks_fair": array (BPF_F_MMAPABLE) of one struct
 * ovc_ks_fair (ovc/fairsk.h): the filter counts each initial INVITE under
 * its source address and, while the ticker sets a level, drops the share
 * from the heaviest sources first; the module rotates the epochs and sets
 * the level through its mapping. */

enum ovc_ks_map
{
	OVC_KS_MAP_SHARE = 0,
	OVC_KS_MAP_STATS,
	OVC_KS_MAP_WORK,
	OVC_KS_MAP_ADMITTED,
	OVC_KS_MAP_SEEN,
	OVC_KS_MAP_FAIR,
	OVC_KS_MAP_COUNT
};

#endif
