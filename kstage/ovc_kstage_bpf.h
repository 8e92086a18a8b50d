/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the kernel stage's program and maps through the bpf() system
 * call, without libbpf: create the maps, load the socket filter built
 * into the module (build/mod/ovc_kstage_prog.h, from
 * kstage/ovc_kstage.bpf.c), attach it to a socket, and read and
 * write the maps. No Kamailio headers. Every function returns 0 or a
 * negative errno and leaves a reason in the struct's err.
 */
#ifndef OVC_KSTAGE_BPF_H
#define OVC_KSTAGE_BPF_H

#include <stddef.h>
#include <stdint.h>

#include "ovc/fairsk.h"
#include "ovc/kstage_abi.h"
#include "ovc/kstage_seen.h"

struct ovc_ksb
{
	int map[OVC_KS_MAP_COUNT]; /* map descriptors, -1: none */
	int prog;				   /* program descriptor, -1: none */
	unsigned ncpu;			   /* possible CPUs (per-CPU map values) */
	volatile struct ovc_ks_seen_bucket *seen; /* the seen table, mapped
												(ovc/kstage_seen.h) */
	struct ovc_ks_fair *fair; /* the fair share's sketch, mapped
								 (ovc/fairsk.h) */
	char err[256];							  /* why the last call failed */
};

/* Marks every descriptor of k unused (call first). */
void ovc_ksb_init(struct ovc_ksb *k);

/* Creates the maps (admitted: an LRU hash of max_admitted entries; the
 * seen table, mapped into this process for the ones it forks) and
 * loads the program. Returns 0, or -errno: -ENOSYS when the module was
 * built without the program, -EPERM without the privileges, -EINVAL
 * when the verifier refused it (its last lines in k->err). */
int ovc_ksb_load(struct ovc_ksb *k, unsigned max_admitted);

/* Attaches the program to socket fd (SO_ATTACH_BPF). Returns 0 or
 * -errno. */
int ovc_ksb_attach(struct ovc_ksb *k, int fd);

/* Detaches any filter from socket fd. Returns 0 or -errno. */
int ovc_ksb_detach(int fd);

/* Sets the share of initial INVITEs to drop, units of 2^-32 (0: none).
 * Returns 0 or -errno. */
int ovc_ksb_set_share(struct ovc_ksb *k, uint64_t drop);

/* Remembers the initial INVITE of key (ovc/kstage_scan.h: its Call-ID's
 * and top Via's hash) as admitted at monotonic second sec. Returns 0 or
 * -errno. One system call; any process. */
int ovc_ksb_admit(struct ovc_ksb *k, uint64_t key, uint32_t sec);

/* Is key in the admitted map? 1 yes, 0 no, or -errno. */
int ovc_ksb_admitted(struct ovc_ksb *k, uint64_t key);

/* How long ago, ms, the initial INVITE of key was first seen by the
 * filter, at millisecond now_ms of CLOCK_MONOTONIC (modulo 2^32): -1
 * when unknown (its slot holds another key or none) or when it was
 * marked admitted. A read of the mapped table, no system call. */
long long ovc_ksb_seen_age_ms(
		const struct ovc_ksb *k, uint64_t key, uint32_t now_ms);

/* Marks the initial INVITE of key admitted in the seen table (its first
 * sight kept, or now_ms when its slot held another key). A store to the
 * mapped table, no system call. */
void ovc_ksb_seen_admit(struct ovc_ksb *k, uint64_t key, uint32_t now_ms);

/* The counters summed over the CPUs into *sum.
 * Returns 0 or -errno. */
int ovc_ksb_read(struct ovc_ksb *k, struct ovc_ks_stats *sum);

/* Runs the loaded program once, in the kernel (BPF_PROG_TEST_RUN), on a
 * UDP datagram carrying the len bytes at payload: the program sees an
 * 8-byte UDP header, then the payload, as on a socket. *kept: what the
 * program returned, the bytes of that datagram (header included) it
 * keeps: 8 + len passes it whole, 0 drops it. For the tests; the
 * counters change as for a datagram received. Returns 0
 * or -errno. */
int ovc_ksb_test_run(
		struct ovc_ksb *k, const void *payload, size_t len, uint32_t *kept);

/* As ovc_ksb_test_run(), the program run repeat times (>= 1) on the
 * datagram; *ns (when not NULL): the kernel's mean time per run, ns. For
 * the microbenchmark. Returns 0 or -errno. */
int ovc_ksb_test_time(struct ovc_ksb *k, const void *payload, size_t len,
		uint32_t repeat, uint32_t *kept, uint32_t *ns);

/* Unmaps the seen table and closes every descriptor k holds (filters
 * attached stay with their sockets until detached or closed). */
void ovc_ksb_close(struct ovc_ksb *k);

/* The program's instruction count (0: built without it). */
unsigned ovc_ksb_insns(void);

#endif
