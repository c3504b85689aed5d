# SPDX-License-Identifier: GPL-2.0
# The model file: read back identically, bad models rejected with the old
# one kept, dmesg names line and field.

cat $SP/model >/tmp/m0
src0=$(cat $SP/model_source)
grep -q '^sched_power_model version=1 cpus=' /tmp/m0 && tail -n 1 /tmp/m0 | grep -q '^end$' \
	&& tap_ok "model readable ($(wc -l </tmp/m0) lines, source: $src0)" \
	|| tap_fail "model readable" "$(head -n 3 /tmp/m0)"

# A changed good model: write it, read it back byte for byte.
sed 's/wake_uj=600/wake_uj=650/' /tmp/m0 >/tmp/m1
if cat /tmp/m1 > $SP/model 2>/tmp/mw.err && cat $SP/model >/tmp/m1.back && cmp -s /tmp/m1 /tmp/m1.back; then
	tap_ok "good model written and read back identically"
else
	tap_fail "good model written and read back identically" "$(cat /tmp/mw.err)" "$(diff /tmp/m1 /tmp/m1.back | head -n 5)"
fi
grep -q sysfs $SP/model_source && tap_ok "model_source reports sysfs after a write" \
	|| tap_fail "model_source reports sysfs" "$(cat $SP/model_source)"

# Bad models: each must fail and leave /tmp/m1 in place.
mk() { sed "$1" /tmp/m1 >/tmp/bad; }
# first FROM -> TO (busybox sed has no 0,/re/ address)
mk1() { awk -v f="$1" -v t="$2" '!done && index($0, f) { sub(f, t); done = 1 } { print }' /tmp/m1 >/tmp/bad; }
bad_case() {
	name=$1
	if cat /tmp/bad > $SP/model 2>/dev/null; then
		tap_fail "bad model rejected: $name" "write succeeded"
	elif cat $SP/model | cmp -s - /tmp/m1; then
		tap_ok "bad model rejected, old kept: $name"
	else
		tap_fail "bad model rejected, old kept: $name" "model changed"
	fi
}
mk 's/^level name=\([a-z]*\)$/level name=\1 colour=blue/'; bad_case "unknown key"
mk1 cap=1024 cap=2048; bad_case "capacity > 1024"
mk1 khz=1600000 khz=700000; bad_case "non-monotonic OPP"
mk '/^level /d'; bad_case "missing level"
mk1 uw=270000 uw=99999999999999999999; bad_case "overflow"
mk1 uw=270000 uw=-5; bad_case "negative power"
mk 's/^sched_power_model version=1 cpus=\([0-9]*\)/sched_power_model version=1 cpus=3/'; bad_case "CPU count differs from the machine"
mk1 'pd id=1 cpus=2-3' 'pd id=1 cpus=1-3'; bad_case "a CPU in two pds"
mk 's/^sched_power_model version=1/sched_power_model version=2/'; bad_case "unknown version"
echo "hello world" >/tmp/bad; bad_case "garbage"
# too many OPPs: 17 for the first pd
awk '/^opp pd=0 / && !done { for (i = 1; i <= 17; i++) printf "opp pd=0 khz=%d cap=%d uw=%d\n", i * 100000, i * 60, i * 100000; done = 1; next } /^opp pd=0 / { next } { print }' /tmp/m1 >/tmp/bad
bad_case "17 OPPs (limit 16)"
# larger than the 256 KiB limit: comment padding
{ awk 'BEGIN { for (i = 0; i < 5000; i++) printf "# padding line %05d .........................................\n", i }'; cat /tmp/m1; } >/tmp/bad
bad_case "oversized (> 256 KiB)"
dmesg | grep -q 'sched_power: .*line [1-9][0-9]* field' && tap_ok "dmesg names the line of a bad model: $(dmesg | grep 'sched_power: .*line [1-9][0-9]* field' | tail -n 1 | sed 's/^\[[^]]*\] //')" \
	|| tap_fail "dmesg names the line of a bad model" "$(dmesg | grep sched_power | tail -n 5)"

# Back to the model the test found.
cat /tmp/m0 > $SP/model && cmp -s /tmp/m0 $SP/model 2>/dev/null || cat $SP/model | cmp -s - /tmp/m0
[ $? -eq 0 ] && tap_ok "original model restored" || tap_fail "original model restored"
sp_write mode observe
