#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""callgrind-parts.py: one placement decision's instructions per part.

Reads a callgrind output file of `bench_place --child` (run by
tools/bench/bench-parts.sh with --toggle-collect=sp_place_w, so that every
instruction counted lies inside a decision) and prints, per decision, the
inclusive instructions of each part:

  total         the file's total (= sp_place_w's inclusive cost)
  fast          sp_place_fast(), only when out of line (the decision
                inlines it: its lines are in the rest, by source)
  upper         sp_place_fast_ub(): the upper bound of CFS's estimate
                (sp_place_cfs_upper_nj(), inlined) and the look against it
  energy_cfs    sp_energy_delta_at() called for CFS's CPU
  energy_cands  sp_energy_delta_at() called for the candidates
  scan          sp_place_scan(), with the probes it inlines
  walk, pick    sp_place_walk(), sp_place_pick(), only when out of line
  rest          total minus the parts above

Two "#" lines follow: the scan's instructions per source function (its
lines inline the probes and their helpers; the probes' sum counts the
headers' inlined lines too) and the rest's (the functions the decision
reaches outside the parts, by the source function of each line, and their
out-of-line callees as NAME()), which must sum to the rest; then, where
energies were computed, one energy's instructions per call by source
function (core/sp_energy.c's pd pass, group walk, ...).

A function is matched by its name as the build has it, with any
.constprop.N / .isra.N / .part.N / .cold suffix.  A part's cost is its
inclusive cost minus what it spends in other parts it calls directly; a
part that reaches another part through an unlisted function fails the run
(the parts would overlap).  CFS's energy is told from the candidates' by
the call's source line: a line of core/sp_place.c whose call of
sp_energy_delta_at() passes cfs_cpu.  Fails, naming it, when a required
function is not in the binary (renamed or inlined), or when an energy call
comes from a line that is not such a call.
"""
import argparse
import re
import subprocess
import sys

SUFFIX = re.compile(r'(\.(constprop|isra|part|cold|lto_priv|localalias)(\.\d+)?)+$')
REQUIRED = [('upper', 'sp_place_fast_ub'), ('scan', 'sp_place_scan')]
OPTIONAL = [('fast', 'sp_place_fast'), ('walk', 'sp_place_walk'), ('pick', 'sp_place_pick')]
ENERGY = 'sp_energy_delta_at'
TOP = 'sp_place_w'


def base(name):
    return SUFFIX.sub('', name)


def fail(msg):
    print('bench-parts: FAIL: ' + msg, file=sys.stderr)
    sys.exit(1)


class Profile:
    """The call graph of a callgrind file (any compression of names and positions)."""

    def __init__(self, path):
        self.self_ir = {}	# fn -> Ir
        self.edges = {}		# (caller, callee) -> [calls, Ir]
        self.sites = {}		# (caller, callee, file, line) -> [calls, Ir]
        self.lines = {}		# (fn, file, line) -> self Ir
        self.total = None
        self.names = {}
        self.parse(path)

    def name(self, kind, val):
        m = re.match(r'^\((\d+)\)(?: (.*))?$', val)
        if not m:
            return val
        key = (kind, m.group(1))
        if m.group(2) is not None:
            self.names[key] = m.group(2)
        return self.names[key]

    def parse(self, path):
        fn = fl = fi = None
        cfn = None
        call = None
        last = 0
        with open(path) as f:
            for raw in f:
                line = raw.rstrip('\n')
                if not line or line.startswith('#'):
                    continue
                key, sep, val = line.partition('=')
                if sep and re.match(r'^[a-z]+$', key):
                    if key == 'fn':
                        fn, fi, cfn = self.name('fn', val), None, None
                    elif key == 'fl':
                        fl, fi = self.name('fl', val), None
                    elif key in ('fi', 'fe'):
                        fi = self.name('fl', val)
                    elif key in ('cfn',):
                        cfn = self.name('fn', val)
                    elif key in ('cfl', 'cfi'):
                        self.name('fl', val)
                    elif key == 'ob' or key == 'cob':
                        self.name('ob', val)
                    elif key == 'calls':
                        call = int(val.split()[0])
                    elif key in ('jump', 'jcnd'):
                        fail('%s: jumps collected; run without --collect-jumps' % path)
                    continue
                if line.startswith(('totals:', 'summary:')):
                    self.total = int(line.split()[1])
                    continue
                if ':' in line.split()[0] or not re.match(r'^[-+*0-9]', line):
                    continue	# a header line (version:, events:, ...)
                f_ = line.split()
                pos = f_[0]
                if pos == '*':
                    ln = last
                elif pos[0] in '+-':
                    ln = last + int(pos)
                else:
                    ln = int(pos)
                last = ln
                ir = int(f_[1]) if len(f_) > 1 else 0
                src = fi or fl
                if call is not None:
                    e = self.edges.setdefault((fn, cfn), [0, 0])
                    e[0] += call
                    e[1] += ir
                    s = self.sites.setdefault((fn, cfn, src, ln), [0, 0])
                    s[0] += call
                    s[1] += ir
                    call = None
                else:
                    self.self_ir[fn] = self.self_ir.get(fn, 0) + ir
                    k = (fn, src, ln)
                    self.lines[k] = self.lines.get(k, 0) + ir
        if self.total is None:
            fail('%s: no totals line' % path)

    def group(self, b):
        return {f for f in set(self.self_ir) | {c for _, c in self.edges} if base(f) == b}

    def incl(self, members):
        ir = sum(self.self_ir.get(f, 0) for f in members)
        ir += sum(v[1] for (a, c), v in self.edges.items() if a in members and c not in members)
        return ir

    def calls_into(self, members):
        return sum(v[0] for (a, c), v in self.edges.items() if c in members and a not in members)

    def reach(self, members, stop):
        """Functions reachable from @members without entering @stop."""
        seen, todo = set(members), list(members)
        while todo:
            f = todo.pop()
            for (a, c) in self.edges:
                if a == f and c not in seen and c not in stop:
                    seen.add(c)
                    todo.append(c)
        return seen


def symbols(binary):
    out = subprocess.run(['nm', binary], capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in out.splitlines()]
    return {base(r[2]) for r in rows if len(r) == 3 and r[1] in 'tT'}


def cfs_lines(src):
    """Lines of @src that call sp_energy_delta_at(), and those that pass cfs_cpu."""
    calls, cfs = set(), set()
    with open(src) as f:
        for n, text in enumerate(f, 1):
            if ENERGY + '(' in text and not re.match(r'^\w', text):
                calls.add(n)
                if re.search(ENERGY + r'\([^,]*,\s*[\w>.-]*cfs_cpu\b', text):
                    cfs.add(n)
    if not cfs:
        fail('%s: no call of %s() for cfs_cpu' % (src, ENERGY))
    return calls, cfs


def func_ranges(src):
    """(first, last, name) of each function defined at column 0 in @src."""
    out, cur = [], None
    with open(src) as f:
        for n, text in enumerate(f, 1):
            m = re.match(r'^[a-z].*?\b(sp_\w+)\(', text)
            if m and cur is None and not text.rstrip().endswith(';'):
                cur = (n, m.group(1))
            elif text.startswith('}') and cur:
                out.append((cur[0], n, cur[1]))
                cur = None
    return out


def by_source(prof, members, ranges, src):
    """Self Ir of @members per function of the .c file their lines lie in, else per file."""
    acc = {}
    for (fn, fl, ln), ir in prof.lines.items():
        if fn not in members:
            continue
        where = fl.rsplit('/', 1)[-1] if fl else '???'
        if fl and fl.endswith('.c'):
            if fl not in ranges:
                try:
                    ranges[fl] = func_ranges(fl)
                except OSError:
                    ranges[fl] = []
            where = next((r[2] for r in ranges[fl] if r[0] <= ln <= r[1]), where)
        acc[where] = acc.get(where, 0) + ir
    return acc


def out_calls(prof, members, acc, skip):
    """Add to @acc the Ir of calls from @members to functions outside them and @skip."""
    for (c, x), v in prof.edges.items():
        if c in members and x not in members and x not in skip:
            acc[base(x) + '()'] = acc.get(base(x) + '()', 0) + v[1]
    return acc


def inlined_by(src, ranges, root):
    """@root and the functions of @src it calls, transitively (by their text)."""
    with open(src) as f:
        text = f.read().split('\n')
    body = {name: '\n'.join(text[a - 1:b]) for a, b, name in ranges}
    seen, todo = {root}, [root]
    while todo:
        f = todo.pop()
        for name in body:
            if name not in seen and re.search(r'\b%s\(' % name, body.get(f, '').split('{', 1)[-1]):
                seen.add(name)
                todo.append(name)
    return seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--binary', required=True)
    ap.add_argument('--src', default='core/sp_place.c')
    ap.add_argument('--decisions', type=int, required=True)
    ap.add_argument('--collected', type=int, help="valgrind's 'Collected :' count")
    ap.add_argument('--label', required=True, help='printed first: scenario=... model=...')
    ap.add_argument('file')
    a = ap.parse_args()

    syms = symbols(a.binary)
    for _, f in REQUIRED + [('energy', ENERGY), ('total', TOP)]:
        if f not in syms:
            fail('%s is not a function of %s (renamed or inlined): the parts need it'
                 % (f, a.binary))
    prof = Profile(a.file)
    n = a.decisions
    if a.collected is not None and a.collected != prof.total:
        fail("%s: total %d, valgrind collected %d" % (a.file, prof.total, a.collected))
    top = prof.group(TOP)
    if prof.incl(top) != prof.total:
        fail("%s: %s's inclusive %d is not the total %d"
             % (a.file, TOP, prof.incl(top), prof.total))
    parts = [(k, f) for k, f in REQUIRED] + [(k, f) for k, f in OPTIONAL if f in syms]
    groups = {k: prof.group(f) for k, f in parts}
    egroup = prof.group(ENERGY)
    listed = set().union(egroup, *groups.values())
    vals = {}
    for k, f in parts:
        g = groups[k]
        inner = prof.reach(g, listed - g) - g
        for (c, x), _ in prof.edges.items():
            if c in inner and x in listed - g:
                fail('%s reaches %s through %s: the parts overlap' % (f, x, c))
        vals[k] = prof.incl(g) - sum(v[1] for (c, x), v in prof.edges.items()
                                     if c in g and x in listed - g)
    calls, cfs = cfs_lines(a.src)
    e_cfs = [0, 0]
    e_cand = [0, 0]
    for (c, x, fl, ln), v in prof.sites.items():
        if x not in egroup or c in egroup:
            continue
        if not (fl and fl.endswith(a.src) and ln in calls):
            fail('%s called from %s at %s:%d, not a call line of %s:'
                 ' cannot tell CFS\'s from the candidates\'' % (ENERGY, c, fl, ln, a.src))
        t = e_cfs if ln in cfs else e_cand
        t[0] += v[0]
        t[1] += v[1]
    rest = prof.total - sum(vals.values()) - e_cfs[1] - e_cand[1]

    def per(x):
        return '%.0f' % (x / n)

    out = ['parts', a.label, 'total=' + per(prof.total)]
    out += ['%s=%s' % (k, per(vals[k]) if k in vals else 'inline') for k in ('fast', 'upper')]
    out += ['energy_cfs=' + per(e_cfs[1]), 'energy_cands=' + per(e_cand[1]),
            'energy_calls=%.2f' % ((e_cfs[0] + e_cand[0]) / n),
            'energy_cand_calls=%.2f' % (e_cand[0] / n)]
    if e_cfs[0] + e_cand[0]:
        out.append('energy_per_call=%.0f' % ((e_cfs[1] + e_cand[1]) / (e_cfs[0] + e_cand[0])))
    out += ['%s=%s' % (k, per(vals[k])) for k, _ in parts if k not in ('fast', 'upper')]
    for k, f in OPTIONAL:
        if f not in syms and k != 'fast':
            out.append('%s=inline' % k)
    out.append('rest=' + per(rest))
    print(' '.join(out))
    ranges = {}
    probe = inlined_by(a.src, func_ranges(a.src), 'sp_place_probe')
    for k in ('scan', 'walk'):
        if k in groups and vals[k]:
            acc = out_calls(prof, groups[k], by_source(prof, groups[k], ranges, a.src), listed)
            pr = sum(ir for w, ir in acc.items() if w in probe or w.endswith('.h'))
            acc = sorted(acc.items(), key=lambda x: -x[1])
            print('#   %s %s: probes %s (sp_place_probe() and what it inlines,'
                  ' headers included), the rest %s; its own instructions by source: %s' %
                  (a.label.split()[0], k, per(pr), per(vals[k] - pr),
                   ' '.join('%s=%s' % (w, per(ir)) for w, ir in acc if ir >= n)))
    # the rest: functions only the decision reaches outside the parts
    own = prof.reach(top, listed)
    for g in list(groups.values()) + [egroup]:
        own -= prof.reach(g, set())
    acc = out_calls(prof, own, by_source(prof, own, ranges, a.src), listed)
    if sum(acc.values()) != rest:
        fail('the rest by source sums to %d, not %d' % (sum(acc.values()), rest))
    acc = sorted(acc.items(), key=lambda x: -x[1])
    print('#   %s rest by source (out-of-line calls with ()): %s' %
          (a.label.split()[0], ' '.join('%s=%s' % (w, per(ir)) for w, ir in acc if ir >= n)))
    ncalls = e_cfs[0] + e_cand[0]
    if ncalls:
        acc = out_calls(prof, egroup, by_source(prof, egroup, ranges, a.src), set())
        acc = sorted(acc.items(), key=lambda x: -x[1])
        print('#   %s energy per call by source: %s' %
              (a.label.split()[0], ' '.join('%s=%.0f' % (w, ir / ncalls)
                                            for w, ir in acc if ir >= ncalls)))


if __name__ == '__main__':
    main()
