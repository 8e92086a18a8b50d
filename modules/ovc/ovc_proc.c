/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - processes tied to Kamailio's main one (see ovc_proc.h).
 */
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "core/dprint.h"
#include "core/pt.h"

#include "ovc_proc.h"

static int main_gone;

int ovc_proc_fork(int rank, char *desc)
{
	pid_t main_pid = getpid();
	int pid = fork_process(rank, desc, 1);

	if(pid != 0)
		return pid;
	if(prctl(PR_SET_PDEATHSIG, SIGTERM) < 0)
		LM_WARN("cannot ask for SIGTERM at the main process's death\n");
	/* the request holds from now on: a death before it is seen here */
	main_gone = getppid() != main_pid;
	return 0;
}

int ovc_proc_main_gone(void)
{
	return main_gone;
}
