// SPDX-License-Identifier: GPL-2.0
/*
 * sp_model.c - parse, print, link and check sched_power energy models.
 *
 * DOC: model text format
 *
 * One object per line, "kind key=value ...".  Every key of a kind must be
 * given exactly once, in any order; a token starting with '#' begins a
 * comment that runs to the end of the line, and blank lines are ignored.
 * Numbers are plain decimal u32 (no sign, no prefix, at most 4294967295).
 *
 *	sched_power_model version=1 cpus=N		(first line)
 *	level name=NAME					(smallest level first)
 *	pd id=ID cpus=LIST
 *	opp pd=ID khz=F cap=C uw=P			(slowest first)
 *	idle pd=ID name=NAME uw=P exit_us=L target_us=R wake_uj=E
 *							(shallowest first)
 *	group level=NAME id=ID cpus=LIST active_uw=A idle_uw=I wake_uj=E exit_us=L
 *	end						(optional, last)
 *
 * A pd must be declared before its opp and idle lines, a level before its
 * groups.  The formatter prints the canonical form: header, levels, each pd
 * followed by its OPPs and idle states, the groups level by level (smallest
 * level first; inside a level in the order written, except that groups are
 * gathered under their parents in the parents' order so that the children of
 * a group are contiguous), and "end".  Documentation/model-format.rst lists
 * every rule; the checks are here, in the order a line is read:
 *
 *  - syntax: known kind, key=value tokens, known and non-repeated keys, no
 *    missing key, decimal numbers within the key's range, names of 1..15
 *    characters [A-Za-z0-9_.-], CPU lists "a-b,c" strictly increasing with
 *    every CPU below cpus=;
 *  - per line: pd ids unique, a CPU in at most one pd and in at most one
 *    group per level, OPPs strictly increasing in khz, cap and uw, idle
 *    states no more power and no less exit latency/target residency than the
 *    one before, idle_uw <= active_uw, level names and idle-state names
 *    unique, group ids unique within their level;
 *  - whole model (sp_model_link, sp_model_validate): every CPU in one pd and
 *    in one group of every level, every group inside one group of the next
 *    level, every pd with at least one OPP and one idle state.
 *
 * Table overflows (CPUs, pds, OPPs, idle states, levels, groups) and input
 * longer than SP_MODEL_TEXT_MAX are -E2BIG, everything else -EINVAL.
 */
#include "sp_model.h"

#define SP_ID_MAX	(SP_NONE - 1u)
#define SP_U32_MAX	0xffffffffu
#define SP_MAX_KEYS	7

struct sp_str {
	const char *s;
	u32 len;
};

static bool sp_str_eq(struct sp_str a, const char *lit)
{
	size_t n = strlen(lit);

	return a.len == n && !memcmp(a.s, lit, n);
}

static bool sp_name_eq(const char *name, struct sp_str a)
{
	return a.len < SP_NAME_LEN && !memcmp(name, a.s, a.len) && !name[a.len];
}

static int sp_err_at(struct sp_parse_error *err, int ret, int line,
		     const char *field, size_t flen, const char *msg, int cpu)
{
	size_t i;

	if (!err)
		return ret;
	if (flen > SP_NAME_LEN - 1)
		flen = SP_NAME_LEN - 1;
	for (i = 0; i < flen; i++) {
		char c = field[i];

		err->field[i] = (c > ' ' && c < 0x7f) ? c : '?';
	}
	err->field[i] = '\0';
	err->line = line;
	err->msg = msg;
	err->cpu = cpu;
	return ret;
}

static int sp_err(struct sp_parse_error *err, int ret, u32 line,
		  const char *field, const char *msg)
{
	return sp_err_at(err, ret, (int)line, field, strlen(field), msg, -1);
}

static int sp_err_cpu(struct sp_parse_error *err, int ret, u32 line,
		      const char *field, const char *msg, u32 cpu)
{
	return sp_err_at(err, ret, (int)line, field, strlen(field), msg, (int)cpu);
}

/* ---- value syntax ---------------------------------------------------- */

/* 0, or -EINVAL with *msg set. */
static int sp_parse_u32(struct sp_str v, u32 *out, const char **msg)
{
	u64 x = 0;
	u32 i;

	if (!v.len) {
		*msg = "empty value";
		return -EINVAL;
	}
	for (i = 0; i < v.len; i++) {
		char c = v.s[i];

		if (c < '0' || c > '9') {
			*msg = "not a decimal number";
			return -EINVAL;
		}
		x = x * 10 + (u32)(c - '0');
		if (x > SP_U32_MAX) {
			*msg = "number exceeds 4294967295";
			return -EINVAL;
		}
	}
	*out = (u32)x;
	return 0;
}

static bool sp_name_ok(struct sp_str v)
{
	u32 i;

	if (!v.len || v.len >= SP_NAME_LEN)
		return false;
	for (i = 0; i < v.len; i++) {
		char c = v.s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
			return false;
	}
	return true;
}

static void sp_name_set(char *dst, struct sp_str v)
{
	memset(dst, 0, SP_NAME_LEN);
	memcpy(dst, v.s, v.len);
}

/*
 * CPU list iterator: "a-b,c,...", strictly increasing, every CPU below
 * @nr_cpus.  sp_cpulist_next() returns 1 and a CPU, 0 at the end, or
 * -EINVAL with *msg set.
 */
struct sp_cpulist {
	struct sp_str v;
	u32 pos;
	u32 next;		/* pending range next..last */
	u32 last;
	bool pending;
	bool need_item;
	bool any;
	u32 prev;		/* last CPU produced (valid if any) */
};

static void sp_cpulist_init(struct sp_cpulist *cl, struct sp_str v)
{
	memset(cl, 0, sizeof(*cl));
	cl->v = v;
	cl->need_item = true;
}

static int sp_cpulist_num(struct sp_cpulist *cl, u32 *out, const char **msg)
{
	u32 start = cl->pos;
	u64 x = 0;

	while (cl->pos < cl->v.len && cl->v.s[cl->pos] >= '0' &&
	       cl->v.s[cl->pos] <= '9') {
		x = x * 10 + (u32)(cl->v.s[cl->pos] - '0');
		if (x > SP_U32_MAX) {
			*msg = "CPU number exceeds 4294967295";
			return -EINVAL;
		}
		cl->pos++;
	}
	if (cl->pos == start) {
		*msg = "bad CPU list syntax";
		return -EINVAL;
	}
	*out = (u32)x;
	return 0;
}

static int sp_cpulist_next(struct sp_cpulist *cl, u32 nr_cpus, u32 *cpu,
			   const char **msg)
{
	u32 a, b;

	if (!cl->pending) {
		if (!cl->need_item) {
			if (cl->pos == cl->v.len)
				return 0;
			if (cl->v.s[cl->pos] != ',') {
				*msg = "bad CPU list syntax";
				return -EINVAL;
			}
			cl->pos++;
		}
		if (sp_cpulist_num(cl, &a, msg))
			return -EINVAL;
		b = a;
		if (cl->pos < cl->v.len && cl->v.s[cl->pos] == '-') {
			cl->pos++;
			if (sp_cpulist_num(cl, &b, msg))
				return -EINVAL;
			if (b < a) {
				*msg = "CPU range a-b needs a <= b";
				return -EINVAL;
			}
		}
		if (b >= nr_cpus) {
			*msg = "CPU beyond the model's cpus";
			return -EINVAL;
		}
		if (cl->any && a <= cl->prev) {
			*msg = "CPU list must be increasing";
			return -EINVAL;
		}
		cl->need_item = false;
		cl->pending = true;
		cl->next = a;
		cl->last = b;
	}
	*cpu = cl->next;
	cl->prev = cl->next;
	cl->any = true;
	if (cl->next == cl->last)
		cl->pending = false;
	else
		cl->next++;
	return 1;
}

/* ---- rules shared by the parser and sp_model_validate() --------------- */

/* Returns the offending field and sets *msg, or NULL if @cur may follow. */
static const char *sp_check_opp(const struct sp_opp *prev,
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

static const char *sp_check_idle(const struct sp_idle_state *prev,
				 const struct sp_idle_state *cur, const char **msg)
{
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

/* ---- the parser ------------------------------------------------------- */

enum sp_kind_id {
	SP_K_HEADER,
	SP_K_LEVEL,
	SP_K_PD,
	SP_K_OPP,
	SP_K_IDLE,
	SP_K_GROUP,
	SP_K_END,
	SP_K_NR,
};

enum { SP_T_U32, SP_T_NAME, SP_T_CPUS };

struct sp_key {
	const char *name;
	u8 type;
	u32 min;
	u32 max;
};

struct sp_kind {
	const char *name;
	u8 nr_keys;
	struct sp_key keys[SP_MAX_KEYS];
};

#define SP_KU(n, lo, hi)	{ .name = n, .type = SP_T_U32, .min = lo, .max = hi }
#define SP_KN(n)		{ .name = n, .type = SP_T_NAME }
#define SP_KC(n)		{ .name = n, .type = SP_T_CPUS }

/* The keys of each line kind, in the order the formatter prints them. */
static const struct sp_kind sp_kinds[SP_K_NR] = {
	[SP_K_HEADER] = { "sched_power_model", 2, {
		SP_KU("version", 1, 1), SP_KU("cpus", 1, SP_U32_MAX) } },
	[SP_K_LEVEL] = { "level", 1, { SP_KN("name") } },
	[SP_K_PD] = { "pd", 2, { SP_KU("id", 0, SP_ID_MAX), SP_KC("cpus") } },
	[SP_K_OPP] = { "opp", 4, {
		SP_KU("pd", 0, SP_ID_MAX), SP_KU("khz", 1, SP_U32_MAX),
		SP_KU("cap", 1, SP_CAP_SCALE), SP_KU("uw", 0, SP_U32_MAX) } },
	[SP_K_IDLE] = { "idle", 6, {
		SP_KU("pd", 0, SP_ID_MAX), SP_KN("name"),
		SP_KU("uw", 0, SP_U32_MAX), SP_KU("exit_us", 0, SP_U32_MAX),
		SP_KU("target_us", 0, SP_U32_MAX),
		SP_KU("wake_uj", 0, SP_U32_MAX) } },
	[SP_K_GROUP] = { "group", 7, {
		SP_KN("level"), SP_KU("id", 0, SP_ID_MAX), SP_KC("cpus"),
		SP_KU("active_uw", 0, SP_U32_MAX),
		SP_KU("idle_uw", 0, SP_U32_MAX),
		SP_KU("wake_uj", 0, SP_U32_MAX),
		SP_KU("exit_us", 0, SP_U32_MAX) } },
	[SP_K_END] = { "end", 0, { } },
};

struct sp_line {
	const struct sp_kind *kind;
	struct sp_str val[SP_MAX_KEYS];
	u32 num[SP_MAX_KEYS];
};

struct sp_parser {
	struct sp_model *m;
	struct sp_parse_error *err;
	u32 line;
	u32 nr_pd_cpus;		/* used entries of m->pd_cpus[] */
	u32 nr_group_cpus;	/* used entries of m->group_cpus[] */
	bool seen_header;
	bool seen_end;
};

static int sp_perr(struct sp_parser *p, int ret, const char *field,
		   const char *msg)
{
	return sp_err(p->err, ret, p->line, field, msg);
}

static int sp_find_pd(struct sp_parser *p, u32 id)
{
	u32 i;

	for (i = 0; i < p->m->nr_pds; i++)
		if (p->m->pd[i].id == id)
			return (int)i;
	return -1;
}

static int sp_do_header(struct sp_parser *p, const struct sp_line *l)
{
	struct sp_model *m = p->m;

	if (l->num[1] > SP_MAX_CPUS)
		return sp_perr(p, -E2BIG, "cpus", "too many CPUs");
	m->nr_cpus = l->num[1];
	m->src_line = p->line;
	return 0;
}

static int sp_do_level(struct sp_parser *p, const struct sp_line *l)
{
	struct sp_model *m = p->m;
	struct sp_level *lv;
	u32 i;

	if (m->nr_levels >= SP_MAX_LEVELS)
		return sp_perr(p, -E2BIG, "level", "too many levels");
	for (i = 0; i < m->nr_levels; i++)
		if (sp_name_eq(m->level[i].name, l->val[0]))
			return sp_perr(p, -EINVAL, "name", "duplicate level name");
	lv = &m->level[m->nr_levels++];
	sp_name_set(lv->name, l->val[0]);
	lv->src_line = p->line;
	return 0;
}

static int sp_do_pd(struct sp_parser *p, const struct sp_line *l)
{
	struct sp_model *m = p->m;
	struct sp_cpulist cl;
	struct sp_pd *pd;
	const char *msg;
	u32 cpu;
	int ret;

	if (m->nr_pds >= SP_MAX_PDS)
		return sp_perr(p, -E2BIG, "pd", "too many pds");
	if (sp_find_pd(p, l->num[0]) >= 0)
		return sp_perr(p, -EINVAL, "id", "duplicate pd id");
	pd = &m->pd[m->nr_pds];
	pd->id = (u16)l->num[0];
	pd->cpu_off = (u16)p->nr_pd_cpus;
	pd->src_line = p->line;
	sp_cpulist_init(&cl, l->val[1]);
	while ((ret = sp_cpulist_next(&cl, m->nr_cpus, &cpu, &msg)) > 0) {
		if (m->cpu_pd[cpu] != SP_NONE)
			return sp_err_cpu(p->err, -EINVAL, p->line, "cpus",
					  "CPU already in another pd", cpu);
		m->cpu_pd[cpu] = m->nr_pds;
		m->pd_cpus[p->nr_pd_cpus++] = (u16)cpu;
		pd->nr_cpus++;
	}
	if (ret < 0)
		return sp_perr(p, ret, "cpus", msg);
	m->nr_pds++;
	return 0;
}

static int sp_line_pd(struct sp_parser *p, u32 id, struct sp_pd **pd)
{
	int i = sp_find_pd(p, id);

	if (i < 0)
		return sp_perr(p, -EINVAL, "pd", "unknown pd (declare it first)");
	*pd = &p->m->pd[i];
	return 0;
}

static int sp_do_opp(struct sp_parser *p, const struct sp_line *l)
{
	struct sp_opp opp = {
		.freq_khz = l->num[1], .cap = l->num[2], .power_uw = l->num[3],
	};
	const char *field, *msg;
	struct sp_pd *pd;

	if (sp_line_pd(p, l->num[0], &pd))
		return -EINVAL;
	if (pd->nr_opps >= SP_MAX_OPPS)
		return sp_perr(p, -E2BIG, "opp", "too many OPPs in pd");
	field = sp_check_opp(pd->nr_opps ? &pd->opp[pd->nr_opps - 1] : NULL,
			     &opp, &msg);
	if (field)
		return sp_perr(p, -EINVAL, field, msg);
	pd->opp[pd->nr_opps++] = opp;
	return 0;
}

static int sp_do_idle(struct sp_parser *p, const struct sp_line *l)
{
	struct sp_idle_state st;
	const char *field, *msg;
	struct sp_pd *pd;
	u32 i;

	if (sp_line_pd(p, l->num[0], &pd))
		return -EINVAL;
	if (pd->nr_idle >= SP_MAX_IDLE)
		return sp_perr(p, -E2BIG, "idle", "too many idle states in pd");
	for (i = 0; i < pd->nr_idle; i++)
		if (sp_name_eq(pd->idle[i].name, l->val[1]))
			return sp_perr(p, -EINVAL, "name",
				       "duplicate idle state name in pd");
	memset(&st, 0, sizeof(st));
	sp_name_set(st.name, l->val[1]);
	st.power_uw = l->num[2];
	st.exit_latency_us = l->num[3];
	st.target_residency_us = l->num[4];
	st.wakeup_uj = l->num[5];
	field = sp_check_idle(pd->nr_idle ? &pd->idle[pd->nr_idle - 1] : NULL,
			      &st, &msg);
	if (field)
		return sp_perr(p, -EINVAL, field, msg);
	pd->idle[pd->nr_idle++] = st;
	return 0;
}

static int sp_do_group(struct sp_parser *p, const struct sp_line *l)
{
	struct sp_model *m = p->m;
	struct sp_cpulist cl;
	struct sp_group *g;
	const char *msg;
	u32 i, lv, cpu;
	int ret;

	for (lv = 0; lv < m->nr_levels; lv++)
		if (sp_name_eq(m->level[lv].name, l->val[0]))
			break;
	if (lv == m->nr_levels)
		return sp_perr(p, -EINVAL, "level", "unknown level (declare it first)");
	if (m->nr_groups >= SP_MAX_GROUPS)
		return sp_perr(p, -E2BIG, "group", "too many groups");
	for (i = 0; i < m->nr_groups; i++)
		if (m->group[i].level == lv && m->group[i].id == l->num[1])
			return sp_perr(p, -EINVAL, "id", "duplicate group id in level");
	if (l->num[4] > l->num[3])
		return sp_perr(p, -EINVAL, "idle_uw", "idle_uw must be <= active_uw");
	g = &m->group[m->nr_groups];
	g->id = (u16)l->num[1];
	g->level = (u8)lv;
	g->parent = SP_NONE;
	g->first_child = SP_NONE;
	g->cpu_off = (u16)p->nr_group_cpus;
	g->active_uw = l->num[3];
	g->idle_uw = l->num[4];
	g->wakeup_uj = l->num[5];
	g->exit_latency_us = l->num[6];
	g->src_line = p->line;
	sp_cpulist_init(&cl, l->val[2]);
	while ((ret = sp_cpulist_next(&cl, m->nr_cpus, &cpu, &msg)) > 0) {
		if (m->cpu_group[lv][cpu] != SP_NONE)
			return sp_err_cpu(p->err, -EINVAL, p->line, "cpus",
					  "CPU already in another group of this level",
					  cpu);
		m->cpu_group[lv][cpu] = m->nr_groups;
		/* per level every CPU at most once: cannot overflow */
		m->group_cpus[p->nr_group_cpus++] = (u16)cpu;
		g->nr_cpus++;
	}
	if (ret < 0)
		return sp_perr(p, ret, "cpus", msg);
	m->nr_groups++;
	return 0;
}

/* Split one line into its kind and key=value tokens and check the syntax. */
static int sp_read_line(struct sp_parser *p, const char *s, u32 len,
			struct sp_line *l, bool *blank)
{
	const struct sp_kind *k = NULL;
	u32 pos = 0, seen = 0, i;
	struct sp_str tok;

	*blank = true;
	memset(l, 0, sizeof(*l));
	for (;;) {
		while (pos < len && (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\r'))
			pos++;
		if (pos == len || s[pos] == '#')
			break;
		tok.s = s + pos;
		while (pos < len && s[pos] != ' ' && s[pos] != '\t' && s[pos] != '\r')
			pos++;
		tok.len = (u32)(s + pos - tok.s);
		if (!k) {
			*blank = false;
			for (i = 0; i < SP_K_NR; i++)
				if (sp_str_eq(tok, sp_kinds[i].name))
					k = &sp_kinds[i];
			if (!k)
				return sp_err_at(p->err, -EINVAL, (int)p->line, tok.s,
						 tok.len, "unknown line kind", -1);
			l->kind = k;
			continue;
		}
		{
			const char *eq = memchr(tok.s, '=', tok.len);
			struct sp_str key;

			if (!eq)
				return sp_err_at(p->err, -EINVAL, (int)p->line, tok.s,
						 tok.len, "expected key=value", -1);
			key.s = tok.s;
			key.len = (u32)(eq - tok.s);
			for (i = 0; i < k->nr_keys; i++)
				if (sp_str_eq(key, k->keys[i].name))
					break;
			if (i == k->nr_keys)
				return sp_err_at(p->err, -EINVAL, (int)p->line, key.s,
						 key.len, "unknown key", -1);
			if (seen & (1u << i))
				return sp_perr(p, -EINVAL, k->keys[i].name,
					       "duplicate key");
			seen |= 1u << i;
			l->val[i].s = eq + 1;
			l->val[i].len = tok.len - key.len - 1;
		}
	}
	if (!k)
		return 0;
	for (i = 0; i < k->nr_keys; i++) {
		const struct sp_key *key = &k->keys[i];
		const char *msg;

		if (!(seen & (1u << i)))
			return sp_perr(p, -EINVAL, key->name, "missing key");
		switch (key->type) {
		case SP_T_U32:
			if (sp_parse_u32(l->val[i], &l->num[i], &msg))
				return sp_perr(p, -EINVAL, key->name, msg);
			if (l->num[i] < key->min || l->num[i] > key->max)
				return sp_perr(p, -EINVAL, key->name,
					       "value out of range");
			break;
		case SP_T_NAME:
			if (!sp_name_ok(l->val[i]))
				return sp_perr(p, -EINVAL, key->name,
					       "name must be 1..15 of [A-Za-z0-9_.-]");
			break;
		default:
			break;
		}
	}
	return 0;
}

static int sp_do_line(struct sp_parser *p, const struct sp_line *l)
{
	enum sp_kind_id kind = (enum sp_kind_id)(l->kind - sp_kinds);

	if (p->seen_end)
		return sp_perr(p, -EINVAL, l->kind->name, "text after end");
	if (!p->seen_header && kind != SP_K_HEADER)
		return sp_perr(p, -EINVAL, l->kind->name,
			       "first line must be sched_power_model");
	switch (kind) {
	case SP_K_HEADER:
		if (p->seen_header)
			return sp_perr(p, -EINVAL, "header", "second header");
		p->seen_header = true;
		return sp_do_header(p, l);
	case SP_K_LEVEL:
		return sp_do_level(p, l);
	case SP_K_PD:
		return sp_do_pd(p, l);
	case SP_K_OPP:
		return sp_do_opp(p, l);
	case SP_K_IDLE:
		return sp_do_idle(p, l);
	case SP_K_GROUP:
		return sp_do_group(p, l);
	default:
		p->seen_end = true;
		return 0;
	}
}

int sp_model_parse(const char *text, size_t len, struct sp_model *out,
		   struct sp_parse_error *err)
{
	struct sp_parser p = { .m = out, .err = err };
	struct sp_line l;
	size_t pos = 0;
	bool blank;
	int ret;

	if (err)
		sp_err(err, 0, 0, "", "");
	memset(out, 0, sizeof(*out));
	memset(out->cpu_pd, 0xff, sizeof(out->cpu_pd));
	memset(out->cpu_group, 0xff, sizeof(out->cpu_group));
	if (len > SP_MODEL_TEXT_MAX)
		return sp_err(err, -E2BIG, 0, "input", "model text too long");
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;

		p.line++;
		ret = sp_read_line(&p, text + pos, (u32)(end - pos), &l, &blank);
		if (!ret && !blank)
			ret = sp_do_line(&p, &l);
		if (ret)
			return ret;
		pos = end + 1;
	}
	if (!p.seen_header)
		return sp_err(err, -EINVAL, p.line ? p.line : 1, "header",
			      "no sched_power_model header");
	ret = sp_model_link(out, err);
	if (!ret)
		ret = sp_model_validate(out, err);
	return ret;
}

/* ---- linking ---------------------------------------------------------- */

static u32 sp_group_key(const struct sp_group *g, bool by_parent)
{
	return by_parent ? g->parent : g->level;
}

/* Stable insertion sort of group[lo..hi); linear on sorted input. */
static void sp_sort_groups(struct sp_group *g, u32 lo, u32 hi, bool by_parent)
{
	struct sp_group t;
	u32 i, j;

	for (i = lo + 1; i < hi; i++) {
		if (sp_group_key(&g[i - 1], by_parent) <= sp_group_key(&g[i], by_parent))
			continue;
		t = g[i];
		for (j = i; j > lo && sp_group_key(&g[j - 1], by_parent) >
				      sp_group_key(&t, by_parent); j--)
			g[j] = g[j - 1];
		g[j] = t;
	}
}

/* cpu_group[] of one level from its groups; every CPU exactly once. */
static int sp_link_level_cpus(struct sp_model *m, u32 l, struct sp_parse_error *err)
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
				return sp_err_cpu(err, -EINVAL, gr->src_line, "cpus",
						  "CPU already in another group of this level",
						  c);
			m->cpu_group[l][c] = (u16)g;
		}
	}
	for (c = 0; c < m->nr_cpus; c++)
		if (m->cpu_group[l][c] == SP_NONE)
			return sp_err_cpu(err, -EINVAL, lv->src_line, "cpus",
					  "CPU in no group of this level", c);
	return 0;
}

static int sp_link_pds(struct sp_model *m, struct sp_parse_error *err)
{
	u32 i, j, c;

	for (c = 0; c < SP_MAX_CPUS; c++)
		m->cpu_pd[c] = SP_NONE;
	for (i = 0; i < m->nr_pds; i++) {
		const struct sp_pd *pd = &m->pd[i];

		if (!pd->nr_cpus || pd->cpu_off + pd->nr_cpus > SP_MAX_CPUS)
			return sp_err(err, -EINVAL, pd->src_line, "cpus",
				      "pd CPU range invalid");
		for (j = 0; j < pd->nr_cpus; j++) {
			c = m->pd_cpus[pd->cpu_off + j];
			if (c >= m->nr_cpus)
				return sp_err_cpu(err, -EINVAL, pd->src_line, "cpus",
						  "CPU beyond the model's cpus", c);
			if (m->cpu_pd[c] != SP_NONE)
				return sp_err_cpu(err, -EINVAL, pd->src_line, "cpus",
						  "CPU already in another pd", c);
			m->cpu_pd[c] = (u16)i;
		}
	}
	for (c = 0; c < m->nr_cpus; c++)
		if (m->cpu_pd[c] == SP_NONE)
			return sp_err_cpu(err, -EINVAL, m->src_line, "pd",
					  "CPU in no pd", c);
	return 0;
}

static int sp_link_check_counts(const struct sp_model *m, struct sp_parse_error *err)
{
	if (!m->nr_cpus)
		return sp_err(err, -EINVAL, m->src_line, "cpus", "no CPUs");
	if (m->nr_cpus > SP_MAX_CPUS)
		return sp_err(err, -E2BIG, m->src_line, "cpus", "too many CPUs");
	if (!m->nr_pds)
		return sp_err_cpu(err, -EINVAL, m->src_line, "pd", "CPU in no pd", 0);
	if (m->nr_pds > SP_MAX_PDS)
		return sp_err(err, -E2BIG, m->src_line, "pd", "too many pds");
	if (!m->nr_levels)
		return sp_err(err, -EINVAL, m->src_line, "level", "no levels");
	if (m->nr_levels > SP_MAX_LEVELS)
		return sp_err(err, -E2BIG, m->src_line, "level", "too many levels");
	if (m->nr_groups > SP_MAX_GROUPS)
		return sp_err(err, -E2BIG, m->src_line, "group", "too many groups");
	return 0;
}

int sp_model_link(struct sp_model *m, struct sp_parse_error *err)
{
	u32 i, j, l, c, top;
	int ret;

	ret = sp_link_check_counts(m, err);
	if (!ret)
		ret = sp_link_pds(m, err);
	if (ret)
		return ret;
	for (i = 0; i < m->nr_groups; i++) {
		const struct sp_group *g = &m->group[i];

		if (g->level >= m->nr_levels)
			return sp_err(err, -EINVAL, g->src_line, "level", "unknown level");
		if (!g->nr_cpus || g->cpu_off + g->nr_cpus > SP_MAX_LEVELS * SP_MAX_CPUS)
			return sp_err(err, -EINVAL, g->src_line, "cpus",
				      "group CPU range invalid");
		for (j = 0; j < g->nr_cpus; j++)
			if (m->group_cpus[g->cpu_off + j] >= m->nr_cpus)
				return sp_err_cpu(err, -EINVAL, g->src_line, "cpus",
						  "CPU beyond the model's cpus",
						  m->group_cpus[g->cpu_off + j]);
	}
	sp_sort_groups(m->group, 0, m->nr_groups, false);
	for (l = 0, i = 0; l < m->nr_levels; l++) {
		m->level[l].first_group = (u16)i;
		while (i < m->nr_groups && m->group[i].level == l)
			i++;
		m->level[l].nr_groups = (u16)(i - m->level[l].first_group);
		if (!m->level[l].nr_groups)
			return sp_err(err, -EINVAL, m->level[l].src_line, "group",
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
					return sp_err_cpu(err, -EINVAL, g->src_line, "cpus",
							  "group not inside one group of the next level",
							  c);
			}
		}
		sp_sort_groups(m->group, lo, hi, true);
		ret = sp_link_level_cpus(m, l, err);
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
	return 0;
}

/* ---- validation ------------------------------------------------------- */

static int sp_validate_pd(const struct sp_model *m, u32 i, struct sp_parse_error *err)
{
	const struct sp_pd *pd = &m->pd[i];
	const char *field, *msg;
	u32 j, k;

	if (pd->id > SP_ID_MAX)
		return sp_err(err, -EINVAL, pd->src_line, "id", "value out of range");
	for (j = 0; j < i; j++)
		if (m->pd[j].id == pd->id)
			return sp_err(err, -EINVAL, pd->src_line, "id", "duplicate pd id");
	if (!pd->nr_cpus || pd->cpu_off + pd->nr_cpus > SP_MAX_CPUS)
		return sp_err(err, -EINVAL, pd->src_line, "cpus", "pd CPU range invalid");
	for (j = 0; j < pd->nr_cpus; j++) {
		u32 c = m->pd_cpus[pd->cpu_off + j];

		if (c >= m->nr_cpus || m->cpu_pd[c] != i)
			return sp_err_cpu(err, -EINVAL, pd->src_line, "cpus",
					  "pd CPU list inconsistent", c);
		if (j && c <= m->pd_cpus[pd->cpu_off + j - 1])
			return sp_err_cpu(err, -EINVAL, pd->src_line, "cpus",
					  "CPU list must be increasing", c);
	}
	if (!pd->nr_opps)
		return sp_err(err, -EINVAL, pd->src_line, "opp", "pd has no OPP");
	if (pd->nr_opps > SP_MAX_OPPS)
		return sp_err(err, -E2BIG, pd->src_line, "opp", "too many OPPs in pd");
	for (k = 0; k < pd->nr_opps; k++) {
		field = sp_check_opp(k ? &pd->opp[k - 1] : NULL, &pd->opp[k], &msg);
		if (field)
			return sp_err(err, -EINVAL, pd->src_line, field, msg);
	}
	if (!pd->nr_idle)
		return sp_err(err, -EINVAL, pd->src_line, "idle", "pd has no idle state");
	if (pd->nr_idle > SP_MAX_IDLE)
		return sp_err(err, -E2BIG, pd->src_line, "idle",
			      "too many idle states in pd");
	for (k = 0; k < pd->nr_idle; k++) {
		const struct sp_idle_state *st = &pd->idle[k];
		struct sp_str name = { st->name, 0 };

		while (name.len < SP_NAME_LEN && st->name[name.len])
			name.len++;
		if (!sp_name_ok(name))
			return sp_err(err, -EINVAL, pd->src_line, "name",
				      "name must be 1..15 of [A-Za-z0-9_.-]");
		for (j = 0; j < k; j++)
			if (!memcmp(pd->idle[j].name, st->name, SP_NAME_LEN))
				return sp_err(err, -EINVAL, pd->src_line, "name",
					      "duplicate idle state name in pd");
		field = sp_check_idle(k ? &pd->idle[k - 1] : NULL, st, &msg);
		if (field)
			return sp_err(err, -EINVAL, pd->src_line, field, msg);
	}
	return 0;
}

static int sp_validate_group(const struct sp_model *m, u32 l, u32 i,
			     struct sp_parse_error *err)
{
	const struct sp_level *lv = &m->level[l];
	const struct sp_group *g = &m->group[i];
	u32 j, c;

	if (g->level != l)
		return sp_err(err, -EINVAL, g->src_line, "level", "group out of level order");
	if (g->id > SP_ID_MAX)
		return sp_err(err, -EINVAL, g->src_line, "id", "value out of range");
	for (j = lv->first_group; j < i; j++)
		if (m->group[j].id == g->id)
			return sp_err(err, -EINVAL, g->src_line, "id",
				      "duplicate group id in level");
	if (g->idle_uw > g->active_uw)
		return sp_err(err, -EINVAL, g->src_line, "idle_uw",
			      "idle_uw must be <= active_uw");
	if (!g->nr_cpus || g->cpu_off + g->nr_cpus > SP_MAX_LEVELS * SP_MAX_CPUS)
		return sp_err(err, -EINVAL, g->src_line, "cpus", "group CPU range invalid");
	for (j = 0; j < g->nr_cpus; j++) {
		c = m->group_cpus[g->cpu_off + j];
		if (c >= m->nr_cpus || m->cpu_group[l][c] != i)
			return sp_err_cpu(err, -EINVAL, g->src_line, "cpus",
					  "group CPU list inconsistent", c);
		if (j && c <= m->group_cpus[g->cpu_off + j - 1])
			return sp_err_cpu(err, -EINVAL, g->src_line, "cpus",
					  "CPU list must be increasing", c);
		if (l + 1 < m->nr_levels && m->cpu_group[l + 1][c] != g->parent)
			return sp_err_cpu(err, -EINVAL, g->src_line, "cpus",
					  "group not inside one group of the next level", c);
	}
	if (l + 1 == m->nr_levels && g->parent != SP_NONE)
		return sp_err(err, -EINVAL, g->src_line, "level", "top group has a parent");
	if (!l && (g->first_child != SP_NONE || g->nr_children))
		return sp_err(err, -EINVAL, g->src_line, "level", "bottom group has children");
	if (l) {
		const struct sp_level *down = &m->level[l - 1];

		if (!g->nr_children || g->first_child < down->first_group ||
		    g->first_child + g->nr_children > down->first_group + down->nr_groups)
			return sp_err(err, -EINVAL, g->src_line, "cpus",
				      "group children inconsistent");
		for (j = g->first_child; j < (u32)g->first_child + g->nr_children; j++)
			if (m->group[j].parent != i)
				return sp_err(err, -EINVAL, g->src_line, "cpus",
					      "group children inconsistent");
	}
	return 0;
}

static int sp_validate_level(const struct sp_model *m, u32 l, u32 first,
			     struct sp_parse_error *err)
{
	const struct sp_level *lv = &m->level[l];
	struct sp_str name = { lv->name, 0 };
	u32 i, nr_cpus = 0, nr_children = 0;
	int ret;

	while (name.len < SP_NAME_LEN && lv->name[name.len])
		name.len++;
	if (!sp_name_ok(name))
		return sp_err(err, -EINVAL, lv->src_line, "name",
			      "name must be 1..15 of [A-Za-z0-9_.-]");
	for (i = 0; i < l; i++)
		if (!memcmp(m->level[i].name, lv->name, SP_NAME_LEN))
			return sp_err(err, -EINVAL, lv->src_line, "name",
				      "duplicate level name");
	if (lv->first_group != first || !lv->nr_groups ||
	    first + lv->nr_groups > m->nr_groups)
		return sp_err(err, -EINVAL, lv->src_line, "group", "level has no groups");
	for (i = first; i < first + lv->nr_groups; i++) {
		ret = sp_validate_group(m, l, i, err);
		if (ret)
			return ret;
		nr_cpus += m->group[i].nr_cpus;
		nr_children += m->group[i].nr_children;
	}
	if (nr_cpus != m->nr_cpus)
		return sp_err(err, -EINVAL, lv->src_line, "cpus",
			      "level does not partition the CPUs");
	if (l && nr_children != m->level[l - 1].nr_groups)
		return sp_err(err, -EINVAL, lv->src_line, "group",
			      "group children inconsistent");
	return 0;
}

int sp_model_validate(const struct sp_model *m, struct sp_parse_error *err)
{
	u32 i, l, first = 0, nr_pd_cpus = 0;
	int ret;

	ret = sp_link_check_counts(m, err);
	if (ret)
		return ret;
	for (i = 0; i < m->nr_cpus; i++)
		if (m->cpu_pd[i] >= m->nr_pds)
			return sp_err_cpu(err, -EINVAL, m->src_line, "pd", "CPU in no pd", i);
	for (i = 0; i < m->nr_pds; i++) {
		ret = sp_validate_pd(m, i, err);
		if (ret)
			return ret;
		nr_pd_cpus += m->pd[i].nr_cpus;
	}
	if (nr_pd_cpus != m->nr_cpus)
		return sp_err(err, -EINVAL, m->src_line, "pd",
			      "pds do not partition the CPUs");
	for (l = 0; l < m->nr_levels; l++) {
		ret = sp_validate_level(m, l, first, err);
		if (ret)
			return ret;
		first += m->level[l].nr_groups;
	}
	if (first != m->nr_groups)
		return sp_err(err, -EINVAL, m->src_line, "group", "group out of level order");
	return 0;
}

/* ---- the formatter ---------------------------------------------------- */

struct sp_out {
	char *buf;
	size_t size;
	size_t len;
};

static void sp_out_mem(struct sp_out *o, const char *s, size_t n)
{
	if (o->len < o->size) {
		size_t room = o->size - o->len;

		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

static void sp_out_str(struct sp_out *o, const char *s)
{
	sp_out_mem(o, s, strlen(s));
}

static void sp_out_u32(struct sp_out *o, u32 v)
{
	char tmp[10];
	int n = 0;

	do {
		tmp[sizeof(tmp) - 1 - n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	sp_out_mem(o, tmp + sizeof(tmp) - n, (size_t)n);
}

static void sp_out_kv(struct sp_out *o, const char *key, u32 v)
{
	sp_out_str(o, " ");
	sp_out_str(o, key);
	sp_out_str(o, "=");
	sp_out_u32(o, v);
}

static void sp_out_kname(struct sp_out *o, const char *key, const char *name)
{
	size_t n = 0;

	while (n < SP_NAME_LEN && name[n])
		n++;
	sp_out_str(o, " ");
	sp_out_str(o, key);
	sp_out_str(o, "=");
	sp_out_mem(o, name, n);
}

/* " cpus=a-b,c": runs of two or more consecutive CPUs print as ranges. */
static void sp_out_cpus(struct sp_out *o, const u16 *cpu, u32 n)
{
	u32 i = 0, j;

	sp_out_str(o, " cpus=");
	while (i < n) {
		for (j = i; j + 1 < n && cpu[j + 1] == cpu[j] + 1u; j++)
			;
		if (i)
			sp_out_str(o, ",");
		sp_out_u32(o, cpu[i]);
		if (j > i) {
			sp_out_str(o, "-");
			sp_out_u32(o, cpu[j]);
		}
		i = j + 1;
	}
}

size_t sp_model_format(const struct sp_model *m, char *buf, size_t size)
{
	struct sp_out o = { .buf = buf, .size = size };
	u32 i, k;

	sp_out_str(&o, "sched_power_model");
	sp_out_kv(&o, "version", 1);
	sp_out_kv(&o, "cpus", m->nr_cpus);
	sp_out_str(&o, "\n");
	for (i = 0; i < m->nr_levels && i < SP_MAX_LEVELS; i++) {
		sp_out_str(&o, "level");
		sp_out_kname(&o, "name", m->level[i].name);
		sp_out_str(&o, "\n");
	}
	for (i = 0; i < m->nr_pds && i < SP_MAX_PDS; i++) {
		const struct sp_pd *pd = &m->pd[i];

		sp_out_str(&o, "pd");
		sp_out_kv(&o, "id", pd->id);
		if (pd->cpu_off + pd->nr_cpus <= SP_MAX_CPUS)
			sp_out_cpus(&o, m->pd_cpus + pd->cpu_off, pd->nr_cpus);
		sp_out_str(&o, "\n");
		for (k = 0; k < pd->nr_opps && k < SP_MAX_OPPS; k++) {
			sp_out_str(&o, "opp");
			sp_out_kv(&o, "pd", pd->id);
			sp_out_kv(&o, "khz", pd->opp[k].freq_khz);
			sp_out_kv(&o, "cap", pd->opp[k].cap);
			sp_out_kv(&o, "uw", pd->opp[k].power_uw);
			sp_out_str(&o, "\n");
		}
		for (k = 0; k < pd->nr_idle && k < SP_MAX_IDLE; k++) {
			const struct sp_idle_state *st = &pd->idle[k];

			sp_out_str(&o, "idle");
			sp_out_kv(&o, "pd", pd->id);
			sp_out_kname(&o, "name", st->name);
			sp_out_kv(&o, "uw", st->power_uw);
			sp_out_kv(&o, "exit_us", st->exit_latency_us);
			sp_out_kv(&o, "target_us", st->target_residency_us);
			sp_out_kv(&o, "wake_uj", st->wakeup_uj);
			sp_out_str(&o, "\n");
		}
	}
	for (i = 0; i < m->nr_groups && i < SP_MAX_GROUPS; i++) {
		const struct sp_group *g = &m->group[i];

		sp_out_str(&o, "group");
		sp_out_kname(&o, "level",
			     m->level[g->level < SP_MAX_LEVELS ? g->level : 0].name);
		sp_out_kv(&o, "id", g->id);
		if (g->cpu_off + g->nr_cpus <= SP_MAX_LEVELS * SP_MAX_CPUS)
			sp_out_cpus(&o, m->group_cpus + g->cpu_off, g->nr_cpus);
		sp_out_kv(&o, "active_uw", g->active_uw);
		sp_out_kv(&o, "idle_uw", g->idle_uw);
		sp_out_kv(&o, "wake_uj", g->wakeup_uj);
		sp_out_kv(&o, "exit_us", g->exit_latency_us);
		sp_out_str(&o, "\n");
	}
	sp_out_str(&o, "end\n");
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len;
}

/* ---- the synthetic model ---------------------------------------------- */

/*
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
static const struct sp_opp sp_syn_opp[] = {
	{ .freq_khz =  800000, .cap =  256, .power_uw =  270000 },
	{ .freq_khz = 1600000, .cap =  512, .power_uw =  800000 },
	{ .freq_khz = 2400000, .cap =  768, .power_uw = 1670000 },
	{ .freq_khz = 3200000, .cap = 1024, .power_uw = 3200000 },
};

static const struct sp_idle_state sp_syn_idle[] = {
	{ .name = "C1", .power_uw = 150000, .exit_latency_us = 2,
	  .target_residency_us = 2, .wakeup_uj = 0 },
	{ .name = "C1E", .power_uw = 100000, .exit_latency_us = 10,
	  .target_residency_us = 20, .wakeup_uj = 2 },
	{ .name = "C3", .power_uw = 40000, .exit_latency_us = 80,
	  .target_residency_us = 211, .wakeup_uj = 15 },
	{ .name = "C6", .power_uw = 5000, .exit_latency_us = 104,
	  .target_residency_us = 345, .wakeup_uj = 40 },
};

static const struct sp_group sp_syn_core = {
	.active_uw = 100000, .idle_uw = 5000, .wakeup_uj = 10, .exit_latency_us = 10,
};

static const struct sp_group sp_syn_pkg = {
	.active_uw = 2000000, .idle_uw = 100000, .wakeup_uj = 600,
	.exit_latency_us = 0,
};

/* Append the CPUs whose @of[] equals @of[@first] (from @first on) as a group. */
static int sp_syn_group(struct sp_model *m, u32 l, const struct sp_group *tmpl,
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
		sp_name_set(m->level[0].name, (struct sp_str){ "core", 4 });
		/* a core is the CPUs sharing both package and core id */
		for (c = 0; c < nr_cpus; c++) {
			if (m->cpu_group[0][c] != SP_NONE)
				continue;
			if (m->nr_groups >= SP_MAX_GROUPS)
				return -E2BIG;
			for (c2 = c; c2 < nr_cpus; c2++)
				if (pkg_of[c2] == pkg_of[c] && core_of[c2] == core_of[c])
					m->cpu_group[0][c2] = m->nr_groups;
			m->group[m->nr_groups] = sp_syn_core;
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
	sp_name_set(m->level[pkg_level].name, (struct sp_str){ "package", 7 });
	m->nr_levels = (u16)(pkg_level + 1);
	for (c = 0; c < nr_cpus; c++) {
		struct sp_pd *pd;

		if (m->cpu_group[pkg_level][c] != SP_NONE)
			continue;
		ret = sp_syn_group(m, pkg_level, &sp_syn_pkg, pkg_of[c], pkg_of, c,
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
		pd->nr_opps = SP_ARRAY_SIZE(sp_syn_opp);
		memcpy(pd->opp, sp_syn_opp, sizeof(sp_syn_opp));
		pd->nr_idle = SP_ARRAY_SIZE(sp_syn_idle);
		memcpy(pd->idle, sp_syn_idle, sizeof(sp_syn_idle));
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

	if (!l || !sp_name_ok(n))
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
	sp_name_set(m->level[l].name, n);
	m->nr_levels++;
	for (c = 0; c < SP_MAX_CPUS; c++)
		m->cpu_group[l][c] = SP_NONE;
	for (c = 0; c < m->nr_cpus; c++) {
		if (m->cpu_group[l][c] != SP_NONE)
			continue;
		ret = sp_syn_group(m, l, tmpl, of[c], of, c, &nr_gcpus);
		if (ret)
			return ret;
	}
	ret = sp_model_link(m, &err);
	return ret ? ret : sp_model_validate(m, &err);
}

/* ---- streamed text ---------------------------------------------------- */

/* Is [@s, @s + @n) a kind name, or (@partial) the start of one? */
static bool sp_kind_word_ok(const char *s, u32 n, bool partial, bool *header)
{
	u32 k;

	for (k = 0; k < SP_K_NR; k++) {
		size_t kl = strlen(sp_kinds[k].name);

		if (n > kl || memcmp(s, sp_kinds[k].name, n))
			continue;
		if (n < kl && !partial)
			continue;
		*header = k == SP_K_HEADER;
		return true;
	}
	return false;
}

bool sp_model_text_plausible(const char *text, size_t len)
{
	bool seen = false, header;
	size_t i = 0;

	if (memchr(text, '\0', len))
		return false;
	while (i < len) {
		size_t w;

		while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r'))
			i++;
		for (w = i; w < len && text[w] > ' ' && text[w] != '#'; w++)
			;
		if (w > i) {
			if (!sp_kind_word_ok(text + i, (u32)(w - i), w == len, &header))
				return false;
			if (!seen && !header && !(w == len))
				return false;
			seen = true;
		}
		while (i < len && text[i] != '\n')
			i++;
		i++;
	}
	return true;
}
