/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc-sim - per-second CSV.
 */
#include "csv.h"
#include "world.h"

void sim_csv_header(FILE *f)
{
	fputs("time,algorithm,f,cpu,queue_len,queue_delay_ms,mem_used,"
		  "invite_offered,invite_admitted,invite_rejected,invite_dropped,"
		  "invite_queued,invite_dequeued,indialog_offered,indialog_admitted,"
		  "indialog_dropped,register_offered,register_admitted,"
		  "register_rejected,other_offered,other_admitted,other_rejected,"
		  "load,goodput,u,alpha,calls,failed,rtx,rtx_ratio,timer_msgs,"
		  "buf_drops,buf_len,setup_ms,timely,overload,kstage_share,"
		  "kstage_drops,age_rejects\n",
			f);
}

void sim_csv_row(FILE *f, const struct sim_world *w, double t_s, double cpu)
{
	const struct sim_count *s = &w->sec;
	const char *alg = ovc_alg_name(w->cfg->alg);

	fprintf(f, "%.0f,%s,%.4f,%.4f,%zu,%.2f,%ld,", t_s, alg ? alg : "?",
			w->out.f, cpu, w->incore ? w->iq.n : 0,
			s->qdelay_n ? 1000 * s->qdelay_sum_s / (double)s->qdelay_n : 0.0,
			w->active_txn);
	fprintf(f, "%llu,%llu,%llu,%llu,%llu,%llu,",
			(unsigned long long)s->offered[OVC_CLASS_INVITE],
			(unsigned long long)s->admitted[OVC_CLASS_INVITE],
			(unsigned long long)s->rejected[OVC_CLASS_INVITE],
			(unsigned long long)s->dropped[OVC_CLASS_INVITE],
			(unsigned long long)s->queued, (unsigned long long)s->dequeued);
	fprintf(f, "%llu,%llu,%llu,0,0,0,0,0,0,",
			(unsigned long long)s->offered[OVC_CLASS_INDIALOG],
			(unsigned long long)s->admitted[OVC_CLASS_INDIALOG],
			(unsigned long long)s->dropped[OVC_CLASS_INDIALOG]);
	fprintf(f, "%.4f,%llu,%.4f,%.4f,%llu,%llu,%llu,%.4f,%llu,%llu,%zu,%.1f,",
			(double)s->calls / w->cfg->capacity, (unsigned long long)s->good,
			w->out.u, w->out.alpha, (unsigned long long)s->calls,
			(unsigned long long)s->failed, (unsigned long long)s->rtx_in,
			s->msgs_in ? (double)s->rtx_in / (double)s->msgs_in : 0.0,
			(unsigned long long)s->timer_msgs,
			(unsigned long long)s->buf_drops, w->buf[P_EXT].n,
			s->setup_n ? 1000 * s->setup_sum_s / (double)s->setup_n : 0.0);
	fprintf(f, "%llu,%d,%.4f,%llu,%llu\n", (unsigned long long)s->timely,
			w->over, w->ks_share, (unsigned long long)s->ks_drops,
			(unsigned long long)s->age_rej);
}
