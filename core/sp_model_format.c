// SPDX-License-Identifier: GPL-2.0
/*
 * sp_model_format.c - a model as text, the format sp_model_parse() reads:
 * the sysfs read-back and the simulator's and tests' round trips.
 */
#include "sp_model_int.h"

/* ---- the formatter ---------------------------------------------------- */

struct sp_out {
	char *buf;
	size_t size;
	size_t len;
};

static void sp_model_out_mem(struct sp_out *o, const char *s, size_t n)
{
	if (o->len < o->size) {
		size_t room = o->size - o->len;

		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

static void sp_model_out_str(struct sp_out *o, const char *s)
{
	sp_model_out_mem(o, s, strlen(s));
}

static void sp_model_out_u32(struct sp_out *o, u32 v)
{
	char tmp[10];
	int n = 0;

	do {
		tmp[sizeof(tmp) - 1 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	sp_model_out_mem(o, tmp + sizeof(tmp) - n, (size_t)n);
}

static void sp_model_out_kv(struct sp_out *o, const char *key, u32 v)
{
	sp_model_out_str(o, " ");
	sp_model_out_str(o, key);
	sp_model_out_str(o, "=");
	sp_model_out_u32(o, v);
}

static void sp_model_out_kname(struct sp_out *o, const char *key, const char *name)
{
	struct sp_str v = sp_model_name_view(name);

	sp_model_out_str(o, " ");
	sp_model_out_str(o, key);
	sp_model_out_str(o, "=");
	sp_model_out_mem(o, v.s, v.len);
}

/* " cpus=a-b,c": runs of two or more consecutive CPUs print as ranges. */
static void sp_model_out_cpus(struct sp_out *o, const u16 *cpu, u32 n)
{
	u32 i = 0, j;

	sp_model_out_str(o, " cpus=");
	while (i < n) {
		for (j = i; j + 1 < n && cpu[j + 1] == cpu[j] + 1u; j++)
			;
		if (i)
			sp_model_out_str(o, ",");
		sp_model_out_u32(o, cpu[i]);
		if (j > i) {
			sp_model_out_str(o, "-");
			sp_model_out_u32(o, cpu[j]);
		}
		i = j + 1;
	}
}

size_t sp_model_format(const struct sp_model *m, char *buf, size_t size)
{
	struct sp_out o = { .buf = buf, .size = size };
	u32 i, k;

	sp_model_out_str(&o, "sched_power_model");
	sp_model_out_kv(&o, "version", 1);
	sp_model_out_kv(&o, "cpus", m->nr_cpus);
	sp_model_out_str(&o, "\n");
	for (i = 0; i < m->nr_levels && i < SP_MAX_LEVELS; i++) {
		sp_model_out_str(&o, "level");
		sp_model_out_kname(&o, "name", m->level[i].name);
		sp_model_out_str(&o, "\n");
	}
	for (i = 0; i < m->nr_pds && i < SP_MAX_PDS; i++) {
		const struct sp_pd *pd = &m->pd[i];

		sp_model_out_str(&o, "pd");
		sp_model_out_kv(&o, "id", pd->id);
		if (pd->cpu_off + pd->nr_cpus <= SP_MAX_CPUS)
			sp_model_out_cpus(&o, m->pd_cpus + pd->cpu_off, pd->nr_cpus);
		sp_model_out_str(&o, "\n");
		for (k = 0; k < pd->nr_opps && k < SP_MAX_OPPS; k++) {
			sp_model_out_str(&o, "opp");
			sp_model_out_kv(&o, "pd", pd->id);
			sp_model_out_kv(&o, "khz", pd->opp[k].freq_khz);
			sp_model_out_kv(&o, "cap", pd->opp[k].cap);
			sp_model_out_kv(&o, "uw", pd->opp[k].power_uw);
			sp_model_out_str(&o, "\n");
		}
		for (k = 0; k < pd->nr_idle && k < SP_MAX_IDLE; k++) {
			const struct sp_idle_state *st = &pd->idle[k];

			sp_model_out_str(&o, "idle");
			sp_model_out_kv(&o, "pd", pd->id);
			sp_model_out_kname(&o, "name", st->name);
			sp_model_out_kv(&o, "uw", st->power_uw);
			sp_model_out_kv(&o, "exit_us", st->exit_latency_us);
			sp_model_out_kv(&o, "target_us", st->target_residency_us);
			sp_model_out_kv(&o, "wake_uj", st->wakeup_uj);
			if (k < pd->nr_poll)
				sp_model_out_kv(&o, "poll", 1);
			sp_model_out_str(&o, "\n");
		}
	}
	for (i = 0; i < m->nr_groups && i < SP_MAX_GROUPS; i++) {
		const struct sp_group *g = &m->group[i];

		sp_model_out_str(&o, "group");
		sp_model_out_kname(&o, "level",
				   m->level[g->level < SP_MAX_LEVELS ? g->level : 0].name);
		sp_model_out_kv(&o, "id", g->id);
		if (g->cpu_off + g->nr_cpus <= SP_MAX_LEVELS * SP_MAX_CPUS)
			sp_model_out_cpus(&o, m->group_cpus + g->cpu_off, g->nr_cpus);
		sp_model_out_kv(&o, "active_uw", g->active_uw);
		sp_model_out_kv(&o, "idle_uw", g->idle_uw);
		sp_model_out_kv(&o, "wake_uj", g->wakeup_uj);
		sp_model_out_kv(&o, "exit_us", g->exit_latency_us);
		sp_model_out_str(&o, "\n");
	}
	sp_model_out_str(&o, "end\n");
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len;
}
