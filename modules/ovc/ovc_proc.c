/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - processes tied to Kamailio's main one (see ovc_proc.h).
 */
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "core/dprint.h"

#include "ovc_proc.h"

int ovc_proc_tie_to_main(pid_t main_pid)
{
	if(prctl(PR_SET_PDEATHSIG, SIGTERM) < 0)
		LM_WARN("cannot ask for SIGTERM at the main process's death\n");
	/* the request holds from now on: a death before it is seen here */
	return getppid() != main_pid;
}
