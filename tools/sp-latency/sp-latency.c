// SPDX-License-Identifier: GPL-2.0
/*
 * sp-latency - run a command under a sched_power wake-up latency bound.
 *
 *   sp-latency --bound-us US [--thread | --pid PID] -- CMD [ARGS...]
 *   sp-latency --list
 *
 * The first form opens /dev/sched_power_latency, optionally retargets the
 * file (--thread: the calling thread, which becomes CMD's main thread;
 * --pid: the process PID, with CAP_SYS_NICE or as the owner of every
 * thread of it, if the LSM allows), writes US as
 * a binary s32 and execs CMD, which inherits the open file: the bound lasts
 * until CMD exits (or closes the fd).  The fd number is exported as
 * SP_LATENCY_FD.  --list prints the debugfs table
 * (/sys/kernel/debug/sched_power/latency): "pid kind bound_us holds" per
 * target, a "file" line per open file of the device, CPUs held
 * (Documentation/latency.rst), PIDs as the caller's namespace numbers them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "sched_power_latency.h"

#define SP_LAT_TABLE "/sys/kernel/debug/sched_power/latency"

static int usage(void)
{
	fprintf(stderr, "usage: sp-latency --bound-us US [--thread | --pid PID] -- CMD [ARGS...]\n"
			"       sp-latency --list\n");
	return 2;
}

static int list(void)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen(SP_LAT_TABLE, "r");

	if (!f) {
		perror(SP_LAT_TABLE);
		return 1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
	return 0;
}

static int number(const char *s, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return errno || end == s || *end || *out < 0 || *out > max ? -1 : 0;
}

int main(int argc, char **argv)
{
	long bound = -1, pid = 0;
	int thread = 0, i, fd;
	char env[16];
	int32_t v;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list"))
			return argc == 2 ? list() : usage();
		if (!strcmp(argv[i], "--thread")) {
			thread = 1;
		} else if (!strcmp(argv[i], "--bound-us") && i + 1 < argc) {
			if (number(argv[++i], SP_LAT_MAX_BOUND_US, &bound))
				return usage();
		} else if (!strcmp(argv[i], "--pid") && i + 1 < argc) {
			if (number(argv[++i], INT32_MAX, &pid) || !pid)
				return usage();
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			return usage();
		}
	}
	if (bound < 0 || i >= argc || (thread && pid))
		return usage();
	fd = open(SP_LAT_DEVICE, O_RDWR);	/* no O_CLOEXEC: CMD keeps it */
	if (fd < 0) {
		perror(SP_LAT_DEVICE);
		return 1;
	}
	if (thread && ioctl(fd, SP_LAT_IOC_THREAD)) {
		perror("sp-latency: SP_LAT_IOC_THREAD");
		return 1;
	}
	v = (int32_t)pid;
	if (pid && ioctl(fd, SP_LAT_IOC_PID, &v)) {
		perror("sp-latency: SP_LAT_IOC_PID");
		return 1;
	}
	v = (int32_t)bound;
	if (write(fd, &v, sizeof(v)) != sizeof(v)) {
		perror("sp-latency: setting the bound");
		return 1;
	}
	snprintf(env, sizeof(env), "%d", fd);
	setenv("SP_LATENCY_FD", env, 1);
	execvp(argv[i], argv + i);
	perror(argv[i]);
	return 127;
}
