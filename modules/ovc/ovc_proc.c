/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - processes tied to Kamailio's main one (see ovc_proc.h).
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "core/cfg/cfg_struct.h"
#include "core/dprint.h"
#include "core/pt.h"

#include "ovc_proc.h"

/* Kamailio's main.c (no header declares it): the signal its handler
 * recorded for the main process to act on. */
extern int sig_flag;

static int must_stop;

int ovc_proc_fork(int rank, char *desc)
{
	pid_t main_pid = getpid();
	int pid = fork_process(rank, desc, 1);

	if(pid != 0)
		return pid;
	if(prctl(PR_SET_PDEATHSIG, SIGTERM) < 0)
		LM_WARN("cannot ask for SIGTERM at the main process's death\n");
	/* the request holds from now on: a death before it is seen here */
	must_stop = getppid() != main_pid;
	/* A SIGTERM that reached this process before it first ran (under a
	 * CPU quota a fresh child can wait a whole period for the CPU, while
	 * the main process, stopped right after its start, signals every
	 * child) was handled by Kamailio's handler before fork_process()
	 * cleared is_main: as the main process's, so it only set sig_flag.
	 * The same when the main process had been signalled and not yet acted
	 * on it when it forked this child. Either way the server stops
	 * (t_quick_stop). */
	if(sig_flag == SIGTERM || sig_flag == SIGINT)
		must_stop = 1;
	return 0;
}

int ovc_proc_must_stop(void)
{
	return must_stop;
}

int ovc_proc_run(int rank, char *desc, void (*run)(void))
{
	int pid = ovc_proc_fork(rank, desc);

	if(pid != 0)
		return pid;
	if(ovc_proc_must_stop())
		exit(0);
	if(cfg_child_init())
		return -1;
	run();
	exit(0);
}
