/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - command-line options of the model, shared by ovc-sim and
 * ovc-es-tune.
 */
#ifndef SIM_CLI_H
#define SIM_CLI_H

#include "sim.h"

/* Model options, "--name value" (see sim_cli_usage()). */
extern const char sim_cli_usage_text[];

/* Applies model option name (without "--") with argument arg to c.
 * Returns 1 when applied, 0 when name is not a model option, -1 on a bad
 * value (message on stderr). */
int sim_cli_apply(struct sim_cfg *c, const char *name, const char *arg);

/* Parses a non-negative number. Returns 0 or -1. */
int sim_cli_num(const char *s, double *out);

#endif
