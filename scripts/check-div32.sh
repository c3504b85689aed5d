#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# check-div32.sh: the pure core divides 64-bit values only through
# sp_div_u64()/sp_div_s64() (core/sp_compat.h: div_u64()/div_s64() in the
# kernel), so a 32-bit kernel, which has no libgcc, could link it.  The core
# is compiled for i386, freestanding, with those two as external calls
# (SP_DIV_EXTERN); any __udivdi3, __divdi3, __umoddi3 or __moddi3 left in an
# object is a raw 64-bit division, named with its function.  Exit 4 (skip)
# when gcc cannot compile for -m32.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/inc"
cat > "$tmp/inc/string.h" <<'H'
#include <stddef.h>
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
void *memchr(const void *, int, size_t);
int memcmp(const void *, const void *, size_t);
size_t strlen(const char *);
H
printf '#define EINVAL 22\n#define E2BIG 7\n#define ENOSPC 28\n#define EPERM 1\n#define EBUSY 16\n' > "$tmp/inc/errno.h"
inc=$(gcc -print-file-name=include)
echo 'int x;' | gcc -m32 -ffreestanding -nostdinc -isystem "$inc" -x c -c - -o "$tmp/probe.o" 2>/dev/null ||
	{ echo "check-div32: SKIP: gcc cannot compile for -m32"; exit 4; }
bad=0 n=0
for f in "$top"/core/*.c; do
	o=$tmp/$(basename "$f" .c).o
	if ! gcc -m32 -O2 -std=gnu11 -ffreestanding -nostdinc -isystem "$inc" -I"$tmp/inc" \
		-I"$top/core" -DSP_DIV_EXTERN -c "$f" -o "$o" 2>"$tmp/err"; then
		echo "check-div32: $f does not compile for -m32:"; head -n 5 "$tmp/err"; bad=$((bad + 1)); continue
	fi
	n=$((n + 1))
	fns=$(objdump -dr "$o" | awk '/^[0-9a-f]+ <.*>:/ { fn = $2 } /__(u?div|u?mod)di3/ { print fn }' | sort -u | tr '\n' ' ')
	if [ -n "$fns" ]; then
		echo "check-div32: raw 64-bit division in $(basename "$f"): $fns"
		bad=$((bad + 1))
	fi
done
echo "check-div32: $n core files compiled for i386, $bad with a raw 64-bit division"
[ "$bad" -eq 0 ]
