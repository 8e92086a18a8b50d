/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - internal state of one run, shared by the event loop (run.c),
 * the processor (server.c), the SIP state machines (sip.c) and the
 * controller glue (ctl.c). Not a public interface.
 */
#ifndef SIM_WORLD_H
#define SIM_WORLD_H

#include "sim.h"

/* Events. */
enum sim_ev_type
{
	EV_ARRIVAL = 0,	 /* a new call from the source */
	EV_DONE,		 /* the processor finished a message */
	EV_EPOCH,		 /* controller step */
	EV_SECOND,		 /* per-second CSV row */
	EV_SAMPLE,		 /* 100 ms CPU / retransmission sample (ES cost) */
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
	M_INVITE = 0,	 /* INVITE from the UAC (original or retransmission) */
	M_INVITE_W,		 /* INVITE taken by a worker from the in-core queue */
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
};

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

/* server.c: the processor and its priority buffers. */
int sim_fifo_push(struct sim_fifo *f, const struct sim_msg *m);
int sim_fifo_pop(struct sim_fifo *f, struct sim_msg *m);
int64_t sim_busy_total(const struct sim_world *w);
/* Offers a message to the processor in priority prio. Returns 1 when
 * queued, 0 when dropped because that priority's buffer is full. force: 1
 * ignores the bound. */
int sim_proc_enqueue(
		struct sim_world *w, int prio, int type, uint32_t call, int rtx,
		int force);
/* 1 when priority prio has room for one more message. */
int sim_proc_room(const struct sim_world *w, int prio);
/* EV_DONE: account the finished service, handle it, start the next. */
void sim_proc_done(struct sim_world *w);
int sim_schedule(struct sim_world *w, int64_t dt, int type, uint32_t call);

/* sip.c: state machines. */
void sim_new_call(struct sim_world *w);
void sim_sip_event(struct sim_world *w, const struct sim_ev *e);
void sim_sip_serve(struct sim_world *w, const struct sim_msg *m);
void sim_drain(struct sim_world *w);

/* ctl.c: controller glue. */
int sim_ctl_open(struct sim_world *w);
void sim_ctl_close(struct sim_world *w);
void sim_ctl_epoch(struct sim_world *w);
int sim_ctl_admit(struct sim_world *w);

#endif
