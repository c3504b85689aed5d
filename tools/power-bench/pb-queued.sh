#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# pb-queued.sh - the queued wake-ups of a power-bench runs file, summed over
# the ok repetitions per story and configuration: wake-ups, those queued
# (wake_queued), queued while a CPU of the same package idled
# (wake_queued_idle_pkg), only another package's (wake_queued_idle_far),
# a CPU of an awake package (wake_queued_idle_awake_pkg, the defects of the
# rule), and of the defects: the decisions' reasons, how they ended
# (waited where placed, moved), how many exceeded their run's lat_p99_us,
# and the gate's sched_power_balance verdicts on the idle CPUs meanwhile
# (sp-report's DOC: wake-ups that queue; Documentation/power-bench.rst).
# Runs counted before these keys existed are left out, and so are runs
# pb-stats fails for their recording (trace_status short, lost events).
#
#   tools/power-bench/pb-queued.sh RUNS...
awk '
$1 != "pb-result" { next }
{
	delete kv
	for (i = 2; i <= NF; i++)
		if ((e = index($i, "=")) > 1)
			kv[substr($i, 1, e - 1)] = substr($i, e + 1)
	# ok as pb-stats takes it: the recording covers W and lost nothing
	# (trace_lost: the last of the key, the one sp-report appends)
	if (kv["status"] != "ok" || !("wake_queued" in kv) ||
	    ("trace_status" in kv && kv["trace_status"] != "ok") ||
	    ("trace_lost" in kv && kv["trace_lost"] != "0" && kv["trace_lost"] != "-"))
		next
	g = kv["story"] " " kv["config"]
	if (!(g in runs))
		order[++ng] = g
	runs[g]++
	nk = split("wakeups wake_queued wake_queued_idle_pkg wake_queued_idle_far " \
		   "wake_queued_idle_awake_pkg wake_queued_idle_awake_pkg_waited " \
		   "wake_queued_idle_awake_pkg_moved wake_queued_idle_awake_pkg_over_p99", key, " ")
	for (k = 1; k <= nk; k++)
		sum[g, k] += kv[key[k]]
	tally(g, "by", kv["wake_queued_idle_awake_pkg_by"])
	tally(g, "lb", kv["wake_queued_idle_awake_pkg_lb"])
}
function tally(g, what, list,    n, p, j, q) {
	n = split(list, p, ",")
	for (j = 1; j <= n; j++) {
		if (split(p[j], q, ":") != 2)
			continue
		if (!((g, what, q[1]) in tn))
			names[g, what] = names[g, what] " " q[1]
		tn[g, what, q[1]] += q[2]
	}
}
# "name:sum,..." in the order the names first came, or "-"
function joined(g, what,    n, p, j, out) {
	n = split(names[g, what], p, " ")
	for (j = 1; j <= n; j++)
		out = out (j > 1 ? "," : "") p[j] ":" tn[g, what, p[j]]
	return n ? out : "-"
}
END {
	printf "%-14s %-17s %4s %7s %6s %6s %6s %6s %6s %5s %4s  %s  %s\n", "story", "config", "runs",
	       "wakeups", "queued", "q_pkg", "q_far", "q_awk", "waited", "moved", ">p99",
	       "reasons", "balances_meanwhile"
	for (i = 1; i <= ng; i++) {
		g = order[i]
		split(g, sc, " ")
		printf "%-14s %-17s %4d %7d %6d %6d %6d %6d %6d %5d %4d  %s  %s\n", sc[1], sc[2], runs[g],
		       sum[g, 1], sum[g, 2], sum[g, 3], sum[g, 4], sum[g, 5], sum[g, 6], sum[g, 7],
		       sum[g, 8], joined(g, "by"), joined(g, "lb")
	}
}' "$@"
