// SPDX-License-Identifier: GPL-2.0
/*
 * story.c - workload stories in rt-app's JSON format, read with json-c.
 *
 * DOC: the story format
 *
 * A story is one JSON object:
 *
 *	{ "global": { "description": "..." },
 *	  "tasks": { "NAME": { "instance": N, "loop": L, EVENTS... }, ... } }
 *
 * A task either lists its events directly or groups them in "phases"
 * ({ "PHASE": { "loop": L, EVENTS... }, ... }, played in file order).  An
 * event key is one of run, runtime, sleep, timer, optionally followed by
 * digits so that one object can hold several of a kind (run0, sleep1), as
 * rt-app allows:
 *
 *	run      N	work of N us at capacity 1024 (N * 1024 / cap us at a
 *			lower OPP)
 *	runtime  N	busy for N us of wall-clock time, whatever the OPP
 *	sleep    N	block for N us
 *	timer    { "ref": "T", "period": P }
 *			block until the next expiry of the task's timer T:
 *			the first time the instance reaches it, T expires P
 *			us later and from then on every P us (an absolute
 *			cadence); if that expiry is already past, go on
 *
 * "instance" (default 1) copies the task; "loop" (default 1) repeats its
 * events or its phase list.  Unlike rt-app a loop must be finite: the
 * simulator measures the time and energy of a defined amount of work.
 * Keys rt-app uses for things the simulator has no use for (priority,
 * policy, cpus in tasks; duration, calibration, default_policy, logdir,
 * log_basename, lock_pages, ftrace, gnuplot, pi_enabled in global) are
 * accepted and ignored; any other key is an error.  Every error names the
 * file and the place: "file: tasks.NAME.phases.P.sleep1: must be >= 0".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "sim.h"

struct story_ctx {
	const char *where;	/* file name for messages */
	struct sim_story *s;
	char *err;
	size_t len;
	u32 cap_phases, cap_evs;
	char timer_name[SIM_MAX_TIMERS][SIM_NAME_LEN];
};

static int story_err(struct story_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int story_err(struct story_ctx *c, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	n = (size_t)snprintf(c->err, c->len, "%s: ", c->where);
	if (n < c->len) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->len - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* A key path "tasks.NAME.KEY" for messages; truncation is harmless. */
static void path_fmt(char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void path_fmt(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, n, fmt, ap);
	va_end(ap);
}

static bool key_in(const char *key, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(key, *list))
			return true;
	return false;
}

/* Does @key name event @kind, possibly with a numeric suffix? */
static bool ev_key(const char *key, const char *kind)
{
	size_t n = strlen(kind);

	if (strncmp(key, kind, n))
		return false;
	for (key += n; *key; key++)
		if (*key < '0' || *key > '9')
			return false;
	return true;
}

static int get_u64(struct story_ctx *c, const char *path, json_object *v,
		   u64 max, u64 *out)
{
	int64_t x;

	if (!json_object_is_type(v, json_type_int))
		return story_err(c, "%s: must be an integer", path);
	x = json_object_get_int64(v);
	if (x < 0)
		return story_err(c, "%s: must be >= 0 (is %lld)", path, (long long)x);
	if ((u64)x > max)
		return story_err(c, "%s: must be <= %llu", path, (unsigned long long)max);
	*out = (u64)x;
	return 0;
}

static int push_ev(struct story_ctx *c, u32 kind, u32 timer, u64 us)
{
	struct sim_story *s = c->s;

	if (s->nr_evs == c->cap_evs) {
		u32 cap = c->cap_evs ? 2 * c->cap_evs : 16;
		struct sim_ev *e = realloc(s->evs, cap * sizeof(*e));

		if (!e)
			return story_err(c, "out of memory");
		s->evs = e;
		c->cap_evs = cap;
	}
	s->evs[s->nr_evs++] = (struct sim_ev){ .kind = kind, .timer = timer, .us = us };
	return 0;
}

static int timer_index(struct story_ctx *c, struct sim_task_def *d,
		       const char *path, const char *ref)
{
	u32 i;

	for (i = 0; i < d->nr_timers; i++)
		if (!strcmp(c->timer_name[i], ref))
			return (int)i;
	if (d->nr_timers == SIM_MAX_TIMERS)
		return story_err(c, "%s.ref: more than %d timers", path, SIM_MAX_TIMERS);
	if (!*ref || strlen(ref) >= SIM_NAME_LEN)
		return story_err(c, "%s.ref: empty or longer than %d", path,
				 SIM_NAME_LEN - 1);
	strcpy(c->timer_name[d->nr_timers], ref);
	return (int)d->nr_timers++;
}

static int parse_timer(struct story_ctx *c, struct sim_task_def *d,
		       const char *path, json_object *v)
{
	static const char *const keys[] = { "ref", "period", "mode", NULL };
	json_object *ref = NULL, *per = NULL;
	char p[256];
	u64 period;
	int t;

	if (!json_object_is_type(v, json_type_object))
		return story_err(c, "%s: must be an object {\"ref\", \"period\"}", path);
	json_object_object_foreach(v, key, val) {
		if (!key_in(key, keys))
			return story_err(c, "%s: unknown key \"%s\"", path, key);
		if (!strcmp(key, "ref"))
			ref = val;
		else if (!strcmp(key, "period"))
			per = val;
	}
	if (!ref || !json_object_is_type(ref, json_type_string))
		return story_err(c, "%s.ref: missing or not a string", path);
	if (!per)
		return story_err(c, "%s.period: missing", path);
	path_fmt(p, sizeof(p), "%s.period", path);
	if (get_u64(c, p, per, 100000000, &period))
		return -1;
	if (!period)
		return story_err(c, "%s: must be > 0", p);
	t = timer_index(c, d, path, json_object_get_string(ref));
	if (t < 0)
		return -1;
	return push_ev(c, SIM_EV_TIMER, (u32)t, period);
}

/* One event key of a task or phase; 1 if @key is not an event. */
static int parse_event(struct story_ctx *c, struct sim_task_def *d,
		       const char *path, const char *key, json_object *v)
{
	static const struct { const char *k; u32 kind; } kinds[] = {
		{ "runtime", SIM_EV_RUNTIME },	/* before "run": longer prefix */
		{ "run", SIM_EV_RUN },
		{ "sleep", SIM_EV_SLEEP },
	};
	char p[256];
	u64 us;
	u32 i;

	path_fmt(p, sizeof(p), "%s.%s", path, key);
	if (ev_key(key, "timer"))
		return parse_timer(c, d, p, v);
	for (i = 0; i < SP_ARRAY_SIZE(kinds); i++) {
		if (!ev_key(key, kinds[i].k))
			continue;
		if (get_u64(c, p, v, 100000000, &us))
			return -1;
		return us ? push_ev(c, kinds[i].kind, 0, us) : 0;
	}
	return 1;
}

static int get_count(struct story_ctx *c, const char *path, const char *key,
		     json_object *v, u32 *out)
{
	char p[256];
	u64 x;

	path_fmt(p, sizeof(p), "%s.%s", path, key);
	if (get_u64(c, p, v, 1000000, &x))
		return -1;
	if (!x)
		return story_err(c, "%s: must be >= 1 (the simulator needs finite work)", p);
	*out = (u32)x;
	return 0;
}

static int new_phase(struct story_ctx *c)
{
	struct sim_story *s = c->s;

	if (s->nr_phases == c->cap_phases) {
		u32 cap = c->cap_phases ? 2 * c->cap_phases : 8;
		struct sim_phase *p = realloc(s->phases, cap * sizeof(*p));

		if (!p)
			return story_err(c, "out of memory");
		s->phases = p;
		c->cap_phases = cap;
	}
	s->phases[s->nr_phases] = (struct sim_phase){ .loop = 1, .first_ev = s->nr_evs };
	return (int)s->nr_phases++;
}

static int parse_phase(struct story_ctx *c, struct sim_task_def *d,
		       const char *path, json_object *v)
{
	int ph, rc;

	if (!json_object_is_type(v, json_type_object))
		return story_err(c, "%s: must be an object", path);
	ph = new_phase(c);
	if (ph < 0)
		return -1;
	json_object_object_foreach(v, key, val) {
		if (!strcmp(key, "loop")) {
			if (get_count(c, path, key, val, &c->s->phases[ph].loop))
				return -1;
			continue;
		}
		rc = parse_event(c, d, path, key, val);
		if (rc < 0)
			return -1;
		if (rc)
			return story_err(c, "%s: unknown key \"%s\"", path, key);
	}
	c->s->phases[ph].nr_ev = c->s->nr_evs - c->s->phases[ph].first_ev;
	d->nr_phases++;
	return 0;
}

static int parse_phases(struct story_ctx *c, struct sim_task_def *d,
			const char *path, json_object *v)
{
	char p[256];

	if (!json_object_is_type(v, json_type_object) || !json_object_object_length(v))
		return story_err(c, "%s.phases: must be a non-empty object", path);
	json_object_object_foreach(v, key, val) {
		path_fmt(p, sizeof(p), "%s.phases.%s", path, key);
		if (parse_phase(c, d, p, val))
			return -1;
	}
	return 0;
}

static int parse_task(struct story_ctx *c, const char *name, json_object *v)
{
	static const char *const ignored[] = { "priority", "policy", "cpus", NULL };
	struct sim_story *s = c->s;
	struct sim_task_def *d = &s->defs[s->nr_defs];
	json_object *phases = NULL;
	char path[128];
	bool direct = false;
	int ph = -1, rc;

	path_fmt(path, sizeof(path), "tasks.%s", name);
	if (!json_object_is_type(v, json_type_object))
		return story_err(c, "%s: must be an object", path);
	if (!*name || strlen(name) >= SIM_NAME_LEN)
		return story_err(c, "%s: name empty or longer than %d", path,
				 SIM_NAME_LEN - 1);
	memset(d, 0, sizeof(*d));
	strcpy(d->name, name);
	d->instance = 1;
	d->loop = 1;
	d->first_phase = s->nr_phases;
	json_object_object_foreach(v, key, val) {
		if (!strcmp(key, "instance")) {
			if (get_count(c, path, key, val, &d->instance))
				return -1;
		} else if (!strcmp(key, "loop")) {
			if (get_count(c, path, key, val, &d->loop))
				return -1;
		} else if (!strcmp(key, "phases")) {
			phases = val;
		} else if (!key_in(key, ignored)) {
			if (ph < 0) {
				ph = new_phase(c);
				if (ph < 0)
					return -1;
			}
			rc = parse_event(c, d, path, key, val);
			if (rc < 0)
				return -1;
			if (rc)
				return story_err(c, "%s: unknown key \"%s\"", path, key);
			direct = true;
		}
	}
	if (direct && phases)
		return story_err(c, "%s: events and \"phases\" both given", path);
	if (phases) {
		if (parse_phases(c, d, path, phases))
			return -1;
	} else if (ph >= 0) {
		s->phases[ph].nr_ev = s->nr_evs - s->phases[ph].first_ev;
		d->nr_phases = 1;
	}
	if (!d->nr_phases || s->nr_evs == s->phases[d->first_phase].first_ev)
		return story_err(c, "%s: no events (or only zero-length ones)", path);
	return 0;
}

static int parse_global(struct story_ctx *c, json_object *v)
{
	static const char *const ignored[] = { "duration", "calibration",
		"default_policy", "logdir", "log_basename", "lock_pages", "ftrace",
		"gnuplot", "pi_enabled", NULL };

	if (!json_object_is_type(v, json_type_object))
		return story_err(c, "global: must be an object");
	json_object_object_foreach(v, key, val) {
		if (!strcmp(key, "description")) {
			if (!json_object_is_type(val, json_type_string))
				return story_err(c, "global.description: must be a string");
			snprintf(c->s->desc, sizeof(c->s->desc), "%s",
				 json_object_get_string(val));
		} else if (!key_in(key, ignored)) {
			return story_err(c, "global: unknown key \"%s\"", key);
		}
	}
	return 0;
}

static int parse_top(struct story_ctx *c, json_object *root)
{
	json_object *tasks = NULL;
	int n;

	if (!json_object_is_type(root, json_type_object))
		return story_err(c, "top level: must be an object");
	json_object_object_foreach(root, key, val) {
		if (!strcmp(key, "tasks"))
			tasks = val;
		else if (!strcmp(key, "global")) {
			if (parse_global(c, val))
				return -1;
		} else
			return story_err(c, "top level: unknown key \"%s\"", key);
	}
	if (!tasks)
		return story_err(c, "top level: missing \"tasks\"");
	if (!json_object_is_type(tasks, json_type_object) ||
	    !(n = json_object_object_length(tasks)))
		return story_err(c, "tasks: must be a non-empty object");
	c->s->defs = calloc((size_t)n, sizeof(*c->s->defs));
	if (!c->s->defs)
		return story_err(c, "out of memory");
	json_object_object_foreach(tasks, name, t) {
		if (parse_task(c, name, t))
			return -1;
		c->s->nr_defs++;
	}
	return 0;
}

/* Line and column of byte @off of @text, for a JSON syntax error. */
static void text_pos(const char *text, size_t off, int *line, int *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/* Story name: the file's base name without ".json". */
static void story_name(char *dst, const char *where)
{
	const char *b = strrchr(where, '/');
	size_t n;

	b = b ? b + 1 : where;
	n = strcspn(b, ".");
	if (n >= SIM_NAME_LEN)
		n = SIM_NAME_LEN - 1;
	memcpy(dst, b, n);
	dst[n] = 0;
}

int sim_story_parse(const char *text, size_t n, const char *where,
		    struct sim_story *s, char *err, size_t len)
{
	struct story_ctx c = { .where = where, .s = s, .err = err, .len = len };
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error je;
	json_object *root;
	int line, col, rc;

	memset(s, 0, sizeof(*s));
	story_name(s->name, where);
	if (!tok)
		return story_err(&c, "out of memory");
	root = json_tokener_parse_ex(tok, text, (int)n);
	je = json_tokener_get_error(tok);
	if (!root || je != json_tokener_success ||
	    json_tokener_get_parse_end(tok) < n) {
		size_t end = json_tokener_get_parse_end(tok);

		text_pos(text, end, &line, &col);
		story_err(&c, "%d:%d: malformed JSON: %s", line, col,
			  je == json_tokener_success ? "trailing data" :
			  je == json_tokener_continue ? "unexpected end of input" :
			  json_tokener_error_desc(je));
		json_object_put(root);
		json_tokener_free(tok);
		return -1;
	}
	json_tokener_free(tok);
	rc = parse_top(&c, root);
	json_object_put(root);
	if (rc)
		sim_story_free(s);
	return rc;
}

int sim_story_load(const char *path, struct sim_story *s, char *err, size_t len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long sz;
	int rc;

	memset(s, 0, sizeof(*s));
	if (!f) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) || (sz = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    sz > (1 << 24)) {
		fclose(f);
		snprintf(err, len, "%s: cannot read (or larger than 16 MiB)", path);
		return -1;
	}
	buf = malloc((size_t)sz + 1);
	if (!buf || fread(buf, 1, (size_t)sz, f) != (size_t)sz) {
		free(buf);
		fclose(f);
		snprintf(err, len, "%s: read error", path);
		return -1;
	}
	fclose(f);
	buf[sz] = 0;
	rc = sim_story_parse(buf, (size_t)sz, path, s, err, len);
	free(buf);
	return rc;
}

u32 sim_story_tasks(const struct sim_story *s)
{
	u32 i, n = 0;

	for (i = 0; i < s->nr_defs; i++)
		n += s->defs[i].instance;
	return n;
}

void sim_story_free(struct sim_story *s)
{
	free(s->defs);
	free(s->phases);
	free(s->evs);
	s->defs = NULL;
	s->phases = NULL;
	s->evs = NULL;
	s->nr_defs = s->nr_phases = s->nr_evs = 0;
}
