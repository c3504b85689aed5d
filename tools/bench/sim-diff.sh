#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# sim-diff.sh REF_DIR NEW_DIR - the simulator rows whose energy, p99 or
# makespan differ between two sets of build/sim/<model>/results.csv, one
# line per model/story/policy with both values and the change in percent;
# the module's own accounting (acct_energy_uj) is shown alongside.  Prints
# "identical" per model when the files are byte-identical.
set -eu
ref=$1
new=$2
for m in x86-2pkg phone-biglittle server-64 server-256; do
	a=$ref/$m/results.csv
	b=$new/$m/results.csv
	if cmp -s "$a" "$b"; then
		echo "$m identical"
		continue
	fi
	awk -F, -v model="$m" '
	function pct(x, y) { return x == 0 ? (y == 0 ? 0 : 100) : (y - x) * 100.0 / x }
	FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	NR == FNR { key = $1 "," $2; e[key] = $col["energy_uj"]; p[key] = $col["p99_us"];
		    ms[key] = $col["makespan_us"]; ac[key] = $col["acct_energy_uj"]; next }
	{
		key = $1 "," $2
		if (!(key in e)) { printf "%s %s %s: new row\n", model, $1, $2; next }
		if (e[key] == $col["energy_uj"] && p[key] == $col["p99_us"] &&
		    ms[key] == $col["makespan_us"] && ac[key] == $col["acct_energy_uj"])
			next
		printf "%s %-10s %-14s energy %s -> %s (%+.2f%%)  p99 %s -> %s  makespan %s -> %s (%+.3f%%)  acct %s -> %s (%+.2f%%)\n",
		       model, $1, $2, e[key], $col["energy_uj"], pct(e[key], $col["energy_uj"]),
		       p[key], $col["p99_us"], ms[key], $col["makespan_us"],
		       pct(ms[key], $col["makespan_us"]), ac[key], $col["acct_energy_uj"],
		       pct(ac[key], $col["acct_energy_uj"])
	}' "$a" "$b"
done
