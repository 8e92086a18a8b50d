/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the JSON type of the next RPC parameter when the request came
 * through jsonrpcs (ovc_rpc_json.c).
 */
#ifndef OVC_RPC_JSON_H
#define OVC_RPC_JSON_H

#include "core/rpc.h"

/* The srjson type (core/utils/srjson.h: srjson_Number, srjson_Array ...)
 * of the parameter the next rpc->scan() of method would read, when rpc is
 * jsonrpcs' (Kamailio 5.6.3) and ctx one of its requests for method;
 * -1 for any other transport (ctl's binrpc is typed itself) or when it
 * cannot be told. */
int ovc_rpc_json_next_type(rpc_t *rpc, void *ctx, const char *method);

#endif
