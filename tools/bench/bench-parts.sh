#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench-parts.sh BENCH_PLACE OUTDIR MODEL...: where one placement decision's
# instructions go, per part.  Runs bench_place's child (the decisions make
# bench counts: 20000 of them, seed 1) under valgrind --tool=callgrind
# --toggle-collect=sp_place_w, its output kept in OUTDIR/SCENARIO.callgrind
# (callgrind_annotate reads it too), for the full decision at 8, 64 and 256
# CPUs (fresh stamps, as make bench's first lines) and for pipe, pipe_heavy
# and pipe_guest (tools/bench/pipe-guest.state), and prints per scenario
# tools/bench/callgrind-parts.py's line:
#   parts scenario=S model=M total=I fast=I|inline upper=I energy_cfs=I
#   energy_cands=I energy_calls=C energy_cand_calls=C energy_per_call=I
#   scan=I walk=I|inline pick=I|inline rest=I
# (instructions per decision; C calls per decision), a '#' line with the
# scan's probes (sp_place_probe() and what it inlines) and its own
# instructions per source function, and one with the rest's.  Then it runs
# bench_place -n 20000 as make bench does (the same callgrind runs, fewer
# timed decisions) and checks that each total is make bench's
# instr_per_decision for the scenario ("check ... ok"), and prints its
# '#' lines (candidates per decision and reasons).  BENCH_PARTS_CHECK=0
# skips that.  Exits non-zero, naming it, when a part's function is missing
# from the build (renamed or inlined), a run fails or a total differs.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$1
out=$2
shift 2
models=("$@")
n=20000
state=tools/bench/pipe-guest.state
mkdir -p "$out"
bin=$(realpath "$bin")
out=$(realpath "$out")
cd "$top"

# The first model given with CPUS CPUs, as bench_place's load_model() takes it.
model_of() {
	local m
	for m in "${models[@]}"; do
		if grep -m 1 '^sched_power_model ' "$m" | grep -qw "cpus=$1"; then
			echo "$m"
			return
		fi
	done
	echo gen
}

# run SCENARIO CPUS AGE_US PIPE STATE: one child under callgrind, then its parts.
run() {
	local f=$out/$1.callgrind log=$out/$1.log collected
	if ! valgrind --tool=callgrind --toggle-collect=sp_place_w --dump-instr=no \
		--compress-strings=no --compress-pos=no --callgrind-out-file="$f" \
		"$bin" --child "$2" "$n" 1 "$3" "$4" "$5" "${models[@]}" >"$log" 2>&1; then
		tail -n 5 "$log" >&2
		echo "bench-parts: FAIL: $1: callgrind run ($log)" >&2
		exit 1
	fi
	collected=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
	python3 tools/bench/callgrind-parts.py --binary "$bin" --decisions "$n" \
		--collected "${collected:-0}" --label "scenario=$1 model=$(model_of "$2")" "$f" |
		tee -a "$out/parts.txt"
	test "${PIPESTATUS[0]}" = 0
}

: >"$out/parts.txt"
for c in 8 64 256; do
	run "cpus$c" "$c" 0 0 -
done
run pipe 4 4000 1 "$state"
run pipe_heavy 4 4000 2 "$state"
run pipe_guest 4 4000 3 "$state"

[ "${BENCH_PARTS_CHECK:-1}" = 0 ] && exit 0
# make bench's lines, the callgrind runs the same (n is bench_place's count there)
"$bin" -n "$n" "${models[@]}" >"$out/bench.txt"
"$bin" -n "$n" -a 4000 --pipe --state "$state" "${models[@]}" >"$out/bench-pipe.txt"
bad=0
while read -r kind scen model total _; do
	[ "$kind" = parts ] || continue
	scen=${scen#scenario=}
	case $scen in
	cpus*) pat="^cpus=${scen#cpus} model=${model#model=} stamp_age_us=0 " ;;
	*) pat="^$scen cpus=4 model=${model#model=} " ;;
	esac
	want=$(cat "$out/bench.txt" "$out/bench-pipe.txt" | grep -E "$pat" |
		sed -n 's/.* instr_per_decision=\([0-9]*\).*/\1/p' | head -n 1 || true)
	if [ "${total#total=}" = "$want" ]; then
		echo "check scenario=$scen total=${total#total=} bench_instr_per_decision=$want ok"
	else
		echo "check scenario=$scen total=${total#total=} bench_instr_per_decision=${want:-none} FAIL"
		bad=1
	fi
done <"$out/parts.txt"
# how make bench's decisions came out (the fresh stamps' and the pipes')
grep '^#' "$out/bench.txt"
sed -n '/^# pipe:/,${/^#/p}' "$out/bench-pipe.txt"
exit $bad
