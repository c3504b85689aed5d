#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# newer-kernel.sh DIR: the Debian 12 kernel image of the version
# scripts/newer-headers.sh builds against (linux-image-6.N.*+deb12-amd64-
# unsigned, 6.12 today), fetched with apt-get download and unpacked into
# DIR/image (about 110 MB), so the VM can boot it; the machine gets no
# second kernel.  Prints the vmlinuz path.  Exit 4 (skip) when apt offers
# no such image.
set -euo pipefail
dir=${1:?dir}
top=$(cd "$(dirname "$0")/.." && pwd)
skip() { echo "newer-kernel: SKIP: $*"; exit 4; }
ver=$("$top/scripts/newer-headers.sh" --version) || skip "no newer headers, so no newer kernel"
img=$dir/image/boot/vmlinuz-$ver-amd64
if [ ! -f "$dir/.image-$ver" ] || [ ! -f "$img" ]; then
	rm -rf "$dir/image" "$dir/image-deb" && mkdir -p "$dir/image-deb" && chmod 777 "$dir/image-deb"
	(cd "$dir/image-deb" && apt-get download -q "linux-image-$ver-amd64-unsigned") \
		>"$dir/image-fetch.log" 2>&1 ||
		skip "apt-get download linux-image-$ver-amd64-unsigned failed: $(tail -n 1 "$dir/image-fetch.log")"
	dpkg -x "$dir"/image-deb/*.deb "$dir/image"
	rm -rf "$dir/image-deb" "$dir/image/lib/modules"	# the guest loads no module but ours
	[ -f "$img" ] || { echo "newer-kernel: $img missing after dpkg -x"; exit 1; }
	touch "$dir/.image-$ver"
fi
echo "$img"
