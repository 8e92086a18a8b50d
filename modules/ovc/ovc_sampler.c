/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - CPU sampling (ticker process only; memory: ovc_sampler_mem.c).
 *
 *  procs:  sum over Kamailio's processes (pt[]) of /proc/<pid>/schedstat's
 *          first field (ns on CPU);
 *  system: /proc/stat "cpu" line, all but idle and iowait, as ns;
 *  cgroup: v1 cpuacct.usage (ns) or v2 cpu.stat usage_usec of the group
 *          Kamailio runs in; capacity from cpu.cfs_quota_us/cfs_period_us or
 *          cpu.max (own group or the tightest ancestor).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/dprint.h"
#include "core/globals.h"
#include "core/pt.h"

#include "ovc/derive.h"

#include "ovc_modparams.h"
#include "ovc_sampler.h"

#define OVC_PATH_MAX 512

static enum ovc_cpu_source sampler_src;
static char cg_usage_path[OVC_PATH_MAX + 32]; /* cpuacct.usage or cpu.stat */
static int cg_usage_v2;					 /* 1: cpu.stat usage_usec */
static double cg_quota;					 /* CPUs, 0: none */
static long cg_period_us;				 /* CFS period of that quota */
static int cg_one_group; /* usage and quota read from the same group's
							path (v2; v1 with cpu and cpuacct alike) */
static long clk_tck;

/* Reads a small file into buf (NUL-terminated). Returns length or -1. */
static int read_small(const char *path, char *buf, size_t size)
{
	int fd;
	ssize_t n;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if(fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if(n < 0)
		return -1;
	buf[n] = '\0';
	return (int)n;
}

/* A file the ticker reads at every epoch, kept open: opening a /proc or
 * cgroup file walks its path, checks permissions and builds a seq_file
 * each time, which at pi's 10 ms epoch cost about a fifth of a 10 % CPU
 * quota (bench/RESULTS.md, "The ticker's own CPU"). */
struct kept_file
{
	int fd;	 /* -1: closed */
	int pid; /* whose /proc file it is (procs), else 0 */
};

#define OVC_KEPT_PROCS 256 /* processes whose schedstat stays open */

static struct kept_file kept_procs[OVC_KEPT_PROCS];
static struct kept_file kept_cg = {-1, 0};
static struct kept_file kept_stat = {-1, 0};
static int kept_ready;

static void kept_init(void)
{
	int i;

	for(i = 0; i < OVC_KEPT_PROCS; i++) {
		kept_procs[i].fd = -1;
		kept_procs[i].pid = 0;
	}
	kept_ready = 1;
}

static void kept_close(struct kept_file *k)
{
	if(k->fd >= 0)
		close(k->fd);
	k->fd = -1;
	k->pid = 0;
}

/* Reads path (or, for pid > 0, the file already open for that pid) from
 * its start into buf (NUL-terminated), opening it when needed; a failed
 * read closes it so that the next call opens it again. Returns length or
 * -1. */
static int read_kept(struct kept_file *k, const char *path, int pid,
		char *buf, size_t size)
{
	ssize_t n;

	if(k->fd >= 0 && k->pid != pid)
		kept_close(k); /* a process restarted in that slot */
	if(k->fd < 0) {
		k->fd = open(path, O_RDONLY | O_CLOEXEC);
		if(k->fd < 0)
			return -1;
		k->pid = pid;
	}
	n = pread(k->fd, buf, size - 1, 0);
	if(n < 0) {
		kept_close(k);
		return -1;
	}
	buf[n] = '\0';
	return (int)n;
}

/* Finds in /proc/self/mountinfo the mount of a v1 hierarchy carrying
 * controller ctrl (or the v2 hierarchy when ctrl is NULL); fills its
 * mount point and root. Returns 0 or -1. */
static int cg_find_mount(const char *ctrl, char *mnt, char *root)
{
	FILE *f;
	char line[1024];
	int found = -1;

	f = fopen("/proc/self/mountinfo", "re");
	if(f == NULL)
		return -1;
	while(found < 0 && fgets(line, sizeof(line), f)) {
		char r[OVC_PATH_MAX], m[OVC_PATH_MAX], fstype[64], sopts[512];
		char *sep = strstr(line, " - ");
		char *tok, *save;

		if(sep == NULL)
			continue;
		if(sscanf(line, "%*s %*s %*s %511s %511s", r, m) != 2)
			continue;
		if(sscanf(sep + 3, "%63s %*s %511s", fstype, sopts) != 2)
			continue;
		if(ctrl == NULL) {
			if(strcmp(fstype, "cgroup2") == 0)
				found = 0;
		} else if(strcmp(fstype, "cgroup") == 0) {
			for(tok = strtok_r(sopts, ",", &save); tok;
					tok = strtok_r(NULL, ",", &save)) {
				if(strcmp(tok, ctrl) == 0) {
					found = 0;
					break;
				}
			}
		}
		if(found == 0) {
			strcpy(mnt, m);
			strcpy(root, r);
		}
	}
	fclose(f);
	return found;
}

/* Our group path in the hierarchy of ctrl (v1) or v2 (ctrl NULL), from
 * /proc/self/cgroup. Returns 0 or -1. */
static int cg_self_path(const char *ctrl, char *path)
{
	FILE *f;
	char line[1024];
	int found = -1;

	f = fopen("/proc/self/cgroup", "re");
	if(f == NULL)
		return -1;
	while(found < 0 && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':');
		char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		char *tok, *save;
		size_t n;

		if(c2 == NULL)
			continue;
		*c2 = '\0';
		n = strlen(c2 + 1);
		if(n && c2[n] == '\n')
			c2[n] = '\0';
		if(ctrl == NULL) {
			if(c1[1] == '\0' && strncmp(line, "0", 1) == 0)
				found = 0;
		} else {
			for(tok = strtok_r(c1 + 1, ",", &save); tok;
					tok = strtok_r(NULL, ",", &save)) {
				if(strcmp(tok, ctrl) == 0) {
					found = 0;
					break;
				}
			}
		}
		if(found == 0) {
			if(strlen(c2 + 1) >= OVC_PATH_MAX)
				found = -1;
			else
				strcpy(path, c2 + 1);
		}
	}
	fclose(f);
	return found;
}

/* Directory of our group in a hierarchy mounted at mnt with root root. */
static int cg_dir(const char *mnt, const char *root, const char *self,
		char *out, size_t size)
{
	size_t rl = strlen(root);
	const char *rel = self;
	int n;

	if(rl > 1 && strncmp(self, root, rl) == 0)
		rel = self + rl;
	n = snprintf(out, size, "%s%s", mnt, strcmp(rel, "/") == 0 ? "" : rel);
	return (n < 0 || (size_t)n >= size) ? -1 : 0;
}

/* Tightest CPU quota (CPUs) on dir and its ancestors up to mnt; 0: none. */
static double cg_quota_walk(const char *mnt, const char *dir, int v2)
{
	char path[OVC_PATH_MAX + 32], cur[OVC_PATH_MAX], buf[128];
	double best = 0;
	size_t ml = strlen(mnt);

	snprintf(cur, sizeof(cur), "%s", dir);
	for(;;) {
		double q = 0;
		long p_us = 0;

		if(v2) {
			char qs[32];
			long period;

			snprintf(path, sizeof(path), "%s/cpu.max", cur);
			if(read_small(path, buf, sizeof(buf)) > 0
					&& sscanf(buf, "%31s %ld", qs, &period) == 2
					&& strcmp(qs, "max") != 0 && period > 0) {
				q = atof(qs) / (double)period;
				p_us = period;
			}
		} else {
			long quota, period;

			snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", cur);
			if(read_small(path, buf, sizeof(buf)) > 0
					&& sscanf(buf, "%ld", &quota) == 1 && quota > 0) {
				snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", cur);
				if(read_small(path, buf, sizeof(buf)) > 0
						&& sscanf(buf, "%ld", &period) == 1 && period > 0) {
					q = (double)quota / (double)period;
					p_us = period;
				}
			}
		}
		if(q > 0 && (best == 0 || q < best)) {
			best = q;
			cg_period_us = p_us;
		}
		if(strlen(cur) <= ml)
			break;
		char *slash = strrchr(cur, '/');
		if(slash == NULL || (size_t)(slash - cur) < ml)
			break;
		*slash = '\0';
	}
	return best;
}

/* Resolves the cgroup usage file and quota. Returns 0 or -1. */
static int cg_init(void)
{
	char mnt[OVC_PATH_MAX], root[OVC_PATH_MAX], self[OVC_PATH_MAX];
	char dir[OVC_PATH_MAX], acct_self[OVC_PATH_MAX];
	char buf[64];

	cg_quota = 0;
	cg_one_group = 0;
	cg_usage_path[0] = '\0';
	/* v1: usage from cpuacct, quota from cpu */
	if(cg_find_mount("cpuacct", mnt, root) == 0
			&& cg_self_path("cpuacct", self) == 0
			&& cg_dir(mnt, root, self, dir, sizeof(dir)) == 0) {
		snprintf(cg_usage_path, sizeof(cg_usage_path), "%s/cpuacct.usage",
				dir);
		cg_usage_v2 = 0;
		if(read_small(cg_usage_path, buf, sizeof(buf)) <= 0)
			cg_usage_path[0] = '\0';
		snprintf(acct_self, sizeof(acct_self), "%s", self);
		if(cg_find_mount("cpu", mnt, root) == 0
				&& cg_self_path("cpu", self) == 0
				&& cg_dir(mnt, root, self, dir, sizeof(dir)) == 0) {
			cg_quota = cg_quota_walk(mnt, dir, 0);
			cg_one_group = strcmp(acct_self, self) == 0;
		}
	}
	if(cg_usage_path[0] == '\0' && cg_find_mount(NULL, mnt, root) == 0
			&& cg_self_path(NULL, self) == 0
			&& cg_dir(mnt, root, self, dir, sizeof(dir)) == 0) {
		snprintf(cg_usage_path, sizeof(cg_usage_path), "%s/cpu.stat", dir);
		cg_usage_v2 = 1;
		if(read_small(cg_usage_path, buf, sizeof(buf)) <= 0)
			cg_usage_path[0] = '\0';
		else if(cg_quota == 0) {
			cg_quota = cg_quota_walk(mnt, dir, 1);
			cg_one_group = 1; /* else the quota is a v1 group's */
		}
	}
	return cg_usage_path[0] ? 0 : -1;
}

ovc_time_ns ovc_sampler_cpu_period_ns(void)
{
	if(cg_quota > 0 && cg_period_us > 0)
		return (ovc_time_ns)cg_period_us * 1000;
	return 100 * OVC_NS_PER_MS;
}

double ovc_sampler_stall_ms(void)
{
	return ovc_derive_stall_ms((double)cg_period_us / 1000.0, cg_quota);
}

/* modparam cpu_capacity: "auto" (0) or a number of CPUs in (0, 4096] */
int ovc_mp_check_cpu_capacity(const char *name, void *val, void *field)
{
	char *s = (char *)val, *end;
	double v;

	if(strcmp(s, "auto") == 0) {
		*(double *)field = 0;
		return 0;
	}
	v = strtod(s, &end);
	if(end == s || *end != '\0' || !(v > 0 && v <= 4096)) {
		LM_ERR("modparam \"%s\": '%s' is not \"auto\" or a number of CPUs"
			   " in (0, 4096]\n",
				name, s);
		return -1;
	}
	*(double *)field = v;
	return 0;
}

int ovc_sampler_init(int *srcp, double *capacity)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int cg_ok, src = *srcp;

	clk_tck = sysconf(_SC_CLK_TCK);
	if(clk_tck <= 0)
		clk_tck = 100;
	if(ncpu <= 0)
		ncpu = 1;
	cg_ok = cg_init();
	if(src == OVC_CPU_AUTO) /* one file for the whole quota, not one per
							   process (ovc_sampler.h), when that file
							   counts the group the quota caps */
		src = cg_ok == 0 && cg_quota > 0 && cg_one_group ? OVC_CPU_CGROUP
														 : OVC_CPU_PROCS;
	*srcp = src;
	sampler_src = (enum ovc_cpu_source)src;
	if(src == OVC_CPU_CGROUP && cg_ok != 0) {
		LM_ERR("cpu_source=cgroup: no readable cgroup CPU usage file for"
			   " this process (cgroup v1 cpuacct.usage or v2 cpu.stat)\n");
		return -1;
	}
	if(*capacity <= 0) {
		if(cg_quota > 0 && src != OVC_CPU_SYSTEM)
			*capacity = cg_quota;
		else if(src == OVC_CPU_PROCS)
			*capacity = (children_no > 0 && children_no < ncpu)
								? (double)children_no
								: (double)ncpu;
		else
			*capacity = (double)ncpu;
	}
	LM_INFO("cpu_source=%s cpu_capacity=%.3f CPUs (cgroup quota %.3f,"
			" online %ld)\n",
			ovc_cpu_source_name(src), *capacity, cg_quota, ncpu);
	return 0;
}

/* Sum of schedstat run time over Kamailio's processes. */
static int cpu_procs(uint64_t *busy)
{
	char path[64], buf[128];
	uint64_t sum = 0;
	int i, n, ok = 0;

	n = process_count ? *process_count : 0;
	for(i = 0; i < n; i++) {
		unsigned long long v;

		int got;

		if(pt[i].pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/schedstat", pt[i].pid);
		got = i < OVC_KEPT_PROCS ? read_kept(&kept_procs[i], path, pt[i].pid,
										 buf, sizeof(buf))
								 : read_small(path, buf, sizeof(buf));
		if(got > 0 && sscanf(buf, "%llu", &v) == 1) {
			sum += v;
			ok = 1;
		}
	}
	if(!ok)
		return -1;
	*busy = sum;
	return 0;
}

/* Machine-wide busy time from /proc/stat, ns. */
static int cpu_system(uint64_t *busy)
{
	char buf[512];
	unsigned long long u, ni, sy, id, io, irq, sirq, st;

	if(read_kept(&kept_stat, "/proc/stat", 0, buf, sizeof(buf)) <= 0)
		return -1;
	if(sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &u, &ni,
			   &sy, &id, &io, &irq, &sirq, &st)
			!= 8)
		return -1;
	*busy = (uint64_t)(u + ni + sy + irq + sirq + st)
			* (uint64_t)(1000000000 / clk_tck);
	return 0;
}

/* Cgroup usage, ns. */
static int cpu_cgroup(uint64_t *busy)
{
	char buf[1024];
	unsigned long long v;
	char *p;

	if(cg_usage_path[0] == '\0'
			|| read_kept(&kept_cg, cg_usage_path, 0, buf, sizeof(buf)) <= 0)
		return -1;
	if(!cg_usage_v2) {
		if(sscanf(buf, "%llu", &v) != 1)
			return -1;
		*busy = v;
		return 0;
	}
	p = strstr(buf, "usage_usec ");
	if(p == NULL || sscanf(p + 11, "%llu", &v) != 1)
		return -1;
	*busy = v * 1000ULL;
	return 0;
}

int ovc_sampler_cpu_ns(uint64_t *busy_ns)
{
	if(!kept_ready)
		kept_init();
	switch(sampler_src) {
		case OVC_CPU_PROCS:
			return cpu_procs(busy_ns);
		case OVC_CPU_SYSTEM:
			return cpu_system(busy_ns);
		case OVC_CPU_CGROUP:
			return cpu_cgroup(busy_ns);
		case OVC_CPU_AUTO: /* resolved by ovc_sampler_init() */
		case OVC_CPU_SOURCE_COUNT:
			break;
	}
	return -1;
}
