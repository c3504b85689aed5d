# SPDX-License-Identifier: GPL-2.0
# What qemu's PSCI does with the arm64 board's idle states: run as
#   SP_DT_IDLE_PARAMS="0x1 0x10002" SP_ARCH=arm64 \
#	./selftests/vm-run.sh --script selftests/testfreq/psci-probe.sh
# (the two arm,psci-suspend-param values of scripts/arm64-biglittle-dtb.sh);
# prints the cpuidle driver and, per state, the entries summed over the
# CPUs in 2 s of an idle guest and the entries the kernel counted as
# failed (rejected).  Documentation/testfreq.rst quotes it.
echo "cpuidle driver: $(cat /sys/devices/system/cpu/cpuidle/current_driver)"
dmesg | grep -i -E "psci|idle|power state" | grep -v "governor" | head -8
sleep 2
for s in 1 2; do
  echo "state$s $(cat /sys/devices/system/cpu/cpu0/cpuidle/state$s/name 2>/dev/null) usage=$(cat /sys/devices/system/cpu/cpu*/cpuidle/state$s/usage 2>/dev/null | awk '{s+=$1} END {print s+0}') rejected=$(cat /sys/devices/system/cpu/cpu*/cpuidle/state$s/rejected 2>/dev/null | awk '{s+=$1} END {print s+0}')"
done
