/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - offered-load profiles.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

void sim_profile_constant(struct sim_profile *p, double r)
{
	memset(p, 0, sizeof(*p));
	p->kind = SIM_PROF_CONSTANT;
	p->peak = r;
}

/* Parses up to n ':'-separated non-negative numbers after the kind. */
static int parse_nums(const char *s, double *v, int n)
{
	int i = 0;
	char *end;

	while(*s && i < n) {
		if(*s != ':')
			return -1;
		s++;
		v[i] = strtod(s, &end);
		if(end == s || v[i] < 0)
			return -1;
		s = end;
		i++;
	}
	return *s ? -1 : i;
}

static int parse_steps(struct sim_profile *p, const char *s)
{
	char *end;
	int n = 0;

	if(*s++ != ':')
		return -1;
	while(*s) {
		if(n == SIM_PROF_MAX_STEPS)
			return -1;
		p->st[n] = strtod(s, &end);
		if(end == s || *end != '=' || p->st[n] < 0)
			return -1;
		if(n ? p->st[n] <= p->st[n - 1] : p->st[n] != 0)
			return -1;
		s = end + 1;
		p->sr[n] = strtod(s, &end);
		if(end == s || p->sr[n] < 0)
			return -1;
		s = end;
		n++;
		if(*s == ',')
			s++;
		else if(*s)
			return -1;
	}
	p->nsteps = n;
	return n ? 0 : -1;
}

int sim_profile_parse(
		struct sim_profile *p, const char *spec, char *err, size_t errlen)
{
	double v[3];
	int n;

	memset(p, 0, sizeof(*p));
	p->base = 0.5;
	p->t_on = 10;
	p->ramp = 30;
	p->hold = 30;
	if(!strncmp(spec, "constant", 8)) {
		p->kind = SIM_PROF_CONSTANT;
		n = parse_nums(spec + 8, v, 1);
		if(n != 1)
			goto bad;
		p->peak = v[0];
	} else if(!strncmp(spec, "instant", 7)) {
		p->kind = SIM_PROF_INSTANT;
		n = parse_nums(spec + 7, v, 3);
		if(n < 1)
			goto bad;
		p->peak = v[0];
		if(n > 1)
			p->t_on = v[1];
		if(n > 2)
			p->base = v[2];
	} else if(!strncmp(spec, "gradual", 7)) {
		p->kind = SIM_PROF_GRADUAL;
		n = parse_nums(spec + 7, v, 3);
		if(n < 1)
			goto bad;
		p->peak = v[0];
		if(n > 1)
			p->ramp = v[1];
		if(n > 2)
			p->hold = v[2];
	} else if(!strncmp(spec, "bench:", 6)) {
		static const char *kinds[] = {"constant", "instant", "gradual"};
		size_t k;

		p->kind = SIM_PROF_BENCH;
		for(k = 0; k < 3; k++)
			if(!strncmp(spec + 6, kinds[k], strlen(kinds[k])))
				break;
		if(k == 3)
			goto bad;
		p->bkind = (enum sim_bench_kind)k;
		n = parse_nums(spec + 6 + strlen(kinds[k]), v, 3);
		if(n < 1)
			goto bad;
		p->peak = v[0];
		p->bdur = n > 1 ? (int)v[1] : 20;
		p->bwarm = n > 2 ? (int)v[2] : 5;
		if(p->bdur < 1)
			goto bad;
	} else if(!strncmp(spec, "steps", 5)) {
		p->kind = SIM_PROF_STEPS;
		if(parse_steps(p, spec + 5) < 0)
			goto bad;
	} else {
		goto bad;
	}
	return 0;
bad:
	snprintf(err, errlen,
			"bad load profile '%s': expected constant:R, "
			"instant:R[:T0[:BASE]], gradual:PEAK[:RAMP[:HOLD]] or "
			"steps:0=R0,T1=R1,... or bench:KIND:PEAK[:DUR[:WARM]] "
			"(non-negative numbers)",
			spec);
	return -1;
}

/* bench/testbed/profile.sh: the rate of whole second s after the load start. */
static double bench_rate(const struct sim_profile *p, double t)
{
	int s = (int)floor(t), d = p->bdur, third, rec;
	double pk = p->peak;

	if(s < p->bwarm)
		return 0.3;
	s -= p->bwarm;
	if(p->bkind == SIM_BENCH_GRADUAL) {
		third = d / 3 < 1 ? 1 : d / 3;
		if(s < third)
			return 0.5 + (pk - 0.5) * (s + 1) / third;
		s -= third;
		if(s < d - 2 * third)
			return pk;
		s -= d - 2 * third;
		return s < third ? pk - (pk - 0.5) * (s + 1) / third : 0;
	}
	if(s < d)
		return pk;
	rec = d / 3 < 5 ? 5 : d / 3;
	return p->bkind == SIM_BENCH_INSTANT && s - d < rec ? 0.5 : 0;
}

double sim_profile_rate(const struct sim_profile *p, double t)
{
	int i;

	if(t < 0)
		return 0;
	switch(p->kind) {
		case SIM_PROF_CONSTANT:
			return p->peak;
		case SIM_PROF_INSTANT:
			return t < p->t_on ? p->base : p->peak;
		case SIM_PROF_GRADUAL:
			if(t < p->ramp)
				return p->peak * t / p->ramp;
			t -= p->ramp;
			if(t < p->hold)
				return p->peak;
			t -= p->hold;
			if(t < p->ramp)
				return p->peak * (1 - t / p->ramp);
			return 0;
		case SIM_PROF_STEPS:
			for(i = p->nsteps - 1; i > 0; i--)
				if(t >= p->st[i])
					break;
			return p->sr[i];
		case SIM_PROF_BENCH:
			return bench_rate(p, t);
	}
	return 0;
}

double sim_profile_max(const struct sim_profile *p)
{
	double m = p->peak;
	int i;

	if(p->kind == SIM_PROF_INSTANT && p->base > m)
		m = p->base;
	if(p->kind == SIM_PROF_BENCH && m < 0.5)
		m = 0.5;
	if(p->kind == SIM_PROF_STEPS)
		for(m = 0, i = 0; i < p->nsteps; i++)
			if(p->sr[i] > m)
				m = p->sr[i];
	return m;
}

double sim_profile_end(const struct sim_profile *p)
{
	switch(p->kind) {
		case SIM_PROF_CONSTANT:
			return p->peak > 0 ? INFINITY : 0;
		case SIM_PROF_INSTANT:
			return p->peak > 0 ? INFINITY : (p->base > 0 ? p->t_on : 0);
		case SIM_PROF_GRADUAL:
			return 2 * p->ramp + p->hold;
		case SIM_PROF_STEPS:
			return p->sr[p->nsteps - 1] > 0 ? INFINITY
											: p->st[p->nsteps - 1];
		case SIM_PROF_BENCH:
			return p->bwarm + p->bdur
				   + (p->bkind == SIM_BENCH_INSTANT
								   ? (p->bdur / 3 < 5 ? 5 : p->bdur / 3)
								   : 0);
	}
	return INFINITY;
}

void sim_profile_format(const struct sim_profile *p, char *buf, size_t len)
{
	size_t o;
	int i;

	switch(p->kind) {
		case SIM_PROF_CONSTANT:
			snprintf(buf, len, "constant:%g", p->peak);
			break;
		case SIM_PROF_INSTANT:
			snprintf(buf, len, "instant:%g:%g:%g", p->peak, p->t_on, p->base);
			break;
		case SIM_PROF_GRADUAL:
			snprintf(buf, len, "gradual:%g:%g:%g", p->peak, p->ramp, p->hold);
			break;
		case SIM_PROF_BENCH:
			snprintf(buf, len, "bench:%s:%g:%d:%d",
					p->bkind == SIM_BENCH_CONSTANT	 ? "constant"
					: p->bkind == SIM_BENCH_INSTANT ? "instant"
													: "gradual",
					p->peak, p->bdur, p->bwarm);
			break;
		case SIM_PROF_STEPS:
			o = (size_t)snprintf(buf, len, "steps:");
			for(i = 0; i < p->nsteps && o < len; i++)
				o += (size_t)snprintf(buf + o, len - o, "%s%g=%g",
						i ? "," : "", p->st[i], p->sr[i]);
			break;
	}
}
