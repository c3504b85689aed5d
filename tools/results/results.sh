#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# results.sh - regenerate Documentation/results.md: the simulator's tables
# for every model, the VM power benchmark and the sim-vs-VM comparison.
#
#   tools/results/results.sh [OUT.md]        (make results)
#
# Environment: SIM (the sp_sim binary, default build/tools/sim/sp_sim),
# BUILD (default build), PB_CSV (the power benchmark's CSV: default
# $BUILD/power-bench/results.csv if \`make vm-power-bench\` wrote one, else
# the copy \`make results-data\` saved in Documentation/data/), PB_A64_CSV
# (the same for the arm64 board: $BUILD/power-bench-arm64/results.csv from
# \`make arm64-power-bench\`, else Documentation/data/power-bench-arm64.csv),
# PB_A64C_CSV (the arm64 board's CFS run of the busy stories, cfs,
# observe_freq and power_freq: $BUILD/power-bench-arm64-cfs/results.csv,
# else Documentation/data/power-bench-arm64-cfs.csv),
# PB_X86F_CSV (the x86 guest under the test cpufreq driver, cfs against
# sched_power's modes: $BUILD/power-bench-x86-freq/results.csv, else
# Documentation/data/power-bench-x86-freq.csv), OVH_CSV (make
# vm-overhead's table: $BUILD/overhead/results.csv, else
# Documentation/data/overhead.csv), OVH_MIX (its decision mix: mix.csv beside
# it, else Documentation/data/overhead-mix.csv), RESULTS_PLOTS
# (a script run as "RESULTS_PLOTS OUT_DIR" to make the PNGs; default
# tools/results/plots.sh).  Sections whose input is missing say "not run".
set -euo pipefail

out=${1:-Documentation/results.md}
BUILD=${BUILD:-build}
SIM=${SIM:-$BUILD/tools/sim/sp_sim}
if [ -z "${PB_CSV:-}" ]; then
	PB_CSV=$BUILD/power-bench/results.csv
	[ -s "$PB_CSV" ] || PB_CSV=Documentation/data/power-bench.csv
fi
if [ -z "${PB_A64_CSV:-}" ]; then
	PB_A64_CSV=$BUILD/power-bench-arm64/results.csv
	[ -s "$PB_A64_CSV" ] || PB_A64_CSV=Documentation/data/power-bench-arm64.csv
fi
if [ -z "${PB_A64C_CSV:-}" ]; then
	PB_A64C_CSV=$BUILD/power-bench-arm64-cfs/results.csv
	[ -s "$PB_A64C_CSV" ] || PB_A64C_CSV=Documentation/data/power-bench-arm64-cfs.csv
fi
if [ -z "${PB_X86F_CSV:-}" ]; then
	PB_X86F_CSV=$BUILD/power-bench-x86-freq/results.csv
	[ -s "$PB_X86F_CSV" ] || PB_X86F_CSV=Documentation/data/power-bench-x86-freq.csv
fi
if [ -z "${OVH_CSV:-}" ]; then
	OVH_CSV=$BUILD/overhead/results.csv
	[ -s "$OVH_CSV" ] || OVH_CSV=Documentation/data/overhead.csv
fi
if [ -z "${OVH_MIX:-}" ]; then	# the decisions of the run OVH_CSV comes from
	case $OVH_CSV in
	"$BUILD"/overhead/results.csv) OVH_MIX=$BUILD/overhead/mix.csv ;;
	*) OVH_MIX=Documentation/data/overhead-mix.csv ;;
	esac
fi
RESULTS_PLOTS=${RESULTS_PLOTS:-tools/results/plots.sh}
STORYGEN=${STORYGEN:-$BUILD/tools/sim/sp_storygen}
HELDOUT_SEEDS=${HELDOUT_SEEDS:-1 2}
models="x86-2pkg phone-biglittle server-64 server-256"
stories=$(ls tools/sim/stories/*.json | sort)
work=$BUILD/results
mkdir -p "$work"

[ -x "$SIM" ] || { echo "results.sh: $SIM not built (run make results)" >&2; exit 1; }

# md_tables CSV KIND: story x policy table of one column of sp_sim's CSV
md_table() {
	awk -F, -v col="$2" -v scale="$3" -v fmt="$4" '
	NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	{
		s = $h["story"]; p = $h["policy"]
		if (!(s in seen)) { seen[s] = 1; so[++ns] = s }
		if (!(p in pseen)) { pseen[p] = 1; po[++np] = p }
		v[s, p] = $h[col]
	}
	END {
		printf "| story |"; for (j = 1; j <= np; j++) printf " %s |", po[j]; print ""
		printf "|---|"; for (j = 1; j <= np; j++) printf "---:|"; print ""
		for (i = 1; i <= ns; i++) {
			printf "| %s |", so[i]
			for (j = 1; j <= np; j++) {
				x = v[so[i], po[j]]
				if (x == "" || (col == "p99_us" && po[j] == "lower-bound"))
					printf " - |"
				else
					printf " " fmt " |", x / scale
			}
			print ""
		}
	}' "$1"
}

# ratio_table CSV POLICY: POLICY's energy, p99 and makespan over each baseline
ratio_table() {
	awk -F, -v pol="$2" '
	NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	{
		s = $h["story"]; p = $h["policy"]
		if (!(s in seen)) { seen[s] = 1; so[++ns] = s }
		e[s, p] = $h["energy_uj"]; l[s, p] = $h["p99_us"]; m[s, p] = $h["makespan_us"]
	}
	function r(a, b) {
		if (a == "" || b == "") return "-"
		if (b + 0 == 0) return a + 0 == 0 ? "1.000" : "inf"
		return sprintf("%.3f", a / b)
	}
	END {
		nb = split("cfs spread pack eas oracle oracle-lat lower-bound", base, " ")
		printf "| story |"
		for (j = 1; j <= nb; j++) printf " E/%s |", base[j]
		for (j = 1; j <= nb - 1; j++) printf " p99/%s |", base[j]
		for (j = 1; j <= nb - 1; j++) printf " mk/%s |", base[j]
		print ""
		printf "|---|"; for (j = 1; j <= 3 * nb - 2; j++) printf "---:|"; print ""
		for (i = 1; i <= ns; i++) {
			s = so[i]
			if (!((s, pol) in e)) continue
			printf "| %s |", s
			for (j = 1; j <= nb; j++) printf " %s |", r(e[s, pol], e[s, base[j]])
			for (j = 1; j <= nb - 1; j++) printf " %s |", r(l[s, pol], l[s, base[j]])
			for (j = 1; j <= nb - 1; j++) printf " %s |", r(m[s, pol], m[s, base[j]])
			print ""
		}
	}' "$1"
}

# target_table CSV CPUS: issue 19's targets per story for power mode with
# its default knobs (sp-power), power without the OPP floor and balanced.
# A story is light when its work (the CSV's work_us, at full capacity)
# fills less than half of CPUS x cfs's makespan.  Every story: p99 at most
# 1.1 x cfs, makespan at most 1.02 x cfs, energy at most cfs's.  Light ones
# also: energy at most 0.90 x cfs, unless the lower bound is above that (then
# at most 1.05 x oracle-lat's, or the bound's without an oracle-lat), and at
# most 1.01 x every baseline (cfs, spread, pack, eas) whose p99 is within
# 1.1 x cfs's.  "met" or the first target missed, with its ratio.
target_table() {
	awk -F, -v ncpu="$2" '
	NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	{
		s = $h["story"]; p = $h["policy"]
		if (!(s in seen)) { seen[s] = 1; so[++ns] = s }
		e[s, p] = $h["energy_uj"]; l[s, p] = $h["p99_us"]; m[s, p] = $h["makespan_us"]
		w[s, p] = $h["work_us"]
	}
	function r(a, b) { return (a == "" || b == "" || b + 0 == 0) ? -1 : a / b }
	function f3(x) { return x < 0 ? "-" : sprintf("%.3f", x) }
	function verdict(s, p,   c, ec, x, bd, ref, nb, b, bl) {
		c = "cfs"; ec = e[s, c]
		if ((x = r(l[s, p], l[s, c])) > 1.1) return sprintf("p99 %.2f", x)
		if ((x = r(m[s, p], m[s, c])) > 1.02) return sprintf("makespan %.3f", x)
		if ((x = r(e[s, p], ec)) > 1.0) return sprintf("E/cfs %.3f", x)
		if (!light[s]) return "met"
		bd = e[s, "lower-bound"]
		if (bd == "" || bd + 0 < 0.9 * ec) {
			if ((x = r(e[s, p], ec)) > 0.90) return sprintf("E/cfs %.3f > 0.90", x)
		} else {
			ref = e[s, "oracle-lat"] != "" ? "oracle-lat" : "lower-bound"
			if ((x = r(e[s, p], e[s, ref])) > 1.05) return sprintf("E/%s %.3f > 1.05", ref, x)
		}
		nb = split("cfs spread pack eas", bl, " ")
		for (b = 1; b <= nb; b++)
			if (r(l[s, bl[b]], l[s, c]) <= 1.1 && (x = r(e[s, p], e[s, bl[b]])) > 1.01)
				return sprintf("E/%s %.3f > 1.01", bl[b], x)
		return "met"
	}
	END {
		print "| story | machine util | policy | E / cfs | E / oracle-lat | E / bound | p99 / cfs | makespan / cfs | issue 19 targets |"
		print "|---|---|---|---|---|---|---|---|---|"
		np = split("sp-power sp-power-nofloor sp-balanced", pol, " ")
		for (i = 1; i <= ns; i++) {
			s = so[i]
			u = r(w[s, "cfs"], ncpu * m[s, "cfs"])
			light[s] = u >= 0 && u < 0.5
			for (j = 1; j <= np; j++) {
				p = pol[j]
				if (!((s, p) in e)) continue
				v = verdict(s, p)
				printf "| %s | %.2f %s | %s | %s | %s | %s | %s | %s | %s |\n", s, u,
					light[s] ? "light" : "heavy", p, f3(r(e[s, p], e[s, "cfs"])),
					f3(r(e[s, p], e[s, "oracle-lat"])), f3(r(e[s, p], e[s, "lower-bound"])),
					f3(r(l[s, p], l[s, "cfs"])), f3(r(m[s, p], m[s, "cfs"])),
					v == "met" ? "met" : "**missed: " v "**"
				met[p] += v == "met"; tot[p]++
			}
		}
		print ""
		for (j = 1; j <= np; j++)
			printf "%s: %d of %d stories meet every target.  \n", pol[j], met[pol[j]], tot[pol[j]]
	}' "$1"
}

# olat_table CSV: every policy's energy over oracle-lat's, per story ("-"
# where oracle-lat does not apply or no static schedule meets its bounds)
olat_table() {
	awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	{
		s = $h["story"]; p = $h["policy"]
		if (!(s in seen)) { seen[s] = 1; so[++ns] = s }
		if (p != "lower-bound" && p != "oracle-lat" && !(p in pseen)) { pseen[p] = 1; po[++np] = p }
		e[s, p] = $h["energy_uj"]
	}
	END {
		printf "| story |"; for (j = 1; j <= np; j++) printf " %s |", po[j]; print ""
		printf "|---|"; for (j = 1; j <= np; j++) printf "---:|"; print ""
		for (i = 1; i <= ns; i++) {
			s = so[i]; b = e[s, "oracle-lat"]
			printf "| %s |", s
			for (j = 1; j <= np; j++) {
				a = e[s, po[j]]
				printf " %s |", a == "" || b == "" || b + 0 == 0 ? "-" : sprintf("%.3f", a / b)
			}
			print ""
		}
	}' "$1"
}

# metrics_table CSV: the four validation metrics per story x policy
metrics_table() {
	awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
	$h["policy"] == "lower-bound" || $h["plan"] == "n/a" || $h["plan"] == "none" { next }
	{
		if (!hdr++) {
			print "| story | policy | prev_pkg | migr/s | all pkgs awake | acct mJ | balancer moves | ilb kicks |"
			print "|---|---|---:|---:|---:|---:|---:|---:|"
		}
		printf "| %s | %s | %.3f | %.2f | %.3f | %.3f | %s | %s |\n", $h["story"],
			$h["policy"], $h["prev_pkg_share"], $h["migr_per_s"],
			$h["all_pkgs_awake_share"], $h["acct_energy_uj"] / 1000,
			$h["lb_pulled"], $h["ilb_kicks"]
	}' "$1"
}

# seed_table MODEL: sp-power against cfs over the simulator's newidle dice
# (6.1.192's NI_RANDOM, sp_sim --seed 1..SEEDS): per story the range of
# each ratio and the seeds on which the three targets every story has
# (p99 <= 1.1 x cfs, makespan <= 1.02 x, energy <= 1.00 x) all hold.
seed_table() {
	local m=$1 n=${SEEDS:-8} i
	for i in $(seq 1 "$n"); do
		"$SIM" -m "models/$m.model" -p cfs,sp-power --seed "$i" \
			--csv "$work/$m-seed$i.csv" $stories >/dev/null
	done
	for i in $(seq 1 "$n"); do cat "$work/$m-seed$i.csv"; done | awk -F, -v n="$n" '
	$1 == "story" || $0 ~ /^story,/ { for (i = 1; i <= NF; i++) h[$i] = i; seed++; next }
	{ k = seed SUBSEP $h["story"]
	  if (!($h["story"] in st)) { st[$h["story"]] = 1; names[++ns] = $h["story"] }
	  e[k, $h["policy"]] = $h["energy_uj"]; l[k, $h["policy"]] = $h["p99_us"]
	  mk[k, $h["policy"]] = $h["makespan_us"] }
	function lo(a, b) { return a < b ? a : b }
	function hi(a, b) { return a > b ? a : b }
	END {
		print "| story | E / cfs | p99 / cfs | makespan / cfs | seeds meeting p99, makespan and E <= 1.00 |"
		print "|---|---:|---:|---:|---:|"
		for (j = 1; j <= ns; j++) {
			s = names[j]; ok = 0
			for (i = 1; i <= seed; i++) {
				k = i SUBSEP s
				re = e[k, "sp-power"] / e[k, "cfs"]
				rl = l[k, "cfs"] > 0 ? l[k, "sp-power"] / l[k, "cfs"] : 1
				rm = mk[k, "sp-power"] / mk[k, "cfs"]
				if (i == 1) { e0 = e1 = re; l0 = l1 = rl; m0 = m1 = rm }
				e0 = lo(e0, re); e1 = hi(e1, re); l0 = lo(l0, rl); l1 = hi(l1, rl)
				m0 = lo(m0, rm); m1 = hi(m1, rm)
				ok += rl <= 1.1 && rm <= 1.02 && re <= 1.0
			}
			printf "| %s | %.3f-%.3f | %.3f-%.3f | %.3f-%.3f | %d of %d |\n",
				s, e0, e1, l0, l1, m0, m1, ok, seed
		}
	}'
}

# csv_md CSV: any CSV as a markdown table
csv_md() {
	awk -F, 'NR == 1 { printf "|"; for (i = 1; i <= NF; i++) printf " %s |", $i; print "";
			  printf "|"; for (i = 1; i <= NF; i++) printf "---|"; print ""; next }
		 { printf "|"; for (i = 1; i <= NF; i++) printf " %s |", $i; print "" }' "$1"
}

# pb_where CSV: "KERNEL, MACHINE, DATE" of power-bench's CSV (first row).
pb_where() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		NR == 2 { printf "%s, %s, %s", $h["kernel"], $h["machine"], $h["date"]; exit }' "$1"
}

# pb_table CSV PAIRS PKG: power-bench's ratios with intervals, one row per
# story and "config/reference" of PAIRS (space-separated; empty: every
# configuration against each reference).  PKG names the packages: cluster
# (the big.LITTLE board: package 0 is the big cluster, 1 the LITTLE one,
# each with its own awake share) or package (the mean awake share).
pb_table() {
	awk -F, -v pairs="$2" -v pkg="$3" '
	NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i
		n = split(pairs, pl, " "); for (i = 1; i <= n; i++) want[pl[i]] = 1
		if (pkg == "cluster") {
			nc = split("pkg_wakeups_per_s pkg0_awake_share pkg1_awake_share all_pkgs_awake_share", col, " ")
			hdr = "cluster wake-ups/s | big awake | LITTLE awake | both awake"
		} else {
			nc = split("pkg_wakeups_per_s pkg_awake_share all_pkgs_awake_share", col, " ")
			hdr = "package wake-ups/s | package awake | both awake"
		}
		printf "| story | config / reference | pairs | energy (src) | energy at the stretch bound | busy energy | %s | migrations between %ss/s | wake-up p50 | wake-up p99 |\n", hdr, pkg
		printf "|---|---|---:|---|---|---|"; for (i = 1; i <= nc + 3; i++) printf "---|"; print ""; next }
	# an interval end that excludes 1 but rounds to 1.000 gets the digits
	# that show on which side of 1 it lies
	function iend(x, v,    t) {
		t = sprintf("%.3f", x)
		return t == "1.000" && v != "cannot tell" && x + 0 != 1 ? sprintf("%.5f", x) : t
	}
	function cell(m,    r, v) {
		r = $h[m "_ratio"]; v = $h[m "_verdict"]
		if (r == "-" || r == "") return "-"
		return sprintf("%.3f [%s, %s] %s", r, iend($h[m "_lo"], v), iend($h[m "_hi"], v), v == "cannot tell" ? "**cannot tell**" : v)
	}
	$h["config"] != $h["reference"] && (!n || ($h["config"] "/" $h["reference"]) in want) {
		e = $h["energy_src"] == "est" || $h["energy_ratio"] == "-" ? "energy_est" : "energy"
		printf "| %s | %s / %s | %s | %s (%s) | %s | %s |", $h["story"], $h["config"], $h["reference"],
			$h["energy_est_pairs"], cell(e), e == "energy" ? $h["energy_src"] : "est", cell("energy_est_max"),
			cell("energy_est_busy")
		for (i = 1; i <= nc; i++) printf " %s |", cell(col[i])
		printf " %s | %s | %s |\n", cell("xpkg_migrations_per_s"), cell("lat_p50"), cell("lat_p99")
	}' "$1"
}

# pb_medians CSV PKG: power-bench's medians, one row per story and
# configuration (the first reference's rows: each appears once per
# reference); PKG as for pb_table.
pb_medians() {
	awk -F, -v pkg="$2" '
	NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i
		a = pkg == "cluster" ? "big awake | LITTLE awake" : "package 0 awake | package 1 awake"
		b = pkg == "cluster" ? "story on big" : "story on package 0"
		printf "| story | config | reps ok/run | EAS | cpufreq | est. energy mJ | at the stretch bound | busy mJ | %s | %s wake-ups/s | %s | all awake | xpkg migr./s | p50 us | p99 us | overrides | failed |\n", b, pkg, a
		print "|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"; next }
	NR == 2 { first = $h["reference"] }
	function f(k, d) { return $h[k] == "-" || $h[k] == "" ? "-" : sprintf("%." d "f", $h[k]) }
	function mj(k) { return $h[k] == "-" || $h[k] == "" ? "-" : sprintf("%.1f", $h[k] / 1000) }
	$h["reference"] == first {
		printf "| %s | %s | %s/%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			$h["story"], $h["config"], $h["reps_ok"], $h["reps_run"], $h["eas"], $h["cpufreq"],
			mj("est_uj"), mj("est_max_uj"), mj("est_busy_uj"), f("pkg0_run_share", 3), f("pkg_wakeups_per_s", 1), f("pkg0_awake_share", 3),
			f("pkg1_awake_share", 3), f("all_pkgs_awake_share", 4), f("xpkg_migrations_per_s", 2),
			f("lat_p50_us", 0), f("lat_p99_us", 0), f("overrides", 0), $h["failed"]
	}' "$1"
}

# pb_verdicts CSV REF CONFIGS: per story and configuration of CONFIGS
# against REF, the energy verdict (only where the estimate and its stretch
# bound agree) and the counts whose interval excludes 1, as "lower" and
# "higher" lists; the rest cannot tell.
pb_verdicts() {
	awk -F, -v ref="$2" -v cfgs="$3" '
	NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i
		nm = split("energy_est_busy:busy_energy pkg_wakeups_per_s:wake-ups/s pkg0_awake_share:pkg0_awake pkg1_awake_share:pkg1_awake all_pkgs_awake_share:all_awake xpkg_migrations_per_s:migrations lat_p50:p50 lat_p99:p99", ml, " ")
		nc = split(cfgs, cl, " "); for (i = 1; i <= nc; i++) want[cl[i]] = 1; next }
	function rv(m) { return sprintf("%.2f %s", $h[m "_ratio"], $h[m "_verdict"]) }
	$h["reference"] == ref && ($h["config"] in want) {
		lo = ""; hi = ""
		for (k = 1; k <= nm; k++) {
			split(ml[k], kv, ":"); m = kv[1]
			v = $h[m "_verdict"]; r = sprintf("%s %.2f", kv[2], $h[m "_ratio"])
			if (v == "lower") lo = lo (lo == "" ? "" : ", ") r
			else if (v == "higher") hi = hi (hi == "" ? "" : ", ") r
		}
		e = $h["energy_est_verdict"]
		if (e != $h["energy_est_max_verdict"] || (e != "lower" && e != "higher")) e = "cannot tell"
		printf "- %s, %s / %s: energy %s (estimate %s, stretch bound %s); lower: %s; higher: %s.\n",
			$h["story"], $h["config"], ref, e, rv("energy_est"), rv("energy_est_max"),
			lo == "" ? "none" : lo, hi == "" ? "none" : hi
	}' "$1"
}

# pb_new CSV: does CSV come from the power-bench with intervals and the
# cpufreq configurations?
pb_new() {
	[ -s "$1" ] && head -n 1 "$1" | grep -q ',eas,' && head -n 1 "$1" | grep -q ',energy_est_max_ratio,'
}

# compare SIM_CSV MAP PB_CSV...: the four metrics, sim next to the VM, per
# story and configuration; MAP pairs each VM configuration with its
# simulator policy ("observe:cfs power:sp-power"), configurations not in it
# are left out.  Shares agree within 20 % or 0.05 (near 0 a relative
# test means nothing); migrations are compared as counts over the story,
# since TCG stretches the VM's wall time (build takes 3x its nominal
# length) and per-second rates with it; the energy is shown, not judged:
# the two differ by construction (Documentation/simulator.rst says how).
compare() {
	local sim=$1 map=$2
	shift 2
	awk -F, -v map="$map" '
	BEGIN { nml = split(map, ml, " "); for (i = 1; i <= nml; i++) { split(ml[i], kv, ":"); pm[kv[1]] = kv[2] } }
	FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
	function get(f, name,   i) { i = col[f, name]; return i ? $i : "" }
	function off(a, b) { return b != "" && (a - b > 0.2 * b || b - a > 0.2 * b) }
	function offs(a, b) { return off(a, b) && (a - b > 0.05 || b - a > 0.05) }
	function offn(a, b) { return off(a, b) && (a - b > 3 || b - a > 3) }
	function first(a, b) { return a != "" && a != "-" ? a : b }
	FILENAME == ARGV[1] {
		p = get(FILENAME, "policy")
		k = get(FILENAME, "story") SUBSEP p
		sp[k] = get(FILENAME, "prev_pkg_share"); sm[k] = get(FILENAME, "migrations")
		sa[k] = get(FILENAME, "all_pkgs_awake_share"); se[k] = get(FILENAME, "acct_energy_uj")
		next
	}
	{
		c = get(FILENAME, "config"); if (c == "") c = get(FILENAME, "mode")
		p = (c in pm) ? pm[c] : ""
		s = get(FILENAME, "story"); k = s SUBSEP c
		if (p == "" || !((s SUBSEP p) in sp)) next
		if (!(k in n)) { order[++nk] = k; cfg[k] = c; st[k] = s; pol[k] = p }
		n[k]++
		vp[k] += get(FILENAME, "prev_pkg_share")
		vm[k] += get(FILENAME, "migrations")
		va[k] += first(get(FILENAME, "both_pkgs_awake_share"), get(FILENAME, "all_pkgs_awake_share"))
		ve[k] += first(get(FILENAME, "model_uj"), get(FILENAME, "energy_uj"))
	}
	END {
		if (!nk) {
			print "not run: no VM CSV has rows with story, config (" map ") and the metric columns"
			exit
		}
		print "| story | VM config | sim policy | prev_pkg sim / VM | migrations sim / VM | all pkgs awake sim / VM | energy mJ sim / VM | behaviour agrees |"
		print "|---|---|---|---:|---:|---:|---:|---|"
		for (i = 1; i <= nk; i++) {
			k = order[i]; r = n[k]; q = st[k] SUBSEP pol[k]
			p1 = vp[k] / r; m1 = vm[k] / r; a1 = va[k] / r; e1 = ve[k] / r
			w = ""
			if (offs(sp[q], p1)) w = w " prev_pkg"
			if (offn(sm[q], m1)) w = w " migrations"
			if (offs(sa[q], a1)) w = w " awake"
			printf "| %s | %s | %s | %.3f / %.3f | %d / %d | %.3f / %.3f | %.1f / %.1f | %s |\n",
				st[k], cfg[k], pol[k], sp[q], p1, sm[q], m1, sa[q], a1,
				se[q] / 1000, e1 / 1000, w == "" ? "yes" : "no:" w
		}
	}' "$sim" "$@"
}

# splice_rst RST TABLE SOURCE [NAME]: put TABLE, as a literal block naming
# SOURCE, between RST's ".. BEGIN NAME" and ".. END NAME" lines (NAME
# default sim-vs-vm)
splice_rst() {
	awk -v tbl="$2" -v src="$3" -v name="${4:-sim-vs-vm}" '
	$0 ~ ("^\\.\\. BEGIN " name "( |$)") {
		print; print ""; print "From ``" src "`` (``make results``)::"; print ""
		while ((getline l < tbl) > 0) print "    " l
		print ""; skip = 1; next
	}
	$0 ~ ("^\\.\\. END " name "( |$)") { skip = 0 }
	!skip' "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}

cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
{
	echo "# sched_power results"
	echo
	echo "Generated by \`make results\` (tools/results/results.sh); edit the script, not this file."
	echo
	echo "- date: $(date -u +%Y-%m-%dT%H:%MZ)"
	echo "- machine: $(uname -m), ${cpu_model:-unknown CPU}, $(nproc) CPUs"
	echo "- host kernel: $(uname -r) (the simulator does not depend on it)"
	echo "- commit: $(git describe --always --dirty 2>/dev/null || echo unknown)"
	echo
	echo "## Simulator"
	echo
	echo "\`sp_sim -m models/MODEL.model --metrics tools/sim/stories/*.json\` for each model"
	echo "(Documentation/simulator.rst describes the engine, the policies, the oracle and the"
	echo "bound).  The numbers are the simulator's model of hardware and of Linux 6.1, not"
	echo "measurements.  \"oracle\" is the best static schedule found (n/a beyond 8 CPUs, 8"
	echo "task instances or 8192 pinnings up to symmetry: the server models); \"oracle-lat\" the"
	echo "best static schedule found whose p99 wake-up latency is at"
	echo "most 1.1 x cfs's and makespan at most 1.02 x cfs's (\"none\": no static schedule meets"
	echo "them); \"oracle-lat-su\" the same search with every pd under schedutil, the best static"
	echo "placement at the OPPs cfs's governor picks; \"lower-bound\" a floor below every"
	echo "schedule.  The sp-* policies sched_power"
	echo "acts in run with the balancer gated between packages (balance_gate=1, core/sp_gate.c)."
	for m in $models; do
		csv=$work/$m.csv
		"$SIM" -m "models/$m.model" --metrics --csv "$csv" $stories >/dev/null
		echo
		echo "### $m"
		echo
		echo "Energy, mJ:"
		echo
		md_table "$csv" energy_uj 1000 "%.1f"
		echo
		echo "p99 wake-up latency, us:"
		echo
		md_table "$csv" p99_us 1 "%.1f"
		echo
		echo "Makespan, ms:"
		echo
		md_table "$csv" makespan_us 1000 "%.1f"
		echo
		echo "Issue 19's targets (tools/results/results.sh, target_table): every story p99 at"
		echo "most 1.1 x cfs, makespan at most 1.02 x cfs, energy at most cfs's; a light story"
		echo "(its work under half of the CPUs over cfs's makespan) also energy at most 0.90 x"
		echo "cfs (or 1.05 x oracle-lat's, else the bound's, where the bound is above 0.90 x"
		echo "cfs) and at most 1.01 x every baseline whose p99 is within 1.1 x cfs's.  The aim"
		echo "for E / oracle-lat is 1.15.  sp-power is power mode with its default knobs"
		echo "(opp_floor=1, balance_gate=1); sp-power-nofloor with opp_floor=0:"
		echo
		target_table "$csv" "$(sed -n 's/^sched_power_model .*cpus=\([0-9]*\).*/\1/p' "models/$m.model")"
		for p in sp-power sp-power-nofloor sp-balanced; do
			echo
			echo "$p as a ratio to each baseline (below 1: $p uses less):"
			echo
			ratio_table "$csv" "$p"
		done
		echo
		echo "Every policy's energy over oracle-lat's (below 1: less than the best static"
		echo "schedule within cfs's latency and makespan; \"-\": no oracle-lat):"
		echo
		olat_table "$csv"
		echo
		echo "Validation metrics (Documentation/simulator.rst):"
		echo
		metrics_table "$csv"
		echo
		echo "sp-power against cfs over seeds 1-${SEEDS:-8} of the simulator's newidle dice"
		echo "(6.1.192's NI_RANDOM: \`sp_sim --seed N\`; the tables above use the default"
		echo "seed): the range of each ratio, and on how many seeds the targets every story"
		echo "has hold (p99 at most 1.1 x cfs, makespan at most 1.02 x, energy at most 1.00 x):"
		echo
		seed_table "$m"
	done
	echo
	echo "## VM power benchmark (tools/power-bench)"
	echo
	echo "Real rt-app stories in the qemu guests, interleaved repetitions (Documentation/power-bench.rst)."
	echo "Under TCG the times and latencies are the emulator's.  Each ratio cell is the ratio to"
	echo "the reference configuration (the sum over the paired repetitions over the reference's"
	echo "sum) with its bootstrap 95 % interval, and a verdict (lower, higher) only where the"
	echo "interval excludes 1, else **cannot tell**.  Energy is the estimator's (src est, no meter"
	echo "under TCG): sp-report's replay of each recording through the module's accounting with"
	echo "the run's model, the same for every configuration: busy time charged per unit of work"
	echo "at the OPP in force at the Energy Model's cost (power x 1024 / capacity), idle at the"
	echo "state's power, CPU and package wake-ups at their energy, each package's shared power"
	echo "while awake.  \"At the stretch bound\": the estimate plus what hardware can add at most"
	echo "because TCG runs a LITTLE CPU and a low OPP as fast as capacity 1024 (the groups above a"
	echo "busy CPU stay awake d x (1024 - cap) / cap longer; sp-report's est_max_uj); energy on"
	echo "hardware lies between the two, so an energy verdict holds only where both columns agree."
	echo "Configurations: not_loaded/observe/power/balanced without a cpufreq"
	echo "driver; under the test driver (selftests/testfreq): cfs (no module,"
	echo "kernel.sched_energy_aware=0), eas (no module, mainline EAS on: the EAS column is what"
	echo "dmesg said before the run), eas_observe, and MODE_freq (sched_power in MODE, EAS off)."
	echo
	echo "### arm64 big.LITTLE board: sched_power next to mainline EAS"
	echo
	echo "<!-- power-bench arm64: $PB_A64_CSV -->"
	if pb_new "$PB_A64_CSV"; then
		echo "From \`$PB_A64_CSV\` (\`make arm64-power-bench\`; $(pb_where "$PB_A64_CSV")): the"
		echo "qemu virt board with 2 big CPUs (capacity 1024) and 4 LITTLE (410) as two clusters,"
		echo "PSCI idle states, sp_testfreq with its Energy Model (4 OPPs per cluster), schedutil."
		echo "The packages of the counts are the clusters.  Medians:"
		echo
		pb_medians "$PB_A64_CSV" cluster
		echo
		echo "Ratios to eas (mainline find_energy_efficient_cpu()), est = the estimator:"
		echo
		pb_table "$PB_A64_CSV" "cfs/eas eas_observe/eas observe_freq/eas power_freq/eas balanced_freq/eas" cluster
		echo
		echo "Ratios to cfs (the same kernel and driver with EAS off):"
		echo
		pb_table "$PB_A64_CSV" "eas/cfs observe_freq/cfs power_freq/cfs balanced_freq/cfs" cluster
		echo
		echo
		echo "What the overrides change, the hook's cost aside: power_freq and balanced_freq against"
		echo "observe_freq (the same module and hook, deciding without overriding):"
		echo
		pb_table "$PB_A64_CSV" "power_freq/observe_freq balanced_freq/observe_freq" cluster
		echo
		echo "Where sched_power beats mainline EAS and where it loses, from the intervals above (the"
		echo "ratio where its 95 % interval excludes 1; pkg0 is the big cluster, pkg1 the LITTLE one;"
		echo "every other metric: cannot tell; Documentation/power-bench.rst explains the"
		echo "mechanisms).  eas_observe / eas is what observing costs under TCG (the hook and its trace"
		echo "event next to EAS), which power_freq and balanced_freq pay too:"
		echo
		pb_verdicts "$PB_A64_CSV" eas "eas_observe power_freq balanced_freq"
		pb_verdicts "$PB_A64_CSV" observe_freq "power_freq balanced_freq"
	else
		echo "not run: $PB_A64_CSV is missing (make arm64-power-bench, then make results-data)."
	fi
	echo
	echo "### arm64 big.LITTLE board: CFS on the busy stories"
	echo
	echo "<!-- power-bench arm64 cfs: $PB_A64C_CSV -->"
	if [ -s "$PB_A64C_CSV" ] && head -n 1 "$PB_A64C_CSV" | grep -q ',energy_est_max_ratio,'; then
		echo "From \`$PB_A64C_CSV\` (\`make arm64-power-bench PB_STORIES=\"...build.json"
		echo "...mixed.json ...throughput.json\" PB_ARGS=\"-c cfs,observe_freq,power_freq --ref"
		echo "cfs,observe_freq --out build/power-bench-arm64-cfs\"\`; $(pb_where "$PB_A64C_CSV")):"
		echo "the board above, EAS off in every configuration: cfs is the kernel with no module,"
		echo "observe_freq sched_power observing, power_freq sched_power in power mode.  Medians:"
		echo
		pb_medians "$PB_A64C_CSV" cluster
		echo
		echo "Ratios to cfs and to observe_freq, est = the estimator:"
		echo
		pb_table "$PB_A64C_CSV" "observe_freq/cfs power_freq/cfs power_freq/observe_freq" cluster
	else
		echo "not run: $PB_A64C_CSV is missing (the make arm64-power-bench above, then make results-data)."
	fi
	echo
	echo "### x86 guest: two packages"
	echo
	echo "<!-- power-bench: $PB_CSV -->"
	if pb_new "$PB_CSV"; then
		echo "From \`$PB_CSV\` (\`make vm-power-bench\`; $(pb_where "$PB_CSV")): 4 vCPUs as 2"
		echo "packages of 2 cores, no cpuidle driver (every idle counted as the deepest state), the"
		echo "model models/x86-2pkg.model; cfs and power_freq under sp_testfreq with em=0 (no Energy"
		echo "Model: EAS cannot start with equal capacities).  Medians:"
		echo
		pb_medians "$PB_CSV" package
		echo
		echo "Ratios to not_loaded, est = the estimator:"
		echo
		pb_table "$PB_CSV" "observe/not_loaded power/not_loaded balanced/not_loaded cfs/not_loaded power_freq/not_loaded" package
		echo
		echo "power_freq to cfs (both under the driver: the OPP floor acts):"
		echo
		pb_table "$PB_CSV" "power_freq/cfs" package
	elif [ -s "$PB_CSV" ]; then
		echo "From \`$PB_CSV\`, an older power-bench CSV without intervals (medians only):"
		echo
		csv_md "$PB_CSV"
	else
		echo "not run: $PB_CSV is missing (make vm-power-bench writes it)."
	fi
	echo
	echo "### x86 guest under the test cpufreq driver: sched_power next to CFS"
	echo
	echo "<!-- power-bench x86 cpufreq: $PB_X86F_CSV -->"
	if [ -s "$PB_X86F_CSV" ] && head -n 1 "$PB_X86F_CSV" | grep -q ',energy_est_max_ratio,'; then
		echo "From \`$PB_X86F_CSV\` (\`make vm-power-bench PB_ARGS=\"-c"
		echo "cfs,observe_freq,power_freq,balanced_freq --ref cfs,observe_freq --out"
		echo "build/power-bench-x86-freq\"\` on the stories named below; $(pb_where "$PB_X86F_CSV")):"
		echo "4 vCPUs as 2 packages of 2 cores under sp_testfreq (em=0: no Energy Model, so EAS"
		echo "cannot start with equal capacities) and schedutil, no cpuidle driver, the model"
		echo "models/x86-2pkg.model; cfs is the kernel with no module, MODE_freq sched_power in"
		echo "MODE with its defaults (power: the OPP floor and the balancer gate on).  Medians:"
		echo
		pb_medians "$PB_X86F_CSV" package
		echo
		echo "Ratios to cfs, est = the estimator:"
		echo
		pb_table "$PB_X86F_CSV" "observe_freq/cfs power_freq/cfs balanced_freq/cfs" package
		echo
		echo "What the overrides change, the hook's cost aside (against observe_freq):"
		echo
		pb_table "$PB_X86F_CSV" "power_freq/observe_freq balanced_freq/observe_freq" package
		echo
		echo "Where sched_power beats CFS and where it loses, from the intervals above (the ratio"
		echo "where its 95 % interval excludes 1; pkg0 and pkg1 are the packages; every other"
		echo "metric: cannot tell):"
		echo
		pb_verdicts "$PB_X86F_CSV" cfs "observe_freq power_freq balanced_freq"
		pb_verdicts "$PB_X86F_CSV" observe_freq "power_freq balanced_freq"
	else
		echo "not run: $PB_X86F_CSV is missing (the make vm-power-bench above, then copy its"
		echo "results.csv and runs.txt to Documentation/data/power-bench-x86-freq.{csv,runs})."
	fi
	echo
	echo "### The yardstick: interval widths per guest setting"
	echo
	yard=$BUILD/pb-yardstick
	ls "$yard"/*.runs >/dev/null 2>&1 || yard=Documentation/data/power-bench-yardstick
	if ls "$yard"/*.runs >/dev/null 2>&1; then
		echo "\`tools/power-bench/pb-widths.sh $yard/*.runs\` (runs of \`make pb-yardstick\`:"
		echo "the yardstick story under each guest setting, interleaved round by round;"
		echo "Documentation/power-bench.rst, \"Choosing the guest\").  Rows with 3 pairs are the"
		echo "first three repetitions only, as the old default of 3 repetitions would have given."
		echo
		tools/power-bench/pb-widths.sh "$yard"/*.runs
	else
		echo "not run: no runs in $yard (make pb-yardstick, then make results-data)."
	fi
	echo
	echo "## Hook overhead (make vm-overhead)"
	echo
	echo "perf bench sched pipe and perf bench sched messaging in the qemu guest, per configuration"
	echo "(Documentation/overhead.rst).  time: median of per-round ratios to not_loaded with a"
	echo "bootstrap 95 % interval, or \"cannot tell\" when the interval reaches beyond +-2 % of the"
	echo "median; insn: a qemu plugin's counts (insns_per_op: every vCPU; srf: instructions per"
	echo "select_task_rq_fair call, entry to return, hook included; hook: srf minus not_loaded's;"
	echo "module insns/op outside: the module's idle and frequency probes; messaging: op = one run)."
	echo
	echo "<!-- overhead: $OVH_CSV -->"
	if [ -s "$OVH_CSV" ]; then
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i
			print "| workload | config | rounds | time ratio [95 % CI] | insn rounds | insns/op | insn ratio | hook calls/op | srf insns/call | hook insns/call | module insns/op outside |"
			print "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"; next }
		{
			v = $h["time_verdict"]
			if (v == "not_run") t = "not run"
			else if (v == "cannot_tell") t = sprintf("cannot tell [%.3f, %.3f]%s", $h["time_ci_lo"], $h["time_ci_hi"],
				$h["time_ci_lo"] > 1.02 ? ", all above 1.02" : $h["time_ci_hi"] < 0.98 ? ", all below 0.98" : "")
			else t = sprintf("%.3f [%.3f, %.3f]", $h["time_ratio"], $h["time_ci_lo"], $h["time_ci_hi"])
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $h["workload"], $h["config"],
				$h["rounds"], t, $h["insn_rounds"], $h["insns_per_op"], $h["insn_ratio"],
				$h["hook_calls_per_op"], $h["srf_insns_per_call"], $h["hook_insns_per_call"],
				$h["mod_other_insns_per_op"]
		}' "$OVH_CSV"
	else
		echo "not run: $OVH_CSV is missing (make vm-overhead writes it)."
	fi
	if [ -s "$OVH_MIX" ]; then
		echo
		echo "The instruction run's decisions: a decision whose CFS, previous or waking CPU is"
		echo "overutilised falls back to CFS before any energy is computed, the others search;"
		echo "TCG's timing sets the share, so hook insns/call compare only at like shares."
		echo
		echo "<!-- overhead mix: $OVH_MIX -->"
		awk -F, 'NR == 1 { print "| config | workload | decisions | overutilised fallbacks | share |"
			print "|---|---|---:|---:|---:|"; next }
		$3 > 0 { printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$OVH_MIX"
	fi
	echo
	echo "## Held-out stories"
	echo
	echo "Issue 19's targets on stories no policy was tuned on: \`sp_storygen\`'s 100 seeded"
	echo "random stories per seed (Documentation/simulator.rst, \"Held-out stories\"), judged by"
	echo "\`tools/sim/heldout/heldout.sh\` on the four models above and the arm64 board's; per"
	echo "target the stories that meet it, with the Wilson 95 % interval of the share; E/cfs"
	echo "and p99/cfs as the geometric mean and the worst; queued and q_awake summed.  The"
	echo "failing stories and their parameters: \`make heldout HELDOUT_SEED=N\`."
	echo
	if [ -x "$STORYGEN" ]; then
		for seed in $HELDOUT_SEEDS; do
			tools/sim/heldout/heldout.sh "$SIM" "$STORYGEN" "$work/heldout-$seed" 100 \
				"$seed" 2 $(printf 'models/%s.model ' $models) \
				models/arm64-biglittle.model >"$work/heldout-$seed.txt"
			echo "### Seed $seed"
			echo
			echo '```'
			awk '/^== /{ p = 1 } /^stories failing/{ p = 0; print "" } p' \
				"$work/heldout-$seed.txt"
			tail -n 1 "$work/heldout-$seed.txt"
			echo '```'
			echo
		done
	else
		echo "not run: $STORYGEN not built (make results builds it)."
		echo
	fi
	echo "## Simulator vs VM (x86-2pkg)"
	echo
	echo "The simulator's cfs, sp-power and sp-balanced next to the VM's observe, power and"
	echo "balanced runs, on the four metrics of Documentation/simulator.rst; the simulator's"
	echo "modelled energy is the module's own accounting with every idle taken as the deepest"
	echo "state (\`sp_sim --acct-deepest\`), as the guest without a cpuidle driver reports it."
	echo
	if [ -s "$PB_CSV" ]; then
		"$SIM" -m models/x86-2pkg.model -p cfs,sp-power,sp-balanced --acct-deepest \
			--csv "$work/x86-2pkg-vm.csv" \
			$stories >/dev/null
		compare "$work/x86-2pkg-vm.csv" "observe:cfs power:sp-power balanced:sp-balanced" \
			"$PB_CSV" | tee "$work/sim-vs-vm.md"
	else
		echo "not run: no power-bench results ($PB_CSV)." | tee "$work/sim-vs-vm.md"
	fi
	splice_rst Documentation/simulator.rst "$work/sim-vs-vm.md" "$PB_CSV"
	echo
	echo "## Simulator vs VM (arm64 big.LITTLE)"
	echo
	echo "The simulator's cfs, sp-power and sp-balanced on models/arm64-biglittle.model (the model"
	echo "the module builds on the arm64 board: 2 big CPUs of capacity 1024, 4 LITTLE of 410) next"
	echo "to the board's runs: cfs and observe_freq (CFS's choices, without the module and with it"
	echo "observing), power_freq and balanced_freq, EAS off in all; the packages are the clusters."
	echo "The same four metrics and test as above; the energy is the module's accounting in the"
	echo "simulator and power-bench's estimator in the VM, shown, not judged."
	echo
	a64=
	for f in "$PB_A64_CSV" "$PB_A64C_CSV"; do [ ! -s "$f" ] || a64="$a64 $f"; done
	if [ -n "$a64" ]; then
		"$SIM" -m models/arm64-biglittle.model -p cfs,sp-power,sp-balanced \
			--csv "$work/arm64-vm.csv" $stories tools/power-bench/yardstick-pair.json >/dev/null
		compare "$work/arm64-vm.csv" \
			"cfs:cfs observe_freq:cfs power_freq:sp-power balanced_freq:sp-balanced" \
			$a64 | tee "$work/sim-vs-vm-arm64.md"
	else
		echo "not run: no arm64 power-bench results ($PB_A64_CSV, $PB_A64C_CSV)." |
			tee "$work/sim-vs-vm-arm64.md"
	fi
	splice_rst Documentation/simulator.rst "$work/sim-vs-vm-arm64.md" "${a64# }" sim-vs-vm-arm64
	echo
	echo "## Plots"
	echo
	if [ -x "$RESULTS_PLOTS" ]; then
		"$RESULTS_PLOTS" Documentation/plots >/dev/null
		echo "Written by \`$RESULTS_PLOTS\` (x86-2pkg, every policy; one style, tools/plot/sp.gp):"
		echo
		for png in Documentation/plots/*.png; do
			echo "- ![${png##*/}](plots/${png##*/})"
		done
		echo
		echo "sp-report's plots of VM recordings (written by \`make report-results\` with the report"
		echo "and the observe/power diff in Documentation/sp-report/):"
		echo
		for png in Documentation/sp-report/*.png; do
			[ -f "$png" ] && echo "- ![${png##*/}](sp-report/${png##*/})"
		done
	else
		echo "not run: no plot script ($RESULTS_PLOTS)."
	fi
} >"$out.tmp"
mv "$out.tmp" "$out"
echo "results.sh: wrote $out"
