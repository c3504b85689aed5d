// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_events.c - libFuzzer harness for sp-report's analysis, without a file.
 *
 * The input is decoded into what read.c hands the analysis: a struct
 * rep_trace of decoded events (as tests/test_report.c builds them), so every
 * value the reader can produce reaches rep_analyse() -- the decisions, the
 * idle and energy replay, the work timeline (--slowdown), --window and
 * --span, the wake-up latencies, counts.c's queued wake-ups and balances,
 * the idle verdicts -- and every output format, with no libtracecmd in the
 * way.  Bytes: one of options (model, --slowdown, --idle-deepest, --window,
 * --span), one of format flags, the CPU count, then events of one kind byte
 * each followed by the kind's fields.  Each field is mostly drawn from a
 * small set (CPUs -1..8, a few pids, thread names and the module's reason,
 * gate and verdict names) so that events meet, and from any value the
 * reader could decode when its byte says so (int32 CPUs and pids, int64
 * energies, any name).  Timestamps step forward or back.  Must run without
 * a sanitizer report.  Build and run: make fuzz-events [FUZZ_EVENTS_RUNS=N].
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_rep.h"
#include "report.h"
#include "sp_acct.h"
#include "sp_gate.h"
#include "sp_place.h"
#include "test_models.h"	/* x86_2pkg, phone */

#define FZ_MAX_EVENTS	4096
#define FZ_ANY		0xe0	/* a byte from here on: any value follows */

/* The input, consumed front to back; past its end every read is 0. */
struct fz {
	const uint8_t *p;
	size_t n;
};

static struct sp_model *fz_models[2];
static FILE *fz_null;

static uint8_t fz_u8(struct fz *z)
{
	uint8_t v = 0;

	if (z->n) {
		v = *z->p++;
		z->n--;
	}
	return v;
}

static uint64_t fz_bytes(struct fz *z, unsigned int nr)
{
	uint64_t v = 0;

	while (nr--)
		v = v << 8 | fz_u8(z);
	return v;
}

/* A CPU: -1..8, or any int32. */
static int32_t fz_cpu(struct fz *z)
{
	uint8_t b = fz_u8(z);

	return b >= FZ_ANY ? (int32_t)fz_bytes(z, 4) : (int32_t)(b % 10) - 1;
}

static int32_t fz_pid(struct fz *z)
{
	static const int32_t pids[] = { 0, 1, 100, 101, 102, 200, 300, -1 };
	uint8_t b = fz_u8(z);

	return b >= FZ_ANY ? (int32_t)fz_bytes(z, 4) : pids[b % 8];
}

/* An energy, time or state value: small, or any int64. */
static int64_t fz_num(struct fz *z)
{
	uint8_t b = fz_u8(z);

	return b >= FZ_ANY ? (int64_t)fz_bytes(z, 8) : (int64_t)b * (b & 1 ? 1000 : 1) - 8;
}

/* A string of up to @len - 1 bytes: one of @list, or any bytes. */
static void fz_str(struct fz *z, const char *const *list, unsigned int nr,
		   char *buf, size_t len)
{
	uint8_t b = fz_u8(z);
	size_t i, n;

	if (b < FZ_ANY) {
		snprintf(buf, len, "%s", list[b % nr]);
		return;
	}
	n = fz_u8(z) % len;
	for (i = 0; i < n; i++)
		buf[i] = (char)fz_u8(z);
	buf[n] = 0;
}

/* A name id, as rep_name_id() gives the reader: a known name, "-" or any. */
static uint8_t fz_name(struct fz *z, struct rep_names *names,
		       const char *const *known, unsigned int nr)
{
	char name[REP_NAME_LEN];
	uint8_t b = fz_u8(z);

	if (b < FZ_ANY)
		return rep_name_id(names, b % (nr + 1) < nr ? known[b % (nr + 1)] : "-");
	fz_str(z, known, nr, name, sizeof(name));
	return rep_name_id(names, name);
}

static const char *const fz_comms[] = {
	"w", "x", "other", "sp_load", "swapper/0", "",
};

static const char *const fz_marks[] = {
	"a", "b", "start", "end", "pb_reset", "sp_freq cpu=2 khz=3200000",
	"sp_freq cpu=4000000000 khz=18446744073709551615",
};

static void fz_select(struct fz *z, struct rep_trace *t, struct rep_select *s)
{
	s->pid = fz_pid(z);
	fz_str(z, fz_comms, 6, s->comm, sizeof(s->comm));
	s->util = (int32_t)fz_num(z);
	s->prev_cpu = fz_cpu(z);
	s->cfs_cpu = fz_cpu(z);
	s->policy_cpu = fz_cpu(z);
	s->ret_cpu = fz_cpu(z);
	s->applied = (int32_t)(fz_u8(z) % 3) - 1;
	s->reason = fz_name(z, &t->reasons, sp_reason_names, SP_R_NR);
	s->mode = fz_name(z, &t->modes, sp_mode_names, SP_MODE_NR);
	s->wake = fz_name(z, &t->wakes, sp_wake_names, SP_WAKE_NR);
	s->cfs_nj = fz_num(z);
	s->chosen_nj = fz_num(z);
	s->busy_nj = fz_num(z);
	s->idle_nj = fz_num(z);
	s->wake_nj = fz_num(z);
	s->pstate_nj = fz_num(z);
	s->static_nj = fz_num(z);
	s->queue_us = fz_num(z);
	s->lat_bound_us = fz_num(z);
	t->fmt.has_select = true;
}

/* power:cpu_idle's state (0..2 or the exit) or cpu_frequency's kHz. */
static uint64_t fz_pw_value(struct fz *z, bool idle)
{
	uint8_t b = fz_u8(z);

	if (b >= FZ_ANY)
		return fz_bytes(z, 4);
	if (idle)
		return b % 4 == 3 ? REP_IDLE_EXIT : b % 4;
	return (uint64_t)b * 100000;
}

/* The fields of @e (kind and time set); false: not an event the reader keeps. */
static bool fz_event(struct fz *z, struct rep_trace *t, struct rep_event *e)
{
	switch (e->kind) {
	case REP_EV_SELECT:
		fz_select(z, t, &e->sel);
		break;
	case REP_EV_SP_IDLE:
		e->spi.cpu = fz_cpu(z);
		e->spi.state = (int32_t)fz_num(z);
		e->spi.residency_us = (uint64_t)fz_num(z);
		e->spi.target_us = (uint64_t)fz_num(z);
		e->spi.verdict = fz_name(z, &t->verdicts, sp_verdict_names, SP_V_NR);
		t->fmt.has_sp_idle = true;
		break;
	case REP_EV_CPU_IDLE:
	case REP_EV_CPU_FREQ:
		e->pw.cpu = fz_cpu(z);
		e->pw.value = fz_pw_value(z, e->kind == REP_EV_CPU_IDLE);
		if (e->kind == REP_EV_CPU_IDLE)
			t->fmt.has_cpu_idle = true;
		else
			t->fmt.has_cpu_freq = true;
		break;
	case REP_EV_WAKING:
	case REP_EV_WAKEUP_NEW:
	case REP_EV_WAKEUP:
		e->wk.pid = fz_pid(z);
		e->wk.target_cpu = fz_cpu(z);
		fz_str(z, fz_comms, 6, e->wk.comm, sizeof(e->wk.comm));
		if (e->kind == REP_EV_WAKEUP)
			t->fmt.has_wakeup = true;
		else
			t->fmt.has_waking = true;
		break;
	case REP_EV_MIGRATE:
		e->mg.pid = fz_pid(z);
		e->mg.orig_cpu = fz_cpu(z);
		e->mg.dest_cpu = fz_cpu(z);
		fz_str(z, fz_comms, 6, e->mg.comm, sizeof(e->mg.comm));
		t->fmt.has_migrate = true;
		break;
	case REP_EV_SWITCH:
		e->sw.prev_pid = fz_pid(z);
		e->sw.next_pid = fz_pid(z);
		e->sw.prev_state = fz_num(z);
		fz_str(z, fz_comms, 6, e->sw.next_comm, sizeof(e->sw.next_comm));
		t->fmt.has_switch = true;
		break;
	case REP_EV_MARKER:
		fz_str(z, fz_marks, 7, e->mark, sizeof(e->mark));
		break;
	case REP_EV_BALANCE:
		e->lb.cpu = fz_cpu(z);
		e->lb.passed = (int32_t)fz_num(z);
		e->lb.reason = fz_name(z, &t->gates, sp_gate_names, SP_GATE_NR);
		t->fmt.has_balance = true;
		break;
	default:
		return false;	/* REP_EV_OTHER: counted by the reader, not kept */
	}
	return true;
}

/* The format flags the reader sets from the event formats it found. */
static void fz_format(struct fz *z, struct rep_trace *t)
{
	uint8_t b = fz_u8(z);

	t->fmt.v01 = b & 1;
	t->fmt.has_mode = b & 2;
	t->fmt.has_applied = b & 4;
	t->fmt.has_queue = b & 8;
	t->fmt.has_lat_bound = b & 16;
	t->fmt.has_static = b & 32;
	t->fmt.has_model_cpu = b & 64;
	b = fz_u8(z);
	t->nr_cpus = b >= FZ_ANY ? (uint32_t)fz_bytes(z, 4) : b % 10;
	t->lost = fz_u8(z) & 1 ? (uint64_t)fz_num(z) : 0;
}

static void fz_trace(struct fz *z, struct rep_trace *t)
{
	struct rep_event e;
	uint64_t ts_ns = 1000000;
	uint16_t step;

	while (z->n && t->nr < FZ_MAX_EVENTS) {
		memset(&e, 0, sizeof(e));
		e.kind = fz_u8(z) % (REP_EV_OTHER + 1);
		step = (uint16_t)fz_bytes(z, 2);
		if (step & 0x8000)
			ts_ns -= ts_ns < (step & 0x7fffu) * 1000ull ? ts_ns :
				 (step & 0x7fffu) * 1000ull;
		else
			ts_ns += step * 1000ull;
		e.ts_ns = ts_ns;
		e.cpu = fz_cpu(z);
		if (e.cpu >= 0 && e.cpu < SP_MAX_CPUS)
			t->cpu_seen[e.cpu / 64] |= 1ull << (e.cpu % 64);
		t->nr_records++;
		if (fz_event(z, t, &e) && rep_trace_push(t, &e))
			abort();
	}
}

/* The options byte: model, --slowdown, --idle-deepest, --window, --span. */
static void fz_options(uint8_t b, struct rep_result *r)
{
	r->path = "fuzz";
	snprintf(r->model_path, sizeof(r->model_path), "builtin");
	r->slowdown = b & 2 ? 2.5 : 0;
	r->idle_deepest = b & 4;
	if (b & 8) {
		r->win_from = "a";
		r->win_to = "b";
	} else if (b & 16) {
		r->span_from_ns = 1000000;
		r->span_to_ns = b & 32 ? 5000000 : 900000;
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char *const text[] = { x86_2pkg, phone };
	static const size_t len[] = { sizeof(x86_2pkg) - 1, sizeof(phone) - 1 };
	struct sp_parse_error pe;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		fz_models[i] = malloc(sizeof(*fz_models[i]));
		if (!fz_models[i] || sp_model_parse(text[i], len[i], fz_models[i], &pe))
			abort();
	}
	fz_null = fopen("/dev/null", "w");
	if (!fz_null)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz z = { data, size };
	const struct sp_model *m;
	struct rep_result *r;
	struct rep_trace t;
	uint8_t opts;

	memset(&t, 0, sizeof(t));
	opts = fz_u8(&z);
	m = fz_models[opts & 1];
	fz_format(&z, &t);
	fz_trace(&z, &t);
	r = calloc(1, sizeof(*r));
	if (!r)
		abort();
	fz_options(opts, r);
	if (!rep_analyse(r, &t, m)) {
		fuzz_rep_print_all(fz_null, r, m, "w,x");
	}
	rep_result_free(r);
	free(r);
	rep_trace_free(&t);
	return 0;
}
