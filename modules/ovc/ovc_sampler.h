/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - measurements taken by the ticker process: cumulative CPU busy time
 * from one of three sources, the CPU capacity it is measured against, and
 * shared memory in use (CPU: ovc_sampler.c; memory: ovc_sampler_mem.h).
 * Only the ticker process calls these.
 */
#ifndef OVC_SAMPLER_H
#define OVC_SAMPLER_H

#include <stdint.h>

#include "ovc_shm.h"

/* Resolves the source's files (cgroup paths, ...) and *src (enum
 * ovc_cpu_source): "auto" becomes "cgroup" when a CPU quota applies (the
 * quota is the capacity, and its usage is one file to read per epoch),
 * else "procs". When *capacity <= 0 it
 * is detected: the cgroup CPU quota if one applies (own group or an
 * ancestor), else for "procs" min(online CPUs, SIP worker processes), else
 * online CPUs. Returns 0, or -1 with an error logged when the source cannot
 * be used on this host. Call in mod_init (before the fork). */
int ovc_sampler_init(int *src, double *capacity);

/* Reads the cumulative CPU busy time of the source, ns. Returns 0 or -1
 * (nothing readable; the caller keeps its last value). */
int ovc_sampler_cpu_ns(uint64_t *busy_ns);

/* Kernel memory one small (< 1 KiB) SIP datagram takes in a receive
 * queue, bytes: converts rx_queue bytes into an estimated message count. */
#define OVC_RXQ_MSG_BYTES 1280

/* A full receive buffer, as seen by queue-based controllers: the queue of
 * B = 1000 messages of papers 000 and 003. */
#define OVC_RXQ_SCALE 1000.0

/* The period over which the CPU quota is enforced (CFS period), ns; 100 ms
 * when there is no quota. CPU measured over windows that are not a whole
 * number of these periods reads the quota's bursts, not the load. */
ovc_time_ns ovc_sampler_cpu_period_ns(void);

/* Time of each CFS period, ms, in which the detected CPU quota keeps the
 * proxy from running (period x (1 - quota) for a quota below one CPU);
 * 0 without a quota. */
double ovc_sampler_stall_ms(void);

/* The sampler's figures (the part, ovc_sampler_part.c). Any process,
 * after mod_init; lock-free. */

/* The CPU source in force (enum ovc_cpu_source) and the CPUs the
 * occupancy is measured against: fixed at start. */
int ovc_sampler_source(void);
double ovc_sampler_capacity(void);

/* CPU occupancy of the last epoch and of the last second, and the share
 * of capacity spent refusing in the last epoch: fractions of
 * ovc_sampler_capacity() (0 before the first reading). */
double ovc_sampler_cpu(void);
double ovc_sampler_cpu_1s(void);
double ovc_sampler_cpu_reject(void);

/* Kamailio's shared memory in use and its size at the last epoch,
 * bytes. */
uint64_t ovc_sampler_mem_used(void);
uint64_t ovc_sampler_mem_total(void);

/* Adds ns of CPU spent refusing requests on the request path (sampled
 * and scaled by the caller). Lock-free; any process. */
void ovc_sampler_count_reject_ns(uint64_t ns);

#endif
