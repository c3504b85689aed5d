#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""stack-chain.py: the deepest stack chain of each entry point, from gcc's
-fcallgraph-info=su output.

Usage: stack-chain.py [--aim BYTES] [--hook NAME] [--drop CALLER>CALLEE]... DIR ENTRY...

DIR is searched recursively for .ci files (gcc writes one per object when
compiling with -fcallgraph-info=su: a VCG graph).  A function compiled in
one of them is a node whose label ends with "N bytes (qualifiers)": its
frame, the return address included on x86.  A node without that line is a
function the objects only call (a kernel function, or "__indirect_call",
gcc's placeholder for a call through a pointer).  Static functions are
titled "FILE:name", global ones "name"; an edge names the titles, so the
graphs of all files link by title.

For each ENTRY (a function name) the chain is the path through module
functions with the largest sum of frames.  Functions outside the module are
leaves of 0 bytes (their own stack is not visible here), listed by name.
Indirect calls, recursion and frames that gcc cannot bound ("dynamic"
without "bounded") are reported, never dropped silently.  Prints:

  stack_chain entry=NAME bytes=N path=f1>f2>...
  stack_chain_frames entry=NAME f1=N(qual) f2=N(qual) ...
  stack_chain_calls entry=NAME kernel=a,b,... indirect=f@file:line,... recursion=...

--drop removes the calls from CALLER to CALLEE (function names), for a call
the code proves cannot happen on the path measured; each is printed as
"stack_chain_dropped edge=CALLER>CALLEE calls=N" (N > 0, or it fails).
With --hook, a last line "stack_chain hook=NAME bytes=N aim=A ratio=R".
Exits 1 when no .ci file is found, a file does not parse, or an entry is
not a compiled function (or its name is ambiguous).
"""
import os
import re
import sys

NODE_RE = re.compile(r'^node:\s*\{\s*title:\s*"([^"]*)"\s+label:\s*"([^"]*)"')
EDGE_RE = re.compile(r'^edge:\s*\{\s*sourcename:\s*"([^"]*)"\s+'
                     r'targetname:\s*"([^"]*)"(?:\s+label:\s*"([^"]*)")?\s*\}')
SIZE_RE = re.compile(r'^(\d+) bytes \(([a-z,]+)\)$')
INDIRECT = '__indirect_call'


class ParseError(Exception):
    pass


def find_ci(top):
    """Every .ci file under @top, sorted."""
    out = []
    for root, _dirs, files in os.walk(top):
        out += [os.path.join(root, f) for f in files if f.endswith('.ci')]
    return sorted(out)


def parse(files):
    """Return (funcs, edges): funcs[title] = (name, bytes, qualifiers, where)
    for the compiled functions; edges[title] = [(target, site), ...]."""
    funcs, edges = {}, {}
    for path in files:
        with open(path, encoding='utf-8', errors='replace') as f:
            lines = f.read().splitlines()
        if not lines or not lines[0].startswith('graph:'):
            raise ParseError('%s: not a VCG graph' % path)
        for n, line in enumerate(lines, 1):
            if line.startswith('node:'):
                m = NODE_RE.match(line)
                if not m:
                    raise ParseError('%s:%d: unreadable node' % (path, n))
                title, parts = m.group(1), m.group(2).split('\\n')
                sm = SIZE_RE.match(parts[-1]) if len(parts) >= 3 else None
                if not sm:
                    continue		# a callee compiled elsewhere, or none
                if title in funcs:
                    raise ParseError('%s:%d: %s defined twice' % (path, n, title))
                funcs[title] = (parts[0], int(sm.group(1)), sm.group(2), parts[1])
            elif line.startswith('edge:'):
                m = EDGE_RE.match(line)
                if not m:
                    raise ParseError('%s:%d: unreadable edge' % (path, n))
                edges.setdefault(m.group(1), []).append((m.group(2), m.group(3) or '?'))
            elif line.strip() not in ('}', '') and not line.startswith('graph:'):
                raise ParseError('%s:%d: unknown line' % (path, n))
    return funcs, edges


def short(title):
    """A title without its file part: the function's name."""
    return title.rsplit(':', 1)[-1]


def site(label):
    """A call site "DIR/file.c:line:col" as "file.c:line"."""
    parts = os.path.basename(label).split(':')
    return ':'.join(parts[:2])


class Chains:
    """Deepest chains by depth-first search.  A call back into a function
    already on the path is a recursion: recorded, and the path stops there,
    so each function counts once per chain (one round of the recursion).
    Only results whose search met no recursion are memoised: the others
    depend on the path above them and are recomputed, so the answer is the
    heaviest simple path whatever the order of the search."""

    def __init__(self, funcs, edges):
        self.funcs, self.edges = funcs, edges
        self.memo = {}
        self.recursion = set()

    def deepest(self, title, stack=()):
        """(bytes, [titles]) of the deepest chain from @title."""
        return self._deepest(title, stack)[:2]

    def _deepest(self, title, stack):
        if title in self.memo:
            return self.memo[title]
        own = self.funcs[title][1]
        best, stopped = (0, []), set()
        stack = stack + (title,)
        callees = sorted({t for t, _s in self.edges.get(title, [])})
        for callee in callees:
            if callee not in self.funcs:
                continue	# outside the module: a leaf of 0 bytes
            if callee in stack:
                self.recursion.add('%s>%s' % (short(title), short(callee)))
                stopped.add(callee)
                continue
            sub = self._deepest(callee, stack)
            stopped |= sub[2]
            if sub[0] > best[0]:
                best = sub
        res = (own + best[0], [title] + best[1], stopped)
        if not stopped:
            self.memo[title] = res
        return res

    def reach(self, title):
        """Every module function reachable from @title."""
        seen, todo = set(), [title]
        while todo:
            t = todo.pop()
            if t in seen or t not in self.funcs:
                continue
            seen.add(t)
            todo += [c for c, _s in self.edges.get(t, [])]
        return seen


def entry_title(funcs, name):
    """The title of the compiled function called @name."""
    hits = [t for t, v in funcs.items() if v[0] == name]
    if len(hits) != 1:
        raise ParseError('entry %s: %s' % (name, 'not found' if not hits else
                                            'ambiguous: ' + ' '.join(hits)))
    return hits[0]


def drop(funcs, edges, caller, callee):
    """Remove the calls from @caller to @callee; fail if there are none."""
    src = entry_title(funcs, caller)
    calls = edges.get(src, [])
    keep = [(t, w) for t, w in calls if short(t) != callee]
    if len(keep) == len(calls):
        raise ParseError('--drop %s>%s: no such call' % (caller, callee))
    edges[src] = keep
    print('stack_chain_dropped edge=%s>%s calls=%d' %
          (caller, callee, len(calls) - len(keep)))


def report(chains, name):
    """Print an entry point's three lines; return its chain's bytes."""
    funcs, edges = chains.funcs, chains.edges
    title = entry_title(funcs, name)
    chains.recursion = set()
    total, path = chains.deepest(title)
    print('stack_chain entry=%s bytes=%d path=%s' %
          (name, total, '>'.join(short(t) for t in path)))
    print('stack_chain_frames entry=%s %s' % (name, ' '.join(
        '%s=%d(%s)' % (short(t), funcs[t][1], funcs[t][2]) for t in path)))
    reach = chains.reach(title)
    kernel, indirect, unbounded = set(), [], []
    for t in sorted(reach):
        if funcs[t][2] == 'dynamic':
            unbounded.append(short(t))
        for callee, where in edges.get(t, []):
            if callee == INDIRECT:
                indirect.append('%s@%s' % (short(t), site(where)))
            elif callee not in funcs:
                kernel.add(callee)
    rec = sorted(chains.recursion)
    print('stack_chain_calls entry=%s kernel=%s indirect=%s recursion=%s unbounded=%s' %
          (name, ','.join(sorted(kernel)) or 'none', ','.join(indirect) or 'none',
           ','.join(rec) or 'none', ','.join(unbounded) or 'none'))
    return total


def main(argv):
    aim, hook, drops, args = 512, None, [], list(argv)
    while args and args[0].startswith('--'):
        opt = args.pop(0)
        if opt == '--aim' and args:
            aim = int(args.pop(0))
        elif opt == '--hook' and args:
            hook = args.pop(0)
        elif opt == '--drop' and args and '>' in args[0]:
            drops.append(args.pop(0).split('>', 1))
        else:
            print('stack-chain: unknown option %s' % opt, file=sys.stderr)
            return 2
    if len(args) < 2:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    try:
        files = find_ci(args[0])
        if not files:
            raise ParseError('no .ci files under %s' % args[0])
        funcs, edges = parse(files)
        for caller, callee in drops:
            drop(funcs, edges, caller, callee)
        chains = Chains(funcs, edges)
        totals = {e: report(chains, e) for e in args[1:]}
        if hook is not None:
            if hook not in totals:
                raise ParseError('hook %s is not among the entries' % hook)
            print('stack_chain hook=%s bytes=%d aim=%d ratio=%.3f' %
                  (hook, totals[hook], aim, totals[hook] / aim))
    except (OSError, ParseError) as e:
        print('stack-chain: FAIL: %s' % e)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
