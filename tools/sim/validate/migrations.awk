# SPDX-License-Identifier: GPL-2.0
#
# migrations.awk - the story threads' migrations in a `trace-cmd report`
# (sched_waking, sched_migrate_task), by kind and direction:
#
#   wake    placed by the wake-up (the event follows sched_waking of that
#           task on the same CPU; sched_power_select lines in between
#           allowed)
#   active  pushed by the CPU stopper (comm migration/N): active balance,
#           a misfit pull among them
#   pull    any other (newidle, periodic or nohz balance of a waiting task)
#
#   up      from a CPU outside BIG to one in it, down the reverse, same
#           within one side
#
#   awk -v BIG=0,1 -v COMM=cc -f migrations.awk report.txt
# prints "wake_up=N wake_down=N ... total=N" on one line (busybox awk).
function isbig(c) { return (c in big) }
BEGIN {
	n = split(BIG, b, ",")
	for (i = 1; i <= n; i++)
		big[b[i]] = 1
	split("wake active pull", kinds, " ")
	split("up down same", dirs, " ")
}
/sched_waking:/ {
	for (i = 1; i <= NF; i++)
		if ($i ~ /^pid=/)
			lastwake[$2] = substr($i, 5)
	next
}
/sched_migrate_task:/ && $0 ~ ("comm=" COMM " ") {
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^pid=/) p = substr($i, 5)
		if ($i ~ /^orig_cpu=/) o = substr($i, 10) + 0
		if ($i ~ /^dest_cpu=/) d = substr($i, 10) + 0
	}
	k = $1 ~ /^migration\// ? "active" : (lastwake[$2] == p ? "wake" : "pull")
	dir = isbig(o) == isbig(d) ? "same" : (isbig(d) ? "up" : "down")
	cnt[k "_" dir]++
	tot++
	next
}
!/sched_power_select:/ { lastwake[$2] = "" }
END {
	for (i = 1; i <= 3; i++)
		for (j = 1; j <= 3; j++)
			printf "%s_%s=%d ", kinds[i], dirs[j], cnt[kinds[i] "_" dirs[j]] + 0
	printf "total=%d\n", tot + 0
}
