/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * params_doc - prints the parameter registry as a Markdown table (name,
 * type, default, range, unit, meaning). The module's reference
 * (modules/ovc/doc/ovc_admin.xml) embeds it between markers, as DocBook
 * (scripts/docs/doc-table.awk); `make docs` refreshes it and `make check-docs`
 * fails when the reference and the table disagree.
 */
#include <stdio.h>

#include "ovc/params.h"

int main(void)
{
	size_t i;

	printf("| name | type | default | range | unit | meaning |\n");
	printf("|---|---|---|---|---|---|\n");
	for(i = 0; i < ovc_param_count(); i++) {
		const struct ovc_param_def *d = ovc_param_at(i);

		printf("| `%s` | %s | %g | [%g, %g] | %s | %s |\n", d->name,
				d->type == OVC_PARAM_UINT ? "integer" : "number", d->def,
				d->min, d->max, d->unit ? d->unit : "", d->doc ? d->doc : "");
	}
	return 0;
}
