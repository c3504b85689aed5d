# SPDX-License-Identifier: GPL-2.0
# The model file: read back identically, bad models rejected with the old
# one kept, dmesg names line and field.

cat $SP/model >/tmp/m0
src0=$(cat $SP/model_source)
grep -q '^sched_power_model version=1 cpus=' /tmp/m0 && tail -n 1 /tmp/m0 | grep -q '^end$' \
	&& tap_ok "model readable ($(wc -l </tmp/m0) lines, source: $src0)" \
	|| tap_fail "model readable" "$(head -n 3 /tmp/m0)"

# A changed good model: write it, read it back byte for byte.
awk '/^group / { sub(/ wake_uj=/, " wake_uj=5") } { print }' /tmp/m0 >/tmp/m1
cmp -s /tmp/m0 /tmp/m1 && tap_fail "a changed model to write" "no group line in the model"
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

# ---- the write protocol and read snapshots (Documentation/model-format.rst,
# "The sysfs file").  sp_chunks writes a text in write(2)s of each block size
# and prints, per size, the offset of the write that failed (-1: none), its
# errno and a hash of the model read back afterwards.
MC=/sp/sp_chunks
cat $SP/model >/tmp/w0
# two valid texts that differ from it: each group's wake_uj raised by 10, 20
bump() { awk -v d="$1" '/^group / { for (i = 1; i <= NF; i++) if ($i ~ /^wake_uj=/) $i = "wake_uj=" (substr($i, 9) + d) } { print }' /tmp/w0; }
bump 10 >/tmp/t1
bump 20 >/tmp/t2
L=$(wc -c </tmp/t1)
# Every size 1..64, sizes around each power of two to 4096, and the text's
# length minus 4..plus 1 (the last write splits "end\n" at each of its bytes).
BS=$(awk -v L="$L" 'BEGIN { for (i = 1; i <= 64; i++) printf "%d,", i
	for (p = 128; p <= 4096; p *= 2) printf "%d,%d,%d,", p - 1, p, p + 1
	for (i = L - 4; i <= L + 1; i++) printf "%d,", i; printf "100,1000" }')
ht1=$($MC hash /tmp/t1)
ht2=$($MC hash /tmp/t2)
# sweep BSLIST TEXT...: write each TEXT in turn, one block size of BSLIST
# each, into /tmp/sw.out.
sweep() {
	nbs=$(echo "$1" | tr ',' '\n' | grep -c .)
	$MC write $SP/model "$@" >/tmp/sw.out
}
# sweep_check NAME MODE [P]: each of the $nbs lines of /tmp/sw.out is MODE's
# outcome.
#   applied  every write succeeded, the model is the text written (t1/t2)
#   refused  the write holding byte P failed with EINVAL; the model is $hk
#   staged   every write succeeded; the model is still $hk
sweep_check() {
	r=$(awk -v mode="$2" -v P="${3:-0}" -v h1="$ht1" -v h2="$ht2" -v hk="$hk" '
	{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	  bs = f["bs"] + 0; fail = f["fail"] + 0; m = f["model"] ""
	  if (mode == "applied") ok = fail == -1 && m == (f["text"] == 0 ? h1 : h2)
	  else if (mode == "refused") ok = fail == int(P / bs) * bs && f["errno"] == 22 && m == hk
	  else ok = fail == -1 && m == hk
	  if (!ok) { bad++; if (bad <= 3) print "#   " $0 } }
	END { print "#", NR, "block sizes,", bad + 0, "wrong" }' /tmp/sw.out)
	case "$r" in
	*" 0 wrong") [ "$(wc -l </tmp/sw.out)" -eq "$nbs" ] && { tap_ok "$1 ($nbs block sizes)"; return; } ;;
	esac
	tap_fail "$1" "$r"
}

if cmp -s /tmp/t1 /tmp/w0 || cmp -s /tmp/t1 /tmp/t2; then
	tap_fail "model protocol: test texts differ from the model" "sed changed nothing"
fi
# A valid text, alternately t1 and t2, with every block size: applied.
sweep "$BS" /tmp/t1 /tmp/t2
sweep_check "model written with every block size 1..4096 is applied, every write succeeds" applied
# A comment (with UTF-8 in it) after end is blank space: applied as well.
{ cat /tmp/t1; printf '# trailing comment, caf\303\251\n\n'; } >/tmp/t3
{ cat /tmp/t2; printf '\n# a comment line\n'; } >/tmp/t4
sweep "$BS" /tmp/t3 /tmp/t4
sweep_check "model with comments after end is applied, every block size" applied
# Anything else after end: the write that brings it fails, and the model
# before the text stays (put back if the end line had applied the text).
cat /tmp/t2 >$SP/model; hk=$ht2
for junk in opp_line high_bit end_line_junk second_end; do
	case $junk in
	opp_line) { cat /tmp/t1; echo 'opp pd=0 khz=1 cap=1 uw=1'; } ;;
	high_bit) { cat /tmp/t1; printf '\303\251\n'; } ;;
	end_line_junk) sed 's/^end$/end junk/' /tmp/t1 ;;
	second_end) { cat /tmp/t1; echo end; } ;;
	esac >/tmp/t5
	sweep "$BS" /tmp/t5
	sweep_check "model with text after end ($junk) refused whole, old model kept, every block size" refused $L
done
grep -q sysfs $SP/model_source && tap_ok "model_source still says sysfs after the refused texts" \
	|| tap_fail "model_source after refused texts" "$(cat $SP/model_source)"
# No end line: every write stages the text, nothing is applied, and the
# text is dropped (dmesg says so) once its writer has closed the file.
d0=$(dmesg | grep -c 'sched_power: model write: .*dropped')
sed '$d' /tmp/t1 >/tmp/t6
sweep 1,7,64,4096 /tmp/t6
sweep_check "model without end: every write stages, nothing applied" staged
i=0; d1=$d0
while [ $i -lt 10 ] && [ $((d1 - d0)) -lt 4 ]; do
	sleep 1; i=$((i + 1)); d1=$(dmesg | grep -c 'sched_power: model write: .*dropped')
done
[ $((d1 - d0)) -eq 4 ] && tap_ok "4 texts without end dropped within ${i} s of their writers closing: $(dmesg | grep 'sched_power: model write: .*dropped' | tail -n 1 | sed 's/^\[[^]]*\] //')" \
	|| tap_fail "texts without end dropped when their writers close" "$((d1 - d0)) of 4 after ${i} s" \
		"$(dmesg | grep 'sched_power: model write' | tail -n 3)"
# Writers that closed hold no staging slot: 12 of them, then a valid text.
i=0
while [ $i -lt 12 ]; do head -n 3 /tmp/t1 >$SP/model; i=$((i + 1)); done
if cat /tmp/t1 >$SP/model 2>/tmp/mw.err && [ "$($MC hash $SP/model)" = "$ht1" ]; then
	tap_ok "12 closed writers without end, then a valid model: applied at once"
else
	tap_fail "closed writers hold no staging slot" "$(cat /tmp/mw.err)"
fi
# High-bit bytes are not blanks: refused at the first write that holds one
# where a line's kind word is, or by the end line's write when in a value.
printf '\303\251\377\n' >/tmp/h1
printf '\377\377\377\377\377\377\377\377' >/tmp/h2
head -c 4096 /dev/zero | tr '\000' '\377' >/tmp/h3
hk=$ht1
for h in h1 h2 h3; do
	sweep 1,2,3,7,64,100,4096 /tmp/$h
	sweep_check "high-bit bytes refused at once ($h)" refused 0
done
{ head -n 1 /tmp/t1; printf '\377\n'; sed 1d /tmp/t1; } >/tmp/h4
sweep "$BS" /tmp/h4
sweep_check "a line of one high-bit byte refused when it arrives, every block size" refused $(head -n 1 /tmp/t1 | wc -c)
sed 's/^level name=\([a-z]*\)$/level name=\1\303\251/' /tmp/t2 >/tmp/h5
sweep "$BS" /tmp/h5
sweep_check "a high-bit byte in a name refused by the write of end, every block size" refused $(($(wc -c </tmp/h5) - 2))
# dd, as a user would: bs=1 applies; text after end fails and changes nothing.
if dd if=/tmp/t2 of=$SP/model bs=1 2>/dev/null && cmp -s $SP/model /tmp/t2; then
	tap_ok "dd bs=1 of a model: exit 0, applied"
else
	tap_fail "dd bs=1 of a model: exit 0, applied"
fi
{ cat /tmp/t1; echo 'group level=x'; } >/tmp/t5
if ! dd if=/tmp/t5 of=$SP/model bs=1 2>/dev/null && cmp -s $SP/model /tmp/t2; then
	tap_ok "dd bs=1 with text after end: dd fails, the model before stays"
else
	tap_fail "dd bs=1 with text after end: dd fails, the model before stays"
fi

# Reads: one pass from offset 0 to EOF sees one model.  Two models of over
# a page (per-CPU pds, 16 OPPs and 8 idle states each) swap meanwhile.
mkbig() {	# mkbig VARIANT: a model of this machine's CPUs and groups
	awk -v v="$1" '
	/^sched_power_model / { print; n = substr($3, 6) + 0; next }
	/^level / { print; next }
	/^group / { g = g $0 "\n"; next }
	END {
		for (c = 0; c < n; c++) {
			printf "pd id=%d cpus=%d\n", c, c
			for (k = 1; k <= 16; k++)
				printf "opp pd=%d khz=%d cap=%d uw=%d\n", c, k * 200000, k * 64, k * 100000 + v * k
			for (k = 0; k < 8; k++)
				printf "idle pd=%d name=S%d uw=%d exit_us=%d target_us=%d wake_uj=%d\n", c, k, 160000 - k * 20000 + v, k * 10 + 1, k * 20 + 2, k
		}
		printf "%send\n", g
	}' /tmp/w0
}
mkbig 1 >$SP/model && cat $SP/model >/tmp/A
mkbig 7 >$SP/model && cat $SP/model >/tmp/B
if [ "$(wc -c </tmp/A)" -gt 4096 ] && [ "$(wc -c </tmp/B)" -gt 4096 ] && ! cmp -s /tmp/A /tmp/B; then
	tap_ok "two models of $(wc -c </tmp/A) and $(wc -c </tmp/B) bytes for the read tests"
else
	tap_fail "two large models" "$(wc -c /tmp/A /tmp/B)" "$(dmesg | grep sched_power | tail -n 2)"
fi
cat /tmp/A >$SP/model
r1=$($MC across $SP/model 100 /tmp/B)
r2=$($MC across $SP/model 4096 /tmp/A)
[ "$r1" = same ] && [ "$r2" = same ] && tap_ok "a read pass begun before a model write reads the old model to its end" \
	|| tap_fail "a read pass sees one model" "100-byte first read: $r1; 4096: $r2"
rm -f /tmp/swap.stop
( while [ ! -f /tmp/swap.stop ]; do cat /tmp/A >$SP/model; cat /tmp/B >$SP/model; done ) &
swp=$!
a=0 b=0 torn=0 i=0
while [ $i -lt 300 ]; do
	cat $SP/model >/tmp/r
	if cmp -s /tmp/r /tmp/A; then a=$((a + 1)); elif cmp -s /tmp/r /tmp/B; then b=$((b + 1)); else torn=$((torn + 1)); fi
	i=$((i + 1))
done
r3=$($MC read $SP/model 100 200 /tmp/A /tmp/B)
touch /tmp/swap.stop; wait $swp
[ $torn -eq 0 ] && [ $a -gt 0 ] && [ $b -gt 0 ] && tap_ok "300 cat reads while two models swap: $a A, $b B, none torn" \
	|| tap_fail "300 cat reads while two models swap" "$a A, $b B, $torn torn"
case "$r3" in
*" none=0") tap_ok "200 passes of 100-byte reads while two models swap: $r3" ;;
*) tap_fail "200 passes of 100-byte reads while two models swap" "$r3" ;;
esac

# Left open on purpose, to the end of the run: a reader in the middle of a
# pass and a writer with a staged text, so that guest-run.sh unloads the
# module with both pinned (sp_mfile_exit() lets them go) before its dmesg
# and taint checks.
exec 8>$SP/model 9<$SP/model
printf 'sched_power_model version=1' >&8
dd bs=100 count=1 <&9 >/dev/null 2>&1
echo "# fds 8 (staged writer) and 9 (reader at byte 100) stay open until rmmod"

# Back to the model the test found.
cat /tmp/m0 > $SP/model && cmp -s /tmp/m0 $SP/model 2>/dev/null || cat $SP/model | cmp -s - /tmp/m0
[ $? -eq 0 ] && tap_ok "original model restored" || tap_fail "original model restored"
sp_write mode observe
