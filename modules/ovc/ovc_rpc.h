/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - RPC commands: ovc.stats, ovc.csv, ovc.get, ovc.set, ovc.reset.
 */
#ifndef OVC_RPC_H
#define OVC_RPC_H

#include "core/rpc.h"

extern rpc_export_t ovc_rpc_cmds[];

#endif
