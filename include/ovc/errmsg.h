/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the library's error messages: a printf-style text into the
 * caller's buffer, which may be absent.
 */
#ifndef OVC_ERRMSG_H
#define OVC_ERRMSG_H

#include <stddef.h>

/* Writes the formatted message into err (errlen bytes, always
 * NUL-terminated, truncated when longer). err NULL or errlen 0: nothing
 * is written. */
void ovc_set_err(char *err, size_t errlen, const char *fmt, ...)
		__attribute__((format(printf, 3, 4)));

#endif
