// SPDX-License-Identifier: GPL-2.0
/*
 * sp_mark - write a line to the trace marker, then copy files to stdout at
 * once: "sp_mark TEXT FILE..." puts TEXT in the trace (ftrace:print) a few
 * microseconds before FILE is read, so a recording and a sysfs counter
 * read are taken at nearly the same instant (selftests/test_report.sh).
 * The first FILE is also read just before the marker, and its "total_uj"
 * line printed last as "# before_marker total_uj N": the two reads bracket
 * the marker even when the vCPU is descheduled between the steps.
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

/* The "total_uj" line of @path as read now, into @line; "" if none. */
static void read_total(const char *path, char *line, size_t len)
{
	static char buf[65536];
	ssize_t n;
	char *p, *e;
	int fd = open(path, O_RDONLY);

	line[0] = '\0';
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	p = strstr(buf, "\ntotal_uj ");
	if (!p)
		return;
	p++;
	e = strchr(p, '\n');
	if (e)
		*e = '\0';
	snprintf(line, len, "%s", p);
}

int main(int argc, char **argv)
{
	char before[256] = "";
	int fd, i, rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: sp_mark TEXT [FILE...]\n");
		return 2;
	}
	if (argc > 2)
		read_total(argv[2], before, sizeof(before));
	fd = open(MARKER, O_WRONLY);
	if (fd < 0 || write(fd, argv[1], strlen(argv[1])) < 0) {
		perror(MARKER);
		return 1;
	}
	close(fd);
	for (i = 2; i < argc; i++)
		rc |= copy_out(argv[i]);
	if (before[0])
		printf("# before_marker %s\n", before);
	return rc;
}
