/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - internal state of one run: types only, no functions. The
 * layers above it depend one way (each .c includes its own header and
 * those below it):
 *
 *   run.c   the event loop: all of them; wires the processor's hooks
 *           (on_read, on_served) to sip.c
 *   sip.c   SIP state machines, the proxy's acts -> adm, ks, server
 *   ctl.c   the ticker: controller, gate, guard, plan -> ks, server
 *   adm.c   the admission sequence as the module drives it -> ks
 *   ks.c    the kernel stage
 *   server.c the processor and its buffers (knows no SIP)
 *
 * Not a public interface.
 */
#ifndef SIM_WORLD_H
#define SIM_WORLD_H

#include "ovc/admission.h"
#include "ovc/capest.h"
#include "ovc/derive.h"
#include "ovc/ksplit.h"
#include "ovc/onset.h"
#include "ovc/rejmem.h"
#include "ovc/rxq.h"

#include "sim.h"

/* Events. */
enum sim_ev_type
{
	EV_ARRIVAL = 0,	 /* a new call from the source */
	EV_DONE,		 /* the processor finished a message */
	EV_EPOCH,		 /* controller step */
	EV_SECOND,		 /* per-second CSV row */
	EV_SAMPLE,		 /* 100 ms CPU / retransmission sample (ES cost) */
	EV_RXQ,			 /* receive-queue sample: wait estimate, onset */
	EV_DRAIN,		 /* in-core queue drain token available */
	EV_UAC_A,		 /* UAC INVITE retransmission (timer A) */
	EV_UAC_B,		 /* UAC INVITE timeout (timer B) */
	EV_UAC_ABANDON,	 /* caller gives up */
	EV_UAC_BYE,		 /* end of the holding time: send BYE */
	EV_UAC_E,		 /* UAC BYE retransmission (timer E) */
	EV_UAC_F,		 /* UAC BYE timeout (timer F) */
	EV_PX_A,		 /* proxy INVITE retransmission to the UAS */
	EV_PX_B,		 /* proxy INVITE client timeout */
	EV_PX_E,		 /* proxy BYE retransmission to the UAS */
	EV_PX_F,		 /* proxy BYE client timeout */
	EV_PX_CLEAN,	 /* transaction clean-up timer */
	EV_UAS_G,		 /* UAS 200 OK retransmission */
	EV_UAS_H,		 /* UAS gives up waiting for the ACK */
};

/* Messages the processor serves. */
enum sim_msg_type
{
	M_INVITE = 0,	 /* INVITE from the UAC (original or retransmission),
						not decided yet: the admission sequence runs when
						the processor reads it */
	M_INVITE_FWD,	 /* INVITE admitted: routed (tm absorbs a
						retransmission) */
	M_INVITE_W,		 /* INVITE taken by a worker from the in-core queue */
	M_QHAND,		 /* INVITE read and put in the in-core queue */
	M_REJECT,		 /* early reject: stateless 503 */
	M_ABSORB,		 /* retransmission of an INVITE waiting in the queue */
	M_200INV,		 /* 200 OK to the INVITE from the UAS */
	M_ACK,			 /* ACK from the UAC */
	M_BYE,			 /* BYE from the UAC */
	M_200BYE,		 /* 200 OK to the BYE from the UAS */
	M_T_INV_RTX,	 /* timer: retransmit the INVITE to the UAS */
	M_T_INV_TIMEOUT, /* timer: INVITE client transaction timed out */
	M_T_BYE_RTX,	 /* timer: retransmit the BYE to the UAS */
	M_T_BYE_TIMEOUT, /* timer: BYE client transaction timed out */
	M_T_CLEAN,		 /* timer: free a transaction */
};

enum sim_prio
{
	P_TIMER = 0,
	P_REJECT,
	P_EXT,
	P_COUNT
};

/* UAC INVITE side. */
enum
{
	UAC_CALLING = 0, /* INVITE sent, no response */
	UAC_PROCEEDING,	 /* 100 received */
	UAC_CONFIRMED,	 /* 200 received, ACK sent */
	UAC_ABANDONED,	 /* gave up */
	UAC_FAILED,		 /* 503, 408 or timer B */
};

/* Proxy INVITE transaction; also BYE (NONE, FWD, DONE only). */
enum
{
	PX_NONE = 0, /* no transaction */
	PX_QUEUED,	 /* waiting in the in-core queue */
	PX_INBUF,	 /* admitted, waiting in the processor's buffer */
	PX_FWD,		 /* forwarded, waiting for the 200 */
	PX_DONE,	 /* completed */
};

/* UAS. */
enum
{
	UAS_NONE = 0,
	UAS_WAIT_ACK, /* 200 sent, retransmitting it */
	UAS_CONFIRMED,
	UAS_GAVE_UP,
};

/* UAC BYE side. */
enum
{
	BYE_NONE = 0,
	BYE_SENT,
	BYE_DONE,
};

struct sim_call
{
	int64_t t0;		  /* first INVITE sent, ns */
	int64_t t_fwd;	  /* proxy forwarded the INVITE (UAS answered), ns */
	int64_t t_bye;	  /* UAC sent the BYE, ns */
	int64_t t_pxbye;  /* proxy forwarded the BYE, ns */
	uint8_t uac;	  /* UAC_* */
	uint8_t px_inv;	  /* PX_* of the INVITE transaction */
	uint8_t px_bye;	  /* PX_* of the BYE transaction */
	uint8_t uas;	  /* UAS_* */
	uint8_t bye;	  /* BYE_* (UAC side) */
	uint8_t late;	  /* 200 came after abandonment/reject: no goodput */
	uint8_t n_uac_a;  /* retransmissions sent so far, per timer */
	uint8_t n_uac_e;
	uint8_t n_px_a;
	uint8_t n_px_e;
	uint8_t n_uas_g;
	uint8_t ks_admitted; /* the kernel stage spares its INVITE */
	uint8_t timely;	  /* its 200 reached the caller within SIM_TIMELY_NS */
	uint64_t kskey;	  /* its INVITE's key in the kernel stage (0: none) */
};

/* A setup is timely when the 200 reaches the caller within this of its
 * first INVITE (bench/README.md: the testbed's "timely", 500 ms). */
#define SIM_TIMELY_NS (500 * OVC_NS_PER_MS)

/* The synthetic INVITE the admission sequence reads (one per call: its
 * id in the Call-ID, From tag and branch, fixed width). */
#define SIM_REQ_MAX 512

struct sim_msg
{
	int64_t t;		/* enqueue time, ns */
	uint32_t call;	/* call index */
	uint8_t type;	/* sim_msg_type */
	uint8_t rtx;	/* 1: a retransmission */
};

/* Growable ring FIFO. */
struct sim_fifo
{
	struct sim_msg *a;
	size_t head, n, cap;
};

struct sim_world
{
	const struct sim_cfg *cfg;
	struct sim_evq q;
	struct sim_source src;
	struct sim_rng rng;		  /* holding times */
	int64_t now;			  /* ns */
	int64_t end;			  /* ns */
	/* calls */
	struct sim_call *calls;
	size_t ncalls, capcalls;
	/* processor */
	int64_t svc_ns[M_T_CLEAN + 1]; /* service time per message type */
	struct sim_fifo buf[P_COUNT];
	size_t limit[P_COUNT];	  /* 0: unbounded */
	int busy;
	struct sim_msg cur;		  /* message in service */
	/* the processor's hooks (run.c): a message leaves its buffer for
	 * service (may turn an M_INVITE into its verdict's type), and one
	 * was served */
	void (*on_read)(struct sim_world *w, struct sim_msg *m);
	void (*on_served)(struct sim_world *w, const struct sim_msg *m);
	int64_t rej_acc;		  /* ns busy refusing (REJECT, ABSORB), done */
	int64_t busy_end;		  /* the service in progress ends, ns */
	int64_t cur_svc;		  /* its CPU time, ns of occupancy */
	/* a CPU quota (CFS): q_period_ns of occupancy per period of
	 * q_period_ns, run at 1/quota the speed; 0: none */
	int64_t q_period_ns;
	double quota;
	int64_t q_budget;		  /* occupancy left in the period, ns */
	int64_t q_end;			  /* the period ends, ns */
	uint64_t ext_read;		  /* messages read off the receive queue */
	int64_t busy_start;
	int64_t busy_acc;		  /* ns busy, completed services */
	/* in-core INVITE queue */
	int incore;
	int at_dequeue; /* the acceptor decides at the queue's output */
	double drain_rate; /* the plan's drain, INVITEs/s; < 0: free */
	struct sim_fifo iq;
	size_t iq_cap;
	unsigned inflight;		  /* worker INVITEs in the processor */
	double tokens;			  /* drain credit, INVITEs */
	int64_t tok_t;			  /* credit computed at, ns */
	int drain_pending;		  /* an EV_DRAIN is scheduled */
	int64_t drain_due;		  /* its due time, ns */
	uint16_t drain_gen;		  /* its token: older ones are stale */
	/* controller */
	struct ovc_ctl *ctl;
	struct ovc_acceptor acc;
	struct ovc_acceptor acc_arr; /* in front of a paced queue (the plan's
									f_arrival) */
	struct ovc_cpu_meter meter; /* the module's CPU meter */
	struct ovc_output out;
	int64_t epoch_ns;
	int64_t last_epoch;
	struct sim_count ep;	  /* counters since the last epoch */
	int64_t ep_rej0;		  /* rej_acc at the epoch's start */
	struct ovc_capest capest; /* the capacity learned (INVITEs/s) */
	/* the admission sequence's state and the settings in force */
	struct ovc_rejmem *mem;	  /* decision memory */
	struct ovc_adm_state adm;
	struct ovc_alg_traits traits; /* the algorithm's, paces_queue as
									 placed (cfg->reject_at_dequeue) */
	char req[SIM_REQ_MAX];	  /* the synthetic INVITE */
	int req_len;
	size_t req_id[3];		  /* where its call's id goes */
	struct ovc_sip_scan req_sc; /* its scan (offsets hold for every id) */
	struct ovc_rxq_eff eff;	  /* the receive-queue settings derived */
	double stall_ms;		  /* the quota's stall per period, ms (0) */
	double period_ms;		  /* its period, ms (0: no quota) */
	uint64_t ep_age0;		  /* age_refused at the epoch's start */
	unsigned max_age_ms;	  /* age limit below overload (0: off) */
	unsigned age_loaded_ms;	  /* age limit in overload */
	unsigned queue_wait_ms;	  /* the in-core queue's max wait */
	int over;				  /* overload evident (the gate) */
	struct ovc_onset onset;
	int64_t win_start;		  /* the open onset window's start, ns */
	double win_rx_ms;		  /* least receive-queue wait in it, ms (-1) */
	double win_q_ms;		  /* least in-core queue wait in it, ms (-1) */
	uint64_t win_invites;	  /* initial INVITEs decided by its start */
	uint64_t win_waited;	  /* refused for their wait by its start */
	uint64_t win_arrived;	  /* the kernel stage's arrivals by its start */
	unsigned win_epochs, win_held;
	uint64_t inv_decided;	  /* initial INVITEs decided at the read */
	uint64_t age_refused;	  /* of them refused for their wait */
	struct ovc_rxq_est est;	  /* receive-queue wait estimator */
	int64_t rxq_t;			  /* its last sample, ns */
	uint64_t rxq_read0;		  /* ext_read at it */
	double rxq_wait_ms;		  /* estimated wait */
	int64_t over_win_ns;	  /* time in overload in the result window */
	double share_now;		  /* the controller's arrival share */
	double guard_cap;		  /* the guard's cap in force */
	/* the kernel stage */
	struct ovc_ks_seen_bucket *seen; /* first sights (NULL: no stage) */
	struct ovc_ksplit split;
	double ks_share;		  /* drop share in force */
	uint64_t ks_initial;	  /* initial INVITEs the filter saw */
	uint64_t ks_dropped;	  /* of them dropped */
	uint64_t ks_rej0;		  /* INVITEs refused at the last epoch */
	/* statistics */
	struct sim_count sec;	  /* counters of the current second */
	struct sim_count win;	  /* counters over the result window */
	int64_t sec_busy0;		  /* busy total at the second's start */
	int64_t smp_busy0;		  /* busy total at the sample's start */
	struct sim_count smp;	  /* counters of the current 100 ms sample */
	double c_filt;			  /* C~ for the ES cost */
	int c_filt_primed;
	double riae_sum, ciae_sum; /* integrals over the run, s */
	double setup_ms_last;	  /* last per-second mean setup delay */
	uint64_t events;
	long active_txn;		  /* proxy transactions alive */
};

/* Counts one event in the per-second, per-epoch and per-sample counters
 * (the result window adds whole seconds). */
#define SIM_INC(w, field) \
	do { \
		(w)->sec.field++; \
		(w)->ep.field++; \
		(w)->smp.field++; \
	} while(0)

#endif
