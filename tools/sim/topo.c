// SPDX-License-Identifier: GPL-2.0
/*
 * topo.c - the scheduling domains Linux 6.1 would build for a model.
 *
 * DOC: scheduling domains from the model
 *
 * The model's levels (lowest first) become the domain levels, as the
 * x86/arm64 topology tables do: a domain instance spans one group of its
 * level and its sched_groups are the groups one kept level down (single
 * CPUs for the lowest).  A level whose groups are no wider than the groups
 * below it is dropped (the kernel's degenerate domains); if the top level
 * has more than one group, a last domain spans every CPU with the top
 * groups as its sched_groups (the DIE or NUMA level).
 *
 * Flags and constants follow sd_init() in kernel/sched/topology.c:
 *
 *  - a lowest level named "core" is SMT: imbalance_pct 110,
 *    cache_nice_tries 0, shared capacity and cache;
 *  - the LLC (sd_llc, SD_SHARE_PKG_RESOURCES) is the domain of the level
 *    named "package", else the top model level: the package's last-level
 *    cache on x86 and on DynamIQ arm64; it and every domain below it share
 *    cache (imbalance_pct 117, cache_nice_tries 1);
 *  - above the LLC: imbalance_pct 117, cache_nice_tries 1; the all-CPU
 *    domain of a model with a "node" level is NUMA (cache_nice_tries 2,
 *    no SD_PREFER_SIBLING; its distance is taken as within
 *    node_reclaim_distance, so wake-affine and fork balancing stay on);
 *  - a domain whose CPUs differ in capacity (the highest OPP's cap) is
 *    SD_ASYM_CPUCAPACITY and its child loses SD_PREFER_SIBLING; the
 *    lowest such domain is sd_asym_cpucapacity;
 *  - every domain has SD_BALANCE_NEWIDLE/EXEC/FORK and SD_WAKE_AFFINE,
 *    min_interval = span weight ms, max_interval twice that,
 *    busy_factor 16.
 *
 * Packages, for the validation metrics, are the groups of the level named
 * "package", else of the top level.
 */
#include "sim_int.h"

static s32 level_named(const struct sp_model *m, const char *name)
{
	u32 l;

	for (l = 0; l < m->nr_levels; l++)
		if (!strcmp(m->level[l].name, name))
			return (s32)l;
	return -1;
}

/* Is every group of level @l as narrow as its children at level @below? */
static bool level_degenerate(const struct sp_model *m, u32 l, u32 below)
{
	const struct sp_level *lv = &m->level[l];
	u32 g;

	for (g = lv->first_group; g < (u32)lv->first_group + lv->nr_groups; g++) {
		const struct sp_group *gr = &m->group[g];
		u32 first = m->group_cpus[gr->cpu_off];
		u32 child_n = below == SIM_LEVEL_CPU ? 1 :
			      m->group[m->cpu_group[below][first]].nr_cpus;

		if (gr->nr_cpus > child_n)
			return false;
	}
	return true;
}

static u32 cpu_cap(const struct sp_model *m, u32 cpu)
{
	const struct sp_pd *pd = &m->pd[m->cpu_pd[cpu]];

	return pd->nr_opps ? pd->opp[pd->nr_opps - 1].cap : SP_CAP_SCALE;
}

/* Do the CPUs of every span of domain @d share one capacity? */
static bool dom_symmetric(const struct sp_model *m, const struct sim_topo *tp, u32 d)
{
	u32 lv = tp->dom[d].level, c;

	for (c = 1; c < m->nr_cpus; c++) {
		u32 first = 0;

		if (lv != SIM_LEVEL_ALL)
			first = m->group_cpus[m->group[m->cpu_group[lv][c]].cpu_off];
		if (cpu_cap(m, c) != cpu_cap(m, first))
			return false;
	}
	return true;
}

static void add_dom(struct sim_topo *tp, u32 level, u32 child)
{
	struct sim_dom *d = &tp->dom[tp->nr_doms++];

	d->level = (u8)level;
	d->child = (u8)child;
	d->flags = SIM_SD_PREFER_SIBLING;
	d->imbalance_pct = 117;
	d->cache_nice_tries = 1;
}

static u32 span_weight(const struct sp_model *m, const struct sim_dom *d)
{
	if (d->level == SIM_LEVEL_ALL)
		return m->nr_cpus;
	return m->group[m->level[d->level].first_group].nr_cpus;
}

/*
 * sd->imb_numa_nr of build_sched_domains(): the LLCs in the domain above
 * the LLC, or an eighth of its CPUs when it holds one LLC.
 */
static u16 numa_imb(const struct sp_model *m, const struct sim_topo *tp)
{
	u32 llc, up, n;

	if (tp->llc < 0 || (u32)tp->llc + 1 >= tp->nr_doms)
		return 1;
	llc = span_weight(m, &tp->dom[tp->llc]);
	up = span_weight(m, &tp->dom[tp->llc + 1]);
	n = up / llc == 1 ? up >> 3 : up / llc;
	return (u16)(n ? n : 1);
}

static void set_flags(const struct sp_model *m, struct sim_topo *tp)
{
	s32 pkg = level_named(m, "package"), core = level_named(m, "core");
	u32 d, llc_level = pkg >= 0 ? (u32)pkg : m->nr_levels - 1u;

	for (d = 0; d < tp->nr_doms; d++) {
		struct sim_dom *dm = &tp->dom[d];

		if (dm->level != SIM_LEVEL_ALL && dm->level <= llc_level) {
			dm->flags |= SIM_SD_LLC;
			tp->llc = (s32)d;
		}
		if (!d && core == 0 && dm->child == SIM_LEVEL_CPU && dm->level == 0) {
			dm->flags |= SIM_SD_SMT;
			dm->imbalance_pct = 110;
			dm->cache_nice_tries = 0;
			tp->smt = 0;
		}
		if (dm->level == SIM_LEVEL_ALL && level_named(m, "node") >= 0) {
			dm->flags = (u16)((dm->flags | SIM_SD_NUMA) & ~SIM_SD_PREFER_SIBLING);
			dm->cache_nice_tries = 2;
			dm->imb_numa_nr = numa_imb(m, tp);
		}
		if (!dom_symmetric(m, tp, d)) {
			dm->flags |= SIM_SD_ASYM;
			if (d)
				tp->dom[d - 1].flags &= (u16)~SIM_SD_PREFER_SIBLING;
			if (tp->asym < 0)
				tp->asym = (s32)d;
		}
	}
}

/* The member (CPU or child-level group) of @cpu's sched_group in @d. */
static u32 member_of(const struct sp_model *m, const struct sim_dom *d, u32 cpu)
{
	return d->child == SIM_LEVEL_CPU ? cpu : m->cpu_group[d->child][cpu];
}

/* The sched_groups of every span, in the order of their first CPUs. */
static void build_groups(const struct sp_model *m, struct sim_topo *tp)
{
	u32 d, c, j, pool = 0;

	for (d = 0; d < tp->nr_doms; d++) {
		const struct sim_dom *dm = &tp->dom[d];
		u32 nr_spans = dm->level == SIM_LEVEL_ALL ? 1 : m->level[dm->level].nr_groups;
		u32 first = dm->level == SIM_LEVEL_ALL ? 0 : m->level[dm->level].first_group;
		u32 sp;

		for (sp = first; sp < first + nr_spans; sp++) {
			const u16 *cpus = dm->level == SIM_LEVEL_ALL ? tp->all_cpus :
					  m->group_cpus + m->group[sp].cpu_off;
			u32 n = dm->level == SIM_LEVEL_ALL ? m->nr_cpus : m->group[sp].nr_cpus;
			u16 *out = tp->grp_pool + pool;
			u32 k = 0;

			tp->grp_off[d][sp] = (u16)pool;
			for (c = 0; c < n; c++) {
				u32 mem = member_of(m, dm, cpus[c]);

				for (j = 0; j < k && out[j] != mem; j++)
					;
				if (j == k)
					out[k++] = (u16)mem;
			}
			tp->grp_nr[d][sp] = (u16)k;
			pool += k;
		}
	}
}

/*
 * The level the metrics count as packages (prev_pkg, all_awake, package
 * wake-ups): "package" where the model has more than one, else the highest
 * level that has more than one group (the clusters of a one-package
 * big.LITTLE SoC, where every wake-up would stay in the one package), as
 * sp-report counts a recording (rep_pkg_level()); else the top level.
 */
static u32 metrics_pkg_level(const struct sp_model *m)
{
	s32 pkg = level_named(m, "package");
	u32 l;

	if (pkg >= 0 && m->level[pkg].nr_groups > 1)
		return (u32)pkg;
	for (l = m->nr_levels; l-- > 0;)
		if (m->level[l].nr_groups > 1)
			return l;
	return pkg >= 0 ? (u32)pkg : m->nr_levels - 1u;
}

void topo_build(const struct sp_model *m, struct sim_topo *tp)
{
	u32 l, below = SIM_LEVEL_CPU, c;

	memset(tp, 0, sizeof(*tp));
	tp->llc = tp->smt = tp->asym = -1;
	for (c = 0; c < m->nr_cpus; c++)
		tp->all_cpus[c] = (u16)c;
	for (l = 0; l < m->nr_levels && tp->nr_doms < SIM_MAX_DOMS; l++) {
		if (level_degenerate(m, l, below))
			continue;
		add_dom(tp, l, below);
		below = l;
	}
	if (below != SIM_LEVEL_CPU && m->level[below].nr_groups > 1 &&
	    tp->nr_doms < SIM_MAX_DOMS)
		add_dom(tp, SIM_LEVEL_ALL, below);
	else if (below == SIM_LEVEL_CPU && m->nr_cpus > 1)
		add_dom(tp, SIM_LEVEL_ALL, SIM_LEVEL_CPU);
	set_flags(m, tp);
	tp->pkg_level = metrics_pkg_level(m);
	tp->nr_pkgs = m->level[tp->pkg_level].nr_groups;
	for (c = 0; c < m->nr_cpus; c++) {
		tp->cap[c] = (u16)cpu_cap(m, c);
		if (tp->cap[c] > tp->max_cap)
			tp->max_cap = tp->cap[c];
	}
	build_groups(m, tp);
}

