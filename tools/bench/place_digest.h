/* SPDX-License-Identifier: GPL-2.0 */
/*
 * place_digest.h - a 64-bit digest of the placement core's decisions, and
 * the comparison with the committed one (tools/bench/place-digest.txt).
 */
#ifndef PLACE_DIGEST_H
#define PLACE_DIGEST_H

#include <stdio.h>

#include "sp_place.h"

/* place_equiv --digest's defaults: decisions per model and mode, and seed. */
#define PLACE_DIGEST_N		20000
#define PLACE_DIGEST_SEED	1

/* The committed digest, relative to the top of the tree. */
#define PLACE_DIGEST_FILE	"tools/bench/place-digest.txt"

/**
 * struct place_digest - the digest of one run of decisions
 * @n: decisions added
 * @cpu: FNV-1a 64 over each decision's cpu, ret_cpu and override
 * @all: FNV-1a 64 over every output field of each decision
 * @reason: decisions per reason (enum sp_reason)
 */
struct place_digest {
	unsigned long n;
	u64 cpu;
	u64 all;
	unsigned long reason[SP_R_NR];
};

/**
 * place_digest_init() - an empty digest
 * @pd: the digest
 */
void place_digest_init(struct place_digest *pd);

/**
 * place_digest_add() - add one decision to a digest
 * @pd: the digest
 * @d: the decision, as the trace event records it (after
 *     sp_place_w_energy())
 *
 * Each field is hashed as its value, least significant byte first, never
 * as the struct's bytes: padding is not hashed, and the digest is the same
 * on every host and compiler.
 */
void place_digest_add(struct place_digest *pd, const struct sp_decision *d);

/**
 * place_digest_line() - a digest's line
 * @buf: the line, without its newline
 * @len: size of @buf
 * @model: the model's name (its file name without ".model")
 * @mode: the mode's name
 * @pd: the digest
 *
 * "digest model=M mode=X n=N cpu=HEX all=HEX", HEX 16 digits.
 */
void place_digest_line(char *buf, size_t len, const char *model, const char *mode,
		       const struct place_digest *pd);

/**
 * place_digest_check() - a run's digest lines against the expected ones
 * @out: where each difference is said
 * @file: the expected lines' file, named in the messages
 * @expected: its text
 * @actual: the run's output (lines other than "digest ..." are skipped)
 *
 * Lines are matched by model and mode.  Said on @out for each: the CPUs
 * changed (cpu differs), the CPUs did not but an energy, a term, a latency
 * or a reason did (only all differs), a different n, a line missing from
 * either side; then how to regenerate @file.
 *
 * Return: the number of differences, 0 if none; -1 if a text holds more
 * lines than the check keeps.
 */
int place_digest_check(FILE *out, const char *file, const char *expected,
		       const char *actual);

#endif /* PLACE_DIGEST_H */
