#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ovh-run.sh - guest side of make vm-overhead (tools/overhead/vm-overhead):
# the scheduler maintainers' workloads, perf bench sched pipe and perf bench
# sched messaging (hackbench), under every configuration, interleaved.
#
# Environment (vm-run.sh SP_VM_ENV):
#   OVH_ROUNDS     rounds (each runs every configuration once), default 10
#   OVH_CONFIGS    default "not_loaded off observe power balanced"
#   OVH_PIPE       perf bench sched pipe arguments, default "-l 10000"
#   OVH_MSG        perf bench sched messaging arguments, default "-g 2 -l 50"
#   OVH_MARK=1     the instruction-count run: `sync` before and after each
#                  workload (the qemu plugin ends a phase at every sync) and
#                  "ovh-mark N LABEL" lines that name the phases
# Output, one line per run:
#   ovh-run round=R config=C workload=pipe|messaging us=T calls=N
# T: pipe usecs/op, messaging total time in us; N: hook calls (stats/calls)
# during the run, "-" when not loaded.  With the module loaded, also
#   ovh-mix round=R config=C workload=W decisions=D fallbacks=F
# the decisions made during the run and how many of them fell back to CFS
# before computing any energy (stats/reason_overutilised_fallback): the
# mix that a per-call instruction count depends on.
KO=${1:-/sp/sched_power.ko}
SP=/sys/kernel/sched_power
ROUNDS=${OVH_ROUNDS:-10}
CONFIGS=${OVH_CONFIGS:-"not_loaded off observe power balanced"}
PIPE_ARGS=${OVH_PIPE:-"-l 10000"}
MSG_ARGS=${OVH_MSG:-"-g 2 -l 50"}
MARK=${OVH_MARK:-0}
nmark=0
loaded=

mark() {
	[ "$MARK" = 1 ] || return 0
	echo "ovh-mark $nmark $*"
	nmark=$((nmark + 1))
	sync
}

calls_now() {
	if [ -n "$loaded" ]; then cat $SP/stats/calls; else echo -; fi
}

# decisions and overutilised fallbacks so far, "- -" when not loaded
mix_now() {
	if [ -n "$loaded" ]; then
		echo "$(cat $SP/stats/decisions) $(cat $SP/stats/reason_overutilised_fallback)"
	else
		echo "- -"
	fi
}

# load MODE: the module in that mode ("" = unload)
load() {
	if [ -z "$1" ] && [ -n "$loaded" ]; then
		rmmod sched_power || { echo "ovh-error rmmod failed"; exit 1; }
		loaded=
	fi
	[ -n "$1" ] || return 0
	if [ -z "$loaded" ]; then
		insmod "$KO" mode="$1" || { echo "ovh-error insmod failed"; exit 1; }
		loaded=1
		# the plugin's profile is mapped to the module's symbols
		if [ "$MARK" = 1 ]; then
			echo "ovh-modcore $(cat /sys/module/sched_power/sections/.text) $(cat /sys/module/sched_power/coresize)"
			grep -E '^[0-9a-f]+ [tT] .*\[sched_power\]' /proc/kallsyms | sed 's/^/ovh-ksym /'
		fi
	fi
	echo "$1" >$SP/mode
}

run_one() {	# round config workload
	c0=$(calls_now)
	x0=$(mix_now)
	mark "idle $1 $2 $3"
	case $3 in
	pipe) t=$(perf bench sched pipe $PIPE_ARGS 2>&1 | sed -n 's/^ *\([0-9.]*\) usecs\/op.*/\1/p') ;;
	messaging) t=$(perf bench sched messaging $MSG_ARGS 2>&1 | sed -n 's/.*Total time: *\([0-9.]*\) .*/\1/p')
		[ -z "$t" ] || t=$(awk -v s="$t" 'BEGIN { printf "%.0f", s * 1000000 }') ;;
	esac
	mark "run $1 $2 $3"
	c1=$(calls_now)
	x1=$(mix_now)
	n=-
	[ "$c0" = - ] || n=$((c1 - c0))
	[ -n "$t" ] || { echo "ovh-error round=$1 config=$2 workload=$3: no result from perf"; exit 1; }
	echo "ovh-run round=$1 config=$2 workload=$3 us=$t calls=$n"
	[ "$c0" = - ] || echo "$x0 $x1" | {
		read -r d0 f0 d1 f1
		echo "ovh-mix round=$1 config=$2 workload=$3 decisions=$((d1 - d0)) fallbacks=$((f1 - f0))"
	}
}

run_config() {	# round config
	case $2 in
	not_loaded) load "" ;;
	*) load "$2" ;;
	esac
	run_one "$1" "$2" pipe
	run_one "$1" "$2" messaging
}

command -v perf >/dev/null || { echo "ovh-error no perf in the guest"; exit 1; }
echo "# ovh: kernel $(uname -r), $(nproc) CPUs, $ROUNDS rounds, pipe: $PIPE_ARGS, messaging: $MSG_ARGS"
echo "# ovh: $(perf --version)"
cd /tmp || exit 1
perf bench sched pipe $PIPE_ARGS >/dev/null 2>&1	# warm-up
n_cfg=$(echo $CONFIGS | wc -w)
r=1
while [ $r -le "$ROUNDS" ]; do
	# Rotate the order every round so that no configuration always runs
	# first after a boot, a load or another one; the module stays loaded
	# across consecutive configurations of one hook (its mode is switched).
	k=$(( (r - 1) % n_cfg ))
	order=$(echo $CONFIGS | awk -v k=$k '{ for (i = 0; i < NF; i++) printf "%s ", $(((i + k) % NF) + 1) }')
	for c in $order; do run_config $r "$c"; done
	echo "# ovh: round $r done"
	r=$((r + 1))
done
load ""
mark end
echo "# ovh: done"
