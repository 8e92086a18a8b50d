/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - the proxy's processor and its buffers (server.c). The bottom
 * layer: it knows messages and their service times, not SIP; what a
 * message means is the hooks' business (world.h: on_read, on_served).
 */
#ifndef SIM_SERVER_H
#define SIM_SERVER_H

#include "world.h"

int sim_fifo_push(struct sim_fifo *f, const struct sim_msg *m);
int sim_fifo_pop(struct sim_fifo *f, struct sim_msg *m);

/* Processor busy time so far, ns (the one in progress included). */
int64_t sim_busy_total(const struct sim_world *w);

/* Of it, refusing (early rejects, absorbed retransmissions), ns. */
int64_t sim_reject_busy_total(const struct sim_world *w);

/* Offers a message to the processor in priority prio. Returns 1 when
 * queued, 0 when dropped because that priority's buffer is full. force: 1
 * ignores the bound. */
int sim_proc_enqueue(
		struct sim_world *w, int prio, int type, uint32_t call, int rtx,
		int force);

/* 1 when priority prio has room for one more message. */
int sim_proc_room(const struct sim_world *w, int prio);

/* EV_DONE: account the finished service, hand it to on_served, start the
 * next. */
void sim_proc_done(struct sim_world *w);

/* Schedules event type for call dt ns from now. Returns 0 or -1. */
int sim_schedule(struct sim_world *w, int64_t dt, int type, uint32_t call);

#endif
