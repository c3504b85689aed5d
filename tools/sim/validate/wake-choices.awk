# SPDX-License-Identifier: GPL-2.0
#
# wake-choices.awk - the kernel's side of the cfs validation: what 6.1 did
# with a story's threads, from a trace (the text of /sys/kernel/tracing/trace
# with sched_waking, sched_wakeup, sched_wakeup_new, sched_switch and
# sched_migrate_task enabled).  The same counts as the simulator's CSV
# (wake_placed, wake_on_prev, wake_on_waker, wake_queued,
# wake_queued_idle_pkg, wake_queued_idle_far, migrations, p50/p99 of the
# wake-up latency), defined as in tools/sim/report.c, so that
# tools/sim/validate/cfs16.sh can print them side by side.
#
#   awk -v comm=worker -v pkg_cpus=8 -f wake-choices.awk TRACE
#
# comm: what the story threads' names start with; pkg_cpus: CPUs per package (package of CPU
# c = int(c / pkg_cpus)).  A wake-up is a sched_waking of a story thread
# that is not running; the waker's CPU is the CPU that traced it, prev_cpu
# the CPU the thread last ran on, the chosen CPU sched_power_select's cfs_cpu
# (the module in observe mode traces every decision).  It queues if the
# chosen CPU is not idle at that moment: its current task (from
# sched_switch) is not the idle task, or a task placed on it has not run
# yet; the other CPUs are judged alike.  A migration is a sched_migrate_task of a story
# thread with orig_cpu != dest_cpu, after its fork; "balancer" ones happen
# while the thread is not waking.  busy_cpus_mean: CPUs running any task,
# on average, from the first fork to the story's end.  Prints key=value
# lines.

function field(key,    i, n) {
	n = length(key) + 1
	for (i = ev_field; i <= NF; i++)
		if (substr($i, 1, n) == key "=")
			return substr($i, n + 1)
	return ""
}

# A story thread's name starts with comm (worker0, worker1, ...).
function is_story(name) {
	return substr(name, 1, length(comm)) == comm
}

function pkg(c) {
	return int(c / pkg_cpus)
}

# Idle as the kernel's available_idle_cpu() sees it: running the idle task
# with no woken task on its way (placed by sched_wakeup, not yet switched in).
function cpu_idle(x) {
	return (x in curr) && curr[x] == 0 && !on_way[x]
}

function idle_where(c, same,    x) {
	for (x = 0; x <= max_cpu; x++)
		if (x != c && cpu_idle(x) && (pkg(x) == pkg(c)) == same)
			return 1
	return 0
}

# The first idle CPU of @c's package after @c, wrapping (select_idle_cpu()'s
# order over the LLC), or -1.
function first_idle_after(c,    base, k, x) {
	base = pkg(c) * pkg_cpus
	for (k = 1; k < pkg_cpus; k++) {
		x = base + (c - base + k) % pkg_cpus
		if (cpu_idle(x))
			return x
	}
	return -1
}

# The choice against the rule tools/sim/cfs.c models for a timer wake-up
# (waker = prev): prev if idle, else recent_used_cpu if idle in the
# package, else the first idle CPU of the package after prev, as far as
# SIS_UTIL's hint lets the scan go (the farther it lies, the likelier a
# short scan misses it), else prev, queued.  dist_taken_K, dist_queued_K:
# the first idle CPU lay K places after prev in scan order and was taken,
# or the task queued on prev.
function rule(pid, c, p, w,    r, f, d) {
	if (w != p) {
		rule_waker_not_prev++
		return
	}
	if (cpu_idle(p)) {
		r_prev_idle++
		if (c == p)
			r_prev_idle_kept++
		return
	}
	r = (pid in recent) ? recent[pid] : -1
	recent[pid] = p
	f = first_idle_after(p)
	r_prev_busy++
	if (r >= 0 && r != p && pkg(r) == pkg(p) && cpu_idle(r)) {
		r_recent++
		if (c == r)
			r_recent_kept++
		return
	}
	if (f < 0) {
		r_none_idle++
		if (c == p)
			r_none_idle_prev++
		return
	}
	r_scan++
	d = (f - p + pkg_cpus) % pkg_cpus
	if (c == f)
		dist_taken[d]++
	else if (c == p)
		dist_queued[d]++
	if (c == f)
		r_scan_first++
	else if (c == p)
		r_scan_queued++
	else if (pkg(c) == pkg(p) && cpu_idle(c))
		r_scan_other_idle++
}

function sort_lat(    i, j, t) {
	for (i = 2; i <= n_lat; i++)
		for (j = i; j > 1 && lat[j - 1] > lat[j]; j--) {
			t = lat[j]; lat[j] = lat[j - 1]; lat[j - 1] = t
		}
}

function pct(p,    r) {
	if (!n_lat)
		return 0
	r = int((n_lat * p + 99) / 100)
	return lat[r ? r : 1]
}

# "comm-pid [CPU] flags TS: event: fields": find the CPU, time and event.
{
	ev_field = 0
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^\[[0-9]+\]$/) {
			cpu = substr($i, 2, length($i) - 2) + 0
		} else if ($i ~ /^[0-9]+\.[0-9]+:$/) {
			ts = substr($i, 1, length($i) - 1) * 1000000
			ev = $(i + 1)
			ev_field = i + 2
			break
		}
	}
	if (!ev_field)
		next
	if (cpu > max_cpu)
		max_cpu = cpu
}

ev == "sched_switch:" {
	prev = field("prev_pid") + 0
	nxt = field("next_pid") + 0
	if (t_new && (cpu in since) && curr[cpu] != 0)
		busy_us += ts - since[cpu]
	since[cpu] = ts
	curr[cpu] = nxt
	if (is_story(field("prev_comm")))
		story[prev] = 1
	if (is_story(field("next_comm")))
		story[nxt] = 1
	if (prev in story) {
		last_cpu[prev] = cpu
		running[prev] = 0
		t_end = ts
		busy_at_end = busy_us
	}
	if (nxt in target) {
		on_way[target[nxt]]--
		delete target[nxt]
	}
	if (nxt in story) {
		running[nxt] = 1
		if (nxt in pending) {
			lat[++n_lat] = ts - pending[nxt]
			delete pending[nxt]
		}
	}
	next
}

# A new thread still has rt-app's name: which ones are story threads is
# known once they rename themselves, so the forks are counted at the end.
ev == "sched_wakeup_new:" {
	pid = field("pid") + 0
	if (!t_new)
		t_new = ts
	fork_cpu[pid] = field("target_cpu") + 0
	fork_ts[pid] = ts
	next
}

ev == "sched_waking:" {
	pid = field("pid") + 0
	if (is_story(field("comm")))
		story[pid] = 1
	if (!(pid in story) || running[pid] || (pid in pending) || !(pid in last_cpu))
		next
	pending[pid] = ts
	waker[pid] = cpu
	next
}

# The decision: sched_power_select (observe mode) carries CFS's choice,
# traced where and when 6.1 made it; sched_wakeup may come much later (a
# remote wake-up waits for its IPI, tens of ms under TCG).
ev == "sched_power_select:" && field("wake") == "wakeup" {
	pid = field("pid") + 0
	if (!(pid in waker))
		next
	c = field("cfs_cpu") + 0
	p = last_cpu[pid]
	rule(pid, c, p, waker[pid])
	placed++
	if (pkg(c) == pkg(p))
		prev_pkg++
	if (c == p)
		on_prev++
	else if (c == waker[pid])
		on_waker++
	if (!cpu_idle(c)) {
		queued++
		if (idle_where(c, 1))
			q_idle_pkg++
		else if (idle_where(c, 0))
			q_idle_far++
	}
	delete waker[pid]
	target[pid] = c
	on_way[c]++
	next
}

ev == "sched_migrate_task:" {
	pid = field("pid") + 0
	if (!(pid in story) || field("orig_cpu") == field("dest_cpu"))
		next
	migrations++
	if (!(pid in pending))
		lb_migrations++
	if (pkg(field("orig_cpu") + 0) != pkg(field("dest_cpu") + 0))
		xpkg_migrations++
	next
}

END {
	sort_lat()
	for (pid in fork_cpu) {
		if (!(pid in story))
			continue
		forks++
		fork_pkg[pkg(fork_cpu[pid])]++
		if (!t_start || fork_ts[pid] < t_start)
			t_start = fork_ts[pid]
	}
	printf "threads=%d\nfork_pkg0=%d\nfork_pkg1=%d\n", forks, fork_pkg[0], fork_pkg[1]
	printf "makespan_us=%.0f\n", t_end - t_start
	printf "busy_cpus_mean=%.2f\n", (t_end > t_new ? busy_at_end / (t_end - t_new) : 0)
	printf "wake_placed=%d\nwake_on_prev=%d\nwake_on_waker=%d\nwake_prev_pkg=%d\n", placed, on_prev, on_waker, prev_pkg
	printf "wake_queued=%d\nwake_queued_idle_pkg=%d\nwake_queued_idle_far=%d\n", queued, q_idle_pkg, q_idle_far
	printf "migrations=%d\nmigrations_not_waking=%d\nmigrations_between_pkgs=%d\n", migrations, lb_migrations, xpkg_migrations
	printf "lat_samples=%d\np50_us=%.1f\np99_us=%.1f\n", n_lat, pct(50), pct(99)
	printf "rule_waker_not_prev=%d\n", rule_waker_not_prev
	printf "rule_prev_idle=%d\nrule_prev_idle_kept=%d\n", r_prev_idle, r_prev_idle_kept
	printf "rule_prev_busy=%d\nrule_recent_idle=%d\nrule_recent_taken=%d\n", r_prev_busy, r_recent, r_recent_kept
	printf "rule_no_idle_in_pkg=%d\nrule_no_idle_queued_prev=%d\n", r_none_idle, r_none_idle_prev
	printf "rule_idle_in_pkg=%d\nrule_first_idle_taken=%d\nrule_queued_on_prev=%d\nrule_other_idle_taken=%d\n", r_scan, r_scan_first, r_scan_queued, r_scan_other_idle
	for (k = 1; k < pkg_cpus; k++)
		printf "dist_taken_%d=%d\ndist_queued_%d=%d\n", k, dist_taken[k], k, dist_queued[k]
}
