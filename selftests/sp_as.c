// SPDX-License-Identifier: GPL-2.0
/*
 * sp_as.c - run a command as another user, for the VM selftests.
 *
 *   sp_as UID CMD [ARGS...]
 *
 * Drops every group, then to gid = uid = UID (which drops every
 * capability of root), and execs CMD.  Static, for the busybox guest.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *end;
	long uid;

	if (argc < 3) {
		fprintf(stderr, "usage: sp_as UID CMD [ARGS...]\n");
		return 2;
	}
	uid = strtol(argv[1], &end, 10);
	if (*end || uid < 0) {
		fprintf(stderr, "sp_as: bad uid '%s'\n", argv[1]);
		return 2;
	}
	if (setgroups(0, NULL) || setgid((gid_t)uid) || setuid((uid_t)uid)) {
		perror("sp_as: dropping privileges");
		return 1;
	}
	if (!setuid(0)) {
		fprintf(stderr, "sp_as: could regain root\n");
		return 1;
	}
	execvp(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
