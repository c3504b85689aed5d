# SPDX-License-Identifier: GPL-2.0
# Guest side of tools/sp-report/results.sh (run by vm-run.sh --script):
# record the light load in observe and in power mode (report_lib.sh's
# rep_record) and print each file base64-encoded between "SP-FILE NAME"
# and "SP-FILE-END" lines on the console, the VM's only way out.
insmod /sp/sched_power.ko mode=observe || exit 1
. ./report_lib.sh
for mode in observe power; do
	rep_record $mode || { echo "record $mode failed"; exit 1; }
done
# A small recording for the fuzzer's seeds: 0.3 s, no kallsyms (an empty
# file bound over /proc/kallsyms keeps trace-cmd from saving 4 MB of symbols).
: > /tmp/nosyms
if mount -o bind /tmp/nosyms /proc/kallsyms; then
	sp_write mode power
	trace-cmd record -q -C perf -b 512 $REP_EVENTS -o /tmp/rep_seed.dat \
		/sp/sp_load chain 2 20000 50 300 0 >/dev/null 2>&1
	sp_write mode off
	umount /proc/kallsyms
fi
echo "$REP_IDLE" > /tmp/rep_idle.opt	# --idle-deepest without a cpuidle driver
for f in rep_idle.opt rep_observe.dat rep_observe.model rep_observe.stats rep_observe.e0 rep_observe.e1 \
	 rep_power.dat rep_power.model rep_power.stats rep_power.e0 rep_power.e1 rep_seed.dat; do
	[ -f /tmp/$f ] || continue
	echo "SP-FILE $f"
	base64 /tmp/$f
	echo "SP-FILE-END"
done
sp_write mode observe
rmmod sched_power
