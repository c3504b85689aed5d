#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-prefixes.py: one prefix per file (issue 23).  Every function a
module or core file defines, static or not, and every inline function of a
header, starts with the prefix of its file, so that `git grep sp_foo_` lands
in one room.  The table below is the naming scheme; EXCEPTIONS lists the
names that keep another prefix and why (Documentation/sched_power.rst
repeats it).  Exits 1 on a function outside its file's prefix."""
import os
import re
import sys

PREFIX = {
    'sched_power.c': 'sp_main_', 'knobs.c': 'sp_knob_',
    'select_hook.c': 'sp_select_', 'select_stats.c': 'sp_stat_',
    'redirect.c': 'sp_redirect_', 'balance_hook.c': 'sp_balance_',
    'energy_model.c': 'sp_em_', 'model_file.c': 'sp_mfile_',
    'em_defaults.c': 'sp_emdef_', 'cpuidle_hook.c': 'sp_cpuidle_',
    'idle_stats.c': 'sp_idlestat_', 'latency.c': 'sp_lat_',
    'opp_floor.c': 'sp_floor_',
    'core/sp_state.c': 'sp_state_', 'core/sp_state.h': 'sp_state_',
    'core/sp_energy.c': 'sp_energy_', 'core/sp_energy.h': 'sp_energy_',
    'core/sp_place.c': 'sp_place_', 'core/sp_place.h': 'sp_place_',
    'core/sp_acct.c': 'sp_acct_', 'core/sp_acct.h': 'sp_acct_',
    'core/sp_gate.c': 'sp_gate_', 'core/sp_gate.h': 'sp_gate_',
    'core/sp_bound.c': 'sp_bound_', 'core/sp_bound.h': 'sp_bound_',
    'core/sp_model.h': 'sp_model_', 'core/sp_model_int.h': 'sp_model_',
    'core/sp_model_parse.c': 'sp_model_', 'core/sp_model_check.c': 'sp_model_',
    'core/sp_model_format.c': 'sp_model_', 'core/sp_model_build.c': 'sp_model_',
    'core/sp_model_derive.c': 'sp_model_', 'core/sp_model_stream.c': 'sp_model_',
    # the header's inlines: the counters, and the hot paths' accessors of
    # the data knobs.c, energy_model.c, cpuidle_hook.c and latency.c own
    'sched_power.h': ('sp_stat_', 'sp_knob_', 'sp_em_', 'sp_cpuidle_', 'sp_lat_'),
}

# name -> why it keeps its own prefix
EXCEPTIONS = {
    'sp_div_u64': 'core/sp_compat.h maps the kernel\'s div_u64() for the host',
    'sp_div_s64': 'core/sp_compat.h maps the kernel\'s div_s64() for the host',
    'sp_task_latency_us': 'latency.c: the one call the wake-up hook makes, '
                          'named for what it returns',
}

FUNC = re.compile(r'^(?:static\s+)?(?:inline\s+)?(?:notrace\s+)?(?:noinline\s+)?'
                  r'(?:const\s+)?(?:unsigned\s+|signed\s+|struct\s+\w+\s*|enum\s+\w+\s*)?'
                  r'[a-zA-Z_]\w*[\s\*]+\**(sp_\w+)\(')


def functions(path):
    out = []
    lines = open(path).read().split('\n')
    for i, l in enumerate(lines):
        m = FUNC.match(l)
        if not m or l.rstrip().endswith(';'):
            continue
        j = i
        while j < len(lines) and '{' not in lines[j] and ';' not in lines[j]:
            j += 1
        if j < len(lines) and lines[j].strip().startswith('{'):
            out.append((m.group(1), i + 1))
    return out


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(top)
    bad = 0
    for path, prefix in sorted(PREFIX.items()):
        if not os.path.exists(path):
            continue
        for name, line in functions(path):
            prefixes = prefix if isinstance(prefix, tuple) else (prefix,)
            if name.startswith(prefixes) or name in EXCEPTIONS or \
               any(name == p[:-1] for p in prefixes):
                continue
            print('%s:%d: %s() does not start with %s' % (path, line, name, ' or '.join(prefixes)))
            bad += 1
    files = [f for f in PREFIX if os.path.exists(f)]
    print('check-prefixes: %d files, %d functions outside their file\'s prefix, '
          '%d listed exceptions' % (len(files), bad, len(EXCEPTIONS)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
