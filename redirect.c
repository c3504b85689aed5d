// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel functions the module reaches that are not exported: their
 * addresses, for the hooks and for latency.c's LSM check.
 *
 * Copyright (C) 2026 sched_power developers
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/string.h>

#include "sched_power.h"

/**
 * sp_redirect_lookup() - the address of a kernel function by name.
 * @name: the function's symbol name.
 *
 * kallsyms_lookup_name() is not exported; a kprobe registered disabled
 * resolves the name without ever being armed.  The offset sprint_symbol()
 * reports (an arch may place the probe past a landing pad) is taken off,
 * so the result is the entry an indirect call may target.
 *
 * Return: the address, or 0 if @name is not a probeable function.
 */
unsigned long sp_redirect_lookup(const char *name)
{
	struct kprobe kp = { .symbol_name = name, .flags = KPROBE_FLAG_DISABLED };
	char sym[KSYM_SYMBOL_LEN], *plus;
	unsigned long addr, off = 0;

	if (register_kprobe(&kp))
		return 0;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	sprint_symbol(sym, addr);
	plus = strchr(sym, '+');
	if (!plus || strncmp(sym, name, plus - sym) || plus - sym != strlen(name))
		return 0;
	if (sscanf(plus + 1, "0x%lx/", &off) != 1 || off > addr)
		return 0;
	return addr - off;
}
