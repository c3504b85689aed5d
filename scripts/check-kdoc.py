#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-kdoc.py FILE...: every function that another file can call (defined
without `static` in a .c file) has a kernel-doc comment, "/**" then
" * name() - summary", at its definition or at its declaration in a header.
Prints the undocumented ones and exits 1 if there are any."""
import re
import sys

DEF = re.compile(r'^(?!static\b)(?!typedef\b)[a-zA-Z_][\w \*]*?\b(\w+)\(')
DOC = re.compile(r'^/\*\*\s*$')
NAME = re.compile(r'^ \* (\w+)\(\)\s+-')


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


def main(paths):
    docs = set()
    for p in paths:
        docs |= documented_names(open(p).read())
    bad = []
    for p in paths:
        if not p.endswith('.c'):
            continue
        for name, line in defined_functions(open(p).read()):
            if name not in docs and name not in ('module_init', 'module_exit'):
                bad.append('%s:%d: %s() has no kernel-doc comment' % (p, line, name))
    for b in bad:
        print(b)
    print('check-kdoc: %d callable functions undocumented' % len(bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
