# SPDX-License-Identifier: GPL-2.0
# Bad input (issue 11): every writable file under /sys/kernel/sched_power
# gets at least 10 bad inputs; after each the write must have failed and
# the file must read back as before.  Non-root writes are refused.  The
# model file's streaming protocol: dd with small blocks, "end # comment",
# two concurrent writers of texts larger than a page.

# put FILE: write the bytes on stdin to FILE in one write(2); 0 if it succeeded
put() {
	dd of="$1" bs=1M 2>/dev/null
}

# gen KIND: the bytes of one bad input
gen() {
	case "$1" in
	newline) printf '\n' ;;
	two64) printf '18446744073709551616\n' ;;
	minus1) printf -- '-1\n' ;;
	spaces) printf '   \n' ;;
	lead) printf ' 5\n' ;;
	trail) printf '5 \n' ;;
	nonascii) printf '\303\251\n' ;;
	nul) printf '5\000junk\n' ;;
	lonenul) printf '\000' ;;
	big) head -c 5000 /dev/zero | tr '\0' '7' ;;
	several) printf '5 6\n' ;;
	hex) printf '0x10\n' ;;
	plus) printf '+5\n' ;;
	tab) printf '5\t\n' ;;
	crlf) printf '5\r\n' ;;
	word) printf 'bogus\n' ;;
	esac
}

BAD_KINDS="newline two64 minus1 spaces lead trail nonascii nul lonenul big several hex plus tab crlf word"

# try_bad FILE: every bad kind, plus a dd bs=1 split of a good value; prints failures
try_bad() {
	f=$SP/$1 good=$2 fails="" n=0
	for k in $BAD_KINDS; do
		before=$(cat $f)
		if gen $k | put $f; then fails="$fails $k(accepted)"; fi
		[ "$(cat $f)" = "$before" ] || fails="$fails $k(changed:$(cat $f))"
		n=$((n + 1))
	done
	before=$(cat $f)
	if printf '%s\n' "$good" | dd of=$f bs=1 2>/dev/null; then fails="$fails dd-bs1(accepted)"; fi
	[ "$(cat $f)" = "$before" ] || fails="$fails dd-bs1(changed:$(cat $f))"
	n=$((n + 1))
	# the empty write: no write(2) reaches the file; it must stay as it was
	before=$(cat $f); : > $f 2>/dev/null
	[ "$(cat $f)" = "$before" ] || fails="$fails empty(changed)"
	n=$((n + 1))
	if [ -z "$fails" ]; then tap_ok "input: $1 rejects $n bad inputs and keeps its value"
	else tap_fail "input: $1 rejects $n bad inputs and keeps its value" "$fails"; fi
}

sp_write mode observe
try_bad mode power
try_bad margin_pct 42
try_bad overutil_pct 42
try_bad window_us 4242
try_bad latency_us 42
try_bad wake_types wakeup
try_bad opp_floor 1

# A chunk at offset 1 through a later open of the file is refused, and
# does not undo the earlier open's complete write: the undo matches the
# first chunk's own open file, not a struct file the slab hands out again.
# The shell opens the file itself (no fork between the close and the open,
# so the freed struct file is likely the one it gets back once an RCU grace
# period has passed), reads one byte to stand at offset 1 and writes there.
bad=""
for i in 1 2 3 4 5 6 7 8 9 10; do
	printf '41\n' > $SP/margin_pct
	printf '42\n' > $SP/margin_pct
	sleep 0.05
	exec 3<>$SP/margin_pct
	read -n 1 x <&3
	printf '7' >&3 2>/dev/null && bad="$bad [$i: accepted]"
	exec 3>&-
	v=$(cat $SP/margin_pct)
	[ "$v" = 42 ] || bad="$bad [$i: value $v]"
done
if [ -z "$bad" ]; then
	tap_ok "input: a later open's chunk at offset 1 fails and keeps the earlier write (10 tries)"
else
	tap_fail "input: a later open's chunk at offset 1 fails and keeps the earlier write (10 tries)" "$bad"
fi

# Two open files each split a value over two chunks, interleaved: the
# chunk another open file writes at offset 1 fails and leaves the first
# file's first chunk to that file's own second chunk, which undoes it.
bad=""
printf '42\n' > $SP/margin_pct
exec 4<>$SP/margin_pct
printf '3' >&4 2>/dev/null || bad="$bad [first chunk refused]"
exec 3<>$SP/margin_pct
read -n 1 x <&3
printf '7' >&3 2>/dev/null && bad="$bad [other file's chunk at offset 1 accepted]"
printf '0' >&4 2>/dev/null && bad="$bad [second chunk accepted]"
exec 3>&- 4>&-
v=$(cat $SP/margin_pct)
[ "$v" = 42 ] || bad="$bad [value $v, not 42]"
if [ -z "$bad" ]; then
	tap_ok "input: interleaved split writes of two open files: each second chunk fails and the value is restored"
else
	tap_fail "input: interleaved split writes of two open files restore the value" "$bad"
fi

# values that are bad for one knob only: out of range, empty set, duplicates
bad=""
for kv in "margin_pct 101" "overutil_pct 0" "overutil_pct 101" "window_us 99" "window_us 1000001" \
	  "latency_us 10000001" "wake_types wakeup wakeup" "wake_types wakeup  fork" \
	  "wake_types none fork" "mode Power" "mode power balanced" "opp_floor 2"; do
	f=${kv%% *}; v=${kv#* }	# keep the value's own spacing
	before=$(cat $SP/$f)
	printf '%s\n' "$v" | put $SP/$f && bad="$bad [$f=$v]"
	[ "$(cat $SP/$f)" = "$before" ] || bad="$bad [$f=$v changed]"
done
[ -z "$bad" ] && tap_ok "input: out-of-range and malformed sets rejected per knob" || tap_fail "input: per-knob values" "$bad"

# good values still work, with and without a newline
ok=1
printf '33' | put $SP/margin_pct && [ "$(cat $SP/margin_pct)" = 33 ] || ok=0
printf '5\n' | put $SP/margin_pct && [ "$(cat $SP/margin_pct)" = 5 ] || ok=0
printf 'fork wakeup' | put $SP/wake_types && [ "$(cat $SP/wake_types)" = "wakeup fork" ] || ok=0
printf 'none\n' | put $SP/wake_types && [ "$(cat $SP/wake_types)" = none ] || ok=0
printf 'wakeup fork exec\n' | put $SP/wake_types || ok=0
printf '1\n' | put $SP/opp_floor && [ "$(cat $SP/opp_floor)" = 1 ] || ok=0
printf '0' | put $SP/opp_floor && [ "$(cat $SP/opp_floor)" = 0 ] || ok=0
[ $ok = 1 ] && tap_ok "input: good values accepted with or without newline" || tap_fail "input: good values accepted"

# stats/reset and idle/reset take exactly "1"
for f in stats/reset idle/reset; do
	fails=""
	for v in 0 2 11 "1 1" x -1 " 1"; do printf '%s\n' "$v" | put $SP/$f && fails="$fails [$v]"; done
	for k in newline nul lonenul big spaces; do gen $k | put $SP/$f && fails="$fails [$k]"; done
	printf '1\n' | put $SP/$f || fails="$fails [1 refused]"
	[ -z "$fails" ] && tap_ok "input: $f rejects 12 bad inputs, takes 1" || tap_fail "input: $f" "$fails"
done

# ---- the model file ----
cat $SP/model > /tmp/m0
src0=$(cat $SP/model_source)
mbad=""
mtry() {	# mtry NAME: stdin is a bad model write
	if put $SP/model; then mbad="$mbad $1(accepted)"; fi
	cmp -s $SP/model /tmp/m0 || mbad="$mbad $1(changed)"
}
head -c 4096 /dev/zero | tr '\0' x | mtry xs
head -c 4096 /dev/zero | mtry nuls
printf '\n' | mtry newline
printf 'garbage line\nend\n' | mtry garbage
{ head -n 1 /tmp/m0; printf 'bogus key=1\nend\n'; } | mtry unknown_kind
sed 's/cpus=4/cpus=5/' /tmp/m0 | mtry wrong_cpus
{ head -n 3 /tmp/m0; printf 'end\000\n'; } | mtry nul_inside
sed 's/uw=270000/uw=-1/' /tmp/m0 | mtry negative
sed 's/khz=800000/khz=18446744073709551616/' /tmp/m0 | mtry two64
{ head -n 1 /tmp/m0; head -c 300000 /dev/zero | tr '\0' '#'; printf '\nend\n'; } | mtry huge
printf '\303\251 pd\nend\n' | mtry nonascii
{ grep -v '^group' /tmp/m0; } | mtry missing_group
[ -z "$mbad" ] && [ "$(cat $SP/model_source)" = "$src0" ] \
	&& tap_ok "input: model rejects 12 bad texts (garbage, NULs, 4 KiB, 300 KiB, wrong CPUs...) and keeps the model" \
	|| tap_fail "input: model rejects bad texts" "$mbad"

# a model streamed one byte or 100 bytes at a time, and an end line with a comment
sed 's/uw=800000/uw=810000/' /tmp/m0 > /tmp/m1
if dd if=/tmp/m1 of=$SP/model bs=100 2>/dev/null && cmp -s $SP/model /tmp/m1; then
	tap_ok "input: model written with dd bs=100 is applied"
else
	tap_fail "input: model written with dd bs=100 is applied" "$(diff /tmp/m1 $SP/model | head -n 5)"
fi
sed 's/^end$/end # done/' /tmp/m0 > /tmp/m2
if put $SP/model < /tmp/m2 && cmp -s $SP/model /tmp/m0; then
	tap_ok "input: 'end # comment' completes a model write"
else
	tap_fail "input: 'end # comment' completes a model write"
fi
# two writers of texts over a page: the result is one of them, never a mix
pad() { i=0; while [ $i -lt 80 ]; do echo "# padding line $i of a model text larger than one page"; i=$((i + 1)); done; }
{ pad; cat /tmp/m1; } > /tmp/ma
{ pad; cat /tmp/m0; } > /tmp/mb
mix=0; j=0
while [ $j -lt 10 ]; do
	dd if=/tmp/ma of=$SP/model bs=512 2>/dev/null & pa=$!
	dd if=/tmp/mb of=$SP/model bs=512 2>/dev/null & pb=$!
	wait $pa; ra=$?; wait $pb; rb=$?
	cmp -s $SP/model /tmp/m1 || cmp -s $SP/model /tmp/m0 || mix=$((mix + 1))
	[ $ra -eq 0 ] && [ $rb -eq 0 ] || mix=$((mix + 100))
	j=$((j + 1))
done
[ $mix -eq 0 ] && tap_ok "input: 10 rounds of two concurrent 5 KiB model writers: both succeed, the model is one of them" \
	|| tap_fail "input: concurrent model writers" "bad rounds code $mix"
put $SP/model < /tmp/m0

# non-root writes are refused and change nothing
before=$(cat $SP/mode)
if /sp/sp_as 65534 sh -c "echo power > $SP/mode" 2>/dev/null; then r=accepted; else r=refused; fi
/sp/sp_as 65534 sh -c "cat /tmp/m1 > $SP/model" 2>/dev/null && r="$r model-accepted"
/sp/sp_as 65534 sh -c "echo 1 > $SP/stats/reset" 2>/dev/null && r="$r reset-accepted"
[ "$r" = refused ] && [ "$(cat $SP/mode)" = "$before" ] && cmp -s $SP/model /tmp/m0 \
	&& tap_ok "input: uid 65534 cannot write mode, model or stats/reset" \
	|| tap_fail "input: non-root writes refused" "$r"
