// SPDX-License-Identifier: GPL-2.0
/*
 * place_digest.c - a 64-bit digest of the placement core's decisions, and
 * the comparison with the committed one.
 *
 * make place-equiv compares the fast decision with the exhaustive one of
 * the same build, so a change both share (an energy term, a margin) passes
 * it.  The digest pins the decisions themselves: place_equiv --digest
 * hashes every output field of the decisions it makes on seeded random
 * snapshots, per model and mode, and make place-digest (and the host test
 * test_digest) compare that with tools/bench/place-digest.txt.  Any change
 * of a decision then fails until the file is regenerated (make
 * place-digest-update) and the commit says why the decisions changed.
 */
#include <stdio.h>
#include <string.h>

#include "place_digest.h"

#define FNV64_OFFSET	0xcbf29ce484222325ull
#define FNV64_PRIME	0x100000001b3ull

/* Lines one check keeps per side: models x modes, with room. */
#define PD_MAX_LINES	128

/* FNV-1a over @v's eight bytes, least significant first, whatever the host. */
static u64 pd_mix(u64 h, u64 v)
{
	int i;

	for (i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= FNV64_PRIME;
	}
	return h;
}

void place_digest_init(struct place_digest *pd)
{
	memset(pd, 0, sizeof(*pd));
	pd->cpu = FNV64_OFFSET;
	pd->all = FNV64_OFFSET;
}

static u64 pd_mix_terms(u64 h, const struct sp_energy_terms *e)
{
	h = pd_mix(h, (u64)e->busy_nj);
	h = pd_mix(h, (u64)e->pstate_nj);
	h = pd_mix(h, (u64)e->idle_nj);
	h = pd_mix(h, (u64)e->wake_nj);
	h = pd_mix(h, (u64)e->static_nj);
	h = pd_mix(h, (u64)e->future_nj);
	h = pd_mix(h, (u64)e->total_nj);
	h = pd_mix(h, e->opp_before);
	h = pd_mix(h, e->opp_after);
	return pd_mix(h, e->groups_woken);
}

/*
 * Every field of struct sp_decision the core writes, in the struct's order.
 * util, prev_cpu, cfs_cpu, wake and mode repeat the inputs, but the caller
 * reads them back (sp_place_note_util()), so they are outputs too.  Left
 * out: applied, which only the caller sets, after its own final check (the
 * core leaves it false).
 */
void place_digest_add(struct place_digest *pd, const struct sp_decision *d)
{
	u64 h = pd->all;

	pd->cpu = pd_mix(pd->cpu, d->cpu);
	pd->cpu = pd_mix(pd->cpu, (u64)(s64)d->ret_cpu);
	pd->cpu = pd_mix(pd->cpu, d->override);

	h = pd_mix(h, d->cpu);
	h = pd_mix(h, (u64)(s64)d->ret_cpu);
	h = pd_mix(h, d->util);
	h = pd_mix(h, d->prev_cpu);
	h = pd_mix(h, d->cfs_cpu);
	h = pd_mix(h, d->wake);
	h = pd_mix(h, d->mode);
	h = pd_mix(h, d->reason);
	h = pd_mix(h, d->override);
	h = pd_mix(h, d->nr_candidates);
	h = pd_mix(h, (u64)d->cfs_nj);
	h = pd_mix(h, (u64)d->chosen_nj);
	h = pd_mix_terms(h, &d->terms);
	h = pd_mix(h, d->lat_bound_us);
	h = pd_mix(h, d->wake_lat_us);
	h = pd_mix(h, d->lat_miss);
	h = pd_mix(h, d->queued);
	h = pd_mix(h, d->queue_us);
	h = pd_mix(h, d->slower);
	pd->all = h;

	pd->n++;
	if (d->reason < SP_R_NR)
		pd->reason[d->reason]++;
}

void place_digest_line(char *buf, size_t len, const char *model, const char *mode,
		       const struct place_digest *pd)
{
	snprintf(buf, len, "digest model=%s mode=%s n=%lu cpu=%016llx all=%016llx",
		 model, mode, pd->n, (unsigned long long)pd->cpu,
		 (unsigned long long)pd->all);
}

struct pd_entry {
	char model[64];
	char mode[32];
	unsigned long n;
	unsigned long long cpu, all;
	bool seen;
};

static const char *pd_next_line(const char *line)
{
	line = strchr(line, '\n');
	return line ? line + 1 : NULL;
}

/* The "digest ..." lines of @text into @e; their number, or -1 if too many. */
static int pd_parse(const char *text, struct pd_entry *e)
{
	const char *line;
	int nr = 0;

	for (line = text; line && *line; line = pd_next_line(line)) {
		struct pd_entry *x = &e[nr];

		if (strncmp(line, "digest ", 7))
			continue;
		if (nr == PD_MAX_LINES)
			return -1;
		memset(x, 0, sizeof(*x));
		if (sscanf(line, "digest model=%63s mode=%31s n=%lu cpu=%llx all=%llx",
			   x->model, x->mode, &x->n, &x->cpu, &x->all) == 5)
			nr++;
	}
	return nr;
}

static struct pd_entry *pd_find(struct pd_entry *e, int nr, const struct pd_entry *key)
{
	int i;

	for (i = 0; i < nr; i++)
		if (!strcmp(e[i].model, key->model) && !strcmp(e[i].mode, key->mode))
			return &e[i];
	return NULL;
}

/* One expected line against the run's; 1 if they differ, after saying how. */
static int pd_compare(FILE *out, const char *file, const struct pd_entry *want,
		      const struct pd_entry *got)
{
	const char *at = "place-digest: model=";

	if (!got) {
		fprintf(out, "%s%s mode=%s: in %s, not in this run\n",
			at, want->model, want->mode, file);
		return 1;
	}
	if (want->n != got->n) {
		fprintf(out, "%s%s mode=%s: n=%lu, %s has n=%lu\n",
			at, want->model, want->mode, got->n, file, want->n);
		return 1;
	}
	if (want->cpu != got->cpu) {
		fprintf(out, "%s%s mode=%s: the CPUs chosen changed (cpu=%016llx, %s has %016llx)\n",
			at, want->model, want->mode, got->cpu, file, want->cpu);
		return 1;
	}
	if (want->all != got->all) {
		fprintf(out, "%s%s mode=%s: the same CPUs, but an energy, a term, a latency or a reason changed (all=%016llx, %s has %016llx)\n",
			at, want->model, want->mode, got->all, file, want->all);
		return 1;
	}
	return 0;
}

int place_digest_check(FILE *out, const char *file, const char *expected,
		       const char *actual)
{
	static struct pd_entry want[PD_MAX_LINES], got[PD_MAX_LINES];
	int nr_want = pd_parse(expected, want);
	int nr_got = pd_parse(actual, got);
	int i, bad = 0;

	if (nr_want < 0 || nr_got < 0) {
		fprintf(out, "place-digest: more than %d digest lines\n", PD_MAX_LINES);
		return -1;
	}
	if (!nr_want) {
		fprintf(out, "place-digest: no digest lines in %s\n", file);
		bad++;
	}
	for (i = 0; i < nr_want; i++) {
		struct pd_entry *g = pd_find(got, nr_got, &want[i]);

		bad += pd_compare(out, file, &want[i], g);
		if (g)
			g->seen = true;
	}
	for (i = 0; i < nr_got; i++) {
		if (got[i].seen)
			continue;
		fprintf(out, "place-digest: model=%s mode=%s: in this run, not in %s\n",
			got[i].model, got[i].mode, file);
		bad++;
	}
	if (!bad)
		return 0;
	fprintf(out, "place-digest: %d difference%s: the placement core's decisions changed.\n",
		bad, bad == 1 ? "" : "s");
	fprintf(out, "place-digest: if that is intended, run `make place-digest-update` (it rewrites %s) and say in the commit message why the decisions changed.\n",
		file);
	return bad;
}
