/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - names of error codes, classes and in-dialog types.
 */
#include <string.h>

#include "ovc/types.h"

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
