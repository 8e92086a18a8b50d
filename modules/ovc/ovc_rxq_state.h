/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the receive queue part's shared block: what its files (ovc_rxq.c,
 * ovc_rxq_size.c, ovc_rxq_part.c) publish for every process. Only they
 * include this header; the rest of the module reads the receive queue
 * through ovc_rxq.h. Allocated in shared memory at mod_init (before the
 * fork, ovc_rxq_part.c); the ticker (and PROC_INIT, for the sizes)
 * writes, any process reads; atomics only, no lock.
 */
#ifndef OVC_RXQ_STATE_H
#define OVC_RXQ_STATE_H

#include <stdint.h>

#include "ovc_shm.h"

struct ovc_rxq_state
{
	_Atomic uint64_t bytes;		  /* UDP receive queues now, bytes */
	_Atomic uint64_t limit;		  /* their receive buffer limits, bytes */
	_Atomic uint64_t drops;		  /* their kernel drop counters, summed */
	_Atomic uint64_t tcp_bytes;	  /* unread bytes, TCP connections to the
									 listeners' ports */
	_Atomic uint64_t tcp_backlog; /* connections waiting for accept */
	_Atomic uint64_t rcvbuf_udp;  /* SO_RCVBUF of UDP listeners, bytes */
	_Atomic uint64_t rcvbuf_tcp;  /* SO_RCVBUF of TCP listeners, bytes */
	_Atomic uint64_t mss_tcp;	  /* TCP_MAXSEG set on them (0: none) */
	_Atomic uint64_t dgrams;	  /* datagrams Kamailio read (drain) */
	ovc_atomic_double wait_ms;	  /* estimated receive-queue wait, ms */
	ovc_atomic_double drain;	  /* drain rate estimate, messages/s */
	_Atomic unsigned sample_ms;	  /* sampling period in force, ms */
	_Atomic uint64_t age_stamped;	/* age checks by kernel timestamp */
	_Atomic uint64_t age_estimated; /* age checks by estimated wait */
	_Atomic uint64_t proc_reads;	/* /proc fallback reads */
};

/* NULL before mod_init and after mod_destroy */
extern struct ovc_rxq_state *ovc_rxq_st;

#endif
