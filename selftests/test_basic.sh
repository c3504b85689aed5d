# SPDX-License-Identifier: GPL-2.0
# Module skeleton: sysfs tree, mode knob, knob validation, observe-mode trace.

for f in mode version stats/decisions energy_uj margin_pct overutil_pct window_us latency_us wake_types; do
	[ -e $SP/$f ] || missing="$missing $f"
done
if [ -z "$missing" ]; then tap_ok "sysfs tree present"; else tap_fail "sysfs tree present" "missing:$missing"; fi

modes=$(cat $SP/mode)
case "$modes" in
*off*observe*power*balanced*performance*) tap_ok "mode lists off observe power balanced performance" ;;
*) tap_fail "mode lists off observe power balanced performance" "got: $modes" ;;
esac

[ "$(cat $SP/version)" != "" ] && tap_ok "version readable: $(cat $SP/version)" || tap_fail "version readable"

bad=0
for m in power balanced performance off observe; do
	sp_write mode $m || bad=1
	grep -q "\[$m\]" $SP/mode || bad=1
done
[ $bad -eq 0 ] && tap_ok "mode accepts every documented value" || tap_fail "mode accepts every documented value" "$(cat $SP/mode)"

before=$(cat $SP/mode)
if sp_write mode bogus; then
	tap_fail "echo bogus > mode fails" "write succeeded"
else
	if grep -q -i "invalid argument" /tmp/sp_write_err; then
		tap_ok "echo bogus > mode fails with EINVAL"
	else
		tap_fail "echo bogus > mode fails with EINVAL" "$(cat /tmp/sp_write_err)"
	fi
fi
[ "$(cat $SP/mode)" = "$before" ] && tap_ok "mode unchanged after bad write" || tap_fail "mode unchanged after bad write"

# Every numeric knob: out-of-range and junk rejected, value kept.
bad=""
for kv in "margin_pct 101" "margin_pct -1" "overutil_pct 0" "overutil_pct 200" \
	  "window_us 10" "window_us abc" "latency_us 1x" "margin_pct 99999999999"; do
	set -- $kv
	old=$(cat $SP/$1)
	if sp_write $1 "$2"; then bad="$bad $1=$2(accepted)"; fi
	[ "$(cat $SP/$1)" = "$old" ] || bad="$bad $1=$2(changed)"
done
[ -z "$bad" ] && tap_ok "numeric knobs reject bad input and keep their value" || tap_fail "numeric knobs reject bad input and keep their value" "$bad"

old=$(cat $SP/wake_types)
if sp_write wake_types "wakeup bogus"; then
	tap_fail "wake_types rejects unknown type"
else
	[ "$(cat $SP/wake_types)" = "$old" ] && tap_ok "wake_types rejects unknown type, value kept" || tap_fail "wake_types rejects unknown type, value kept"
fi
sp_write wake_types "wakeup fork" && [ "$(cat $SP/wake_types)" = "wakeup fork" ] && tap_ok "wake_types accepts a subset" || tap_fail "wake_types accepts a subset" "$(cat $SP/wake_types)"
sp_write wake_types "wakeup fork exec"

# The ftrace redirect: in observe mode only while sched_power_select has a
# consumer (its reg callback queues the work that registers it), in the
# modes that act always.
if sp_redirected; then
	tap_fail "observe, event off: select_task_rq_fair not redirected" "$(grep '^select_task_rq_fair' $TRACEFS/enabled_functions)"
else
	tap_ok "observe, event off: select_task_rq_fair not redirected"
fi
sp_select_event 1
if t=$(sp_wait_redirect 1); then
	tap_ok "observe, event on: select_task_rq_fair redirected after ${t}/10 s ($(grep '^select_task_rq_fair' $TRACEFS/enabled_functions | head -n 1 | cut -c1-60))"
else
	tap_fail "observe, event on: select_task_rq_fair redirected" "$(head -n 5 $TRACEFS/enabled_functions 2>&1)"
fi
sp_select_event 0
t=$(sp_wait_redirect 0) && tap_ok "observe, event off again: redirect removed after ${t}/10 s" ||
	tap_fail "observe, event off again: redirect removed" "$(grep '^select_task_rq_fair' $TRACEFS/enabled_functions)"
sp_write mode power
sp_redirected && tap_ok "power: select_task_rq_fair redirected" ||
	tap_fail "power: select_task_rq_fair redirected" "$(head -n 5 $TRACEFS/enabled_functions 2>&1)"

# Observe mode under a wake-up load: events recorded by trace-cmd, no override.
sp_write mode observe
stats_reset
cd /tmp
trace-cmd record -q -e sched_power:sched_power_select -o /tmp/basic.dat \
	sh -c '. /sp/lib.sh; wake_load 40' >/tmp/trace-record.log 2>&1
trace-cmd report -i /tmp/basic.dat >/tmp/basic.txt 2>/dev/null
cd /sp
n=$(grep -c 'sched_power_select:' /tmp/basic.txt)
if [ "$n" -gt 20 ]; then
	tap_ok "observe: trace-cmd recorded $n sched_power_select events"
else
	tap_fail "observe: trace-cmd recorded sched_power_select events" "only $n" "$(tail -n 5 /tmp/trace-record.log)"
fi
if grep -m1 'sched_power_select:' /tmp/basic.txt | grep -q 'pid=[0-9]* comm=.* util=[0-9]* prev_cpu=-*[0-9]* cfs_cpu=[0-9]* model_cpu=[0-9]* ret_cpu=[0-9]* applied=[01] wake=[a-z]* mode=observe reason=[a-z_]* cfs_nj=-*[0-9]* chosen_nj=-*[0-9]* busy_nj=-*[0-9]* idle_nj=-*[0-9]* wake_nj=-*[0-9]* pstate_nj=-*[0-9]* static_nj=-*[0-9]* future_nj=-*[0-9]* lat_bound_us=[0-9]* wake_lat_us=[0-9]* queue_us=[0-9]* lat_miss=[01] queued=[01]'; then
	tap_ok "event carries its fields: cpus, applied, wake, mode, reason, energy terms, latency, queued"
else
	tap_fail "event carries its fields: cpus, applied, wake, mode, reason, energy terms, latency, queued" "$(grep -m1 sched_power_select /tmp/basic.txt)"
fi
ov=$(stat_get overrides); dec=$(stat_get decisions)
[ "$dec" -gt 0 ] && [ "$ov" -eq 0 ] && tap_ok "observe: $dec decisions, 0 overrides" || tap_fail "observe: decisions > 0 and 0 overrides" "decisions=$dec overrides=$ov"
diff=$(awk '/sched_power_select:/ { c=""; h=""; for (i=1;i<=NF;i++) { if ($i ~ /^cfs_cpu=/) c=substr($i,9); if ($i ~ /^ret_cpu=/) h=substr($i,9) } if (c != h) n++ } END { print n+0 }' /tmp/basic.txt)
[ "$diff" -eq 0 ] && tap_ok "observe: every traced ret_cpu equals cfs_cpu" || tap_fail "observe: every traced ret_cpu equals cfs_cpu" "$diff differ"
