# SPDX-License-Identifier: GPL-2.0
# power-bench end to end in the guest: one short story (about 1 s) with real
# rt-app in all four configurations (not loaded, observe, power, balanced),
# each recorded; sp-report --counts reads each recording as power-bench does
# on the host, and the lines must be complete and sane.  Its failures must
# each give one clear line, and Ctrl-C (TERM) must still write the run.
# Leaves the module loaded in observe mode.
PB=/sp/pb
PB_STORY=$PB/selftest-story.json

echo "# power-bench under TCG: times and latencies are the emulator's, not hardware's"

# pb_field LINE KEY: the value of KEY=... in LINE.
pb_field() {
	echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1
}

# pb_sane LINE: every field of one run present and in range (the guest's
# fields, then sp-report --counts' on its recording); prints what is not.
pb_sane() {
	echo "$1" | awk '
	function v(k,    i) { for (i = 2; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
	function n(k) { return v(k) + 0 }
	function num(k) { return v(k) ~ /^[0-9]+(\.[0-9]+)?$/ }
	function share(k) { return num(k) && n(k) <= 1 }
	function bad(why) { printf "%s ", why; nbad++ }
	{
		cfg = v("config")
		if (v("status") != "ok") bad("status=" v("status"))
		if (v("rows") != v("rows_expected")) bad("rows")
		# At least the nominal 1 s; no upper bound: the watchdog and the rows are that.
		if (!num("makespan_us") || n("makespan_us") < 900000) bad("makespan_us=" v("makespan_us"))
		if (n("t1_us") - n("t0_us") != n("makespan_us")) bad("window")
		if (v("tasks") != "tick,burst") bad("tasks=" v("tasks"))
		if (v("trace_lost") != "0") bad("trace_lost")
		if (cfg == "not_loaded") {
			if (v("model_uj") != "-" || v("verdict_hit") != "-") bad("module values when not loaded")
		} else {
			if (!num("model_uj") || n("model_uj") <= 0) bad("model_uj")
			if (!num("verdict_hit") || n("verdict_early") + n("verdict_hit") + n("verdict_late") == 0) bad("verdicts")
		}
		if (v("energy_src") != "-" && v("energy_src") != "rapl" && v("energy_src") != "hwmon") bad("energy_src")
		# the counts, from the recording
		if (v("trace_status") != "ok") bad("trace_status=" v("trace_status"))
		if (n("span_us") != n("makespan_us")) bad("span_us")
		if (!num("wakeups") || n("wakeups") < 200) bad("wakeups=" v("wakeups"))
		if (!num("lat_p50_us") || !num("lat_p99_us") || !num("lat_max_us") ||
		    n("lat_p50_us") > n("lat_p99_us") || n("lat_p99_us") > n("lat_max_us")) bad("latency")
		if (!share("prev_pkg_share") || !share("pkg_awake_share") || !share("all_pkgs_awake_share") ||
		    !share("pkg0_awake_share") || !share("pkg1_awake_share")) bad("shares")
		# The awake time of a package is summed per stretch in whole us (each
		# truncated), the time all are awake in ns: allow 1 us per stretch
		# (wake-ups + the one open per package) and the printed rounding.
		tol = 0.0001 + (n("pkg_wakeups") + n("nr_pkgs")) / n("span_us")
		if (n("all_pkgs_awake_share") > n("pkg0_awake_share") + tol ||
		    n("all_pkgs_awake_share") > n("pkg1_awake_share") + tol) bad("all awake > one awake")
		if (v("migr_src") != "migrate" || !num("migrations") || n("xpkg_migrations") > n("migrations")) bad("migrations")
		if (!num("pkg_wakeups") || n("pkg_wakeups") < 1 || !num("pkg_wakeups_per_s")) bad("pkg_wakeups")
		if (v("pkg_level") != "package" || v("nr_pkgs") != "2") bad("packages")
		if (!num("est_uj") || n("est_uj") <= 0 || n("est_busy_uj") > n("est_uj")) bad("est_uj")
		# the wake-ups judged (each CPU has switched before W), the queued a part of them
		if (n("wake_judged") > n("wakeups") || n("wake_judged") + 2 < n("wakeups") || !num("wake_queued") || n("wake_queued") > n("wake_judged") ||
		    !num("wake_queued_idle_awake_pkg") || n("wake_queued_idle_awake_pkg") > n("wake_queued") ||
		    n("wake_queued_idle_pkg") + n("wake_queued_idle_far") > n("wake_queued") ||
		    n("wake_queued_idle_awake_pkg_waited") + n("wake_queued_idle_awake_pkg_moved") > n("wake_queued_idle_awake_pkg")) bad("wake_queued")
		if (cfg != "not_loaded") {
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

# pb_counts LINE: LINE with sp-report --counts' keys of its recording, as
# power-bench appends them on the host.
pb_counts() {
	deepest=
	[ "$(pb_field "$1" idle_driver)" != none ] || deepest=--idle-deepest
	echo "$1 $(sp-report --counts $deepest --model /sp/models/x86-2pkg.model \
		--span "$(pb_field "$1" t0_us),$(pb_field "$1" t1_us)" --comm "$(pb_field "$1" tasks)" \
		/tmp/pbt/traces/"$(pb_field "$1" trace)" 2>&1)"
}

pb_test_runs() {
	rm -rf /tmp/pbt
	PB_BIN=/sp sh $PB/pb-run.sh -m $KO -M /sp/models/x86-2pkg.model -d /tmp/pbt \
		$PB_STORY >/tmp/pbt.out 2>&1
	rc=$?
	n=$(grep -c '^pb-result' /tmp/pbt.out)
	if [ $rc -eq 0 ] && [ "$n" -eq 4 ]; then
		tap_ok "power-bench: 4 configurations of the selftest story ran ($(sed -n 's/^# pb: done: .*, \([0-9]* s\)$/\1/p' /tmp/pbt.out))"
	else
		tap_fail "power-bench: 4 configurations ran" "rc=$rc, $n result lines" "$(grep -v '^pb-result' /tmp/pbt.out | tail -n 5)"
	fi
	if ! command -v sp-report >/dev/null; then
		tap_skip "power-bench: runs and their counts" "no sp-report in the initramfs (make sp-report)"
		return
	fi
	for c in not_loaded observe power balanced; do
		line=$(grep "^pb-result .* config=$c " /tmp/pbt.out)
		[ -z "$line" ] || line=$(pb_counts "$line")
		why=$(pb_sane "$line")
		if [ -n "$line" ] && [ -z "$why" ]; then
			tap_ok "power-bench: $c run and its counts complete and sane (time $(pb_field "$line" makespan_us) us, p99 $(pb_field "$line" lat_p99_us) us, $(pb_field "$line" pkg_wakeups_per_s) package wake-ups/s, estimate $(pb_field "$line" est_uj) uJ)"
		else
			tap_fail "power-bench: $c run and its counts complete and sane" "${why:-no result line}" "$line"
		fi
	done
}

# pb_gap_all_zero GAPS NPD: one of floor_gap's two readings ("before,after")
# holds each of the model's NPD pds at OPP 0.
pb_gap_all_zero() {
	for r in ${1%%,*} ${1#*,}; do
		[ "$(echo "$r" | tr '/' '\n' | grep -c ':0$')" = "$2" ] && return 0
	done
	return 1
}

# Under the test cpufreq driver (-t, em=0 as on x86): cfs and power_freq
# run, record the driver, schedutil and EAS off, power mode's OPP floor
# shows in scaling_min_freq (above cfs's), and the driver is gone after.
pb_test_freq() {
	if [ ! -f "$TF_KO" ]; then
		tap_skip "power-bench: cfs and power_freq under the test driver" "no $TF_KO (make testfreq)"
		return
	fi
	rm -rf /tmp/pbf
	PB_TESTFREQ_ARGS=em=0 PB_BIN=/sp sh $PB/pb-run.sh -m $KO -t "$TF_KO" -c cfs,power_freq \
		-M /sp/models/x86-2pkg.model -d /tmp/pbf $PB_STORY >/tmp/pbf.out 2>&1
	rc=$?
	cfs=$(grep '^pb-result .* config=cfs ' /tmp/pbf.out)
	pwr=$(grep '^pb-result .* config=power_freq ' /tmp/pbf.out)
	why=
	for l in "$cfs" "$pwr"; do
		[ "$(pb_field "$l" status)" = ok ] || why="$why status=$(pb_field "$l" status)"
		[ "$(pb_field "$l" cpufreq)" = sp_testfreq ] || why="$why cpufreq=$(pb_field "$l" cpufreq)"
		[ "$(pb_field "$l" governor)" = schedutil ] || why="$why governor=$(pb_field "$l" governor)"
		[ "$(pb_field "$l" eas)" = off ] || why="$why eas=$(pb_field "$l" eas)"
	done
	lo=$(pb_field "$cfs" min_khz | tr '/' '\n' | sort -n | tail -n 1)
	hi=$(pb_field "$pwr" min_khz | tr '/' '\n' | sort -n | tail -n 1)
	gap=$(pb_field "$pwr" floor_gap)
	floor="above cfs's"
	if ! { [ -n "$lo" ] && [ -n "$hi" ] && [ "$hi" -gt "$lo" ] 2>/dev/null; }; then
		# The floor's gap look lowers every pd to OPP 0 where the
		# work's gaps would reach a slower state (opp_floor.c):
		# then the minimum may equal cfs's.
		if [ -n "$lo" ] && [ "$hi" = "$lo" ] && pb_gap_all_zero "$gap" "$(grep -c '^pd ' /sp/models/x86-2pkg.model)"; then
			floor="held at OPP 0 by its gap limits"
		else
			why="$why floor: cfs $lo, power_freq $hi, gap limits $gap"
		fi
	fi
	[ "$(pb_field "$pwr" overrides)" != - ] || why="$why no module values in power_freq"
	tf_loaded && why="$why sp_testfreq still loaded"
	if [ $rc -eq 0 ] && [ -z "$why" ]; then
		tap_ok "power-bench: cfs and power_freq under the test driver (schedutil, EAS off, scaling_min_freq $(pb_field "$cfs" min_khz) and $(pb_field "$pwr" min_khz) kHz: power mode's floor $floor, gap limits $(pb_field "$pwr" floor_gap), driver unloaded after)"
	else
		tap_fail "power-bench: cfs and power_freq under the test driver" "rc=$rc$why" "$cfs" "$pwr" "$(grep '^pb-error' /tmp/pbf.out)"
	fi
	rm -rf /tmp/pbf
}

# PB_EMIT=1 (the VM's way out): the recording leaves between SP-FILE lines,
# decodes to a recording sp-report reads, and is gone from the guest.
pb_test_emit() {
	PB_EMIT=1 PB_NO_KALLSYMS=1 PB_BIN=/sp sh $PB/pb-run.sh -m $KO -c not_loaded -d /tmp/pbe \
		$PB_STORY >/tmp/pbe.out 2>&1
	name=$(sed -n 's/^SP-FILE \(.*\.dat\)$/\1/p' /tmp/pbe.out)
	sed -n "/^SP-FILE $name\$/,/^SP-FILE-END\$/p" /tmp/pbe.out | sed '1d;$d' | base64 -d >/tmp/pbe.dat 2>/dev/null
	size=$(wc -c </tmp/pbe.dat)
	if [ -n "$name" ] && [ ! -e "/tmp/pbe/traces/$name" ] && [ "$size" -gt 1000 ] &&
	   sp-report --counts /tmp/pbe.dat >/dev/null 2>&1; then
		tap_ok "power-bench: the recording leaves on the console and reads back ($name, $size bytes, no kallsyms)"
	else
		tap_fail "power-bench: the recording leaves on the console" "name '$name', size $size" "$(grep -v '^[A-Za-z0-9+/=]*$' /tmp/pbe.out | tail -n 4)"
	fi
	rm -rf /tmp/pbe /tmp/pbe.dat
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
	pb_test_freq
	pb_test_emit
	pb_test_errors
	pb_test_interrupt
fi
[ -d $SP ] || insmod $KO mode=observe
sp_write mode observe
