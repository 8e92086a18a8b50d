/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - the module's ticker (ctl.c): the controller's epochs, the
 * receive-queue samples (wait estimate, overload gate, guard) and the
 * plan the acceptors apply. Above the processor (server.h) and the
 * kernel stage (ks.h); knows nothing of SIP.
 */
#ifndef SIM_CTL_H
#define SIM_CTL_H

#include "world.h"

/* Creates the controller and the settings in force and schedules the
 * first epoch and sample. Returns OVC_OK or a libovc error. */
int sim_ctl_open(struct sim_world *w);
void sim_ctl_close(struct sim_world *w);

/* EV_EPOCH: one controller step (the caller then drains the queue). */
void sim_ctl_epoch(struct sim_world *w);

/* EV_RXQ: one receive-queue sample. */
void sim_ctl_sample(struct sim_world *w);

#endif
