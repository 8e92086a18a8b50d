/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the JSON type of the next RPC parameter over jsonrpcs.
 *
 * jsonrpcs' scan reads "f" (and d, u, b) from any JSON node's
 * valuedouble: an array, an object, null and false read as 0, true as 1,
 * with no error, and "S" fails alike on numbers, arrays and objects
 * without consuming them; ".S" consumes a number but keeps only its
 * integer part. No format tells a number from an array without losing
 * the number, so ovc.set looks at the node itself. The request context is
 * jsonrpcs' jsonrpc_ctx_t, whose leading fields (Kamailio 5.6.3,
 * src/modules/jsonrpcs/jsonrpcs_mod.h) are mirrored below; it is read
 * only when rpc->scan is code of a file named jsonrpcs.so and the
 * context names the method being run.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <string.h>

#include "core/utils/srjson.h"

#include "ovc_rpc_json.h"

/* jsonrpc_ctx_t's leading fields, as in Kamailio 5.6.3 */
struct ovc_jsonrpc_ctx_head
{
	void *msg;
	int msg_shm_block_size;
	char *method;
	unsigned int flags;
	srjson_doc_t *jreq;
	srjson_t *req_node;
};

/* 1 when fn is code of a shared object named jsonrpcs.so. */
static int in_jsonrpcs(void *fn)
{
	static void *last;
	static int last_is;
	Dl_info di;
	const char *base;

	if(fn == last)
		return last_is;
	last_is = 0;
	if(dladdr(fn, &di) != 0 && di.dli_fname != NULL) {
		base = strrchr(di.dli_fname, '/');
		base = base ? base + 1 : di.dli_fname;
		last_is = strcmp(base, "jsonrpcs.so") == 0;
	}
	last = fn;
	return last_is;
}

int ovc_rpc_json_next_type(rpc_t *rpc, void *ctx, const char *method)
{
	const struct ovc_jsonrpc_ctx_head *c = ctx;

	if(rpc == NULL || c == NULL || method == NULL
			|| !in_jsonrpcs((void *)rpc->scan))
		return -1;
	if(c->method == NULL || strcmp(c->method, method) != 0
			|| c->req_node == NULL)
		return -1;
	return c->req_node->type & 255;
}
