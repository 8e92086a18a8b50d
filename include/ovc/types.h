/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - common types of the control library: time, error codes, request
 * classes and algorithm identifiers. libc only.
 */
#ifndef OVC_TYPES_H
#define OVC_TYPES_H

#include <stdint.h>

/* Monotonic time in nanoseconds. The library never reads a clock: callers
 * pass "now" in, so tests drive controllers with synthetic clocks. */
typedef int64_t ovc_time_ns;

#define OVC_NS_PER_MS INT64_C(1000000)
#define OVC_NS_PER_S INT64_C(1000000000)

/* Largest CPU reading (fraction of capacity) the CPU-driven controllers
 * (occupancy, aro, rsoca, pi) take in; a higher one counts as this. They
 * average readings as measured and clamp only the average to [0, 1]: a
 * saturated proxy under a CPU quota reads e.g. 0.7 and 1.3 in turn over
 * short windows, and clamping each reading first averages below 1. */
#define OVC_CPU_READING_MAX 4.0

/* cpu bounded by OVC_CPU_READING_MAX (fraction of capacity). */
static inline double ovc_cpu_reading(double cpu)
{
	return cpu > OVC_CPU_READING_MAX ? OVC_CPU_READING_MAX : cpu;
}

/* CPU occupancy spent on admitted work: the occupancy measured, cpu, less
 * the part spent refusing requests, rej (both fractions of capacity);
 * never below 0. */
static inline double ovc_cpu_admitted(double cpu, double rej)
{
	double a = cpu - (rej > 0 ? rej : 0);

	return a > 0 ? a : 0;
}

/* Error codes: functions return 0 (OVC_OK) or one of these negatives and
 * have no side effect when they fail. */
enum ovc_err
{
	OVC_OK = 0,
	OVC_EINVAL = -1, /* malformed argument (NULL, NaN, unparsable text) */
	OVC_ERANGE = -2, /* value outside the accepted range */
	OVC_ENOENT = -3, /* unknown name */
	OVC_ENOMEM = -4, /* allocation failed */
	OVC_EFULL = -5,	 /* container full */
	OVC_EEMPTY = -6, /* container empty */
};

/* Returns a static, human-readable text for an ovc_err code. */
const char *ovc_strerror(int err);

/* Request classes of DESIGN.md (004 §III, 001 §2.3). */
enum ovc_class
{
	OVC_CLASS_INVITE = 0, /* initial INVITE: no To-tag */
	OVC_CLASS_INDIALOG,	  /* any request with a To-tag */
	OVC_CLASS_REGISTER,	  /* REGISTER */
	OVC_CLASS_OTHER,	  /* any other out-of-dialog request */
	OVC_CLASS_COUNT
};

/* Returns "invite", "indialog", "register", "other" or NULL. */
const char *ovc_class_name(enum ovc_class c);

/* In-dialog request types counted separately for R-SOCA's DoS protection
 * (004 §III-B). ACK is never controlled and is not a type here. */
enum ovc_dlg
{
	OVC_DLG_BYE = 0,  /* BYE: once per dialog */
	OVC_DLG_REINVITE, /* re-INVITE: N_r per dialog, rejected not dropped */
	OVC_DLG_UPDATE,	  /* UPDATE */
	OVC_DLG_PRACK,	  /* PRACK */
	OVC_DLG_INFO,	  /* INFO */
	OVC_DLG_OTHER,	  /* any other in-dialog request (NOTIFY, MESSAGE, ...) */
	OVC_DLG_COUNT
};

/* Returns "bye", "reinvite", "update", "prack", "info", "other" or
 * NULL. */
const char *ovc_dlg_name(enum ovc_dlg t);

/* Algorithms selectable by the `algorithm` parameter, in the order of
 * ovc/algs.def. What each one is and does: ovc/alg.h. */
enum ovc_alg
{
#define OVC_ALG_DEF(id, name, state, params) OVC_ALG_##id,
#include "ovc/algs.def"
#undef OVC_ALG_DEF
	OVC_ALG_COUNT
};

/* Returns the algorithm's user-facing name ("none", "occ", ...) or NULL. */
const char *ovc_alg_name(enum ovc_alg a);

/* Looks an algorithm up by name (exact, lower case). Returns 0 and sets
 * *out, or OVC_ENOENT. */
int ovc_alg_from_name(const char *name, enum ovc_alg *out);

/* Request mode: which classes the controller's fraction applies to. */
enum ovc_mode
{
	OVC_MODE_MULTI = 0, /* initial INVITEs (rsoca: also register, other) */
	OVC_MODE_SINGLE,	/* every request except ACK and CANCEL */
	OVC_MODE_COUNT
};

/* Where CPU occupancy comes from. */
enum ovc_cpu_source
{
	OVC_CPU_PROCS = 0, /* Kamailio's own processes (schedstat, ns) */
	OVC_CPU_SYSTEM,	   /* machine-wide /proc/stat */
	OVC_CPU_CGROUP,	   /* own cgroup's usage against its CPU quota */
	OVC_CPU_AUTO,	   /* cgroup when a quota applies, else procs */
	OVC_CPU_SOURCE_COUNT
};

/* Overload control between servers (000 §IV, RFC 7339). */
enum ovc_network
{
	OVC_NET_LOCAL = 0, /* this server alone: no oc feedback either way */
	OVC_NET_HOP,	   /* hop by hop: announce the own reduction upstream,
						  apply each next hop's */
	OVC_NET_E2E,	   /* end to end: announce the largest reduction of
						  the path upstream; only the entry (a request
						  whose client does not offer oc) applies it */
	OVC_NET_COUNT
};

/* The user-facing names of an enumeration, indexed by its values: the one
 * place each name is spelled, for parsing, messages and documentation. */
struct ovc_names
{
	const char *const *names;
	unsigned count;
};

extern const struct ovc_names ovc_alg_names;		/* none, bbc, occ, ... */
extern const struct ovc_names ovc_mode_names;		/* multi, single */
extern const struct ovc_names ovc_cpu_source_names; /* procs, system, cgroup */
extern const struct ovc_names ovc_network_names;	/* local, hop, e2e */

/* Returns the value whose name is name (exact, lower case), or -1. */
int ovc_names_find(const struct ovc_names *n, const char *name);

/* Writes the names, separated by ", " (e.g. "multi, single"), into buf
 * (always terminated when len > 0). Returns buf. */
char *ovc_names_join(const struct ovc_names *n, char *buf, unsigned len);

/* Returns "multi", "single" or NULL. */
const char *ovc_mode_name(enum ovc_mode m);

/* Returns "procs", "system", "cgroup" or NULL. */
const char *ovc_cpu_source_name(enum ovc_cpu_source s);

#endif
