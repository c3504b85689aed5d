#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# arm64-biglittle-dtb.sh OUT.dtb NBIG NLITTLE LITTLE_DMIPS QEMU_ARGS...
#
# Dump the DTB of the qemu virt board started with QEMU_ARGS (the same
# -M/-cpu/-smp/-m the boot will use: the DTB describes memory and devices),
# replace its cpu-map by two clusters (cluster0: NBIG big CPUs, cluster1:
# NLITTLE LITTLE ones) and give every CPU a capacity-dmips-mhz: 1024 for
# big, LITTLE_DMIPS for LITTLE.  The kernel then reports cluster_id 0/1 in
# /sys/devices/system/cpu/cpuN/topology/ and cpu_capacity 1024 / LITTLE.
#
# Every CPU also gets two PSCI idle states beside WFI (cpu-idle-states,
# compatible "arm,idle-state"), so cpuidle-psci registers psci_idle and the
# menu governor runs: cpu-sleep (a core state: entry/exit/min-residency
# 40/100/300 us) and cluster-sleep (the cluster's: 300/800/2000 us).  Both
# are PSCI standby states (power_state StateType 0, level 0, state ids 1
# and 2): qemu's PSCI (target/arm/psci.c) executes CPU_SUSPEND as WFI,
# returns INVALID_PARAMS for a power level above 0, and returns from a
# powerdown state, which the kernel then counts as a failed entry
# (Documentation/testfreq.rst).  SP_DT_IDLE_PARAMS="P1 P2" sets the two
# arm,psci-suspend-param values; SP_DT_IDLE=0 leaves the idle states out.
set -euo pipefail
out=${1:?out.dtb} nbig=${2:?} nlittle=${3:?} ldmips=${4:?}
shift 4
command -v dtc >/dev/null || { echo "arm64-dtb: dtc missing (device-tree-compiler)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
qemu-system-aarch64 "$@" -machine dumpdtb="$tmp/virt.dtb" -display none >/dev/null 2>&1
dtc -q -I dtb -O dts "$tmp/virt.dtb" -o "$tmp/board.dts"
{
	echo '/ { cpus {'
	echo '	/delete-node/ cpu-map;'
	echo '	cpu-map {'
	c=0
	for cl in 0 1; do
		n=$nbig; [ $cl -eq 1 ] && n=$nlittle
		echo "		cluster$cl {"
		for ((i = 0; i < n; i++)); do
			echo "			core$i { cpu = <&{/cpus/cpu@$c}>; };"
			c=$((c + 1))
		done
		echo '		};'
	done
	echo '	};'
	idle=""
	if [ "${SP_DT_IDLE:-1}" = 1 ]; then
		set -- ${SP_DT_IDLE_PARAMS:-0x1 0x2}
		echo '	idle-states {'
		echo '		entry-method = "psci";'
		echo '		CPU_SLEEP: cpu-sleep {'
		echo '			compatible = "arm,idle-state";'
		echo "			arm,psci-suspend-param = <$1>;"
		echo '			entry-latency-us = <40>;'
		echo '			exit-latency-us = <100>;'
		echo '			min-residency-us = <300>;'
		echo '		};'
		echo '		CLUSTER_SLEEP: cluster-sleep {'
		echo '			compatible = "arm,idle-state";'
		echo "			arm,psci-suspend-param = <$2>;"
		echo '			entry-latency-us = <300>;'
		echo '			exit-latency-us = <800>;'
		echo '			min-residency-us = <2000>;'
		echo '		};'
		echo '	};'
		idle=' cpu-idle-states = <&CPU_SLEEP &CLUSTER_SLEEP>;'
	fi
	for ((c = 0; c < nbig + nlittle; c++)); do
		d=1024; [ $c -ge "$nbig" ] && d=$ldmips
		echo "	cpu@$c { capacity-dmips-mhz = <$d>;$idle };"
	done
	echo '}; };'
} >>"$tmp/board.dts"
dtc -q -I dts -O dtb "$tmp/board.dts" -o "$out"
