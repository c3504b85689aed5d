#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# stack-chain.sh [DIR]: the deepest stack chain of each entry point the
# scheduler's hot paths call, from gcc's -fcallgraph-info=su.  The module is
# built (x86, KDIR from scripts/kdir.sh, as `make module`) from a copy of the
# sources in DIR/mod (build/stack-chain by default), so the normal build is
# not touched; gcc writes one .ci call graph per object there, and
# scripts/stack-chain.py sums the frames along the heaviest path from each
# entry point:
#   sp_redirect_ip         the ftrace redirect's callback (redirect.c)
#   sp_select_wrapper      select_task_rq_fair's wrapper: the hook (in observe
#                          mode; it calls sp_select_full(), the redirect's
#                          target in the other modes, so its chain holds both)
#   sp_balance_wrapper     the load-balancer gate's wrapper
#   sp_balance_probe_nr    the gate's sched_update_nr_running probe
#   sp_balance_kick_wrapper  the kick gate's wrapper (trigger_load_balance)
#   sp_cpuidle_probe_idle, sp_cpuidle_probe_freq  the idle/frequency probes
# Prints "stack_chain entry=NAME bytes=N path=f1>f2>..." per entry and ends
# with the hook's chain against STACK_AIM (512 B): "stack_chain hook=...
# bytes=N aim=512 ratio=R".  STACK_DROP="caller>callee ..." removes calls
# the code proves absent on the path (scripts/stack-chain.py --drop).
# Exits non-zero when the build fails, no .ci file is written or an entry
# point is not found.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$top/build/stack-chain}
kdir=${KDIR:-$("$top/scripts/kdir.sh")}
entries="sp_redirect_ip sp_select_wrapper sp_balance_wrapper sp_balance_probe_nr
	sp_balance_kick_wrapper sp_cpuidle_probe_idle sp_cpuidle_probe_freq"

"$top/scripts/mod-sources.sh" "$dir/mod"
cd "$top"
log=$dir/build.log
if ! make -C "$kdir" M="$dir/mod" KCFLAGS="-fcallgraph-info=su" modules >"$log" 2>&1; then
	tail -n 15 "$log" | sed 's/^/stack-chain:   /'
	echo "stack-chain: FAIL: the module did not build ($log)"
	exit 1
fi
drops=()
for d in ${STACK_DROP:-}; do
	drops+=(--drop "$d")
done
# shellcheck disable=SC2086	# $entries: one word per entry point
exec python3 "$top/scripts/stack-chain.py" --aim "${STACK_AIM:-512}" \
	--hook sp_select_wrapper "${drops[@]}" "$dir/mod" $entries
