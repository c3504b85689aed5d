// SPDX-License-Identifier: GPL-2.0
/*
 * sp_model_build.c - models not read from text: the synthetic model of a
 * topology, and the pieces the kernel builds its default from.
 */
#include "sp_model_int.h"

/* ---- the synthetic model ---------------------------------------------- */

/**
 * DOC: the synthetic model
 *
 * Used when the kernel has neither an Energy Model nor cpufreq/cpuidle
 * tables (the qemu guest, for one).  One pd per package; per CPU four OPPs
 * from 0.8 to 3.2 GHz whose power follows P ~ f * V^2 with V rising from
 * 0.7 V to 1.2 V, scaled to 3.2 W at the top; four idle states with the
 * exit latencies and target residencies of intel_idle's Sandy Bridge table
 * (C1 2/2, C1E 10/20, C3 80/211, C6 104/345 us), whose C6 latency already
 * includes the package's exit.  Level "core" (only when @core_of is given:
 * SMT siblings share a core and its L1/L2) and level "package" (uncore, LLC
 * and the package PLL: 2 W awake, 0.1 W in the package C-state, 600 uJ to
 * wake, no latency beyond C6's).  models/x86-2pkg.model is exactly this
 * model for the qemu guest's 2 x 2 CPUs (its comments say where each
 * number comes from); host tests check it.
 */
static const struct sp_opp sp_model_syn_opp[] = {
	{ .freq_khz =  800000, .cap =  256, .power_uw =  270000 },
	{ .freq_khz = 1600000, .cap =  512, .power_uw =  800000 },
	{ .freq_khz = 2400000, .cap =  768, .power_uw = 1670000 },
	{ .freq_khz = 3200000, .cap = 1024, .power_uw = 3200000 },
};

static const struct sp_idle_state sp_model_syn_idle[] = {
	{ .name = "C1", .power_uw = 150000, .exit_latency_us = 2,
	  .target_residency_us = 2, .wakeup_uj = 0 },
	{ .name = "C1E", .power_uw = 100000, .exit_latency_us = 10,
	  .target_residency_us = 20, .wakeup_uj = 2 },
	{ .name = "C3", .power_uw = 40000, .exit_latency_us = 80,
	  .target_residency_us = 211, .wakeup_uj = 15 },
	{ .name = "C6", .power_uw = 5000, .exit_latency_us = 104,
	  .target_residency_us = 345, .wakeup_uj = 40 },
};

static const struct sp_group sp_model_syn_core = {
	.active_uw = 100000, .idle_uw = 5000, .wakeup_uj = 10, .exit_latency_us = 10,
};

static const struct sp_group sp_model_syn_pkg = {
	.active_uw = 2000000, .idle_uw = 100000, .wakeup_uj = 600,
	.exit_latency_us = 0,
};

/* Append the CPUs whose @of[] equals @of[@first] (from @first on) as a group. */
static int sp_model_syn_group(struct sp_model *m, u32 l, const struct sp_group *tmpl,
			      u32 id, const u16 *of, u32 first, u32 *nr_gcpus)
{
	struct sp_group *g;
	u32 c;

	if (m->nr_groups >= SP_MAX_GROUPS)
		return -E2BIG;
	g = &m->group[m->nr_groups];
	*g = *tmpl;
	g->nr_cpus = 0;
	g->src_line = 0;
	g->id = (u16)id;
	g->level = (u8)l;
	g->cpu_off = (u16)*nr_gcpus;
	for (c = first; c < m->nr_cpus; c++) {
		if (of[c] != of[first] || m->cpu_group[l][c] != SP_NONE)
			continue;
		m->cpu_group[l][c] = m->nr_groups;
		m->group_cpus[(*nr_gcpus)++] = (u16)c;
		g->nr_cpus++;
	}
	m->nr_groups++;
	return 0;
}

int sp_model_synthetic(struct sp_model *m, u32 nr_cpus, const u16 *pkg_of,
		       const u16 *core_of)
{
	u32 c, c2, nr_gcpus = 0, nr_pcpus = 0, pkg_level = core_of ? 1 : 0;
	struct sp_parse_error err;
	int ret;

	memset(m, 0, sizeof(*m));
	memset(m->cpu_pd, 0xff, sizeof(m->cpu_pd));
	memset(m->cpu_group, 0xff, sizeof(m->cpu_group));
	if (!nr_cpus || !pkg_of)
		return -EINVAL;
	if (nr_cpus > SP_MAX_CPUS)
		return -E2BIG;
	m->nr_cpus = nr_cpus;
	for (c = 0; c < nr_cpus; c++)
		if (pkg_of[c] > SP_ID_MAX)
			return -EINVAL;
	if (core_of) {
		sp_model_name_set(m->level[0].name, (struct sp_str){ "core", 4 });
		/* a core is the CPUs sharing both package and core id */
		for (c = 0; c < nr_cpus; c++) {
			if (m->cpu_group[0][c] != SP_NONE)
				continue;
			if (m->nr_groups >= SP_MAX_GROUPS)
				return -E2BIG;
			for (c2 = c; c2 < nr_cpus; c2++)
				if (pkg_of[c2] == pkg_of[c] && core_of[c2] == core_of[c])
					m->cpu_group[0][c2] = m->nr_groups;
			m->group[m->nr_groups] = sp_model_syn_core;
			m->group[m->nr_groups].id = m->nr_groups;
			m->group[m->nr_groups].cpu_off = (u16)nr_gcpus;
			for (c2 = c; c2 < nr_cpus; c2++) {
				if (m->cpu_group[0][c2] != m->nr_groups)
					continue;
				m->group_cpus[nr_gcpus++] = (u16)c2;
				m->group[m->nr_groups].nr_cpus++;
			}
			m->nr_groups++;
		}
	}
	sp_model_name_set(m->level[pkg_level].name, (struct sp_str){ "package", 7 });
	m->nr_levels = (u16)(pkg_level + 1);
	for (c = 0; c < nr_cpus; c++) {
		struct sp_pd *pd;

		if (m->cpu_group[pkg_level][c] != SP_NONE)
			continue;
		ret = sp_model_syn_group(m, pkg_level, &sp_model_syn_pkg, pkg_of[c], pkg_of, c,
					 &nr_gcpus);
		if (ret)
			return ret;
		if (m->nr_pds >= SP_MAX_PDS)
			return -E2BIG;
		/* the pd is the package: same CPUs */
		pd = &m->pd[m->nr_pds];
		pd->id = pkg_of[c];
		pd->cpu_off = (u16)nr_pcpus;
		pd->nr_cpus = m->group[m->nr_groups - 1].nr_cpus;
		memcpy(m->pd_cpus + nr_pcpus,
		       m->group_cpus + m->group[m->nr_groups - 1].cpu_off,
		       pd->nr_cpus * sizeof(u16));
		nr_pcpus += pd->nr_cpus;
		pd->nr_opps = SP_ARRAY_SIZE(sp_model_syn_opp);
		memcpy(pd->opp, sp_model_syn_opp, sizeof(sp_model_syn_opp));
		pd->nr_idle = SP_ARRAY_SIZE(sp_model_syn_idle);
		memcpy(pd->idle, sp_model_syn_idle, sizeof(sp_model_syn_idle));
		m->nr_pds++;
	}
	ret = sp_model_link(m, &err);
	if (!ret)
		ret = sp_model_validate(m, &err);
	return ret;
}

/* ---- building from the kernel's tables ------------------------------- */

int sp_model_set_pds(struct sp_model *m, const u16 *pd_of, const struct sp_pd *tmpl)
{
	struct sp_parse_error err;
	u32 c, c2, off = 0;
	int ret;

	for (c = 0; c < m->nr_cpus; c++)
		if (pd_of[c] > SP_ID_MAX)
			return -EINVAL;
	m->nr_pds = 0;
	for (c = 0; c < SP_MAX_CPUS; c++)
		m->cpu_pd[c] = SP_NONE;
	for (c = 0; c < m->nr_cpus; c++) {
		struct sp_pd *pd;

		if (m->cpu_pd[c] != SP_NONE)
			continue;
		if (m->nr_pds >= SP_MAX_PDS)
			return -E2BIG;
		pd = &m->pd[m->nr_pds];
		memset(pd, 0, sizeof(*pd));
		pd->id = pd_of[c];
		pd->cpu_off = (u16)off;
		pd->nr_opps = tmpl->nr_opps;
		memcpy(pd->opp, tmpl->opp, sizeof(pd->opp));
		pd->nr_idle = tmpl->nr_idle;
		pd->nr_poll = tmpl->nr_poll;
		memcpy(pd->idle, tmpl->idle, sizeof(pd->idle));
		for (c2 = c; c2 < m->nr_cpus; c2++) {
			if (pd_of[c2] != pd_of[c])
				continue;
			m->cpu_pd[c2] = m->nr_pds;
			m->pd_cpus[off++] = (u16)c2;
			pd->nr_cpus++;
		}
		m->nr_pds++;
	}
	ret = sp_model_link(m, &err);
	return ret ? ret : sp_model_validate(m, &err);
}

int sp_model_add_level(struct sp_model *m, const char *name, const u16 *of,
		       const struct sp_group *tmpl)
{
	const struct sp_level *top;
	struct sp_parse_error err;
	u32 l = m->nr_levels, g, i, c, nr_gcpus = 0;
	struct sp_str n = { name, (u32)strlen(name) };
	int ret;

	if (!l || !sp_model_name_ok(n))
		return -EINVAL;
	if (l >= SP_MAX_LEVELS)
		return -E2BIG;
	top = &m->level[l - 1];
	for (g = top->first_group; g < (u32)top->first_group + top->nr_groups; g++) {
		const struct sp_group *gr = &m->group[g];

		for (i = 1; i < gr->nr_cpus; i++)
			if (of[m->group_cpus[gr->cpu_off + i]] != of[m->group_cpus[gr->cpu_off]])
				return -EINVAL;
	}
	for (c = 0; c < m->nr_cpus; c++)
		if (of[c] > SP_ID_MAX)
			return -EINVAL;
	for (g = 0; g < m->nr_groups; g++)
		if (m->group[g].cpu_off + m->group[g].nr_cpus > nr_gcpus)
			nr_gcpus = m->group[g].cpu_off + m->group[g].nr_cpus;
	/* count the new groups before touching anything */
	for (c = 0, i = 0; c < m->nr_cpus; c++) {
		u32 c2;

		for (c2 = 0; c2 < c; c2++)
			if (of[c2] == of[c])
				break;
		i += c2 == c;
	}
	if (m->nr_groups + i > SP_MAX_GROUPS || nr_gcpus + m->nr_cpus > SP_MAX_LEVELS * SP_MAX_CPUS)
		return -E2BIG;
	memset(&m->level[l], 0, sizeof(m->level[l]));
	sp_model_name_set(m->level[l].name, n);
	m->nr_levels++;
	for (c = 0; c < SP_MAX_CPUS; c++)
		m->cpu_group[l][c] = SP_NONE;
	for (c = 0; c < m->nr_cpus; c++) {
		if (m->cpu_group[l][c] != SP_NONE)
			continue;
		ret = sp_model_syn_group(m, l, tmpl, of[c], of, c, &nr_gcpus);
		if (ret)
			return ret;
	}
	ret = sp_model_link(m, &err);
	return ret ? ret : sp_model_validate(m, &err);
}
