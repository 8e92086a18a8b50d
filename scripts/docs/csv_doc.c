/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * csv_doc - prints the per-second CSV columns (include/ovc/columns.def)
 * as a Markdown table (position, name, format, unit, meaning). The module's
 * reference (modules/ovc/doc/ovc_admin.xml) embeds it between markers, as
 * DocBook (scripts/docs/doc-table.awk); `make docs` refreshes it and
 * `make check-docs` fails when the reference and the list disagree.
 */
#include <stdio.h>

#include "ovc/csv.h"

int main(void)
{
	int i;

	printf("| # | column | format | unit | meaning |\n");
	printf("|---|---|---|---|---|\n");
	for(i = 0; i < ovc_csv_columns(); i++) {
		const struct ovc_csv_col *c = ovc_csv_column(i);

		printf("| %d | `%s` | `%s` | %s | %s |\n", i + 1, c->name, c->format,
				c->unit, c->doc);
	}
	return 0;
}
