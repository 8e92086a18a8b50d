/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * modparams_doc - prints the module's plain modparams
 * (modules/ovc/ovc_modparams.def) as a Markdown table (name, type,
 * default, accepted values, unit, meaning; the meaning of one settable at
 * run time says so). The module's reference (modules/ovc/doc/ovc_admin.xml)
 * embeds it between markers, as DocBook
 * (scripts/docs/doc-table.awk); `make docs` refreshes it and `make check-docs`
 * fails when the reference and the table disagree.
 */
#include <stdio.h>

#define OVC_MP_NO_HOOKS /* only the descriptions: no Kamailio symbols */
#include "ovc_modparams.h"

#define OVC_MP_INT OVC_MP_ENTRY_INT
#define OVC_MP_ENUM OVC_MP_ENTRY_ENUM
#define OVC_MP_STR OVC_MP_ENTRY_STR
static const struct ovc_modparam modparams[] = {
#include "ovc_modparams.def"
};

int main(void)
{
	size_t i;
	unsigned k;

	printf("| name | type | default | accepted | unit | meaning |\n");
	printf("|---|---|---|---|---|---|\n");
	for(i = 0; i < sizeof(modparams) / sizeof(modparams[0]); i++) {
		const struct ovc_modparam *d = &modparams[i];

		printf("| `%s` | ", d->name);
		switch(d->type) {
			case OVC_MP_T_INT:
				printf("integer | %d | [%d, %d] | ", d->def, d->min, d->max);
				break;
			case OVC_MP_T_ENUM:
				printf("string | `%s` | ", d->names->names[d->def]);
				for(k = 0; k < d->names->count; k++)
					printf("%s`%s`", k ? ", " : "", d->names->names[k]);
				printf(" | ");
				break;
			case OVC_MP_T_STR:
				if(d->def_str == NULL)
					printf("string | | %s | ", d->accepted);
				else
					printf("string | `%s` | %s | ",
							d->def_str[0] ? d->def_str : "\"\"", d->accepted);
				break;
		}
		printf("%s | %s%s |\n", d->unit, d->doc,
				d->rt ? "; also at run time (`ovc.set`)" : "");
	}
	return 0;
}
