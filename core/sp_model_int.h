/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sp_model_int.h - what the model's files share and nobody else uses: the
 * text parser (sp_model_parse.c), linking and validation
 * (sp_model_check.c), the formatter (sp_model_format.c) and the builders
 * (sp_model_build.c).
 */
#ifndef SP_MODEL_INT_H
#define SP_MODEL_INT_H

#include "sp_model.h"

#define SP_ID_MAX	(SP_NONE - 1u)
#define SP_U32_MAX	0xffffffffu
#define SP_MAX_KEYS	7

/* The kinds of line, in the order of the parser's table. */
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

/**
 * sp_model_kind_name() - the word that opens a line of some kind
 * @k: the kind
 *
 * Return: "sched_power_model", "level", ... as the text spells it.
 */
const char *sp_model_kind_name(enum sp_kind_id k);

struct sp_str {
	const char *s;
	u32 len;
};

static inline bool sp_model_str_eq(struct sp_str a, const char *lit)
{
	size_t n = strlen(lit);

	return a.len == n && !memcmp(a.s, lit, n);
}

static inline bool sp_model_name_eq(const char *name, struct sp_str a)
{
	return a.len < SP_NAME_LEN && !memcmp(name, a.s, a.len) && !name[a.len];
}

/* A name field of the model (at most SP_NAME_LEN bytes, NUL-padded) as a view. */
static inline struct sp_str sp_model_name_view(const char *name)
{
	struct sp_str v = { name, 0 };

	while (v.len < SP_NAME_LEN && name[v.len])
		v.len++;
	return v;
}

/*
 * The text's blanks: space, tab and CR (a line ends at LF).  Every other
 * byte, high-bit ones included, belongs to a token; bytes are compared as
 * unsigned char, so 0x80..0xff are never taken for blanks or digits.
 */
static inline bool sp_model_is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static inline bool sp_model_is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline bool sp_model_name_ok(struct sp_str v)
{
	u32 i;

	if (!v.len || v.len >= SP_NAME_LEN)
		return false;
	for (i = 0; i < v.len; i++) {
		unsigned char c = v.s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
			return false;
	}
	return true;
}

static inline void sp_model_name_set(char *dst, struct sp_str v)
{
	memset(dst, 0, SP_NAME_LEN);
	memcpy(dst, v.s, v.len);
}

/**
 * sp_model_err_at() - say where a model is wrong
 * @err: filled in; may be NULL
 * @ret: the error
 * @line: the line of the text, 1-based (0: the whole input)
 * @field: the key or word at fault, not NUL-terminated
 * @flen: its length; cut at SP_NAME_LEN - 1, bytes outside ' '..'~' as '?'
 * @msg: why, a static string
 * @cpu: the CPU concerned, or -1
 *
 * Return: @ret, so that a check can end with "return sp_model_err_at(...)".
 */
int sp_model_err_at(struct sp_parse_error *err, int ret, int line,
		    const char *field, size_t flen, const char *msg, int cpu);

/**
 * sp_model_err() - sp_model_err_at() of a NUL-terminated field, no CPU
 * @err: filled in; may be NULL
 * @ret: the error
 * @line: the line of the text
 * @field: the key or word at fault
 * @msg: why, a static string
 *
 * Return: @ret.
 */
int sp_model_err(struct sp_parse_error *err, int ret, u32 line,
		 const char *field, const char *msg);

/**
 * sp_model_err_cpu() - sp_model_err_at() of a NUL-terminated field and a CPU
 * @err: filled in; may be NULL
 * @ret: the error
 * @line: the line of the text
 * @field: the key or word at fault
 * @msg: why, a static string
 * @cpu: the CPU the error is about
 *
 * Return: @ret.
 */
int sp_model_err_cpu(struct sp_parse_error *err, int ret, u32 line,
		     const char *field, const char *msg, u32 cpu);

/**
 * sp_model_check_opp() - may an OPP follow another in a pd?
 * @prev: the OPP before, or NULL for the first
 * @cur: the OPP
 * @msg: set to why not
 *
 * The rule the parser and sp_model_validate() share: frequency above 0,
 * capacity 1..1024, and frequency, capacity and power strictly above
 * @prev's.
 *
 * Return: the offending field ("khz", "cap", "uw"), or NULL if @cur may
 * follow @prev.
 */
const char *sp_model_check_opp(const struct sp_opp *prev, const struct sp_opp *cur,
			       const char **msg);

/**
 * sp_model_check_idle() - may an idle state follow another in a pd?
 * @prev: the shallower state before, or NULL for the first
 * @cur: the state
 * @msg: set to why not
 *
 * The rule the parser and sp_model_validate() share: no more power, and no
 * less exit latency or target residency, than @prev.
 *
 * Return: the offending field ("uw", "exit_us", "target_us"), or NULL if
 * @cur may follow @prev.
 */
const char *sp_model_check_idle(const struct sp_idle_state *prev,
				const struct sp_idle_state *cur, const char **msg);

#endif /* SP_MODEL_INT_H */
