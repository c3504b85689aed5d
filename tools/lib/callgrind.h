/* SPDX-License-Identifier: GPL-2.0 */
/*
 * callgrind.h - the instructions callgrind counts in a run of a command,
 * for the host benchmarks that rerun themselves under valgrind
 * (bench_place, bench_idle, bench_gate).
 */
#ifndef CALLGRIND_H
#define CALLGRIND_H

/**
 * callgrind_instr() - callgrind's instruction count of a child run
 * @funcs: NULL-terminated names of the functions to count, each passed as
 *         valgrind's --toggle-collect= (their callees are counted too)
 * @fmt: printf format of the command to run: the tool itself and the
 *       arguments of its child mode; given to the shell, so no argument may
 *       hold a space or a shell character
 *
 * Runs `valgrind --tool=callgrind --toggle-collect=F... --callgrind-out-file=/dev/null
 * COMMAND 2>&1` and reads the total from the line "Collected : N".
 *
 * Return: N (the last such line), or -1 if the command line is longer than
 * 4 KiB, valgrind cannot be started, the run exits non-zero or prints no
 * total.
 */
long long callgrind_instr(const char *const funcs[], const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* CALLGRIND_H */
