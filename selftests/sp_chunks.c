// SPDX-License-Identifier: GPL-2.0
/*
 * sp_chunks - write or read a sysfs file in chunks of a chosen size, and
 * report what every write(2) and read pass did (selftests/test_model.sh).
 *
 *   sp_chunks write FILE BSLIST TEXT...
 *	For the i-th block size of BSLIST (comma list), open FILE, write
 *	TEXT[i % ntexts] in write(2) calls of that many bytes (stopping at
 *	the first failure, as dd does), close it, read FILE back in one pass
 *	and print
 *	  bs=B text=I len=L writes=W fail=OFF errno=E model=HASH
 *	fail=-1 errno=0 when every write succeeded; OFF is the offset of the
 *	write that failed.  HASH is FNV-1a (32 bits) of what FILE read back.
 *   sp_chunks read FILE BS N TEXT...
 *	N passes, each: open FILE, read(2) BS bytes at a time to the end,
 *	close; print "passes=N text0=K0 text1=K1 ... none=K" (passes equal to
 *	each TEXT, and to none of them).
 *   sp_chunks across FILE BS TEXT
 *	Open FILE and read BS bytes, then write TEXT to FILE through a second
 *	open file, then read the rest of the first: print "same" if that
 *	pass equals FILE as it read before, "changed" if it equals FILE as it
 *	reads after, else "torn".
 *   sp_chunks hash FILE...
 *	print the HASH of each FILE read in one pass.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_TEXT	(1024 * 1024)

struct buf {
	char *p;
	size_t len;
};

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static uint32_t fnv1a(const struct buf *b)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < b->len; i++)
		h = (h ^ (unsigned char)b->p[i]) * 16777619u;
	return h;
}

/* Read the open @fd to its end in read(2)s of @bs bytes. */
static void read_rest(int fd, size_t bs, struct buf *b)
{
	ssize_t n;

	for (;;) {
		if (b->len + bs > MAX_TEXT)
			bs = MAX_TEXT - b->len;
		if (!bs)
			break;
		n = read(fd, b->p + b->len, bs);
		if (n < 0)
			die("read");
		if (!n)
			break;
		b->len += (size_t)n;
	}
}

static void load(const char *path, size_t bs, struct buf *b)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		die(path);
	b->len = 0;
	read_rest(fd, bs, b);
	close(fd);
}

static struct buf *load_all(int n, char **paths)
{
	struct buf *t = calloc((size_t)n, sizeof(*t));
	int i;

	if (!t)
		die("calloc");
	for (i = 0; i < n; i++) {
		t[i].p = malloc(MAX_TEXT);
		if (!t[i].p)
			die("malloc");
		load(paths[i], 65536, &t[i]);
	}
	return t;
}

/* Write @t to @path in chunks of @bs; the offset of the failed write or -1. */
static long write_chunks(const char *path, const struct buf *t, size_t bs,
			 int *writes, int *err)
{
	size_t off = 0;
	long fail = -1;
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		die(path);
	*writes = 0;
	*err = 0;
	while (off < t->len) {
		size_t n = t->len - off < bs ? t->len - off : bs;
		ssize_t w = write(fd, t->p + off, n);

		(*writes)++;
		if (w <= 0) {
			fail = (long)off;
			*err = w < 0 ? errno : 0;
			break;
		}
		off += (size_t)w;
	}
	close(fd);
	return fail;
}

static int cmd_write(char *file, char *bslist, int n, char **paths)
{
	struct buf *t = load_all(n, paths), back = { malloc(MAX_TEXT), 0 };
	char *tok, *save = NULL;
	int i = 0;

	if (!back.p)
		die("malloc");
	for (tok = strtok_r(bslist, ",", &save); tok; tok = strtok_r(NULL, ",", &save), i++) {
		size_t bs = strtoul(tok, NULL, 10);
		int writes, err;
		long fail;

		if (!bs)
			continue;
		fail = write_chunks(file, &t[i % n], bs, &writes, &err);
		load(file, 65536, &back);
		printf("bs=%zu text=%d len=%zu writes=%d fail=%ld errno=%d model=%08x\n",
		       bs, i % n, t[i % n].len, writes, fail, err, fnv1a(&back));
		fflush(stdout);
	}
	return 0;
}

static int cmd_read(char *file, size_t bs, int passes, int n, char **paths)
{
	struct buf *t = load_all(n, paths), got = { malloc(MAX_TEXT), 0 };
	int *match = calloc((size_t)n + 1, sizeof(int));
	int p, i;

	if (!got.p || !match)
		die("malloc");
	for (p = 0; p < passes; p++) {
		load(file, bs, &got);
		for (i = 0; i < n; i++)
			if (got.len == t[i].len && !memcmp(got.p, t[i].p, got.len))
				break;
		match[i]++;
	}
	printf("passes=%d", passes);
	for (i = 0; i < n; i++)
		printf(" text%d=%d", i, match[i]);
	printf(" none=%d\n", match[n]);
	return 0;
}

static int cmd_across(char *file, size_t bs, char *text)
{
	struct buf *t = load_all(1, &text);
	struct buf before = { malloc(MAX_TEXT), 0 }, after = { malloc(MAX_TEXT), 0 };
	struct buf got = { malloc(MAX_TEXT), 0 };
	int writes, err, fd;
	ssize_t r;

	if (!before.p || !after.p || !got.p)
		die("malloc");
	load(file, 65536, &before);
	fd = open(file, O_RDONLY);
	if (fd < 0)
		die(file);
	r = read(fd, got.p, bs);
	if (r < 0)
		die("read");
	got.len = (size_t)r;
	if (write_chunks(file, t, 4096, &writes, &err) >= 0) {
		printf("write failed: %s\n", strerror(err));
		return 1;
	}
	read_rest(fd, 4096, &got);
	close(fd);
	load(file, 65536, &after);
	if (got.len == before.len && !memcmp(got.p, before.p, got.len))
		printf("same\n");
	else if (got.len == after.len && !memcmp(got.p, after.p, got.len))
		printf("changed\n");
	else
		printf("torn\n");
	return 0;
}

int main(int argc, char **argv)
{
	int i;

	if (argc >= 5 && !strcmp(argv[1], "write"))
		return cmd_write(argv[2], argv[3], argc - 4, argv + 4);
	if (argc >= 6 && !strcmp(argv[1], "read"))
		return cmd_read(argv[2], strtoul(argv[3], NULL, 10), atoi(argv[4]),
				argc - 5, argv + 5);
	if (argc == 5 && !strcmp(argv[1], "across"))
		return cmd_across(argv[2], strtoul(argv[3], NULL, 10), argv[4]);
	if (argc >= 3 && !strcmp(argv[1], "hash")) {
		struct buf b = { malloc(MAX_TEXT), 0 };

		if (!b.p)
			die("malloc");
		for (i = 2; i < argc; i++) {
			load(argv[i], 65536, &b);
			printf("%08x\n", fnv1a(&b));
		}
		return 0;
	}
	fprintf(stderr, "usage: sp_chunks write FILE BSLIST TEXT... | read FILE BS N TEXT... |\n"
		"       across FILE BS TEXT | hash FILE...\n");
	return 2;
}
