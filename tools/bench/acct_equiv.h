/* SPDX-License-Identifier: GPL-2.0 */
/*
 * acct_equiv.h - the calls of the two copies of the idle accounting that
 * acct_equiv.c compares (acct_equiv_shim.c, built once per tree).
 */
#ifndef ACCT_EQUIV_H
#define ACCT_EQUIV_H

#include "sp_model.h"

#define ACCT_EQUIV_CALLS(p)							\
void p##init(const struct sp_model *m, u64 now_ns);				\
u64 p##event(const struct sp_model *m, u32 op, u32 cpu, u32 arg, u64 now_ns);	\
u32 p##readout(const struct sp_model *m, u64 now_ns, u64 *out, u32 max)

ACCT_EQUIV_CALLS(old_);
ACCT_EQUIV_CALLS(new_);

#endif /* ACCT_EQUIV_H */
