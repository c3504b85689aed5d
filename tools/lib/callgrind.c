// SPDX-License-Identifier: GPL-2.0
/*
 * callgrind.c - run a command under callgrind and read its instruction count.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callgrind.h"

#define CALLGRIND_CMD_MAX	4096
#define CALLGRIND_TOTAL		"Collected :"

/* Append to @cmd (@size bytes, @len used) as vsnprintf would; the new length. */
static size_t callgrind_vput(char *cmd, size_t size, size_t len, const char *fmt, va_list ap)
{
	int n;

	if (len >= size)
		return len;
	n = vsnprintf(cmd + len, size - len, fmt, ap);
	return n < 0 ? size : len + (size_t)n;
}

static size_t callgrind_put(char *cmd, size_t size, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static size_t callgrind_put(char *cmd, size_t size, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	len = callgrind_vput(cmd, size, len, fmt, ap);
	va_end(ap);
	return len;
}

/* The last "Collected : N" of the run's output, or -1. */
static long long callgrind_read(FILE *out)
{
	char line[512];
	long long ir = -1;

	while (fgets(line, sizeof(line), out)) {
		char *c = strstr(line, CALLGRIND_TOTAL);

		if (c)
			ir = atoll(c + strlen(CALLGRIND_TOTAL));
	}
	return ir;
}

long long callgrind_instr(const char *const funcs[], const char *fmt, ...)
{
	char cmd[CALLGRIND_CMD_MAX];
	long long ir;
	va_list ap;
	size_t len;
	FILE *p;

	len = callgrind_put(cmd, sizeof(cmd), 0, "valgrind --tool=callgrind");
	for (; *funcs; funcs++)
		len = callgrind_put(cmd, sizeof(cmd), len, " --toggle-collect=%s", *funcs);
	len = callgrind_put(cmd, sizeof(cmd), len, " --callgrind-out-file=/dev/null ");
	va_start(ap, fmt);
	len = callgrind_vput(cmd, sizeof(cmd), len, fmt, ap);
	va_end(ap);
	len = callgrind_put(cmd, sizeof(cmd), len, " 2>&1");
	if (len >= sizeof(cmd))
		return -1;
	p = popen(cmd, "r");
	if (!p)
		return -1;
	ir = callgrind_read(p);
	return pclose(p) == 0 ? ir : -1;
}
