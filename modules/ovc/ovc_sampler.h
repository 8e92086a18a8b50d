/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - measurements taken by the ticker process: cumulative CPU busy time
 * from one of three sources, the CPU capacity it is measured against, and
 * shared memory in use. Only the ticker process calls these.
 */
#ifndef OVC_SAMPLER_H
#define OVC_SAMPLER_H

#include <stdint.h>

#include "ovc_shm.h"

/* Resolves the source's files (cgroup paths, ...). When *capacity <= 0 it
 * is detected: the cgroup CPU quota if one applies (own group or an
 * ancestor), else for "procs" min(online CPUs, SIP worker processes), else
 * online CPUs. Returns 0, or -1 with an error logged when the source cannot
 * be used on this host. Call in mod_init (before the fork). */
int ovc_sampler_init(enum ovc_cpu_source src, double *capacity);

/* Reads the cumulative CPU busy time of the source, ns. Returns 0 or -1
 * (nothing readable; the caller keeps its last value). */
int ovc_sampler_cpu_ns(uint64_t *busy_ns);

/* Shared memory in use, bytes. */
uint64_t ovc_sampler_mem_used(void);

/* Detected CPU quota of the cgroup hierarchy in CPUs, or 0 if none. */
double ovc_sampler_cgroup_quota(void);

#endif
