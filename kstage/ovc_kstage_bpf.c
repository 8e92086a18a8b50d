/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the kernel stage through bpf() (see ovc_kstage_bpf.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <linux/bpf.h>

#include "ovc/kstage_scan.h"
#include "ovc/kstage_seen.h"

#include "ovc_kstage_bpf.h"
/* the program: build/mod/ovc_kstage_prog.h, generated at build time */
#include "ovc_kstage_prog.h"

#ifndef SO_ATTACH_BPF
#define SO_ATTACH_BPF 50
#endif
#ifndef SO_DETACH_BPF
#define SO_DETACH_BPF 27
#endif

#define CPU_MAX 1024 /* per-CPU values read at most */
#ifndef BPF_F_MMAPABLE
#define BPF_F_MMAPABLE (1U << 10)
#endif
#define SEEN_BYTES \
	((size_t)OVC_KS_SEEN_BUCKETS * sizeof(struct ovc_ks_seen_bucket))

/* the fair share's map, mapped whole (pages) */
#define FAIR_BYTES \
	((sizeof(struct ovc_ks_fair) + 4095) & ~(size_t)4095)

static long sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(__NR_bpf, cmd, a, sizeof(*a));
}

/* -errno of the last failure, its reason in k->err. */
static int fail(struct ovc_ksb *k, const char *what)
{
	int e = errno ? errno : EINVAL;

	snprintf(k->err, sizeof(k->err), "%s: %s", what, strerror(e));
	return -e;
}

/* Possible CPUs, from /sys/devices/system/cpu/possible ("0-N"). */
static unsigned possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	unsigned a = 0, b = 0, n = 0;
	int c;

	if(f == NULL)
		return (unsigned)sysconf(_SC_NPROCESSORS_CONF);
	/* the highest number in the list, plus one */
	while((c = fgetc(f)) != EOF) {
		if(c >= '0' && c <= '9') {
			a = a * 10 + (unsigned)(c - '0');
			b = a + 1;
		} else {
			a = 0;
		}
		if(b > n)
			n = b;
	}
	fclose(f);
	return n > 0 && n <= CPU_MAX ? n : 1;
}

void ovc_ksb_init(struct ovc_ksb *k)
{
	int i;

	memset(k, 0, sizeof(*k));
	for(i = 0; i < OVC_KS_MAP_COUNT; i++)
		k->map[i] = -1;
	k->prog = -1;
	k->seen = NULL;
	k->fair = NULL;
}

static int map_create(struct ovc_ksb *k, int i, unsigned type, unsigned ksz,
		unsigned vsz, unsigned max, unsigned flags, const char *name)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.map_flags = flags;
	a.key_size = ksz;
	a.value_size = vsz;
	a.max_entries = max;
	strncpy(a.map_name, name, sizeof(a.map_name) - 1);
	k->map[i] = (int)sys_bpf(BPF_MAP_CREATE, &a);
	return k->map[i] < 0 ? fail(k, "cannot create a BPF map") : 0;
}

#ifdef OVC_KS_NO_PROG
unsigned ovc_ksb_insns(void)
{
	return 0;
}

static int prog_load(struct ovc_ksb *k)
{
	snprintf(k->err, sizeof(k->err), "%s", OVC_KS_NO_PROG);
	return -ENOSYS;
}
#else
unsigned ovc_ksb_insns(void)
{
	return sizeof(ovc_ks_insns) / sizeof(ovc_ks_insns[0]);
}

/* The verifier's reason into k->err: the log's last line but its
 * closing "processed N insns ..." summary. */
static void log_tail(struct ovc_ksb *k, const char *log)
{
	size_t n = strlen(log);
	const char *p;

	for(;;) {
		while(n > 0 && log[n - 1] == '\n')
			n--;
		for(p = log + n; p > log && p[-1] != '\n'; p--)
			;
		if(p == log || strncmp(p, "processed ", 10) != 0)
			break;
		n = (size_t)(p - log);
	}
	snprintf(k->err + strlen(k->err), sizeof(k->err) - strlen(k->err),
			" (verifier: %.*s)", (int)(log + n - p), p);
}

static int prog_load(struct ovc_ksb *k)
{
	static struct bpf_insn
			insns[sizeof(ovc_ks_insns) / sizeof(ovc_ks_insns[0])];
	static char log[1 << 22];
	union bpf_attr a;
	unsigned i;
	int rc;

	memcpy(insns, ovc_ks_insns, sizeof(insns));
	for(i = 0; i < sizeof(ovc_ks_relocs) / sizeof(ovc_ks_relocs[0]); i++) {
		insns[ovc_ks_relocs[i][0]].src_reg = BPF_PSEUDO_MAP_FD;
		insns[ovc_ks_relocs[i][0]].imm = k->map[ovc_ks_relocs[i][1]];
	}
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insns = (uint64_t)(uintptr_t)insns;
	a.insn_cnt = ovc_ksb_insns();
	a.license = (uint64_t)(uintptr_t) "GPL";
	strncpy(a.prog_name, "ovc_kstage", sizeof(a.prog_name) - 1);
	k->prog = (int)sys_bpf(BPF_PROG_LOAD, &a);
	if(k->prog >= 0)
		return 0;
	if(errno != EINVAL && errno != EACCES && errno != EFAULT && errno != E2BIG)
		return fail(k, "cannot load the socket filter");
	/* again with the verifier's log, to say why */
	log[0] = '\0';
	a.log_buf = (uint64_t)(uintptr_t)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	k->prog = (int)sys_bpf(BPF_PROG_LOAD, &a);
	if(k->prog >= 0)
		return 0;
	rc = fail(k, "the verifier refused the socket filter");
	log_tail(k, log);
	return rc;
}
#endif

/* Maps the seen table into this process (shared: the children forked
 * later see the same slots). */
static int seen_map(struct ovc_ksb *k)
{
	void *p = mmap(NULL, SEEN_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED,
			k->map[OVC_KS_MAP_SEEN], 0);

	if(p == MAP_FAILED)
		return fail(k, "cannot map the seen table");
	k->seen = p;
	return 0;
}

/* Maps the fair share's sketch into this process (shared, as the seen
 * table). */
static int fair_map(struct ovc_ksb *k)
{
	void *p = mmap(NULL, FAIR_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED,
			k->map[OVC_KS_MAP_FAIR], 0);

	if(p == MAP_FAILED)
		return fail(k, "cannot map the fair share's sketch");
	k->fair = p;
	k->fair->level = OVC_FAIR_ALL;
	return 0;
}

int ovc_ksb_load(struct ovc_ksb *k, unsigned max_admitted)
{
	int rc;

	k->ncpu = possible_cpus();
	if((rc = map_create(k, OVC_KS_MAP_SHARE, BPF_MAP_TYPE_ARRAY, 4,
				sizeof(struct ovc_ks_share), 1, 0, "ovc_ks_share"))
					< 0
			|| (rc = map_create(k, OVC_KS_MAP_STATS, BPF_MAP_TYPE_PERCPU_ARRAY,
						4, sizeof(struct ovc_ks_stats), 1, 0, "ovc_ks_stats"))
					   < 0
			|| (rc = map_create(k, OVC_KS_MAP_WORK, BPF_MAP_TYPE_PERCPU_ARRAY,
						4, sizeof(struct ovc_ks_work), 1, 0, "ovc_ks_work"))
					   < 0
			|| (rc = map_create(k, OVC_KS_MAP_ADMITTED, BPF_MAP_TYPE_LRU_HASH,
						8, 4, max_admitted, 0, "ovc_ks_admitted"))
					   < 0
			|| (rc = map_create(k, OVC_KS_MAP_SEEN, BPF_MAP_TYPE_ARRAY, 4,
						sizeof(struct ovc_ks_seen_bucket), OVC_KS_SEEN_BUCKETS,
						BPF_F_MMAPABLE, "ovc_ks_seen"))
					   < 0
			|| (rc = map_create(k, OVC_KS_MAP_FAIR, BPF_MAP_TYPE_ARRAY, 4,
						sizeof(struct ovc_ks_fair), 1, BPF_F_MMAPABLE,
						"ovc_ks_fair"))
					   < 0
			|| (rc = seen_map(k)) < 0 || (rc = fair_map(k)) < 0
			|| (rc = prog_load(k)) < 0) {
		ovc_ksb_close(k);
		return rc;
	}
	return 0;
}

int ovc_ksb_attach(struct ovc_ksb *k, int fd)
{
	if(setsockopt(fd, SOL_SOCKET, SO_ATTACH_BPF, &k->prog, sizeof(k->prog))
			!= 0)
		return fail(k, "setsockopt(SO_ATTACH_BPF)");
	return 0;
}

int ovc_ksb_detach(int fd)
{
	int dummy = 0;

	if(setsockopt(fd, SOL_SOCKET, SO_DETACH_BPF, &dummy, sizeof(dummy)) != 0)
		return -errno;
	return 0;
}

static int map_op(int cmd, int map, const void *key, void *val)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (unsigned)map;
	a.key = (uint64_t)(uintptr_t)key;
	a.value = (uint64_t)(uintptr_t)val;
	a.flags = cmd == BPF_MAP_UPDATE_ELEM ? BPF_ANY : 0;
	return sys_bpf(cmd, &a) == 0 ? 0 : -errno;
}

int ovc_ksb_set_share(struct ovc_ksb *k, uint64_t drop)
{
	struct ovc_ks_share v = {drop};
	uint32_t zero = 0;

	return map_op(BPF_MAP_UPDATE_ELEM, k->map[OVC_KS_MAP_SHARE], &zero, &v);
}

int ovc_ksb_admit(struct ovc_ksb *k, uint64_t key, uint32_t sec)
{
	return map_op(BPF_MAP_UPDATE_ELEM, k->map[OVC_KS_MAP_ADMITTED], &key, &sec);
}

int ovc_ksb_admitted(struct ovc_ksb *k, uint64_t key)
{
	uint32_t sec;
	int rc = map_op(
			BPF_MAP_LOOKUP_ELEM, k->map[OVC_KS_MAP_ADMITTED], &key, &sec);

	return rc == 0 ? 1 : rc == -ENOENT ? 0 : rc;
}

int ovc_ksb_read(struct ovc_ksb *k, struct ovc_ks_stats *sum)
{
	static struct ovc_ks_stats per[CPU_MAX];
	uint32_t zero = 0;
	unsigned i;
	int rc;

	memset(sum, 0, sizeof(*sum));
	rc = map_op(BPF_MAP_LOOKUP_ELEM, k->map[OVC_KS_MAP_STATS], &zero, per);
	if(rc < 0)
		return rc;
	for(i = 0; i < k->ncpu; i++) {
		sum->invites += per[i].invites;
		sum->initial += per[i].initial;
		sum->unsure += per[i].unsure;
		sum->spared += per[i].spared;
		sum->dropped += per[i].dropped;
	}
	return 0;
}

int ovc_ksb_test_run(
		struct ovc_ksb *k, const void *payload, size_t len, uint32_t *kept)
{
	return ovc_ksb_test_time(k, payload, len, 1, kept, NULL);
}

int ovc_ksb_test_time(struct ovc_ksb *k, const void *payload, size_t len,
		uint32_t repeat, uint32_t *kept, uint32_t *ns)
{
	/* an Ethernet header, which the kernel pulls before the program runs
	 * (a socket filter's test run starts past the link layer), then the
	 * UDP header the program skips */
	static unsigned char d[4096];
	const size_t eth = 14, udp = 8;
	union bpf_attr a;

	if(len > sizeof(d) - eth - udp) {
		snprintf(k->err, sizeof(k->err), "test run: %zu bytes", len);
		return -EINVAL;
	}
	memset(d, 0, eth + udp);
	/* the local experimental type, not IP: the kernel would read an IP
	 * header where the UDP header is (and refuses short ones) */
	d[12] = 0x88;
	d[13] = 0xb5;
	d[eth + 0] = 0x13; /* ports 5060 -> 5060 */
	d[eth + 1] = 0xc4;
	d[eth + 2] = 0x13;
	d[eth + 3] = 0xc4;
	d[eth + 4] = (unsigned char)((udp + len) >> 8);
	d[eth + 5] = (unsigned char)(udp + len);
	memcpy(d + eth + udp, payload, len);
	memset(&a, 0, sizeof(a));
	a.test.prog_fd = (unsigned)k->prog;
	a.test.data_in = (uint64_t)(uintptr_t)d;
	a.test.data_size_in = (unsigned)(eth + udp + len);
	a.test.repeat = repeat;
	if(sys_bpf(BPF_PROG_TEST_RUN, &a) != 0)
		return fail(k, "BPF_PROG_TEST_RUN");
	*kept = a.test.retval;
	if(ns != NULL)
		*ns = a.test.duration;
	return 0;
}

long long ovc_ksb_seen_age_ms(
		const struct ovc_ksb *k, uint64_t key, uint32_t now_ms)
{
	if(k->seen == NULL)
		return -1;
	/* the filter may rewrite the bucket meanwhile: a torn read finds
	 * another call or none, hence unknown (never late) */
	return ovc_ks_seen_age_ms(&k->seen[ovc_ks_seen_index(key)], key, now_ms);
}

void ovc_ksb_seen_admit(struct ovc_ksb *k, uint64_t key, uint32_t now_ms)
{
	if(k->seen == NULL)
		return;
	/* a race with the filter noting another call in the bucket loses
	 * one of the two: either call is then seen as new (never late) */
	ovc_ks_seen_admit(&k->seen[ovc_ks_seen_index(key)], key, now_ms);
}

void ovc_ksb_close(struct ovc_ksb *k)
{
	int i;

	if(k->seen != NULL)
		munmap((void *)k->seen, SEEN_BYTES);
	k->seen = NULL;
	if(k->fair != NULL)
		munmap((void *)k->fair, FAIR_BYTES);
	k->fair = NULL;

	for(i = 0; i < OVC_KS_MAP_COUNT; i++) {
		if(k->map[i] >= 0)
			close(k->map[i]);
		k->map[i] = -1;
	}
	if(k->prog >= 0)
		close(k->prog);
	k->prog = -1;
}
