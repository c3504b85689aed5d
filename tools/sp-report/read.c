// SPDX-License-Identifier: GPL-2.0
/*
 * read.c - trace.dat to decoded events, through libtracecmd/libtraceevent.
 *
 * DOC: reading a recording
 *
 * The file is checked for trace-cmd's magic before libtracecmd sees it, so
 * that a foreign file gets its own message.  libtracecmd then reads the
 * headers and hands every record in time order; each record is matched to
 * the events sp-report knows by the event's id, and each field is found by
 * name in the event's format (both sched_power_select formats, and fields
 * the reader does not know, are tolerated).  A field outside the record, or
 * of a size that is not a number, reads as missing.  Symbolic fields
 * (reason, mode, wake, verdict) are turned into names through the event's
 * own print format (__print_symbolic), never through numbers compiled in.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace-cmd.h>
#include <event-parse.h>

#include "report.h"

#define REP_MAGIC	"\027\010\104tracing"
#define REP_MAGIC_LEN	10
#define REP_MAX_SYMS	64

/* value -> name id of one symbolic field */
struct rep_symtab {
	uint32_t nr;
	int64_t value[REP_MAX_SYMS];
	uint8_t id[REP_MAX_SYMS];
};

struct rep_sel_fields {
	struct tep_format_field *pid, *comm, *util, *prev_cpu, *cfs_cpu;
	struct tep_format_field *policy_cpu, *ret_cpu, *chosen_cpu, *applied;
	struct tep_format_field *wake, *wake_flags, *mode, *reason;
	struct tep_format_field *cfs_nj, *chosen_nj, *busy_nj, *idle_nj;
	struct tep_format_field *wake_nj, *pstate_nj, *static_nj;
	struct tep_format_field *queue_us, *lat_bound_us;
	struct rep_symtab reason_syms, mode_syms, wake_syms;
};

/* The fields of sched_waking, sched_wakeup_new and sched_wakeup. */
struct rep_wake_fields {
	struct tep_format_field *pid, *cpu, *comm;
};

struct rep_ctx {
	struct rep_trace *t;
	struct tep_handle *tep;
	int id_select, id_spidle, id_cpu_idle, id_cpu_freq;
	int id_waking, id_wakeup_new, id_wakeup, id_migrate, id_switch, id_print, id_balance;
	struct rep_sel_fields sel;
	struct tep_format_field *spi_cpu, *spi_state, *spi_res, *spi_target, *spi_verdict;
	struct rep_symtab verdict_syms;
	struct tep_format_field *pw_state, *pw_cpu, *fq_state, *fq_cpu;
	struct rep_wake_fields wk, wn, wu;
	struct tep_format_field *mg_pid, *mg_orig, *mg_dest, *mg_comm;
	struct tep_format_field *sw_prev_pid, *sw_next_pid, *sw_prev_state, *sw_next_comm;
	struct tep_format_field *pr_buf;
	struct tep_format_field *lb_cpu, *lb_passed, *lb_reason;
	struct rep_symtab gate_syms;
	int failed;			/* out of memory */
};

/* ---- names ------------------------------------------------------------- */

uint8_t rep_name_id(struct rep_names *n, const char *name)
{
	uint32_t i;

	for (i = 0; i < n->nr; i++)
		if (!strcmp(n->name[i], name))
			return (uint8_t)i;
	if (n->nr == REP_MAX_NAMES)
		return REP_MAX_NAMES - 1;	/* the last slot collects the rest */
	snprintf(n->name[n->nr], REP_NAME_LEN, "%s", name);
	return (uint8_t)n->nr++;
}

const char *rep_name(const struct rep_names *n, uint32_t id)
{
	return id < n->nr ? n->name[id] : "?";
}

/* ---- the event array ------------------------------------------------------ */

int rep_trace_push(struct rep_trace *t, const struct rep_event *e)
{
	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 4096;
		struct rep_event *ev = realloc(t->ev, cap * sizeof(*ev));

		if (!ev)
			return -ENOMEM;
		t->ev = ev;
		t->cap = cap;
	}
	t->ev[t->nr++] = *e;
	return 0;
}

void rep_trace_free(struct rep_trace *t)
{
	free(t->ev);
	memset(t, 0, sizeof(*t));
}

/* ---- fields -------------------------------------------------------------- */

static struct tep_format_field *rep_field(struct tep_event *ev, const char *name)
{
	return ev ? tep_find_field(ev, name) : NULL;
}

/* The field's bytes inside @rec, or NULL if they do not fit. */
static const uint8_t *rep_field_data(const struct tep_format_field *f,
				     const struct tep_record *rec, int size)
{
	if (!f || f->offset < 0 || size <= 0 || rec->size < 0 ||
	    f->offset > rec->size || size > rec->size - f->offset)
		return NULL;
	return (const uint8_t *)rec->data + f->offset;
}

static bool rep_num(const struct tep_format_field *f, const struct tep_record *rec,
		    int64_t *out)
{
	unsigned long long v;

	if (!f || (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8) ||
	    !rep_field_data(f, rec, f->size))
		return false;
	if (tep_read_number_field((struct tep_format_field *)f, rec->data, &v))
		return false;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		unsigned int bits = (unsigned int)f->size * 8;
		uint64_t sign = 1ull << (bits - 1);

		v &= (sign << 1) - 1;
		*out = (int64_t)((v ^ sign) - sign);
	} else {
		*out = (int64_t)v;
	}
	return true;
}

static int64_t rep_num_or(const struct tep_format_field *f,
			  const struct tep_record *rec, int64_t dflt)
{
	int64_t v;

	return rep_num(f, rec, &v) ? v : dflt;
}

/* A char[] or __data_loc string field, NUL-terminated into @buf. */
static void rep_str(const struct tep_format_field *f, const struct tep_record *rec,
		    char *buf, size_t len)
{
	const uint8_t *p;
	int n;

	buf[0] = 0;
	if (!f)
		return;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		int64_t loc;
		struct tep_format_field at = *f;

		if (!rep_num(f, rec, &loc))
			return;
		at.offset = (int)(loc & 0xffff);
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			at.offset += f->offset + f->size;
		n = (int)((loc >> 16) & 0xffff);
		p = rep_field_data(&at, rec, n);
	} else {
		n = f->size ? f->size : rec->size - f->offset;	/* char buf[]: to the end */
		p = rep_field_data(f, rec, n);
	}
	if (!p || n <= 0)
		return;
	if ((size_t)n >= len)
		n = (int)len - 1;
	memcpy(buf, p, (size_t)n);
	buf[n] = 0;
	buf[strnlen(buf, (size_t)n)] = 0;
}

/* ---- symbolic fields --------------------------------------------------- */

static bool rep_arg_is_field(const struct tep_print_arg *a, const char *name)
{
	while (a && a->type == TEP_PRINT_TYPE)
		a = a->typecast.item;
	return a && a->type == TEP_PRINT_FIELD && a->field.name &&
	       !strcmp(a->field.name, name);
}

/* Fill @st from the __print_symbolic() of field @name in @ev's print format. */
static void rep_symtab_load(struct tep_event *ev, const char *name,
			    struct rep_symtab *st, struct rep_names *names)
{
	const struct tep_print_arg *a;
	const struct tep_print_flag_sym *s;

	st->nr = 0;
	if (!ev)
		return;
	for (a = ev->print_fmt.args; a; a = a->next) {
		if (a->type != TEP_PRINT_SYMBOL || !rep_arg_is_field(a->symbol.field, name))
			continue;
		for (s = a->symbol.symbols; s && st->nr < REP_MAX_SYMS; s = s->next) {
			if (!s->value || !s->str)
				continue;
			st->value[st->nr] = strtoll(s->value, NULL, 0);
			st->id[st->nr] = rep_name_id(names, s->str);
			st->nr++;
		}
		return;
	}
}

static uint8_t rep_sym(const struct rep_symtab *st, struct rep_names *names, int64_t v)
{
	char num[REP_NAME_LEN];
	uint32_t i;

	for (i = 0; i < st->nr; i++)
		if (st->value[i] == v)
			return st->id[i];
	snprintf(num, sizeof(num), "%lld", (long long)v);
	return rep_name_id(names, num);
}

/* ---- event setup --------------------------------------------------------- */

static int rep_event_id(struct tep_handle *tep, const char *sys, const char *name,
			struct tep_event **out)
{
	struct tep_event *ev = tep_find_event_by_name(tep, sys, name);

	*out = ev;
	return ev ? ev->id : -1;
}

static void rep_setup_select(struct rep_ctx *c, struct tep_event *ev)
{
	struct rep_sel_fields *f = &c->sel;
	struct rep_format *fmt = &c->t->fmt;

	f->pid = rep_field(ev, "pid");
	f->comm = rep_field(ev, "comm");
	f->util = rep_field(ev, "util");
	f->prev_cpu = rep_field(ev, "prev_cpu");
	f->cfs_cpu = rep_field(ev, "cfs_cpu");
	/* 0.4 names it model_cpu; 0.2 and 0.3 called it policy_cpu */
	f->policy_cpu = rep_field(ev, "model_cpu");
	fmt->has_model_cpu = f->policy_cpu;
	if (!f->policy_cpu)
		f->policy_cpu = rep_field(ev, "policy_cpu");
	f->ret_cpu = rep_field(ev, "ret_cpu");
	f->chosen_cpu = rep_field(ev, "chosen_cpu");
	f->applied = rep_field(ev, "applied");
	f->wake = rep_field(ev, "wake");
	f->wake_flags = rep_field(ev, "wake_flags");
	f->mode = rep_field(ev, "mode");
	f->reason = rep_field(ev, "reason");
	f->cfs_nj = rep_field(ev, "cfs_nj");
	f->chosen_nj = rep_field(ev, "chosen_nj");
	f->busy_nj = rep_field(ev, "busy_nj");
	f->idle_nj = rep_field(ev, "idle_nj");
	f->wake_nj = rep_field(ev, "wake_nj");
	f->pstate_nj = rep_field(ev, "pstate_nj");
	f->static_nj = rep_field(ev, "static_nj");
	f->queue_us = rep_field(ev, "queue_us");
	f->lat_bound_us = rep_field(ev, "lat_bound_us");
	rep_symtab_load(ev, "reason", &f->reason_syms, &c->t->reasons);
	rep_symtab_load(ev, "mode", &f->mode_syms, &c->t->modes);
	rep_symtab_load(ev, "wake", &f->wake_syms, &c->t->wakes);
	fmt->v01 = !f->ret_cpu && f->chosen_cpu;
	fmt->has_mode = f->mode;
	fmt->has_applied = f->applied;
	fmt->has_queue = f->queue_us;
	fmt->has_lat_bound = f->lat_bound_us;
	fmt->has_static = f->static_nj;
}

/* Wake-up event @name of "sched" and its fields in @w. Return: its id. */
static int rep_setup_wake(struct rep_ctx *c, const char *name, struct rep_wake_fields *w)
{
	struct tep_event *ev;
	int id = rep_event_id(c->tep, "sched", name, &ev);

	w->pid = rep_field(ev, "pid");
	w->cpu = rep_field(ev, "target_cpu");
	w->comm = rep_field(ev, "comm");
	return id;
}

static void rep_setup(struct rep_ctx *c)
{
	struct tep_event *ev;

	c->id_select = rep_event_id(c->tep, "sched_power", "sched_power_select", &ev);
	if (ev)
		rep_setup_select(c, ev);
	c->id_spidle = rep_event_id(c->tep, "sched_power", "sched_power_idle", &ev);
	c->spi_cpu = rep_field(ev, "cpu");
	c->spi_state = rep_field(ev, "state");
	c->spi_res = rep_field(ev, "residency_us");
	c->spi_target = rep_field(ev, "target_us");
	c->spi_verdict = rep_field(ev, "verdict");
	rep_symtab_load(ev, "verdict", &c->verdict_syms, &c->t->verdicts);
	c->id_cpu_idle = rep_event_id(c->tep, "power", "cpu_idle", &ev);
	c->pw_state = rep_field(ev, "state");
	c->pw_cpu = rep_field(ev, "cpu_id");
	c->id_cpu_freq = rep_event_id(c->tep, "power", "cpu_frequency", &ev);
	c->fq_state = rep_field(ev, "state");
	c->fq_cpu = rep_field(ev, "cpu_id");
	c->id_waking = rep_setup_wake(c, "sched_waking", &c->wk);
	c->id_wakeup_new = rep_setup_wake(c, "sched_wakeup_new", &c->wn);
	c->id_wakeup = rep_setup_wake(c, "sched_wakeup", &c->wu);
	c->id_migrate = rep_event_id(c->tep, "sched", "sched_migrate_task", &ev);
	c->mg_pid = rep_field(ev, "pid");
	c->mg_orig = rep_field(ev, "orig_cpu");
	c->mg_dest = rep_field(ev, "dest_cpu");
	c->mg_comm = rep_field(ev, "comm");
	c->id_switch = rep_event_id(c->tep, "sched", "sched_switch", &ev);
	c->sw_prev_pid = rep_field(ev, "prev_pid");
	c->sw_next_pid = rep_field(ev, "next_pid");
	c->sw_prev_state = rep_field(ev, "prev_state");
	c->sw_next_comm = rep_field(ev, "next_comm");
	c->id_print = rep_event_id(c->tep, "ftrace", "print", &ev);
	c->pr_buf = rep_field(ev, "buf");
	c->id_balance = rep_event_id(c->tep, "sched_power", "sched_power_balance", &ev);
	c->lb_cpu = rep_field(ev, "cpu");
	c->lb_passed = rep_field(ev, "passed");
	c->lb_reason = rep_field(ev, "reason");
	rep_symtab_load(ev, "reason", &c->gate_syms, &c->t->gates);
}

/* ---- decoding ------------------------------------------------------------ */

static const char *rep_wake_of_flags(int64_t wf)
{
	if (wf & 0x04)		/* WF_FORK */
		return "fork";
	if (wf & 0x02)		/* WF_EXEC */
		return "exec";
	return "wakeup";
}

static void rep_decode_select(struct rep_ctx *c, const struct tep_record *rec,
			      struct rep_select *s)
{
	const struct rep_sel_fields *f = &c->sel;
	struct rep_trace *t = c->t;
	int64_t v;

	s->pid = (int32_t)rep_num_or(f->pid, rec, -1);
	rep_str(f->comm, rec, s->comm, sizeof(s->comm));
	s->util = (int32_t)rep_num_or(f->util, rec, -1);
	s->prev_cpu = (int32_t)rep_num_or(f->prev_cpu, rec, -1);
	s->cfs_cpu = (int32_t)rep_num_or(f->cfs_cpu, rec, -1);
	s->ret_cpu = (int32_t)rep_num_or(f->ret_cpu ? f->ret_cpu : f->chosen_cpu, rec, -1);
	s->policy_cpu = (int32_t)rep_num_or(f->policy_cpu, rec, s->ret_cpu);
	s->applied = (int32_t)rep_num_or(f->applied, rec, -1);
	s->reason = rep_num(f->reason, rec, &v) ? rep_sym(&f->reason_syms, &t->reasons, v) :
		    rep_name_id(&t->reasons, "-");
	s->mode = rep_num(f->mode, rec, &v) ? rep_sym(&f->mode_syms, &t->modes, v) :
		  rep_name_id(&t->modes, "-");
	if (rep_num(f->wake, rec, &v))
		s->wake = rep_sym(&f->wake_syms, &t->wakes, v);
	else if (rep_num(f->wake_flags, rec, &v))
		s->wake = rep_name_id(&t->wakes, rep_wake_of_flags(v));
	else
		s->wake = rep_name_id(&t->wakes, "-");
	s->cfs_nj = rep_num_or(f->cfs_nj, rec, 0);
	s->chosen_nj = rep_num_or(f->chosen_nj, rec, 0);
	s->busy_nj = rep_num_or(f->busy_nj, rec, -1);
	s->idle_nj = rep_num_or(f->idle_nj, rec, -1);
	s->wake_nj = rep_num_or(f->wake_nj, rec, -1);
	s->pstate_nj = rep_num_or(f->pstate_nj, rec, -1);
	s->static_nj = rep_num_or(f->static_nj, rec, -1);
	s->queue_us = rep_num_or(f->queue_us, rec, -1);
	s->lat_bound_us = rep_num_or(f->lat_bound_us, rec, -1);
}

static void rep_decode_wake(const struct rep_wake_fields *w, const struct tep_record *rec,
			    struct rep_event *e)
{
	e->wk.pid = (int32_t)rep_num_or(w->pid, rec, -1);
	e->wk.target_cpu = (int32_t)rep_num_or(w->cpu, rec, -1);
	rep_str(w->comm, rec, e->wk.comm, sizeof(e->wk.comm));
}

static int rep_decode(struct rep_ctx *c, const struct tep_record *rec, int type,
		      struct rep_event *e)
{
	struct rep_trace *t = c->t;
	int64_t v;

	if (type == c->id_select) {
		e->kind = REP_EV_SELECT;
		t->fmt.has_select = true;
		rep_decode_select(c, rec, &e->sel);
	} else if (type == c->id_spidle) {
		e->kind = REP_EV_SP_IDLE;
		t->fmt.has_sp_idle = true;
		e->spi.cpu = (int32_t)rep_num_or(c->spi_cpu, rec, -1);
		e->spi.state = (int32_t)rep_num_or(c->spi_state, rec, -1);
		e->spi.residency_us = (uint64_t)rep_num_or(c->spi_res, rec, 0);
		e->spi.target_us = (uint64_t)rep_num_or(c->spi_target, rec, 0);
		e->spi.verdict = rep_num(c->spi_verdict, rec, &v) ?
				 rep_sym(&c->verdict_syms, &t->verdicts, v) :
				 rep_name_id(&t->verdicts, "-");
	} else if (type == c->id_cpu_idle || type == c->id_cpu_freq) {
		bool idle = type == c->id_cpu_idle;

		e->kind = idle ? REP_EV_CPU_IDLE : REP_EV_CPU_FREQ;
		if (idle)
			t->fmt.has_cpu_idle = true;
		else
			t->fmt.has_cpu_freq = true;
		e->pw.cpu = (int32_t)rep_num_or(idle ? c->pw_cpu : c->fq_cpu, rec, -1);
		if (!rep_num(idle ? c->pw_state : c->fq_state, rec, &v))
			return 1;	/* unusable: skip */
		e->pw.value = (uint64_t)v & 0xffffffffull;
	} else if (type == c->id_waking || type == c->id_wakeup_new) {
		bool nw = type == c->id_wakeup_new;

		e->kind = nw ? REP_EV_WAKEUP_NEW : REP_EV_WAKING;
		t->fmt.has_waking = true;
		rep_decode_wake(nw ? &c->wn : &c->wk, rec, e);
	} else if (type == c->id_wakeup) {
		e->kind = REP_EV_WAKEUP;
		t->fmt.has_wakeup = true;
		rep_decode_wake(&c->wu, rec, e);
	} else if (type == c->id_migrate) {
		e->kind = REP_EV_MIGRATE;
		t->fmt.has_migrate = true;
		e->mg.pid = (int32_t)rep_num_or(c->mg_pid, rec, -1);
		e->mg.orig_cpu = (int32_t)rep_num_or(c->mg_orig, rec, -1);
		e->mg.dest_cpu = (int32_t)rep_num_or(c->mg_dest, rec, -1);
		rep_str(c->mg_comm, rec, e->mg.comm, sizeof(e->mg.comm));
	} else if (type == c->id_switch) {
		e->kind = REP_EV_SWITCH;
		t->fmt.has_switch = true;
		e->sw.prev_pid = (int32_t)rep_num_or(c->sw_prev_pid, rec, -1);
		e->sw.next_pid = (int32_t)rep_num_or(c->sw_next_pid, rec, -1);
		e->sw.prev_state = rep_num_or(c->sw_prev_state, rec, 0);
		rep_str(c->sw_next_comm, rec, e->sw.next_comm, sizeof(e->sw.next_comm));
	} else if (type == c->id_balance) {
		e->kind = REP_EV_BALANCE;
		t->fmt.has_balance = true;
		e->lb.cpu = (int32_t)rep_num_or(c->lb_cpu, rec, -1);
		e->lb.passed = (int32_t)rep_num_or(c->lb_passed, rec, -1);
		e->lb.reason = rep_num(c->lb_reason, rec, &v) ? rep_sym(&c->gate_syms, &t->gates, v) :
			       rep_name_id(&t->gates, "-");
	} else if (type == c->id_print) {
		e->kind = REP_EV_MARKER;
		rep_str(c->pr_buf, rec, e->mark, sizeof(e->mark));
		e->mark[strcspn(e->mark, "\n")] = 0;
	} else {
		e->kind = REP_EV_OTHER;
	}
	return 0;
}

static int rep_record_cb(struct tracecmd_input *h, struct tep_record *rec, int cpu,
			 void *data)
{
	struct rep_ctx *c = data;
	struct rep_event e;
	int type;

	c->t->nr_records++;
	if (rec->missed_events > 0)
		c->t->lost += (uint64_t)rec->missed_events;
	else if (rec->missed_events < 0)
		c->t->lost_pages++;
	if (!rec->data || rec->size < 8)	/* shorter than the common fields */
		return 0;
	memset(&e, 0, sizeof(e));
	e.ts_ns = rec->ts;
	e.cpu = cpu;
	if (cpu >= 0 && cpu < SP_MAX_CPUS)
		c->t->cpu_seen[cpu / 64] |= 1ull << (cpu % 64);
	type = tep_data_type(c->tep, rec);
	if (rep_decode(c, rec, type, &e) || e.kind == REP_EV_OTHER)
		return 0;
	if (rep_trace_push(c->t, &e)) {
		c->failed = -ENOMEM;
		return 1;	/* stop iterating */
	}
	return 0;
}

/* ---- opening ------------------------------------------------------------ */

static int rep_check_magic(int fd, char *err, size_t len)
{
	char magic[REP_MAGIC_LEN];
	ssize_t n = pread(fd, magic, sizeof(magic), 0);

	if (n < 0) {
		snprintf(err, len, "%s", strerror(errno));
		return -1;
	}
	if (n == 0) {
		snprintf(err, len, "empty file, not a trace.dat");
		return -1;
	}
	if (n < REP_MAGIC_LEN) {
		snprintf(err, len, "%s", memcmp(magic, REP_MAGIC, (size_t)n) ?
			 "not a trace-cmd trace.dat (no tracing magic)" :
			 "truncated trace.dat (ends inside the magic)");
		return -1;
	}
	if (memcmp(magic, REP_MAGIC, REP_MAGIC_LEN)) {
		snprintf(err, len, "not a trace-cmd trace.dat (no tracing magic)");
		return -1;
	}
	return 0;
}

static void rep_file_version(int fd, struct rep_trace *t)
{
	char v[8] = "";

	if (pread(fd, v, sizeof(v) - 1, REP_MAGIC_LEN) > 0)
		snprintf(t->version, sizeof(t->version), "%.*s", (int)strnlen(v, 7), v);
}

/*
 * libtracecmd on its own open of @fd's file (/proc/self/fd/N), which reads
 * from the start of the file whatever @fd's offset (a dup() would share
 * that offset, and tracecmd_open_fd() reads the headers from it) and leaves
 * @fd alone.  The headers and the data pages are set up in two steps
 * because libtracecmd 3.1.6's tracecmd_close() dereferences NULL on a
 * handle whose tracecmd_init_data() failed (a file cut inside its data
 * pages, or a page whose size is wrong), and tracecmd_open_fd() does that
 * close itself: such a handle is left open (one per refused file).
 */
static struct tracecmd_input *rep_open(int fd, char *err, size_t len)
{
	struct tracecmd_input *h;
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (access(path, R_OK)) {	/* no /proc: say so, not "corrupt" */
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return NULL;
	}
	h = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		snprintf(err, len, "truncated or corrupt trace.dat (libtracecmd cannot read its headers)");
		return NULL;
	}
	if (tracecmd_init_data(h)) {
		snprintf(err, len, "truncated or corrupt trace.dat (libtracecmd cannot read its data pages)");
		return NULL;
	}
	return h;
}

/**
 * rep_read_fd() - decode the recording in an open file
 * @fd: a seekable file; read from its start whatever its offset
 * @t: filled with the decoded events (rep_trace_free() it in every case)
 * @err: one line saying why, when the file is refused
 * @len: size of @err
 *
 * @fd stays open and its offset is where the caller left it; @fd must be
 * an open file that /proc/self/fd/ can open again (a regular file or a memfd).
 *
 * Return: 0; -1 when the file is not a readable trace.dat; -2 when it has
 * no sched_power events.
 */
int rep_read_fd(int fd, struct rep_trace *t, char *err, size_t len)
{
	struct tracecmd_input *h;
	struct rep_ctx c;

	memset(t, 0, sizeof(*t));
	if (rep_check_magic(fd, err, len))
		return -1;
	rep_file_version(fd, t);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	h = rep_open(fd, err, len);
	if (!h)
		return -1;
	memset(&c, 0, sizeof(c));
	c.t = t;
	c.tep = tracecmd_get_tep(h);
	if (!c.tep) {
		tracecmd_close(h);
		snprintf(err, len, "corrupt trace.dat (no event formats)");
		return -1;
	}
	t->nr_cpus = (uint32_t)(tep_get_cpus(c.tep) > 0 ? tep_get_cpus(c.tep) : 0);
	rep_setup(&c);
	tracecmd_iterate_events(h, NULL, 0, rep_record_cb, &c);
	tracecmd_close(h);
	if (c.failed) {
		snprintf(err, len, "out of memory after %zu events", t->nr);
		rep_trace_free(t);
		return -1;
	}
	if (c.id_select < 0 && c.id_spidle < 0) {
		snprintf(err, len, "no sched_power events in this recording "
			 "(record with trace-cmd record -e sched_power ...)");
		return -2;
	}
	return 0;
}

int rep_read(const char *path, struct rep_trace *t, char *err, size_t len)
{
	struct stat sb;
	int fd, ret;

	memset(t, 0, sizeof(*t));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, len, "%s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		close(fd);
		snprintf(err, len, "not a regular file");
		return -1;
	}
	ret = rep_read_fd(fd, t, err, len);
	close(fd);
	return ret;
}
