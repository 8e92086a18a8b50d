/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scan_fields FILE...: what ovc's SIP scanner reads from each raw message,
 * one line per file, tab-separated, for the differential test against
 * Kamailio's parser (tests/integration/t_scan_diff.sh):
 *   FILE OK METHOD CALL-ID CSEQ-NUMBER TOP-VIA-BRANCH TO-TAG
 * (an absent branch or To tag is "<null>", as Kamailio prints it), or
 *   FILE NO REASON
 * for a message the scanner leaves to Kamailio. Exit status 0, or 1 when a
 * file cannot be read.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ovc/sipscan.h"

#define MAX_MSG 65536

/* Prints span s of buf, or "<null>" when it is empty. */
static void put_span(const char *buf, struct ovc_span s)
{
	if(s.len == 0)
		fputs("<null>", stdout);
	else
		fwrite(buf + s.off, 1, s.len, stdout);
}

/* One file: its line on stdout. Returns 0, or -1 when it cannot be read. */
static int one(const char *path)
{
	static char buf[MAX_MSG];
	struct ovc_sip_scan sc;
	size_t n;
	FILE *f;
	int rc;

	f = fopen(path, "rb");
	if(f == NULL) {
		perror(path);
		return -1;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	rc = ovc_sip_scan(buf, n, &sc);
	if(rc != OVC_SCAN_OK) {
		printf("%s\tNO\t%s\n", path, ovc_scan_reason_name(rc));
		return 0;
	}
	printf("%s\tOK\t", path);
	put_span(buf, sc.method_name);
	putchar('\t');
	put_span(buf, sc.callid);
	printf("\t%lu\t", (unsigned long)sc.cseq_num);
	put_span(buf, sc.via1_branch);
	putchar('\t');
	put_span(buf, sc.totag);
	putchar('\n');
	return 0;
}

int main(int argc, char **argv)
{
	int i, bad = 0;

	for(i = 1; i < argc; i++)
		if(one(argv[i]) < 0)
			bad = 1;
	return bad;
}
