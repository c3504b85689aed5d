#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# htmldocs.sh OUT: render Documentation/ with Sphinx into OUT (make
# htmldocs).  The kernel-doc comments are pulled from the sources by the
# kernel's own Sphinx extension (Documentation/sphinx/kerneldoc.py and
# kernellog.py) and scripts/kernel-doc, extracted once from Debian's
# /usr/src/linux-source-6.1.tar.xz into build/kernel-doc/ (or taken from
# $LINUX_SRC): used at build time, never copied into the repository.
# Warnings are errors (sphinx-build -W).  It then runs
# `kernel-doc -none -v` (6.1 has no -Wall; -v adds the return checks) over
# every file built into the module and fails
# on any warning.  Exit 4 (skip) when sphinx-build or the kernel source is
# missing.
set -euo pipefail
out=${1:?output dir}
top=$(cd "$(dirname "$0")/.." && pwd)
kd=$top/build/kernel-doc
skip() { echo "htmldocs: SKIP: $*"; exit 4; }
command -v sphinx-build >/dev/null || skip "sphinx-build missing (apt-get install python3-sphinx)"
if [ ! -x "$kd/scripts/kernel-doc" ]; then
	rm -rf "$kd" && mkdir -p "$kd"
	if [ -n "${LINUX_SRC:-}" ] && [ -x "$LINUX_SRC/scripts/kernel-doc" ]; then
		mkdir -p "$kd/scripts" "$kd/Documentation/sphinx"
		cp "$LINUX_SRC/scripts/kernel-doc" "$kd/scripts/"
		cp "$LINUX_SRC"/Documentation/sphinx/{kerneldoc,kernellog}.py "$kd/Documentation/sphinx/"
	else
		tar=/usr/src/linux-source-6.1.tar.xz
		[ -f "$tar" ] || skip "no $tar (apt-get install linux-source-6.1) and no LINUX_SRC"
		tar -xJf "$tar" -C "$kd" --strip-components=1 \
			linux-source-6.1/scripts/kernel-doc \
			linux-source-6.1/Documentation/sphinx/kerneldoc.py \
			linux-source-6.1/Documentation/sphinx/kernellog.py
	fi
fi
export SP_KDOC_BIN=$kd/scripts/kernel-doc
export SP_KDOC_EXT=$kd/Documentation/sphinx
export SP_SRCTREE=$top
# A directive whose DOC block or function kernel-doc does not find fails
# the build: kernel-doc only warns, and the extension shows its warnings
# only when kernel-doc fails.
export KDOC_WERROR=1
rm -rf "$out"
sphinx-build -q -W --keep-going -b html -d "$out/.doctrees" "$top/Documentation" "$out"
echo "htmldocs: $out/index.html"
cd "$top"
files=$(ls ./*.c ./*.h core/*.c core/*.h | grep -v '\.mod\.c$')
warn=$("$SP_KDOC_BIN" -none -v $files 2>&1 | grep -i "warning" || true)
if [ -n "$warn" ]; then
	printf '%s\n' "$warn" | head -n 40
	echo "htmldocs: kernel-doc -none -v: $(printf '%s\n' "$warn" | grep -c .) warnings"
	exit 1
fi
echo "htmldocs: kernel-doc -none -v clean on $(echo $files | wc -w) files"
