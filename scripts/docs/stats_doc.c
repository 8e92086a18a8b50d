/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats_doc - prints the module's statistics (modules/ovc/ovc_stats.def)
 * as a Markdown table (name, kind, unit, meaning). The module's reference
 * (modules/ovc/doc/ovc_admin.xml) embeds it between markers, as DocBook
 * (scripts/docs/doc-table.awk); `make docs` refreshes it and `make check-docs`
 * fails when the reference and the list disagree.
 */
#include <stdio.h>

static const struct
{
	const char *name, *kind, *unit, *doc;
} stats[] = {
#define OVC_STAT(name, kind, unit, value, doc) {#name, #kind, unit, doc},
#include "ovc_stats.def"
};

int main(void)
{
	size_t i;

	printf("| statistic | kind | unit | meaning |\n");
	printf("|---|---|---|---|\n");
	for(i = 0; i < sizeof(stats) / sizeof(stats[0]); i++)
		printf("| `%s` | %s | %s | %s |\n", stats[i].name,
				stats[i].kind[0] == 'G' ? "gauge" : "counter", stats[i].unit,
				stats[i].doc);
	return 0;
}
