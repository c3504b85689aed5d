# SPDX-License-Identifier: GPL-2.0
#
# newidle-guest.sh - guest side of newidle.sh (vm-run.sh --script, busybox
# sh, lib.sh sourced, cwd /sp): the story $V_STORY under CFS (sp_testfreq
# loaded, EAS off, no module) with 6.1.192's NI_RANDOM sched feature on and
# off, interleaved, $V_REPS times, in one boot: the sched domains, their
# newidle statistics and the schedstats counters carry over from run to
# run.  Prints one V-DOMAIN line per CPU and sched domain (its span, a
# hex CPU mask, name and flags), then per run one V-RUN line: the story threads' migrations by
# kind and direction (migrations.awk on the trace) and, from
# /proc/schedstat, per CPU and domain the newly-idle load_balance() calls
# (ni), the tasks they pulled and the active balances, counted since the
# boot (subtract the previous run's line), and each domain's
# max_newidle_lb_cost in ns (debugfs) at the end of the run: newidle
# balancing is skipped while the CPU's avg_idle is below it.
F=/sys/kernel/debug/sched/features
insmod "$TF_KO" || { echo "V-ERROR insmod $TF_KO"; exit 1; }
echo 1 >/proc/sys/kernel/sched_schedstats
grep -q NI_RANDOM $F || echo "V-NOTE this kernel has no NI_RANDOM feature"
# the sched domains: per CPU each domain's span (/proc/schedstat) and name
for d in /sys/kernel/debug/sched/domains/cpu*/domain*; do
	c=${d#*/domains/}
	cpu=${c%%/*}
	span=$(awk -v c="$cpu" -v dn="${c#*/}" '$1 == c { on = 1; next }
		/^cpu/ { on = 0 } on && $1 == dn { print $2 }' /proc/schedstat)
	echo "V-DOMAIN $c name=$(cat "$d/name" 2>/dev/null) span=$span flags=$(cat "$d/flags" 2>/dev/null | tr ' ' ',')"
done
r=1
while [ "$r" -le "${V_REPS:-3}" ]; do
	for feat in NI_RANDOM NO_NI_RANDOM; do
		echo $feat >$F
		d=/tmp/ni-$feat-$r
		PB_BIN=/sp sh ./pb/pb-run.sh -r 1 -c cfs -t "$TF_KO" -d $d \
			"/sp/files/$V_STORY" >$d.out 2>&1
		mig=$(trace-cmd report -i $d/traces/*.dat 2>/dev/null |
			awk -v BIG="$V_BIG" -v COMM="$V_COMM" -f /sp/files/migrations.awk)
		ms=$(sed -n 's/^pb-result .*makespan_us=\([0-9]*\).*/\1/p' $d.out)
		# domain lines: fields 19-21 newly-idle lb_count, lb_balanced,
		# lb_failed; 23 lb_gained; 27-29 alb_count, alb_failed, alb_pushed
		ss=$(awk '/^cpu/ { c = $1 } /^domain/ {
			printf "%s.%s:ni=%d,ni_gained=%d,alb=%d,alb_pushed=%d ", c, $1, $19, $23, $27, $29 }' \
			/proc/schedstat)
		# the newidle cost each domain has learnt (ns), against avg_idle
		cost=$(for f in /sys/kernel/debug/sched/domains/cpu*/domain*/max_newidle_lb_cost; do
			c=${f#*/domains/}
			printf '%s=%s ' "${c%/max_newidle_lb_cost}" "$(cat "$f")"
		done)
		echo "V-RUN rep=$r feature=$feat makespan_us=${ms:--} $mig $ss $cost"
	done
	r=$((r + 1))
done
echo NI_RANDOM >$F
