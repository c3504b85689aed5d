// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_model.c - libFuzzer harness for the model text parser.
 *
 * Any input: sp_model_parse() must return 0, -EINVAL or -E2BIG without a
 * sanitizer report.  When it accepts the input, the model must validate,
 * format to text that parses again to the same model, and that text must be
 * a fixed point of format(parse()).  A few energy estimates are run on the
 * accepted model so that ASan/UBSan also cover sp_energy.c on odd tables.
 * The same bytes go through the streamed-text check (sp_model_stream.c) in
 * chunks whose sizes come from the input: it must end in the state of one
 * whole feed, never refuse a text the parser accepts, and the text up to
 * the chunk where "end" first counts (what the sysfs file applies) must
 * parse exactly as the whole text does.  (Inputs up to 4 KiB only: the
 * stream's state is a few bytes carried from line to line, and checking the
 * large mutated server models as well tripled the time of make fuzz.)
 * Any mismatch aborts.  Build and run: make fuzz [FUZZ_RUNS=N].
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sp_energy.h"

/* Stand-in while sp_state.c is absent; the real one wins when linked. */
__attribute__((weak)) u32 sp_state_cpu_util(const struct sp_state *st, u32 cpu,
					  u64 now_ns)
{
	return st->cpu[cpu].util;
}

#define OUT_MAX	(2 * SP_MODEL_TEXT_MAX)

static struct sp_model m1, m2;
static struct sp_state st;
static char t1[OUT_MAX], t2[OUT_MAX];

static void die(const char *what, const struct sp_parse_error *e)
{
	fprintf(stderr, "fuzz_model: %s (line %d field %s: %s)\n", what,
		e ? e->line : 0, e ? e->field : "", e && e->msg ? e->msg : "");
	abort();
}

static void clear_lines(struct sp_model *m)
{
	u32 i;

	m->src_line = 0;
	for (i = 0; i < SP_MAX_PDS; i++)
		m->pd[i].src_line = 0;
	for (i = 0; i < SP_MAX_LEVELS; i++)
		m->level[i].src_line = 0;
	for (i = 0; i < SP_MAX_GROUPS; i++)
		m->group[i].src_line = 0;
}

/* Estimates over a snapshot derived from the input bytes. */
static void estimate(const struct sp_model *m, const uint8_t *data, size_t size)
{
	struct sp_energy_terms t;
	u32 c, g;

	memset(&st, 0, sizeof(st));
	st.nr_cpus = m->nr_cpus;
	for (c = 0; c < SP_MAX_PDS; c++)
		st.pd_opp[c] = SP_OPP_MODELLED;
	for (c = 0; c < m->nr_cpus; c++) {
		uint8_t b = size ? data[c % size] : 0;

		st.cpu[c].util = (u32)b * 5;	/* 0..1275: beyond 1024 too */
		st.cpu[c].idle_state = (b & 7) == 7 ? SP_CPU_AWAKE : (s32)(b & 7);
	}
	for (g = 0; g < m->nr_groups; g++) {
		sp_atomic_set(&st.group[g].nr_awake, (int)(g & 1));
		st.group[g].awake_avg = size ? (u32)data[g % size] * 4 + 4 : 0;
	}
	if (m->nr_pds)
		st.pd_opp[0] = size ? (s32)(data[0] % 20) - 1 : 0;
	for (c = 0; c < m->nr_cpus && c < 8; c++) {
		sp_energy_delta(m, &st, 0, c, c * 200, c ? 1000u * c : 0xffffffffu, &t);
		if (t.total_nj != t.busy_nj + t.pstate_nj + t.idle_nj + t.wake_nj +
				  t.static_nj + t.future_nj ||
		    t.idle_nj > 0 || t.wake_nj < 0 || t.static_nj < 0 ||
		    t.future_nj < 0 || t.opp_after < t.opp_before)
			die("inconsistent energy terms", NULL);
	}
	for (c = 0; c < m->nr_pds; c++)
		if (m->pd[c].nr_opps && sp_energy_opp_floor(m, c) >= m->pd[c].nr_opps)
			die("OPP floor out of range", NULL);
	(void)sp_energy_power_uw(m, &st, 0);
}

/* Feed @data in chunks of 1..64 bytes (sizes from the data); where end counted. */
static int stream_chunks(const uint8_t *data, size_t size,
			 struct sp_model_stream *s, size_t *end_at)
{
	size_t off = 0, i = 0;
	int ret = 0;

	sp_model_stream_init(s);
	*end_at = 0;
	while (off < size && !ret) {
		size_t n = 1 + data[i++ % size] % 64;

		if (n > size - off)
			n = size - off;
		ret = sp_model_stream_feed(s, (const char *)data + off, n);
		off += n;
		if (!ret && !*end_at && sp_model_stream_ended(s))
			*end_at = off;
	}
	return ret;
}

static void stream_check(const uint8_t *data, size_t size, int parse_ret)
{
	struct sp_model_stream whole, part;
	struct sp_parse_error e;
	size_t end_at, n1, n2;
	int r1, r2, r3;

	sp_model_stream_init(&whole);
	r1 = sp_model_stream_feed(&whole, (const char *)data, size);
	r2 = stream_chunks(data, size, &part, &end_at);
	if (r1 != r2 || memcmp(&whole, &part, sizeof(whole)))
		die("stream state depends on the chunks", NULL);
	if (r1 && !parse_ret)
		die("stream refused a text the parser accepts", NULL);
	if (r1 || !end_at || end_at == size || size > SP_MODEL_TEXT_MAX)
		return;
	r3 = sp_model_parse((const char *)data, end_at, &m2, &e);
	if (!r3 != !parse_ret)
		die("the text up to end parses unlike the whole text", &e);
	if (r3)
		return;
	n1 = sp_model_format(&m1, t1, sizeof(t1));
	n2 = sp_model_format(&m2, t2, sizeof(t2));
	if (n1 != n2 || memcmp(t1, t2, n1))
		die("the text up to end gives another model", NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sp_parse_error e;
	size_t n1, n2;
	int ret;

	ret = sp_model_parse((const char *)data, size, &m1, &e);
	if (size <= 4096)
		stream_check(data, size, ret);
	if (ret == -EINVAL || ret == -E2BIG) {
		if (!e.msg || e.line < 0)
			die("error without a message", &e);
		return 0;
	}
	if (ret)
		die("unexpected return code", &e);
	if (sp_model_validate(&m1, &e))
		die("parsed model does not validate", &e);
	n1 = sp_model_format(&m1, t1, sizeof(t1));
	if (n1 >= sizeof(t1))
		die("formatted text too long", NULL);
	if (sp_model_parse(t1, n1, &m2, &e))
		die("formatted text does not parse", &e);
	n2 = sp_model_format(&m2, t2, sizeof(t2));
	if (n1 != n2 || memcmp(t1, t2, n1))
		die("format(parse(format(m))) != format(m)", NULL);
	clear_lines(&m1);
	clear_lines(&m2);
	if (memcmp(&m1, &m2, sizeof(m1)))
		die("parse(format(m)) != m", NULL);
	estimate(&m1, data, size);
	return 0;
}
