# SPDX-License-Identifier: GPL-2.0
# Per-task latency bounds (pm_qos.c): table, one CPU's resume-latency request.

L=$SP/task_latency
sleep 60 & lat_a=$!
sleep 60 & lat_b=$!
if sp_write task_latency "$lat_a 50" && grep -q "^$lat_a 50$" $L && grep -q "cpu [0-9]*: 50 us" $L; then
	tap_ok "task_latency: bound registered, QoS request of 50 us on one CPU"
else
	tap_fail "task_latency: bound registered" "$(cat $L)" "$(cat /tmp/sp_write_err)"
fi
sp_write task_latency "$lat_b 20"
grep -q "cpu [0-9]*: 20 us" $L && grep -q "^$lat_a 50$" $L && tap_ok "task_latency: request follows the smallest bound (20 us)" || tap_fail "task_latency: request follows the smallest bound" "$(cat $L)"

before=$(cat $L); bad=""
for v in "abc" "-1 5" "$lat_a" "$lat_a 5 6" "0 10" "999999 10" "$lat_a 99999999"; do
	sp_write task_latency "$v" && bad="$bad [$v accepted]"
done
[ -z "$bad" ] && [ "$(cat $L)" = "$before" ] && tap_ok "task_latency: 7 bad inputs rejected, table unchanged" || tap_fail "task_latency: bad inputs rejected" "$bad" "$(cat $L)"

# The bounded task keeps waking; in power mode no decision for it may pick a
# CPU whose modelled wake-up exceeds the bound: the core's rule, checked on the host.
sp_write mode power
wake_load 20
sp_write mode observe

sp_write task_latency "$lat_b 0"; sp_write task_latency "$lat_a 0"
if ! grep -q "^$lat_a \|^$lat_b " $L && grep -q "cpu -1: -1 us" $L; then
	tap_ok "task_latency: entries removed, QoS request dropped"
else
	tap_fail "task_latency: entries removed, QoS request dropped" "$(cat $L)"
fi
old=$(cat $SP/latency_cpu)
if ! sp_write latency_cpu 4096 && [ "$(cat $SP/latency_cpu)" = "$old" ]; then
	tap_ok "latency_cpu rejects a CPU that does not exist, value kept"
else
	tap_fail "latency_cpu rejects a CPU that does not exist, value kept"
fi
kill $lat_a $lat_b 2>/dev/null
wait $lat_a $lat_b 2>/dev/null
