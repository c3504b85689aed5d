// SPDX-License-Identifier: GPL-2.0
/*
 * sp_lat.c - /dev/sched_power_latency scenarios for selftests/test_latency.sh.
 *
 * Static, for the busybox guest.  Each command prints one line of
 * key=value pairs on stdout (flushed) when its setup is done, then holds
 * its state for SECONDS (or until killed) so the test can read the table.
 *
 *   sp_lat threads N BOUND_US SECONDS sleep|busy
 *	Bound the process, start N threads, thread i pinned to CPU i mod
 *	ncpu.  sleep: each runs 2 ms there, waits for the others (still
 *	pinned), drops its pinning and blocks
 *	(the "one bound, many sleeping threads").  busy: each keeps
 *	waking every 2 ms on its CPU.
 *   sp_lat holds N BOUND_US SECONDS
 *	Open N files, write a bound on each (all on this process); print
 *	how many were accepted and the first error.
 *   sp_lat load FDS THREADS PERIOD_MS SECONDS
 *	FDS bounds on this process and THREADS threads each waking every
 *	PERIOD_MS for 50 us of work: the load that made QoS passes cost
 *	files x threads.  Prints the wake-ups done at the end.
 *   sp_lat userns OWNER NSUB N BOUND_US SECONDS
 *	As root: a child drops to uid OWNER and makes a user namespace;
 *	root maps uids 0-65535 in it to 100000-165535 (what newuidmap does
 *	for a subuid range); NSUB processes there, as uids 1..NSUB, each try
 *	"holds N".  Prints the bounds accepted in all.
 *   sp_lat writeloop MS
 *	Write 150 and 300 alternately for MS ms; print the writes done.
 *   sp_lat affinity BOUND_US DIR
 *	Bound the process, pinned to CPUs {2,3}; run there, touch DIR/a,
 *	wait for DIR/go, move itself to {0,1}, run 50 ms there, touch DIR/b
 *	and sleep 60 s without waking.
 *   sp_lat ranon CPU BOUND_US SECONDS
 *	Run on CPU, bound the process there, drop the pinning and sleep: its
 *	last CPU stays CPU until it wakes.
 *   sp_lat sleeper PERIOD_MS SECONDS
 *	Sleep PERIOD_MS at a time for SECONDS.
 *   sp_lat tidswitch SECONDS
 *	One thread switches its own credentials (not the process's) to uid
 *	65534; print its TID.
 *   sp_lat opener MS
 *	Open the device in a loop for MS ms, holding each open file 20 ms;
 *	print the opens that succeeded.
 *   sp_lat bpf-deny UID CMD [ARGS...]
 *	Attach a BPF LSM program to task_setscheduler that refuses every
 *	call made by uid UID, run CMD, detach; exit with CMD's status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../uapi/sched_power_latency.h"
#include "sp_clock.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static long num(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*end || end == s || v < 0) {
		fprintf(stderr, "sp_lat: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* An open device file with @bound_us written (thread group of the caller). */
static int bound_fd(long bound_us)
{
	char buf[16];
	int fd = open(SP_LAT_DEVICE, O_RDWR | O_CLOEXEC);
	int n;

	if (fd < 0)
		die(SP_LAT_DEVICE);
	n = snprintf(buf, sizeof(buf), "%ld", bound_us);
	if (write(fd, buf, n) != n)
		die("sp_lat: writing the bound");
	return fd;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static void pin_range(int first, int last)
{
	cpu_set_t set;
	int c;

	CPU_ZERO(&set);
	for (c = first; c <= last; c++)
		CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static void touch(const char *dir, const char *name)
{
	char p[256];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_WRONLY | O_CREAT, 0644);
	if (fd >= 0)
		close(fd);
}

static int exists(const char *dir, const char *name)
{
	char p[256];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return !stat(p, &st);
}

/* ---- threads ------------------------------------------------------------ */

struct thr {
	int cpu, busy;
	long seconds;
	pthread_barrier_t *ready;
};

static void *thr_fn(void *arg)
{
	struct thr *t = arg;
	uint64_t end = now_us() + (uint64_t)t->seconds * 1000000u;

	pin(t->cpu);
	spin_us(2000);
	/* pinned while it waits: its wake-up from the barrier stays on t->cpu */
	pthread_barrier_wait(t->ready);
	if (!t->busy) {
		/* a running task allowed where it runs stays there */
		pin_range(0, CPU_SETSIZE - 1);
		sleep_ms(t->seconds * 1000);
		return NULL;
	}
	while (now_us() < end) {
		spin_us(200);
		sleep_ms(2);
	}
	return NULL;
}

static int cmd_threads(int argc, char **argv)
{
	long n, bound, seconds, ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_barrier_t ready;
	pthread_t *tid;
	struct thr *t;
	long i;

	if (argc != 6)
		return 2;
	n = num(argv[2]);
	bound = num(argv[3]);
	seconds = num(argv[4]);
	tid = calloc(n, sizeof(*tid));
	t = calloc(n, sizeof(*t));
	if (!tid || !t || n < 1)
		return 2;
	bound_fd(bound);
	pthread_barrier_init(&ready, NULL, n + 1);
	for (i = 0; i < n; i++) {
		t[i] = (struct thr){ (int)(i % ncpu), !strcmp(argv[5], "busy"),
				     seconds, &ready };
		if (pthread_create(&tid[i], NULL, thr_fn, &t[i]))
			die("pthread_create");
	}
	pthread_barrier_wait(&ready);
	printf("threads=%ld cpus=%ld pid=%d\n", n, ncpu, getpid());
	fflush(stdout);
	for (i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	return 0;
}

/* ---- holds, userns ---------------------------------------------------------- */

/* Try @n bounds; returns how many were accepted, @err the first errno. */
static long try_holds(long n, long bound, int *err)
{
	char buf[16];
	long ok = 0, i;
	int len = snprintf(buf, sizeof(buf), "%ld", bound);

	*err = 0;
	for (i = 0; i < n; i++) {
		int fd = open(SP_LAT_DEVICE, O_RDWR | O_CLOEXEC);

		if (fd < 0 || write(fd, buf, len) != len) {
			if (!*err)
				*err = errno;
			if (fd >= 0)
				close(fd);
			continue;
		}
		ok++;
	}
	return ok;
}

static int cmd_holds(int argc, char **argv)
{
	long ok;
	int err;

	if (argc != 5)
		return 2;
	ok = try_holds(num(argv[2]), num(argv[3]), &err);
	printf("accepted=%ld error=%s pid=%d\n", ok, err ? strerror(err) : "none",
	       getpid());
	fflush(stdout);
	sleep_ms(num(argv[4]) * 1000);
	return 0;
}

struct load {
	long period_ms;
	uint64_t end_us;
	long wakeups;
};

static void *load_fn(void *arg)
{
	struct load *l = arg;
	long n = 0;

	while (now_us() < l->end_us) {
		sleep_ms(l->period_ms);
		spin_us(50);
		n++;
	}
	__atomic_add_fetch(&l->wakeups, n, __ATOMIC_RELAXED);
	return NULL;
}

static int cmd_load(int argc, char **argv)
{
	struct load l = { 0 };
	pthread_t *tid;
	long nthr, held, i;
	int err;

	if (argc != 6)
		return 2;
	nthr = num(argv[3]);
	l.period_ms = num(argv[4]);
	l.end_us = now_us() + (uint64_t)num(argv[5]) * 1000000u;
	tid = calloc(nthr, sizeof(*tid));
	if (!tid)
		return 2;
	held = try_holds(num(argv[2]), 150, &err);
	for (i = 0; i < nthr; i++)
		if (pthread_create(&tid[i], NULL, load_fn, &l))
			die("pthread_create");
	for (i = 0; i < nthr; i++)
		pthread_join(tid[i], NULL);
	printf("held=%ld wakeups=%ld\n", held, l.wakeups);
	return 0;
}

static void userns_member(int uid, long n, long bound, long seconds, int out)
{
	char line[64];
	long ok;
	int err, len;

	if (setresuid(uid, uid, uid))
		die("setresuid in the namespace");
	/* after the uid change, which clears it: die with the parent */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	ok = try_holds(n, bound, &err);
	len = snprintf(line, sizeof(line), "%ld %d\n", ok, err);
	if (write(out, line, len) != len)
		die("write");
	sleep_ms(seconds * 1000);
	exit(0);
}

static void userns_child(long owner, long nsub, long n, long bound,
			 long seconds, int sync[2], int back[2], int out)
{
	char c;
	long k;

	if (setgroups(0, NULL) || setresgid(owner, owner, owner) ||
	    setresuid(owner, owner, owner))
		die("dropping to the owner");
	if (unshare(CLONE_NEWUSER))
		die("unshare(CLONE_NEWUSER)");
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (write(back[1], "u", 1) != 1 || read(sync[0], &c, 1) != 1)
		die("sync");
	for (k = 1; k <= nsub; k++)
		if (!fork())
			userns_member((int)k, n, bound, seconds, out);
	while (wait(NULL) > 0)
		;
	exit(0);
}

static int cmd_userns(int argc, char **argv)
{
	int sync[2], back[2], out[2], fd;
	long nsub, total = 0, k, ok;
	char path[64], c, line[64];
	const char *map = "0 100000 65536\n";
	FILE *in;
	pid_t child;
	int err, first = 0;

	if (argc != 7)
		return 2;
	nsub = num(argv[3]);
	if (pipe(sync) || pipe(back) || pipe(out))
		die("pipe");
	child = fork();
	if (!child)
		userns_child(num(argv[2]), nsub, num(argv[4]), num(argv[5]),
			     num(argv[6]), sync, back, out[1]);
	close(out[1]);
	if (read(back[0], &c, 1) != 1)
		die("sync");
	snprintf(path, sizeof(path), "/proc/%d/uid_map", child);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, map, strlen(map)) != (ssize_t)strlen(map))
		die(path);
	close(fd);
	if (write(sync[1], "g", 1) != 1)
		die("sync");
	in = fdopen(out[0], "r");
	for (k = 0; k < nsub && fgets(line, sizeof(line), in); k++) {
		if (sscanf(line, "%ld %d", &ok, &err) == 2) {
			total += ok;
			if (!first)
				first = err;
		}
	}
	printf("accepted=%ld members=%ld error=%s\n", total, k,
	       first ? strerror(first) : "none");
	fflush(stdout);
	waitpid(child, NULL, 0);
	return 0;
}

/* ---- writeloop, affinity, sleeper, tidswitch, opener ------------------- */

static int cmd_writeloop(int argc, char **argv)
{
	uint64_t t0 = now_us(), end;
	int fd = bound_fd(150);
	long writes = 0;

	if (argc != 3)
		return 2;
	end = t0 + (uint64_t)num(argv[2]) * 1000u;
	while (now_us() < end) {
		const char *v = writes & 1 ? "150" : "300";

		if (write(fd, v, 3) != 3)
			die("write");
		writes++;
	}
	printf("writes=%ld elapsed_us=%llu\n", writes,
	       (unsigned long long)(now_us() - t0));
	return 0;
}

static int cmd_affinity(int argc, char **argv)
{
	const char *dir;

	if (argc != 4)
		return 2;
	dir = argv[3];
	pin_range(2, 3);
	bound_fd(num(argv[2]));
	spin_us(100000);
	touch(dir, "a");
	while (!exists(dir, "go"))
		sleep_ms(50);
	pin_range(0, 1);
	spin_us(50000);
	printf("cpu=%d\n", sched_getcpu());
	fflush(stdout);
	touch(dir, "b");
	sleep_ms(60000);
	return 0;
}

static int cmd_ranon(int argc, char **argv)
{
	if (argc != 5)
		return 2;
	pin((int)num(argv[2]));
	spin_us(2000);
	bound_fd(num(argv[3]));
	spin_us(2000);
	pin_range(0, CPU_SETSIZE - 1);
	printf("ran=%d pid=%d\n", (int)num(argv[2]), getpid());
	fflush(stdout);
	sleep_ms(num(argv[4]) * 1000);
	return 0;
}

static int cmd_sleeper(int argc, char **argv)
{
	uint64_t end;
	long period;

	if (argc != 4)
		return 2;
	period = num(argv[2]);
	end = now_us() + (uint64_t)num(argv[3]) * 1000000u;
	while (now_us() < end)
		sleep_ms(period);
	return 0;
}

static void *tid_fn(void *arg)
{
	long seconds = *(long *)arg;

	/* the raw syscall changes this thread only (glibc's setuid all) */
	if (syscall(SYS_setresuid, 65534, 65534, 65534))
		die("setresuid");
	printf("tid=%ld pid=%d\n", (long)syscall(SYS_gettid), getpid());
	fflush(stdout);
	sleep_ms(seconds * 1000);
	return NULL;
}

static int cmd_tidswitch(int argc, char **argv)
{
	pthread_t t;
	long seconds;

	if (argc != 3)
		return 2;
	seconds = num(argv[2]);
	if (pthread_create(&t, NULL, tid_fn, &seconds))
		die("pthread_create");
	pthread_join(t, NULL);
	return 0;
}

static int cmd_opener(int argc, char **argv)
{
	uint64_t end;
	long opens = 0;

	if (argc != 3)
		return 2;
	end = now_us() + (uint64_t)num(argv[2]) * 1000u;
	while (now_us() < end) {
		int fd = open(SP_LAT_DEVICE, O_RDWR);

		if (fd < 0)
			continue;
		opens++;
		sleep_ms(20);
		close(fd);
	}
	printf("opens=%ld\n", opens);
	return 0;
}

/* ---- bpf-deny ---------------------------------------------------------- */

/* The BTF id of the kernel function @name (/sys/kernel/btf/vmlinux), or -1. */
static int btf_func_id(const char *name)
{
	static char buf[16 << 20];
	const struct btf_header *h = (const void *)buf;
	const char *types, *strs;
	size_t len = 0, off;
	ssize_t r;
	int fd = open("/sys/kernel/btf/vmlinux", O_RDONLY), id = 1;

	if (fd < 0)
		return -1;
	while ((r = read(fd, buf + len, sizeof(buf) - len)) > 0)
		len += r;
	close(fd);
	if (len < sizeof(*h) || h->magic != BTF_MAGIC)
		return -1;
	types = buf + h->hdr_len + h->type_off;
	strs = buf + h->hdr_len + h->str_off;
	for (off = 0; off < h->type_len; id++) {
		const struct btf_type *t = (const void *)(types + off);
		unsigned int kind = BTF_INFO_KIND(t->info), vlen = BTF_INFO_VLEN(t->info);

		if (kind == BTF_KIND_FUNC && !strcmp(strs + t->name_off, name))
			return id;
		off += sizeof(*t);
		switch (kind) {
		case BTF_KIND_INT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
			off += 4; break;
		case BTF_KIND_ARRAY:
			off += sizeof(struct btf_array); break;
		case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_DATASEC:
			off += vlen * 12; break;
		case BTF_KIND_ENUM: case BTF_KIND_FUNC_PROTO:
			off += vlen * 8; break;
		case 19: /* BTF_KIND_ENUM64 */
			off += vlen * 12; break;
		default:
			break;
		}
	}
	return -1;
}

static int bpf(int cmd, union bpf_attr *attr)
{
	return (int)syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static int cmd_bpf_deny(int argc, char **argv)
{
	struct bpf_insn prog[] = {
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_get_current_uid_gid },
		{ .code = BPF_ALU64 | BPF_LSH | BPF_K, .dst_reg = 0, .imm = 32 },
		{ .code = BPF_ALU64 | BPF_RSH | BPF_K, .dst_reg = 0, .imm = 32 },
		{ .code = BPF_JMP | BPF_JNE | BPF_K, .dst_reg = 0, .off = 2, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = -EPERM },
		{ .code = BPF_JMP | BPF_EXIT },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static char log[65536];
	union bpf_attr a;
	int id, pfd, lfd, status;
	pid_t child;

	if (argc < 4)
		return 2;
	prog[3].imm = (int)num(argv[2]);
	id = btf_func_id("bpf_lsm_task_setscheduler");
	if (id < 0) {
		fprintf(stderr, "sp_lat: no BTF id for bpf_lsm_task_setscheduler\n");
		return 1;
	}
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_LSM;
	a.expected_attach_type = BPF_LSM_MAC;
	a.attach_btf_id = id;
	a.insns = (uintptr_t)prog;
	a.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	a.license = (uintptr_t)"GPL";
	a.log_buf = (uintptr_t)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	pfd = bpf(BPF_PROG_LOAD, &a);
	if (pfd < 0) {
		fprintf(stderr, "sp_lat: BPF_PROG_LOAD: %s\n%s\n", strerror(errno), log);
		return 1;
	}
	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.prog_fd = pfd;
	lfd = bpf(BPF_RAW_TRACEPOINT_OPEN, &a);
	if (lfd < 0)
		die("sp_lat: attaching the LSM program");
	child = fork();
	if (!child) {
		execvp(argv[3], argv + 3);
		die(argv[3]);
	}
	if (waitpid(child, &status, 0) < 0)
		die("waitpid");
	close(lfd);
	close(pfd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "threads", cmd_threads }, { "holds", cmd_holds },
		{ "load", cmd_load },
		{ "userns", cmd_userns }, { "writeloop", cmd_writeloop },
		{ "affinity", cmd_affinity }, { "ranon", cmd_ranon },
		{ "sleeper", cmd_sleeper },
		{ "tidswitch", cmd_tidswitch }, { "opener", cmd_opener },
		{ "bpf-deny", cmd_bpf_deny },
	};
	size_t i;
	int ret;

	for (i = 0; argc > 1 && i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		ret = cmds[i].fn(argc, argv);
		if (ret == 2)
			fprintf(stderr, "sp_lat: bad arguments (see selftests/sp_lat.c)\n");
		return ret;
	}
	fprintf(stderr, "usage: sp_lat threads|holds|load|userns|writeloop|affinity|ranon|sleeper|tidswitch|opener|bpf-deny ...\n");
	return 2;
}
