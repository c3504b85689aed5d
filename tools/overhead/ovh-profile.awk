# SPDX-License-Identifier: GPL-2.0
# ovh-profile.awk - join the qemu plugin's phases with the guest's marks.
#
#   awk -v pipe_ops=N -v mode=runs|profile -f ovh-profile.awk \
#       KALLSYMS GUEST_OUTPUT PLUGIN_OUTPUT
#
# KALLSYMS: the guest kernel's /proc/kallsyms (nokaslr boot).  GUEST_OUTPUT:
# ovh-run.sh's output with OVH_MARK=1 ("ovh-mark N LABEL", "ovh-ksym ..."
# lines).  PLUGIN_OUTPUT: sp_insn_plugin's "phase K ..." and "tb ADDR N".
# Phase K is what ran before mark K.
# mode=runs: one "ovh-insn round= config= workload= ops= total= calls= ext=
# inner=" line per measured run (ovh-stats reads them).
# mode=profile: per configuration and workload, instructions per
# select_task_rq_fair call by function, largest first, then the module's code
# run outside the calls (its probes), instructions per op by function.

function hexval(s,   i, v, c) {
	# the low 40 bits are enough to order kernel and module addresses
	s = tolower(s)
	if (length(s) > 10)
		s = substr(s, length(s) - 9)
	v = 0
	for (i = 1; i <= length(s); i++) {
		c = index("0123456789abcdef", substr(s, i, 1))
		v = v * 16 + c - 1
	}
	return v
}

# sym(ADDR, TABLE): the name of the function at or below ADDR.
function lookup(a, n, addr, name,   lo, hi, mid) {
	lo = 1; hi = n
	if (n < 1 || a < addr[1])
		return ""
	while (lo < hi) {
		mid = int((lo + hi + 1) / 2)
		if (addr[mid] <= a) lo = mid; else hi = mid - 1
	}
	return name[lo]
}

function sort_syms(n, addr, name,   i, j, ta, tn) {
	# insertion sort is too slow for 90k; kallsyms is already sorted by
	# address for the kernel, the module's few hundred are sorted here
	for (i = 2; i <= n; i++) {
		ta = addr[i]; tn = name[i]
		for (j = i - 1; j >= 1 && addr[j] > ta; j--) { addr[j + 1] = addr[j]; name[j + 1] = name[j] }
		addr[j + 1] = ta; name[j + 1] = tn
	}
}

FILENAME == ARGV[1] {
	if ($2 !~ /^[tT]$/ || NF > 3)
		next
	kn++; kaddr[kn] = hexval($1); kname[kn] = $3
	next
}

FILENAME == ARGV[2] {
	sub(/\r$/, "")
	if ($1 == "ovh-ksym") {
		if (!in_ksym) { snap++; mn[snap] = 0; in_ksym = 1 }
		mn[snap]++
		maddr[snap, mn[snap]] = hexval($2); mname[snap, mn[snap]] = "[sched_power] " $4
		next
	}
	in_ksym = 0
	if ($1 == "ovh-modcore") {
		sub(/^0x/, "", $2)
		core_lo[snap + 1] = hexval($2); core_hi[snap + 1] = hexval($2) + $3
	}
	if ($1 == "ovh-mark") {
		label[$2] = $3; round[$2] = $4; config[$2] = $5; workload[$2] = $6
		msnap[$2] = snap
	}
	next
}

$1 == "phase" {
	cur = $2
	for (i = 3; i <= NF; i++) { split($i, kv, "="); ph[cur, kv[1]] = kv[2] }
	measured = (cur in label) && label[cur] == "run"
	if (measured && mode == "runs") {
		ops = workload[cur] == "pipe" ? pipe_ops : 1
		printf "ovh-insn round=%s config=%s workload=%s ops=%s total=%s calls=%s ext=%s inner=%s mod_other=%s\n",
			round[cur], config[cur], workload[cur], ops, ph[cur, "total_insns"],
			ph[cur, "calls"], ph[cur, "ext_insns"], ph[cur, "inner_insns"],
			ph[cur, "mod_other_insns"] == "" ? 0 : ph[cur, "mod_other_insns"]
	}
	if (measured) {
		key = config[cur] SUBSEP workload[cur]
		if (!(key in ncalls)) { nkeys++; keys[nkeys] = key }
		ncalls[key] += ph[cur, "calls"]
		oops[key] += workload[cur] == "pipe" ? pipe_ops : 1
	}
	next
}

# func_of(ADDR): the function holding ADDR in the current phase's boot.
function func_of(a,   s, f, i, n) {
	s = msnap[cur]
	f = ""
	if (s && mn[s] && !sorted[s]) {
		n = mn[s]
		for (i = 1; i <= n; i++) { ta[i] = maddr[s, i]; tn[i] = mname[s, i] }
		sort_syms(n, ta, tn)
		for (i = 1; i <= n; i++) { maddr[s, i] = ta[i]; mname[s, i] = tn[i] }
		sorted[s] = 1
	}
	# the module's core (text first); ftrace and kprobe trampolines are
	# allocated elsewhere in the module area
	if (s && mn[s] && a >= core_lo[s] && a < core_hi[s]) {
		n = mn[s]
		for (i = 1; i <= n; i++) { ta[i] = maddr[s, i]; tn[i] = mname[s, i] }
		f = lookup(a, n, ta, tn)
	}
	if (f == "") {
		if (a >= hexval("ffc0000000")) f = "[trampoline or other module-area code]"
		else f = lookup(a, kn, kaddr, kname)
	}
	return f
}

$1 == "tb" && measured && mode == "profile" {
	prof[config[cur] SUBSEP workload[cur] SUBSEP func_of(hexval($2))] += $3
	next
}

# module code run outside the calls (the probes), per op
$1 == "otb" && measured && mode == "profile" {
	key = config[cur] SUBSEP workload[cur]
	ohas[key] = 1
	oprof[key SUBSEP func_of(hexval($2))] += $3
	next
}

# One configuration's profile @arr (config, workload, function -> instructions)
# per @div, into fn[] and fv[] by decreasing count, the first 25 printed and
# the total; returns how many functions.
function ranked(arr, cfg, wl, div,   p, pw, i, j, tv, tf, m, tot) {
	m = 0; tot = 0
	for (p in arr) {
		split(p, pw, SUBSEP)
		if (pw[1] != cfg || pw[2] != wl) continue
		m++; fn[m] = pw[3]; fv[m] = arr[p] / div; tot += fv[m]
	}
	for (i = 2; i <= m; i++) {
		tv = fv[i]; tf = fn[i]
		for (j = i - 1; j >= 1 && fv[j] < tv; j--) { fv[j + 1] = fv[j]; fn[j + 1] = fn[j] }
		fv[j + 1] = tv; fn[j + 1] = tf
	}
	for (i = 1; i <= m && i <= 25; i++)
		printf "%10.1f %5.1f%%  %s\n", fv[i], tot ? 100 * fv[i] / tot : 0, fn[i]
	printf "%10.1f  total\n", tot
	return m
}

END {
	if (mode != "profile")
		exit
	for (k = 1; k <= nkeys; k++) {
		split(keys[k], cw, SUBSEP)
		c = ncalls[keys[k]]
		if (!c) continue
		printf "== %s %s: %d select_task_rq_fair calls; instructions per call by function\n", cw[1], cw[2], c
		n = ranked(prof, cw[1], cw[2], c)
		# by part: the mechanism (trampolines, redirect, wrapper, kprobe and
		# rethook code), the module's own code, and kernel functions (CFS's
		# own and those the module calls)
		mech = modc = kern = 0
		for (i = 1; i <= n; i++) {
			if (fn[i] ~ /trampoline|sp_redirect_ip|sp_select_wrapper|sp_balance_wrapper|kprobe|rethook/)
				mech += fv[i]
			else if (fn[i] ~ /^\[sched_power\]/)
				modc += fv[i]
			else
				kern += fv[i]
		}
		printf "part %s %s mechanism=%.1f module_code=%.1f kernel_functions=%.1f\n", cw[1], cw[2], mech, modc, kern
		if (!oops[keys[k]] || !(keys[k] in ohas))
			continue
		printf "== %s %s: module code outside the calls, instructions per op by function\n", cw[1], cw[2]
		ranked(oprof, cw[1], cw[2], oops[keys[k]])
	}
}
