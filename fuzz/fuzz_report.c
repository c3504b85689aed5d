// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_report.c - libFuzzer harness for sp-report's trace.dat reader.
 *
 * Any input is written to a memfd and read as a trace.dat: rep_read_fd()
 * must fail with a message or succeed, and on success the analysis, the
 * idle replay, the counts and every output format must run, without a sanitizer
 * report.  Seeds are small recordings of the 0.1 event format
 * (fuzz/report-seeds/); libFuzzer truncates and mutates them.  Only
 * sp-report's own code is instrumented: libtracecmd and libtraceevent are
 * Debian's builds, so their bugs show as crashes, not as coverage.
 * Build and run: make fuzz-report [FUZZ_REPORT_RUNS=N].
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "report.h"
#include "test_models.h"	/* x86_2pkg: the model of the seeds' guest */

static struct sp_model *fuzz_model;
static FILE *fuzz_null;
static int fuzz_fd = -1;

static void fuzz_init(void)
{
	struct sp_parse_error pe;

	fuzz_model = malloc(sizeof(*fuzz_model));
	if (!fuzz_model || sp_model_parse(x86_2pkg, sizeof(x86_2pkg) - 1,
					  fuzz_model, &pe))
		abort();
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rep_opts o = { .max_tasks = 5 };
	struct rep_result *r;
	struct rep_trace t;
	char err[512];

	if (!fuzz_model)
		fuzz_init();
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
