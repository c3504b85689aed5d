// SPDX-License-Identifier: GPL-2.0
/*
 * test_tlib.c - the host benchmarks' callgrind run (tools/lib/callgrind.c,
 * shared by bench_place, bench_idle and bench_gate) against a stand-in
 * `valgrind` first on PATH, which records its arguments and prints what the
 * test asks for, and the model loader's message (tools/lib/model_file.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "callgrind.h"
#include "model_file.h"

static char dir[] = "/tmp/test_tlib.XXXXXX";

static void write_file(const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The stand-in's arguments of its last run, "" if it did not run. */
static const char *last_args(void)
{
	static char line[8192];
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/args", dir);
	line[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return line;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	unlink(path);
	return line;
}

/*
 * The stand-in's next run prints @stdout_text and @stderr_text (valgrind
 * prints its summary on stderr: the run reads both) and exits @rc.
 */
static void stand_in(const char *stdout_text, const char *stderr_text, int rc)
{
	char script[1024];

	last_args();		/* forget the last run's */

	snprintf(script, sizeof(script),
		 "#!/bin/sh\nprintf '%%s\\n' \"$*\" > %s/args\nprintf '%s'\nprintf '%s' >&2\nexit %d\n",
		 dir, stdout_text, stderr_text, rc);
	write_file("valgrind", script);
}

static int setup(void **state)
{
	char path[PATH_MAX], bin[PATH_MAX];
	const char *old = getenv("PATH");

	if (!mkdtemp(dir))
		return -1;
	snprintf(bin, sizeof(bin), "%s/valgrind", dir);
	stand_in("", "", 0);
	if (chmod(bin, 0755))
		return -1;
	snprintf(path, sizeof(path), "%s:%s", dir, old ? old : "/usr/bin:/bin");
	return setenv("PATH", path, 1);
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

static void test_callgrind_total(void **state)
{
	static const char *const funcs[] = { "sp_acct_enter", "sp_acct_exit", NULL };

	stand_in("starting\n", "==7== Collected : 5\n==7== Collected : 123456789012\n", 0);
	assert_true(callgrind_instr(funcs, "%s --child %u %s", "./bench", 65536u, "m.model") ==
		    123456789012ll);
	assert_string_equal(last_args(), "--tool=callgrind --toggle-collect=sp_acct_enter "
			    "--toggle-collect=sp_acct_exit --callgrind-out-file=/dev/null "
			    "./bench --child 65536 m.model");
}

static void test_callgrind_no_funcs(void **state)
{
	static const char *const none[] = { NULL };

	stand_in("==7== Collected : 42\n", "", 0);
	assert_true(callgrind_instr(none, "%s", "./bench") == 42);
	assert_string_equal(last_args(), "--tool=callgrind --callgrind-out-file=/dev/null ./bench");
}

/* A run that fails, or prints no total, counts nothing. */
static void test_callgrind_failed(void **state)
{
	static const char *const funcs[] = { "f", NULL };

	stand_in("", "==7== Collected : 42\n", 1);
	assert_true(callgrind_instr(funcs, "./bench") == -1);
	stand_in("", "valgrind: no such tool\n", 0);
	assert_true(callgrind_instr(funcs, "./bench") == -1);
}

/* A command line longer than 4 KiB is refused, not cut short and run. */
static void test_callgrind_too_long(void **state)
{
	static const char *const funcs[] = { "f", NULL };
	static char arg[4096];

	memset(arg, 'a', sizeof(arg) - 1);
	stand_in("==7== Collected : 42\n", "", 0);
	assert_true(callgrind_instr(funcs, "./bench %s", arg) == -1);
	assert_string_equal(last_args(), "");
	/*
	 * "valgrind --tool=callgrind --toggle-collect=f
	 * --callgrind-out-file=/dev/null ./bench " is 84 bytes, " 2>&1" 5:
	 * an argument of 4007 leaves no room for the NUL, one of 4006 does.
	 */
	arg[4007] = '\0';
	assert_true(callgrind_instr(funcs, "./bench %s", arg) == -1);
	assert_string_equal(last_args(), "");
	arg[4006] = '\0';
	assert_true(callgrind_instr(funcs, "./bench %s", arg) == 42);
	assert_int_equal(strlen(last_args()), 84 - strlen("valgrind ") + 4006);
}

/* The loader's message names the tool, the file and why. */
static void test_model_file_warn(void **state)
{
	static struct sp_model m;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/none.model", dir);
	assert_int_equal(model_file_load_warn("test_tlib", path, &m), -1);
	write_file("bad.model", "garbage\n");
	snprintf(path, sizeof(path), "%s/bad.model", dir);
	assert_int_equal(model_file_load_warn("test_tlib", path, &m), -1);
	assert_int_equal(model_file_load_warn("test_tlib", "models/x86-2pkg.model", &m), 0);
	assert_int_equal(m.nr_cpus, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_callgrind_total),
		cmocka_unit_test(test_callgrind_no_funcs),
		cmocka_unit_test(test_callgrind_failed),
		cmocka_unit_test(test_callgrind_too_long),
		cmocka_unit_test(test_model_file_warn),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
