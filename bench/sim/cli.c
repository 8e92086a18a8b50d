/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - model options.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char sim_cli_usage_text[] =
		"model options:\n"
		"  --alg NAME         controller (none, occ, bbc, pi...; none)\n"
		"  --param NAME=VAL   libovc parameter (repeatable): occ.target=0.8\n"
		"  --load PROFILE     constant:R | instant:R[:T0[:BASE]] |\n"
		"                     gradual:PEAK[:RAMP[:HOLD]] |\n"
		"                     steps:0=R0,T1=R1,... (R = load / capacity;\n"
		"                     default constant:1)\n"
		"  --duration S       simulated seconds (60)\n"
		"  --warmup S         seconds left out of the result (20)\n"
		"  --seed N           random seed (1)\n"
		"  --capacity CPS     rho_M, calls/s at full CPU (160)\n"
		"  --msg-ms MS        base service time of a message (1)\n"
		"  --timer-ms MS      base service time of a timer message (0.5)\n"
		"  --reject-ms MS     base cost of an early reject (0.1667)\n"
		"  --beta B           reject cost = call cost / B (not --reject-ms)\n"
		"  --buf N            external message buffer B (1000)\n"
		"  --tcp 0|1          1: no hop-by-hop retransmissions (0)\n"
		"  --hold S           mean call holding time (0)\n"
		"  --abandon S        give up S s after the INVITE (10; 0: never)\n"
		"  --incore -1|0|1    in-core INVITE queue (-1: bbc, sired, pi)\n"
		"  --reject-at arrival|dequeue  where the in-core queue's INVITEs\n"
		"                     meet the acceptor (arrival)\n"
		"  --queue-size N     in-core queue capacity (1000)\n"
		"  --workers N        in-core queue workers (1)\n"
		"  --model module|paper  module: the module's admission (decided\n"
		"                     when read, gate, age limit, guard, kernel\n"
		"                     stage); paper: 000's model (decided at\n"
		"                     arrival, always overloaded, none of them);\n"
		"                     give it before --param (module)\n"
		"  --kstage 0|1       the kernel stage (1; paper: 0)\n"
		"  --kstage-budget P  its CPU budget for 503s, % (20)\n"
		"  --quota Q          CPU quota, CPUs in (0, 1) (0: none): the\n"
		"                     proxy runs Q x period per period\n"
		"  --quota-period MS  the quota's period (100)\n"
		"  --queue-max-wait MS  in-core queue expiry (-1: the module's;\n"
		"                     paper: 0, none)\n";

int sim_cli_num(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if(end == s || *end || v < 0 || v != v)
		return -1;
	*out = v;
	return 0;
}

static int bad(const char *name, const char *arg, const char *why)
{
	fprintf(stderr, "ovc-sim: --%s %s: %s\n", name, arg, why);
	return -1;
}

int sim_cli_apply(struct sim_cfg *c, const char *name, const char *arg)
{
	char err[256];
	double v;

	if(!strcmp(name, "alg")) {
		if(ovc_alg_from_name(arg, &c->alg) != OVC_OK)
			return bad(name, arg, "unknown algorithm");
		return 1;
	}
	if(!strcmp(name, "param")) {
		if(ovc_param_assign(&c->params, arg, err, sizeof(err)) != OVC_OK)
			return bad(name, arg, err);
		if(!strncmp(arg, "pi.rho_m", 8))
			c->pi_rho_m_set = 1;
		return 1;
	}
	if(!strcmp(name, "load")) {
		if(sim_profile_parse(&c->prof, arg, err, sizeof(err)) < 0)
			return bad(name, arg, err);
		return 1;
	}
	if(!strcmp(name, "reject-at")) {
		if(strcmp(arg, "arrival") && strcmp(arg, "dequeue"))
			return bad(name, arg, "expected arrival or dequeue");
		c->reject_at_dequeue = !strcmp(arg, "dequeue");
		return 1;
	}
	if(!strcmp(name, "model")) {
		if(!strcmp(arg, "paper"))
			sim_cfg_paper(c);
		else if(strcmp(arg, "module"))
			return bad(name, arg, "expected module or paper");
		return 1;
	}
	if(!strcmp(name, "queue-max-wait")) {
		if(!strcmp(arg, "-1")) {
			c->queue_max_wait_ms = -1;
			return 1;
		}
		if(sim_cli_num(arg, &v) < 0)
			return bad(name, arg, "expected -1 or a number of ms");
		c->queue_max_wait_ms = v;
		return 1;
	}
	if(!strcmp(name, "incore")) {
		if(!strcmp(arg, "-1") || !strcmp(arg, "0") || !strcmp(arg, "1")) {
			c->incore = atoi(arg);
			return 1;
		}
		return bad(name, arg, "expected -1, 0 or 1");
	}
	if(sim_cli_num(arg, &v) < 0) {
		if(!strcmp(name, "duration") || !strcmp(name, "warmup")
				|| !strcmp(name, "seed") || !strcmp(name, "capacity")
				|| !strcmp(name, "msg-ms") || !strcmp(name, "timer-ms")
				|| !strcmp(name, "reject-ms") || !strcmp(name, "beta")
				|| !strcmp(name, "buf") || !strcmp(name, "tcp")
				|| !strcmp(name, "hold") || !strcmp(name, "abandon")
				|| !strcmp(name, "queue-size") || !strcmp(name, "workers")
				|| !strcmp(name, "kstage") || !strcmp(name, "kstage-budget")
				|| !strcmp(name, "quota") || !strcmp(name, "quota-period"))
			return bad(name, arg, "expected a non-negative number");
		return 0;
	}
	if(!strcmp(name, "duration"))
		c->duration_s = v;
	else if(!strcmp(name, "warmup"))
		c->warmup_s = v;
	else if(!strcmp(name, "seed"))
		c->seed = (uint64_t)strtoull(arg, NULL, 10);
	else if(!strcmp(name, "capacity") && v > 0)
		c->capacity = v;
	else if(!strcmp(name, "msg-ms") && v > 0)
		c->msg_ms = v;
	else if(!strcmp(name, "timer-ms"))
		c->timer_ms = v;
	else if(!strcmp(name, "reject-ms"))
		c->reject_ms = v;
	else if(!strcmp(name, "beta") && (v == 0 || v > 1))
		c->beta = v;
	else if(!strcmp(name, "buf") && v >= 1)
		c->buf = (unsigned)v;
	else if(!strcmp(name, "tcp"))
		c->tcp = v != 0;
	else if(!strcmp(name, "hold"))
		c->hold_s = v;
	else if(!strcmp(name, "abandon"))
		c->abandon_s = v;
	else if(!strcmp(name, "queue-size") && v >= 1)
		c->queue_size = (unsigned)v;
	else if(!strcmp(name, "workers") && v >= 1)
		c->workers = (unsigned)v;
	else if(!strcmp(name, "kstage"))
		c->kstage = v != 0;
	else if(!strcmp(name, "kstage-budget") && v > 0 && v <= 100)
		c->kstage_budget = v;
	else if(!strcmp(name, "quota") && v < 1)
		c->quota = v;
	else if(!strcmp(name, "quota-period") && v > 0)
		c->quota_period_ms = v;
	else if(!strcmp(name, "duration") || !strcmp(name, "capacity")
			|| !strcmp(name, "msg-ms") || !strcmp(name, "beta")
			|| !strcmp(name, "buf") || !strcmp(name, "queue-size")
			|| !strcmp(name, "workers") || !strcmp(name, "kstage-budget")
			|| !strcmp(name, "quota") || !strcmp(name, "quota-period"))
		return bad(name, arg, "out of range");
	else
		return 0;
	return 1;
}
