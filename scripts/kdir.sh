#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel build directory to build sched_power against when KDIR is not
# given, in order of preference:
#  1. the headers Debian's linux-headers-<arch> metapackage depends on (the
#     distribution's kernel, 6.1 on Debian 12: what the VM tests boot);
#  2. the newest /lib/modules/V/build whose kernel V has /boot/vmlinuz-V;
#  3. the newest headers of all; 4. the running kernel's.
# Other headers installed beside (a portability build against a newer
# kernel) do not change the default.
arch=$(dpkg --print-architecture 2>/dev/null)
if [ -n "$arch" ]; then
	dep=$(dpkg-query -W -f='${Depends}' "linux-headers-$arch" 2>/dev/null |
		sed -n 's/.*linux-headers-\([^ ,]*\).*/\1/p')
	if [ -n "$dep" ] && [ -d "/lib/modules/$dep/build" ]; then
		echo "/lib/modules/$dep/build"
		exit 0
	fi
fi
for d in $(ls -d /lib/modules/*/build 2>/dev/null | sort -V -r); do
	v=${d#/lib/modules/}
	v=${v%/build}
	if [ -e "/boot/vmlinuz-$v" ]; then
		echo "$d"
		exit 0
	fi
done
d=$(ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n 1)
echo "${d:-/lib/modules/$(uname -r)/build}"
