/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - names of error codes, classes, in-dialog types and algorithms.
 */
#include <string.h>

#include "ovc/types.h"

static const char *const alg_names[OVC_ALG_COUNT] = {
		[OVC_ALG_NONE] = "none",
		[OVC_ALG_BBC] = "bbc",
		[OVC_ALG_OCC] = "occ",
		[OVC_ALG_OCCUPANCY] = "occupancy",
		[OVC_ALG_ARO] = "aro",
		[OVC_ALG_SIRED] = "sired",
		[OVC_ALG_RSOCA] = "rsoca",
		[OVC_ALG_PI] = "pi",
};

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

int ovc_alg_queued(enum ovc_alg a)
{
	return a == OVC_ALG_BBC || a == OVC_ALG_SIRED || a == OVC_ALG_PI;
}

const char *ovc_alg_name(enum ovc_alg a)
{
	if((unsigned)a >= OVC_ALG_COUNT)
		return NULL;
	return alg_names[a];
}

int ovc_alg_from_name(const char *name, enum ovc_alg *out)
{
	unsigned i;

	if(name == NULL || out == NULL)
		return OVC_ENOENT;
	for(i = 0; i < OVC_ALG_COUNT; i++) {
		if(strcmp(name, alg_names[i]) == 0) {
			*out = (enum ovc_alg)i;
			return OVC_OK;
		}
	}
	return OVC_ENOENT;
}
