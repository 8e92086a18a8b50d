/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - counting verdicts (see ovc_account.h).
 */
#include "ovc_account.h"
#include "ovc_rsoca.h"
#include "ovc_shm.h"

/* The dry run's extra column, or none. */
static int would(const struct ovc_adm_verdict *v)
{
	return v->flags & OVC_ADMF_WOULD ? OVC_V_WOULD_REJECT : -1;
}

/* Events that go with verdict v whatever became of it. */
static void flag_events(const struct ovc_adm_verdict *v)
{
	if(v->flags & OVC_ADMF_QUEUE_FULL)
		ovc_count_event(OVC_E_QUEUE_FULL);
	if(v->flags & OVC_ADMF_EXPIRED)
		ovc_count_event(OVC_E_QUEUE_EXPIRED);
	if(v->flags & OVC_ADMF_EMERGENCY)
		ovc_rsoca_count_event(OVC_RS_E_EMERG);
	if(v->flags & OVC_ADMF_SHARE)
		ovc_count_event(OVC_E_SHARE_MET);
}

void ovc_account(const struct ovc_adm_verdict *v, enum ovc_sip_method m,
		enum ovc_reply_res res)
{
	flag_events(v);
	switch(v->act) {
		case OVC_ADM_ADMIT:
			ovc_count_offered(v->c, OVC_V_ADMITTED, would(v));
			return;
		case OVC_ADM_QUEUE:
			ovc_count_offered(v->c, OVC_V_QUEUED, would(v));
			return;
		case OVC_ADM_DROP:
			ovc_count_offered(v->c, OVC_V_DROPPED, -1);
			if(v->flags & OVC_ADMF_ABSORBED)
				ovc_count_event(OVC_E_QUEUE_ABSORBED);
			if(v->flags & OVC_ADMF_OWN_ACK)
				ovc_count_event(OVC_E_ACK_ABSORBED);
			return;
		case OVC_ADM_CANCEL:
			/* accepted and answered 200 by ovc (RFC 3261 9.2) */
			ovc_count_offered(v->c, res == OVC_REPLY_FAILED
											? OVC_V_DROPPED
											: OVC_V_ADMITTED,
					-1);
			ovc_count_event(OVC_E_QUEUE_CANCELLED);
			return;
		case OVC_ADM_REJECT:
			break;
	}
	if(res == OVC_REPLY_FAILED) {
		/* refused, but no reply could be sent: honest name is dropped */
		ovc_count_offered(v->c, OVC_V_DROPPED, -1);
		return;
	}
	ovc_count_offered(v->c, OVC_V_REJECTED, -1);
	if(v->c == OVC_CLASS_INDIALOG)
		ovc_rsoca_count_dlg_reject(m); /* R-SOCA's re-INVITE limit */
	if(res == OVC_REPLY_SENT && !(v->flags & OVC_ADMF_CANCELLED))
		ovc_count_event(OVC_E_REPLY);
	if(v->flags & OVC_ADMF_AGED)
		ovc_count_event(OVC_E_AGE_REJECT);
	if(v->flags & OVC_ADMF_LATE)
		ovc_count_event(OVC_E_LATE_REJECT);
}

void ovc_account_dequeued(
		const struct ovc_adm_verdict *v, enum ovc_reply_res res)
{
	flag_events(v);
	if(v->act != OVC_ADM_REJECT) {
		ovc_count_dequeued(OVC_V_ADMITTED, would(v));
		return;
	}
	if(res == OVC_REPLY_FAILED) {
		ovc_count_dequeued(OVC_V_DROPPED, -1);
		return;
	}
	ovc_count_dequeued(OVC_V_REJECTED, -1);
	if(res == OVC_REPLY_SENT && !(v->flags & OVC_ADMF_CANCELLED))
		ovc_count_event(OVC_E_REPLY);
}
