/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scan_fields FILE...: what ovc's SIP scanner reads from each raw message,
 * one line per file, tab-separated, for the differential test against
 * Kamailio's parser (tests/integration/t_scan_diff.sh):
 *   FILE OK METHOD-ID CALL-ID CSEQ-NUMBER TOP-VIA-BRANCH TO-TAG
 * (an absent branch or To tag is "<null>", as Kamailio prints it; the
 * method as the number Kamailio gives the methods it knows, $rmid, and
 * "other" for the rest: the class is compared, not the spelling), or
 *   FILE NO REASON
 * for a message the scanner leaves to Kamailio. Exit status 0, or 1 when a
 * file cannot be read.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ovc/sipscan.h"

#define MAX_MSG 65536

/* Kamailio's METHOD_* value of the scanner's method (core/parser/
 * msg_parser.h), 0 for a method the scanner does not know. */
static unsigned kamailio_method_id(enum ovc_sip_method m)
{
	switch(m) {
		case OVC_M_INVITE:
			return 1;
		case OVC_M_CANCEL:
			return 2;
		case OVC_M_ACK:
			return 4;
		case OVC_M_BYE:
			return 8;
		case OVC_M_INFO:
			return 16;
		case OVC_M_REGISTER:
			return 32;
		case OVC_M_SUBSCRIBE:
			return 64;
		case OVC_M_NOTIFY:
			return 128;
		case OVC_M_MESSAGE:
			return 256;
		case OVC_M_OPTIONS:
			return 512;
		case OVC_M_PRACK:
			return 1024;
		case OVC_M_UPDATE:
			return 2048;
		case OVC_M_REFER:
			return 4096;
		case OVC_M_PUBLISH:
			return 8192;
		case OVC_M_OTHER:
			break;
	}
	return 0;
}

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
	if(kamailio_method_id(sc.method) != 0)
		printf("%u\t", kamailio_method_id(sc.method));
	else
		fputs("other\t", stdout);
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
