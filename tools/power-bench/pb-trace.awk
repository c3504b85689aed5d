# SPDX-License-Identifier: GPL-2.0
#
# pb-trace.awk - power-bench's trace metrics for one run, from trace text:
# the kernel's own /sys/kernel/tracing/trace or `trace-cmd report -N -t`
# (both: "COMM-PID [CPU] [FLAGS] SECONDS: EVENT: key=value ...").
# POSIX awk: runs under busybox in the guest and under mawk/gawk on a host.
#
#   awk -v t0_us=T -v t1_us=T -v tasks=a,b -v pkgs=0,0,1,1 -f pb-trace.awk TRACE
#
# t0_us, t1_us: the window W (CLOCK_MONOTONIC us; the trace clock is mono).
# tasks: the story's thread names (comm, 15 chars).  pkgs: package of CPU
# 0, 1, ...  Prints one line of key=value.  Documentation/power-bench.rst
# ("Metrics") defines every value; the comments here only say how.

function field(key,    i, n) {
	n = length(key) + 1
	for (i = first_field; i <= NF; i++)
		if (substr($i, 1, n) == key "=")
			return substr($i, n + 1)
	return ""
}

function hex_value(s,    i, v, c) {
	v = 0
	s = tolower(s)
	if (substr(s, 1, 2) == "0x")
		s = substr(s, 3)
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1))
		if (!c)
			break
		v = v * 16 + c - 1
	}
	return v
}

# A wake-up proper: not a fork or exec (0.2: wake=; 0.1: WF_EXEC|WF_FORK).
function select_is_wakeup(    w, f) {
	w = field("wake")
	if (w != "")
		return w == "wakeup"
	f = hex_value(field("wake_flags"))
	return int(f / 2) % 2 == 0 && int(f / 4) % 2 == 0
}

function in_window(t) {
	return t >= t0_us && t <= t1_us
}

# Marks @pid as a story thread if @comm is one of the story's names.
function note_comm(pid, comm) {
	if (comm in story_name)
		story_pid[pid] = 1
	return pid in story_pid
}

function on_idle(    state, cpu) {
	state = field("state")
	cpu = field("cpu_id") + 0
	n_tr++
	tr_t[n_tr] = ts_us
	tr_cpu[n_tr] = cpu
	tr_idle[n_tr] = state == "4294967295" ? 0 : 1
}

function on_switch(    prev, nxt) {
	prev = field("prev_pid") + 0
	nxt = field("next_pid") + 0
	if (prev || nxt)
		cpu_ran[cpu] = 1
	running[prev] = 0
	if (!nxt)
		return
	running[nxt] = 1
	note_comm(nxt, field("next_comm"))
	if (nxt in pending) {
		n_lat++
		lat[n_lat] = ts_us - pending[nxt]
		delete pending[nxt]
	}
}

function on_waking(    pid) {
	pid = field("pid") + 0
	if (!note_comm(pid, field("comm")) || !in_window(ts_us))
		return
	if (running[pid] || (pid in pending))
		return
	pending[pid] = ts_us
	waking_cpu[pid] = field("target_cpu") + 0
	wakeups++
}

# sched_wakeup after the waking above: target_cpu is where it was placed.
function on_wakeup(    pid) {
	pid = field("pid") + 0
	if (!(pid in waking_cpu))
		return
	ttwu_n++
	if (pkg[field("target_cpu") + 0] == pkg[waking_cpu[pid]])
		ttwu_same++
	delete waking_cpu[pid]
}

function on_migrate(    pid) {
	pid = field("pid") + 0
	if (!note_comm(pid, field("comm")) || !in_window(ts_us))
		return
	if (field("orig_cpu") != field("dest_cpu"))
		migrations++
}

function on_select(    pid, ret) {
	pid = field("pid") + 0
	if (!note_comm(pid, field("comm")) || !in_window(ts_us) || !select_is_wakeup())
		return
	ret = field("ret_cpu")
	if (ret == "")
		ret = field("chosen_cpu")
	sel_n++
	if (pkg[ret + 0] == pkg[field("prev_cpu") + 0])
		sel_same++
}

BEGIN {
	n = split(tasks, names, ",")
	for (i = 1; i <= n; i++)
		story_name[names[i]] = 1
	nr_cpus = split(pkgs, pk, ",")
	for (i = 1; i <= nr_cpus; i++) {
		pkg[i - 1] = pk[i] + 0
		pkg_seen[pk[i] + 0] = 1
	}
	nr_pkgs = 0
	for (p in pkg_seen)
		nr_pkgs++
	t0_us += 0
	t1_us += 0
}

{
	for (i = 1; i <= NF; i++)
		if ($i ~ /^\[[0-9]+\]$/)
			break
	if (i > NF)
		next
	cpu = substr($i, 2, length($i) - 2) + 0
	i++
	if ($i !~ /^[0-9]+\.[0-9]+:$/)
		i++
	if ($i !~ /^[0-9]+\.[0-9]+:$/)
		next
	ts_us = substr($i, 1, length($i) - 1) * 1000000
	ev = $(i + 1)
	sub(/:$/, "", ev)
	first_field = i + 2
	events++
	if (events == 1)
		trace_first_us = ts_us
	trace_last_us = ts_us
	if (ev == "cpu_idle")
		on_idle()
	else if (ev == "sched_switch")
		on_switch()
	else if (ev == "sched_waking")
		on_waking()
	else if (ev == "sched_wakeup")
		on_wakeup()
	else if (ev == "sched_migrate_task")
		on_migrate()
	else if (ev == "sched_power_select")
		on_select()
	else if ($NF == "pb_reset" && index($0, "tracing_mark_write"))
		reset_us = ts_us
	else if ($NF == "pb_read" && index($0, "tracing_mark_write"))
		read_us = ts_us
}

# State of every CPU before its first cpu_idle event (see the definition).
function initial_states(    c, k) {
	for (c = 0; c < nr_cpus; c++)
		cpu_idle[c] = -1
	for (k = 1; k <= n_tr; k++)
		if (cpu_idle[tr_cpu[k]] < 0)
			cpu_idle[tr_cpu[k]] = 1 - tr_idle[k]
	for (c = 0; c < nr_cpus; c++) {
		if (cpu_idle[c] < 0)
			cpu_idle[c] = cpu_ran[c] ? 0 : 1
		if (!cpu_idle[c])
			pkg_awake[pkg[c]]++
	}
}

function all_pkgs_awake(    p) {
	for (p in pkg_seen)
		if (!pkg_awake[p])
			return 0
	return 1
}

# Time in [a, b] clipped to W.
function clipped(a, b) {
	if (a < t0_us)
		a = t0_us
	if (b > t1_us)
		b = t1_us
	return b > a ? b - a : 0
}

# Sweep the idle transitions in time order: both-awake time, package wake-ups.
function sweep_packages(    k, c, t, prev_t) {
	initial_states()
	prev_t = t0_us
	for (k = 1; k <= n_tr; k++) {
		t = tr_t[k]
		c = tr_cpu[k]
		if (all_pkgs_awake())
			all_awake_us += clipped(prev_t, t)
		prev_t = t
		if (cpu_idle[c] == tr_idle[k])
			continue
		cpu_idle[c] = tr_idle[k]
		if (tr_idle[k]) {
			pkg_awake[pkg[c]]--
		} else if (pkg_awake[pkg[c]]++ == 0 && in_window(t)) {
			pkg_wakeups++
		}
	}
	if (all_pkgs_awake())
		all_awake_us += clipped(prev_t, t1_us)
}

# Heap sort of lat[1..n_lat], ascending (POSIX awk has no sort).
function sift(a, root, end,    child, tmp) {
	while ((child = 2 * root) <= end) {
		if (child < end && a[child + 1] > a[child])
			child++
		if (a[root] >= a[child])
			return
		tmp = a[root]; a[root] = a[child]; a[child] = tmp
		root = child
	}
}

function heap_sort(a, n,    i, tmp) {
	for (i = int(n / 2); i >= 1; i--)
		sift(a, i, n)
	for (i = n; i > 1; i--) {
		tmp = a[1]; a[1] = a[i]; a[i] = tmp
		sift(a, 1, i - 1)
	}
}

# Nearest rank: the ceil(n * p / 100)-th smallest, 1-based.
function pct(p,    rank) {
	if (!n_lat)
		return "-"
	rank = int((n_lat * p + 99) / 100)
	if (rank < 1)
		rank = 1
	return sprintf("%.1f", lat[rank])
}

function rounded(x) {
	return sprintf("%d", x < 0 ? x - 0.5 : x + 0.5)
}

function share(num, den) {
	return den ? sprintf("%.4f", num / den) : "-"
}

END {
	span_us = t1_us - t0_us
	if (span_us <= 0) {
		print "trace_status=no_window events=" events + 0
		exit
	}
	sweep_packages()
	heap_sort(lat, n_lat)
	if (sel_n) {
		prev_share = share(sel_same, sel_n)
		prev_src = "select"
	} else {
		prev_share = share(ttwu_same, ttwu_n)
		prev_src = "ttwu"
	}
	status = (trace_first_us <= t0_us && trace_last_us >= t1_us) ? "ok" : "short"
	printf "trace_status=%s events=%d wakeups=%d lat_p50_us=%s lat_p99_us=%s lat_max_us=%s",
		status, events, wakeups, pct(50), pct(99), pct(100)
	printf " prev_pkg_share=%s prev_pkg_src=%s prev_pkg_share_ttwu=%s select_wakeups=%d",
		prev_share, prev_src, share(ttwu_same, ttwu_n), sel_n
	printf " migrations=%d migrations_per_s=%.2f both_pkgs_awake_share=%.4f pkg_wakeups=%d",
		migrations, migrations * 1000000 / span_us, all_awake_us / span_us, pkg_wakeups
	printf " startup_us=%s teardown_us=%s\n", reset_us ? rounded(t0_us - reset_us) : "-",
		read_us ? rounded(read_us - t1_us) : "-"
}
