// SPDX-License-Identifier: GPL-2.0
/*
 * pb_story.c - power-bench's story step: validate a story with the
 * simulator's parser, print what a run of it must produce, and write the
 * rt-app 1.0 JSON (rtapp_story.c says why it is not the story file itself).
 *
 *   pb-story [-c NS_PER_LOOP] [-d DURATION_S] [-l LOGDIR] [-n NR_CPUS]
 *            [-o OUT.json] STORY.json
 *
 * stdout, one line:  story=NAME threads=N rows=R length_us=L work_us=W
 *                    tasks=NAME,NAME,...
 * A bad story exits 2 with one line on stderr: "bad story: FILE: PLACE: WHY".
 * Static, so that the busybox guest runs it as it is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rtapp_story.h"

struct pb_args {
	struct rtapp_opts rt;
	unsigned nr_cpus;
	const char *out;
	const char *story;
};

static int usage(void)
{
	fprintf(stderr, "usage: pb-story [-c NS_PER_LOOP] [-d DURATION_S] [-l LOGDIR] "
		"[-n NR_CPUS] [-o OUT.json] STORY.json\n");
	return 2;
}

static int parse_long(const char *s, long *out)
{
	char *end;

	*out = strtol(s, &end, 10);
	return *s && !*end && *out >= 0 ? 0 : -1;
}

static int parse_args(int argc, char **argv, struct pb_args *a)
{
	long v = 0;
	int opt;

	memset(a, 0, sizeof(*a));
	a->nr_cpus = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	while ((opt = getopt(argc, argv, "c:d:l:n:o:")) != -1) {
		if (opt == 'l' || opt == 'o') {
			*(opt == 'l' ? &a->rt.logdir : &a->out) = optarg;
			continue;
		}
		if (parse_long(optarg, &v))
			return -1;
		if (opt == 'c')
			a->rt.calib_ns_per_loop = v;
		else if (opt == 'd')
			a->rt.duration_s = v;
		else if (opt == 'n' && v > 0)
			a->nr_cpus = (unsigned)v;
		else
			return -1;
	}
	if (optind != argc - 1)
		return -1;
	a->story = argv[optind];
	return 0;
}

static void print_meta(const struct sim_story *s, unsigned nr_cpus)
{
	struct rtapp_meta m;
	u32 i;

	rtapp_story_meta(s, nr_cpus, &m);
	printf("story=%s threads=%u rows=%lu length_us=%llu work_us=%llu tasks=",
	       s->name, m.threads, m.rows, m.length_us, m.work_us);
	for (i = 0; i < s->nr_defs; i++)
		printf("%s%.15s", i ? "," : "", s->defs[i].name);
	printf("\n");
}

static int write_json(const struct sim_story *s, const struct pb_args *a)
{
	json_object *j = rtapp_story_json(s, &a->rt);
	int rc;

	if (!j) {
		fprintf(stderr, "pb-story: out of memory\n");
		return 1;
	}
	rc = json_object_to_file_ext(a->out, j, JSON_C_TO_STRING_PRETTY |
				     JSON_C_TO_STRING_NOSLASHESCAPE);
	json_object_put(j);
	if (rc) {
		fprintf(stderr, "pb-story: cannot write %s\n", a->out);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char err[SIM_ERR_LEN];
	struct sim_story s;
	struct pb_args a;
	int rc = 0;

	if (parse_args(argc, argv, &a))
		return usage();
	if (sim_story_load(a.story, &s, err, sizeof(err))) {
		fprintf(stderr, "bad story: %s\n", err);
		return 2;
	}
	if (a.out)
		rc = write_json(&s, &a);
	if (!rc)
		print_meta(&s, a.nr_cpus);
	sim_story_free(&s);
	return rc;
}
