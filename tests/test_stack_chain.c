// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of scripts/stack-chain.py (make stack-chain) on the hand-written
 * call graphs in tests/data/stack-chain/, in gcc's -fcallgraph-info=su form:
 * the heaviest path wins over the largest first frame, frames are summed
 * once each across files and recursion, and every failure is loud.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

static char out[8192];

/* The parser's output for @args on the sample graphs; its exit status. */
static int parse(const char *args)
{
	char cmd[1024];
	size_t n;
	FILE *p;
	int rc;

	snprintf(cmd, sizeof(cmd), "python3 %s/scripts/stack-chain.py %s 2>&1",
		 SC_TOP, args);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = 0;
	rc = pclose(p);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* @line is one whole line of the last output. */
static void has_line(const char *line)
{
	const char *at = out;
	size_t len = strlen(line);

	while ((at = strstr(at, line))) {
		if ((at == out || at[-1] == '\n') && (at[len] == '\n' || !at[len]))
			return;
		at += len;
	}
	fail_msg("no line \"%s\" in:\n%s", line, out);
}

#define SAMPLE	SC_TOP "/tests/data/stack-chain"

/*
 * e calls shallow (100 B, the largest first frame) and mid (32 B, defined in
 * the other file), whose chain goes deeper: 16 + 32 + 48 + 64 + 16 + 200.
 */
static void test_worst_path_and_sum(void **s)
{
	assert_int_equal(parse(SAMPLE " e"), 0);
	has_line("stack_chain entry=e bytes=376 path=e>mid>deep1>deep2>cyc>cyc2");
	has_line("stack_chain_frames entry=e e=16(static) mid=32(static) "
		 "deep1=48(dynamic,bounded) deep2=64(dynamic) cyc=16(static) cyc2=200(static)");
}

/* kernel leaves, the indirect call, the recursion and the unbounded frame */
static void test_reported(void **s)
{
	assert_int_equal(parse(SAMPLE " e"), 0);
	has_line("stack_chain_calls entry=e kernel=printk indirect=e@a.c:14 "
		 "recursion=cyc2>cyc unbounded=deep2");
}

/* a cycle counts each function once, whichever entry reaches it first */
static void test_recursion_once(void **s)
{
	assert_int_equal(parse(SAMPLE " e cyc2 r1"), 0);
	has_line("stack_chain entry=cyc2 bytes=216 path=cyc2>cyc");
	has_line("stack_chain entry=r1 bytes=64 path=r1>r2");
	has_line("stack_chain_calls entry=r1 kernel=__stack_chk_fail indirect=none "
		 "recursion=r2>r1 unbounded=none");
}

/* the hook's line against the aim; a dropped call is said */
static void test_hook_and_drop(void **s)
{
	assert_int_equal(parse("--hook hook " SAMPLE " hook"), 0);
	has_line("stack_chain entry=hook bytes=384 path=hook>e>mid>deep1>deep2>cyc>cyc2");
	has_line("stack_chain hook=hook bytes=384 aim=512 ratio=0.750");
	assert_int_equal(parse("--aim 256 --drop 'deep2>cyc' --hook e " SAMPLE " e"), 0);
	has_line("stack_chain_dropped edge=deep2>cyc calls=1");
	has_line("stack_chain entry=e bytes=160 path=e>mid>deep1>deep2");
	has_line("stack_chain hook=e bytes=160 aim=256 ratio=0.625");
}

/* nothing to read, an unknown entry or call: exit 1, never a quiet pass */
static void test_failures(void **s)
{
	assert_int_equal(parse(SC_TOP "/tests/data/stack-chain/none e"), 1);
	has_line("stack-chain: FAIL: no .ci files under " SC_TOP "/tests/data/stack-chain/none");
	assert_int_equal(parse(SAMPLE " e no_such_fn"), 1);
	has_line("stack-chain: FAIL: entry no_such_fn: not found");
	assert_int_equal(parse("--drop 'e>deep1' " SAMPLE " e"), 1);
	has_line("stack-chain: FAIL: --drop e>deep1: no such call");
	assert_int_equal(parse("--hook r1 " SAMPLE " e"), 1);
	has_line("stack-chain: FAIL: hook r1 is not among the entries");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worst_path_and_sum),
		cmocka_unit_test(test_reported),
		cmocka_unit_test(test_recursion_once),
		cmocka_unit_test(test_hook_and_drop),
		cmocka_unit_test(test_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
