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
	for ((c = 0; c < nbig + nlittle; c++)); do
		d=1024; [ $c -ge "$nbig" ] && d=$ldmips
		echo "	cpu@$c { capacity-dmips-mhz = <$d>; };"
	done
	echo '}; };'
} >>"$tmp/board.dts"
dtc -q -I dts -O dtb "$tmp/board.dts" -o "$out"
