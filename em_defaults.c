// SPDX-License-Identifier: GPL-2.0
/*
 * The default energy model, from the kernel's own tables.
 *
 * Copyright (C) 2026 sched_power developers
 */

/**
 * DOC: where the default model comes from
 *
 * At insmod the model describes CPUs 0..nr_cpu_ids-1 and is built in five
 * steps, which /sys/kernel/sched_power/model_source reports:
 *
 *  - topology=kernel: the synthetic model (sp_model_synthetic(), see
 *    Documentation/model-format.rst) over the kernel's topology: a "core"
 *    level when any CPU has SMT siblings (topology_sibling_cpumask), a
 *    "package" level (topology_physical_package_id) and a "node" level when
 *    there is more than one NUMA node and every package lies in one node.
 *    On arm64 (GENERIC_ARCH_TOPOLOGY) the CPUs of one cluster
 *    (topology_cluster_cpumask, from the DT's cpu-map) form a "cluster"
 *    level below "package" when a package holds more than one cluster, and
 *    the synthetic pd is the cluster.  x86 6.1 exports no cluster mask, so
 *    there is no cluster level there; load a model for boards that have one.
 *  - capacity: a synthetic OPP table of a CPU whose arch_scale_cpu_capacity()
 *    is below SCHED_CAPACITY_SCALE (a LITTLE CPU of big.LITTLE) is scaled:
 *    capacity by s = capacity / 1024 and power by s^2 (same frequencies), so
 *    a LITTLE CPU does a unit of work for s times a big one's energy; a
 *    group whose CPUs are all LITTLE (their cluster) gets its static power
 *    and wake-up energy scaled by s^2 too.
 *    model_source then says "topology=kernel,cluster" (clusters) and
 *    ",asym" (unequal capacities).
 *  - performance domains: the CPUs of one Energy Model domain
 *    (em_cpu_get()) or else of one cpufreq policy (related_cpus); without
 *    either, one pd per package.
 *  - opp=em: the EM's states (kHz; power in uW, or mW without
 *    EM_PERF_DOMAIN_MICROWATTS), capacity = arch_scale_cpu_capacity() *
 *    f / f_max.  opp=cpufreq: the policy's frequency table (or 4 steps
 *    between cpuinfo min and max for table-less drivers like intel_pstate)
 *    with the synthetic power curve P = 3.2 W * f/f_max * (V/1.2 V)^2,
 *    V from 0.7 V at f_min to 1.2 V at f_max.  opp=synthetic otherwise.
 *    At most 16 states are kept (evenly spaced, always the slowest and the
 *    fastest); states that do not raise frequency, capacity and power over
 *    the one before are dropped.
 *  - idle=cpuidle: the cpuidle driver's states of a CPU of the pd, in the
 *    driver's order so that indices match power:cpu_idle (at most 8 kept):
 *    exit latency and target residency in us, power_usage (mW) where the
 *    driver sets a plausible one, else 150 mW for the shallowest state
 *    falling linearly to 5 mW for the deepest; wake-up energy = 0.5 W for
 *    the exit latency.  idle=synthetic when there is no driver (the qemu
 *    guest has none).
 *
 * "mixed" means different pds used different sources.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/topology.h>
#include <linux/nodemask.h>
#include <linux/cpufreq.h>
#include <linux/cpuidle.h>
#include <linux/energy_model.h>
#include <linux/workqueue.h>
#include <linux/sched/topology.h>
#include <linux/rcupdate.h>
#include <linux/version.h>

#include "sched_power.h"

/* ---- the default model from the kernel's tables ----------------------- */

struct sp_build {
	u16 pkg_of[SP_MAX_CPUS];
	u16 core_of[SP_MAX_CPUS];
	u16 node_of[SP_MAX_CPUS];
	u16 pd_of[SP_MAX_CPUS];
	u16 cluster_of[SP_MAX_CPUS];
	const u16 *dom_of;		/* bottom level: cluster_of or pkg_of */
	u32 freq[64];
	struct sp_pd idle_pd;		/* filled on a CPU of the pd */
	struct sp_pd pd_tmpl;		/* sp_model_set_pds()'s template */
	bool have_kernel_pd;
	u32 n_em, n_cpufreq, n_synth_opp, n_scaled, n_cpuidle, n_synth_idle;
	bool asym;			/* some CPU below SCHED_CAPACITY_SCALE */
};

static const struct sp_group sp_emdef_node_tmpl = {
	.active_uw = 4000000, .idle_uw = 1000000, .wakeup_uj = 2000,
	.exit_latency_us = 500,
};

/* Above clusters: the package's shared L3/interconnect, awake or not. */
static const struct sp_group sp_emdef_pkg_tmpl = {
	.active_uw = 500000, .idle_uw = 50000, .wakeup_uj = 300,
	.exit_latency_us = 0,
};

static void sp_emdef_topology(struct sp_build *b, bool *smt, bool *numa)
{
	u32 cpu;

	*smt = false;
	*numa = num_online_nodes() > 1;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		int pkg = 0, node = 0;
		u32 core = cpu;

		if (cpu_possible(cpu)) {
			pkg = topology_physical_package_id(cpu);
			core = cpumask_first(topology_sibling_cpumask(cpu));
			if (cpumask_weight(topology_sibling_cpumask(cpu)) > 1)
				*smt = true;
			node = cpu_to_node(cpu);
		}
		b->pkg_of[cpu] = pkg >= 0 && pkg < SP_NONE ? pkg : 0;
		b->core_of[cpu] = core < nr_cpu_ids ? core : cpu;
		b->node_of[cpu] = node >= 0 && node < SP_NONE ? node : 0;
	}
}

/*
 * The first CPU of each CPU's cluster, where the architecture has clusters.
 * True when they split some package: more clusters than packages, none
 * straddling two packages.
 */
static bool sp_emdef_clusters(struct sp_build *b)
{
#if defined(CONFIG_GENERIC_ARCH_TOPOLOGY)
	u32 cpu, c2, nr_clusters = 0, nr_pkgs = 0;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		u32 first = cpu;

		if (cpu_possible(cpu))
			first = cpumask_first(topology_cluster_cpumask(cpu));
		b->cluster_of[cpu] = first < nr_cpu_ids ? first : cpu;
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		for (c2 = 0; c2 < cpu; c2++) {
			if (b->cluster_of[c2] == b->cluster_of[cpu] &&
			    b->pkg_of[c2] != b->pkg_of[cpu])
				return false;
		}
		for (c2 = 0; c2 < cpu && b->cluster_of[c2] != b->cluster_of[cpu]; c2++)
			;
		nr_clusters += c2 == cpu;
		for (c2 = 0; c2 < cpu && b->pkg_of[c2] != b->pkg_of[cpu]; c2++)
			;
		nr_pkgs += c2 == cpu;
	}
	return nr_clusters > nr_pkgs;
#else
	return false;
#endif
}

/* pd of each CPU: EM domain, else cpufreq policy, else its package. */
static void sp_emdef_pd_map(struct sp_build *b)
{
	u32 cpu, c2;

	b->have_kernel_pd = false;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct em_perf_domain *em = cpu_possible(cpu) ? em_cpu_get(cpu) : NULL;
		struct cpufreq_policy *pol;
		u32 first = SP_NONE;

		if (em) {
			first = cpumask_first(em_span_cpus(em));
		} else if (cpu_possible(cpu)) {
			pol = cpufreq_cpu_get(cpu);
			if (pol) {
				first = cpumask_first(pol->related_cpus);
				cpufreq_cpu_put(pol);
			}
		}
		if (first < nr_cpu_ids) {
			b->pd_of[cpu] = first;
			b->have_kernel_pd = true;
			continue;
		}
		/* the first CPU of the package (or cluster) names the pd */
		for (c2 = 0; c2 < cpu && b->dom_of[c2] != b->dom_of[cpu]; c2++)
			;
		b->pd_of[cpu] = c2;
	}
}

/* Keep at most SP_MAX_OPPS of @n sorted states: index i of the kept ones. */
static u32 sp_emdef_pick(u32 i, u32 n)
{
	return n <= SP_MAX_OPPS ? i : i * (n - 1) / (SP_MAX_OPPS - 1);
}

static void sp_emdef_add_opp(struct sp_pd *pd, u32 khz, u32 cap, u32 uw)
{
	const struct sp_opp *prev = pd->nr_opps ? &pd->opp[pd->nr_opps - 1] : NULL;

	if (pd->nr_opps >= SP_MAX_OPPS || !khz || !cap || cap > SP_CAP_SCALE)
		return;
	if (prev && (khz <= prev->freq_khz || cap <= prev->cap || uw <= prev->power_uw))
		return;
	pd->opp[pd->nr_opps].freq_khz = khz;
	pd->opp[pd->nr_opps].cap = cap;
	pd->opp[pd->nr_opps].power_uw = uw;
	pd->nr_opps++;
}

static u32 sp_emdef_cap_of(u32 cpu, u64 khz, u64 max_khz)
{
	u64 cap = arch_scale_cpu_capacity(cpu) * khz;

	cap = max_khz ? div64_u64(cap, max_khz) : 0;
	return clamp_t(u64, cap, 1, SP_CAP_SCALE);
}

/* The EM's states; 6.9 made the table RCU-managed (caller holds rcu_read_lock). */
static const struct em_perf_state *sp_emdef_em_table(struct em_perf_domain *em)
{
	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "the EM table read outside RCU");
#if KERNEL_VERSION(6, 9, 0) <= LINUX_VERSION_CODE
	return em_perf_state_from_pd(em);
#else
	return em->table;
#endif
}

static bool sp_emdef_fill_em(struct sp_pd *pd, u32 cpu)
{
	struct em_perf_domain *em = em_cpu_get(cpu);
	const struct em_perf_state *table;
	struct sp_opp save[SP_MAX_OPPS];
	u32 n, i, nr_save;
	u64 fmax;

	if (!em || em->nr_perf_states <= 0)
		return false;
	n = em->nr_perf_states;
	nr_save = pd->nr_opps;
	memcpy(save, pd->opp, sizeof(save));
	pd->nr_opps = 0;
	rcu_read_lock();
	table = sp_emdef_em_table(em);
	fmax = table[n - 1].frequency;
	for (i = 0; i < min_t(u32, n, SP_MAX_OPPS); i++) {
		const struct em_perf_state *ps = &table[sp_emdef_pick(i, n)];
		u64 uw = ps->power;

		if (!(em->flags & EM_PERF_DOMAIN_MICROWATTS))
			uw *= 1000;
		sp_emdef_add_opp(pd, min_t(u64, ps->frequency, U32_MAX),
				 sp_emdef_cap_of(cpu, ps->frequency, fmax),
				 min_t(u64, uw, U32_MAX));
	}
	rcu_read_unlock();
	if (pd->nr_opps)
		return true;
	pd->nr_opps = nr_save;
	memcpy(pd->opp, save, sizeof(save));
	return false;
}

/* The synthetic power curve for a frequency between @fmin and @fmax. */
static u32 sp_emdef_synthetic_uw(u64 f, u64 fmin, u64 fmax)
{
	u64 mv = 1200, uw;

	if (fmax > fmin)
		mv = 700 + div64_u64(500 * (f - fmin), fmax - fmin);
	uw = div64_u64(3200000ull * f, fmax);
	return (u32)div64_u64(uw * mv * mv, 1200 * 1200);
}

static bool sp_emdef_fill_cpufreq(struct sp_build *b, struct sp_pd *pd, u32 cpu)
{
	struct cpufreq_policy *pol = cpufreq_cpu_get(cpu);
	struct cpufreq_frequency_table *pos;
	u32 n = 0, i, j, nr_save;
	struct sp_opp save[SP_MAX_OPPS];

	if (!pol)
		return false;
	if (pol->freq_table) {
		cpufreq_for_each_valid_entry(pos, pol->freq_table) {
			u32 f = pos->frequency;

			/* a 0 kHz entry is no state (and would divide by 0) */
			if (!f)
				continue;
			/* insert sorted, without duplicates */
			for (i = 0; i < n && b->freq[i] < f; i++)
				;
			if ((i < n && b->freq[i] == f) || n == ARRAY_SIZE(b->freq))
				continue;
			for (j = n; j > i; j--)
				b->freq[j] = b->freq[j - 1];
			b->freq[i] = f;
			n++;
		}
	}
	if (!n && pol->cpuinfo.max_freq) {
		u32 lo = pol->cpuinfo.min_freq, hi = pol->cpuinfo.max_freq;

		for (i = 0; i < 4; i++)
			b->freq[n++] = lo + (u32)div_u64((u64)(hi - lo) * i, 3);
	}
	cpufreq_cpu_put(pol);
	if (!n)
		return false;
	nr_save = pd->nr_opps;
	memcpy(save, pd->opp, sizeof(save));
	pd->nr_opps = 0;
	for (i = 0; i < min_t(u32, n, SP_MAX_OPPS); i++) {
		u32 f = b->freq[sp_emdef_pick(i, n)];

		sp_emdef_add_opp(pd, f, sp_emdef_cap_of(cpu, f, b->freq[n - 1]),
				 sp_emdef_synthetic_uw(f, b->freq[0], b->freq[n - 1]));
	}
	if (pd->nr_opps)
		return true;
	pd->nr_opps = nr_save;
	memcpy(pd->opp, save, sizeof(save));
	return false;
}

/*
 * A synthetic table on a CPU of capacity s * 1024, s < 1: capacity times s,
 * power times s^2.  True if the table was scaled.
 */
static bool sp_emdef_scale_synthetic(struct sp_pd *pd, u32 cpu)
{
	u64 scale = arch_scale_cpu_capacity(cpu);
	u32 i;

	if (!scale || scale >= SP_CAP_SCALE)
		return false;
	for (i = 0; i < pd->nr_opps; i++) {
		struct sp_opp *o = &pd->opp[i];
		u64 uw = div64_u64((u64)o->power_uw * scale * scale,
				   (u64)SP_CAP_SCALE * SP_CAP_SCALE);

		o->cap = max_t(u32, 1, div64_u64((u64)o->cap * scale, SP_CAP_SCALE));
		o->power_uw = max_t(u32, i + 1, uw);
	}
	return true;
}

/* @v times (@scale / 1024)^2, at least 1 if @v was not 0. */
static u32 sp_emdef_scale2(u32 v, u64 scale)
{
	u64 x = div64_u64((u64)v * scale * scale, (u64)SP_CAP_SCALE * SP_CAP_SCALE);

	return v && !x ? 1 : (u32)x;
}

/*
 * The groups of a synthetic model whose CPUs all have one capacity s * 1024
 * with s < 1 (a cluster of LITTLE CPUs): static power and wake-up energy
 * times s^2, as sp_emdef_scale_synthetic() does to their CPUs' OPP power, since a
 * cluster of scaled-down cores has proportionally less to keep powered.  A
 * group of CPUs of different capacities keeps the synthetic values.
 */
static void sp_emdef_scale_groups(struct sp_model *m)
{
	u32 g, i;

	for (g = 0; g < m->nr_groups; g++) {
		struct sp_group *gr = &m->group[g];
		u64 scale = 0, c;

		for (i = 0; i < gr->nr_cpus; i++) {
			u32 cpu = m->group_cpus[gr->cpu_off + i];

			c = cpu_possible(cpu) ? arch_scale_cpu_capacity(cpu) : SP_CAP_SCALE;
			if (i && c != scale) {
				scale = SP_CAP_SCALE;
				break;
			}
			scale = c;
		}
		if (!scale || scale >= SP_CAP_SCALE)
			continue;
		gr->active_uw = sp_emdef_scale2(gr->active_uw, scale);
		gr->idle_uw = sp_emdef_scale2(gr->idle_uw, scale);
		gr->wakeup_uj = sp_emdef_scale2(gr->wakeup_uj, scale);
	}
}

/* Runs on a CPU of the pd: copy its cpuidle driver's states. */
static long sp_emdef_read_cpuidle(void *arg)
{
	struct sp_pd *pd = arg;
	struct cpuidle_driver *drv;
	u32 i, j, n;

	pd->nr_idle = 0;
	pd->nr_poll = 0;
	preempt_disable();
	drv = cpuidle_get_driver();
	n = drv && drv->state_count > 0 ? min_t(u32, drv->state_count, SP_MAX_IDLE) : 0;
	for (i = 0; i < n; i++) {
		const struct cpuidle_state *s = &drv->states[i];
		struct sp_idle_state *st = &pd->idle[i];
		const struct sp_idle_state *prev = i ? &pd->idle[i - 1] : NULL;
		u32 uw;

		memset(st->name, 0, sizeof(st->name));
		for (j = 0; j < SP_NAME_LEN - 1 && s->name[j]; j++) {
			char c = s->name[j];

			st->name[j] = isalnum(c) || c == '-' || c == '.' ? c : '_';
		}
		for (j = 0; j < i; j++)
			if (!strcmp(pd->idle[j].name, st->name))
				break;
		if (!st->name[0] || j < i)
			snprintf(st->name, sizeof(st->name), "S%u", i);
		if (s->power_usage > 0 && s->power_usage <= 100000)
			uw = s->power_usage * 1000;
		else
			uw = n > 1 ? 150000 - 145000 * i / (n - 1) : 150000;
		st->power_uw = prev ? min(uw, prev->power_uw) : uw;
		st->exit_latency_us = prev ? max(s->exit_latency, prev->exit_latency_us) :
				      s->exit_latency;
		st->target_residency_us = prev ?
			max(s->target_residency, prev->target_residency_us) :
			s->target_residency;
		st->wakeup_uj = st->exit_latency_us / 2;
		/* the leading polling states (x86's POLL) keep the package awake */
		if ((s->flags & CPUIDLE_FLAG_POLLING) && pd->nr_poll == i)
			pd->nr_poll++;
	}
	pd->nr_idle = n;
	preempt_enable();
	return n;
}

static bool sp_emdef_fill_cpuidle(struct sp_build *b, struct sp_model *m, struct sp_pd *pd)
{
	u32 i;

	for (i = 0; i < pd->nr_cpus; i++) {
		u32 cpu = m->pd_cpus[pd->cpu_off + i];

		if (!cpu_online(cpu))
			continue;
		b->idle_pd.nr_idle = 0;
		if (work_on_cpu_safe(cpu, sp_emdef_read_cpuidle, &b->idle_pd) < 0)
			continue;
		if (!b->idle_pd.nr_idle)
			return false;
		pd->nr_idle = b->idle_pd.nr_idle;
		pd->nr_poll = b->idle_pd.nr_poll;
		memcpy(pd->idle, b->idle_pd.idle, sizeof(pd->idle));
		return true;
	}
	return false;
}

static const char *sp_emdef_src_name(u32 kernel, u32 synth, const char *what)
{
	if (!synth)
		return what;
	return kernel ? "mixed" : "synthetic";
}

/*
 * The synthetic model over the kernel's topology: cores (SMT), then clusters
 * or packages, then packages above clusters, then NUMA nodes.
 */
static int sp_emdef_levels(struct sp_model *m, struct sp_build *b, bool smt,
			   bool numa, bool clusters)
{
	int ret;

	ret = sp_model_synthetic(m, nr_cpu_ids, b->dom_of, smt ? b->core_of : NULL);
	if (ret || !clusters)
		goto node;
	strscpy(m->level[m->nr_levels - 1].name, "cluster", SP_NAME_LEN);
	if (sp_model_add_level(m, "package", b->pkg_of, &sp_emdef_pkg_tmpl))
		pr_info("no package level above the clusters\n");
node:
	if (!ret && numa && sp_model_add_level(m, "node", b->node_of, &sp_emdef_node_tmpl))
		pr_info("packages straddle NUMA nodes: no node level\n");
	return ret;
}

static const char *sp_emdef_opp_src(const struct sp_build *b)
{
	if (b->n_em && !b->n_cpufreq)
		return sp_emdef_src_name(b->n_em, b->n_synth_opp, "em");
	if (b->n_cpufreq && !b->n_em)
		return sp_emdef_src_name(b->n_cpufreq, b->n_synth_opp, "cpufreq");
	return b->n_em ? "mixed" : "synthetic";
}

/* OPP and idle tables of every pd, from the kernel where it has them. */
static void sp_emdef_fill_pds(struct sp_model *m, struct sp_build *b)
{
	u32 i;

	for (i = 0; i < m->nr_pds; i++) {
		struct sp_pd *pd = &m->pd[i];
		u32 cpu = m->pd_cpus[pd->cpu_off];

		if (cpu_possible(cpu) && sp_emdef_fill_em(pd, cpu)) {
			b->n_em++;
		} else if (cpu_possible(cpu) && sp_emdef_fill_cpufreq(b, pd, cpu)) {
			b->n_cpufreq++;
		} else {
			b->n_synth_opp++;
			if (cpu_possible(cpu) && sp_emdef_scale_synthetic(pd, cpu))
				b->n_scaled++;
		}
		if (cpu_possible(cpu) && arch_scale_cpu_capacity(cpu) < SP_CAP_SCALE)
			b->asym = true;
		if (sp_emdef_fill_cpuidle(b, m, pd))
			b->n_cpuidle++;
		else
			b->n_synth_idle++;
	}
}

/**
 * sp_emdef_build() - the default model from the kernel's tables
 * @m: the model to fill (need not be zeroed)
 * @src: where to write the source line of model_source
 * @src_len: its size
 *
 * The steps of "where the default model comes from"; a table the kernel
 * offers that gives an invalid model is dropped for the synthetic one.
 * Process context.
 *
 * Return: 0, -ENOMEM or the builders' error.
 */
int sp_emdef_build(struct sp_model *m, char *src, size_t src_len)
{
	struct sp_parse_error err;
	struct sp_build *b;
	bool smt, numa, clusters;
	int ret;

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	sp_emdef_topology(b, &smt, &numa);
	clusters = sp_emdef_clusters(b);
	b->dom_of = clusters ? b->cluster_of : b->pkg_of;
	ret = sp_emdef_levels(m, b, smt, numa, clusters);
	if (ret)
		goto out;
	sp_emdef_pd_map(b);
	if (b->have_kernel_pd) {
		b->pd_tmpl = m->pd[0];
		ret = sp_model_set_pds(m, b->pd_of, &b->pd_tmpl);
		if (ret)
			goto out;
	}
	sp_emdef_fill_pds(m, b);
	if (b->n_scaled)
		sp_emdef_scale_groups(m);
	ret = sp_model_validate(m, &err);
	if (ret) {
		pr_warn("kernel tables give an invalid model (line %d field '%s': %s), using the synthetic one\n",
			err.line, err.field, err.msg);
		ret = sp_emdef_levels(m, b, smt, numa, clusters);
		b->n_em = 0;
		b->n_cpufreq = 0;
		b->n_cpuidle = 0;
		b->n_scaled = 0;
		/* every table is the synthetic one: model_source says so */
		b->n_synth_opp = m->nr_pds;
		b->n_synth_idle = m->nr_pds;
	}
	/* the tables were filled after linking: derive from the final ones */
	sp_model_derive(m);
	snprintf(src, src_len, "opp=%s idle=%s topology=kernel%s%s",
		 sp_emdef_opp_src(b), sp_emdef_src_name(b->n_cpuidle, b->n_synth_idle, "cpuidle"),
		 clusters ? ",cluster" : "", b->asym ? ",asym" : "");
out:
	kfree(b);
	return ret;
}
