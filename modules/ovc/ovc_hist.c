/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the per-second history (see ovc_hist.h).
 */
#include <string.h>

#include "core/dprint.h"
#include "core/locking.h"
#include "core/mem/shm_mem.h"

#include "ovc_hist.h"
#include "ovc_shm.h"

/* What every process sees; the ring and its indexes under the lock. */
struct hist_shm
{
	gen_lock_t lock;		   /* guards size, count, next, rows */
	unsigned size;			   /* capacity, rows (stats_history) */
	unsigned count;			   /* rows stored */
	unsigned next;			   /* index of the next row to write */
	_Atomic int64_t reset_sec; /* monotonic second of the last ovc.reset:
								  rows up to it are discarded */
	struct ovc_row rows[];
};

static struct hist_shm *h;

int ovc_hist_init(unsigned rows)
{
	size_t bytes = sizeof(*h) + sizeof(struct ovc_row) * rows;

	h = shm_malloc(bytes);
	if(h == NULL) {
		SHM_MEM_ERROR;
		return -1;
	}
	memset(h, 0, bytes);
	if(lock_init(&h->lock) == NULL) {
		LM_ERR("cannot init the ovc history's lock\n");
		shm_free(h);
		h = NULL;
		return -1;
	}
	h->size = rows;
	atomic_store(&h->reset_sec, -1);
	return 0;
}

void ovc_hist_destroy(void)
{
	if(h == NULL)
		return;
	shm_free(h);
	h = NULL;
}

void ovc_hist_add(int64_t s, const struct ovc_row *row)
{
	if(s <= atomic_load(&h->reset_sec))
		return; /* counted before an ovc.reset */
	lock_get(&h->lock);
	h->rows[h->next] = *row;
	h->next = (h->next + 1) % h->size;
	if(h->count < h->size)
		h->count++;
	lock_release(&h->lock);
}

int ovc_hist_count(void)
{
	int n;

	lock_get(&h->lock);
	n = (int)h->count;
	lock_release(&h->lock);
	return n;
}

int ovc_hist_copy(struct ovc_row *rows, int n)
{
	int i;

	lock_get(&h->lock);
	if(n > (int)h->count)
		n = (int)h->count; /* an ovc.reset in between */
	for(i = 0; i < n; i++)
		rows[i] = h->rows[(h->next + h->size - n + i) % h->size];
	lock_release(&h->lock);
	return n;
}

void ovc_hist_reset(void)
{
	lock_get(&h->lock);
	atomic_store(&h->reset_sec, ovc_now_sec_coarse());
	h->count = 0;
	h->next = 0;
	lock_release(&h->lock);
}
