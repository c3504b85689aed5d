#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# newer-headers.sh DIR: build sched_power against the newest kernel headers
# Debian 12 offers beyond its 6.1 (linux-headers-6.N.*+deb12-amd64, 6.12
# today), fetched with apt-get download and unpacked into DIR/sysroot with
# their own kbuild, so the machine gets no second kernel.  The module is
# built W=1 in DIR/mod; any warning or error fails.  Exit 4 (skip) when no
# newer headers can be had.  Prints "newer-headers: VERSION ... ok".
#
# newer-headers.sh --version prints that version (6.12.N+deb12) and nothing
# else, exit 4 when there is none: scripts/newer-kernel.sh fetches the
# image of the same version.
set -euo pipefail
dir=${1:?dir}
top=$(cd "$(dirname "$0")/.." && pwd)
skip() { echo "newer-headers: SKIP: $*"; exit 4; }
arch=$(dpkg --print-architecture 2>/dev/null || echo none)
[ "$arch" = amd64 ] || skip "not amd64"
ver=$(apt-cache search --names-only '^linux-headers-6\.[0-9]+\.[0-9]+\+deb12-amd64$' 2>/dev/null |
	sed -n 's/^linux-headers-\(6\.[0-9.]*+deb12\)-amd64 .*/\1/p' | sort -V | tail -n 1)
[ -n "$ver" ] || skip "apt offers no linux-headers-6.N.*+deb12-amd64"
[ "$dir" != --version ] || { echo "$ver"; exit 0; }
if [ ! -f "$dir/.fetched-$ver" ]; then
	rm -rf "$dir" && mkdir -p "$dir/deb" && chmod 777 "$dir/deb"
	(cd "$dir/deb" && apt-get download -q "linux-headers-$ver-amd64" \
		"linux-headers-$ver-common" "linux-kbuild-$ver") >"$dir/fetch.log" 2>&1 ||
		skip "apt-get download failed: $(tail -n 1 "$dir/fetch.log")"
	for d in "$dir"/deb/*.deb; do dpkg -x "$d" "$dir/sysroot"; done
	hdr=$dir/sysroot/usr/src/linux-headers-$ver-amd64
	for h in "$hdr" "$dir/sysroot/usr/src/linux-headers-$ver-common"; do
		ln -sfn "$dir/sysroot/usr/lib/linux-kbuild-$ver/scripts" "$h/scripts"
		ln -sfn "$dir/sysroot/usr/lib/linux-kbuild-$ver/tools" "$h/tools"
	done
	sed -i "s|^include /usr/src/|include $dir/sysroot/usr/src/|" "$hdr/Makefile"
	touch "$dir/.fetched-$ver"
fi
# The same sources built W=1 clean against the same headers before (make
# check's newer_headers test, then make check-6.12 in one .ci/run): that
# build and its verdict stand, the module is not built a second time.
# The key is every source file's name and contents and the version.
"$top/scripts/mod-sources.sh" "$dir/src"
key=$( (echo "$ver"; cd "$dir/src" && find . -type f | LC_ALL=C sort | xargs sha256sum) | sha256sum | cut -d' ' -f1)
ok="$dir/mod/.built-clean"
if [ -f "$ok" ] && [ "$(cat "$ok")" = "$key" ] && [ -f "$dir/mod/sched_power.ko" ]; then
	rm -rf "$dir/src"
	echo "newer-headers: $ver: $(modinfo -F vermagic "$dir/mod/sched_power.ko" | cut -d' ' -f1) W=1 clean, ok (these sources, built before)"
	exit 0
fi
rm -rf "$dir/mod" && mv "$dir/src" "$dir/mod"
cd "$top"
log=$dir/build.log
if ! make -C "$dir/sysroot/usr/src/linux-headers-$ver-amd64" M="$dir/mod" W=1 modules >"$log" 2>&1; then
	grep -E 'error|warning' "$log" | head -n 20
	echo "newer-headers: the build log's last lines:"
	tail -n 15 "$log" | sed 's/^/newer-headers:   /'
	echo "newer-headers: $ver: build failed ($log)"
	exit 1
fi
if grep -E 'warning:|error:' "$log"; then
	echo "newer-headers: $ver: warnings ($log)"
	exit 1
fi
echo "$key" >"$ok"
echo "newer-headers: $ver: $(modinfo -F vermagic "$dir/mod/sched_power.ko" | cut -d' ' -f1) W=1 clean, ok"
