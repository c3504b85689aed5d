#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict over every file that is built into sched_power.ko
# (the kernel files, the pure core and the uapi header), and over the test
# guests' cpufreq driver (selftests/testfreq/sp_testfreq.c).  A few message
# types are ignored, each for the reason given, and only where it holds:
#
#   CAMELCASE           EMe(), the list macro of include/trace/events/migrate.h
#   COMPLEX_MACRO       core/sp_enums.h: the EM()/EMe() lists cannot be
#                       parenthesised, they expand into enums and tables
#   MACRO_ARG_REUSE     core/sp_enums.h: a list applies its EM argument, a
#                       macro's name, to every entry; nothing is evaluated
#   OPEN_ENDED_LINE,    sched_power_trace.h: TRACE_EVENT()'s own layout, as
#   PARENTHESIS_ALIGNMENT, in samples/trace_events
#   TRAILING_SEMICOLON  sched_power_trace.h: EM() as TRACE_DEFINE_ENUM(a);
#                       exactly as migrate.h defines it
#   LINUX_VERSION_CODE  the guards an out-of-tree module needs for 6.2/6.9
#   NEW_TYPEDEFS, PREFER_KERNEL_TYPES, VOLATILE,
#   PREFER_DEFINED_ATTRIBUTE_MACRO
#                       core/sp_compat.h's host half: the u32 family and
#                       READ_ONCE for the host build, which has no kernel
#                       headers
#
# checkpatch.pl comes from $CHECKPATCH, an unpacked linux-source tree
# ($LINUX_SRC/scripts), or Debian's /usr/src/linux-source-6.1.tar.xz
# (scripts/checkpatch.pl, spelling.txt and const_structs.checkpatch are
# extracted once into build/checkpatch/).  Exit 4 (skip) if none is found.
# Prints "checkpatch: N files, E errors, W warnings, C checks".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
cp=${CHECKPATCH:-}
if [ -z "$cp" ] && [ -n "${LINUX_SRC:-}" ] && [ -f "$LINUX_SRC/scripts/checkpatch.pl" ]; then
	cp=$LINUX_SRC/scripts/checkpatch.pl
fi
if [ -z "$cp" ]; then
	cp=$top/build/checkpatch/scripts/checkpatch.pl
	tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)
	if [ ! -f "$cp" ] && [ -n "$tarball" ]; then
		mkdir -p build/checkpatch
		dir=$(tar tf "$tarball" | head -n 1 | cut -d/ -f1)
		tar xf "$tarball" -C build/checkpatch --strip-components=1 \
			"$dir/scripts/checkpatch.pl" "$dir/scripts/spelling.txt" \
			"$dir/scripts/const_structs.checkpatch" 2>/dev/null
	fi
fi
if [ ! -f "$cp" ]; then
	echo "checkpatch: SKIP no checkpatch.pl (install linux-source-6.1, or set CHECKPATCH)"
	exit 4
fi

ignore_for() {
	local t="CAMELCASE,LINUX_VERSION_CODE"
	case "$1" in
	core/sp_enums.h) t="$t,COMPLEX_MACRO,MACRO_ARG_REUSE" ;;
	sched_power_trace.h) t="$t,OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT,TRAILING_SEMICOLON" ;;
	core/sp_compat.h) t="$t,NEW_TYPEDEFS,PREFER_KERNEL_TYPES,VOLATILE,PREFER_DEFINED_ATTRIBUTE_MACRO" ;;
	esac
	echo "$t"
}

files=$(ls *.c *.h core/*.c core/*.h uapi/*.h selftests/testfreq/*.c 2>/dev/null | grep -v '\.mod\.c$')
n=0 e=0 w=0 c=0
for f in $files; do
	out=$(perl "$cp" --strict --no-tree --terse --show-types --ignore "$(ignore_for "$f")" -f "$f" 2>&1 | grep -v '^total:')
	n=$((n + 1))
	[ -n "$out" ] || continue
	printf '%s\n' "$out"
	e=$((e + $(printf '%s\n' "$out" | grep -c ': ERROR:')))
	w=$((w + $(printf '%s\n' "$out" | grep -c ': WARNING:')))
	c=$((c + $(printf '%s\n' "$out" | grep -c ': CHECK:')))
done
echo "checkpatch: $n files, $e errors, $w warnings, $c checks"
[ $((e + w + c)) -eq 0 ]
