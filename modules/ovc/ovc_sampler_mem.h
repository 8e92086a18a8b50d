/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - memory sampling (ovc_sampler_mem.c; ticker process only): shared
 * memory from the allocator's bookkeeping, and the kernel memory held by
 * the datagrams waiting in the UDP listeners' receive queues.
 */
#ifndef OVC_SAMPLER_MEM_H
#define OVC_SAMPLER_MEM_H

#include <stdint.h>

/* Shared memory in use and in all, bytes (one walk of the allocator's
 * bookkeeping: call it once per epoch). */
void ovc_sampler_mem(uint64_t *used, uint64_t *total);

/* Receive queue of Kamailio's UDP listening sockets, summed: bytes of
 * kernel memory held by waiting datagrams (SO_MEMINFO rmem_alloc, which
 * counts each datagram's buffer overhead too), the sum of the sockets'
 * receive buffer limits (bytes) and of their drop counters (datagrams the
 * kernel dropped, cumulative). Returns 0, or -1 when no socket could be
 * read. */
int ovc_sampler_rxq(uint64_t *bytes, uint64_t *limit, uint64_t *drops);

#endif
