#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-circles.sh - no two source files of a program call each other.
#
# For each program of the tree it builds the file-level graph "A uses B":
# A's object file refers to a symbol (a function, or data) that B's object
# defines, as the linker resolves it (nm: A has it undefined, B has it
# global).  Calls through a header's static inline function count for the
# file that includes the header, and a function named to be passed as a
# pointer counts like a call.  It fails on any cycle, directly (A uses B,
# B uses A) or through a loop, and prints each cycle with the symbols that
# make its edges.
#
# The programs (each a namespace of its own; core/ belongs to all three):
#   module     the module's objects from kbuild (top-level *.c and core/*.c,
#              each .c found through kbuild's "source_" line, so sched_power.c
#              is sp_main.o); run `make module` first
#   sim        tools/sim/*.c, core/*.c (host objects in build/), and each
#              tools/lib/*.c that is built as an object of its own
#   sp-report  tools/sp-report/*.c, core/*.c, the same tools/lib objects
# Every .c file of the module, core/, tools/sim and tools/sp-report must
# have its object: a file left out is an
# error, not a pass.  The symbols a trace header defines in the file that
# sets CREATE_TRACE_POINTS (__tracepoint_*, __traceiter_*, the static calls
# __SCK__tp_func_* and __SCT__tp_func_*) belong to the header, not the file.
#
# Usage: scripts/check-circles.sh [-v] [PROGRAM...]   (default: all three)
#   -v  print every edge.  BUILD= the host build directory (default build).
# Exit status: 0 no cycle, 1 a cycle, 2 a missing object or bad usage.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
build=${BUILD:-build}
verbose=0
if [ "${1:-}" = -v ]; then verbose=1; shift; fi
progs=${*:-module sim sp-report}

# objs_module: "source object" lines from kbuild's .cmd files.
objs_module() {
	local cmd src obj
	for cmd in .*.o.cmd core/.*.o.cmd; do
		[ -f "$cmd" ] || continue
		src=$(sed -n 's/^source_\(.*\.o\) := \(.*\.c\)$/\2/p' "$cmd")
		obj=$(sed -n 's/^source_\(.*\.o\) := .*\.c$/\1/p' "$cmd")
		[ -n "$src" ] && [ -f "$obj" ] || continue
		src=${src#"$top"/}
		case $src in
		*/*/*|*.mod.c) continue ;;
		core/*.c|[!/]*.c) echo "$src $obj" ;;
		esac
	done
}

# objs_host DIR...: "source object" for every DIR/*.c, from $build/DIR/*.o,
# and for each tools/lib/*.c built on its own (a tool may instead compile a
# library file into itself; then the file is covered as part of the tool).
objs_host() {
	local d c
	for d in "$@"; do
		for c in "$d"/*.c; do
			[ -f "$c" ] || continue
			echo "$c $build/${c%.c}.o"
		done
	done
	for c in tools/lib/*.c; do
		[ -f "$build/${c%.c}.o" ] && echo "$c $build/${c%.c}.o"
	done
}

# sources PROGRAM: the .c files the program must cover.
sources() {
	case $1 in
	module) ls ./*.c core/*.c | sed "s|^\./||" | grep -v "\.mod\.c$" ;;
	sim) ls tools/sim/*.c core/*.c 2>/dev/null ;;
	sp-report) ls tools/sp-report/*.c core/*.c 2>/dev/null ;;
	esac
}

pairs() {
	case $1 in
	module) objs_module ;;
	sim) objs_host tools/sim core ;;
	sp-report) objs_host tools/sp-report core ;;
	*) echo "check-circles: unknown program $1" >&2; return 2 ;;
	esac
}

# check PROGRAM: 0 no cycle, 1 a cycle, 2 an object missing.
check() {
	local prog=$1 list src obj missing=0 out
	list=$(pairs "$prog") || return 2
	for src in $(sources "$prog"); do
		obj=$(printf '%s\n' "$list" | awk -v s="$src" '$1 == s { print $2 }')
		if [ -z "$obj" ] || [ ! -f "$obj" ]; then
			echo "check-circles: $prog: no object for $src (build it first)" >&2
			missing=1
		fi
	done
	[ $missing = 0 ] || return 2
	out=$(printf '%s\n' "$list" | while read -r src obj; do
		nm "$obj" | awk -v f="$src" '
			$1 == "U" { print f, "U", $2; next }
			NF == 3 && $2 ~ /^[A-TV-Z]$/ { print f, "D", $3 }'
	done | awk -v prog="$prog" -v verbose="$verbose" -f "$top/scripts/circles.awk")
	local rc=$?
	printf '%s\n' "$out"
	return $rc
}

# self_test: the cycle search on two hand-made graphs, so that a checker
# that could not fail does not pass: a.c -> b.c -> c.c -> a.c must be found
# (exit 1, the loop printed), and the same without c.c -> a.c must pass.
self_test() {
	local edges out
	edges='a.c D fa
b.c D fb
c.c D fc
a.c U fb
b.c U fc
c.c U printf'
	printf '%s\nc.c U fa\n' "$edges" | awk -v prog=t -v verbose=0 -f "$top/scripts/circles.awk" \
		>/dev/null && { echo "check-circles: self-test: a loop not found" >&2; return 1; }
	out=$(printf '%s\nc.c U fa\n' "$edges" | awk -v prog=t -v verbose=0 -f "$top/scripts/circles.awk")
	case $out in
	*"a.c -> (fb) b.c -> (fc) c.c -> (fa) a.c"*) ;;
	*) echo "check-circles: self-test: loop printed as: $out" >&2; return 1 ;;
	esac
	printf '%s\n' "$edges" | awk -v prog=t -v verbose=0 -f "$top/scripts/circles.awk" \
		>/dev/null || { echo "check-circles: self-test: a loop where none is" >&2; return 1; }
}
self_test || exit 2

rc=0
for p in $progs; do
	check "$p"
	r=$?
	[ $r -gt $rc ] && rc=$r
done
exit $rc
