/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * ovc-caps - capability helper of the ovc testbed (libcap).
 *
 *   ovc-caps check CAP...       exit 0 if every CAP (e.g. net_admin) is in
 *                               the effective set, else name the missing
 *                               ones and exit 1
 *   ovc-caps drop [--keep CAP,...] -- CMD ARG...
 *                               drop every capability (bounding, ambient,
 *                               effective, permitted, inheritable) but
 *                               the CAPs kept (e.g. bpf) and exec CMD:
 *                               load generators and the proxy run without
 *                               privileges (the proxy keeps bpf for ovc's
 *                               kernel stage, which loads at its start)
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/capability.h>
#include <sys/prctl.h>

static int caps_check(int argc, char **argv)
{
	cap_t caps;
	cap_value_t v;
	cap_flag_value_t fv;
	char name[64];
	int i;
	int missing = 0;

	caps = cap_get_proc();
	if(caps == NULL) {
		perror("ovc-caps: cap_get_proc");
		return 2;
	}
	for(i = 0; i < argc; i++) {
		snprintf(name, sizeof(name), "cap_%s", argv[i]);
		if(cap_from_name(name, &v) < 0) {
			fprintf(stderr, "ovc-caps: unknown capability '%s'\n",
					argv[i]);
			cap_free(caps);
			return 2;
		}
		if(cap_get_flag(caps, v, CAP_EFFECTIVE, &fv) < 0
				|| fv != CAP_SET) {
			fprintf(stderr, "ovc-caps: missing CAP_%s\n", argv[i]);
			missing++;
		}
	}
	cap_free(caps);
	return missing ? 1 : 0;
}

#define KEEP_MAX 8

/* Parses "bpf,net_admin" into keep[] (at most KEEP_MAX). Returns how
 * many, or -1 naming the one not known. */
static int caps_parse(const char *list, cap_value_t *keep)
{
	char buf[256], name[64], *t, *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for(t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		snprintf(name, sizeof(name), "cap_%s", t);
		if(n == KEEP_MAX || cap_from_name(name, &keep[n]) < 0) {
			fprintf(stderr, "ovc-caps: unknown or too many: %s\n", t);
			return -1;
		}
		n++;
	}
	return n;
}

static int kept(cap_value_t v, const cap_value_t *keep, int nkeep)
{
	int i;

	for(i = 0; i < nkeep; i++)
		if(keep[i] == v)
			return 1;
	return 0;
}

/* Drops every capability but the nkeep in keep[], which stay in the
 * bounding, permitted and effective sets (so that root keeps them across
 * the exec that follows, no_new_privs set). */
static int caps_drop_all(const cap_value_t *keep, int nkeep)
{
	cap_t caps;
	cap_value_t v;

	/* the bounding set first: it needs CAP_SETPCAP, dropped below */
	for(v = 0; v <= CAP_LAST_CAP; v++) {
		if(kept(v, keep, nkeep))
			continue;
		if(CAP_IS_SUPPORTED(v) && cap_drop_bound(v) < 0
				&& errno != EINVAL) {
			perror("ovc-caps: cap_drop_bound");
			return -1;
		}
	}
	if(cap_reset_ambient() < 0 && errno != EINVAL) {
		perror("ovc-caps: cap_reset_ambient");
		return -1;
	}
	caps = cap_init();
	if(caps != NULL && nkeep > 0
			&& (cap_set_flag(caps, CAP_PERMITTED, nkeep, keep, CAP_SET) < 0
					|| cap_set_flag(caps, CAP_EFFECTIVE, nkeep, keep, CAP_SET)
							   < 0)) {
		perror("ovc-caps: cap_set_flag");
		cap_free(caps);
		return -1;
	}
	if(caps == NULL || cap_set_proc(caps) < 0) {
		perror("ovc-caps: cap_set_proc");
		if(caps)
			cap_free(caps);
		return -1;
	}
	cap_free(caps);
	/* no way back through setuid binaries either */
	if(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		perror("ovc-caps: PR_SET_NO_NEW_PRIVS");
		return -1;
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: ovc-caps check CAP...\n"
					"       ovc-caps drop [--keep CAP,...] -- CMD [ARG...]\n");
}

int main(int argc, char **argv)
{
	int i;

	if(argc < 2) {
		usage();
		return 2;
	}
	if(strcmp(argv[1], "check") == 0)
		return caps_check(argc - 2, argv + 2);
	if(strcmp(argv[1], "drop") == 0) {
		cap_value_t keep[KEEP_MAX];
		int nkeep = 0;

		i = 2;
		if(i + 1 < argc && strcmp(argv[i], "--keep") == 0) {
			nkeep = caps_parse(argv[i + 1], keep);
			if(nkeep < 0)
				return 2;
			i += 2;
		}
		if(i < argc && strcmp(argv[i], "--") == 0)
			i++;
		if(i >= argc) {
			usage();
			return 2;
		}
		if(caps_drop_all(keep, nkeep) < 0)
			return 1;
		execvp(argv[i], argv + i);
		fprintf(stderr, "ovc-caps: exec %s: %s\n", argv[i],
				strerror(errno));
		return 127;
	}
	usage();
	return 2;
}
