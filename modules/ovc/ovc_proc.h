/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the processes ovc forks from Kamailio's main one (the ticker, the
 * queue workers, the reaper) end with it.
 */
#ifndef OVC_PROC_H
#define OVC_PROC_H

#include <sys/types.h>

/* In a process forked from Kamailio's main process main_pid (its pid as
 * the main process read it before the fork): asks the kernel for SIGTERM
 * when the main process dies, so that a process the shutdown's SIGTERM
 * missed, or whose main process was killed, does not live on. Returns 1
 * when the main process died before the request (the caller stops now),
 * 0 otherwise. */
int ovc_proc_tie_to_main(pid_t main_pid);

#endif
