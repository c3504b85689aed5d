#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# mod-sources.sh DIR: DIR becomes a fresh copy of the module's sources
# (Kbuild, the top-level .c and .h files but the generated *.mod.c, core/
# and uapi/), for an external-module build of its own against other
# headers or flags: scripts/newer-headers.sh, check-debug.sh,
# stack-chain.sh.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: mod-sources.sh DIR}
rm -rf "$dir" && mkdir -p "$dir/core" "$dir/uapi"
cp -p "$top/Kbuild" "$top"/*.h "$dir/"
for c in "$top"/*.c; do
	case $c in *.mod.c) ;; *) cp -p "$c" "$dir/" ;; esac
done
cp -p "$top"/core/*.c "$top"/core/*.h "$dir/core/"
cp -p "$top"/uapi/*.h "$dir/uapi/"
