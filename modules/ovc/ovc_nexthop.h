/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - overload control between SIP servers (000 §IV, RFC 7339). As a
 * server, ovc writes the reduction it wants into the Via of every response
 * to a client that offered "oc" (ovc/oc7339.h), from its own controller's
 * admissions (ovc/ocloop.h). As a client, it offers "oc" in the Via of the
 * requests it sends once the script uses ovc_dst_admit(), reads each next
 * hop's feedback from its responses into a shared table (ovc/nexthop.h)
 * and refuses, in ovc_dst_admit(), the share of new requests that next
 * hop asked for. network_mode picks local (none of it), hop (hop by hop)
 * or e2e (end to end).
 */
#ifndef OVC_NEXTHOP_MOD_H
#define OVC_NEXTHOP_MOD_H

#include <stdatomic.h>

#include "core/parser/msg_parser.h"
#include "core/rpc.h"

#include "ovc/admission.h"
#include "ovc/nexthop.h"
#include "ovc/ocloop.h"
#include "ovc/octoken.h"

#include "ovc_shm.h"

/* oc stays in use this long, ms, after the last request whose client
 * offered it was admitted and the script's last ovc_dst_admit(); then
 * the ticker sets it out of use. */
#define OVC_OC_IDLE_MS 10000

/* The network state, in shared memory. */
struct ovc_net
{
	_Atomic int mode;		 /* enum ovc_network in force */
	int hooked;				 /* not local: the hook on what Kamailio
								receives is registered, the one on what
								it sends follows oc_in_use */
	_Atomic int offering;	 /* 1 while the script uses ovc_dst_admit()
								(within OVC_OC_IDLE_MS): requests sent
								offer "oc" */
	_Atomic int oc_in_use;	 /* 1 while oc is in use: a request whose
								top Via offered it was admitted or
								answered (ovc_net_client()), or the
								script offers it, within OVC_OC_IDLE_MS;
								processes install the hook on what
								Kamailio sends (ovc_net_hook_out()),
								which does nothing while it is 0 */
	_Atomic int64_t client_ns; /* last such request (monotonic, ns) */
	_Atomic int64_t dst_ns;	 /* last ovc_dst_admit() (monotonic, ns) */
	_Atomic uint64_t unverified; /* responses whose oc was ignored: their
								top Via had no token of this server's
								that verified (ovc/octoken.h) */
	struct ovc_oct_key key;	 /* the tokens' secret (random at start) */
	_Atomic uint64_t oc;	 /* announced upstream: ovc_nh_pack(oc-seq,
								reduction percent), one word so that a
								response carries a pair; 0: none yet */
	ovc_atomic_double exact; /* the loop's exact reduction, percent */
	ovc_atomic_double a;	 /* the share it asks of its clients */
	ovc_atomic_double path;	 /* its paths' reduction, fraction
								(ovc_nh_path_reduction() at the last
								receive-queue sample) */
	_Atomic int engaged;	 /* the loop is engaged */
	struct ovc_ocloop loop;	 /* the server's loop (ticker only) */
	uint64_t last_offered;	 /* INVITE totals at the loop's last step */
	uint64_t last_admitted;	 /* (ticker only) */
	uint64_t last_aged;		 /* age rejects then (ticker only) */
	ovc_time_ns last_step;	 /* its time, 0: none yet (ticker only) */
	struct ovc_nh_table nh;	 /* the next hops */
};

extern struct ovc_net *ovc_net;

/* The next hop of request msg bound for uri (NULL: its destination, $du
 * or the Request-URI) as the admission sequence's ovc_adm_next_hop() sees
 * it, into *hop, for ovc_dst_admit() (ovc_admit.h); the script uses it:
 * requests sent offer oc (not local). Returns 1 when something can refuse
 * it (its feedback, or smart forwarding's send queue), 0 when nothing can
 * (*hop not set), -1 when neither oc nor smart forwarding is at work. */
int ovc_net_hop(struct sip_msg *msg, str *uri, struct ovc_adm_hop *hop);

/* Allocates the network state in mode ovc_mp.network_mode and, unless it is
 * local, registers the hook on what Kamailio receives (mod_init). The
 * hook on what it sends waits until oc is in use (ovc_net_hook_out()).
 * Returns 0 or -1. */
int ovc_net_init(void);

/* Installs the hook on what Kamailio sends in this process once oc is in
 * use (ovc_net->oc_in_use), at most once per process. Kamailio copies
 * every message it sends for that hook (a pkg_malloc and a memcpy per
 * datagram, 7 % of a proxy's CPU near its capacity: bench/RESULTS.md), so
 * a proxy whose clients never offer oc and whose script never calls
 * ovc_dst_admit() never pays it. Kamailio 5.6 has no way to remove such a
 * hook: once oc is out of use again, the hook returns at once, and a
 * process that installed it keeps paying the copy until restart. Called
 * where a process receives a message (the hook on what Kamailio
 * receives), by ovc_dst_admit() and each second in the timer process
 * (tm's retransmissions). Other modules' callbacks (sipdump, topos)
 * registered at start run before ovc's. */
void ovc_net_hook_out(void);

/* Request msg was admitted or refused with an answer by ovc_admit() (a
 * request Kamailio parsed, from a client that can be answered): when its
 * top Via offers oc, a real client uses it (ovc_net->oc_in_use). Looks at
 * no request for a second in a process that marked oc in use (for a
 * client or for ovc_dst_admit()) within the last one. */
void ovc_net_client(struct sip_msg *msg);

/* Ticker, each second at now: oc out of use once OVC_OC_IDLE_MS passed
 * without a client offering it or the script calling ovc_dst_admit();
 * the next hops idle for OVC_NH_IDLE_MS freed. */
void ovc_net_second(ovc_time_ns now);

/* Frees it (mod_destroy). */
void ovc_net_destroy(void);

/* Ticker, each receive-queue sample: the next reduction to announce and
 * a new oc-seq for it, stored together (ovc_net->oc). */
void ovc_net_publish(void);

/* The mode in force ("local", "hop", "e2e"). */
const char *ovc_net_mode_name(void);

#endif
