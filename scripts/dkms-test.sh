#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# dkms-test.sh: install the module through DKMS for the Debian kernel whose
# headers are installed (KVER=), check modinfo of what DKMS installed, then
# remove it again.  Needs root and the dkms package.  Prints "ok dkms" or
# "not ok dkms" (one host test for tests/check.sh).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
kver=${KVER:-$(basename "$(dirname "$("$(dirname "$0")/kdir.sh")")")}
log=$top/build/dkms.log
mkdir -p "$top/build"
fail() { echo "# dkms: $*"; tail -n 20 "$log" | sed 's/^/#   /'; echo "not ok dkms"; exit 1; }
command -v dkms >/dev/null || fail "dkms not installed"
[ "$(id -u)" -eq 0 ] || fail "needs root"
dkms remove -m sched_power -v "$ver" --all >/dev/null 2>&1
make -s -C "$top" dkms-src >"$log" 2>&1 || fail "copying sources"
dkms add -m sched_power -v "$ver" >>"$log" 2>&1 || fail "dkms add"
dkms build -m sched_power -v "$ver" -k "$kver" >>"$log" 2>&1 || fail "dkms build"
dkms install -m sched_power -v "$ver" -k "$kver" >>"$log" 2>&1 || fail "dkms install"
ko=$(find "/lib/modules/$kver/updates/dkms" -name 'sched_power.ko*' | head -n 1)
[ -n "$ko" ] || fail "no module under /lib/modules/$kver/updates/dkms"
[ "$(modinfo -F version "$ko")" = "$ver" ] || fail "modinfo version of $ko"
echo "# dkms: $(dkms status -m sched_power -v "$ver" -k "$kver")"
echo "# dkms: $(grep -m1 -i 'installing' "$log" || echo "installed $ko")"
dkms remove -m sched_power -v "$ver" --all >>"$log" 2>&1 || fail "dkms remove"
rm -rf "/usr/src/sched_power-$ver"
echo "ok dkms"
