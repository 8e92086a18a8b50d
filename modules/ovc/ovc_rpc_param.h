/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - RPC ovc.get and ovc.set (ovc_rpc_param.c), for the export table
 * of ovc_rpc.c.
 */
#ifndef OVC_RPC_PARAM_H
#define OVC_RPC_PARAM_H

#include "core/rpc.h"

/* ovc.get [name]: one parameter by name, or all of them. */
void ovc_rpc_get(rpc_t *rpc, void *ctx);
extern const char *ovc_rpc_get_doc[2];

/* ovc.set name value: sets a plain setting or a registry entry; a refused
 * value changes nothing and answers 400 (404: unknown name). */
void ovc_rpc_set(rpc_t *rpc, void *ctx);
extern const char *ovc_rpc_set_doc[2];

#endif
