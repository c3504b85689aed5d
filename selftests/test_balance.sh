# SPDX-License-Identifier: GPL-2.0
# The load-balancer gate (balance_hook.c, issue 19): load_balance() between
# the model's top-level groups is gated in power and balanced mode with
# balance_gate=1 and runs as CFS's otherwise; the redirect and the
# nr_running probe are registered only then; an overutilised CPU with a
# task waiting on it and a waiting task (the starvation guard) let CFS
# balance; a model without a second top-level group gates nothing.  On a
# big.LITTLE board (SP_ARCH=arm64) a task that outgrows a LITTLE CPU
# reaches a big one.

# bal_events FILE: "gated passed" sched_power_balance records of a report
bal_events() {
	awk '/sched_power_balance:/ { if (/ passed=0 reason=gated /) g++; else if (/ passed=1 /) p++ }
		END { print g + 0, p + 0 }' "$1"
}

# bal_redirected: 1 if load_balance (or sched_balance_rq) is redirected now
bal_redirected() {
	if grep -Eq '^(load_balance|sched_balance_rq) ' $TRACEFS/enabled_functions; then echo 1; else echo 0; fi
}

# pkg_of CPU: its physical package
pkg_of() {
	cat /sys/devices/system/cpu/cpu$1/topology/physical_package_id 2>/dev/null || echo 0
}

# task_cpu PID: the CPU the task last ran on (/proc/PID/stat field 39)
task_cpu() {
	awk '{ sub(/^.*\) /, ""); print $37 }' /proc/$1/stat 2>/dev/null
}

# stats_reset, keeping the run-queue check's failures for the last test
bal_nr_bad=0
bal_reset() {
	bal_nr_bad=$((bal_nr_bad + $(stat_get balance_nr_mismatch)))
	stats_reset
}

# the function the redirect chose on this kernel
ftrace_site balance load_balance sched_balance_rq

# 1. The knob and the registration follow the mode and balance_gate.
knob_bool_check balance balance_gate
regs=""
for step in "mode observe" "mode power" "balance_gate 0" "balance_gate 1" "mode balanced" \
	"mode performance" "mode off" "mode power"; do
	sp_write $step
	regs="$regs $(bal_redirected)"
done
[ "$regs" = " 0 1 0 1 1 0 0 1" ] &&
	tap_ok "balance: the redirect is registered exactly while the mode acts and balance_gate=1" ||
	tap_fail "balance: the redirect follows the mode and balance_gate" "observe power gate0 gate1 balanced performance off power:$regs"

# 2. Two light periodic tasks, one per package (masks of both CPUs of a
# package): power mode gates the balances between packages, observe mode
# does not see the balancer at all.  Counted on an untraced run (trace-cmd's
# own threads are a load that can make a CPU wait: a starvation pass),
# traced on a second one.
light_load2() {
	taskset 3 /sp/sp_load periodic 1 20000 1000 3000 >/dev/null &
	taskset c /sp/sp_load periodic 1 20000 1000 3000 >/dev/null
	wait
}
# bal_record TRACE.dat CMD...: CMD run while trace-cmd records
# sched_power_balance; the report's text in TRACE.dat.txt
bal_record() {
	local dat=$1
	shift
	cd /tmp
	trace-cmd record -q -e sched_power:sched_power_balance -o "$dat" "$@" >/dev/null 2>&1
	trace-cmd report -i "$dat" >"$dat.txt" 2>/dev/null
	cd /sp
}
light_run() {	# light_run TRACE.dat: the same, traced
	bal_record "$1" sh -c \
		'taskset 3 /sp/sp_load periodic 1 20000 1000 3000 & taskset c /sp/sp_load periodic 1 20000 1000 3000; wait'
}
# starve_short TRACE.txt: the starving passes of a report whose task had
# waited less than the guard's bound (core/sp_gate.h SP_GATE_STARVE_NS,
# 4 ms), and the starving passes in all: "short all"
starve_short() {
	awk '/sched_power_balance:.* reason=starving / {
		n++; w = $0; sub(/.*waited_us=/, "", w); if (w + 0 < 4000) s++ }
		END { print s + 0, n + 0 }' "$1"
}
# passes_seen COUNTED TRACED NAME: test NAME passes when the counter saw
# COUNTED passes and the trace TRACED, both above 0
passes_seen() {
	[ "$1" -gt 0 ] && [ "$2" -gt 0 ] &&
		tap_ok "$3 ($1 passes, $2 traced)" ||
		tap_fail "$3" "counter $1, trace $2" "$(stats_dump | grep balance)"
}
sp_write mode power
bal_reset
light_load2
g=$(stat_get balance_gated) starv=$(stat_get balance_starving)
echo "# balance power/light: gated=$g passed=$(stat_get balance_passed) (local $(stat_get balance_local), overutilised $(stat_get balance_overutilised), starving $starv, waiting $(stat_get balance_waiting))"
[ "$g" -gt 0 ] &&
	tap_ok "balance: power mode gates balances between packages ($g; starving passes $starv)" ||
	tap_fail "balance: power mode gates balances between packages" "$(stats_dump | grep balance)"
light_run /tmp/bal-power.dat
set -- $(bal_events /tmp/bal-power.dat.txt)
[ "$1" -gt 0 ] && tap_ok "balance: sched_power_balance events show $1 gated balances" ||
	tap_fail "balance: sched_power_balance events show gated balances" "gated=$1 passed=$2"
# A starvation pass is the guard doing its job only when a task really
# waited the bound; how often that happens on a light load depends on the
# kernel's own threads (the KASAN/lockdep kernel's kworkers run long), so
# each pass's wait is checked, not their rate.
set -- $(starve_short /tmp/bal-power.dat.txt)
[ "$1" -eq 0 ] &&
	tap_ok "balance: every starving pass of the light load waited 4 ms or more ($2 passes)" ||
	tap_fail "balance: every starving pass of the light load waited 4 ms or more" "$1 of $2 waited less"
sp_write mode observe
bal_reset
light_run /tmp/bal-obs.dat
g=$(stat_get balance_gated) p=$(stat_get balance_passed)
set -- $(bal_events /tmp/bal-obs.dat.txt)
[ "$g" -eq 0 ] && [ "$p" -eq 0 ] && [ "$1" -eq 0 ] && [ "$2" -eq 0 ] &&
	tap_ok "balance: observe mode leaves the balancer alone (no counts, no events)" ||
	tap_fail "balance: observe mode leaves the balancer alone" "counters gated=$g passed=$p, trace gated=$1 passed=$2"

# 3. Overutilised: every CPU spinning and one with two spinners, the gate
# lets CFS balance.
sp_write mode power
bal_reset
bal_record /tmp/bal-heavy.dat /sp/sp_load spin $(( $(nproc) + 1 )) 2000
ou=$(stat_get balance_overutilised)
tou=$(grep -c 'passed=1 reason=overutilised' /tmp/bal-heavy.dat.txt)
echo "# balance power/heavy: overutilised passes $ou (trace $tou), gated $(stat_get balance_gated)"
passes_seen "$ou" "$tou" "balance: overutilised CPUs let CFS balance"

# 4. The starvation guard.  Two periodic tasks that wake together share
# CPU 0 (40 % busy: not overutilised; one waits 8 ms every period): the
# guard passes for them.  Then two spinners share CPU 0 with the CPUs of
# package 1 allowed but CPU 0's sibling not (mask: CPU 0 and the first CPU
# of the other package), package 1 idle: only a balance across the gate
# can give each its own CPU, and it must happen, by the starvation guard
# or, once CPU 0 reads as overutilised, by that.
other=""
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${c##*cpu}
	[ "$(pkg_of $n)" != "$(pkg_of 0)" ] && [ -z "$other" ] && other=$n
done
if [ -z "$other" ]; then
	tap_skip "balance: the starvation guard passes for tasks waiting on CPU 0" "one package"
	tap_skip "balance: each traced starving pass waited 4 ms or more" "one package"
	tap_skip "balance: two spinners on CPU 0 get the other package's CPU" "one package"
else
	mask=$(printf '%x' $(( 1 | (1 << other) )))
	bal_reset
	bal_record /tmp/bal-starve.dat taskset 1 /sp/sp_load periodic 2 40000 8000 2000
	st=$(stat_get balance_starving)
	tst=$(grep -c 'passed=1 reason=starving trigger_cpu=0' /tmp/bal-starve.dat.txt)
	echo "# balance starvation (periodic): starving passes $st (trace, CPU 0: $tst), overutilised $(stat_get balance_overutilised), gated $(stat_get balance_gated)"
	passes_seen "$st" "$tst" "balance: the starvation guard passes for tasks waiting on CPU 0"
	set -- $(starve_short /tmp/bal-starve.dat.txt)
	[ "$2" -gt 0 ] && [ "$1" -eq 0 ] &&
		tap_ok "balance: each of the $2 traced starving passes waited 4 ms or more" ||
		tap_fail "balance: each traced starving pass waited 4 ms or more" "$1 of $2 waited less"
	# The spinners outlive the look by far and are killed after it: a
	# guest slowed by its host (a debug kernel under load) once spent
	# their whole 4 s before the look began.
	taskset 1 /sp/sp_load spin 2 60000 >/dev/null 2>&1 &
	sp=$!
	sleep 0.3
	kids=$(grep -l "^PPid:[[:space:]]*$sp\$" /proc/[0-9]*/status 2>/dev/null | cut -d/ -f3 | tr '\n' ' ')
	for k in $kids; do taskset -p $mask $k >/dev/null; done
	bal_reset
	spread=0 i=0
	while [ $i -lt 20 ] && [ $spread -eq 0 ]; do
		sleep 0.1
		for k in $kids; do [ "$(task_cpu $k)" = "$other" ] && spread=1; done
		i=$((i + 1))
	done
	cpus=$(for k in $kids; do task_cpu $k; done | tr '\n' ' ')
	kill $kids $sp 2>/dev/null
	wait $sp
	echo "# balance starvation (spinners $kids, mask 0x$mask): on CPU $other after $((i * 100)) ms: $spread; passes starving $(stat_get balance_starving) overutilised $(stat_get balance_overutilised)"
	[ "$spread" -eq 1 ] &&
		tap_ok "balance: two spinners on CPU 0 get CPU $other of the idle package (within $((i * 100)) ms)" ||
		tap_fail "balance: two spinners on CPU 0 get the other package's CPU" "kids='$kids' cpus: $cpus" "$(stats_dump | grep balance)"
fi

# 5. A model whose top levels have one group each gates nothing.
cat $SP/model >/tmp/bal-m0
# the gate level: the topmost level with more than one group
lvl=$(awk '/^level / { sub(/^name=/, "", $2); lv[++n] = $2 }
	/^group / { sub(/^level=/, "", $2); g[$2]++ }
	END { for (i = n; i >= 1; i--) if (g[lv[i]] > 1) { print lv[i]; exit } }' /tmp/bal-m0)
awk -v l="$lvl" -v n="$(nproc)" '
	$1 == "group" && $2 == "level=" l { if ($3 != "id=0") next; sub(/cpus=[^ ]*/, "cpus=0-" n - 1) }
	{ print }' /tmp/bal-m0 >/tmp/bal-m1
if cat /tmp/bal-m1 >$SP/model 2>/tmp/bal-m.err; then
	bal_reset
	/sp/sp_load periodic 2 20000 1000 1500 >/dev/null
	g=$(stat_get balance_gated) l=$(stat_get balance_local)
	cat /tmp/bal-m0 >$SP/model
	bal_reset
	/sp/sp_load periodic 2 20000 1000 1500 >/dev/null
	g2=$(stat_get balance_gated)
	[ "$g" -eq 0 ] && [ "$l" -gt 0 ] && [ "$g2" -gt 0 ] &&
		tap_ok "balance: one top-level group gates nothing ($l local passes), the old model gates again ($g2)" ||
		tap_fail "balance: the gate follows the model" "one group: gated=$g local=$l; restored: gated=$g2"
else
	tap_fail "balance: a one-group model is accepted" "$(cat /tmp/bal-m.err)" "$(grep -E '^(level|group)' /tmp/bal-m1)"
	cat /tmp/bal-m0 >$SP/model
fi

# 7. big.LITTLE: a light task stays on LITTLE with the gate on; when it
# steps to a spinning task (sp_load step: 2 % for 2 s, then spinning) it
# outgrows its LITTLE CPU, which turns overutilised, the gate lets CFS's
# misfit balance through, and the task reaches a big CPU.  It starts on
# the LITTLE CPUs (its mask widened to every CPU 0.1 s in), so that where
# it runs after that is the wake-up rule's and the balancer's doing; the
# light phase counts from its second half, as test_asym does.  The time
# from the step to its first run on a big CPU, in power mode and (for
# reference) in observe mode, where CFS's balancer alone moves it.
capmax=0
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	cap=$(cat $c/cpu_capacity 2>/dev/null || echo 1024)
	[ "$cap" -gt $capmax ] && capmax=$cap
done
big=""
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	cap=$(cat $c/cpu_capacity 2>/dev/null || echo 1024)
	[ "$cap" -eq $capmax ] && big="$big ${c##*cpu}"
done
# step_run MODE: bal_step_read's "on_little_before_step light_on_little_pct
# step_to_big_ms guest_ms host_ms" (hrtimer_expire_entry for the ticks of
# the spinning CPU, which bal_step_read's guest time needs)
step_run() {
	sp_write mode $1
	bal_reset
	cd /tmp
	trace-cmd record -q -s 100000 -e sched:sched_switch -e sched_power:sched_power_balance \
		-e timer:hrtimer_expire_entry -o /tmp/bal-step.dat sh -c "taskset $lmask /sp/sp_load step 10000 200 2000 2600 & p=\$!;
			sleep 0.1; taskset -p $amask \$p; wait" >/dev/null 2>&1
	trace-cmd report -i /tmp/bal-step.dat >/tmp/bal-step-$1.txt 2>/dev/null
	cd /sp
	bal_step_read "$big" /tmp/bal-step-$1.txt
}
lmask=0 amask=0
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${c##*cpu}
	amask=$((amask | (1 << n)))
	echo " $big " | grep -q " $n " || lmask=$((lmask | (1 << n)))
done
lmask=$(printf '%x' $lmask) amask=$(printf '%x' $amask)
if [ "$(echo $big | wc -w)" -eq "$(nproc)" ]; then
	tap_skip "balance: a light task stays on LITTLE with the gate" "all CPUs have capacity $capmax"
	tap_skip "balance: a task that outgrows LITTLE reaches big within 100 ms" "all CPUs have capacity $capmax"
else
	set -- $(step_run observe)
	cfs_ms=$3
	set -- $(step_run power)
	ou=$(stat_get balance_overutilised) g=$(stat_get balance_gated)
	echo "# balance big.LITTLE (big:$big): power: on LITTLE at the step $1, second half of the light phase $2 % of switch-ins on LITTLE, step to big $3 ms ($4 ms of guest time, $5 ms of host stalls; $ou overutilised passes, $g gated); observe (CFS): step to big $cfs_ms ms"
	[ "$2" -ge 80 ] && [ "$g" -gt 0 ] &&
		tap_ok "balance: a light task stays on LITTLE with the gate ($2 % of its late runs, $g gated balances)" ||
		tap_fail "balance: a light task stays on LITTLE with the gate" "LITTLE share $2 %, gated $g"
	# The bound is on the guest's own time from the step to the move:
	# under TCG the host can deschedule the emulator for longer than the
	# whole budget, and the guest's clock runs on meanwhile (bal_step_read).
	if [ "$1" -ne 1 ]; then
		tap_fail "balance: a task that outgrows LITTLE reaches big within 100 ms" "it was not on a LITTLE CPU at the step"
	elif [ "$4" -ge 0 ] && [ "$4" -le 100 ] && [ "$ou" -gt 0 ]; then
		tap_ok "balance: a task that outgrows LITTLE reaches big within 100 ms ($4 ms of the guest's own time, $3 ms with $5 ms of host stalls; CFS alone $cfs_ms ms)"
	else
		tap_fail "balance: a task that outgrows LITTLE reaches big within 100 ms" "$4 ms of guest time, $3 ms with $5 ms of host stalls (-1: never), overutilised passes $ou; CFS alone $cfs_ms ms"
	fi
fi

# 6. The run-queue readings of the nr_running probe never failed their check.
nb=$((bal_nr_bad + $(stat_get balance_nr_mismatch)))
[ "$nb" -eq 0 ] && tap_ok "balance: nr_running read from the run queues matched every event" ||
	tap_fail "balance: nr_running readings match the tracepoint's counts" "balance_nr_mismatch=$nb"
sp_write mode observe
