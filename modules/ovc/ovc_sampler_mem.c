/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - memory sampling (ticker process only; CPU: ovc_sampler.c): shared
 * memory from the allocator's bookkeeping, and the kernel memory held by
 * the datagrams waiting in the UDP listeners' receive queues
 * (getsockopt SO_MEMINFO).
 */
#include <sys/socket.h>
#include <linux/sock_diag.h>

#include "core/socket_info.h"
#include "core/mem/shm.h"

#include "ovc_sampler.h"
#include "ovc_sampler_mem.h"

void ovc_sampler_mem(uint64_t *used, uint64_t *total)
{
	struct mem_info mi;

	shm_info(&mi);
	*used = (uint64_t)mi.used_size;
	*total = (uint64_t)mi.total_size;
}

int ovc_sampler_rxq(uint64_t *bytes, uint64_t *limit, uint64_t *drops)
{
	struct socket_info *si;
	uint32_t mi[SK_MEMINFO_VARS];
	uint64_t b = 0, l = 0, d = 0;
	int ok = 0;

	for(si = udp_listen; si; si = si->next) {
		socklen_t len = sizeof(mi);

		if(si->socket < 0)
			continue;
		if(getsockopt(si->socket, SOL_SOCKET, SO_MEMINFO, mi, &len) != 0
				|| len < (SK_MEMINFO_RCVBUF + 1) * sizeof(uint32_t))
			continue;
		b += mi[SK_MEMINFO_RMEM_ALLOC];
		l += mi[SK_MEMINFO_RCVBUF];
		if(len >= (SK_MEMINFO_DROPS + 1) * sizeof(uint32_t))
			d += mi[SK_MEMINFO_DROPS];
		ok = 1;
	}
	if(!ok)
		return -1;
	*bytes = b;
	*limit = l;
	*drops = d;
	return 0;
}
