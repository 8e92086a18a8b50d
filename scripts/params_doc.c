/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * params_doc - prints a Markdown table for the module README:
 *   params_doc            the parameter registry (name, type, default,
 *                         range, unit, meaning)
 *   params_doc modparams  the plain modparams of ovc_modparams.def (name,
 *                         type, default, accepted values, unit, meaning)
 * The README embeds each between markers; `make docs` refreshes them and
 * `make check-docs` fails when the README and a table disagree.
 */
#include <stdio.h>
#include <string.h>

#include "ovc/params.h"

#define OVC_MP_NO_HOOKS /* only the descriptions: no Kamailio symbols */
#include "ovc_modparams.h"

#define OVC_MP_INT OVC_MP_ENTRY_INT
#define OVC_MP_ENUM OVC_MP_ENTRY_ENUM
#define OVC_MP_STR OVC_MP_ENTRY_STR
static const struct ovc_modparam modparams[] = {
#include "ovc_modparams.def"
};

static void print_registry(void)
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
}

static void print_modparams(void)
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
		printf("%s | %s |\n", d->unit, d->doc);
	}
}

int main(int argc, char **argv)
{
	if(argc > 1 && strcmp(argv[1], "modparams") == 0)
		print_modparams();
	else if(argc > 1) {
		fprintf(stderr, "usage: params_doc [modparams]\n");
		return 2;
	} else
		print_registry();
	return 0;
}
