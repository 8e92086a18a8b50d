/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the CSV text of the per-second rows, made from ovc/columns.def:
 * the header and every line walk the same table, so a column's name and
 * its value cannot drift apart. See ovc/csv.h.
 */
#include <stddef.h>
#include <stdio.h>

#include "ovc/csv.h"

enum col_kind
{
	K_TIME,
	K_ALG,
	K_U64,
	K_INT,
	K_F0,
	K_F1,
	K_F4
};

/* printf format of each kind (the values and the docs) */
#define FMT_TIME "%lld"
#define FMT_ALG "%s"
#define FMT_U64 "%llu"
#define FMT_INT "%d"
#define FMT_F0 "%.0f"
#define FMT_F1 "%.1f"
#define FMT_F4 "%.4f"

struct col
{
	struct ovc_csv_col pub;
	enum col_kind kind;
	size_t off; /* of the value in struct ovc_row */
};

/* an element column's member has its kind's type */
#define OVC_COL_FIELD(name, kind, unit, doc)
#define OVC_COL_ELEM(name, kind, member, unit, doc)                   \
	_Static_assert(__builtin_types_compatible_p(                      \
						   __typeof__(((struct ovc_row *)0)->member), \
						   OVC_COL_T_##kind),                         \
			#name);
#include "ovc/columns.def"

static const struct col cols[] = {
#define OVC_COL_FIELD(name, kind, unit, doc) \
	{{#name, FMT_##kind, unit, doc}, K_##kind, offsetof(struct ovc_row, name)},
#define OVC_COL_ELEM(name, kind, member, unit, doc) \
	{{#name, FMT_##kind, unit, doc}, K_##kind,      \
			offsetof(struct ovc_row, member)},
#include "ovc/columns.def"
};

#define NCOLS ((int)(sizeof(cols) / sizeof(cols[0])))

int ovc_csv_columns(void)
{
	return NCOLS;
}

const struct ovc_csv_col *ovc_csv_column(int i)
{
	return i >= 0 && i < NCOLS ? &cols[i].pub : NULL;
}

/* Appends one value (sep: "" or ",") at buf + n; returns as snprintf(). */
static int put_value(const struct col *c, const struct ovc_row *r,
		const char *sep, char *buf, int size)
{
	const char *p = (const char *)r + c->off;

	switch(c->kind) {
		case K_TIME:
			return snprintf(buf, size, "%s" FMT_TIME, sep,
					(long long)*(const int64_t *)p);
		case K_ALG:
			return snprintf(buf, size, "%s" FMT_ALG, sep,
					ovc_alg_name(*(const enum ovc_alg *)p));
		case K_U64:
			return snprintf(buf, size, "%s" FMT_U64, sep,
					(unsigned long long)*(const uint64_t *)p);
		case K_INT:
			return snprintf(buf, size, "%s" FMT_INT, sep, *(const int *)p);
		case K_F0:
			return snprintf(buf, size, "%s" FMT_F0, sep, *(const double *)p);
		case K_F1:
			return snprintf(buf, size, "%s" FMT_F1, sep, *(const double *)p);
		case K_F4:
			return snprintf(buf, size, "%s" FMT_F4, sep, *(const double *)p);
	}
	return -1;
}

/* Writes the header (r NULL) or row r's line. */
static int write_line(const struct ovc_row *r, char *buf, int size)
{
	int i, k, n = 0;

	if(size > 0)
		buf[0] = '\0';
	for(i = 0; i < NCOLS; i++) {
		char *at = n < size ? buf + n : NULL;
		int room = n < size ? size - n : 0;
		const char *sep = i > 0 ? "," : "";

		k = r ? put_value(&cols[i], r, sep, at, room)
			  : snprintf(at, room, "%s%s", sep, cols[i].pub.name);
		if(k < 0)
			return k;
		n += k;
	}
	return n;
}

int ovc_csv_header(char *buf, int size)
{
	return write_line(NULL, buf, size);
}

int ovc_csv_line(const struct ovc_row *r, char *buf, int size)
{
	return write_line(r, buf, size);
}
