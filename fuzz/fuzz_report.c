// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_report.c - libFuzzer harness for sp-report's trace.dat reader.
 *
 * Every input is one of the seed recordings (fuzz/report-seeds/) with the
 * payloads of its records rewritten: the first byte picks the seed, the
 * rest is laid over the records' payloads (the event's bytes after the
 * ring buffer's record header, common_type included) one after the other in
 * file order; payload bytes past the input's end keep the seed's values.
 * The file's headers, the ring buffer's page headers and record headers
 * are the seed's, so libtracecmd and libtraceevent walk a well-formed file
 * and sp-report's decoding (event ids, fields by name, __data_loc strings,
 * symbolic values), its analysis and every output run on any field value.
 * Headers and pages are not mutated because Debian's libtracecmd 3.1.6 and
 * libtraceevent 1.7.1 crash in their own code on such files
 * (Documentation/sp-report.rst, "What is fuzzed"); fuzz_events.c fuzzes
 * the analysis on any event stream, without a file.
 *
 * Each file is written to a memfd and read with rep_read_fd(): it must
 * fail with a message or succeed, and on success the analysis, the idle
 * replay, the counts and every output format must run, without a sanitizer
 * report.  Only sp-report's code is instrumented.
 * FUZZ_REPORT_SEED_OUT=DIR writes one input per seed (the seed's own
 * payloads) to DIR and exits: the corpus make fuzz-report starts from.
 * Build and run: make fuzz-report [FUZZ_REPORT_RUNS=N].
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <trace-cmd.h>
#include <event-parse.h>

#include "fuzz_rep.h"
#include "report.h"
#include "test_models.h"	/* x86_2pkg: the model of the seeds' guest */

#define FUZZ_MAX_SEEDS		8
#define FUZZ_MAX_PAYLOADS	4096

/* Where a record's payload lies in its seed file. */
struct fuzz_payload {
	uint64_t off;
	uint32_t len;
};

struct fuzz_seed {
	uint8_t *dat, *file;		/* the seed; the file under test */
	size_t len;
	struct fuzz_payload pl[FUZZ_MAX_PAYLOADS];
	uint32_t nr_pl;
};

static struct fuzz_seed fuzz_seeds[FUZZ_MAX_SEEDS];
static unsigned int fuzz_nr_seeds;
static struct sp_model *fuzz_model;
static FILE *fuzz_null;
static int fuzz_fd = -1;

/* The payload of @rec, found in the seed file and checked byte for byte. */
static int fuzz_collect(struct tracecmd_input *h, struct tep_record *rec, int cpu,
			void *data)
{
	struct fuzz_seed *s = data;
	struct fuzz_payload *p = &s->pl[s->nr_pl];

	if (s->nr_pl == FUZZ_MAX_PAYLOADS || rec->size <= 0 ||
	    rec->record_size < rec->size)
		abort();
	p->off = rec->offset + (uint64_t)(rec->record_size - rec->size);
	p->len = (uint32_t)rec->size;
	if (p->off + p->len > s->len || memcmp(s->dat + p->off, rec->data, p->len))
		abort();
	s->nr_pl++;
	return 0;
}

static int fuzz_payload_cmp(const void *a, const void *b)
{
	const struct fuzz_payload *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static void fuzz_load_seed(const char *path)
{
	struct fuzz_seed *s = &fuzz_seeds[fuzz_nr_seeds];
	struct tracecmd_input *h;
	FILE *f = fopen(path, "rb");
	long n;

	if (!f || fseek(f, 0, SEEK_END))
		abort();
	n = ftell(f);
	if (n <= 0 || fseek(f, 0, SEEK_SET))
		abort();
	s->dat = malloc((size_t)n);
	s->file = malloc((size_t)n);
	if (!s->dat || !s->file || fread(s->dat, 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	s->len = (size_t)n;
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h)
		abort();
	tracecmd_iterate_events(h, NULL, 0, fuzz_collect, s);
	tracecmd_close(h);
	if (!s->nr_pl)
		abort();
	qsort(s->pl, s->nr_pl, sizeof(s->pl[0]), fuzz_payload_cmp);
	fuzz_nr_seeds++;
}

static void fuzz_load_seeds(void)
{
	DIR *d = opendir(SP_REPORT_SEEDS);
	struct dirent *de;
	char path[4096];
	size_t n;

	if (!d)
		abort();
	while ((de = readdir(d)) && fuzz_nr_seeds < FUZZ_MAX_SEEDS) {
		n = strlen(de->d_name);
		if (n < 4 || strcmp(de->d_name + n - 4, ".dat"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", SP_REPORT_SEEDS, de->d_name);
		fuzz_load_seed(path);
	}
	closedir(d);
	if (!fuzz_nr_seeds)
		abort();
}

/* FUZZ_REPORT_SEED_OUT: input k is byte k and seed k's payloads. */
static void fuzz_write_inputs(const char *dir)
{
	char path[4096];
	unsigned int i, j;
	FILE *f;

	for (i = 0; i < fuzz_nr_seeds; i++) {
		const struct fuzz_seed *s = &fuzz_seeds[i];

		snprintf(path, sizeof(path), "%s/payloads-%u", dir, i);
		f = fopen(path, "wb");
		if (!f || fputc((int)i, f) == EOF)
			abort();
		for (j = 0; j < s->nr_pl; j++)
			if (fwrite(s->dat + s->pl[j].off, 1, s->pl[j].len, f) != s->pl[j].len)
				abort();
		if (fclose(f))
			abort();
	}
	_exit(0);	/* before libFuzzer runs anything */
}

static void fuzz_init(void)
{
	struct sp_parse_error pe;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	fuzz_load_seeds();
	if (getenv("FUZZ_REPORT_SEED_OUT"))
		fuzz_write_inputs(getenv("FUZZ_REPORT_SEED_OUT"));
	fuzz_model = malloc(sizeof(*fuzz_model));
	if (!fuzz_model || sp_model_parse(x86_2pkg, sizeof(x86_2pkg) - 1,
					  fuzz_model, &pe))
		abort();
	fuzz_null = fopen("/dev/null", "w");
	fuzz_fd = memfd_create("fuzz_report", 0);
	if (!fuzz_null || fuzz_fd < 0)
		abort();
}

/* The seed the input picks, its payloads overwritten by the input's bytes. */
static const struct fuzz_seed *fuzz_file(const uint8_t *data, size_t size)
{
	struct fuzz_seed *s = &fuzz_seeds[size ? data[0] % fuzz_nr_seeds : 0];
	size_t at = 1, n;
	uint32_t i;

	memcpy(s->file, s->dat, s->len);
	for (i = 0; i < s->nr_pl && at < size; i++) {
		n = size - at < s->pl[i].len ? size - at : s->pl[i].len;
		memcpy(s->file + s->pl[i].off, data + at, n);
		at += n;
	}
	return s;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct fuzz_seed *s;
	struct rep_result *r;
	struct rep_trace t;
	char err[512];

	s = fuzz_file(data, size);
	if (ftruncate(fuzz_fd, 0) || pwrite(fuzz_fd, s->file, s->len, 0) != (ssize_t)s->len)
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
		fuzz_rep_print_all(fuzz_null, r, fuzz_model, "sp_load,x");
	}
	rep_result_free(r);
	/* again on the work timeline (--slowdown), which moves idle entries */
	memset(r, 0, sizeof(*r));
	r->path = "fuzz";
	r->slowdown = 2.5;
	if (!rep_analyse(r, &t, fuzz_model))
		fuzz_rep_counts(fuzz_null, r, fuzz_model, "sp_load,x");
	rep_result_free(r);
	free(r);
	rep_trace_free(&t);
	return 0;
}
