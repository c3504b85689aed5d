// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_report.c - libFuzzer harness for sp-report's trace.dat reader.
 *
 * Every input is one of the seed recordings (fuzz/report-seeds/) with its
 * headers kept byte for byte and its data pages (the ring buffer's records,
 * from the first CPU's offset in the flyrecord section to the end)
 * mutated, cut or extended: the custom mutator below changes only the part
 * after the header, and an input whose header is no seed's is not read.
 * The headers are not fuzzed because Debian's libtracecmd 3.1.6 and
 * libtraceevent 1.7.1 crash on mutated headers in their own code (see
 * Documentation/sp-report.rst, "What is fuzzed"); sp-report's own decoding
 * of records, its analysis and outputs are fuzzed here on real event
 * formats, and fuzz_events.c fuzzes the analysis on any event stream.
 *
 * Each input is written to a memfd and read as a trace.dat: rep_read_fd()
 * must fail with a message or succeed, and on success the analysis, the
 * idle replay, the counts and every output format must run, without a
 * sanitizer report.  Only sp-report's code is instrumented: the libraries
 * are Debian's builds, so their bugs show as crashes, not as coverage.
 * Build and run: make fuzz-report [FUZZ_REPORT_RUNS=N].
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <unistd.h>

#include "report.h"
#include "test_models.h"	/* x86_2pkg: the model of the seeds' guest */

#define FUZZ_MAX_SEEDS	8

/* A seed recording and the length of its headers (its first data page). */
struct fuzz_seed {
	uint8_t *dat;
	size_t len, hdr_len;
};

static struct fuzz_seed fuzz_seeds[FUZZ_MAX_SEEDS];
static unsigned int fuzz_nr_seeds;
static struct sp_model *fuzz_model;
static FILE *fuzz_null;
static int fuzz_fd = -1;

/*
 * The headers end where the data pages begin: at the first CPU's offset,
 * the first 8-byte number after "flyrecord" (trace.dat version 6).
 */
static size_t fuzz_hdr_len(const uint8_t *dat, size_t len)
{
	static const char fly[] = "flyrecord";
	const uint8_t *p = memmem(dat, len, fly, sizeof(fly));
	uint64_t off;

	if (!p || (size_t)(p - dat) + sizeof(fly) + 8 > len)
		abort();
	memcpy(&off, p + sizeof(fly), 8);	/* little-endian seeds */
	if (off <= (uint64_t)(p - dat) || off >= len)
		abort();
	return (size_t)off;
}

static void fuzz_load_seed(const char *path)
{
	struct fuzz_seed *s = &fuzz_seeds[fuzz_nr_seeds];
	FILE *f = fopen(path, "rb");
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET))
		abort();
	s->dat = malloc((size_t)n);
	if (!s->dat || fread(s->dat, 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	s->len = (size_t)n;
	s->hdr_len = fuzz_hdr_len(s->dat, s->len);
	fuzz_nr_seeds++;
}

static void fuzz_load_seeds(void)
{
	DIR *d = opendir(SP_REPORT_SEEDS);
	struct dirent *de;
	char path[4096];

	if (!d)
		abort();
	while ((de = readdir(d)) && fuzz_nr_seeds < FUZZ_MAX_SEEDS) {
		size_t n = strlen(de->d_name);

		if (n < 4 || strcmp(de->d_name + n - 4, ".dat"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", SP_REPORT_SEEDS, de->d_name);
		fuzz_load_seed(path);
	}
	closedir(d);
	if (!fuzz_nr_seeds)
		abort();
}

/* The seed whose headers @data starts with, or NULL. */
static const struct fuzz_seed *fuzz_seed_of(const uint8_t *data, size_t size)
{
	unsigned int i;

	for (i = 0; i < fuzz_nr_seeds; i++)
		if (size >= fuzz_seeds[i].hdr_len &&
		    !memcmp(data, fuzz_seeds[i].dat, fuzz_seeds[i].hdr_len))
			return &fuzz_seeds[i];
	return NULL;
}

static void fuzz_init(void)
{
	struct sp_parse_error pe;

	fuzz_model = malloc(sizeof(*fuzz_model));
	if (!fuzz_model || sp_model_parse(x86_2pkg, sizeof(x86_2pkg) - 1,
					  fuzz_model, &pe))
		abort();
	fuzz_load_seeds();
	fuzz_null = fopen("/dev/null", "w");
	fuzz_fd = memfd_create("fuzz_report", 0);
	if (!fuzz_null || fuzz_fd < 0)
		abort();
}

/* power-bench's one line (--counts), with and without a thread filter. */
static void fuzz_counts(struct rep_result *r)
{
	struct rep_counts c;

	if (!rep_counts(&c, r, fuzz_model, "sp_load,x"))
		rep_print_counts(fuzz_null, r, &c);
	rep_counts_free(&c);
	if (!rep_counts(&c, r, fuzz_model, NULL))
		rep_print_counts(fuzz_null, r, &c);
	rep_counts_free(&c);
}

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/* Mutate the data pages only; an input with no seed's headers becomes a seed. */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int rnd)
{
	const struct fuzz_seed *s;

	if (!fuzz_model)
		fuzz_init();
	s = fuzz_seed_of(data, size);
	if (s && s->hdr_len > max_size)
		return size;
	if (!s) {
		s = &fuzz_seeds[rnd % fuzz_nr_seeds];
		if (s->len > max_size)
			return size;
		memcpy(data, s->dat, s->len);
		size = s->len;
	}
	return s->hdr_len + LLVMFuzzerMutate(data + s->hdr_len, size - s->hdr_len,
					     max_size - s->hdr_len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rep_opts o = { .max_tasks = 5 };
	struct rep_result *r;
	struct rep_trace t;
	char err[512];

	if (!fuzz_model)
		fuzz_init();
	if (!fuzz_seed_of(data, size))
		return -1;	/* not a seed's headers: not read, not kept */
	if (ftruncate(fuzz_fd, 0) || pwrite(fuzz_fd, data, size, 0) != (ssize_t)size)
		abort();
	if (rep_read_fd(fuzz_fd, &t, err, sizeof(err))) {
		if (!err[0])
			abort();	/* every failure has its one line */
		rep_trace_free(&t);
		return 0;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		abort();
	r->path = "fuzz";
	snprintf(r->model_path, sizeof(r->model_path), "builtin");
	if (!rep_analyse(r, &t, fuzz_model)) {
		rep_print_text(fuzz_null, r, &o);
		rep_print_csv(fuzz_null, r);
		rep_print_json(fuzz_null, r);
		rep_print_diff(fuzz_null, r, r);
		fuzz_counts(r);
	}
	rep_result_free(r);
	/* again on the work timeline (--slowdown), which moves idle entries */
	memset(r, 0, sizeof(*r));
	r->path = "fuzz";
	r->slowdown = 2.5;
	if (!rep_analyse(r, &t, fuzz_model))
		fuzz_counts(r);
	rep_result_free(r);
	free(r);
	rep_trace_free(&t);
	return 0;
}
