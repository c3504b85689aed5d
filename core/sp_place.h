/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sp_place.h - the placement choice: which CPU a waking task should run on.
 *
 * DOC: the decision rule (filled in by core/sp_place.c's DOC block)
 */
#ifndef SP_PLACE_H
#define SP_PLACE_H

#include "sp_energy.h"

enum sp_mode {
	SP_MODE_OFF,		/* hook returns at once, CFS decides */
	SP_MODE_OBSERVE,	/* compute and trace, never override */
	SP_MODE_POWER,		/* minimise energy */
	SP_MODE_BALANCED,	/* minimise energy within latency/headroom guard */
	SP_MODE_PERFORMANCE,	/* keep CFS's choice, still trace */
	SP_MODE_NR,
};

enum sp_reason {
	SP_R_CFS_CHEAPEST,	/* CFS's CPU was already the cheapest */
	SP_R_BELOW_MARGIN,	/* cheaper CPU found, gain below margin */
	SP_R_PACK_AWAKE_GROUP,	/* moved into an already-awake group */
	SP_R_AVOID_PKG_WAKEUP,	/* CFS would have woken an idle group */
	SP_R_PSTATE_CHEAPER,	/* raising a busy CPU's OPP beats waking one */
	SP_R_WAKE_CHEAPER,	/* waking a CPU beats raising an OPP */
	SP_R_LATENCY_BOUND,	/* CFS's CPU too slow to wake for the task */
	SP_R_OVERUTILISED,	/* system overutilised: CFS decides */
	SP_R_NOT_ALLOWED,	/* best CPU not allowed/active: CFS kept */
	SP_R_MODE,		/* performance mode: CFS kept by policy */
	SP_R_NR,
};

extern const char *const sp_mode_names[SP_MODE_NR];
extern const char *const sp_reason_names[SP_R_NR];

struct sp_policy {
	u32 mode;		/* enum sp_mode */
	u32 margin_pct;		/* override only if saving >= this % of CFS's */
	u32 overutil_pct;	/* CPU util above this % of capacity: overutilised */
	u32 window_us;		/* energy window, us */
	u32 latency_us;		/* default wake-up latency bound, 0 = none */
};

struct sp_task_info {
	u64 now_ns;		/* decision time, same clock as the idle hook */
	u32 util;		/* task utilisation, 0..1024 */
	u32 latency_us;		/* the task's own bound, 0 = use policy's */
	u32 prev_cpu;
	u32 cfs_cpu;		/* CFS's choice */
};

/* Is @cpu a valid target for the task? (kernel: active && in cpus_ptr) */
typedef bool (*sp_allowed_fn)(const void *ctx, u32 cpu);

struct sp_decision {
	u32 cpu;		/* where the task should go */
	u16 reason;		/* enum sp_reason */
	bool override;		/* cpu != cfs_cpu and the mode acts on it */
	u16 nr_candidates;
	s64 cfs_nj;		/* total_nj of CFS's CPU */
	s64 chosen_nj;		/* total_nj of the chosen CPU */
	struct sp_energy_terms terms;	/* of the chosen CPU */
};

void sp_place(const struct sp_model *m, const struct sp_state *st,
	      const struct sp_policy *pol, const struct sp_task_info *t,
	      sp_allowed_fn allowed, const void *ctx, struct sp_decision *d);

#endif /* SP_PLACE_H */
