/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - RPC commands: ovc.stats, ovc.csv, ovc.get, ovc.set, ovc.reset.
 */
#ifndef OVC_RPC_H
#define OVC_RPC_H

#include "core/rpc.h"

extern rpc_export_t ovc_rpc_cmds[];

/* Writes the CSV header line (no newline) into buf. Returns its length. */
int ovc_csv_header(char *buf, int size);

#endif
