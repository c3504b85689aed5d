#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# cfs16.sh - validate the simulator's cfs beyond 4 CPUs (issue 19): one
# server story played by rt-app in a 16-CPU guest (2 packages x 8 cores,
# single-threaded TCG) with sched_power in observe mode, traced, and the
# simulator's cfs (and spread, for scale) on the same story and the
# matching model (models/x86-16.model); prints what each did with the
# story's wake-ups (tools/sim/validate/wake-choices.awk defines the counts).
#
#   tools/sim/validate/cfs16.sh [--trace TRACE.gz] [STORY.json]
#
# Without --trace it boots the guest (a few minutes; make module and make
# guest-tools first) and keeps the trace in build/validate/trace.gz; with
# --trace it re-reads a kept one (Documentation/data/cfs16-trace.gz is the
# one Documentation/simulator.rst quotes).  Writes build/validate/vm.txt,
# sim.csv and the side-by-side table, table.txt.
set -euo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$top"
trace=
if [ "${1:-}" = --trace ]; then trace=${2:?--trace needs a file}; shift 2; fi
story=${1:-tools/sim/validate/server16.json}
model=models/x86-16.model
out=build/validate
sim=build/tools/sim/sp_sim
mkdir -p "$out"
make -s "$sim" >/dev/null

if [ -z "$trace" ]; then
	V_STORY=$(basename "$story") V_DURATION_S=${V_DURATION_S:-6} \
	SP_VM_SMP="16,sockets=2,cores=8" SP_VM_TCG=${SP_VM_TCG:-single} SP_VM_TIMEOUT=${SP_VM_TIMEOUT:-1800} \
	SP_VM_FILES="$story $model" SP_VM_ENV="V_STORY V_DURATION_S" \
		selftests/vm-run.sh --script tools/sim/validate/cfs16-guest.sh >"$out/vm.out" 2>"$out/vm.err" ||
		{ tail -n 5 "$out/vm.err" >&2; echo "cfs16: the VM run failed ($out/vm.out)" >&2; exit 1; }
	tr -d '\r' <"$out/vm.out" | grep '^V-\|^# cfs16' | grep -v '^V-TRACE' >&2 || true
	tr -d '\r' <"$out/vm.out" | sed -n '/^V-TRACE-BEGIN/,/^V-TRACE-END/p' |
		grep -v '^V-TRACE' | base64 -d >"$out/trace.gz"
	trace=$out/trace.gz
fi
# the story threads' names, less a trailing number (worker0, worker1: worker)
comm=$(build/guest/pb-story "$story" | sed -n 's/.*tasks=\([^ ,]*\).*/\1/p' | sed 's/[0-9]*$//')
gzip -dc "$trace" | awk -v comm="$comm" -v pkg_cpus=8 -f tools/sim/validate/wake-choices.awk >"$out/vm.txt"
"$sim" -m "$model" -p cfs,spread --csv "$out/sim.csv" "$story" >/dev/null

# the table: one row per count, the VM, the simulator's cfs and spread
# (busy_cpus_mean in the simulator: the story's work over cfs's makespan)
work=$(build/guest/pb-story "$story" | sed -n 's/.*work_us=\([0-9]*\).*/\1/p')
awk -F'[=,]' -v work="$work" '
FILENAME ~ /vm.txt$/ { vm[$1] = $2; next }
FNR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
{ for (k in h) sim[$h["policy"], k] = $h[k] }
END {
	n = split("makespan_us wake_placed wake_on_prev wake_on_waker wake_prev_pkg wake_queued " \
		  "wake_queued_idle_pkg wake_queued_idle_far migrations p50_us p99_us", key, " ")
	printf "%-22s %12s %12s %12s\n", "count", "6.1 (VM)", "sim cfs", "sim spread"
	for (i = 1; i <= n; i++) {
		k = key[i]
		s1 = sim["cfs", k]; s2 = sim["spread", k]
		if (k == "wake_prev_pkg") {
			s1 = sprintf("%.0f", sim["cfs", "prev_pkg_share"] * sim["cfs", "wake_placed"])
			s2 = sprintf("%.0f", sim["spread", "prev_pkg_share"] * sim["spread", "wake_placed"])
		}
		printf "%-22s %12s %12s %12s\n", k, vm[k], s1, s2
	}
	printf "%-22s %12s %12s %12s\n", "migrations_not_waking", vm["migrations_not_waking"],
	       sim["cfs", "lb_pulled"], sim["spread", "lb_pulled"]
	printf "%-22s %12s\n", "migrations_between_pkgs", vm["migrations_between_pkgs"]
	printf "%-22s %12s %12.2f\n", "busy_cpus_mean", vm["busy_cpus_mean"],
	       work / sim["cfs", "makespan_us"]
	printf "%-22s %12s\n", "threads (pkg0/pkg1)", vm["threads"] " (" vm["fork_pkg0"] "/" vm["fork_pkg1"] ")"
	print ""
	print "The wake-up decisions of 6.1 (VM) against the rule tools/sim/cfs.c models:"
	printf "  the waker was not on prev_cpu           %5d\n", vm["rule_waker_not_prev"]
	printf "  prev_cpu idle: kept prev_cpu            %5d of %d\n", vm["rule_prev_idle_kept"], vm["rule_prev_idle"]
	printf "  prev_cpu busy, recent_used_cpu idle: taken %2d of %d\n", vm["rule_recent_taken"], vm["rule_recent_idle"]
	printf "  no idle CPU in the package: queued on prev %2d of %d\n", vm["rule_no_idle_queued_prev"], vm["rule_no_idle_in_pkg"]
	printf "  an idle CPU in the package (%d): the first after prev taken %d, queued on prev %d, another idle one %d\n",
	       vm["rule_idle_in_pkg"], vm["rule_first_idle_taken"], vm["rule_queued_on_prev"], vm["rule_other_idle_taken"]
	printf "  the first idle CPU k places after prev: taken / queued on prev, k = 1..7:"
	for (k = 1; k <= 7; k++)
		printf " %s/%s", vm["dist_taken_" k] + 0, vm["dist_queued_" k] + 0
	print ""
}' "$out/vm.txt" "$out/sim.csv" | tee "$out/table.txt"
