/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_rep.h - what both sp-report fuzzers do with an analysed recording:
 * every output sp-report can print, to a sink.
 */
#ifndef FUZZ_REP_H
#define FUZZ_REP_H

#include <stdio.h>

#include "report.h"

/*
 * power-bench's one line (--counts): with a thread filter and @m, then
 * unfiltered without a model (the counts that need none).
 */
static inline void fuzz_rep_counts(FILE *out, struct rep_result *r,
				   const struct sp_model *m, const char *threads)
{
	struct rep_counts c;

	if (!rep_counts(&c, r, m, threads))
		rep_print_counts(out, r, &c);
	rep_counts_free(&c);
	if (!rep_counts(&c, r, NULL, NULL))
		rep_print_counts(out, r, &c);
	rep_counts_free(&c);
}

/* The text, CSV, JSON and diff reports, then the counts. */
static inline void fuzz_rep_print_all(FILE *out, struct rep_result *r,
				      const struct sp_model *m, const char *threads)
{
	struct rep_opts o = { .max_tasks = 5 };

	rep_print_text(out, r, &o);
	rep_print_csv(out, r);
	rep_print_json(out, r);
	rep_print_diff(out, r, r);
	fuzz_rep_counts(out, r, m, threads);
}

#endif
