/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * ovc-jget - print values of a summary.json, for shell scripts.
 *
 *   ovc-jget FILE KEY...   one line, values separated by a space; a key
 *                          may be a path "meta.algorithm"; a missing or
 *                          null value prints "-"; reals with 4 digits
 */

#include <stdio.h>
#include <string.h>

#include <jansson.h>

static json_t *lookup(json_t *root, const char *path)
{
	char buf[256], *p, *dot;
	json_t *v = root;

	if(strlen(path) >= sizeof(buf))
		return NULL;
	strcpy(buf, path);
	p = buf;
	while(v != NULL && p != NULL) {
		dot = strchr(p, '.');
		if(dot)
			*dot++ = '\0';
		v = json_is_object(v) ? json_object_get(v, p) : NULL;
		p = dot;
	}
	return v;
}

int main(int argc, char **argv)
{
	json_error_t err;
	json_t *root, *v;
	int i;

	if(argc < 3) {
		fprintf(stderr, "usage: ovc-jget FILE KEY...\n");
		return 2;
	}
	root = json_load_file(argv[1], 0, &err);
	if(root == NULL) {
		fprintf(stderr, "ovc-jget: %s: %s\n", argv[1], err.text);
		return 1;
	}
	for(i = 2; i < argc; i++) {
		v = lookup(root, argv[i]);
		if(i > 2)
			putchar(' ');
		if(json_is_string(v))
			fputs(json_string_value(v), stdout);
		else if(json_is_integer(v))
			printf("%lld", (long long)json_integer_value(v));
		else if(json_is_real(v))
			printf("%.4g", json_real_value(v));
		else
			putchar('-');
	}
	putchar('\n');
	json_decref(root);
	return 0;
}
