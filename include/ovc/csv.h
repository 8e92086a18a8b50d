/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the CSV text of the per-second rows (ovc.csv), made from the
 * column list ovc/columns.def.
 */
#ifndef OVC_CSV_H
#define OVC_CSV_H

#include "ovc/row.h"

/* One column of ovc/columns.def, for docs. */
struct ovc_csv_col
{
	const char *name;	/* CSV column name */
	const char *format; /* how its values are printed (printf format) */
	const char *unit;	/* unit or type of its values */
	const char *doc;	/* one line of meaning */
};

/* Writes the header line (no newline) into buf of size bytes. Returns as
 * snprintf(). */
int ovc_csv_header(char *buf, int size);

/* Writes row r as one line (no newline) into buf. Returns as snprintf(). */
int ovc_csv_line(const struct ovc_row *r, char *buf, int size);

/* Number of columns, and column i (NULL when out of range). */
int ovc_csv_columns(void);
const struct ovc_csv_col *ovc_csv_column(int i);

#endif
