/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - a discrete-event model of one stateful SIP proxy between an
 * infinite population of UACs and UASs (000 §IV, topology 1), driving the
 * libovc controllers exactly as the module does.
 *
 * Server (000 §IV-A): one processor, non-preemptive priorities: timer
 * messages (1) over early rejects (2) over external messages (3); external
 * messages are dropped when B are waiting; deterministic service times
 * (base: 1 ms per message, 0.5 ms per timer message, 0.1667 ms per early
 * reject) scaled so that one call costs 1/capacity seconds.
 * Call flow (scenarios/uac.xml, uas.xml): INVITE (proxy answers 100),
 * 200, ACK, BYE, 200; the proxy's INVITE and BYE transactions each cost a
 * clean-up timer message. Network delay is zero.
 * Time is int64 ns of simulated time.
 */
#ifndef SIM_SIM_H
#define SIM_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "ovc/acceptor.h"
#include "ovc/alg.h"
#include "ovc/controller.h"
#include "ovc/cpu.h"
#include "ovc/params.h"
#include "ovc/types.h"

#include "evq.h"
#include "profile.h"
#include "source.h"

/* Messages of a base call: 5 external (INVITE, 200, ACK, BYE, 200) and 2
 * clean-up timer messages. */
#define SIM_CALL_MSGS 5
#define SIM_CALL_TIMERS 2

struct sim_cfg
{
	double capacity;	   /* rho_M, calls/s the server completes at CPU 1 */
	double msg_ms;		   /* base service time of an external message, ms */
	double timer_ms;	   /* base service time of a timer message, ms */
	double reject_ms;	   /* base service time of an early reject, ms */
	double beta;		   /* > 0: reject cost = call cost / beta instead */
	unsigned buf;		   /* B: external messages waiting, max (000: 1000) */
	unsigned rej_buf;	   /* early rejects waiting, max */
	int tcp;			   /* 1: no hop-by-hop retransmissions (timers A, E) */
	double abandon_s;	   /* caller gives up without a 200, s (0: never) */
	double hold_s;		   /* mean holding time (exponential), s */
	double clean_s;		   /* transaction clean-up timer delay, s */
	struct sim_profile prof; /* offered load over time */
	double duration_s;	   /* simulated time, s */
	double warmup_s;	   /* results ignore [0, warmup_s) */
	uint64_t seed;		   /* everything random derives from it */
	enum ovc_alg alg;	   /* controller */
	struct ovc_params params; /* its parameters (pi.rho_m forced to capacity
								 unless pi_rho_m_set) */
	int pi_rho_m_set;	   /* 1: the user set pi.rho_m, keep it */
	int incore;			   /* in-core INVITE queue: -1 auto, 0 off, 1 on */
	int reject_at_dequeue; /* 1: with the in-core queue, the acceptor decides
							  when a worker takes an INVITE (003's alpha on
							  the drained flow), not at arrival (DESIGN.md);
							  0: at arrival; -1 (default): as the module's
							  plan does for the algorithm (ovc/plan.h) */
	unsigned queue_size;   /* in-core queue capacity, INVITEs */
	double queue_max_wait_ms; /* in-core queue expiry, ms: -1 the module's
								 (age limit + stall, 400 without one),
								 0 none */
	unsigned workers;	   /* in-core queue workers (INVITEs in service) */
	double mem_txn;		   /* transactions that fill the memory budget */
	double es_ct;		   /* C_T of the ES cost CIAE */
	int read_decide;	   /* 1 (the module): the admission sequence runs
							  when the processor reads an INVITE off its
							  receive queue (the fast path), on the age
							  it waited there, a refusal costing that
							  read; 0 (000's model): at arrival, refusals
							  in their own priority */
	int kstage;			   /* 1: the kernel stage's filter and split */
	double quota;		   /* CPU quota, CPUs in (0, 1) (CFS: the proxy runs
							  quota x period per period, at capacity /
							  quota calls/s while it runs); 0: none */
	double quota_period_ms; /* the quota's period, ms (100) */
	double kstage_budget;  /* its CPU budget for 503s, % of capacity */
	/* test hook: every message reaching the proxy from a UA (msg is
	 * "INVITE", "200", "ACK", "BYE" or "200-BYE"), or NULL */
	void (*trace)(void *ctx, int64_t t_ns, uint32_t call, const char *msg,
			int rtx);
	void *trace_ctx;	   /* passed back to trace */
	FILE *csv;			   /* per-second rows, or NULL */
	int csv_header;		   /* 1: print the header line first */
};

/* Per-second (or per-window) counters. */
struct sim_count
{
	uint64_t offered[OVC_CLASS_COUNT];	/* requests entering the control */
	uint64_t admitted[OVC_CLASS_COUNT]; /* passed on to routing */
	uint64_t rejected[OVC_CLASS_COUNT]; /* early stateless 503 */
	uint64_t dropped[OVC_CLASS_COUNT];	/* lost: buffer full or absorbed */
	uint64_t queued;	   /* INVITEs into the in-core queue */
	uint64_t dequeued;	   /* INVITEs out of the in-core queue */
	uint64_t calls;		   /* new calls (first INVITEs) */
	uint64_t good;		   /* calls completed (ACK at the UAS in time) */
	uint64_t timely;	   /* of them set up within SIM_TIMELY_NS */
	uint64_t ks_drops;	   /* INVITEs the kernel stage dropped */
	uint64_t age_rej;	   /* INVITEs refused for their age (or as late) */
	uint64_t failed;	   /* calls rejected, timed out or abandoned */
	uint64_t msgs_in;	   /* messages arriving at the proxy */
	uint64_t rtx_in;	   /* of which retransmissions */
	uint64_t timer_msgs;   /* timer messages served */
	uint64_t buf_drops;	   /* external messages lost to a full buffer */
	uint64_t setup_n;	   /* calls with a measured setup delay */
	double setup_sum_s;	   /* sum of INVITE -> 200 delays, s */
	uint64_t qdelay_n;	   /* INVITEs dequeued with a measured wait */
	double qdelay_sum_s;   /* sum of in-core queue waits, s */
	int64_t busy_ns;	   /* processor busy time, ns */
};

/* What a run produced over [warmup_s, duration_s). */
struct sim_result
{
	double goodput;		/* completed calls/s */
	double offered;		/* new calls/s */
	double g;			/* goodput / capacity */
	double timely_g;	/* timely goodput (setup < 500 ms) / capacity */
	double ks_drop_ratio; /* kernel stage drops / INVITEs reaching it */
	double over_share;	/* share of the window overload was evident */
	double r;			/* offered / capacity */
	double cpu;			/* mean processor occupancy */
	double rtx_ratio;	/* retransmitted / all messages at the proxy */
	double setup_ms;	/* mean setup delay (PDD) of completed setups */
	double reject_ratio; /* rejected / offered initial INVITEs */
	double riae;		/* ES: mean |retransmission ratio| over the run */
	double ciae;		/* ES: mean |C~ - C_T| / (1 - C_T) over the run */
	double beta;		/* effective call cost / reject cost */
	uint64_t events;	/* events processed */
	uint64_t calls;		/* calls created in the whole run */
	double cpu_s;		/* CPU time the run took (process), s */
};

/* Fills c with the defaults (000's base server, 160 calls/s, UDP, 10 s
 * abandonment, holding 0, constant load 1, 60 s, algorithm none) and the
 * module's admission: decided at the read, the libovc receive-queue
 * defaults (gate, age limit, guard derived), the kernel stage on with a
 * budget of 20 %. */
void sim_cfg_defaults(struct sim_cfg *c);

/* Turns c into the papers' model (000 §IV, 003): decided at arrival,
 * rejects in their own priority, always overloaded (rxq.onset_ms 0), no
 * age limit, no guard, no kernel stage, the CPU measured whole. */
void sim_cfg_paper(struct sim_cfg *c);

/* Effective beta of c: call cost / reject cost. */
double sim_cfg_beta(const struct sim_cfg *c);

/* 1 when alg runs with the in-core INVITE queue under c (auto: bbc,
 * sired and pi, the queue-based algorithms of DESIGN.md). */
int sim_cfg_incore(const struct sim_cfg *c);

/* Runs one simulation of c and fills *res. Returns 0, or a negative
 * libovc error when the controller cannot be initialised (nothing run),
 * or -OVC_ENOMEM-style -4 when out of memory. Deterministic given c. */
int sim_run(const struct sim_cfg *c, struct sim_result *res);

/* 003 Proposition 1: the best normalised goodput at normalised load r
 * for CPU target ct and cost ratio beta (> 1). */
double sim_g_opt(double r, double ct, double beta);

#endif
