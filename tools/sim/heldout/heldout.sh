#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# heldout.sh - make heldout: issue 19's targets on seeded random stories.
#
# Usage: heldout.sh SIM STORYGEN OUTDIR N SEED JOBS MODEL...
#
# Writes N stories of seed SEED (sp_storygen, story_gen.c beside this
# file) into OUTDIR/stories, runs sp_sim on each MODEL with cfs, sp-power,
# sp-balanced, eas, pack and the lower bound (--metrics), JOBS models at a
# time, into OUTDIR/MODEL.{csv,txt}, and prints per model and policy how
# many stories meet each of issue 19's targets:
#
#	p99	p99 wake-up latency at most 1.1 x cfs's
#	mk	makespan at most 1.02 x cfs's
#	E	energy at most cfs's
#	lightE	on a light story, energy at most 0.90 x cfs's; a light story
#		is one whose work (work_us) fills less than half of CPUs x
#		cfs's makespan, results.sh's rule (target_table)
#
# each with the Wilson 95 % interval on the pass share, the geometric mean
# and the worst of energy / cfs and p99 / cfs, and the wake-ups queued
# behind a task (queued) and of those queued while another CPU idled in an
# awake package (q_awake, the --metrics table), summed over the stories.
# Then every story sp-power fails (any of the four targets) or sp-balanced
# fails (p99, makespan or E: balanced mode is not held to lightE), with the
# targets it misses, its file and its generator parameters
# (OUTDIR/stories/index.tsv).
# The last line sums up.  The report is also written to OUTDIR/report.txt.
set -eu

if [ $# -lt 7 ]; then
	echo "usage: heldout.sh SIM STORYGEN OUTDIR N SEED JOBS MODEL..." >&2
	exit 2
fi
sim=$1 gen=$2 out=$3 n=$4 seed=$5 jobs=$6
shift 6

rm -rf "$out"
mkdir -p "$out/stories"
# The stories' budgets follow the models of HELDOUT_GEN_MODELS (default:
# the models run), so that a run on fewer models can replay the same files.
margs=
for m in ${HELDOUT_GEN_MODELS:-"$@"}; do
	margs="$margs -m $m"
done
# shellcheck disable=SC2086 # margs is the list of -m MODEL words
"$gen" -n "$n" -s "$seed" -o "$out/stories" $margs

# One sp_sim per model, JOBS at a time; the story files in index order.
# shellcheck disable=SC2016 # the script is the inner shell's, expanded there
for m in "$@"; do
	echo "$m"
done | xargs -P "$jobs" -I{} sh -c '
	m=$1 out=$2 sim=$3
	b=$(basename "$m" .model)
	"$sim" -m "$m" -p cfs,sp-power,sp-balanced,eas,pack,lower-bound --metrics \
		--csv "$out/$b.csv" --txt "$out/$b.txt" \
		$(awk -v d="$out/stories" "!/^#/ { print d \"/\" \$1 \".json\" }" \
			"$out/stories/index.tsv") >/dev/null || {
		echo "heldout: sp_sim failed on $m" >&2; exit 255; }
' sh {} "$out" "$sim"

report() {
	for m in "$@"; do
		b=$(basename "$m" .model)
		ncpu=$(sed -n 's/^sched_power_model .*cpus=\([0-9]*\).*/\1/p' "$m")
		awk -v model="$b" -v ncpu="$ncpu" -v dir="$out/stories" '
		function r(a, b) { return b > 0 ? a / b : (a > 0 ? 999 : 1) }
		function wilson(k, n,   p, z, c, h) {
			if (!n) return "-"
			z = 1.96; p = k / n
			c = (p + z * z / (2 * n)) / (1 + z * z / n)
			h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
			return sprintf("%d/%d %3.0f%% [%2.0f-%3.0f]", k, n, 100 * p,
				100 * (c - h < 0 ? 0 : c - h), 100 * (c + h > 1 ? 1 : c + h))
		}
		FILENAME ~ /index.tsv$/ {
			if ($0 !~ /^#/) { split($0, f, "\t"); par[f[1]] = f[2] " u=" f[3] " " f[6] }
			next
		}
		FILENAME ~ /\.csv$/ {
			nc = split($0, c, ",")
			if (FNR == 1) { for (i = 1; i <= nc; i++) h[c[i]] = i; next }
			s = c[h["story"]]; p = c[h["policy"]]
			if (!(s in seen)) { seen[s] = 1; so[++ns] = s }
			e[s, p] = c[h["energy_uj"]]; l[s, p] = c[h["p99_us"]]
			mk[s, p] = c[h["makespan_us"]]; w[s, p] = c[h["work_us"]]
			next
		}
		/^validation metrics/ { inm = 1; next }
		inm && $1 == "story" { for (i = 1; i <= NF; i++) mh[$i] = i; next }
		inm && NF > 2 { q[$mh["policy"]] += $mh["queued"]; qa[$mh["policy"]] += $mh["q_awake"] }
		END {
			nl = 0
			for (i = 1; i <= ns; i++) {
				s = so[i]
				light[s] = w[s, "cfs"] < 0.5 * ncpu * mk[s, "cfs"]
				nl += light[s]
			}
			printf "== %s (%d CPUs): %d stories, %d light by the sim rule\n", model, ncpu, ns, nl
			printf "%-12s %-22s %-22s %-22s %-22s %7s %7s %7s %7s %8s %8s\n", "policy",
				"p99<=1.1", "makespan<=1.02", "E<=1.00", "light E<=0.90",
				"E/cfs", "worst", "p99/cfs", "worst", "queued", "q_awake"
			np = split("cfs sp-power sp-balanced eas pack", pol, " ")
			for (j = 1; j <= np; j++) {
				p = pol[j]; kp = km = ke = kl = 0; le = lp = 0; we = wp = 0
				for (i = 1; i <= ns; i++) {
					s = so[i]
					x = r(e[s, p], e[s, "cfs"]); y = r(l[s, p], l[s, "cfs"])
					z = r(mk[s, p], mk[s, "cfs"])
					le += log(x); lp += log(y)
					if (x > we) we = x
					if (y > wp) wp = y
					fl = ""
					if (y <= 1.1) kp++; else fl = fl sprintf(" p99 %.3f", y)
					if (z <= 1.02) km++; else fl = fl sprintf(" makespan %.3f", z)
					if (x <= 1.0) ke++; else fl = fl sprintf(" E %.3f", x)
					all3[p] += fl == ""
					if (light[s]) {
						if (x <= 0.90) kl++
						else if (x <= 1.0 && p == "sp-power") {
							fl = fl sprintf(" lightE %.3f", x)
							if (e[s, "lower-bound"] >= 0.9 * e[s, "cfs"])
								fl = fl " (bound above 0.90)"
						}
					}
					if (fl != "" && (p == "sp-power" || p == "sp-balanced"))
						fail[++nf] = sprintf("  %-11s %-10s %s:%s\n      %s/%s.json %s",
							p, s, light[s] ? "light" : "heavy", fl, dir, s, par[s])
					all4[p] += fl == ""
				}
				if (p == "cfs")
					printf "%-12s %-22s %-22s %-22s %-22s %7s %7s %7s %7s %8d %8d\n", p,
						"-", "-", "-", "-", "-", "-", "-", "-", q[p], qa[p]
				else
					printf "%-12s %-22s %-22s %-22s %-22s %7.3f %7.3f %7.3f %7.3f %8d %8d\n",
						p, wilson(kp, ns), wilson(km, ns), wilson(ke, ns),
						wilson(kl, nl), exp(le / ns), we, exp(lp / ns), wp, q[p], qa[p]
			}
			printf "stories failing a target (sp-power: all four; sp-balanced: p99, makespan, E):%s\n",
				nf ? "" : " none"
			for (i = 1; i <= nf; i++) print fail[i]
			printf "TOTAL %s %d sp-power %d sp-power3 %d sp-balanced %d eas %d pack %d\n", model,
				ns, all4["sp-power"], all3["sp-power"], all3["sp-balanced"], all3["eas"],
				all3["pack"]
			print ""
		}' "$out/stories/index.tsv" "$out/$b.csv" "$out/$b.txt"
	done
}

report "$@" >"$out/report.txt"
grep -v '^TOTAL ' "$out/report.txt"
awk -v seed="$seed" -v n="$n" '
	/^TOTAL / { runs += $3; for (i = 4; i < NF; i += 2) met[$i] += $(i + 1); nm++ }
	END {
		printf "heldout: seed %s, %d stories x %d models, runs meeting p99, makespan and E:", seed,
			n, nm
		printf " sp-power %d/%d (and light E: %d), sp-balanced %d/%d, eas %d/%d, pack %d/%d\n",
			met["sp-power3"], runs, met["sp-power"], met["sp-balanced"], runs, met["eas"],
			runs, met["pack"], runs
	}' "$out/report.txt" | tee -a "$out/report.txt"
