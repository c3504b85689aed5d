/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rtapp_story.h - a simulator story (tools/sim/story.c) as rt-app 1.0 runs it.
 *
 * power-bench validates a story with the simulator's own parser, so the VM
 * and the simulator accept exactly the same language, and then writes the
 * JSON that makes rt-app 1.0 do the same work (rtapp_story.c explains what
 * differs between the two readings of one file).
 */
#ifndef RTAPP_STORY_H
#define RTAPP_STORY_H

#include <json.h>

#include "sim.h"

struct rtapp_opts {
	long calib_ns_per_loop;	/* > 0: rt-app skips calibration; 0: "CPU0" */
	long duration_s;	/* > 0: global.duration, rt-app stops then */
	const char *logdir;	/* global.logdir, NULL: "./" */
};

struct rtapp_meta {
	unsigned threads;	/* rt-app threads: sum of instances */
	unsigned long rows;	/* log rows when all work is done (one per phase loop) */
	unsigned long long length_us;	/* nominal length on @nr_cpus, see rtapp_story.c */
	unsigned long long work_us;	/* run + runtime over all threads */
};

/* The rt-app 1.0 JSON for @s; NULL if out of memory.  Caller puts it. */
json_object *rtapp_story_json(const struct sim_story *s, const struct rtapp_opts *o);

/* Threads, expected log rows and nominal length of @s on @nr_cpus CPUs. */
void rtapp_story_meta(const struct sim_story *s, unsigned nr_cpus, struct rtapp_meta *m);

#endif /* RTAPP_STORY_H */
