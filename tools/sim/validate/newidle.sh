#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# newidle.sh - on the arm64 big.LITTLE guest (2 big CPUs 0-1, 4 LITTLE),
# one story under CFS with 6.1.192's NI_RANDOM sched feature (newidle
# balance at each domain run with the probability of its recent success)
# on and off, interleaved: the story threads' migrations by kind and
# direction, and per CPU and domain the newly-idle load_balance() calls and
# active balances from /proc/schedstat (newidle-guest.sh says what each
# V-RUN field is).  Needs make arm64 arm64-guest-tools arm64-testfreq.
#
#   tools/sim/validate/newidle.sh [-r REPS] [STORY.json]   (default build, 3)
#
# Writes build/validate/newidle.txt (the V- lines) and prints them.
set -euo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$top"
reps=3
if [ "${1:-}" = -r ]; then reps=${2:?-r needs a count}; shift 2; fi
story=${1:-tools/sim/stories/build.json}
out=build/validate
mkdir -p "$out"
make -s build/guest/pb-story >/dev/null
# the story threads' names, less a trailing number (as cfs16.sh)
comm=$(build/guest/pb-story "$story" | sed -n 's/.*tasks=\([^ ,]*\).*/\1/p' | sed 's/[0-9]*$//')
V_STORY=$(basename "$story") V_REPS=$reps V_BIG=0,1 V_COMM=$comm \
SP_ARCH=arm64 SP_VM_TIMEOUT=${SP_VM_TIMEOUT:-1800} \
SP_VM_FILES="$story tools/sim/validate/migrations.awk" \
SP_VM_ENV="V_STORY V_REPS V_BIG V_COMM" \
	selftests/vm-run.sh --script tools/sim/validate/newidle-guest.sh >"$out/newidle.out" 2>"$out/newidle.err" ||
	{ tail -n 5 "$out/newidle.err" >&2; echo "newidle: the VM run failed ($out/newidle.out)" >&2; exit 1; }
tr -d '\r' <"$out/newidle.out" | grep '^V-' | tee "$out/newidle.txt"
