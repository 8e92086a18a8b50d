/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ovc - the baseline "none": decides nothing, every request is admitted.
 * It has no parameters and no state; these types only give it its line
 * in ovc/algs.def like every other algorithm.
 */
#ifndef OVC_NONE_T_H
#define OVC_NONE_T_H

struct ovc_none_params
{
	char unused; /* C has no empty struct */
};

struct ovc_none
{
	char unused;
};

#endif
