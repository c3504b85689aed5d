// SPDX-License-Identifier: GPL-2.0
/*
 * sp-report - what a trace-cmd recording of sched_power says.
 *
 *   sp-report [--model FILE] [--csv|--json] [--plot DIR] [--tasks N] TRACE.dat
 *   sp-report --diff [--model FILE] A.dat B.dat
 *   sp-report --counts [--span FROM_US,TO_US] [--comm A,B] [--model FILE] TRACE.dat
 *
 * Reads trace.dat through libtracecmd (read.c), counts decisions, tasks and
 * idle verdicts (analyse.c), replays the idle events through the module's
 * accounting (replay.c) and prints a table, CSV or JSON (print.c), PNGs
 * (plot.c), a side-by-side comparison (diff.c) or power-bench's one line of
 * mechanism counts (counts.c).  Columns are explained by
 * --help and Documentation/sp-report.rst.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model_file.h"
#include "report.h"

#ifndef SP_REPORT_MODEL
#define SP_REPORT_MODEL "models/x86-2pkg.model"
#endif
#ifndef SP_REPORT_PREAMBLE
#define SP_REPORT_PREAMBLE "tools/plot/sp.gp"
#endif

static const char rep_help[] =
"usage: sp-report [--model FILE] [--csv | --json] [--plot DIR] [--tasks N]\n"
"                 [--window FROM,TO] TRACE.dat\n"
"       sp-report --diff [--model FILE] A.dat B.dat\n"
"       sp-report --counts [--span FROM_US,TO_US] [--comm A,B] [--slowdown S]\n"
"                 [--model FILE] TRACE.dat\n"
"\n"
"Reads a trace-cmd recording of sched_power, e.g.\n"
"  trace-cmd record -C perf -e sched_power -e sched:sched_switch \\\n"
"      -e sched:sched_waking -e sched:sched_wakeup_new -e power:cpu_idle \\\n"
"      -e power:cpu_frequency CMD\n"
"(-C perf: the trace clock is local_clock(), the one the module accounts with)\n"
"\n"
"  --model FILE  energy model for the replay (default: TRACE.model next to the\n"
"                recording if present, else " SP_REPORT_MODEL ")\n"
"  --csv, --json machine-readable output instead of the text tables\n"
"  --plot DIR    also write DIR/timeline.png and DIR/energy.png (gnuplot)\n"
"  --tasks N     rows of the task table (default 20, 0 = all)\n"
"  --window FROM,TO  only the span between the first trace_marker line that\n"
"                contains FROM and the next that contains TO (written while\n"
"                recording with echo TEXT > /sys/kernel/tracing/trace_marker)\n"
"  --diff A B    both recordings side by side, with B/A ratios\n"
"  --counts      one line of key=value: power-bench's mechanism counts and the\n"
"                energy estimator (Documentation/power-bench.rst); a recording\n"
"                without sched_power events is fine here\n"
"  --span FROM_US,TO_US  only that span, trace-clock microseconds\n"
"  --comm A,B    count only the threads with these names (--counts)\n"
"  --slowdown S  the estimator charges busy time / S as the work done: S is the\n"
"                run's guest time per unit of calibrated work (power-bench: rt-app's\n"
"                measured over configured run time)\n"
"  --idle-deepest  every idle entry counts as the model's deepest state, as the\n"
"                module does on a CPU without a cpuidle driver (cpuidle driver\n"
"                none: default_idle_call() reports a state index that means\n"
"                nothing); use it for recordings of such boards\n"
"\n"
"Decisions (sched_power_select), by reason, by mode and by wake type:\n"
"  decisions  events; equals stats/decisions when the trace lost nothing\n"
"  overrides  decisions whose returned CPU replaced CFS's (0.2: applied=1 and\n"
"             ret_cpu != cfs_cpu; older format: chosen_cpu != cfs_cpu)\n"
"  ovr%       overrides / decisions\n"
"  saved_uJ   the model's estimate of the overrides: sum of cfs_nj - chosen_nj\n"
"Tasks:\n"
"  wakeups    sched_waking/sched_wakeup_new followed by the switch-in\n"
"  cpus       CPUs the task was switched in on; migr: switch-ins on another CPU\n"
"  p50_us p99_us max_us  wake-up latency, waking to sched_switch, us\n"
"  dec ovr    its decisions and overrides\n"
"  util       the mean utilisation its decisions read (sched_power_select's util)\n"
"Packages (groups of the model's package level; modelled, not measured):\n"
"  awake_ms awake%  time with at least one CPU of the package awake\n"
"  wakeups    package wake-ups from all-idle; cpu_wkup: idle exits of its CPUs\n"
"  busy_uJ    CPU busy energy at the OPP the accounting charged\n"
"  pstate_uJ  the part of busy_uJ above the pd's lowest OPP\n"
"  idle_uJ    CPU idle-state energy; wake_uJ: CPU and package wake-up energy\n"
"  shared_uJ  the package's own active + idle power (uncore)\n"
"  total_uJ avg_mW  sum of the above, and over the recording's span\n"
"CPUs: busy_ms idle_ms busy% wakeups and the same energy terms per CPU.\n"
"Latency bound:\n"
"  bounded decisions    lat_bound_us > 0\n"
"  modelled violations  returned CPU's modelled wake-up + queue_us > bound\n"
"  measured violations  bounded wake-ups whose measured latency > bound\n"
"Idle verdicts (sched_power_idle), per state: stays, residency_ms, early\n"
"  (stay < target), hit, late (stay >= next state's target), and shares.\n"
"\n"
"Exit status: 0, 1 for a file that cannot be read, 2 for bad usage.\n";

struct rep_run {
	struct rep_trace t;
	struct rep_result *r;
	struct sp_model *m;
};

static int rep_usage(void)
{
	fputs(rep_help, stderr);
	return 2;
}

/* The model saved next to @trace: A.model for A.dat, else A.dat.model. */
static bool rep_model_beside(const char *trace, char *out, size_t len)
{
	size_t n = strlen(trace);

	if (n > 4 && !strcmp(trace + n - 4, ".dat")) {
		snprintf(out, len, "%.*s.model", (int)(n - 4), trace);
		if (!access(out, R_OK))
			return true;
	}
	snprintf(out, len, "%s.model", trace);
	return !access(out, R_OK);
}

static void rep_pick_model(struct rep_run *run, const char *trace, const struct rep_opts *o)
{
	char *path = run->r->model_path, err[640];
	size_t len = sizeof(run->r->model_path);

	if (o->model_file)
		snprintf(path, len, "%s", o->model_file);
	else if (!rep_model_beside(trace, path, len))
		snprintf(path, len, "%s", o->default_model);
	if (!model_file_load(path, run->m, err, sizeof(err)))
		return;
	fprintf(stderr, "sp-report: %s: energy not modelled\n", err);
	path[0] = 0;
}

static void rep_notes(const char *path, const struct rep_run *run)
{
	const struct rep_trace *t = &run->t;

	if (t->fmt.v01)
		fprintf(stderr, "sp-report: %s: older event format (0.1: chosen_cpu, wake_flags; "
			"no mode, applied, queue_us, lat_bound_us): by-mode and latency-bound "
			"figures are left empty\n", path);
	if (!t->fmt.has_select)
		fprintf(stderr, "sp-report: %s: sched_power events are in the file but no "
			"sched_power_select was recorded (module in mode off?)\n", path);
	if (t->lost || t->lost_pages)
		fprintf(stderr, "sp-report: %s: the ring buffer lost %llu events%s: counts are "
			"lower bounds (record with a larger -b)\n", path,
			(unsigned long long)t->lost, t->lost_pages ? " and pages of unknown size" : "");
	if (run->r->model_path[0] && t->nr_cpus > run->m->nr_cpus)
		fprintf(stderr, "sp-report: %s: the model describes %u CPUs, the recording has %u: "
			"the others are not modelled\n", path, run->m->nr_cpus, t->nr_cpus);
}

/* Read, model and analyse one recording; prints its one error line. */
static int rep_run_open(struct rep_run *run, const char *path, const struct rep_opts *o)
{
	char err[512];
	int ret;

	memset(run, 0, sizeof(*run));
	run->r = calloc(1, sizeof(*run->r));
	run->m = malloc(sizeof(*run->m));
	if (!run->r || !run->m) {
		fprintf(stderr, "sp-report: out of memory\n");
		return -1;
	}
	run->r->path = path;
	run->r->win_from = o->win_from;
	run->r->win_to = o->win_to;
	run->r->idle_deepest = o->idle_deepest;
	run->r->span_from_ns = o->span_from_ns;
	run->r->span_to_ns = o->span_to_ns;
	run->r->slowdown = o->slowdown;
	ret = rep_read(path, &run->t, err, sizeof(err));
	if (ret == -2 && o->counts)
		ret = 0;	/* module not loaded: the counts need none of its events */
	if (ret) {
		fprintf(stderr, "sp-report: %s: %s\n", path, err);
		return -1;
	}
	rep_pick_model(run, path, o);
	if (!o->quiet && !o->counts)
		rep_notes(path, run);
	ret = rep_analyse(run->r, &run->t, run->r->model_path[0] ? run->m : NULL);
	if (ret == -ENOENT) {
		fprintf(stderr, "sp-report: %s: --window: no trace_marker line with '%s' followed "
			"by one with '%s'\n", path, o->win_from, o->win_to);
		return -1;
	}
	if (ret) {
		fprintf(stderr, "sp-report: %s: %s\n", path, strerror(-ret));
		return -1;
	}
	return 0;
}

static void rep_run_close(struct rep_run *run)
{
	if (run->r)
		rep_result_free(run->r);
	free(run->r);
	free(run->m);
	rep_trace_free(&run->t);
}

enum {
	OPT_MODEL = 1, OPT_CSV, OPT_JSON, OPT_PLOT, OPT_TASKS, OPT_DIFF, OPT_HELP, OPT_WINDOW,
	OPT_IDLE_DEEPEST, OPT_COUNTS, OPT_SPAN, OPT_COMM, OPT_SLOWDOWN,
};

static const struct option rep_long[] = {
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "tasks", required_argument, NULL, OPT_TASKS },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "window", required_argument, NULL, OPT_WINDOW },
	{ "idle-deepest", no_argument, NULL, OPT_IDLE_DEEPEST },
	{ "counts", no_argument, NULL, OPT_COUNTS },
	{ "span", required_argument, NULL, OPT_SPAN },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "slowdown", required_argument, NULL, OPT_SLOWDOWN },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

struct rep_args {
	struct rep_opts o;
	bool csv, json, diff;
	const char *plot;
};

/* "FROM_US,TO_US" into ns; FROM < TO. */
static int rep_parse_span(const char *arg, struct rep_opts *o)
{
	unsigned long long from, to;
	char *end;

	from = strtoull(arg, &end, 10);
	if (end == arg || *end != ',')
		return -1;
	arg = end + 1;
	to = strtoull(arg, &end, 10);
	if (end == arg || *end || to <= from || to > UINT64_MAX / 1000)
		return -1;
	o->span_from_ns = from * 1000;
	o->span_to_ns = to * 1000;
	return 0;
}

static int rep_parse_args(int argc, char **argv, struct rep_args *a)
{
	char *end;
	int c;

	a->o.max_tasks = 20;
	a->o.default_model = SP_REPORT_MODEL;
	while ((c = getopt_long(argc, argv, "hq", rep_long, NULL)) != -1) {
		switch (c) {
		case OPT_MODEL: a->o.model_file = optarg; break;
		case OPT_CSV: a->csv = true; break;
		case OPT_JSON: a->json = true; break;
		case OPT_PLOT: a->plot = optarg; break;
		case OPT_DIFF: a->diff = true; break;
		case OPT_IDLE_DEEPEST: a->o.idle_deepest = true; break;
		case 'q': a->o.quiet = true; break;
		case OPT_COUNTS: a->o.counts = true; break;
		case OPT_COMM: a->o.comms = optarg; break;
		case OPT_SLOWDOWN:
			a->o.slowdown = strtod(optarg, &end);
			if (*end || !(a->o.slowdown > 0.01 && a->o.slowdown < 100))
				return -1;
			break;
		case OPT_SPAN:
			if (rep_parse_span(optarg, &a->o))
				return -1;
			break;
		case OPT_WINDOW:
			a->o.win_from = optarg;
			end = strchr(optarg, ',');
			if (!end || end == optarg || !end[1])
				return -1;
			*end = 0;
			a->o.win_to = end + 1;
			break;
		case OPT_TASKS:
			a->o.max_tasks = (uint32_t)strtoul(optarg, &end, 10);
			if (*end || !*optarg)
				return -1;
			break;
		case OPT_HELP:
		case 'h':
			fputs(rep_help, stdout);
			exit(0);
		default:
			return -1;
		}
	}
	if (a->csv + a->json + a->o.counts + a->diff > 1 || (a->o.counts && a->plot))
		return -1;
	if (a->o.span_to_ns && a->o.win_from)
		return -1;
	return argc - optind == (a->diff ? 2 : 1) ? 0 : -1;
}

static int rep_main_diff(struct rep_args *a, char **files)
{
	struct rep_run ra, rb;
	int rc = 1;

	memset(&ra, 0, sizeof(ra));
	memset(&rb, 0, sizeof(rb));
	if (!rep_run_open(&ra, files[0], &a->o) && !rep_run_open(&rb, files[1], &a->o)) {
		rep_print_diff(stdout, ra.r, rb.r);
		rc = 0;
	}
	rep_run_close(&ra);
	rep_run_close(&rb);
	return rc;
}

static int rep_main_counts(struct rep_run *run, const struct rep_opts *o)
{
	struct rep_counts c;
	int ret;

	ret = rep_counts(&c, run->r, run->r->model_path[0] ? run->m : NULL, o->comms);
	if (ret) {
		fprintf(stderr, "sp-report: %s: %s\n", run->r->path, strerror(-ret));
		rep_counts_free(&c);
		return 1;
	}
	rep_print_counts(stdout, run->r, &c);
	rep_counts_free(&c);
	return 0;
}

int main(int argc, char **argv)
{
	struct rep_args a = { 0 };
	const char *preamble = getenv("SP_PLOT_PREAMBLE");
	struct rep_run run;
	int rc = 0;

	if (rep_parse_args(argc, argv, &a))
		return rep_usage();
	if (a.diff)
		return rep_main_diff(&a, argv + optind);
	if (rep_run_open(&run, argv[optind], &a.o)) {
		rep_run_close(&run);
		return 1;
	}
	if (a.o.counts)
		rc = rep_main_counts(&run, &a.o);
	else if (a.csv)
		rep_print_csv(stdout, run.r);
	else if (a.json)
		rep_print_json(stdout, run.r);
	else
		rep_print_text(stdout, run.r, &a.o);
	if (a.plot && rep_plot(a.plot, run.r, run.m, preamble ? preamble : SP_REPORT_PREAMBLE))
		rc = 1;
	rep_run_close(&run);
	return rc;
}
