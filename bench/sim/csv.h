/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - per-second CSV rows with the testbed's column names
 * (DESIGN.md "Per-second CSV columns", in that order), then the
 * simulator's own columns.
 */
#ifndef SIM_CSV_H
#define SIM_CSV_H

#include <stdio.h>

struct sim_world;

/* Prints the header line. */
void sim_csv_header(FILE *f);

/* Prints the row of the second ending at t_s, with the processor
 * occupancy cpu measured over it. */
void sim_csv_row(FILE *f, const struct sim_world *w, double t_s, double cpu);

#endif
