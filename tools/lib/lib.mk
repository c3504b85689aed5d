# SPDX-License-Identifier: GPL-2.0
# tools/lib: code more than one tool links (the bootstrap intervals of
# make vm-overhead and power-bench).  Sources, compiled into each tool.
BOOT_CI_SRCS := tools/lib/boot_ci.c
BOOT_CI_HDRS := tools/lib/boot_ci.h
