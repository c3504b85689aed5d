// SPDX-License-Identifier: GPL-2.0
/*
 * sp_model_check.c - the model's consistency: the per-entry rules the
 * parser applies line by line, linking the tables into the CPU and group
 * maps, and validating a whole model (a parsed one, or one built from the
 * kernel's tables).
 */
#include "sp_model_int.h"

int sp_model_err_at(struct sp_parse_error *err, int ret, int line,
		    const char *field, size_t flen, const char *msg, int cpu)
{
	size_t i;

	if (!err)
		return ret;
	if (flen > SP_NAME_LEN - 1)
		flen = SP_NAME_LEN - 1;
	for (i = 0; i < flen; i++) {
		unsigned char c = field[i];

		err->field[i] = (c > ' ' && c < 0x7f) ? (char)c : '?';
	}
	err->field[i] = '\0';
	err->line = line;
	err->msg = msg;
	err->cpu = cpu;
	return ret;
}

int sp_model_err(struct sp_parse_error *err, int ret, u32 line,
		 const char *field, const char *msg)
{
	return sp_model_err_at(err, ret, (int)line, field, strlen(field), msg, -1);
}

int sp_model_err_cpu(struct sp_parse_error *err, int ret, u32 line,
		     const char *field, const char *msg, u32 cpu)
{
	return sp_model_err_at(err, ret, (int)line, field, strlen(field), msg, (int)cpu);
}

/* ---- rules shared by the parser and sp_model_validate() --------------- */

const char *sp_model_check_opp(const struct sp_opp *prev,
			       const struct sp_opp *cur, const char **msg)
{
	if (!cur->freq_khz) {
		*msg = "frequency must be > 0";
		return "khz";
	}
	if (!cur->cap || cur->cap > SP_CAP_SCALE) {
		*msg = "capacity must be 1..1024";
		return "cap";
	}
	if (!prev)
		return NULL;
	if (cur->freq_khz <= prev->freq_khz) {
		*msg = "OPP frequencies must increase";
		return "khz";
	}
	if (cur->cap <= prev->cap) {
		*msg = "OPP capacities must increase";
		return "cap";
	}
	if (cur->power_uw <= prev->power_uw) {
		*msg = "OPP power must increase";
		return "uw";
	}
	return NULL;
}

const char *sp_model_check_idle(const struct sp_idle_state *prev,
				const struct sp_idle_state *cur, const char **msg)
{
	if (cur->exit_latency_us > SP_EXIT_US_MAX) {
		*msg = "value out of range";
		return "exit_us";
	}
	if (!prev)
		return NULL;
	if (cur->power_uw > prev->power_uw) {
		*msg = "deeper idle state must not draw more power";
		return "uw";
	}
	if (cur->exit_latency_us < prev->exit_latency_us) {
		*msg = "deeper idle state must not exit faster";
		return "exit_us";
	}
	if (cur->target_residency_us < prev->target_residency_us) {
		*msg = "deeper idle state must not have a shorter target";
		return "target_us";
	}
	return NULL;
}

/* ---- linking ---------------------------------------------------------- */

static u32 sp_model_group_key(const struct sp_group *g, bool by_parent)
{
	return by_parent ? g->parent : g->level;
}

/* Stable insertion sort of group[lo..hi); linear on sorted input. */
static void sp_model_sort_groups(struct sp_group *g, u32 lo, u32 hi, bool by_parent)
{
	struct sp_group t;
	u32 i, j;

	for (i = lo + 1; i < hi; i++) {
		if (sp_model_group_key(&g[i - 1], by_parent) <=
		    sp_model_group_key(&g[i], by_parent))
			continue;
		t = g[i];
		for (j = i; j > lo && sp_model_group_key(&g[j - 1], by_parent) >
				      sp_model_group_key(&t, by_parent); j--)
			g[j] = g[j - 1];
		g[j] = t;
	}
}

/* cpu_group[] of one level from its groups; every CPU exactly once. */
static int sp_model_link_level_cpus(struct sp_model *m, u32 l, struct sp_parse_error *err)
{
	const struct sp_level *lv = &m->level[l];
	u32 g, i, c;

	for (c = 0; c < SP_MAX_CPUS; c++)
		m->cpu_group[l][c] = SP_NONE;
	for (g = lv->first_group; g < (u32)lv->first_group + lv->nr_groups; g++) {
		const struct sp_group *gr = &m->group[g];

		for (i = 0; i < gr->nr_cpus; i++) {
			c = m->group_cpus[gr->cpu_off + i];
			if (m->cpu_group[l][c] != SP_NONE)
				return sp_model_err_cpu(err, -EINVAL, gr->src_line, "cpus",
						  "CPU already in another group of this level",
						  c);
			m->cpu_group[l][c] = (u16)g;
		}
	}
	for (c = 0; c < m->nr_cpus; c++)
		if (m->cpu_group[l][c] == SP_NONE)
			return sp_model_err_cpu(err, -EINVAL, lv->src_line, "cpus",
					  "CPU in no group of this level", c);
	return 0;
}

static int sp_model_link_pds(struct sp_model *m, struct sp_parse_error *err)
{
	u32 i, j, c;

	for (c = 0; c < SP_MAX_CPUS; c++)
		m->cpu_pd[c] = SP_NONE;
	for (i = 0; i < m->nr_pds; i++) {
		const struct sp_pd *pd = &m->pd[i];

		if (!pd->nr_cpus || pd->cpu_off + pd->nr_cpus > SP_MAX_CPUS)
			return sp_model_err(err, -EINVAL, pd->src_line, "cpus",
				      "pd CPU range invalid");
		for (j = 0; j < pd->nr_cpus; j++) {
			c = m->pd_cpus[pd->cpu_off + j];
			if (c >= m->nr_cpus)
				return sp_model_err_cpu(err, -EINVAL, pd->src_line, "cpus",
						  "CPU beyond the model's cpus", c);
			if (m->cpu_pd[c] != SP_NONE)
				return sp_model_err_cpu(err, -EINVAL, pd->src_line, "cpus",
						  "CPU already in another pd", c);
			m->cpu_pd[c] = (u16)i;
		}
	}
	for (c = 0; c < m->nr_cpus; c++)
		if (m->cpu_pd[c] == SP_NONE)
			return sp_model_err_cpu(err, -EINVAL, m->src_line, "pd",
					  "CPU in no pd", c);
	return 0;
}

static int sp_model_link_check_counts(const struct sp_model *m, struct sp_parse_error *err)
{
	if (!m->nr_cpus)
		return sp_model_err(err, -EINVAL, m->src_line, "cpus", "no CPUs");
	if (m->nr_cpus > SP_MAX_CPUS)
		return sp_model_err(err, -E2BIG, m->src_line, "cpus", "too many CPUs");
	if (!m->nr_pds)
		return sp_model_err_cpu(err, -EINVAL, m->src_line, "pd", "CPU in no pd", 0);
	if (m->nr_pds > SP_MAX_PDS)
		return sp_model_err(err, -E2BIG, m->src_line, "pd", "too many pds");
	if (!m->nr_levels)
		return sp_model_err(err, -EINVAL, m->src_line, "level", "no levels");
	if (m->nr_levels > SP_MAX_LEVELS)
		return sp_model_err(err, -E2BIG, m->src_line, "level", "too many levels");
	if (m->nr_groups > SP_MAX_GROUPS)
		return sp_model_err(err, -E2BIG, m->src_line, "group", "too many groups");
	return 0;
}

int sp_model_link(struct sp_model *m, struct sp_parse_error *err)
{
	u32 i, j, l, c, top;
	int ret;

	ret = sp_model_link_check_counts(m, err);
	if (!ret)
		ret = sp_model_link_pds(m, err);
	if (ret)
		return ret;
	for (i = 0; i < m->nr_groups; i++) {
		const struct sp_group *g = &m->group[i];

		if (g->level >= m->nr_levels)
			return sp_model_err(err, -EINVAL, g->src_line, "level", "unknown level");
		if (!g->nr_cpus || g->cpu_off + g->nr_cpus > SP_MAX_LEVELS * SP_MAX_CPUS)
			return sp_model_err(err, -EINVAL, g->src_line, "cpus",
				      "group CPU range invalid");
		for (j = 0; j < g->nr_cpus; j++)
			if (m->group_cpus[g->cpu_off + j] >= m->nr_cpus)
				return sp_model_err_cpu(err, -EINVAL, g->src_line, "cpus",
						  "CPU beyond the model's cpus",
						  m->group_cpus[g->cpu_off + j]);
	}
	sp_model_sort_groups(m->group, 0, m->nr_groups, false);
	for (l = 0, i = 0; l < m->nr_levels; l++) {
		m->level[l].first_group = (u16)i;
		while (i < m->nr_groups && m->group[i].level == l)
			i++;
		m->level[l].nr_groups = (u16)(i - m->level[l].first_group);
		if (!m->level[l].nr_groups)
			return sp_model_err(err, -EINVAL, m->level[l].src_line, "group",
				      "level has no groups");
	}
	for (l = m->nr_levels; l < SP_MAX_LEVELS; l++) {
		memset(&m->level[l], 0, sizeof(m->level[l]));
		for (c = 0; c < SP_MAX_CPUS; c++)
			m->cpu_group[l][c] = SP_NONE;
	}

	/* Top-down: find each group's parent, then gather groups by parent. */
	top = m->nr_levels - 1u;
	for (l = top + 1; l-- > 0;) {
		const struct sp_level *lv = &m->level[l];
		u32 lo = lv->first_group, hi = lo + lv->nr_groups;

		for (i = lo; i < hi; i++) {
			struct sp_group *g = &m->group[i];

			g->parent = SP_NONE;
			g->first_child = SP_NONE;
			g->nr_children = 0;
			if (l == top)
				continue;
			g->parent = m->cpu_group[l + 1][m->group_cpus[g->cpu_off]];
			for (j = 1; j < g->nr_cpus; j++) {
				c = m->group_cpus[g->cpu_off + j];
				if (m->cpu_group[l + 1][c] != g->parent)
					return sp_model_err_cpu(err, -EINVAL, g->src_line, "cpus",
							  "group not inside one group of the next level",
							  c);
			}
		}
		sp_model_sort_groups(m->group, lo, hi, true);
		ret = sp_model_link_level_cpus(m, l, err);
		if (ret)
			return ret;
	}
	for (l = 1; l < m->nr_levels; l++) {
		const struct sp_level *lv = &m->level[l - 1];

		for (i = lv->first_group; i < (u32)lv->first_group + lv->nr_groups; i++) {
			struct sp_group *pg = &m->group[m->group[i].parent];

			if (pg->first_child == SP_NONE)
				pg->first_child = (u16)i;
			pg->nr_children++;
		}
	}
	sp_model_derive(m);
	return 0;
}

/* ---- validation ------------------------------------------------------- */

static int sp_model_validate_pd(const struct sp_model *m, u32 i, struct sp_parse_error *err)
{
	const struct sp_pd *pd = &m->pd[i];
	const char *field, *msg;
	u32 j, k;

	if (pd->id > SP_ID_MAX)
		return sp_model_err(err, -EINVAL, pd->src_line, "id", "value out of range");
	for (j = 0; j < i; j++)
		if (m->pd[j].id == pd->id)
			return sp_model_err(err, -EINVAL, pd->src_line, "id", "duplicate pd id");
	if (!pd->nr_cpus || pd->cpu_off + pd->nr_cpus > SP_MAX_CPUS)
		return sp_model_err(err, -EINVAL, pd->src_line, "cpus", "pd CPU range invalid");
	for (j = 0; j < pd->nr_cpus; j++) {
		u32 c = m->pd_cpus[pd->cpu_off + j];

		if (c >= m->nr_cpus || m->cpu_pd[c] != i)
			return sp_model_err_cpu(err, -EINVAL, pd->src_line, "cpus",
					  "pd CPU list inconsistent", c);
		if (j && c <= m->pd_cpus[pd->cpu_off + j - 1])
			return sp_model_err_cpu(err, -EINVAL, pd->src_line, "cpus",
					  "CPU list must be increasing", c);
	}
	if (!pd->nr_opps)
		return sp_model_err(err, -EINVAL, pd->src_line, "opp", "pd has no OPP");
	if (pd->nr_opps > SP_MAX_OPPS)
		return sp_model_err(err, -E2BIG, pd->src_line, "opp", "too many OPPs in pd");
	for (k = 0; k < pd->nr_opps; k++) {
		field = sp_model_check_opp(k ? &pd->opp[k - 1] : NULL, &pd->opp[k], &msg);
		if (field)
			return sp_model_err(err, -EINVAL, pd->src_line, field, msg);
	}
	/* the busy power of all its CPUs at the highest OPP (sp_energy.c's clamp) */
	if ((u64)pd->nr_cpus * pd->opp[pd->nr_opps - 1].power_uw >= SP_PD_POWER_MAX_UW)
		return sp_model_err(err, -EINVAL, pd->src_line, "uw",
			      "pd's CPUs times its highest OPP power must be below 2^40 uW");
	if (!pd->nr_idle)
		return sp_model_err(err, -EINVAL, pd->src_line, "idle", "pd has no idle state");
	if (pd->nr_idle > SP_MAX_IDLE)
		return sp_model_err(err, -E2BIG, pd->src_line, "idle",
			      "too many idle states in pd");
	if (pd->nr_poll > pd->nr_idle)
		return sp_model_err(err, -EINVAL, pd->src_line, "poll",
			      "more polling idle states than idle states");
	for (k = 0; k < pd->nr_idle; k++) {
		const struct sp_idle_state *st = &pd->idle[k];

		if (!sp_model_name_ok(sp_model_name_view(st->name)))
			return sp_model_err(err, -EINVAL, pd->src_line, "name",
				      "name must be 1..15 of [A-Za-z0-9_.-]");
		for (j = 0; j < k; j++)
			if (!memcmp(pd->idle[j].name, st->name, SP_NAME_LEN))
				return sp_model_err(err, -EINVAL, pd->src_line, "name",
					      "duplicate idle state name in pd");
		field = sp_model_check_idle(k ? &pd->idle[k - 1] : NULL, st, &msg);
		if (field)
			return sp_model_err(err, -EINVAL, pd->src_line, field, msg);
	}
	return 0;
}

static int sp_model_validate_group(const struct sp_model *m, u32 l, u32 i,
				   struct sp_parse_error *err)
{
	const struct sp_level *lv = &m->level[l];
	const struct sp_group *g = &m->group[i];
	u32 j, c;

	if (g->level != l)
		return sp_model_err(err, -EINVAL, g->src_line, "level", "group out of level order");
	if (g->id > SP_ID_MAX)
		return sp_model_err(err, -EINVAL, g->src_line, "id", "value out of range");
	for (j = lv->first_group; j < i; j++)
		if (m->group[j].id == g->id)
			return sp_model_err(err, -EINVAL, g->src_line, "id",
				      "duplicate group id in level");
	if (g->idle_uw > g->active_uw)
		return sp_model_err(err, -EINVAL, g->src_line, "idle_uw",
			      "idle_uw must be <= active_uw");
	if (g->exit_latency_us > SP_EXIT_US_MAX)
		return sp_model_err(err, -EINVAL, g->src_line, "exit_us", "value out of range");
	if (!g->nr_cpus || g->cpu_off + g->nr_cpus > SP_MAX_LEVELS * SP_MAX_CPUS)
		return sp_model_err(err, -EINVAL, g->src_line, "cpus", "group CPU range invalid");
	for (j = 0; j < g->nr_cpus; j++) {
		c = m->group_cpus[g->cpu_off + j];
		if (c >= m->nr_cpus || m->cpu_group[l][c] != i)
			return sp_model_err_cpu(err, -EINVAL, g->src_line, "cpus",
					  "group CPU list inconsistent", c);
		if (j && c <= m->group_cpus[g->cpu_off + j - 1])
			return sp_model_err_cpu(err, -EINVAL, g->src_line, "cpus",
					  "CPU list must be increasing", c);
		if (l + 1 < m->nr_levels && m->cpu_group[l + 1][c] != g->parent)
			return sp_model_err_cpu(err, -EINVAL, g->src_line, "cpus",
					  "group not inside one group of the next level", c);
	}
	if (l + 1 == m->nr_levels && g->parent != SP_NONE)
		return sp_model_err(err, -EINVAL, g->src_line, "level", "top group has a parent");
	if (!l && (g->first_child != SP_NONE || g->nr_children))
		return sp_model_err(err, -EINVAL, g->src_line, "level",
				    "bottom group has children");
	if (l) {
		const struct sp_level *down = &m->level[l - 1];

		if (!g->nr_children || g->first_child < down->first_group ||
		    g->first_child + g->nr_children > down->first_group + down->nr_groups)
			return sp_model_err(err, -EINVAL, g->src_line, "cpus",
				      "group children inconsistent");
		for (j = g->first_child; j < (u32)g->first_child + g->nr_children; j++)
			if (m->group[j].parent != i)
				return sp_model_err(err, -EINVAL, g->src_line, "cpus",
					      "group children inconsistent");
	}
	return 0;
}

static int sp_model_validate_level(const struct sp_model *m, u32 l, u32 first,
				   struct sp_parse_error *err)
{
	const struct sp_level *lv = &m->level[l];
	u32 i, nr_cpus = 0, nr_children = 0;
	int ret;

	if (!sp_model_name_ok(sp_model_name_view(lv->name)))
		return sp_model_err(err, -EINVAL, lv->src_line, "name",
			      "name must be 1..15 of [A-Za-z0-9_.-]");
	for (i = 0; i < l; i++)
		if (!memcmp(m->level[i].name, lv->name, SP_NAME_LEN))
			return sp_model_err(err, -EINVAL, lv->src_line, "name",
				      "duplicate level name");
	if (lv->first_group != first || !lv->nr_groups ||
	    first + lv->nr_groups > m->nr_groups)
		return sp_model_err(err, -EINVAL, lv->src_line, "group", "level has no groups");
	for (i = first; i < first + lv->nr_groups; i++) {
		ret = sp_model_validate_group(m, l, i, err);
		if (ret)
			return ret;
		nr_cpus += m->group[i].nr_cpus;
		nr_children += m->group[i].nr_children;
	}
	if (nr_cpus != m->nr_cpus)
		return sp_model_err(err, -EINVAL, lv->src_line, "cpus",
			      "level does not partition the CPUs");
	if (l && nr_children != m->level[l - 1].nr_groups)
		return sp_model_err(err, -EINVAL, lv->src_line, "group",
			      "group children inconsistent");
	return 0;
}

int sp_model_validate(const struct sp_model *m, struct sp_parse_error *err)
{
	u32 i, l, first = 0, nr_pd_cpus = 0;
	int ret;

	ret = sp_model_link_check_counts(m, err);
	if (ret)
		return ret;
	for (i = 0; i < m->nr_cpus; i++)
		if (m->cpu_pd[i] >= m->nr_pds)
			return sp_model_err_cpu(err, -EINVAL, m->src_line, "pd", "CPU in no pd", i);
	for (i = 0; i < m->nr_pds; i++) {
		ret = sp_model_validate_pd(m, i, err);
		if (ret)
			return ret;
		nr_pd_cpus += m->pd[i].nr_cpus;
	}
	if (nr_pd_cpus != m->nr_cpus)
		return sp_model_err(err, -EINVAL, m->src_line, "pd",
			      "pds do not partition the CPUs");
	for (l = 0; l < m->nr_levels; l++) {
		ret = sp_model_validate_level(m, l, first, err);
		if (ret)
			return ret;
		first += m->level[l].nr_groups;
	}
	if (first != m->nr_groups)
		return sp_model_err(err, -EINVAL, m->src_line, "group", "group out of level order");
	return 0;
}
