# SPDX-License-Identifier: GPL-2.0
# Sphinx configuration for sched_power's Documentation/ (make htmldocs).
# scripts/htmldocs.sh sets the paths of the kernel's kerneldoc extension and
# scripts/kernel-doc, taken from linux-source-6.1 at build time.
import os
import sys

sys.path.insert(0, os.environ.get('SP_KDOC_EXT', ''))

project = 'sched_power'
copyright = '2026, sched_power developers'
master_doc = 'index'
extensions = ['kerneldoc']
kerneldoc_bin = os.environ.get('SP_KDOC_BIN', 'kernel-doc')
kerneldoc_srctree = os.environ.get('SP_SRCTREE', '..')
exclude_patterns = ['data', 'plots', 'sp-report', 'results.md', '_build']
html_theme = 'alabaster'
highlight_language = 'none'
# core/'s force-inline marker (core/sp_compat.h), an attribute to Sphinx's C domain
c_id_attributes = ['SP_INLINE']
