// SPDX-License-Identifier: GPL-2.0
/*
 * rtapp_story.c - write a simulator story as rt-app 1.0 JSON.
 *
 * DOC: one story, two readers
 *
 * The stories in tools/sim/stories are rt-app JSON, but rt-app 1.0 (Debian's
 * rt-app package) reads three things differently from the simulator
 * (tools/sim/story.c), and each would change the work:
 *
 * - A task without "phases" loops for ever in rt-app 1.0: its "loop" becomes
 *   the loop count of an implicit phase and the thread loop is -1.  Its
 *   threads never end, so the main thread waits in pthread_join until
 *   global.duration kills them.  The simulator runs "loop" times and stops.
 *   Here every task gets explicit phases and a thread "loop", which rt-app
 *   honours, so the threads exit when their work is done and rt-app with
 *   them.
 * - A timer "ref" names one timer shared by every thread that uses it
 *   (instances and other tasks alike): four watchdog instances on one
 *   500 ms timer each wake every 2 s.  The simulator gives each instance its
 *   own timer.  Here refs are "uniqueN", which rt-app makes per thread.
 * - rt-app's timers re-anchor to "now" after a missed expiry unless the
 *   timer is "absolute"; the simulator keeps the cadence.  Here every timer
 *   is absolute.
 *
 * One difference stays: rt-app starts every timer at the common start time
 * (its first expiry is one period after the threads start), the simulator at
 * the instance's first use of it (one period after it reaches the event).
 * It moves the first expiry of a timer that follows a run by that run.
 *
 * "run" is work in loops of a calibrated busy loop, "runtime" wall-clock
 * busy time, as in the simulator at capacity 1024.  The keys the simulator
 * ignores (priority, policy, cpus) are not written, so rt-app runs what the
 * simulator simulates.  lock_pages is off (rt-app 1.0 defaults it on).
 *
 * DOC: nominal length
 *
 * The length power-bench plans a run with (watchdog, progress): the larger of
 * the longest thread's contention-free timeline (events back to back, timers
 * on their cadence from first use) and the total work spread evenly over the
 * CPUs.  Not a measurement: the measured time to complete is in the logs.
 */
#include <stdio.h>
#include <string.h>

#include "rtapp_story.h"

static int obj_add(json_object *o, const char *key, json_object *v)
{
	if (!v)
		return -1;
	if (json_object_object_add(o, key, v)) {
		json_object_put(v);
		return -1;
	}
	return 0;
}

static json_object *timer_json(const struct sim_ev *e)
{
	json_object *t = json_object_new_object();
	char ref[16];

	if (!t)
		return NULL;
	snprintf(ref, sizeof(ref), "unique%u", e->timer);
	if (obj_add(t, "ref", json_object_new_string(ref)) ||
	    obj_add(t, "period", json_object_new_int64((int64_t)e->us)) ||
	    obj_add(t, "mode", json_object_new_string("absolute"))) {
		json_object_put(t);
		return NULL;
	}
	return t;
}

static const char *const ev_key_names[] = {
	[SIM_EV_RUN] = "run", [SIM_EV_RUNTIME] = "runtime",
	[SIM_EV_SLEEP] = "sleep", [SIM_EV_TIMER] = "timer",
};

/* Events keep their order; a running index keeps the keys unique. */
static json_object *phase_json(const struct sim_story *s, const struct sim_phase *ph)
{
	json_object *p = json_object_new_object();
	char key[24];
	u32 i;

	if (!p || obj_add(p, "loop", json_object_new_int64(ph->loop)))
		goto fail;
	for (i = 0; i < ph->nr_ev; i++) {
		const struct sim_ev *e = &s->evs[ph->first_ev + i];

		snprintf(key, sizeof(key), "%s%u", ev_key_names[e->kind], i);
		if (obj_add(p, key, e->kind == SIM_EV_TIMER ? timer_json(e) :
			    json_object_new_int64((int64_t)e->us)))
			goto fail;
	}
	return p;
fail:
	json_object_put(p);
	return NULL;
}

static json_object *task_json(const struct sim_story *s, const struct sim_task_def *d)
{
	json_object *t = json_object_new_object(), *phases = json_object_new_object();
	char key[16];
	u32 i;

	if (!t || !phases)
		goto fail;
	for (i = 0; i < d->nr_phases; i++) {
		snprintf(key, sizeof(key), "p%u", i);
		if (obj_add(phases, key, phase_json(s, &s->phases[d->first_phase + i])))
			goto fail;
	}
	if (obj_add(t, "instance", json_object_new_int64(d->instance)) ||
	    obj_add(t, "loop", json_object_new_int64(d->loop)))
		goto fail;
	if (obj_add(t, "phases", phases))
		phases = NULL;
	else
		return t;
fail:
	json_object_put(phases);
	json_object_put(t);
	return NULL;
}

static json_object *global_json(const struct sim_story *s, const struct rtapp_opts *o)
{
	json_object *g = json_object_new_object();

	if (!g)
		return NULL;
	if ((s->desc[0] && obj_add(g, "description", json_object_new_string(s->desc))) ||
	    (o->duration_s > 0 &&
	     obj_add(g, "duration", json_object_new_int64(o->duration_s))) ||
	    obj_add(g, "calibration", o->calib_ns_per_loop > 0 ?
		    json_object_new_int64(o->calib_ns_per_loop) :
		    json_object_new_string("CPU0")) ||
	    obj_add(g, "default_policy", json_object_new_string("SCHED_OTHER")) ||
	    obj_add(g, "logdir", json_object_new_string(o->logdir ? o->logdir : "./")) ||
	    obj_add(g, "log_basename", json_object_new_string("rt-app")) ||
	    obj_add(g, "lock_pages", json_object_new_boolean(0)) ||
	    obj_add(g, "ftrace", json_object_new_boolean(0))) {
		json_object_put(g);
		return NULL;
	}
	return g;
}

json_object *rtapp_story_json(const struct sim_story *s, const struct rtapp_opts *o)
{
	json_object *root = json_object_new_object(), *tasks = json_object_new_object();
	u32 i;

	if (!root || !tasks)
		goto fail;
	for (i = 0; i < s->nr_defs; i++)
		if (obj_add(tasks, s->defs[i].name, task_json(s, &s->defs[i])))
			goto fail;
	if (obj_add(root, "global", global_json(s, o)))
		goto fail;
	if (obj_add(root, "tasks", tasks)) {
		tasks = NULL;
		goto fail;
	}
	return root;
fail:
	json_object_put(tasks);
	json_object_put(root);
	return NULL;
}

/* One pass of a phase's events from @now_us; timers keep their state. */
static u64 phase_pass_us(const struct sim_story *s, const struct sim_phase *ph,
			 u64 now_us, u64 *timer_next_us, u64 *work_us)
{
	u32 i;

	for (i = 0; i < ph->nr_ev; i++) {
		const struct sim_ev *e = &s->evs[ph->first_ev + i];
		u64 *next = &timer_next_us[e->timer];

		switch (e->kind) {
		case SIM_EV_RUN:
		case SIM_EV_RUNTIME:
			*work_us += e->us;
			now_us += e->us;
			break;
		case SIM_EV_SLEEP:
			now_us += e->us;
			break;
		case SIM_EV_TIMER:
			*next = *next ? *next + e->us : now_us + e->us;
			if (*next > now_us)
				now_us = *next;
			break;
		}
	}
	return now_us;
}

/* Contention-free length of one instance of @d; adds its work to @work_us. */
static u64 task_length_us(const struct sim_story *s, const struct sim_task_def *d,
			  u64 *work_us)
{
	u64 timer_next_us[SIM_MAX_TIMERS] = { 0 };
	u64 now_us = 0;
	u32 l, i, k;

	for (l = 0; l < d->loop; l++) {
		for (i = 0; i < d->nr_phases; i++) {
			const struct sim_phase *ph = &s->phases[d->first_phase + i];

			for (k = 0; k < ph->loop; k++)
				now_us = phase_pass_us(s, ph, now_us, timer_next_us, work_us);
		}
	}
	return now_us;
}

void rtapp_story_meta(const struct sim_story *s, unsigned nr_cpus, struct rtapp_meta *m)
{
	u64 longest_us = 0, spread_us;
	u32 i, k;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < s->nr_defs; i++) {
		const struct sim_task_def *d = &s->defs[i];
		unsigned long rows_per_loop = 0;
		u64 work_us = 0, len_us;

		len_us = task_length_us(s, d, &work_us);
		if (len_us > longest_us)
			longest_us = len_us;
		for (k = 0; k < d->nr_phases; k++)
			rows_per_loop += s->phases[d->first_phase + k].loop;
		m->threads += d->instance;
		m->rows += (unsigned long)d->instance * d->loop * rows_per_loop;
		m->work_us += d->instance * work_us;
	}
	spread_us = nr_cpus ? m->work_us / nr_cpus : m->work_us;
	m->length_us = longest_us > spread_us ? longest_us : spread_us;
}
