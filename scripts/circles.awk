# SPDX-License-Identifier: GPL-2.0
#
# circles.awk - cycles in a file-level "uses" graph (scripts/check-circles.sh).
#
# Input lines: "FILE D SYMBOL" (FILE's object defines SYMBOL globally) and
# "FILE U SYMBOL" (it refers to SYMBOL, undefined).  Variables: prog (the
# program's name, for the messages), verbose (1: print every edge).
# Prints "PROG: FILE -> FILE (symbols) -> ... -> FILE" for each cycle a
# depth-first search meets (one per back edge), then a one-line summary;
# exits 1 if there was a cycle.

# Symbols the trace header defines in its CREATE_TRACE_POINTS file.
function trace_sym(s)
{
	return s ~ /^(__tracepoint_|__traceiter_|__SCK__tp_func_|__SCT__tp_func_)/
}

$2 == "D" && !trace_sym($3) {
	if (($3 in def) && def[$3] != $1)
		printf "%s: %s defined in %s and %s\n", prog, $3, def[$3], $1
	def[$3] = $1
	node[$1] = 1
	next
}

$2 == "U" {
	nu++
	use_f[nu] = $1
	use_s[nu] = $3
	node[$1] = 1
}

# Depth-first search from @v; color 1 = on the current path, 2 = done.
function dfs(v,    i, w, k, path)
{
	color[v] = 1
	depth++
	stack[depth] = v
	for (i = 1; i <= nout[v]; i++) {
		w = out[v, i]
		if (color[w] == 1) {
			path = ""
			for (k = depth; k >= 1 && stack[k] != w; k--)
				;
			for (; k <= depth; k++)
				path = path stack[k] " -> (" syms[stack[k], k < depth ? stack[k + 1] : w] ") "
			printf "%s: cycle: %s%s\n", prog, path, w
			cycles++
		} else if (!color[w]) {
			dfs(w)
		}
	}
	depth--
	color[v] = 2
}

END {
	for (i = 1; i <= nu; i++) {
		f = use_f[i]
		s = use_s[i]
		if (!(s in def) || def[s] == f)
			continue
		t = def[s]
		if (!((f, t) in syms)) {
			nout[f]++
			out[f, nout[f]] = t
			syms[f, t] = s
			nsym[f, t] = 1
			nedges++
		} else if (nsym[f, t] < 3) {
			syms[f, t] = syms[f, t] ", " s
			nsym[f, t]++
		} else if (nsym[f, t] == 3) {
			syms[f, t] = syms[f, t] ", ..."
			nsym[f, t]++
		}
	}
	# visit the files in name order, so the output does not depend on nm's
	nn = 0
	for (v in node)
		order[++nn] = v
	for (i = 2; i <= nn; i++)
		for (j = i; j > 1 && order[j - 1] > order[j]; j--) {
			tmp = order[j]; order[j] = order[j - 1]; order[j - 1] = tmp
		}
	if (verbose)
		for (i = 1; i <= nn; i++)
			for (j = 1; j <= nout[order[i]]; j++)
				printf "%s: %s -> %s (%s)\n", prog, order[i],
				       out[order[i], j], syms[order[i], out[order[i], j]]
	for (i = 1; i <= nn; i++)
		if (!color[order[i]])
			dfs(order[i])
	printf "%s: %d files, %d edges, %d cycle%s\n", prog, nn, nedges, cycles,
	       cycles == 1 ? "" : "s"
	exit cycles ? 1 : 0
}
