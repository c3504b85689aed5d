// SPDX-License-Identifier: GPL-2.0
/*
 * sp_mark - write a line to the trace marker, then copy files to stdout at
 * once: "sp_mark TEXT FILE..." puts TEXT in the trace (ftrace:print) a few
 * microseconds before FILE is read, so a recording and a sysfs counter
 * read are taken at nearly the same instant (selftests/test_report.sh).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MARKER "/sys/kernel/tracing/trace_marker"

static int copy_out(const char *path)
{
	char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		perror(path);
		return 1;
	}
	/* one large read: sysfs tables are formatted once per read() */
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (write(1, buf, (size_t)n) != n)
			break;
	close(fd);
	return n < 0;
}

int main(int argc, char **argv)
{
	int fd, i, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: sp_mark TEXT [FILE...]\n");
		return 2;
	}
	fd = open(MARKER, O_WRONLY);
	if (fd < 0 || write(fd, argv[1], strlen(argv[1])) < 0) {
		perror(MARKER);
		return 1;
	}
	close(fd);
	for (i = 2; i < argc; i++)
		rc |= copy_out(argv[i]);
	return rc;
}
