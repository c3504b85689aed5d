# SPDX-License-Identifier: GPL-2.0
# power-bench end to end in the guest: one short story (about 1 s) with real
# rt-app in all four configurations (not loaded, observe, power, balanced),
# then the report; the output must be complete and sane.  Its failures must
# each give one clear line, and Ctrl-C (TERM) must still write the run.
# Leaves the module loaded in observe mode.
PB=/sp/pb
PB_STORY=$PB/selftest-story.json

echo "# power-bench under TCG: times and latencies are the emulator's, not hardware's"

# pb_field LINE KEY: the value of KEY=... in LINE.
pb_field() {
	echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1
}

# pb_sane LINE: every field of one run present and in range; prints what is not.
pb_sane() {
	echo "$1" | awk '
	function v(k,    i) { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
	function n(k) { return v(k) + 0 }
	function num(k) { return v(k) ~ /^[0-9]+(\.[0-9]+)?$/ }
	function bad(why) { printf "%s ", why; nbad++ }
	{
		cfg = v("config")
		if (v("status") != "ok") bad("status=" v("status"))
		if (v("rows") != v("rows_expected")) bad("rows")
		# At least the nominal 1 s; no upper bound: the watchdog and the rows are that.
		if (!num("makespan_us") || n("makespan_us") < 900000) bad("makespan_us=" v("makespan_us"))
		if (!num("wakeups") || n("wakeups") < 200) bad("wakeups=" v("wakeups"))
		if (!num("lat_p50_us") || !num("lat_p99_us") || !num("lat_max_us") ||
		    n("lat_p50_us") > n("lat_p99_us") || n("lat_p99_us") > n("lat_max_us")) bad("latency")
		if (!num("prev_pkg_share") || n("prev_pkg_share") > 1 ||
		    !num("both_pkgs_awake_share") || n("both_pkgs_awake_share") > 1) bad("shares")
		if (!num("migrations_per_s") || !num("pkg_wakeups") || n("pkg_wakeups") < 1) bad("counts")
		if (v("trace_status") != "ok" || v("trace_lost") != "0") bad("trace")
		if (cfg == "not_loaded") {
			if (v("model_uj") != "-" || v("verdict_hit") != "-") bad("module values when not loaded")
			if (v("energy_src") != "-" && v("energy_src") != "rapl") bad("energy_src")
		} else {
			if (!num("model_uj") || n("model_uj") <= 0) bad("model_uj")
			if (v("energy_src") != "model" && v("energy_src") != "rapl") bad("energy_src")
			if (!num("verdict_hit") || n("verdict_early") + n("verdict_hit") + n("verdict_late") == 0) bad("verdicts")
			if (v("prev_pkg_src") != "select") bad("prev_pkg_src")
			# Two sources for one metric: decision events and sched_waking/wakeup.
			d = n("prev_pkg_share") - n("prev_pkg_share_ttwu")
			if (d > 0.05 || d < -0.05) bad("prev_pkg_share vs ttwu")
			d = n("select_wakeups") - n("wakeups")
			if (d > 0.1 * n("wakeups") + 2 || d < -0.1 * n("wakeups") - 2) bad("select_wakeups")
		}
	}
	END { exit nbad ? 1 : 0 }'
}

pb_test_runs() {
	PB_BIN=/sp sh $PB/pb-run.sh -m $KO -M /sp/models/x86-2pkg.model -d /tmp/pbt \
		$PB_STORY >/tmp/pbt.out 2>&1
	rc=$?
	n=$(grep -c '^pb-result' /tmp/pbt.out)
	if [ $rc -eq 0 ] && [ "$n" -eq 4 ]; then
		tap_ok "power-bench: 4 configurations of the selftest story ran ($(sed -n 's/^# pb: done: .*, \([0-9]* s\)$/\1/p' /tmp/pbt.out))"
	else
		tap_fail "power-bench: 4 configurations ran" "rc=$rc, $n result lines" "$(grep -v '^pb-result' /tmp/pbt.out | tail -n 5)"
	fi
	for c in not_loaded observe power balanced; do
		line=$(grep "^pb-result .* config=$c " /tmp/pbt.out)
		why=$(pb_sane "$line")
		if [ -n "$line" ] && [ -z "$why" ]; then
			tap_ok "power-bench: $c run complete and sane (time $(pb_field "$line" makespan_us) us, p99 $(pb_field "$line" lat_p99_us) us, energy $(pb_field "$line" energy_uj) $(pb_field "$line" energy_src))"
		else
			tap_fail "power-bench: $c run complete and sane" "${why:-no result line}" "$line"
		fi
	done
}

pb_test_report() {
	grep '^pb-result' /tmp/pbt.out >/tmp/pbt.runs
	awk -v fmt=table -f $PB/pb-report.awk /tmp/pbt.runs >/tmp/pbt.table
	awk -v fmt=csv -f $PB/pb-report.awk /tmp/pbt.runs >/tmp/pbt.csv
	awk -v fmt=json -f $PB/pb-report.awk /tmp/pbt.runs >/tmp/pbt.json
	rows=$(grep -c '^selftest-story ' /tmp/pbt.table)
	csv_rows=$(grep -c '^selftest-story,' /tmp/pbt.csv)
	cols=$(awk -F, '{ print NF }' /tmp/pbt.csv | sort -u | wc -l)
	ratio=$(grep '^selftest-story,power,' /tmp/pbt.csv | awk -F, -v h="$(head -n 1 /tmp/pbt.csv)" '
		BEGIN { n = split(h, k, ",") } { for (i = 1; i <= n; i++) if (k[i] == "model_ratio_observe") print $i }')
	if [ "$rows" -eq 4 ] && [ "$csv_rows" -eq 4 ] && [ "$cols" -eq 1 ] &&
	   [ "$(grep -c '"story":' /tmp/pbt.json)" -eq 4 ] && echo "$ratio" | grep -Eq '^[0-9]+\.[0-9]{3}$'; then
		tap_ok "power-bench report: table, CSV and JSON have the 4 rows (power/observe energy $ratio)"
	else
		tap_fail "power-bench report: table, CSV and JSON have the 4 rows" "table $rows, csv $csv_rows, widths $cols, ratio '$ratio'" "$(head -n 6 /tmp/pbt.table)"
	fi
}

# The trace-cmd read-out (a board's default) against the tracefs one above.
pb_test_trace_cmd() {
	PB_TRACER=trace-cmd PB_BIN=/sp sh $PB/pb-run.sh -m $KO -c observe -d /tmp/pbt \
		$PB_STORY >/tmp/pbt-tc.out 2>&1
	line=$(grep '^pb-result' /tmp/pbt-tc.out)
	why=$(pb_sane "$line")
	if [ -z "$why" ] && [ "$(pb_field "$line" tracer)" = trace-cmd ]; then
		tap_ok "power-bench: trace-cmd read-out gives a sane run ($(pb_field "$line" wakeups) wake-ups)"
	else
		tap_fail "power-bench: trace-cmd read-out gives a sane run" "${why:-no result line}" "$(tail -n 3 /tmp/pbt-tc.out)"
	fi
}

# pb_expect_error NAME PATTERN CMD...: CMD fails with one pb-error line matching PATTERN.
pb_expect_error() {
	name=$1 pat=$2
	shift 2
	"$@" >/tmp/pbt-err.out 2>&1
	rc=$?
	if [ $rc -ne 0 ] && [ "$(grep -c '^pb-error' /tmp/pbt-err.out)" -eq 1 ] &&
	   grep -q "^pb-error $pat" /tmp/pbt-err.out; then
		tap_ok "power-bench: $name: $(grep '^pb-error' /tmp/pbt-err.out)"
	else
		tap_fail "power-bench: $name gives one clear line" "rc=$rc" "$(head -n 4 /tmp/pbt-err.out)"
	fi
}

pb_test_errors() {
	printf '{ "tasks": { "t": { "loop": 1, "run": -5 } } }\n' >/tmp/pbt-bad.json
	pb_expect_error "bad story" "bad story: /tmp/pbt-bad.json: tasks.t.run: must be >= 0" \
		env PB_BIN=/sp sh $PB/pb-run.sh -m $KO /tmp/pbt-bad.json
	pb_expect_error "module missing" "module missing" \
		env PB_BIN=/sp sh $PB/pb-run.sh -m /tmp/no-such.ko $PB_STORY
	mkdir -p /tmp/pbt-path
	for b in sh awk sed cat tr dirname; do ln -sf /bin/busybox /tmp/pbt-path/$b; done
	pb_expect_error "rt-app missing" "rt-app missing" \
		env PATH=/tmp/pbt-path PB_BIN=/sp sh $PB/pb-run.sh -m $KO $PB_STORY
}

# TERM (what the front end sends on Ctrl-C) during a run: the run is still written.
pb_test_interrupt() {
	PB_BIN=/sp sh $PB/pb-run.sh -m $KO -c observe,power -d /tmp/pbt $PB_STORY >/tmp/pbt-int.out 2>&1 &
	pid=$!
	i=0
	# After the first run's progress line, the next rt-app is the story's.
	while ! grep -q '^# pb: \[1/' /tmp/pbt-int.out && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	while ! pidof rt-app >/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	sleep 0.5
	kill -TERM $pid
	wait $pid
	rc=$?
	if [ $rc -eq 130 ] && grep -q '^pb-error interrupted: 1 of 2 runs written' /tmp/pbt-int.out &&
	   [ "$(grep -c '^pb-result .* status=incomplete' /tmp/pbt-int.out)" -eq 1 ]; then
		tap_ok "power-bench: TERM mid-run stops rt-app, writes the partial run, says so"
	else
		tap_fail "power-bench: TERM mid-run" "rc=$rc" "$(tail -n 4 /tmp/pbt-int.out)"
	fi
}

if ! command -v rt-app >/dev/null; then
	tap_skip "power-bench end to end" "rt-app not in the initramfs (apt-get install rt-app)"
elif [ ! -x /sp/pb-story ] || [ ! -f $PB/pb-run.sh ]; then
	tap_skip "power-bench end to end" "pb-story or pb-run.sh missing (make guest-tools)"
else
	pb_test_runs
	pb_test_report
	pb_test_trace_cmd
	pb_test_errors
	pb_test_interrupt
fi
[ -d $SP ] || insmod $KO mode=observe
sp_write mode observe
