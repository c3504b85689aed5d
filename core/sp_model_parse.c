// SPDX-License-Identifier: GPL-2.0
/*
 * sp_model_parse.c - the model text format and its parser.
 */

/**
 * DOC: model text format
 *
 * One object per line, "kind key=value ...".  Every key of a kind must be
 * given exactly once, in any order, except the optional ones (in brackets
 * below), which may be left out and then read as 0; a token starting with '#' begins a
 * comment that runs to the end of the line, and blank lines are ignored.
 * Numbers are plain decimal u32 (no sign, no prefix, at most 4294967295).
 * Blanks are space, tab and CR, and a line ends at LF; every other byte,
 * high-bit ones included, belongs to a token (bytes are compared as
 * unsigned char), so a non-ASCII byte outside a comment (a no-break space
 * between tokens, an accented letter in a name) makes its line wrong.  A
 * comment may hold any byte but NUL (UTF-8 is fine there); a NUL byte
 * anywhere is an error.  After the end line only blank lines and comments may
 * follow.  The kinds of line::
 *
 *	sched_power_model version=1 cpus=N		(first line)
 *	level name=NAME					(smallest level first)
 *	pd id=ID cpus=LIST
 *	opp pd=ID khz=F cap=C uw=P			(slowest first)
 *	idle pd=ID name=NAME uw=P exit_us=L target_us=R wake_uj=E [poll=1]
 *							(shallowest first)
 *	group level=NAME id=ID cpus=LIST active_uw=A idle_uw=I wake_uj=E exit_us=L
 *	end						(optional, last)
 *
 * A pd must be declared before its opp and idle lines, a level before its
 * groups.  The formatter prints the canonical form: header, levels, each pd
 * followed by its OPPs and idle states, the groups level by level (smallest
 * level first; inside a level in the order written, except that groups are
 * gathered under their parents in the parents' order so that the children of
 * a group are contiguous), and "end".  The checks, in the order a line is
 * read:
 *
 *  - syntax: known kind, key=value tokens, known and non-repeated keys, no
 *    missing key, decimal numbers within the key's range, names of 1..15
 *    letters, digits, '_', '.' or '-', CPU lists "a-b,c" strictly
 *    increasing with every CPU below cpus=;
 *  - per line: pd ids unique, a CPU in at most one pd and in at most one
 *    group per level, OPPs strictly increasing in khz, cap and uw, idle
 *    states no more power and no less exit latency/target residency than the
 *    one before, polling states (poll=1: the CPU runs, its groups stay
 *    awake) before every sleeping one, idle_uw <= active_uw, level names and idle-state names
 *    unique, group ids unique within their level;
 *  - whole model (sp_model_link(), sp_model_validate()): every CPU in one
 *    pd and in one group of every level, every group inside one group of
 *    the next level, every pd with at least one OPP and one idle state.
 *
 * Table overflows (CPUs, pds, OPPs, idle states, levels, groups) and input
 * longer than SP_MODEL_TEXT_MAX are -E2BIG, everything else -EINVAL.
 */
#include "sp_model_int.h"

/* ---- value syntax ---------------------------------------------------- */

/* 0, or -EINVAL with *msg set. */
static int sp_model_parse_u32(struct sp_str v, u32 *out, const char **msg)
{
	u64 x = 0;
	u32 i;

	if (!v.len) {
		*msg = "empty value";
		return -EINVAL;
	}
	for (i = 0; i < v.len; i++) {
		unsigned char c = v.s[i];

		if (!sp_model_is_digit(c)) {
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

/*
 * CPU list iterator: "a-b,c,...", strictly increasing, every CPU below
 * @nr_cpus.  sp_model_cpulist_next() returns 1 and a CPU, 0 at the end, or
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

static void sp_model_cpulist_init(struct sp_cpulist *cl, struct sp_str v)
{
	memset(cl, 0, sizeof(*cl));
	cl->v = v;
	cl->need_item = true;
}

static int sp_model_cpulist_num(struct sp_cpulist *cl, u32 *out, const char **msg)
{
	u32 start = cl->pos;
	u64 x = 0;

	while (cl->pos < cl->v.len && sp_model_is_digit(cl->v.s[cl->pos])) {
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

static int sp_model_cpulist_next(struct sp_cpulist *cl, u32 nr_cpus, u32 *cpu,
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
		if (sp_model_cpulist_num(cl, &a, msg))
			return -EINVAL;
		b = a;
		if (cl->pos < cl->v.len && cl->v.s[cl->pos] == '-') {
			cl->pos++;
			if (sp_model_cpulist_num(cl, &b, msg))
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

/* ---- the parser ------------------------------------------------------- */

enum { SP_T_U32, SP_T_NAME, SP_T_CPUS };

/* @optional: may be left out, and then reads as @min */
struct sp_key {
	const char *name;
	u8 type;
	u8 optional;
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
#define SP_KO(n, lo, hi)	{ .name = n, .type = SP_T_U32, .optional = 1, .min = lo, .max = hi }

/* The keys of each line kind, in the order the formatter prints them. */
static const struct sp_kind sp_kinds[SP_K_NR] = {
	[SP_K_HEADER] = { "sched_power_model", 2, {
		SP_KU("version", 1, 1), SP_KU("cpus", 1, SP_U32_MAX) } },
	[SP_K_LEVEL] = { "level", 1, { SP_KN("name") } },
	[SP_K_PD] = { "pd", 2, { SP_KU("id", 0, SP_ID_MAX), SP_KC("cpus") } },
	[SP_K_OPP] = { "opp", 4, {
		SP_KU("pd", 0, SP_ID_MAX), SP_KU("khz", 1, SP_U32_MAX),
		SP_KU("cap", 1, SP_CAP_SCALE), SP_KU("uw", 0, SP_U32_MAX) } },
	[SP_K_IDLE] = { "idle", 7, {
		SP_KU("pd", 0, SP_ID_MAX), SP_KN("name"),
		SP_KU("uw", 0, SP_U32_MAX), SP_KU("exit_us", 0, SP_EXIT_US_MAX),
		SP_KU("target_us", 0, SP_U32_MAX),
		SP_KU("wake_uj", 0, SP_U32_MAX), SP_KO("poll", 0, 1) } },
	[SP_K_GROUP] = { "group", 7, {
		SP_KN("level"), SP_KU("id", 0, SP_ID_MAX), SP_KC("cpus"),
		SP_KU("active_uw", 0, SP_U32_MAX),
		SP_KU("idle_uw", 0, SP_U32_MAX),
		SP_KU("wake_uj", 0, SP_U32_MAX),
		SP_KU("exit_us", 0, SP_EXIT_US_MAX) } },
	[SP_K_END] = { "end", 0, { } },
};

const char *sp_model_kind_name(enum sp_kind_id k)
{
	return sp_kinds[k].name;
}

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

static int sp_model_perr(struct sp_parser *p, int ret, const char *field,
			 const char *msg)
{
	sp_model_err(p->err, ret, p->line, field, msg);
	return ret;	/* visibly @ret: callers rely on it being non-zero */
}

static int sp_model_find_pd(struct sp_parser *p, u32 id)
{
	u32 i;

	for (i = 0; i < p->m->nr_pds; i++)
		if (p->m->pd[i].id == id)
			return (int)i;
	return -1;
}

static int sp_model_do_header(struct sp_parser *p, const struct sp_line *l)
{
	struct sp_model *m = p->m;

	if (l->num[1] > SP_MAX_CPUS)
		return sp_model_perr(p, -E2BIG, "cpus", "too many CPUs");
	m->nr_cpus = l->num[1];
	m->src_line = p->line;
	return 0;
}

static int sp_model_do_level(struct sp_parser *p, const struct sp_line *l)
{
	struct sp_model *m = p->m;
	struct sp_level *lv;
	u32 i;

	if (m->nr_levels >= SP_MAX_LEVELS)
		return sp_model_perr(p, -E2BIG, "level", "too many levels");
	for (i = 0; i < m->nr_levels; i++)
		if (sp_model_name_eq(m->level[i].name, l->val[0]))
			return sp_model_perr(p, -EINVAL, "name", "duplicate level name");
	lv = &m->level[m->nr_levels++];
	sp_model_name_set(lv->name, l->val[0]);
	lv->src_line = p->line;
	return 0;
}

static int sp_model_do_pd(struct sp_parser *p, const struct sp_line *l)
{
	struct sp_model *m = p->m;
	struct sp_cpulist cl;
	struct sp_pd *pd;
	const char *msg;
	u32 cpu;
	int ret;

	if (m->nr_pds >= SP_MAX_PDS)
		return sp_model_perr(p, -E2BIG, "pd", "too many pds");
	if (sp_model_find_pd(p, l->num[0]) >= 0)
		return sp_model_perr(p, -EINVAL, "id", "duplicate pd id");
	pd = &m->pd[m->nr_pds];
	pd->id = (u16)l->num[0];
	pd->cpu_off = (u16)p->nr_pd_cpus;
	pd->src_line = p->line;
	sp_model_cpulist_init(&cl, l->val[1]);
	while ((ret = sp_model_cpulist_next(&cl, m->nr_cpus, &cpu, &msg)) > 0) {
		if (m->cpu_pd[cpu] != SP_NONE)
			return sp_model_err_cpu(p->err, -EINVAL, p->line, "cpus",
					  "CPU already in another pd", cpu);
		m->cpu_pd[cpu] = m->nr_pds;
		m->pd_cpus[p->nr_pd_cpus++] = (u16)cpu;
		pd->nr_cpus++;
	}
	if (ret < 0)
		return sp_model_perr(p, ret, "cpus", msg);
	m->nr_pds++;
	return 0;
}

static int sp_model_line_pd(struct sp_parser *p, u32 id, struct sp_pd **pd)
{
	int i = sp_model_find_pd(p, id);

	if (i < 0)
		return sp_model_perr(p, -EINVAL, "pd", "unknown pd (declare it first)");
	*pd = &p->m->pd[i];
	return 0;
}

static int sp_model_do_opp(struct sp_parser *p, const struct sp_line *l)
{
	struct sp_opp opp = {
		.freq_khz = l->num[1], .cap = l->num[2], .power_uw = l->num[3],
	};
	const char *field, *msg;
	struct sp_pd *pd;

	if (sp_model_line_pd(p, l->num[0], &pd))
		return -EINVAL;
	if (pd->nr_opps >= SP_MAX_OPPS)
		return sp_model_perr(p, -E2BIG, "opp", "too many OPPs in pd");
	field = sp_model_check_opp(pd->nr_opps ? &pd->opp[pd->nr_opps - 1] : NULL,
				   &opp, &msg);
	if (field)
		return sp_model_perr(p, -EINVAL, field, msg);
	pd->opp[pd->nr_opps++] = opp;
	return 0;
}

static int sp_model_do_idle(struct sp_parser *p, const struct sp_line *l)
{
	struct sp_idle_state st;
	const char *field, *msg;
	struct sp_pd *pd;
	u32 i;

	if (sp_model_line_pd(p, l->num[0], &pd))
		return -EINVAL;
	if (pd->nr_idle >= SP_MAX_IDLE)
		return sp_model_perr(p, -E2BIG, "idle", "too many idle states in pd");
	for (i = 0; i < pd->nr_idle; i++)
		if (sp_model_name_eq(pd->idle[i].name, l->val[1]))
			return sp_model_perr(p, -EINVAL, "name",
				       "duplicate idle state name in pd");
	memset(&st, 0, sizeof(st));
	sp_model_name_set(st.name, l->val[1]);
	st.power_uw = l->num[2];
	st.exit_latency_us = l->num[3];
	st.target_residency_us = l->num[4];
	st.wakeup_uj = l->num[5];
	if (l->num[6] && pd->nr_poll != pd->nr_idle)
		return sp_model_perr(p, -EINVAL, "poll",
			       "a polling idle state must come before every sleeping one");
	field = sp_model_check_idle(pd->nr_idle ? &pd->idle[pd->nr_idle - 1] : NULL,
				    &st, &msg);
	if (field)
		return sp_model_perr(p, -EINVAL, field, msg);
	pd->nr_poll += (u8)l->num[6];
	pd->idle[pd->nr_idle++] = st;
	return 0;
}

static int sp_model_do_group(struct sp_parser *p, const struct sp_line *l)
{
	struct sp_model *m = p->m;
	struct sp_cpulist cl;
	struct sp_group *g;
	const char *msg;
	u32 i, lv, cpu;
	int ret;

	for (lv = 0; lv < m->nr_levels; lv++)
		if (sp_model_name_eq(m->level[lv].name, l->val[0]))
			break;
	if (lv == m->nr_levels)
		return sp_model_perr(p, -EINVAL, "level", "unknown level (declare it first)");
	if (m->nr_groups >= SP_MAX_GROUPS)
		return sp_model_perr(p, -E2BIG, "group", "too many groups");
	for (i = 0; i < m->nr_groups; i++)
		if (m->group[i].level == lv && m->group[i].id == l->num[1])
			return sp_model_perr(p, -EINVAL, "id", "duplicate group id in level");
	if (l->num[4] > l->num[3])
		return sp_model_perr(p, -EINVAL, "idle_uw", "idle_uw must be <= active_uw");
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
	sp_model_cpulist_init(&cl, l->val[2]);
	while ((ret = sp_model_cpulist_next(&cl, m->nr_cpus, &cpu, &msg)) > 0) {
		if (m->cpu_group[lv][cpu] != SP_NONE)
			return sp_model_err_cpu(p->err, -EINVAL, p->line, "cpus",
					  "CPU already in another group of this level",
					  cpu);
		m->cpu_group[lv][cpu] = m->nr_groups;
		/* per level every CPU at most once: cannot overflow */
		m->group_cpus[p->nr_group_cpus++] = (u16)cpu;
		g->nr_cpus++;
	}
	if (ret < 0)
		return sp_model_perr(p, ret, "cpus", msg);
	m->nr_groups++;
	return 0;
}

/* Split one line into its kind and key=value tokens and check the syntax. */
static int sp_model_read_line(struct sp_parser *p, const char *s, u32 len,
			      struct sp_line *l, bool *blank)
{
	const struct sp_kind *k = NULL;
	u32 pos = 0, seen = 0, i;
	struct sp_str tok;

	*blank = true;
	memset(l, 0, sizeof(*l));
	if (memchr(s, '\0', len))
		return sp_model_perr(p, -EINVAL, "input", "NUL byte");
	for (;;) {
		while (pos < len && sp_model_is_blank(s[pos]))
			pos++;
		if (pos == len || s[pos] == '#')
			break;
		tok.s = s + pos;
		while (pos < len && !sp_model_is_blank(s[pos]))
			pos++;
		tok.len = (u32)(s + pos - tok.s);
		if (!k) {
			*blank = false;
			for (i = 0; i < SP_K_NR; i++)
				if (sp_model_str_eq(tok, sp_kinds[i].name))
					k = &sp_kinds[i];
			if (!k)
				return sp_model_err_at(p->err, -EINVAL, (int)p->line, tok.s,
						 tok.len, "unknown line kind", -1);
			l->kind = k;
			continue;
		}
		{
			const char *eq = memchr(tok.s, '=', tok.len);
			struct sp_str key;

			if (!eq)
				return sp_model_err_at(p->err, -EINVAL, (int)p->line, tok.s,
						 tok.len, "expected key=value", -1);
			key.s = tok.s;
			key.len = (u32)(eq - tok.s);
			for (i = 0; i < k->nr_keys; i++)
				if (sp_model_str_eq(key, k->keys[i].name))
					break;
			if (i == k->nr_keys)
				return sp_model_err_at(p->err, -EINVAL, (int)p->line, key.s,
						 key.len, "unknown key", -1);
			if (seen & (1u << i))
				return sp_model_perr(p, -EINVAL, k->keys[i].name,
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

		if (!(seen & (1u << i)) && key->optional) {
			l->num[i] = key->min;
			continue;
		}
		if (!(seen & (1u << i)))
			return sp_model_perr(p, -EINVAL, key->name, "missing key");
		switch (key->type) {
		case SP_T_U32:
			if (sp_model_parse_u32(l->val[i], &l->num[i], &msg))
				return sp_model_perr(p, -EINVAL, key->name, msg);
			if (l->num[i] < key->min || l->num[i] > key->max)
				return sp_model_perr(p, -EINVAL, key->name,
					       "value out of range");
			break;
		case SP_T_NAME:
			if (!sp_model_name_ok(l->val[i]))
				return sp_model_perr(p, -EINVAL, key->name,
					       "name must be 1..15 of [A-Za-z0-9_.-]");
			break;
		default:
			break;
		}
	}
	return 0;
}

static int sp_model_do_line(struct sp_parser *p, const struct sp_line *l)
{
	enum sp_kind_id kind = (enum sp_kind_id)(l->kind - sp_kinds);

	if (p->seen_end)
		return sp_model_perr(p, -EINVAL, l->kind->name, "text after end");
	if (!p->seen_header && kind != SP_K_HEADER)
		return sp_model_perr(p, -EINVAL, l->kind->name,
			       "first line must be sched_power_model");
	switch (kind) {
	case SP_K_HEADER:
		if (p->seen_header)
			return sp_model_perr(p, -EINVAL, "header", "second header");
		p->seen_header = true;
		return sp_model_do_header(p, l);
	case SP_K_LEVEL:
		return sp_model_do_level(p, l);
	case SP_K_PD:
		return sp_model_do_pd(p, l);
	case SP_K_OPP:
		return sp_model_do_opp(p, l);
	case SP_K_IDLE:
		return sp_model_do_idle(p, l);
	case SP_K_GROUP:
		return sp_model_do_group(p, l);
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
		sp_model_err(err, 0, 0, "", "");
	memset(out, 0, sizeof(*out));
	memset(out->cpu_pd, 0xff, sizeof(out->cpu_pd));
	memset(out->cpu_group, 0xff, sizeof(out->cpu_group));
	if (len > SP_MODEL_TEXT_MAX)
		return sp_model_err(err, -E2BIG, 0, "input", "model text too long");
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;

		p.line++;
		ret = sp_model_read_line(&p, text + pos, (u32)(end - pos), &l, &blank);
		if (!ret && !blank)
			ret = sp_model_do_line(&p, &l);
		if (ret)
			return ret;
		pos = end + 1;
	}
	if (!p.seen_header)
		return sp_model_err(err, -EINVAL, p.line ? p.line : 1, "header",
			      "no sched_power_model header");
	ret = sp_model_link(out, err);
	if (!ret)
		ret = sp_model_validate(out, err);
	return ret;
}
