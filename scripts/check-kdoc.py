#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-kdoc.py [FILE...]: every function that another file can call
(defined without `static` in a .c file) has a kernel-doc comment, "/**"
then " * name() - summary", at its definition or at its declaration in a
header.  Without arguments it checks the module and the core (./*.c, ./*.h,
core/*.c, core/*.h, uapi/*.h).  Prints the undocumented ones and exits 1 if
there are any outside PENDING.

PENDING lists the files whose functions are still waiting for their
kernel-doc, each with the reason; their undocumented functions are printed
as pending, not counted as failures.  A file listed there that has nothing
left to document is an error too, so that the list only shrinks."""
import glob
import os
import re
import sys

DEF = re.compile(r'^(?!static\b)(?!typedef\b)[a-zA-Z_][\w \*]*?\b(\w+)\(')
DOC = re.compile(r'^/\*\*\s*$')
NAME = re.compile(r'^ \* (\w+)\(\)\s+-')

# file -> why its functions have no kernel-doc yet (issue 23 item 4)
PENDING = {}


def documented_names(text):
    names = set()
    lines = text.split('\n')
    for i, l in enumerate(lines):
        if DOC.match(l) and i + 1 < len(lines):
            m = NAME.match(lines[i + 1])
            if m:
                names.add(m.group(1))
    return names


def defined_functions(text):
    out = []
    lines = text.split('\n')
    for i, l in enumerate(lines):
        m = DEF.match(l)
        if not m or l.rstrip().endswith(';'):
            continue
        # a definition: the body's brace follows on this or a later line
        # before any ';'
        j = i
        while j < len(lines) and '{' not in lines[j] and ';' not in lines[j]:
            j += 1
        if j < len(lines) and '{' in lines[j] and lines[j].strip().startswith('{'):
            out.append((m.group(1), i + 1))
    return out


def default_paths():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(top)
    paths = []
    for pat in ('*.c', '*.h', 'core/*.c', 'core/*.h', 'uapi/*.h'):
        paths += sorted(p for p in glob.glob(pat) if not p.endswith('.mod.c'))
    return paths


def main(paths):
    if not paths:
        paths = default_paths()
    docs = set()
    for p in paths:
        docs |= documented_names(open(p).read())
    bad = []
    pending = {}
    for p in paths:
        if not p.endswith('.c'):
            continue
        key = os.path.normpath(p)
        for name, line in defined_functions(open(p).read()):
            if name in docs or name in ('module_init', 'module_exit'):
                continue
            msg = '%s:%d: %s() has no kernel-doc comment' % (p, line, name)
            if key in PENDING:
                pending.setdefault(key, []).append(msg)
            else:
                bad.append(msg)
    for b in bad:
        print(b)
    checked = set(os.path.normpath(p) for p in paths)
    stale = []
    for f, why in sorted(PENDING.items()):
        if f not in checked:
            continue
        if f not in pending:
            print('%s: listed as pending but fully documented: remove it from '
                  'PENDING in scripts/check-kdoc.py' % f)
            stale.append(f)
        else:
            print('%s: %d functions pending (%s)' % (f, len(pending[f]), why))
    print('check-kdoc: %d files, %d callable functions undocumented, '
          '%d pending in %d listed files, %d listed files with nothing pending' %
          (len(paths), len(bad), sum(len(v) for v in pending.values()), len(pending),
           len(stale)))
    return 1 if bad or stale else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
