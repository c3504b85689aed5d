// SPDX-License-Identifier: GPL-2.0
/*
 * sp_load.c - workloads for the VM selftests and the VM benchmark.
 *
 * A static binary, so that the busybox guest can run it, and a single
 * process tree without fork/exec in its loops: a shell loop forks a process
 * per iteration, which under TCG costs more CPU than the "light" load it is
 * meant to be.
 *
 *   sp_load periodic N PERIOD_US BURST_US DURATION_MS
 *	N processes, each waking every PERIOD_US on an absolute timer and
 *	spinning BURST_US.  Prints the wake-ups and the worst and mean timer
 *	lateness (the wake-up latency the task saw), in us.
 *   sp_load pingpong PAIRS ROUNDS
 *	PAIRS pairs of processes passing one byte back and forth ROUNDS times
 *	over two pipes: 2 * ROUNDS wake-ups per pair.  Prints elapsed_us.
 *   sp_load chain N PERIOD_US BURST_US DURATION_MS [PRODUCER_CPU]
 *	One periodic producer (an audio-like timer task) that, every
 *	PERIOD_US, hands one byte to each of N workers over a pipe; each
 *	worker spins BURST_US per byte.  Wake-ups come from a running task,
 *	the case where the waker's package is known to be awake.  With
 *	PRODUCER_CPU the producer pins itself there after forking (the
 *	workers keep the full affinity mask), so that a test knows which
 *	package is the awake one.
 *   sp_load spin N DURATION_MS
 *	N processes spinning: a heavy, overutilising load.
 *   sp_load step PERIOD_US BURST_US STEP_MS DURATION_MS
 *	One task, periodic (BURST_US every PERIOD_US) for STEP_MS, then
 *	spinning until DURATION_MS: a task that outgrows its CPU.  At the
 *	step it writes "sp_load step" to the trace marker (tracefs), so a
 *	trace dates it; it prints its pid and the step's CLOCK_MONOTONIC us.
 *
 * Output is one line of key=value pairs on stdout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sp_clock.h"

static long arg(char **argv, int i)
{
	char *end;
	long v = strtol(argv[i], &end, 10);

	if (*end || v < 0) {
		fprintf(stderr, "sp_load: bad number '%s'\n", argv[i]);
		exit(2);
	}
	return v;
}

struct lat {
	uint64_t wakeups, max_us, sum_us;
};

static void periodic_child(long period_us, long burst_us, long dur_ms, int fd)
{
	struct timespec next;
	struct lat l = { 0 };
	uint64_t end = now_us() + (uint64_t)dur_ms * 1000u;

	clock_gettime(CLOCK_MONOTONIC, &next);
	while (now_us() < end) {
		uint64_t due, late;

		next.tv_nsec += period_us * 1000;
		while (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		due = (uint64_t)next.tv_sec * 1000000u + (uint64_t)next.tv_nsec / 1000u;
		late = now_us() - due;
		l.wakeups++;
		l.sum_us += late;
		if (late > l.max_us)
			l.max_us = late;
		spin_us((uint64_t)burst_us);
	}
	if (write(fd, &l, sizeof(l)) != sizeof(l))
		_exit(1);
	_exit(0);
}

static int periodic(int n, long period_us, long burst_us, long dur_ms)
{
	struct lat tot = { 0 }, l;
	int p[2], i;

	if (pipe(p))
		return 1;
	for (i = 0; i < n; i++)
		if (fork() == 0)
			periodic_child(period_us, burst_us, dur_ms, p[1]);
	close(p[1]);
	for (i = 0; i < n; i++) {
		if (read(p[0], &l, sizeof(l)) != sizeof(l))
			return 1;
		tot.wakeups += l.wakeups;
		tot.sum_us += l.sum_us;
		if (l.max_us > tot.max_us)
			tot.max_us = l.max_us;
	}
	while (wait(NULL) > 0)
		;
	printf("periodic tasks=%d wakeups=%llu max_late_us=%llu mean_late_us=%llu\n", n,
	       (unsigned long long)tot.wakeups, (unsigned long long)tot.max_us,
	       (unsigned long long)(tot.wakeups ? tot.sum_us / tot.wakeups : 0));
	return 0;
}

static void bounce(int in, int out, long rounds, int first)
{
	char c = 0;
	long i;

	for (i = 0; i < rounds; i++) {
		if (first && write(out, &c, 1) != 1)
			_exit(1);
		if (read(in, &c, 1) != 1)
			_exit(1);
		if (!first && write(out, &c, 1) != 1)
			_exit(1);
	}
	_exit(0);
}

static int pingpong(int pairs, long rounds)
{
	uint64_t t0 = now_us();
	int i;

	for (i = 0; i < pairs; i++) {
		int a[2], b[2];

		if (pipe(a) || pipe(b))
			return 1;
		if (fork() == 0)
			bounce(a[0], b[1], rounds, 1);
		if (fork() == 0)
			bounce(b[0], a[1], rounds, 0);
		close(a[0]);
		close(a[1]);
		close(b[0]);
		close(b[1]);
	}
	while (wait(NULL) > 0)
		;
	printf("pingpong pairs=%d rounds=%ld elapsed_us=%llu\n", pairs, rounds,
	       (unsigned long long)(now_us() - t0));
	return 0;
}

static void chain_worker(int in, long burst_us)
{
	char c;

	while (read(in, &c, 1) == 1)
		spin_us((uint64_t)burst_us);
	_exit(0);
}

static int chain(int n, long period_us, long burst_us, long dur_ms, int pin)
{
	uint64_t end = now_us() + (uint64_t)dur_ms * 1000u, rounds = 0;
	struct timespec next;
	int fds[64], i;

	if (n < 1 || n > 64)
		return 2;
	for (i = 0; i < n; i++) {
		int p[2];

		if (pipe(p))
			return 1;
		if (fork() == 0) {
			close(p[1]);
			chain_worker(p[0], burst_us);
		}
		close(p[0]);
		fds[i] = p[1];
	}
	if (pin >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(pin, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (now_us() < end) {
		next.tv_nsec += period_us * 1000;
		while (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		for (i = 0; i < n; i++)
			if (write(fds[i], "x", 1) != 1)
				return 1;
		rounds++;
	}
	for (i = 0; i < n; i++)
		close(fds[i]);
	while (wait(NULL) > 0)
		;
	printf("chain workers=%d rounds=%llu\n", n, (unsigned long long)rounds);
	return 0;
}

static void mark_step(void)
{
	static const char msg[] = "sp_load step\n";
	FILE *f = fopen("/sys/kernel/tracing/trace_marker", "w");

	if (!f)
		return;
	fwrite(msg, 1, sizeof(msg) - 1, f);
	fclose(f);
}

static int step(long period_us, long burst_us, long step_ms, long dur_ms)
{
	uint64_t t0 = now_us(), at;
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	while (now_us() < t0 + (uint64_t)step_ms * 1000u) {
		next.tv_nsec += period_us * 1000;
		while (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		spin_us((uint64_t)burst_us);
	}
	at = now_us();
	mark_step();
	spin_us(t0 + (uint64_t)dur_ms * 1000u > at ? t0 + (uint64_t)dur_ms * 1000u - at : 0);
	printf("step pid=%d step_us=%llu\n", (int)getpid(), (unsigned long long)at);
	return 0;
}

static int spin(int n, long dur_ms)
{
	int i;

	for (i = 0; i < n; i++)
		if (fork() == 0) {
			spin_us((uint64_t)dur_ms * 1000u);
			_exit(0);
		}
	while (wait(NULL) > 0)
		;
	printf("spin tasks=%d ms=%ld\n", n, dur_ms);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "periodic"))
		return periodic((int)arg(argv, 2), arg(argv, 3), arg(argv, 4), arg(argv, 5));
	if (argc == 4 && !strcmp(argv[1], "pingpong"))
		return pingpong((int)arg(argv, 2), arg(argv, 3));
	if ((argc == 6 || argc == 7) && !strcmp(argv[1], "chain"))
		return chain((int)arg(argv, 2), arg(argv, 3), arg(argv, 4), arg(argv, 5),
			     argc == 7 ? (int)arg(argv, 6) : -1);
	if (argc == 4 && !strcmp(argv[1], "spin"))
		return spin((int)arg(argv, 2), arg(argv, 3));
	if (argc == 6 && !strcmp(argv[1], "step"))
		return step(arg(argv, 2), arg(argv, 3), arg(argv, 4), arg(argv, 5));
	fprintf(stderr, "usage: sp_load periodic N PERIOD_US BURST_US DURATION_MS\n"
			"       sp_load chain N PERIOD_US BURST_US DURATION_MS [PRODUCER_CPU]\n"
			"       sp_load pingpong PAIRS ROUNDS\n"
			"       sp_load spin N DURATION_MS\n"
			"       sp_load step PERIOD_US BURST_US STEP_MS DURATION_MS\n");
	return 2;
}
