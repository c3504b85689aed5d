#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# arm64-fetch.sh DIR ABI: download the Debian arm64 kernel headers and image
# of kernel ABI (e.g. 6.1.0-57), busybox, trace-cmd and rt-app with their
# libraries, and libjson-c's static library (power-bench's pb-story, built
# static for the guest as on x86), and extract them into DIR/sysroot (apt-get download + dpkg -x:
# installing the arm64 headers with apt would pull binutils:arm64 and
# gcc-12:arm64).  Needs `dpkg --add-architecture arm64 && apt-get update`
# (scripts/install-deps.sh).  Exit 4 (kselftest skip) with the reason on
# stderr when the packages cannot be had.
set -euo pipefail
dir=${1:?dir} abi=${2:?abi}
skip() { echo "arm64-fetch: SKIP: $*" >&2; exit 4; }
pkgs="linux-headers-$abi-arm64:arm64 linux-headers-$abi-common
linux-image-$abi-arm64-unsigned:arm64 busybox-static:arm64
trace-cmd:arm64 libtraceevent1:arm64 libtraceevent1-plugin:arm64
libtracefs1:arm64 libzstd1:arm64 libc6:arm64 libgcc-s1:arm64
rt-app:arm64 libjson-c5:arm64 libjson-c-dev:arm64"
dpkg --print-foreign-architectures | grep -qx arm64 ||
	skip "dpkg has no arm64 architecture (scripts/install-deps.sh adds it)"
[ -d /usr/lib/linux-kbuild-6.1/scripts ] || skip "no /usr/lib/linux-kbuild-6.1 (linux-headers-amd64)"
mkdir -p "$dir/deb"
# apt's _apt user must be able to write the download directory.
chmod 777 "$dir/deb"
(cd "$dir/deb" && apt-get download -q $pkgs) >"$dir/fetch.log" 2>&1 ||
	skip "apt-get download failed: $(grep -m1 '^E:' "$dir/fetch.log" || tail -n 1 "$dir/fetch.log")"
rm -rf "$dir/sysroot"
for d in "$dir"/deb/*.deb; do dpkg -x "$d" "$dir/sysroot"; done
# The headers' scripts and tools links point at ../../lib/linux-kbuild-6.1,
# which is the host's (x86) kbuild from linux-headers-amd64.
hdr=$dir/sysroot/usr/src/linux-headers-$abi-arm64
for h in "$hdr" "$dir/sysroot/usr/src/linux-headers-$abi-common"; do
	ln -sfn /usr/lib/linux-kbuild-6.1/scripts "$h/scripts"
	ln -sfn /usr/lib/linux-kbuild-6.1/tools "$h/tools"
done
# The common headers' Makefile is included by absolute path.
sed -i "s|^include /usr/src/|include $dir/sysroot/usr/src/|" "$hdr/Makefile"
echo "arm64-fetch: $(ls "$dir"/deb/*.deb | wc -l) packages in $dir/sysroot" >&2
