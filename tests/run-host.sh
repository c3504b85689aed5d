#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run cmocka host test binaries; print each one's summary and a total line
# "host: N passed, N failed".  Exit 1 if any test failed or a binary crashed.
set -u
passed=0
failed=0
for t in "$@"; do
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
	p=${p:-0}
	f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "# $t exited with status $rc"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "host: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
