/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - names of error codes, classes, in-dialog types, algorithms, modes
 * and CPU sources.
 */
#include <stdio.h>
#include <string.h>

#include "ovc/types.h"

/* as spelled in ovc/algs.def, like each descriptor's name */
static const char *const alg_names[OVC_ALG_COUNT] = {
#define OVC_ALG_DEF(id, name, state, params) [OVC_ALG_##id] = #name,
#include "ovc/algs.def"
#undef OVC_ALG_DEF
};

static const char *const mode_names[OVC_MODE_COUNT] = {
		[OVC_MODE_MULTI] = "multi",
		[OVC_MODE_SINGLE] = "single",
};

static const char *const cpu_source_names[OVC_CPU_SOURCE_COUNT] = {
		[OVC_CPU_PROCS] = "procs",
		[OVC_CPU_SYSTEM] = "system",
		[OVC_CPU_CGROUP] = "cgroup",
		[OVC_CPU_AUTO] = "auto",
};

static const char *const network_names[OVC_NET_COUNT] = {
		[OVC_NET_LOCAL] = "local",
		[OVC_NET_HOP] = "hop",
		[OVC_NET_E2E] = "e2e",
};

const struct ovc_names ovc_alg_names = {alg_names, OVC_ALG_COUNT};
const struct ovc_names ovc_mode_names = {mode_names, OVC_MODE_COUNT};
const struct ovc_names ovc_cpu_source_names = {
		cpu_source_names, OVC_CPU_SOURCE_COUNT};
const struct ovc_names ovc_network_names = {network_names, OVC_NET_COUNT};

static const char *const class_names[OVC_CLASS_COUNT] = {
		[OVC_CLASS_INVITE] = "invite",
		[OVC_CLASS_INDIALOG] = "indialog",
		[OVC_CLASS_REGISTER] = "register",
		[OVC_CLASS_OTHER] = "other",
};

static const char *const dlg_names[OVC_DLG_COUNT] = {
		[OVC_DLG_BYE] = "bye",
		[OVC_DLG_REINVITE] = "reinvite",
		[OVC_DLG_UPDATE] = "update",
		[OVC_DLG_PRACK] = "prack",
		[OVC_DLG_INFO] = "info",
		[OVC_DLG_OTHER] = "other",
};

const char *ovc_strerror(int err)
{
	switch(err) {
		case OVC_OK:
			return "success";
		case OVC_EINVAL:
			return "invalid argument";
		case OVC_ERANGE:
			return "value out of range";
		case OVC_ENOENT:
			return "no such name";
		case OVC_ENOMEM:
			return "out of memory";
		case OVC_EFULL:
			return "container full";
		case OVC_EEMPTY:
			return "container empty";
	}
	return "unknown error";
}

const char *ovc_class_name(enum ovc_class c)
{
	if((unsigned)c >= OVC_CLASS_COUNT)
		return NULL;
	return class_names[c];
}

const char *ovc_dlg_name(enum ovc_dlg t)
{
	if((unsigned)t >= OVC_DLG_COUNT)
		return NULL;
	return dlg_names[t];
}

const char *ovc_mode_name(enum ovc_mode m)
{
	if((unsigned)m >= OVC_MODE_COUNT)
		return NULL;
	return mode_names[m];
}

const char *ovc_cpu_source_name(enum ovc_cpu_source s)
{
	if((unsigned)s >= OVC_CPU_SOURCE_COUNT)
		return NULL;
	return cpu_source_names[s];
}

int ovc_names_find(const struct ovc_names *n, const char *name)
{
	unsigned i;

	if(n == NULL || name == NULL)
		return -1;
	for(i = 0; i < n->count; i++) {
		if(strcmp(name, n->names[i]) == 0)
			return (int)i;
	}
	return -1;
}

char *ovc_names_join(const struct ovc_names *n, char *buf, unsigned len)
{
	unsigned i, used = 0;

	if(len == 0)
		return buf;
	buf[0] = '\0';
	for(i = 0; n != NULL && i < n->count; i++) {
		int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				n->names[i]);

		if(w < 0 || (unsigned)w >= len - used) {
			buf[used] = '\0'; /* no room: whole names only */
			break;
		}
		used += (unsigned)w;
	}
	return buf;
}
