/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the library's error messages (see ovc/errmsg.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "ovc/errmsg.h"

void ovc_set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if(err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}
