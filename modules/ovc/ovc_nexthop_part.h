/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - overload control between servers as a part (ovc_nexthop_part.c;
 * see ovc_nexthop.h): besides the part (ovc_part.h), the RPC ovc.dst.
 */
#ifndef OVC_NEXTHOP_PART_H
#define OVC_NEXTHOP_PART_H

#include "core/rpc.h"

/* RPC ovc.dst: every next hop with its feedback and counts. */
extern const char *ovc_rpc_dst_doc[2];
void ovc_rpc_dst(rpc_t *rpc, void *ctx);

#endif
