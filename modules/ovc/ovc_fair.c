/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the fair share as a part (ovc_part.h, ovc_fair.h): its state in
 * shared memory (ovc/fair.h: two sketches of 96 KiB, whatever the senders do),
 * the key of a request, the epoch's rotation each second and the level
 * at each application of the controller's fraction (ticker), its block
 * of ovc.stats.
 */
#include <string.h>

#include "core/dprint.h"
#include "core/ip_addr.h"
#include "core/mem/shm_mem.h"
#include "core/parser/msg_parser.h"
#include "core/pvar.h"

#include "ovc/fair.h"
#include "ovc/plan.h"

#include "ovc_fair.h"
#include "ovc_modparams.h"
#include "ovc_part.h"
#include "ovc_shm.h"

static struct ovc_fair *fair;
static pv_elem_t *key_fmt; /* fair_key's pseudo-variables, NULL: source */

/* ticker only: the last epoch at the acceptor, and as it arrived */
static struct ovc_fair_sorted *sorted, *arrived;
/* what the last application gave, for ovc.stats */
static struct
{
	ovc_atomic_double front; /* the controller's fraction in front */
	ovc_atomic_double pass;	 /* (2): the predicted pass fraction */
	ovc_atomic_double behind; /* the acceptor behind the cut */
	_Atomic uint64_t total;	 /* N of the last complete epoch */
	_Atomic uint32_t sources; /* its non-zero counters (row 0) */
} *shown;

struct ovc_fair *ovc_fair_state(void)
{
	return fair;
}

/* modparam fair_key: kept as given; fair_init parses a pseudo-variable
 * format, once the modules that define them are loaded */
int ovc_mp_check_fair_key(const char *name, void *val, void *field)
{
	char *s = (char *)val;

	if(s == NULL || *s == '\0') {
		LM_ERR("modparam \"%s\": empty (\"source\", \"off\" or a"
			   " pseudo-variable format)\n",
				name);
		return -1;
	}
	*(const char **)field = s;
	return 0;
}

static int fair_init(const struct ovc_params *p)
{
	str s;

	if(strcmp(ovc_mp.fair_key, "off") == 0)
		return 0;
	if(strcmp(ovc_mp.fair_key, "source") != 0) {
		s.s = (char *)ovc_mp.fair_key;
		s.len = (int)strlen(s.s);
		/* a format without a pseudo-variable (a typo of "source") would
		 * make every request one source */
		if(strchr(s.s, '$') == NULL || pv_parse_format(&s, &key_fmt) < 0
				|| key_fmt == NULL) {
			LM_ERR("modparam \"fair_key\": '%s' is not \"source\", \"off\""
				   " or a pseudo-variable format\n",
					ovc_mp.fair_key);
			return -1;
		}
	}
	fair = shm_malloc(sizeof(*fair));
	shown = shm_malloc(sizeof(*shown));
	if(fair == NULL || shown == NULL) {
		LM_ERR("no shared memory for the fair share (%zu bytes)\n",
				sizeof(*fair));
		return -1;
	}
	ovc_fair_init(fair);
	memset(shown, 0, sizeof(*shown));
	ovc_dstore(&shown->front, 1.0);
	ovc_dstore(&shown->pass, 1.0);
	ovc_dstore(&shown->behind, 1.0);
	return 0;
}

uint64_t ovc_fair_src(const struct receive_info *rcv)
{
	return ovc_fair_key(rcv->src_ip.u.addr, rcv->src_ip.len);
}

uint64_t ovc_fair_msg_key(struct sip_msg *msg)
{
	str v;

	if(fair == NULL)
		return 0;
	if(key_fmt != NULL && pv_printf_s(msg, key_fmt, &v) == 0 && v.len > 0)
		return ovc_fair_key(v.s, (size_t)v.len);
	return ovc_fair_src(&msg->rcv);
}

static void fair_start(const struct ovc_tick *t)
{
	if(fair == NULL)
		return;
	sorted = pkg_malloc(sizeof(*sorted));
	arrived = pkg_malloc(sizeof(*arrived));
	if(sorted == NULL || arrived == NULL) {
		LM_ERR("no private memory for the fair share's level: no cut\n");
		if(sorted != NULL)
			pkg_free(sorted);
		if(arrived != NULL)
			pkg_free(arrived);
		sorted = arrived = NULL;
		return;
	}
	memset(sorted, 0, sizeof(*sorted));
	memset(arrived, 0, sizeof(*arrived));
}

void ovc_fair_plan(const struct ovc_alg_traits *t, struct ovc_plan *pl)
{
	double *front, pass;

	if(fair == NULL || sorted == NULL)
		return;
	front = t->paces_queue ? &pl->f_arrival : &pl->f_accept;
	ovc_dstore(&shown->front, *front);
	*front = ovc_fair_apply(fair, sorted, *front, &pass);
	ovc_dstore(&shown->pass, pass);
	ovc_dstore(&shown->behind, *front);
}

/* Each second's end (ticker): the epoch rotates, its counts answer. */
static void fair_second_end(
		const struct ovc_tick *t, int64_t sec, struct ovc_row *row)
{
	if(fair == NULL || sorted == NULL)
		return;
	ovc_fair_rotate(fair);
	ovc_fair_sort_last(fair, sorted);
	ovc_fair_sort_arrivals(fair, arrived);
	ovc_fair_spare_update(fair, arrived, sorted->total);
	atomic_store(&shown->total, sorted->total);
	atomic_store(&shown->sources, sorted->n);
}

/* ovc.stats "fair". */
static void fair_stats(rpc_t *rpc, void *ctx, void *th)
{
	uint32_t level, spare;
	void *h;

	if(rpc->struct_add(th, "{", "fair", &h) < 0)
		return;
	if(fair == NULL) {
		rpc->struct_add(h, "s", "key", "off");
		return;
	}
	level = atomic_load(&fair->level);
	spare = atomic_load(&fair->spare);
	rpc->struct_add(h, "sddfffJdJJ", "key", ovc_mp.fair_key, "level",
			level == OVC_FAIR_ALL ? -1 : (int)level, "spare",
			spare == OVC_FAIR_ALL ? -1 : (int)spare, "front",
			ovc_dload(&shown->front), "pass",
			ovc_dload(&shown->pass), "behind", ovc_dload(&shown->behind),
			"epoch_total", (unsigned long long)atomic_load(&shown->total),
			"epoch_columns", (int)atomic_load(&shown->sources), "cut",
			(unsigned long long)atomic_load(&fair->cut), "exempt",
			(unsigned long long)atomic_load(&fair->exempt));
}

static void fair_reset(void)
{
	if(fair == NULL)
		return;
	atomic_store(&fair->cut, 0);
	atomic_store(&fair->exempt, 0);
}

static void fair_destroy(void)
{
	if(fair != NULL)
		shm_free(fair);
	if(shown != NULL)
		shm_free(shown);
	fair = NULL;
	shown = NULL;
}

const struct ovc_part ovc_part_fair = {
		.name = "fair share",
		.init = fair_init,
		.start = fair_start,
		.second_end = fair_second_end,
		.stats = fair_stats,
		.reset = fair_reset,
		.destroy = fair_destroy,
};
