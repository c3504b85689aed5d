# SPDX-License-Identifier: GPL-2.0
#
# pb-report.awk - power-bench's report: "pb-result key=value ..." lines (one
# per run, from pb-run.sh) in; medians over repetitions, ratios, and one of
# the output formats out.  POSIX awk.
#
#   awk -v fmt=table|csv|json|sim [-v kernel=K -v machine=M -v date=D] \
#       -f pb-report.awk RUNS
#
# Per (story, configuration): the lower median over the repetitions whose
# status is ok.  Ratios: makespan, latency, package wake-ups and migrations
# to not_loaded; modelled energy to observe; the headline energy to
# not_loaded when its source is RAPL, else to observe.
# Documentation/power-bench.rst lists the columns.

function kv(    i, k, eq) {
	for (i = 2; i <= NF; i++) {
		eq = index($i, "=")
		if (eq)
			f[substr($i, 1, eq - 1)] = substr($i, eq + 1)
	}
}

function add_key(list, key) {
	if ((list SUBSEP key) in seen_key)
		return
	seen_key[list SUBSEP key] = 1
	n_of[list]++
	item[list, n_of[list]] = key
}

function numeric(v) {
	return v != "" && v != "-" && v ~ /^-?[0-9.]+$/
}

# Lower median of the numeric samples of metric @m in group @g, as it was
# written (no reformatting); "-" if none.
function median(g, m,    n, i, j, v, a, txt, t, tt) {
	n = 0
	for (i = 1; i <= reps_ok[g]; i++) {
		v = sample[g, i, m]
		if (numeric(v)) {
			a[++n] = v + 0
			txt[n] = v
		}
	}
	if (!n)
		return "-"
	for (i = 2; i <= n; i++) {
		t = a[i]
		tt = txt[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--) {
			a[j + 1] = a[j]
			txt[j + 1] = txt[j]
		}
		a[j + 1] = t
		txt[j + 1] = tt
	}
	return txt[int((n + 1) / 2)]
}

# The one value of a text metric (energy_src, tracer, hook) in group @g.
function text_of(g, m,    i, v) {
	for (i = 1; i <= reps_ok[g]; i++) {
		v = sample[g, i, m]
		if (v != "" && v != "-")
			return v
	}
	return "-"
}

function ratio(a, b) {
	return numeric(a) && numeric(b) && b + 0 > 0 ? sprintf("%.3f", a / b) : "-"
}

function fmt_num(v, digits) {
	return numeric(v) ? sprintf("%." digits "f", v) : "-"
}

# @v / 1000 with one decimal (us -> ms, uJ -> mJ), or "-".
function milli(v) {
	return numeric(v) ? sprintf("%.1f", v / 1000) : "-"
}

/^pb-result / {
	delete f
	kv()
	s = f["story"]
	c = f["config"]
	g = s SUBSEP c
	add_key("story", s)
	add_key("config", c)
	reps_all[g]++
	if (f["status"] != "ok") {
		failed[g] = failed[g] " " f["rep"] ":" f["status"]
		next
	}
	reps_ok[g]++
	for (k in f)
		sample[g, reps_ok[g], k] = f[k]
	if (f["tracer"] != "")
		tracer = f["tracer"]
	if (f["calib_ns"] != "")
		calib = f["calib_ns"]
}

# Medians of every metric of group @g into med[g, metric].
function summarise(g,    i, m) {
	for (i = 1; i <= n_metrics; i++) {
		m = metric[i]
		med[g, m] = median(g, m)
	}
	med[g, "energy_src"] = text_of(g, "energy_src")
	med[g, "hook"] = text_of(g, "hook")
}

function ratios(s, c,    g, nl, ob, ref) {
	g = s SUBSEP c
	nl = s SUBSEP "not_loaded"
	ob = s SUBSEP "observe"
	rat[g, "makespan"] = ratio(med[g, "makespan_us"], med[nl, "makespan_us"])
	rat[g, "lat_p99"] = ratio(med[g, "lat_p99_us"], med[nl, "lat_p99_us"])
	rat[g, "pkg_wakeups"] = ratio(med[g, "pkg_wakeups"], med[nl, "pkg_wakeups"])
	rat[g, "migrations"] = ratio(med[g, "migrations_per_s"], med[nl, "migrations_per_s"])
	rat[g, "model"] = ratio(med[g, "model_uj"], med[ob, "model_uj"])
	ref = med[g, "energy_src"] == "rapl" ? nl : ob
	rat[g, "energy"] = ratio(med[g, "energy_uj"], med[ref, "energy_uj"])
	rat[g, "energy_ref"] = med[g, "energy_src"] == "rapl" ? "not_loaded" : "observe"
}

function verdicts(g,    e, h, l, t) {
	e = med[g, "verdict_early"]; h = med[g, "verdict_hit"]; l = med[g, "verdict_late"]
	if (!numeric(e) || !numeric(h) || !numeric(l) || e + h + l == 0)
		return "-"
	t = e + h + l
	return sprintf("%d/%d/%d", 100 * e / t + 0.5, 100 * h / t + 0.5, 100 * l / t + 0.5)
}

function table_row(s, c,    g) {
	g = s SUBSEP c
	printf "%-10s %-10s %4s %9s %6s %10s %-5s %6s %8s %8s %8s %6s %6s %6s %-9s %6s %7s %6s%s\n",
		s, c, reps_ok[g] + 0 "/" reps_all[g] + 0,
		milli(med[g, "makespan_us"]), rat[g, "makespan"], milli(med[g, "energy_uj"]),
		med[g, "energy_src"], rat[g, "energy"],
		fmt_num(med[g, "lat_p50_us"], 1), fmt_num(med[g, "lat_p99_us"], 1),
		fmt_num(med[g, "lat_max_us"], 1), rat[g, "lat_p99"],
		med[g, "pkg_wakeups"], rat[g, "pkg_wakeups"], verdicts(g),
		fmt_num(med[g, "prev_pkg_share"], 3), fmt_num(med[g, "migrations_per_s"], 2),
		fmt_num(med[g, "both_pkgs_awake_share"], 3),
		failed[g] == "" ? "" : "  failed:" failed[g]
}

function table(    i, j, s, c) {
	printf "%-10s %-10s %4s %9s %6s %10s %-5s %6s %8s %8s %8s %6s %6s %6s %-9s %6s %7s %6s\n",
		"story", "config", "reps", "time_ms", "x_nl", "energy_mJ", "src", "x_ref",
		"p50_us", "p99_us", "max_us", "x_nl", "pkgwk", "x_nl", "E/H/L%",
		"prvpkg", "migr/s", "both"
	for (i = 1; i <= n_of["story"]; i++) {
		s = item["story", i]
		for (j = 1; j <= n_of["config"]; j++) {
			c = item["config", j]
			if ((s SUBSEP c) in reps_all)
				table_row(s, c)
		}
	}
	printf "# time_ms: first task start to last task end (rt-app logs), median over reps ok/run.\n"
	printf "# energy: src rapl = RAPL package energy, model = the module's modelled energy,\n"
	printf "#   - = none (not loaded, no RAPL); x_ref: to not_loaded for rapl, to observe for model.\n"
	printf "# x_nl: ratio to not_loaded.  pkgwk: package wake-ups (trace).  E/H/L%%: idle verdicts.\n"
	printf "# prvpkg, migr/s, both: sim-vs-VM metrics (Documentation/power-bench.rst).\n"
	if (tracer == "tracefs")
		printf "# trace: kernel text, 1 us resolution; rt-app ns_per_loop %s.\n", calib
}

function sim_table(    i, s, g) {
	printf "%-10s %14s %14s %14s %12s %10s\n", "story", "prev_pkg_share",
		"migrations/s", "both_pkgs_awake", "model_mJ", "wakeups"
	for (i = 1; i <= n_of["story"]; i++) {
		s = item["story", i]
		g = s SUBSEP "observe"
		if (!(g in reps_all))
			continue
		printf "%-10s %14s %14s %14s %12s %10s\n", s,
			fmt_num(med[g, "prev_pkg_share"], 3), fmt_num(med[g, "migrations_per_s"], 2),
			fmt_num(med[g, "both_pkgs_awake_share"], 3),
			milli(med[g, "model_uj"]),
			med[g, "wakeups"]
	}
}

function csv_header(    i) {
	printf "story,config,reps_ok,reps_run"
	for (i = 1; i <= n_metrics; i++)
		printf ",%s", metric[i]
	printf ",energy_src,energy_ratio,energy_ratio_to,model_ratio_observe,makespan_ratio_nl,"
	printf "lat_p99_ratio_nl,pkg_wakeups_ratio_nl,migrations_ratio_nl,hook,tracer,kernel,machine,date\n"
}

function csv_row(s, c,    g, i) {
	g = s SUBSEP c
	printf "%s,%s,%d,%d", s, c, reps_ok[g], reps_all[g]
	for (i = 1; i <= n_metrics; i++)
		printf ",%s", med[g, metric[i]]
	printf ",%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", med[g, "energy_src"],
		rat[g, "energy"], rat[g, "energy_ref"], rat[g, "model"], rat[g, "makespan"],
		rat[g, "lat_p99"], rat[g, "pkg_wakeups"], rat[g, "migrations"], med[g, "hook"],
		tracer, kernel, machine, date
}

function json_val(v) {
	return numeric(v) ? v + 0 : "\"" v "\""
}

function json_row(s, c, last,    g, i) {
	g = s SUBSEP c
	printf "    {\"story\": \"%s\", \"config\": \"%s\", \"reps_ok\": %d, \"reps_run\": %d", s, c,
		reps_ok[g], reps_all[g]
	for (i = 1; i <= n_metrics; i++)
		printf ", \"%s\": %s", metric[i], json_val(med[g, metric[i]])
	printf ", \"energy_src\": \"%s\", \"energy_ratio\": %s, \"energy_ratio_to\": \"%s\"",
		med[g, "energy_src"], json_val(rat[g, "energy"]), rat[g, "energy_ref"]
	printf ", \"model_ratio_observe\": %s, \"makespan_ratio_nl\": %s, \"lat_p99_ratio_nl\": %s",
		json_val(rat[g, "model"]), json_val(rat[g, "makespan"]), json_val(rat[g, "lat_p99"])
	printf ", \"pkg_wakeups_ratio_nl\": %s, \"migrations_ratio_nl\": %s, \"hook\": \"%s\"}%s\n",
		json_val(rat[g, "pkg_wakeups"]), json_val(rat[g, "migrations"]), med[g, "hook"],
		last ? "" : ","
}

function each(fn,    i, j, s, c, n, k) {
	n = 0
	for (i = 1; i <= n_of["story"]; i++)
		for (j = 1; j <= n_of["config"]; j++)
			if ((item["story", i] SUBSEP item["config", j]) in reps_all)
				n++
	k = 0
	for (i = 1; i <= n_of["story"]; i++) {
		s = item["story", i]
		for (j = 1; j <= n_of["config"]; j++) {
			c = item["config", j]
			if (!((s SUBSEP c) in reps_all))
				continue
			k++
			if (fn == "csv")
				csv_row(s, c)
			else
				json_row(s, c, k == n)
		}
	}
}

BEGIN {
	n_metrics = split("makespan_us energy_uj model_uj rapl_uj energy_window_us " \
		"lat_p50_us lat_p99_us lat_max_us wakeups pkg_wakeups mod_pkg_wakeups " \
		"verdict_early verdict_hit verdict_late prev_pkg_share prev_pkg_share_ttwu " \
		"select_wakeups migrations migrations_per_s both_pkgs_awake_share " \
		"decisions overrides run_s", metric, " ")
	# Configurations in their natural order, whatever order the runs came in.
	split("not_loaded observe power balanced", order, " ")
	for (i = 1; i <= 4; i++)
		add_key("config", order[i])
}

END {
	for (gi in reps_all)
		summarise(gi)
	for (i = 1; i <= n_of["story"]; i++)
		for (j = 1; j <= n_of["config"]; j++)
			ratios(item["story", i], item["config", j])
	if (fmt == "table")
		table()
	else if (fmt == "sim")
		sim_table()
	else if (fmt == "csv") {
		csv_header()
		each("csv")
	} else if (fmt == "json") {
		printf "{\n  \"kernel\": \"%s\", \"machine\": \"%s\", \"date\": \"%s\", \"tracer\": \"%s\",\n",
			kernel, machine, date, tracer
		printf "  \"results\": [\n"
		each("json")
		printf "  ]\n}\n"
	}
}
