/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sip_probe - sends SIP requests, one UDP datagram each, and tells what the
 * proxy did with each one, for the integration tests that try ovc as an
 * attacker would (tests/integration/t_probe_variants.sh):
 *
 *   sip_probe -t PORT [-s LOCAL_PORT] [-g GAP_MS] [-w WAIT_MS] FILE...
 *
 * sends each FILE (a whole request, CRLF line ends, as it goes on the
 * wire) from 127.0.0.1:LOCAL_PORT to 127.0.0.1:PORT, GAP_MS apart, then
 * listens WAIT_MS more, and prints one line per FILE:
 *
 *   FILE relayed|refused|none CODE
 *
 * "refused": a final reply of 300 or more came back (ovc's 503); "relayed":
 * a provisional or 2xx reply and no refusal (the proxy took the request:
 * tm's 100 Trying, the callee's answer); "none": nothing came back (dropped,
 * or still waiting). CODE is the highest status seen (0: none). Replies are
 * matched to requests by the branch of their top Via, which must be unique
 * per FILE. Bounded: at most 4096 files, WAIT_MS at most 60 s. Exit
 * status 0, 1 on a usage or socket error.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_FILES 4096
#define MAX_MSG 65536
#define MAX_BRANCH 128

struct probe
{
	const char *path;
	char branch[MAX_BRANCH];
	int code; /* highest status seen, 0: none */
	int refused;
};

static struct probe probes[MAX_FILES];
static int n_probes;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The value of the first "branch=" at or after p in [p, e) into out
 * (NUL-terminated); 0, or -1 when there is none. */
static int branch_of(const char *p, const char *e, char *out)
{
	static const char key[] = "branch=";
	const char *q;
	size_t n = 0;

	for(q = p; q + sizeof(key) - 1 <= e; q++) {
		if(strncasecmp(q, key, sizeof(key) - 1) != 0)
			continue;
		q += sizeof(key) - 1;
		while(q < e && n + 1 < MAX_BRANCH && *q != ';' && *q != ','
				&& *q != '\r' && *q != '\n' && *q != ' ')
			out[n++] = *q++;
		out[n] = '\0';
		return n > 0 ? 0 : -1;
	}
	return -1;
}

/* One reply datagram: its status to the probe of its branch. */
static void take_reply(const char *buf, size_t len)
{
	char br[MAX_BRANCH];
	const char *via;
	int code, i;

	if(len < 12 || strncmp(buf, "SIP/2.0 ", 8) != 0)
		return;
	code = atoi(buf + 8);
	via = memmem(buf, len, "\nVia:", 5);
	if(via == NULL)
		via = memmem(buf, len, "\nv:", 3);
	if(via == NULL || branch_of(via, buf + len, br) < 0)
		return;
	for(i = 0; i < n_probes; i++) {
		if(strcmp(probes[i].branch, br) != 0)
			continue;
		if(code > probes[i].code)
			probes[i].code = code;
		if(code >= 300)
			probes[i].refused = 1;
		return;
	}
}

/* Reads replies on fd until deadline (ms of now_ms()). */
static void drain(int fd, long long deadline)
{
	static char buf[MAX_MSG];
	struct pollfd pfd;
	long long left;
	ssize_t n;

	pfd.fd = fd;
	pfd.events = POLLIN;
	while((left = deadline - now_ms()) > 0) {
		if(poll(&pfd, 1, (int)left) <= 0)
			continue;
		n = recv(fd, buf, sizeof(buf) - 1, 0);
		if(n > 0)
			take_reply(buf, (size_t)n);
	}
}

/* Reads the file at path into buf; its length, or -1. */
static ssize_t read_file(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if(f == NULL)
		return -1;
	n = fread(buf, 1, size, f);
	fclose(f);
	return (ssize_t)n;
}

int main(int argc, char **argv)
{
	static char msg[MAX_MSG];
	struct sockaddr_in to, me;
	int port = 0, local = 0, gap = 5, wait = 2000, opt, fd, i;
	ssize_t n;

	while((opt = getopt(argc, argv, "t:s:g:w:")) != -1) {
		switch(opt) {
			case 't':
				port = atoi(optarg);
				break;
			case 's':
				local = atoi(optarg);
				break;
			case 'g':
				gap = atoi(optarg);
				break;
			case 'w':
				wait = atoi(optarg);
				break;
			default:
				return 1;
		}
	}
	if(port <= 0 || port > 65535 || local < 0 || local > 65535 || gap < 0
			|| gap > 1000 || wait < 0 || wait > 60000 || optind >= argc
			|| argc - optind > MAX_FILES) {
		fprintf(stderr, "usage: sip_probe -t PORT [-s LOCAL_PORT] [-g GAP_MS]"
						" [-w WAIT_MS] FILE...\n");
		return 1;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	memset(&me, 0, sizeof(me));
	me.sin_family = AF_INET;
	me.sin_port = htons((unsigned short)local);
	me.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if(fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof(me)) < 0) {
		perror("sip_probe: socket");
		return 1;
	}
	to = me;
	to.sin_port = htons((unsigned short)port);
	for(i = optind; i < argc; i++) {
		struct probe *p = &probes[n_probes];

		n = read_file(argv[i], msg, sizeof(msg));
		p->path = argv[i];
		if(n <= 0 || branch_of(msg, msg + n, p->branch) < 0) {
			fprintf(stderr, "sip_probe: %s: unreadable or no branch\n",
					argv[i]);
			return 1;
		}
		n_probes++;
		if(sendto(fd, msg, (size_t)n, 0, (struct sockaddr *)&to, sizeof(to))
				< 0)
			fprintf(stderr, "sip_probe: %s: %s\n", argv[i], strerror(errno));
		drain(fd, now_ms() + gap);
	}
	drain(fd, now_ms() + wait);
	for(i = 0; i < n_probes; i++)
		printf("%s %s %d\n", probes[i].path,
				probes[i].refused	   ? "refused"
				: probes[i].code > 0 ? "relayed"
									 : "none",
				probes[i].code);
	close(fd);
	return 0;
}
