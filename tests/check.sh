#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: host unit tests, then the VM selftests; ends with the total
# "N passed, N failed" line that CI reads.  Arguments: host test binaries.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
start=$(date +%s)
hp=0 hf=0 vp=0 vf=0

host_out=$("$top/tests/run-host.sh" "$@" 2>&1)
printf '%s\n' "$host_out"
line=$(printf '%s\n' "$host_out" | grep '^host: ' | tail -n 1)
hp=$(echo "$line" | sed -n 's/^host: \([0-9]*\) passed.*/\1/p')
hf=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
[ -n "$hp" ] || { hp=0; hf=1; }

# Each fuzzer under ASan/UBSan counts as one test (FUZZ_RUNS, FUZZ_REPORT_RUNS).
fp=0 ff=0
if [ "${SP_CHECK_FUZZ:-1}" = 1 ]; then
	if make -s -C "$top" fuzz; then fp=1; echo "ok fuzz_model"; else ff=1; echo "not ok fuzz_model"; fi
	# sp-report's trace.dat reader, a short run (FUZZ_REPORT_RUNS)
	if make -s -C "$top" fuzz-report; then fp=$((fp + 1)); echo "ok fuzz_report"
	else ff=$((ff + 1)); echo "not ok fuzz_report"; fi
fi
hp=$((hp + fp)); hf=$((hf + ff))

# DKMS add/build/install/remove for the installed Debian kernel (root only).
if [ "${SP_CHECK_DKMS:-1}" = 1 ] && [ "$(id -u)" -eq 0 ]; then
	if "$top/scripts/dkms-test.sh"; then hp=$((hp + 1)); else hf=$((hf + 1)); fi
fi

vm_out=$("$top/selftests/vm-run.sh" --tests 2>&1)
vrc=$?
printf '%s\n' "$vm_out"
line=$(printf '%s\n' "$vm_out" | grep '^vm: ' | tail -n 1)
vp=$(echo "$line" | sed -n 's/^vm: \([0-9]*\) passed.*/\1/p')
vf=$(echo "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
if [ -z "$vp" ]; then vp=0; vf=1; echo "# VM run produced no summary (rc=$vrc)"; fi
if [ "$vrc" -ne 0 ] && [ "$vf" -eq 0 ]; then vf=1; echo "# VM run failed (rc=$vrc)"; fi

echo "# make check: host $hp/$((hp + hf)), vm $vp/$((vp + vf)), wall $(( $(date +%s) - start )) s"
echo "$((hp + vp)) passed, $((hf + vf)) failed"
[ $((hf + vf)) -eq 0 ]
