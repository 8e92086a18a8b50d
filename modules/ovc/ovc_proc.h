/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the processes ovc forks from Kamailio's main one (the ticker, the
 * queue workers, the reaper) end with it.
 */
#ifndef OVC_PROC_H
#define OVC_PROC_H

/* fork_process(rank, desc, 1) from Kamailio's main process, for a process
 * of ovc's: the child asks the kernel for SIGTERM when the main process
 * dies, so that a process the shutdown's SIGTERM missed, or whose main
 * process was killed, does not live on. Returns fork_process()'s value:
 * the child's pid in the main process, 0 in the child, < 0 on error. */
int ovc_proc_fork(int rank, char *desc);

/* In a child of ovc_proc_fork(): 1 when the server stops already (the
 * main process died before the child asked for that SIGTERM, or the
 * shutdown's SIGTERM came before the child first ran, when Kamailio's
 * handler still took it for the main process's): the caller stops now.
 * 0 otherwise. */
int ovc_proc_must_stop(void);

/* Forks (ovc_proc_fork()) a process of ovc's that has nothing to finish
 * at a stop, and runs run() in it: the child exits at once when the
 * server stops already (ovc_proc_must_stop()), else sets up Kamailio's
 * per-process configuration, runs run() and exits when it returns.
 * Returns, in the main process, the child's pid or < 0 on error; in the
 * child, -1 when its configuration could not be set up. */
int ovc_proc_run(int rank, char *desc, void (*run)(void));

#endif
